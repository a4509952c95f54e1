/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach in a server's Prompts page. */

#include "tb-mcp-prompt-form-private.h"
#include "tb-mcp-prompts-view.h"

G_BEGIN_DECLS

gboolean         tb_mcp_prompts_view_is_settled       (TbMcpPromptsView *self);
const char      *tb_mcp_prompts_view_get_state        (TbMcpPromptsView *self);
const char      *tb_mcp_prompts_view_get_status_title (TbMcpPromptsView *self);
const char      *tb_mcp_prompts_view_get_status_text  (TbMcpPromptsView *self);
GtkEditable     *tb_mcp_prompts_view_get_search_entry (TbMcpPromptsView *self);
guint            tb_mcp_prompts_view_get_n_rows       (TbMcpPromptsView *self);
char            *tb_mcp_prompts_view_get_row_text     (TbMcpPromptsView *self,
                                                       guint             position);
gboolean         tb_mcp_prompts_view_select           (TbMcpPromptsView *self,
                                                       const char       *name);
const char      *tb_mcp_prompts_view_get_page         (TbMcpPromptsView *self);
TbMcpPromptForm *tb_mcp_prompts_view_get_form         (TbMcpPromptsView *self);

G_END_DECLS
