/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>

#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_PROVIDER_EDITOR (tb_provider_editor_get_type ())
G_DECLARE_FINAL_TYPE (TbProviderEditor, tb_provider_editor, TB, PROVIDER_EDITOR, GtkBox)

TbProviderEditor *tb_provider_editor_new (GSettings     *settings,
                                          TbSecretStore *store,
                                          const char    *name);

G_END_DECLS
