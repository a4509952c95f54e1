/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-server-row"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-mcp-icon.h"
#include "tb-mcp-server-row.h"
#include "tb-mcp-server-window.h"
#include "tb-tool-sources.h"

/* One MCP server in the preferences: its name, its command or URL and,
 * while the app runs it, its state, with buttons to restart it and to open
 * its window (its log and its messages). Editing goes to the window's "prefs.edit-mcp-server" action
 * with the row's name; turning it on or off changes the row's "enabled",
 * which the window saves. */

struct _TbMcpServerRow
{
  AdwActionRow  parent_instance;

  char         *name;
  char         *summary;
  gboolean      enabled;
  TbMcpClient  *client;

  GtkWidget    *icon;
  GtkWidget    *log_button;
  GtkWidget    *restart_button;
  GtkWidget    *account_button;
  GtkWidget    *window;         /* the server's window while it is open */
};

enum { PROP_0, PROP_SERVER_NAME, PROP_SUMMARY, PROP_ENABLED, PROP_CLIENT, N_PROPS };

static GParamSpec *properties [N_PROPS];

G_DEFINE_FINAL_TYPE (TbMcpServerRow, tb_mcp_server_row, ADW_TYPE_ACTION_ROW)

static char *
describe_client (TbMcpClient *client,
                 const char  *summary)
{
  const char *state;

  switch (tb_mcp_client_get_state (client))
    {
    case TB_MCP_CLIENT_STATE_CONNECTED:
      /* Translators: an MCP server's command or URL, then the protocol
       * revision it is spoken to in, such as 2026-07-28 */
      return g_strdup_printf (_("%s — Running, protocol %s"), summary,
                              tb_mcp_client_get_protocol_version (client));
    case TB_MCP_CLIENT_STATE_CONNECTING:
      state = _("Starting…");
      break;
    case TB_MCP_CLIENT_STATE_FAILED:
      /* Translators: an MCP server that stopped, and why. */
      return g_strdup_printf (_("%s — failed: %s"), summary,
                              tb_mcp_client_get_error (client) != NULL
                              ? tb_mcp_client_get_error (client) : _("unknown error"));
    case TB_MCP_CLIENT_STATE_DISCONNECTED:
    default:
      state = _("Stopped");
      break;
    }
  /* Translators: an MCP server's command or URL, and its state. */
  return g_strdup_printf (_("%s — %s"), summary, state);
}

/* Who the server knows the person as, when it asked them to sign in. */
static char *
describe_sign_in (TbMcpAuth *auth)
{
  const char *account = tb_mcp_auth_get_account (auth);

  switch (tb_mcp_auth_get_state (auth))
    {
    case TB_MCP_AUTH_STATE_SIGNED_IN:
      /* Translators: %s names the account, such as an e-mail address */
      return account != NULL ? g_strdup_printf (_("Signed in as %s"), account)
                             : g_strdup (_("Signed in"));
    case TB_MCP_AUTH_STATE_SIGNING_IN:
      return g_strdup (_("Signing in in the browser…"));
    case TB_MCP_AUTH_STATE_SIGNED_OUT:
    default:
      return tb_mcp_auth_get_error (auth) != NULL
             /* Translators: why a sign-in failed */
             ? g_strdup_printf (_("Not signed in: %s"), tb_mcp_auth_get_error (auth))
             : NULL;
    }
}

/* The sign-in of the row's server, if it signs in. */
static TbMcpAuth *
row_auth (TbMcpServerRow *self)
{
  return self->client != NULL ? tb_mcp_client_get_auth (self->client) : NULL;
}

static void
update_subtitle (TbMcpServerRow *self)
{
  g_autofree char *subtitle = NULL;
  TbMcpAuth *auth = row_auth (self);

  if (self->client != NULL)
    subtitle = describe_client (self->client, self->summary != NULL ? self->summary : "");
  if (auth != NULL)
    {
      g_autofree char *sign_in = describe_sign_in (auth);

      if (sign_in != NULL)
        {
          /* Translators: a server's state, then who is signed in */
          g_autofree char *both = g_strdup_printf (_("%s — %s"), subtitle, sign_in);

          g_free (subtitle);
          subtitle = g_steal_pointer (&both);
        }
      gtk_widget_set_visible (self->account_button,
                              tb_mcp_auth_get_state (auth) != TB_MCP_AUTH_STATE_SIGNING_IN);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.sign-out",
                                     tb_mcp_auth_get_state (auth)
                                     == TB_MCP_AUTH_STATE_SIGNED_IN);
    }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                               subtitle != NULL ? subtitle
                                                : self->summary != NULL ? self->summary : "");
}

static void
edit_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TbMcpServerRow *self = TB_MCP_SERVER_ROW (widget);

  gtk_widget_activate_action (widget, "prefs.edit-mcp-server", "s", self->name);
}

static void
restart_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TbMcpServerRow *self = TB_MCP_SERVER_ROW (widget);
  TbToolSources *sources = tb_tool_sources_get_default ();

  if (sources != NULL)
    tb_tool_sources_restart (sources, self->name);
}

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TbMcpServerRow) self = user_data;
  g_autoptr(GError) error = NULL;
  TbToolSources *sources = tb_tool_sources_get_default ();

  /* A failure is in the auth's error, which the subtitle shows. */
  if (tb_mcp_auth_sign_in_finish (TB_MCP_AUTH (object), result, &error) && sources != NULL &&
      self->client != NULL && tb_mcp_client_get_state (self->client)
                              != TB_MCP_CLIENT_STATE_CONNECTED)
    tb_tool_sources_restart (sources, self->name);
  update_subtitle (self);
}

/* Signs in afresh: a new token, perhaps as someone else. */
static void
sign_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TbMcpServerRow *self = TB_MCP_SERVER_ROW (widget);
  TbMcpAuth *auth = row_auth (self);

  if (auth == NULL)
    return;
  tb_mcp_auth_sign_in_async (auth, NULL, signed_in_cb, g_object_ref (self));
}

static void
signed_out_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TbMcpServerRow) self = user_data;

  tb_mcp_auth_sign_out_finish (TB_MCP_AUTH (object), result, NULL, NULL);
  update_subtitle (self);
}

/* Forgets the tokens and stops the server: it would only ask again. */
static void
sign_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TbMcpServerRow *self = TB_MCP_SERVER_ROW (widget);
  TbMcpAuth *auth = row_auth (self);

  if (auth == NULL)
    return;
  tb_mcp_client_disconnect (self->client);
  tb_mcp_auth_sign_out_async (auth, NULL, signed_out_cb, g_object_ref (self));
}

/* One window a server: the button brings it back when it is open. */
static void
show_log_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TbMcpServerRow *self = TB_MCP_SERVER_ROW (widget);

  if (self->client == NULL)
    return;
  if (self->window == NULL)
    {
      self->window = tb_mcp_server_window_new (self->client);
      g_object_add_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
    }
  gtk_window_present (GTK_WINDOW (self->window));
}

/* The server's own icon, when it names one, loaded for each session. */
static void
update_icon (TbMcpServerRow *self)
{
  if (tb_mcp_client_get_state (self->client) != TB_MCP_CLIENT_STATE_CONNECTING)
    tb_mcp_icon_show (GTK_IMAGE (self->icon), self->client, "network-server-symbolic");
}

static void
set_client (TbMcpServerRow *self,
            TbMcpClient    *client)
{
  if (client == NULL)
    return;
  self->client = g_object_ref (client);
  /* Tests and people find the row of a running server by this name. */
  gtk_widget_set_name (GTK_WIDGET (self), "mcp-row");
  gtk_widget_set_visible (self->log_button, TRUE);
  gtk_widget_set_visible (self->restart_button, TRUE);
  gtk_widget_set_visible (self->icon, TRUE);
  g_signal_connect_object (client, "notify::state", G_CALLBACK (update_subtitle), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "notify::state", G_CALLBACK (update_icon), self,
                           G_CONNECT_SWAPPED);
  update_icon (self);
  if (tb_mcp_client_get_auth (client) != NULL)
    {
      g_signal_connect_object (tb_mcp_client_get_auth (client), "notify::state",
                               G_CALLBACK (update_subtitle), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (tb_mcp_client_get_auth (client), "notify::account",
                               G_CALLBACK (update_subtitle), self, G_CONNECT_SWAPPED);
    }
}

static void
tb_mcp_server_row_constructed (GObject *object)
{
  TbMcpServerRow *self = (TbMcpServerRow *) object;

  G_OBJECT_CLASS (tb_mcp_server_row_parent_class)->constructed (object);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), self->name != NULL ? self->name
                                                                                : "");
  update_subtitle (self);
}

static void
tb_mcp_server_row_dispose (GObject *object)
{
  TbMcpServerRow *self = (TbMcpServerRow *) object;

  /* The window lives on its own; it just stops being this row's. */
  if (self->window != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
  self->window = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (object), TB_TYPE_MCP_SERVER_ROW);

  G_OBJECT_CLASS (tb_mcp_server_row_parent_class)->dispose (object);
}

static void
tb_mcp_server_row_finalize (GObject *object)
{
  TbMcpServerRow *self = (TbMcpServerRow *) object;

  g_clear_object (&self->client);
  g_free (self->name);
  g_free (self->summary);

  G_OBJECT_CLASS (tb_mcp_server_row_parent_class)->finalize (object);
}

static void
tb_mcp_server_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TbMcpServerRow *self = TB_MCP_SERVER_ROW (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;
    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_server_row_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TbMcpServerRow *self = TB_MCP_SERVER_ROW (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:
      self->name = g_value_dup_string (value);
      break;
    case PROP_SUMMARY:
      self->summary = g_value_dup_string (value);
      break;
    case PROP_ENABLED:
      if (self->enabled != g_value_get_boolean (value))
        {
          self->enabled = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_CLIENT:
      set_client (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_server_row_class_init (TbMcpServerRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tb_mcp_server_row_constructed;
  object_class->dispose = tb_mcp_server_row_dispose;
  object_class->finalize = tb_mcp_server_row_finalize;
  object_class->get_property = tb_mcp_server_row_get_property;
  object_class->set_property = tb_mcp_server_row_set_property;

  properties [PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The command or the URL the server is reached by. */
  properties [PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Whether the server starts with the app: the row's switch. */
  properties [PROP_ENABLED] =
    g_param_spec_boolean ("enabled", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The app's client of the server, while it has one. */
  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, TB_TYPE_MCP_CLIENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "row.edit", NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "row.restart", NULL, restart_action);
  gtk_widget_class_install_action (widget_class, "row.show-log", NULL, show_log_action);
  gtk_widget_class_install_action (widget_class, "row.sign-in", NULL, sign_in_action);
  gtk_widget_class_install_action (widget_class, "row.sign-out", NULL, sign_out_action);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-server-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerRow, icon);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerRow, log_button);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerRow, restart_button);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerRow, account_button);
}

static void
tb_mcp_server_row_init (TbMcpServerRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_mcp_server_row_new:
 * @name: the server's name
 * @summary: (nullable): its command or URL
 * @enabled: whether it starts with the app
 * @client: (nullable): the app's client of it, if the app runs it
 *
 * Returns: (transfer floating): the row
 */
GtkWidget *
tb_mcp_server_row_new (const char  *name,
                       const char  *summary,
                       gboolean     enabled,
                       TbMcpClient *client)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (client == NULL || TB_IS_MCP_CLIENT (client), NULL);

  return g_object_new (TB_TYPE_MCP_SERVER_ROW,
                       "server-name", name,
                       "summary", summary,
                       "enabled", enabled,
                       "client", client,
                       NULL);
}

const char *
tb_mcp_server_row_get_server_name (TbMcpServerRow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_ROW (self), NULL);

  return self->name;
}

gboolean
tb_mcp_server_row_get_enabled (TbMcpServerRow *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_ROW (self), FALSE);

  return self->enabled;
}
