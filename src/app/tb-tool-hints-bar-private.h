/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-tool-hints-bar.h"

G_BEGIN_DECLS

/* For the tests: the badges shown and who said so, as one line. */
char *tb_tool_hints_bar_describe (TbToolHintsBar *self);

G_END_DECLS
