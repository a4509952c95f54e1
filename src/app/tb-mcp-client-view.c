/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "tb-app-util.h"
#include "tb-mcp-client-view.h"

/* What the pages of a server's window have in common: the client they
 * show, given when the page is made and kept for its life. A page stops
 * hearing from the client and lets go of its children when it goes. */

typedef struct
{
  TbMcpClient *client;
} TbMcpClientViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TbMcpClientView, tb_mcp_client_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_CLIENT, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
tb_mcp_client_view_dispose (GObject *object)
{
  TbMcpClientView *self = TB_MCP_CLIENT_VIEW (object);
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  if (priv->client != NULL)
    g_signal_handlers_disconnect_by_data (priv->client, self);
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&priv->client);

  G_OBJECT_CLASS (tb_mcp_client_view_parent_class)->dispose (object);
}

static void
tb_mcp_client_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TbMcpClientView *self = TB_MCP_CLIENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, tb_mcp_client_view_get_client (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_client_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  TbMcpClientView *self = TB_MCP_CLIENT_VIEW (object);
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_CLIENT:
      priv->client = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_client_view_class_init (TbMcpClientViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_mcp_client_view_dispose;
  object_class->get_property = tb_mcp_client_view_get_property;
  object_class->set_property = tb_mcp_client_view_set_property;

  /**
   * TbMcpClientView:client:
   *
   * The client whose server the page shows.
   */
  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, TB_TYPE_MCP_CLIENT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_mcp_client_view_init (TbMcpClientView *self)
{
}

/**
 * tb_mcp_client_view_get_client:
 * @self: a page of a server's window
 *
 * Returns: (transfer none): the client whose server the page shows;
 *   %NULL once the page is disposed
 */
TbMcpClient *
tb_mcp_client_view_get_client (TbMcpClientView *self)
{
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  g_return_val_if_fail (TB_IS_MCP_CLIENT_VIEW (self), NULL);

  return priv->client;
}
