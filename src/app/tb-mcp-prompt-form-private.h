/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach in a prompt's form. */

#include "tb-mcp-argument-entry.h"
#include "tb-mcp-prompt-form.h"

G_BEGIN_DECLS

guint               tb_mcp_prompt_form_get_n_fields    (TbMcpPromptForm *self);
TbMcpArgumentEntry *tb_mcp_prompt_form_get_field       (TbMcpPromptForm *self,
                                                        const char      *argument);
const char         *tb_mcp_prompt_form_get_message     (TbMcpPromptForm *self);
gboolean            tb_mcp_prompt_form_is_settled      (TbMcpPromptForm *self);
const char         *tb_mcp_prompt_form_get_result_text (TbMcpPromptForm *self);
guint               tb_mcp_prompt_form_get_n_requests  (TbMcpPromptForm *self);

G_END_DECLS
