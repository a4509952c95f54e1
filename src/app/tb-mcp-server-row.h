/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_SERVER_ROW (tb_mcp_server_row_get_type ())
G_DECLARE_FINAL_TYPE (TbMcpServerRow, tb_mcp_server_row, TB, MCP_SERVER_ROW, AdwActionRow)

GtkWidget   *tb_mcp_server_row_new         (const char     *name,
                                            const char     *summary,
                                            gboolean        enabled,
                                            TbMcpClient    *client);
const char  *tb_mcp_server_row_get_server_name (TbMcpServerRow *self);
gboolean     tb_mcp_server_row_get_enabled     (TbMcpServerRow *self);

G_END_DECLS
