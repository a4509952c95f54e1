/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-types.h"

G_BEGIN_DECLS

/**
 * TB_MCP_WIRE_MAX_TEXT:
 *
 * The most of one message a record keeps: 256 KiB. A larger message is
 * kept cut at this size, marked truncated, with its full size.
 */
#define TB_MCP_WIRE_MAX_TEXT (256 * 1024)

/**
 * TB_MCP_WIRE_HISTORY_MAX_RECORDS:
 *
 * The most records the protocol view of one client keeps: the oldest go
 * first.
 */
#define TB_MCP_WIRE_HISTORY_MAX_RECORDS 2000

/**
 * TB_MCP_WIRE_HISTORY_MAX_BYTES:
 *
 * The most bytes of text (messages and headers) the protocol view of one
 * client keeps: 8 MiB. The oldest records go first.
 */
#define TB_MCP_WIRE_HISTORY_MAX_BYTES (8 * 1024 * 1024)

#define TB_TYPE_MCP_WIRE_RECORD (tb_mcp_wire_record_get_type())

G_DECLARE_FINAL_TYPE (TbMcpWireRecord, tb_mcp_wire_record, TB, MCP_WIRE_RECORD, GObject)

TbMcpWireRecord    *tb_mcp_wire_record_new_from_json (JsonNode         *node,
                                                      GError          **error);
guint64             tb_mcp_wire_record_get_seq       (TbMcpWireRecord  *self);
gint64              tb_mcp_wire_record_get_time      (TbMcpWireRecord  *self);
const char         *tb_mcp_wire_record_get_server    (TbMcpWireRecord  *self);
const char         *tb_mcp_wire_record_get_protocol  (TbMcpWireRecord  *self);
TbMcpWireDirection  tb_mcp_wire_record_get_direction (TbMcpWireRecord  *self);
TbMcpWireKind       tb_mcp_wire_record_get_kind      (TbMcpWireRecord  *self);
const char         *tb_mcp_wire_record_get_method    (TbMcpWireRecord  *self);
const char         *tb_mcp_wire_record_get_id        (TbMcpWireRecord  *self);
guint64             tb_mcp_wire_record_get_size      (TbMcpWireRecord  *self);
const char         *tb_mcp_wire_record_get_text      (TbMcpWireRecord  *self);
gboolean            tb_mcp_wire_record_get_truncated (TbMcpWireRecord  *self);
const char         *tb_mcp_wire_record_get_problem   (TbMcpWireRecord  *self);
const char         *tb_mcp_wire_record_get_call_id   (TbMcpWireRecord  *self);
guint               tb_mcp_wire_record_get_exchange  (TbMcpWireRecord  *self);
JsonObject         *tb_mcp_wire_record_get_http      (TbMcpWireRecord  *self);
JsonNode           *tb_mcp_wire_record_dup_message   (TbMcpWireRecord  *self);
JsonNode           *tb_mcp_wire_record_to_json       (TbMcpWireRecord  *self);
char               *tb_mcp_wire_record_to_line       (TbMcpWireRecord  *self);

G_END_DECLS
