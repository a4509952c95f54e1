/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_TOOL_CHOOSER (tb_tool_chooser_get_type())

G_DECLARE_FINAL_TYPE (TbToolChooser, tb_tool_chooser, TB, TOOL_CHOOSER, GtkWidget)

void            tb_tool_chooser_set_registry         (TbToolChooser  *self,
                                                      TbToolRegistry *registry);
void            tb_tool_chooser_set_offered          (TbToolChooser  *self,
                                                      const char     *name,
                                                      gboolean        offered);
TbToolRegistry *tb_tool_chooser_get_offered_registry (TbToolChooser  *self);
void            tb_tool_chooser_set_editable         (TbToolChooser  *self,
                                                      gboolean        editable);

G_END_DECLS
