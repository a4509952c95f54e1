/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_WIRE_ROW (tb_mcp_wire_row_get_type())

G_DECLARE_FINAL_TYPE (TbMcpWireRow, tb_mcp_wire_row, TB, MCP_WIRE_ROW, GtkWidget)

void             tb_mcp_wire_row_set_record   (TbMcpWireRow    *self,
                                               TbMcpWireRecord *record);
TbMcpWireRecord *tb_mcp_wire_row_get_record   (TbMcpWireRow    *self);
char            *tb_mcp_wire_row_describe     (TbMcpWireRecord *record);
char            *tb_mcp_wire_row_what         (TbMcpWireRecord *record);
char            *tb_mcp_wire_row_format_size  (TbMcpWireRecord *record);

G_END_DECLS
