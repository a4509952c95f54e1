/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-mcp-client.h"
#include "tb-tool.h"

G_BEGIN_DECLS

#define TB_TYPE_MCP_TOOL (tb_mcp_tool_get_type())

G_DECLARE_FINAL_TYPE (TbMcpTool, tb_mcp_tool, TB, MCP_TOOL, TbTool)

TbMcpClient *tb_mcp_tool_get_client        (TbMcpTool *self);
const char  *tb_mcp_tool_get_remote_name   (TbMcpTool *self);
const char  *tb_mcp_tool_get_title         (TbMcpTool *self);
JsonNode    *tb_mcp_tool_get_output_schema (TbMcpTool *self);
JsonNode    *tb_mcp_tool_get_annotations   (TbMcpTool *self);
const char  *tb_mcp_tool_get_schema_error  (TbMcpTool *self);
TbToolResult *tb_mcp_result_to_tool_result (const char *server,
                                            const char *tool,
                                            JsonNode   *output_schema,
                                            JsonNode   *result);

G_END_DECLS
