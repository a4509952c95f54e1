/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_PLUGIN_ROW (tb_plugin_row_get_type ())
G_DECLARE_FINAL_TYPE (TbPluginRow, tb_plugin_row, TB, PLUGIN_ROW, AdwActionRow)

GtkWidget *tb_plugin_row_new        (TbPlugin    *plugin);
TbPlugin  *tb_plugin_row_get_plugin (TbPluginRow *self);

G_END_DECLS
