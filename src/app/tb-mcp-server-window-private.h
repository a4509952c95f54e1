/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach in a server's window. */

#include "tb-mcp-log-view.h"
#include "tb-mcp-prompts-view.h"
#include "tb-mcp-resources-view.h"
#include "tb-mcp-server-window.h"
#include "tb-mcp-wire-view.h"

G_BEGIN_DECLS

TbMcpWireView *tb_mcp_server_window_get_wire_view (TbMcpServerWindow *self);
TbMcpLogView  *tb_mcp_server_window_get_log_view  (TbMcpServerWindow *self);
TbMcpResourcesView *tb_mcp_server_window_get_resources_view (TbMcpServerWindow *self);
TbMcpPromptsView   *tb_mcp_server_window_get_prompts_view   (TbMcpServerWindow *self);
GtkImage           *tb_mcp_server_window_get_icon           (TbMcpServerWindow *self);
const char    *tb_mcp_server_window_get_page      (TbMcpServerWindow *self);
gboolean       tb_mcp_server_window_get_narrow    (TbMcpServerWindow *self);

void         tb_mcp_server_window_show_page  (TbMcpServerWindow *self,
                                              const char        *name);

G_END_DECLS
