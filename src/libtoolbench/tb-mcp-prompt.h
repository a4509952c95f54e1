/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_PROMPT (tb_mcp_prompt_get_type ())
G_DECLARE_FINAL_TYPE (TbMcpPrompt, tb_mcp_prompt, TB, MCP_PROMPT, GObject)

TbMcpPrompt *tb_mcp_prompt_new_from_json      (JsonObject  *definition);
const char  *tb_mcp_prompt_get_name           (TbMcpPrompt *self);
const char  *tb_mcp_prompt_get_title          (TbMcpPrompt *self);
const char  *tb_mcp_prompt_get_display_name   (TbMcpPrompt *self);
const char  *tb_mcp_prompt_get_description    (TbMcpPrompt *self);
JsonArray   *tb_mcp_prompt_get_icons          (TbMcpPrompt *self);
guint        tb_mcp_prompt_get_n_arguments    (TbMcpPrompt *self);
const char  *tb_mcp_prompt_get_argument_name  (TbMcpPrompt *self,
                                               guint        index);
const char  *tb_mcp_prompt_get_argument_description (TbMcpPrompt *self,
                                                     guint        index);
gboolean     tb_mcp_prompt_get_argument_required    (TbMcpPrompt *self,
                                                     guint        index);
gboolean     tb_mcp_prompt_check_arguments    (TbMcpPrompt *self,
                                               JsonObject  *arguments,
                                               GError     **error);

G_END_DECLS
