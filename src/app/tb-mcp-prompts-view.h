/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-mcp-client-view.h"

G_BEGIN_DECLS

#define TB_TYPE_MCP_PROMPTS_VIEW (tb_mcp_prompts_view_get_type())

G_DECLARE_FINAL_TYPE (TbMcpPromptsView, tb_mcp_prompts_view, TB, MCP_PROMPTS_VIEW, TbMcpClientView)

GtkWidget *tb_mcp_prompts_view_new    (TbMcpClient      *client);
void       tb_mcp_prompts_view_reload (TbMcpPromptsView *self);

G_END_DECLS
