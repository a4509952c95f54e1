/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

#include "tb-timeline.h"

G_BEGIN_DECLS

#define TB_TYPE_TIMELINE_ROW (tb_timeline_row_get_type())

G_DECLARE_FINAL_TYPE (TbTimelineRow, tb_timeline_row, TB, TIMELINE_ROW, GtkWidget)

TbTimelineNode *tb_timeline_row_get_node (TbTimelineRow  *self);
void            tb_timeline_row_set_node (TbTimelineRow  *self,
                                          TbTimelineNode *node);
const char     *tb_timeline_row_get_text (TbTimelineRow  *self);

G_END_DECLS
