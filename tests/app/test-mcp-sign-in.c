/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>
#include <string.h>

#include "../mcp/mcp-test-util.h"
#include "../mcp/tb-test-oauth-server.h"
#include "tb-mcp-server-row.h"
#include "tb-prefs.h"
#include "tb-tool-sources.h"
#include "tb-tool-sources-private.h"

/* Signing in to a protected MCP server from the app: the server is added in
 * the settings, the app opens its sign-in page (here a test handler
 * follows it, as a browser would, back to the engine's listener on
 * 127.0.0.1), the tools appear, the server's row says who is signed in, the
 * token is in the secret store and nowhere in the settings; signing out
 * forgets it. */

typedef struct
{
  SoupSession *session;
  guint        opened;
} Browser;

static void
followed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GInputStream) stream = soup_session_send_finish (SOUP_SESSION (object), result,
                                                             NULL);

  if (stream != NULL)
    g_input_stream_close (stream, NULL, NULL);
}

/* A browser: GET the page and follow its redirects. */
static gboolean
follow (const char *uri,
        gpointer    user_data)
{
  Browser *browser = user_data;
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_GET, uri);

  browser->opened++;
  soup_session_send_async (browser->session, msg, G_PRIORITY_DEFAULT, NULL, followed_cb, NULL);
  return TRUE;
}

/* The keyring of the test machine may want a password for a new
 * collection; the test keeps its secrets in memory, as the app does when no
 * keyring answers. */
static void
client_started_cb (TbToolSources *sources,
                   TbMcpClient   *client,
                   TbSecretStore *store)
{
  if (tb_mcp_client_get_auth (client) != NULL)
    tb_mcp_auth_set_secret_store (tb_mcp_client_get_auth (client), store);
}

static gboolean
signed_in (gpointer data)
{
  TbMcpClient *client = data;

  return tb_mcp_client_get_state (client) == TB_MCP_CLIENT_STATE_CONNECTED &&
         tb_mcp_client_get_auth (client) != NULL &&
         tb_mcp_auth_get_state (tb_mcp_client_get_auth (client)) == TB_MCP_AUTH_STATE_SIGNED_IN;
}

static gboolean
signed_out (gpointer data)
{
  return tb_mcp_auth_get_state (data) == TB_MCP_AUTH_STATE_SIGNED_OUT;
}

static gboolean
client_started (gpointer data)
{
  TbToolSources *sources = data;

  return tb_tool_sources_get_client (sources, "protected") != NULL;
}

/* No setting holds the token. */
static void
assert_not_in_settings (GSettings  *settings,
                        const char *secret)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
      g_autofree char *text = g_variant_print (value, FALSE);

      g_assert_null (strstr (text, secret));
    }
}

static void
fetched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  *(char **) user_data = tb_secret_store_fetch_finish (TB_SECRET_STORE (object), result, NULL);
  if (*(char **) user_data == NULL)
    *(char **) user_data = g_strdup ("");
}

static void
test_sign_in (void)
{
  g_autoptr(TbTestOAuthServer) server = tb_test_oauth_server_new ();
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolSources) sources = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *token = NULL;
  g_autoptr(TbSecretStore) store = tb_secret_store_new_in_memory ("for the test");
  Browser browser = { soup_session_new (), 0 };
  g_autoptr(GtkWidget) row = NULL;
  GtkWidget *window;
  GtkWidget *list;
  TbMcpClient *client;
  TbMcpAuth *auth;

  server->id_token_email = g_strdup ("ada@example.org");
  g_settings_reset (settings, "mcp-servers");
  sources = tb_tool_sources_new (registry, settings);
  tb_tool_sources_set_uri_launcher (sources, follow, &browser);
  g_signal_connect (sources, "client-started", G_CALLBACK (client_started_cb), store);

  entry = g_strdup_printf ("{\"url\":\"%s\"}", server->mcp_url);
  g_assert_true (tb_prefs_save_mcp_server (settings, NULL, "protected", TRUE, entry, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_test_wait (client_started, sources, 10000));
  client = tb_tool_sources_get_client (sources, "protected");
  g_assert_true (mcp_test_wait (signed_in, client, 30000));

  /* One page opened, one authorization, the tools are there. */
  g_assert_cmpuint (browser.opened, ==, 1);
  g_assert_cmpuint (server->n_authorize, ==, 1);
  g_assert_nonnull (server->last_bearer);
  g_assert_cmpuint (tb_tool_registry_get_size (registry), >, 0);
  auth = tb_mcp_client_get_auth (client);
  g_assert_cmpstr (tb_mcp_auth_get_account (auth), ==, "ada@example.org");

  /* The token is in the secret store, not in the settings. */
  token = g_strdup (server->last_bearer);
  assert_not_in_settings (settings, token);
  tb_secret_store_fetch_async (tb_mcp_auth_get_secret_store (auth),
                               TB_SECRET_KIND_MCP_AUTHORIZATION, "protected", server->mcp_url,
                               NULL, fetched_cb, &kept);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &kept, 10000));
  g_assert_nonnull (strstr (kept, token));

  /* The server's row in the preferences says who is signed in. */
  tb_tool_sources_set_default (sources);
  row = g_object_ref_sink (tb_mcp_server_row_new ("protected", server->mcp_url, TRUE, client));
  window = gtk_window_new ();
  list = gtk_list_box_new ();
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  gtk_window_set_child (GTK_WINDOW (window), list);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                            " — Running, protocol "));
  g_assert_true (g_str_has_suffix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                                   " — Signed in as ada@example.org"));

  /* Sign Out forgets the token and stops the server. */
  gtk_widget_activate_action (row, "row.sign-out", NULL);
  g_assert_true (mcp_test_wait (signed_out, auth, 10000));
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_DISCONNECTED);
  g_clear_pointer (&kept, g_free);
  tb_secret_store_fetch_async (store, TB_SECRET_KIND_MCP_AUTHORIZATION, "protected",
                               server->mcp_url, NULL, fetched_cb, &kept);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &kept, 10000));
  g_assert_null (strstr (kept, token));
  g_assert_null (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "Signed in"));

  /* Sign In Again opens the page once more and starts the server. */
  gtk_widget_activate_action (row, "row.sign-in", NULL);
  g_assert_true (mcp_test_wait (signed_in, client, 30000));
  g_assert_cmpuint (browser.opened, ==, 2);
  g_assert_cmpuint (server->n_authorize, ==, 2);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                            "Signed in as ada@example.org"));

  gtk_window_destroy (GTK_WINDOW (window));
  tb_tool_sources_set_default (NULL);
  tb_prefs_remove_mcp_server (settings, "protected", NULL);
  g_clear_object (&sources);
  g_object_unref (browser.session);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/mcp-sign-in/app", test_sign_in);
  return g_test_run ();
}
