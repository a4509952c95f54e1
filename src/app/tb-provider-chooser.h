/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_PROVIDER_CHOOSER (tb_provider_chooser_get_type())

G_DECLARE_FINAL_TYPE (TbProviderChooser, tb_provider_chooser, TB, PROVIDER_CHOOSER, GtkWidget)

void         tb_provider_chooser_set_settings        (TbProviderChooser  *self,
                                                      GSettings          *settings);
void         tb_provider_chooser_set_provider        (TbProviderChooser  *self,
                                                      TbProvider         *provider);
gboolean     tb_provider_chooser_set_script_file     (TbProviderChooser  *self,
                                                      GFile              *file,
                                                      GError            **error);
TbProvider  *tb_provider_chooser_create_provider     (TbProviderChooser  *self,
                                                      GError            **error);
gboolean     tb_provider_chooser_get_key_pending     (TbProviderChooser  *self);
GtkDropDown *tb_provider_chooser_get_dropdown        (TbProviderChooser  *self);
GtkEditable *tb_provider_chooser_get_model_entry     (TbProviderChooser  *self);

G_END_DECLS
