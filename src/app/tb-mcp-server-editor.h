/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_SERVER_EDITOR (tb_mcp_server_editor_get_type ())
G_DECLARE_FINAL_TYPE (TbMcpServerEditor, tb_mcp_server_editor, TB, MCP_SERVER_EDITOR, GtkBox)

TbMcpServerEditor *tb_mcp_server_editor_new (GSettings     *settings,
                                             TbSecretStore *store,
                                             const char    *name);

G_END_DECLS
