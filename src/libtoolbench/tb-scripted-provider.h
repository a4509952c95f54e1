/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-provider.h"

G_BEGIN_DECLS

/**
 * TB_SCRIPTED_PROVIDER_DEMO_RESOURCE:
 *
 * The demo script embedded in libtoolbench: it drives the demo tools
 * (add, then echo, then a text answer) with no key and no network.
 */
#define TB_SCRIPTED_PROVIDER_DEMO_RESOURCE "/io/github/toolbench/Toolbench/engine/demo-script.json"

#define TB_TYPE_SCRIPTED_PROVIDER (tb_scripted_provider_get_type())

G_DECLARE_FINAL_TYPE (TbScriptedProvider, tb_scripted_provider, TB, SCRIPTED_PROVIDER, GObject)

TbScriptedProvider *tb_scripted_provider_new                (void);
TbScriptedProvider *tb_scripted_provider_new_from_json      (JsonNode           *script,
                                                             GError            **error);
TbScriptedProvider *tb_scripted_provider_new_from_file      (const char         *path,
                                                             GError            **error);
TbScriptedProvider *tb_scripted_provider_new_from_resource  (const char         *resource_path,
                                                             GError            **error);
TbScriptedProvider *tb_scripted_provider_new_demo           (void);
gboolean            tb_scripted_provider_append_json        (TbScriptedProvider *self,
                                                             JsonNode           *entry,
                                                             GError            **error);
void                tb_scripted_provider_append_response    (TbScriptedProvider *self,
                                                             TbMessage          *message,
                                                             const char         *finish_reason);
void                tb_scripted_provider_append_error       (TbScriptedProvider *self,
                                                             const char         *message);
guint               tb_scripted_provider_get_n_responses    (TbScriptedProvider *self);
guint               tb_scripted_provider_get_position       (TbScriptedProvider *self);
gboolean            tb_scripted_provider_get_repeat         (TbScriptedProvider *self);
void                tb_scripted_provider_set_repeat         (TbScriptedProvider *self,
                                                             gboolean            repeat);

G_END_DECLS
