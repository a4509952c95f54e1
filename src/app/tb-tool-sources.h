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
char         **tb_tool_sources_get_problems (TbToolSources  *self);
GList         *tb_tool_sources_list_clients (TbToolSources  *self);
TbToolSources *tb_tool_sources_get_default  (void);
void           tb_tool_sources_set_default  (TbToolSources  *sources);

G_END_DECLS
