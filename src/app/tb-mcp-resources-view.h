/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-mcp-client-view.h"

G_BEGIN_DECLS

#define TB_TYPE_MCP_RESOURCES_VIEW (tb_mcp_resources_view_get_type())

G_DECLARE_FINAL_TYPE (TbMcpResourcesView, tb_mcp_resources_view, TB, MCP_RESOURCES_VIEW, TbMcpClientView)

GtkWidget *tb_mcp_resources_view_new    (TbMcpClient        *client);
void       tb_mcp_resources_view_reload (TbMcpResourcesView *self);

G_END_DECLS
