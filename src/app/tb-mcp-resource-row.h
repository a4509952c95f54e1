/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_RESOURCE_ROW (tb_mcp_resource_row_get_type())

G_DECLARE_FINAL_TYPE (TbMcpResourceRow, tb_mcp_resource_row, TB, MCP_RESOURCE_ROW, GtkBox)

GtkWidget     *tb_mcp_resource_row_new            (void);
TbMcpResource *tb_mcp_resource_row_get_resource   (TbMcpResourceRow *self);
void           tb_mcp_resource_row_set_resource   (TbMcpResourceRow *self,
                                                   TbMcpResource    *resource);
void           tb_mcp_resource_row_set_text       (TbMcpResourceRow *self,
                                                   const char       *title,
                                                   const char       *uri,
                                                   const char       *details);
void           tb_mcp_resource_row_set_can_subscribe (TbMcpResourceRow *self,
                                                      gboolean          can_subscribe);
gboolean       tb_mcp_resource_row_get_subscribed (TbMcpResourceRow *self);
void           tb_mcp_resource_row_set_subscribed (TbMcpResourceRow *self,
                                                   gboolean          subscribed);

G_END_DECLS
