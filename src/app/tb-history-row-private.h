/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-history-row.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

gboolean        tb_history_row_get_show_tool (TbHistoryRow   *self);

G_END_DECLS
