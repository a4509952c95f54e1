/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-server-window"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-mcp-icon.h"
#include "tb-mcp-server-window-private.h"

/* A server's own window, opened from its row in the preferences: what it
 * offers besides tools (its resources and its prompts), its log (standard
 * error and log notifications, and the level it logs at) and its messages
 * (the protocol view), growing while the window is open. Its icon, when
 * the server names one, shows in the header bar. In a narrow window the
 * page switcher moves to the bottom. */

struct _TbMcpServerWindow
{
  AdwWindow            parent_instance;

  AdwViewSwitcherTitle *switcher_title;
  AdwViewStack         *stack;
  GtkImage             *server_icon;

  TbMcpClient          *client;
  GtkWidget            *resources_view;
  GtkWidget            *prompts_view;
  GtkWidget            *log_view;
  GtkWidget            *wire_view;
};

G_DEFINE_FINAL_TYPE (TbMcpServerWindow, tb_mcp_server_window, ADW_TYPE_WINDOW)

enum { PROP_0, PROP_CLIENT, N_PROPS };
static GParamSpec *properties [N_PROPS];

/* A new session may come with another icon. */
static void
update_icon (TbMcpServerWindow *self)
{
  if (tb_mcp_client_get_state (self->client) != TB_MCP_CLIENT_STATE_CONNECTING)
    tb_mcp_icon_show (self->server_icon, self->client, "network-server-symbolic");
}

static void
tb_mcp_server_window_constructed (GObject *object)
{
  TbMcpServerWindow *self = (TbMcpServerWindow *) object;
  AdwViewStackPage *page;
  g_autofree char *title = NULL;

  G_OBJECT_CLASS (tb_mcp_server_window_parent_class)->constructed (object);

  g_assert (TB_IS_MCP_CLIENT (self->client));

  self->resources_view = tb_mcp_resources_view_new (self->client);
  page = adw_view_stack_add_titled (self->stack, self->resources_view, "resources",
                                    _("_Resources"));
  adw_view_stack_page_set_use_underline (page, TRUE);
  adw_view_stack_page_set_icon_name (page, "folder-documents-symbolic");

  self->prompts_view = tb_mcp_prompts_view_new (self->client);
  page = adw_view_stack_add_titled (self->stack, self->prompts_view, "prompts", _("_Prompts"));
  adw_view_stack_page_set_use_underline (page, TRUE);
  adw_view_stack_page_set_icon_name (page, "mail-send-symbolic");

  self->log_view = tb_mcp_log_view_new (self->client);
  page = adw_view_stack_add_titled (self->stack, self->log_view, "log", _("_Log"));
  adw_view_stack_page_set_use_underline (page, TRUE);
  adw_view_stack_page_set_icon_name (page, "utilities-terminal-symbolic");

  self->wire_view = tb_mcp_wire_view_new (self->client);
  page = adw_view_stack_add_titled (self->stack, self->wire_view, "messages", _("_Messages"));
  adw_view_stack_page_set_use_underline (page, TRUE);
  adw_view_stack_page_set_icon_name (page, "network-transmit-receive-symbolic");
  adw_view_stack_set_visible_child_name (self->stack, "messages");

  /* Translators: %s is the name the person gave the MCP server. */
  title = g_strdup_printf (_("MCP Server “%s”"), tb_mcp_client_get_name (self->client));
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_view_switcher_title_set_title (self->switcher_title, title);
  update_icon (self);
  g_signal_connect_object (self->client, "notify::state", G_CALLBACK (update_icon), self,
                           G_CONNECT_SWAPPED);
}

static void
tb_mcp_server_window_dispose (GObject *object)
{
  TbMcpServerWindow *self = (TbMcpServerWindow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_SERVER_WINDOW);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (tb_mcp_server_window_parent_class)->dispose (object);
}

static void
tb_mcp_server_window_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TbMcpServerWindow *self = TB_MCP_SERVER_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_server_window_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TbMcpServerWindow *self = TB_MCP_SERVER_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      self->client = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_server_window_class_init (TbMcpServerWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tb_mcp_server_window_constructed;
  object_class->dispose = tb_mcp_server_window_dispose;
  object_class->get_property = tb_mcp_server_window_get_property;
  object_class->set_property = tb_mcp_server_window_set_property;

  /**
   * TbMcpServerWindow:client:
   *
   * The client whose server the window shows.
   */
  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, TB_TYPE_MCP_CLIENT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-server-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerWindow, server_icon);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
tb_mcp_server_window_init (TbMcpServerWindow *self)
{
  g_autoptr(GtkWindowGroup) group = gtk_window_group_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Opened from the modal Preferences, it would take no click while they
   * are shown: a group of its own keeps it out of their grab. */
  gtk_window_group_add_window (group, GTK_WINDOW (self));
}

/**
 * tb_mcp_server_window_new:
 * @client: an MCP client
 *
 * Returns: (transfer full): the window of @client's server, on its
 *   Messages page
 */
GtkWidget *
tb_mcp_server_window_new (TbMcpClient *client)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (client), NULL);

  return g_object_new (TB_TYPE_MCP_SERVER_WINDOW, "client", client, NULL);
}

TbMcpClient *
tb_mcp_server_window_get_client (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), NULL);
  return self->client;
}

/**
 * tb_mcp_server_window_show_page:
 * @self: a server's window
 * @name: "resources", "prompts", "log" or "messages"
 */
void
tb_mcp_server_window_show_page (TbMcpServerWindow *self,
                                const char        *name)
{
  g_return_if_fail (TB_IS_MCP_SERVER_WINDOW (self));
  g_return_if_fail (g_strcmp0 (name, "resources") == 0 || g_strcmp0 (name, "prompts") == 0
                    || g_strcmp0 (name, "log") == 0 || g_strcmp0 (name, "messages") == 0);

  adw_view_stack_set_visible_child_name (self->stack, name);
}

TbMcpWireView *
tb_mcp_server_window_get_wire_view (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), NULL);
  return TB_MCP_WIRE_VIEW (self->wire_view);
}

TbMcpResourcesView *
tb_mcp_server_window_get_resources_view (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), NULL);
  return TB_MCP_RESOURCES_VIEW (self->resources_view);
}

TbMcpPromptsView *
tb_mcp_server_window_get_prompts_view (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), NULL);
  return TB_MCP_PROMPTS_VIEW (self->prompts_view);
}

GtkImage *
tb_mcp_server_window_get_icon (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), NULL);
  return self->server_icon;
}

TbMcpLogView *
tb_mcp_server_window_get_log_view (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), NULL);
  return TB_MCP_LOG_VIEW (self->log_view);
}

const char *
tb_mcp_server_window_get_page (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), NULL);
  return adw_view_stack_get_visible_child_name (self->stack);
}

/* Whether the window is narrow enough that the switcher went to the bottom. */
gboolean
tb_mcp_server_window_get_narrow (TbMcpServerWindow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_WINDOW (self), FALSE);
  return adw_view_switcher_title_get_title_visible (self->switcher_title);
}
