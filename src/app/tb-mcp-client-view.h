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

  /* A page that lists something of the server's sets both: the client's
   * signal that says the list changed, and how the page asks for it. */
  const char    *list_changed_signal;
  void         (*reload) (TbMcpClientView *self);
};

TbMcpClient *tb_mcp_client_view_get_client (TbMcpClientView *self);
void         tb_mcp_client_view_reload     (TbMcpClientView *self);
gboolean     tb_mcp_client_view_get_loaded (TbMcpClientView *self);

G_END_DECLS
