/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-mcp-client.h"

G_BEGIN_DECLS

#define TB_TYPE_MCP_SERVER_REQUEST (tb_mcp_server_request_get_type())

G_DECLARE_FINAL_TYPE (TbMcpServerRequest, tb_mcp_server_request, TB, MCP_SERVER_REQUEST, GObject)

const char       *tb_mcp_server_request_get_method   (TbMcpServerRequest  *self);
JsonNode         *tb_mcp_server_request_get_params   (TbMcpServerRequest  *self);
TbMcpClient      *tb_mcp_server_request_get_client   (TbMcpServerRequest  *self);
gboolean          tb_mcp_server_request_is_answered  (TbMcpServerRequest  *self);
void              tb_mcp_server_request_respond      (TbMcpServerRequest  *self,
                                                      JsonNode            *result);
void              tb_mcp_server_request_respond_error (TbMcpServerRequest *self,
                                                       int                 code,
                                                       const char         *message);
void              tb_mcp_server_request_accept       (TbMcpServerRequest  *self,
                                                      JsonNode            *content);
void              tb_mcp_server_request_decline      (TbMcpServerRequest  *self);
void              tb_mcp_server_request_cancel       (TbMcpServerRequest  *self);
JsonNode         *tb_mcp_elicitation_defaults        (JsonNode            *requested_schema);

G_END_DECLS
