/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

#include "tb-mcp-client.h"
#include "tb-mcp-wire-record.h"
#include "tb-redact.h"

G_BEGIN_DECLS

#define TB_TYPE_MCP_WIRE_WRITER (tb_mcp_wire_writer_get_type())

G_DECLARE_FINAL_TYPE (TbMcpWireWriter, tb_mcp_wire_writer, TB, MCP_WIRE_WRITER, GObject)

TbMcpWireWriter *tb_mcp_wire_writer_new_for_path (const char       *path,
                                                  GError          **error);
const char      *tb_mcp_wire_writer_get_path     (TbMcpWireWriter  *self);
void             tb_mcp_wire_writer_set_redactor (TbMcpWireWriter  *self,
                                                  TbRedactor       *redactor);
gboolean         tb_mcp_wire_writer_write        (TbMcpWireWriter  *self,
                                                  TbMcpWireRecord  *record,
                                                  GError          **error);
gboolean         tb_mcp_wire_writer_write_all    (TbMcpWireWriter  *self,
                                                  GListModel       *records,
                                                  GError          **error);
void             tb_mcp_wire_writer_watch        (TbMcpWireWriter  *self,
                                                  TbMcpClient      *client);
const GError    *tb_mcp_wire_writer_get_error    (TbMcpWireWriter  *self);
gboolean         tb_mcp_wire_writer_close        (TbMcpWireWriter  *self,
                                                  GError          **error);

G_END_DECLS
