/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-mcp-client.h"
#include "tb-mcp-prompt.h"
#include "tb-mcp-resource.h"

G_BEGIN_DECLS

/**
 * TbMcpCompletionKind:
 * @TB_MCP_COMPLETION_PROMPT: an argument of a prompt (`ref/prompt`)
 * @TB_MCP_COMPLETION_RESOURCE_TEMPLATE: a variable of a resource template
 *   (`ref/resource`)
 *
 * What a completion request completes.
 */
typedef enum
{
  TB_MCP_COMPLETION_PROMPT,
  TB_MCP_COMPLETION_RESOURCE_TEMPLATE,
} TbMcpCompletionKind;

gboolean   tb_mcp_client_has_capability                (TbMcpClient          *self,
                                                        const char           *capability,
                                                        const char           *feature);
JsonArray *tb_mcp_client_get_server_icons              (TbMcpClient          *self);

void       tb_mcp_client_list_resources_async          (TbMcpClient          *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
GPtrArray *tb_mcp_client_list_resources_finish         (TbMcpClient          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
void       tb_mcp_client_list_resource_templates_async (TbMcpClient          *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
GPtrArray *tb_mcp_client_list_resource_templates_finish (TbMcpClient         *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);
void       tb_mcp_client_list_prompts_async            (TbMcpClient          *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
GPtrArray *tb_mcp_client_list_prompts_finish           (TbMcpClient          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
void       tb_mcp_client_read_resource_async           (TbMcpClient          *self,
                                                        const char           *uri,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
JsonArray *tb_mcp_client_read_resource_finish          (TbMcpClient          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
void       tb_mcp_client_subscribe_resource_async      (TbMcpClient          *self,
                                                        const char           *uri,
                                                        gboolean              subscribe,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean   tb_mcp_client_subscribe_resource_finish     (TbMcpClient          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
void       tb_mcp_client_get_prompt_async              (TbMcpClient          *self,
                                                        const char           *name,
                                                        JsonObject           *arguments,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
JsonObject *tb_mcp_client_get_prompt_finish            (TbMcpClient          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
void       tb_mcp_client_complete_async                (TbMcpClient          *self,
                                                        TbMcpCompletionKind   kind,
                                                        const char           *reference,
                                                        const char           *argument,
                                                        const char           *value,
                                                        JsonObject           *context,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
char     **tb_mcp_client_complete_finish               (TbMcpClient          *self,
                                                        GAsyncResult         *result,
                                                        gboolean             *has_more,
                                                        GError              **error);

GPtrArray *tb_mcp_prompt_result_to_messages            (JsonObject           *result,
                                                        GError              **error);

G_END_DECLS
