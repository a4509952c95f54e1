/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

#include "tb-tool-registry.h"
#include "tb-types.h"

G_BEGIN_DECLS

/**
 * TB_PLUGINS_MAX:
 *
 * The most plugins one folder loads: 256. Files past it, in name order,
 * are listed as failed, saying so.
 */
#define TB_PLUGINS_MAX 256

/**
 * TB_PLUGIN_LIST_TIMEOUT_MS:
 *
 * How long a plugin may take to list its tools: 10 seconds. A plugin that
 * takes longer is stopped and listed as failed.
 */
#define TB_PLUGIN_LIST_TIMEOUT_MS 10000

#define TB_TYPE_PLUGIN (tb_plugin_get_type ())

G_DECLARE_FINAL_TYPE (TbPlugin, tb_plugin, TB, PLUGIN, GObject)

const char         *tb_plugin_get_name         (TbPlugin            *self);
const char         *tb_plugin_get_path         (TbPlugin            *self);
TbPluginState       tb_plugin_get_state        (TbPlugin            *self);
const char         *tb_plugin_get_message      (TbPlugin            *self);
const char * const *tb_plugin_get_tools        (TbPlugin            *self);
const char         *tb_plugin_get_source       (TbPlugin            *self);

char               *tb_plugins_get_default_dir (void);
void                tb_plugins_load_async      (TbToolRegistry      *registry,
                                                const char          *dir,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
GListModel         *tb_plugins_load_finish     (GAsyncResult        *result,
                                                GError             **error);

G_END_DECLS
