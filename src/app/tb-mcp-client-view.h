/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_CLIENT_VIEW (tb_mcp_client_view_get_type())

G_DECLARE_DERIVABLE_TYPE (TbMcpClientView, tb_mcp_client_view, TB, MCP_CLIENT_VIEW, GtkWidget)

struct _TbMcpClientViewClass
{
  GtkWidgetClass parent_class;
};

TbMcpClient *tb_mcp_client_view_get_client (TbMcpClientView *self);

G_END_DECLS
