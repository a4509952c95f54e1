/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_PROMPT_FORM (tb_mcp_prompt_form_get_type())

G_DECLARE_FINAL_TYPE (TbMcpPromptForm, tb_mcp_prompt_form, TB, MCP_PROMPT_FORM, GtkWidget)

GtkWidget   *tb_mcp_prompt_form_new        (TbMcpClient     *client,
                                            TbMcpPrompt     *prompt);
TbMcpPrompt *tb_mcp_prompt_form_get_prompt (TbMcpPromptForm *self);
void         tb_mcp_prompt_form_focus      (TbMcpPromptForm *self);

G_END_DECLS
