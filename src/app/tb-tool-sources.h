/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_TOOL_SOURCES (tb_tool_sources_get_type ())
G_DECLARE_FINAL_TYPE (TbToolSources, tb_tool_sources, TB, TOOL_SOURCES, GObject)

TbToolSources *tb_tool_sources_new          (TbToolRegistry *registry,
                                             GSettings      *settings);
TbMcpClient   *tb_tool_sources_get_client   (TbToolSources  *self,
                                             const char     *name);
void           tb_tool_sources_restart      (TbToolSources  *self,
                                             const char     *name);
GList         *tb_tool_sources_list_clients (TbToolSources  *self);
GListModel    *tb_tool_sources_get_plugins  (TbToolSources  *self);
const char    *tb_tool_sources_get_plugins_dir (TbToolSources *self);
gboolean       tb_tool_sources_get_plugins_loading (TbToolSources *self);
void           tb_tool_sources_reload_plugins (TbToolSources *self);
TbToolSources *tb_tool_sources_get_default  (void);
void           tb_tool_sources_set_default  (TbToolSources  *sources);

/**
 * TbUriLauncher:
 * @uri: the page a person has to open, such as an MCP server's sign-in
 * @user_data: closure data
 *
 * Returns: whether the page was opened
 */
typedef gboolean (*TbUriLauncher) (const char *uri,
                                   gpointer    user_data);


G_END_DECLS
