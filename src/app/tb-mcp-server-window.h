/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_SERVER_WINDOW (tb_mcp_server_window_get_type())

G_DECLARE_FINAL_TYPE (TbMcpServerWindow, tb_mcp_server_window, TB, MCP_SERVER_WINDOW, AdwWindow)

GtkWidget   *tb_mcp_server_window_new        (TbMcpClient       *client);
TbMcpClient *tb_mcp_server_window_get_client (TbMcpServerWindow *self);

G_END_DECLS
