/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_TOOL_HINTS_BAR (tb_tool_hints_bar_get_type())

G_DECLARE_FINAL_TYPE (TbToolHintsBar, tb_tool_hints_bar, TB, TOOL_HINTS_BAR, GtkWidget)

void tb_tool_hints_bar_setup    (TbToolHintsBar *self,
                                 TbToolRegistry *registry,
                                 GSettings      *settings);
void tb_tool_hints_bar_set_tool (TbToolHintsBar *self,
                                 TbTool         *tool);

G_END_DECLS
