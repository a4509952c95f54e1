/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-mcp-client-view.h"

G_BEGIN_DECLS

#define TB_TYPE_MCP_WIRE_VIEW (tb_mcp_wire_view_get_type())

G_DECLARE_FINAL_TYPE (TbMcpWireView, tb_mcp_wire_view, TB, MCP_WIRE_VIEW, TbMcpClientView)

GtkWidget *tb_mcp_wire_view_new       (TbMcpClient   *client);

G_END_DECLS
