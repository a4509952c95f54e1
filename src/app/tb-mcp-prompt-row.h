/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_PROMPT_ROW (tb_mcp_prompt_row_get_type())

G_DECLARE_FINAL_TYPE (TbMcpPromptRow, tb_mcp_prompt_row, TB, MCP_PROMPT_ROW, GtkBox)

GtkWidget   *tb_mcp_prompt_row_new        (void);
TbMcpPrompt *tb_mcp_prompt_row_get_prompt (TbMcpPromptRow *self);
void         tb_mcp_prompt_row_set_prompt (TbMcpPromptRow *self,
                                           TbMcpPrompt    *prompt);
char        *tb_mcp_prompt_row_describe   (TbMcpPrompt    *prompt);

G_END_DECLS
