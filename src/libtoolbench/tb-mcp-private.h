/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <libsoup/soup.h>

#include "tb-mcp-auth.h"
#include "tb-mcp-client.h"

G_BEGIN_DECLS

/* A transport carries JSON-RPC messages between the client and one server
 * connection. It calls back into the client with the generation it was
 * started for, so that a late event of an old connection is ignored. */
typedef struct _TbMcpHttp TbMcpHttp;

/* Called by transports. */
void       _tb_mcp_client_receive      (TbMcpClient  *self,
                                        guint         generation,
                                        JsonNode     *message);
void       _tb_mcp_client_lost         (TbMcpClient  *self,
                                        guint         generation,
                                        const char   *cause);
void       _tb_mcp_client_request_failed (TbMcpClient *self,
                                          guint        generation,
                                          gint64       id,
                                          const GError *error);
void       _tb_mcp_client_hold_request (TbMcpClient  *self,
                                        guint         generation,
                                        gint64        id,
                                        gboolean      hold);
void       _tb_mcp_client_log          (TbMcpClient  *self,
                                        const char   *origin,
                                        const char   *level,
                                        const char   *text);
JsonNode  *_tb_mcp_parse_message       (const char   *text,
                                        gsize         length,
                                        GError      **error);

/* The streamable HTTP transport (tb-mcp-http.c). */
TbMcpHttp *_tb_mcp_http_new            (TbMcpClient        *client,
                                        guint               generation,
                                        const char         *url,
                                        const char * const *headers);
void       _tb_mcp_http_send           (TbMcpHttp          *self,
                                        JsonNode           *message,
                                        gint64              request_id);
void       _tb_mcp_http_set_protocol_version (TbMcpHttp    *self,
                                              const char   *version);
/* Parameters mirrored into headers (tb-mcp-param-headers.c). */
gboolean   _tb_mcp_param_headers_check (JsonObject         *input_schema,
                                        GError            **error);
GStrv      _tb_mcp_param_headers_collect (JsonObject       *input_schema,
                                          JsonObject       *arguments);
char      *_tb_mcp_header_value        (const char         *value);
JsonObject *_tb_mcp_client_find_tool_schema (TbMcpClient   *self,
                                             const char    *name);

void       _tb_mcp_http_set_stateless  (TbMcpHttp          *self,
                                        gboolean            stateless);
void       _tb_mcp_http_open_stream    (TbMcpHttp          *self);
void       _tb_mcp_http_end_listening  (TbMcpHttp          *self);
void       _tb_mcp_client_stream_broke (TbMcpClient        *client,
                                        guint               generation,
                                        gint64              request_id);
void       _tb_mcp_http_free           (TbMcpHttp          *self);

void       _tb_mcp_client_call_tool    (TbMcpClient        *self,
                                        const char         *name,
                                        JsonNode           *arguments,
                                        const char         *traceparent,
                                        TbMcpProgressFunc   progress,
                                        gpointer            progress_data,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
guint      _tb_mcp_client_get_tool_timeout_ms (TbMcpClient  *self);

/* The MCP tool (tb-mcp-tool.c). */
TbTool    *_tb_mcp_tool_new            (TbMcpClient        *client,
                                        const char         *local_name,
                                        JsonObject         *definition);
const char *_tb_mcp_tool_get_remote_name (TbTool           *tool);
JsonNode  *_tb_mcp_tool_get_definition (TbTool             *tool);

G_END_DECLS
