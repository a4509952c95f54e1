/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TB_TYPE_HEADING_ROW (tb_heading_row_get_type())

G_DECLARE_FINAL_TYPE (TbHeadingRow, tb_heading_row, TB, HEADING_ROW, GtkWidget)

GtkWidget *tb_heading_row_new        (void);
gboolean   tb_heading_row_get_folded (TbHeadingRow *self);

G_END_DECLS
