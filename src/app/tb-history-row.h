/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

#include "tb-history.h"

G_BEGIN_DECLS

#define TB_TYPE_HISTORY_ROW (tb_history_row_get_type())

G_DECLARE_FINAL_TYPE (TbHistoryRow, tb_history_row, TB, HISTORY_ROW, GtkListBoxRow)

GtkWidget      *tb_history_row_new           (TbHistoryEntry *entry,
                                              gboolean        show_tool);
TbHistoryEntry *tb_history_row_get_entry     (TbHistoryRow   *self);

G_END_DECLS
