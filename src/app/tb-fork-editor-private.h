/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read of the fork editor. */

#include "tb-fork-editor.h"

G_BEGIN_DECLS

const char    *tb_fork_editor_get_heading    (TbForkEditor  *self);
const char    *tb_fork_editor_get_error      (TbForkEditor  *self);

G_END_DECLS
