/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "tb-app-util.h"
#include "tb-mcp-client-view.h"

/* What the pages of a server's window have in common: the client they
 * show, given when the page is made and kept for its life. A page stops
 * hearing from the client and lets go of its children when it goes.
 *
 * A page that lists something of the server's (its resources, its
 * prompts) asks for the list the first time it is shown, not before, and
 * from then on again whenever the server says the list changed or the
 * server starts or stops. */

typedef struct
{
  TbMcpClient *client;
  gboolean     loaded;
} TbMcpClientViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TbMcpClientView, tb_mcp_client_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_CLIENT, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
on_list_changed (TbMcpClientView *self)
{
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  if (priv->loaded)
    tb_mcp_client_view_reload (self);
}

static void
on_state_changed (TbMcpClientView *self)
{
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  if (priv->loaded && tb_mcp_client_get_state (priv->client) != TB_MCP_CLIENT_STATE_CONNECTING)
    tb_mcp_client_view_reload (self);
}

static void
tb_mcp_client_view_map (GtkWidget *widget)
{
  TbMcpClientView *self = TB_MCP_CLIENT_VIEW (widget);
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  GTK_WIDGET_CLASS (tb_mcp_client_view_parent_class)->map (widget);
  if (!priv->loaded && TB_MCP_CLIENT_VIEW_GET_CLASS (self)->reload != NULL)
    tb_mcp_client_view_reload (self);
}

static void
tb_mcp_client_view_constructed (GObject *object)
{
  TbMcpClientView *self = TB_MCP_CLIENT_VIEW (object);
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);
  TbMcpClientViewClass *klass = TB_MCP_CLIENT_VIEW_GET_CLASS (self);

  G_OBJECT_CLASS (tb_mcp_client_view_parent_class)->constructed (object);

  g_assert (TB_IS_MCP_CLIENT (priv->client));
  if (klass->reload == NULL)
    return;
  g_signal_connect_object (priv->client, klass->list_changed_signal,
                           G_CALLBACK (on_list_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (priv->client, "notify::state",
                           G_CALLBACK (on_state_changed), self, G_CONNECT_SWAPPED);
}

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
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tb_mcp_client_view_constructed;
  object_class->dispose = tb_mcp_client_view_dispose;
  widget_class->map = tb_mcp_client_view_map;
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

/**
 * tb_mcp_client_view_reload:
 * @self: a page that lists something of the server's
 *
 * Asks the server for the list again; from now on the page follows the
 * server's changes.
 */
void
tb_mcp_client_view_reload (TbMcpClientView *self)
{
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  g_return_if_fail (TB_IS_MCP_CLIENT_VIEW (self));
  g_return_if_fail (TB_MCP_CLIENT_VIEW_GET_CLASS (self)->reload != NULL);

  priv->loaded = TRUE;
  TB_MCP_CLIENT_VIEW_GET_CLASS (self)->reload (self);
}

/**
 * tb_mcp_client_view_get_loaded:
 * @self: a page that lists something of the server's
 *
 * Returns: whether the page has asked for its list (it is asked the first
 *   time the page is shown)
 */
gboolean
tb_mcp_client_view_get_loaded (TbMcpClientView *self)
{
  TbMcpClientViewPrivate *priv = tb_mcp_client_view_get_instance_private (self);

  g_return_val_if_fail (TB_IS_MCP_CLIENT_VIEW (self), FALSE);

  return priv->loaded;
}
