/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_TOOL_ROW (tb_tool_row_get_type())

G_DECLARE_FINAL_TYPE (TbToolRow, tb_tool_row, TB, TOOL_ROW, GtkBox)

TbTool *tb_tool_row_get_tool (TbToolRow *self);
void    tb_tool_row_set_tool (TbToolRow *self,
                              TbTool    *tool);

G_END_DECLS
