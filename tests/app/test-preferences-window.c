/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The preferences window under Xvfb: what a person sees when a URL is not a
 * URL, when Test connection reaches an endpoint (a SoupServer on 127.0.0.1),
 * when an MCP configuration is not JSON or names a missing command, and
 * that a key typed in goes to the key store, never to GSettings. The session
 * bus points nowhere, so the store runs in its in-memory fallback. */

#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <toolbench.h>

#include "tb-preferences-window.h"
#include "tb-mcp-headers.h"
#include "tb-prefs.h"
#include "tb-secret-store.h"
#include "tb-tool-sources.h"
#include "tb-preferences-window-private.h"
#include "tb-mcp-server-window-private.h"
#include "tb-mcp-wire-view-private.h"
#include "../test-soup-util.h"
#include "window-test-util.h"

typedef struct
{
  GSettings           *settings;
  TbPreferencesWindow *window;
  SoupServer          *server;
  char                *base_url;
  char                *auth;
} Fixture;

static void
models_handler (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  Fixture *f = user_data;
  static const char body[] = "{\"data\": [{\"id\": \"alpha\"}, {\"id\": \"beta\"}]}";

  g_free (f->auth);
  f->auth = g_strdup (soup_message_headers_get_one (
                        soup_server_message_get_request_headers (msg), "Authorization"));
  soup_server_message_set_status (msg, g_str_equal (path, "/v1/models") ? 200 : 404, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, body,
                                    strlen (body));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;
  g_autoptr(GError) error = NULL;

  f->settings = g_settings_new (APPLICATION_ID);
  g_object_get (f->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (f->settings, keys[i]);

  f->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (f->server, NULL, models_handler, f, NULL);
  soup_server_listen_local (f->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  f->base_url = g_strdup_printf ("http://127.0.0.1:%u/v1", test_server_port (f->server));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_finalize_object (f->server);
  g_clear_object (&f->settings);
  g_free (f->base_url);
  g_free (f->auth);
}

static GtkWidget *
named (Fixture    *f,
       const char *name)
{
  GtkWidget *widget = window_test_find_named (GTK_WIDGET (f->window), name);

  if (widget == NULL)
    g_error ("No widget named %s in the preferences", name);
  return widget;
}

static void
settle (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
wait_until (gboolean (*check) (Fixture *), Fixture *f)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!check (f) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  return check (f);
}

static void
open_window (Fixture *f)
{
  f->window = tb_preferences_window_new (NULL);
  gtk_window_present (GTK_WINDOW (f->window));
  settle ();
}

static void
type_into (GtkWidget  *widget,
           const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (widget), text);
}

static const char *
status_text (Fixture    *f,
             const char *name)
{
  return gtk_label_get_text (GTK_LABEL (named (f, name)));
}

static void
test_bad_url (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbProviderEndpoint) kept = NULL;

  g_assert_true (tb_prefs_save_provider (f->settings, NULL, "Local", "openai",
                                         "http://127.0.0.1:11434/v1", "llama3", NULL));
  open_window (f);
  tb_preferences_window_edit_provider (f->window, "Local");
  settle ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-url"))), ==,
                   "http://127.0.0.1:11434/v1");

  type_into (named (f, "endpoint-url"), "localhost 11434");
  g_signal_emit_by_name (named (f, "endpoint-save"), "clicked");
  settle ();
  g_assert_true (gtk_widget_get_visible (named (f, "endpoint-status")));
  g_assert_cmpstr (status_text (f, "endpoint-status"), ==,
                   "“localhost 11434” is not a URL (URI is not absolute, and no base URI "
                   "was provided); enter one such as https://api.openai.com/v1.");

  kept = tb_prefs_find_provider (f->settings, "Local");
  g_assert_cmpstr (kept->base_url, ==, "http://127.0.0.1:11434/v1");
}

/* A row opens the endpoint it shows, and a folder's button removes that
 * folder: each carries its own name to the window's action. */
static void
test_rows_act_on_their_item (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *folder = g_dir_make_tmp ("tb-prefs-XXXXXX", NULL);
  g_auto(GStrv) folders = NULL;

  g_assert_nonnull (folder);
  g_assert_true (tb_prefs_save_provider (f->settings, NULL, "Local", "openai",
                                         "http://127.0.0.1:11434/v1", "llama3", NULL));
  g_assert_true (tb_prefs_add_tool_folder (f->settings, folder, NULL));
  open_window (f);

  g_assert_true (gtk_widget_activate (named (f, "endpoint-row")));
  settle ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-name"))), ==,
                   "Local");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-url"))), ==,
                   "http://127.0.0.1:11434/v1");

  g_signal_emit_by_name (named (f, "folder-remove"), "clicked");
  settle ();
  folders = g_settings_get_strv (f->settings, "tool-folders");
  g_assert_cmpuint (g_strv_length (folders), ==, 0);
  g_rmdir (folder);
}

static gboolean
connected (Fixture *f)
{
  return g_str_has_prefix (status_text (f, "endpoint-status"), "Connected:");
}

static gboolean
refused (Fixture *f)
{
  return g_str_has_prefix (status_text (f, "endpoint-status"), "No answer from ");
}

static gboolean
key_in_store (Fixture *f)
{
  return tb_secret_store_is_in_memory (tb_secret_store_get_default ());
}

static void
lookup_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(char **) user_data = tb_secret_store_lookup_finish (TB_SECRET_STORE (source), result, NULL);
}

/* The kind list's row for @kind, wherever the table puts it. */
static guint
kind_position (const char *kind)
{
  const char * const *kinds = tb_provider_kinds ();

  for (guint i = 0; kinds[i] != NULL; i++)
    if (g_str_equal (kinds[i], kind))
      return i;
  g_assert_not_reached ();
  return 0;
}

static void
test_add_endpoint (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *models_row;
  g_autoptr(TbProviderEndpoint) saved = NULL;
  g_autoptr(GVariant) providers = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *expected = NULL;
  char *key = NULL;

  open_window (f);
  g_signal_emit_by_name (named (f, "add-endpoint"), "clicked");
  settle ();
  /* Each kind brings its public endpoint until a person types another. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-url"))), ==,
                   "https://api.openai.com/v1");
  adw_combo_row_set_selected (ADW_COMBO_ROW (named (f, "endpoint-kind")),
                              kind_position ("anthropic"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-url"))), ==,
                   "https://api.anthropic.com");
  adw_combo_row_set_selected (ADW_COMBO_ROW (named (f, "endpoint-kind")),
                              kind_position ("openai"));
  type_into (named (f, "endpoint-name"), "Test Server");
  type_into (named (f, "endpoint-url"), f->base_url);
  adw_combo_row_set_selected (ADW_COMBO_ROW (named (f, "endpoint-kind")),
                              kind_position ("gemini"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-url"))), ==,
                   f->base_url);
  adw_combo_row_set_selected (ADW_COMBO_ROW (named (f, "endpoint-kind")),
                              kind_position ("openai"));
  type_into (named (f, "endpoint-key"), "sk-typed");

  g_signal_emit_by_name (named (f, "endpoint-test"), "clicked");
  g_assert_true (wait_until (connected, f));
  expected = g_strdup_printf ("Connected: %s/models answered HTTP 200 with 2 models.",
                              f->base_url);
  g_assert_cmpstr (status_text (f, "endpoint-status"), ==, expected);
  g_assert_cmpstr (f->auth, ==, "Bearer sk-typed");

  models_row = named (f, "endpoint-models");
  g_assert_true (gtk_widget_get_visible (models_row));
  g_assert_cmpuint (g_list_model_get_n_items (
                      adw_combo_row_get_model (ADW_COMBO_ROW (models_row))), ==, 2);
  adw_combo_row_set_selected (ADW_COMBO_ROW (models_row), 1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-model"))), ==,
                   "beta");

  /* An endpoint that does not answer leaves no list of another one's models. */
  type_into (named (f, "endpoint-url"), "http://127.0.0.1:9/v1");
  g_signal_emit_by_name (named (f, "endpoint-test"), "clicked");
  g_assert_true (wait_until (refused, f));
  g_assert_false (gtk_widget_get_visible (models_row));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (named (f, "endpoint-model"))), ==,
                   "beta");
  type_into (named (f, "endpoint-url"), f->base_url);

  g_signal_emit_by_name (named (f, "endpoint-save"), "clicked");
  g_assert_true (wait_until (key_in_store, f));
  saved = tb_prefs_find_provider (f->settings, "Test Server");
  g_assert_nonnull (saved);
  g_assert_cmpstr (saved->base_url, ==, f->base_url);
  g_assert_cmpstr (saved->model, ==, "beta");

  /* The key is in the store and nowhere in the settings. */
  tb_secret_store_lookup_async (tb_secret_store_get_default (), "Test Server", f->base_url,
                                NULL, lookup_cb, &key);
  while (key == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (key, ==, "sk-typed");
  g_free (key);
  providers = g_settings_get_value (f->settings, "providers");
  printed = g_variant_print (providers, FALSE);
  g_assert_null (strstr (printed, "sk-typed"));
}

static void
test_loop_defaults (Fixture       *f,
                    gconstpointer  data)
{
  open_window (f);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (f, "loop-iteration-cap")), 42);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "loop-iteration-cap"), ==, 42);
  adw_combo_row_set_selected (ADW_COMBO_ROW (named (f, "approval-policy")), 2);
  {
    g_autofree char *policy = g_settings_get_string (f->settings, "approval-policy");

    g_assert_cmpstr (policy, ==, "reject-all");
  }
  /* A change made elsewhere shows up. */
  g_settings_set_uint (f->settings, "tool-timeout-seconds", 7);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (named (f,
                                                  "tool-timeout-seconds"))), ==, 7);
}

static void
test_mcp_bad_input (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *report;
  GtkTextBuffer *buffer;

  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "kept", TRUE,
                                           "{\"command\": \"sh\"}", NULL));
  open_window (f);

  tb_preferences_window_import_mcp_text (f->window, "mcpServers = {}", -1);
  settle ();
  report = window_test_find_toplevel ("mcp-import-report");
  g_assert_nonnull (report);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (report)), ==,
                   "Nothing Imported");
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (report)),
                                   "The MCP configuration is not JSON ("));
  gtk_window_destroy (GTK_WINDOW (report));

  tb_preferences_window_import_mcp_text (f->window,
                                         "{\"mcpServers\": {\"x\": {\"command\": "
                                         "\"tb-missing-command\"}}}", -1);
  settle ();
  report = window_test_find_toplevel ("mcp-import-report");
  g_assert_nonnull (report);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (report)), ==,
                   "0 Servers Imported");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (report)), ==,
                   "The MCP server “x” runs “tb-missing-command”, which is not installed or "
                   "not in the PATH; install it or give its full path. It was left out.");
  gtk_window_destroy (GTK_WINDOW (report));

  /* The editor refuses the same, and the server in place stays. */
  tb_preferences_window_edit_mcp_server (f->window, "kept");
  settle ();
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (named (f, "mcp-entry")));
  gtk_text_buffer_set_text (buffer, "{\"command\": \"tb-missing-command\"}", -1);
  g_signal_emit_by_name (named (f, "mcp-save"), "clicked");
  settle ();
  g_assert_cmpstr (status_text (f, "mcp-status"), ==,
                   "The MCP server “kept” runs “tb-missing-command”, which is not installed "
                   "or not in the PATH; install it or give its full path.");
  {
    g_autoptr(JsonNode) config = tb_prefs_get_mcp_config (f->settings, FALSE);
    JsonObject *servers = json_object_get_object_member (json_node_get_object (config),
                                                         "mcpServers");

    JsonObject *kept = json_object_get_object_member (servers, "kept");

    g_assert_cmpstr (json_object_get_string_member (kept, "command"), ==, "sh");
  }
}

static char *
mcp_entry_text (Fixture *f)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (named (f, "mcp-entry")));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
mcp_saved (Fixture *f)
{
  g_autoptr(GVariant) servers = g_settings_get_value (f->settings, "mcp-servers");

  return g_variant_n_children (servers) > 0;
}

static gboolean
editor_closed (Fixture *f)
{
  return window_test_find_named (GTK_WIDGET (f->window), "mcp-entry") == NULL
         || !gtk_widget_get_mapped (window_test_find_named (GTK_WIDGET (f->window), "mcp-entry"));
}

/* The editor's page is in place and no page slides. */
static gboolean
editor_shown (Fixture *f)
{
  GtkWidget *entry = window_test_find_named (GTK_WIDGET (f->window), "mcp-entry");
  GtkWidget *leaflet = entry != NULL ? gtk_widget_get_ancestor (entry, ADW_TYPE_LEAFLET) : NULL;

  return entry != NULL && gtk_widget_get_mapped (entry) && leaflet != NULL
         && !adw_leaflet_get_child_transition_running (ADW_LEAFLET (leaflet));
}

static gboolean
status_shown (Fixture *f)
{
  return *status_text (f, "mcp-status") != '\0';
}

static void
fetch_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(char **) user_data = tb_secret_store_fetch_finish (TB_SECRET_STORE (source), result, NULL);
  if (*(char **) user_data == NULL)
    *(char **) user_data = g_strdup ("");
}

static char *
headers_in_keyring (const char *name)
{
  char *text = NULL;

  tb_secret_store_fetch_async (tb_secret_store_get_default (), TB_SECRET_KIND_MCP_HEADERS, name,
                               "http://127.0.0.1:9/mcp", NULL, fetch_cb, &text);
  while (text == NULL)
    g_main_context_iteration (NULL, TRUE);
  return text;
}

/* A remote server with an API key in a header, added in the editor: the
 * key goes to the keyring, the settings and the editor show
 * "(kept in the keyring)", saving again keeps it, and removing the server
 * forgets it. A new server cannot claim a kept value it never had. */
static void
test_mcp_headers_in_keyring (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *in_keyring = NULL;
  g_autofree char *shown = NULL;
  g_autoptr(GVariant) servers = NULL;
  g_autofree char *printed = NULL;
  GtkTextBuffer *buffer;

  open_window (f);
  g_signal_emit_by_name (named (f, "add-mcp"), "clicked");
  settle ();
  gtk_editable_set_text (GTK_EDITABLE (named (f, "mcp-name")), "keyed");
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (named (f, "mcp-entry")));
  gtk_text_buffer_set_text (buffer, "{\"url\": \"http://127.0.0.1:9/mcp\", \"headers\": "
                            "{\"X-Api-Key\": \"" TB_MCP_HEADER_KEPT "\"}}", -1);
  g_signal_emit_by_name (named (f, "mcp-save"), "clicked");
  wait_until (status_shown, f);
  g_assert_cmpstr (status_text (f, "mcp-status"), ==,
                   "The header “X-Api-Key” of the MCP server “keyed” is not in the keyring "
                   "any more; edit the server in Preferences and type its value again.");
  g_assert_false (mcp_saved (f));

  gtk_text_buffer_set_text (buffer, "{\"url\": \"http://127.0.0.1:9/mcp\", \"headers\": "
                            "{\"X-Api-Key\": \"key-4711\"}}", -1);
  g_signal_emit_by_name (named (f, "mcp-save"), "clicked");
  g_assert_true (wait_until (mcp_saved, f));
  servers = g_settings_get_value (f->settings, "mcp-servers");
  printed = g_variant_print (servers, FALSE);
  g_assert_null (strstr (printed, "key-4711"));
  g_assert_nonnull (strstr (printed, TB_MCP_HEADER_KEPT));
  in_keyring = headers_in_keyring ("keyed");
  g_assert_cmpstr (in_keyring, ==, "{\"X-Api-Key\":\"key-4711\"}");
  g_clear_pointer (&in_keyring, g_free);
  settle ();

  /* The editor shows the name and where the value is, not the value; it
   * opens right after the last one closed. */
  tb_preferences_window_edit_mcp_server (f->window, "keyed");
  g_assert_true (wait_until (editor_shown, f));
  shown = mcp_entry_text (f);
  g_assert_null (strstr (shown, "key-4711"));
  g_assert_nonnull (strstr (shown, "\"X-Api-Key\""));
  g_assert_nonnull (strstr (shown, "\"" TB_MCP_HEADER_KEPT "\""));
  g_signal_emit_by_name (named (f, "mcp-save"), "clicked");
  wait_until (editor_closed, f);
  settle ();
  in_keyring = headers_in_keyring ("keyed");
  g_assert_cmpstr (in_keyring, ==, "{\"X-Api-Key\":\"key-4711\"}");
  g_clear_pointer (&in_keyring, g_free);

  tb_preferences_window_edit_mcp_server (f->window, "keyed");
  g_assert_true (wait_until (editor_shown, f));
  g_signal_emit_by_name (named (f, "mcp-remove"), "clicked");
  wait_until (editor_closed, f);
  settle ();
  g_assert_false (mcp_saved (f));
  in_keyring = headers_in_keyring ("keyed");
  g_assert_cmpstr (in_keyring, ==, "");
}

/* The protocol row sets the revision the servers speak, and shows a change
 * made elsewhere. */
static void
test_mcp_protocol (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *protocol = NULL;
  AdwComboRow *row;

  open_window (f);
  row = ADW_COMBO_ROW (named (f, "mcp-protocol"));
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);
  adw_combo_row_set_selected (row, 1);
  settle ();
  protocol = g_settings_get_string (f->settings, "mcp-protocol");
  g_assert_cmpstr (protocol, ==, "2026-07-28");
  g_settings_set_string (f->settings, "mcp-protocol", "2025-11-25");
  settle ();
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 2);
}

/* A server's switch turns it off in the settings, and a change made
 * elsewhere shows on the switch. */
static void
test_mcp_switch (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GVariant) servers = NULL;
  gboolean enabled = TRUE;

  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "shell", TRUE,
                                           "{\"command\": \"sh\"}", NULL));
  open_window (f);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (named (f, "mcp-enabled"))));

  gtk_switch_set_active (GTK_SWITCH (named (f, "mcp-enabled")), FALSE);
  settle ();
  servers = g_settings_get_value (f->settings, "mcp-servers");
  g_assert_cmpuint (g_variant_n_children (servers), ==, 1);
  g_variant_get_child (servers, 0, "(&sb&s)", NULL, &enabled, NULL);
  g_assert_false (enabled);

  g_assert_true (tb_prefs_set_mcp_enabled (f->settings, "shell", TRUE, NULL));
  settle ();
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (named (f, "mcp-enabled"))));
}

static TbMcpClient *running_client;

static gboolean
client_running (Fixture *f)
{
  return tb_mcp_client_get_state (running_client) == TB_MCP_CLIENT_STATE_CONNECTED;
}

static gboolean
row_says_running (Fixture *f)
{
  const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (named (f, "mcp-row")));

  /* The revision it is spoken to in, after the probe for 2026-07-28. */
  return subtitle != NULL && g_str_has_suffix (subtitle, " — Running, protocol 2025-11-25");
}

/* A running server's row shows its state, restarts it and shows its log. */
static void
test_mcp_running (Fixture       *f,
                  gconstpointer  data)
{
  const char *server = g_getenv ("TB_FAKE_MCP_SERVER");
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *entry = NULL;
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolSources) sources = NULL;
  GtkWidget *log;

  if (server == NULL || python == NULL)
    {
      g_test_skip ("Needs python3 and tests/mcp/fake-mcp-server.py");
      return;
    }
  sources = tb_tool_sources_new (registry, f->settings);
  tb_tool_sources_set_default (sources);
  entry = g_strdup_printf ("{\"command\": \"python3\", \"args\": [\"%s\"]}", server);
  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "fake", TRUE, entry, NULL));
  running_client = tb_tool_sources_get_client (sources, "fake");
  g_assert_true (wait_until (client_running, f));

  open_window (f);
  g_assert_true (wait_until (row_says_running, f));

  g_signal_emit_by_name (named (f, "mcp-restart"), "clicked");
  g_assert_false (client_running (f));
  g_assert_true (wait_until (client_running, f));
  g_assert_true (wait_until (row_says_running, f));

  /* The server's window, with its log and its messages; one a server. */
  g_signal_emit_by_name (named (f, "mcp-log-button"), "clicked");
  settle ();
  log = window_test_find_toplevel ("mcp-server-window");
  g_assert_nonnull (log);
  g_assert_true (TB_IS_MCP_SERVER_WINDOW (log));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (log)), ==, "MCP Server “fake”");
  g_assert_true (tb_mcp_server_window_get_client (TB_MCP_SERVER_WINDOW (log)) == running_client);
  g_assert_cmpstr (tb_mcp_server_window_get_page (TB_MCP_SERVER_WINDOW (log)), ==, "messages");
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (
                      tb_mcp_server_window_get_wire_view (TB_MCP_SERVER_WINDOW (log))), >=, 4);
  g_signal_emit_by_name (named (f, "mcp-log-button"), "clicked");
  settle ();
  g_assert_true (window_test_find_toplevel ("mcp-server-window") == log);
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    guint windows = 0;

    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

        windows += TB_IS_MCP_SERVER_WINDOW (window);
      }
    g_assert_cmpuint (windows, ==, 1);
  }
  gtk_window_destroy (GTK_WINDOW (log));

  gtk_window_destroy (GTK_WINDOW (f->window));
  f->window = NULL;
  settle ();
  tb_tool_sources_set_default (NULL);
  g_object_run_dispose (G_OBJECT (sources));
}

/* GTK's warnings and criticals, recorded by the log writer of the test
 * program (and still printed). */
static GPtrArray *gtk_warnings;

static const char *
log_field (const GLogField *fields,
           gsize           n_fields,
           const char     *key)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, key) == 0)
      return fields[i].length < 0 ? fields[i].value : NULL;
  return NULL;
}

/* "Trying to snapshot GtkGizmo 0x… without …": says whose part it is. */
static char *
describe_widget_in (const char *message)
{
  const char *at = strstr (message, " 0x");
  GString *chain;
  gpointer pointer = NULL;

  if (at == NULL || sscanf (at + 1, "%p", &pointer) != 1 || !GTK_IS_WIDGET (pointer))
    return g_strdup (message);
  chain = g_string_new (message);
  g_string_append (chain, " (in");
  for (GtkWidget *w = gtk_widget_get_parent (pointer); w != NULL; w = gtk_widget_get_parent (w))
    g_string_append_printf (chain, " %s%s%s", G_OBJECT_TYPE_NAME (w),
                            *gtk_widget_get_name (w) != '\0' ? "#" : "",
                            *gtk_widget_get_name (w) != '\0' ? gtk_widget_get_name (w) : "");
  g_string_append (chain, ")");
  return g_string_free (chain, FALSE);
}

static GLogWriterOutput
record_gtk_warnings (GLogLevelFlags   log_level,
                     const GLogField *fields,
                     gsize            n_fields,
                     gpointer         user_data)
{
  if ((log_level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL)) != 0
      && g_strcmp0 (log_field (fields, n_fields, "GLIB_DOMAIN"), "Gtk") == 0
      && gtk_warnings != NULL)
    g_ptr_array_add (gtk_warnings,
                     describe_widget_in (log_field (fields, n_fields, "MESSAGE") != NULL
                                         ? log_field (fields, n_fields, "MESSAGE") : "?"));
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

static void
iterate_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

/* What a person types goes in at the cursor of the focused text. */
static void
type_text (GtkWidget  *focus,
           const char *text)
{
  if (GTK_IS_TEXT_VIEW (focus))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (focus));

      for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
        {
          /* As the text view does with a typed character. */
          gtk_text_buffer_insert_interactive_at_cursor (buffer, p, g_utf8_next_char (p) - p,
                                                        TRUE);
          gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (focus),
                                              gtk_text_buffer_get_insert (buffer));
          iterate_ms (2);
        }
    }
  else if (GTK_IS_EDITABLE (focus))
    {
      int position = gtk_editable_get_position (GTK_EDITABLE (focus));

      gtk_editable_insert_text (GTK_EDITABLE (focus), text, -1, &position);
      gtk_editable_set_position (GTK_EDITABLE (focus), position);
    }
}

/* Tab through every control of the Add MCP Server page, typing a name and
 * an entry that goes from a local command to a URL and back. */
static void
fill_mcp_editor (Fixture *f)
{
  static const char * const entries[] = {
    "{\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", "
    "\"/tmp\"]}",
    "{\n  \"url\": \"http://127.0.0.1:9/mcp\",\n  \"headers\": {\n    \"X-One\": \"1\",\n"
    "    \"X-Two\": \"2\",\n    \"X-Three\": \"3\",\n    \"X-Four\": \"4\",\n"
    "    \"X-Five\": \"5\",\n    \"X-Six\": \"6\",\n    \"X-Seven\": \"7\"\n  }\n}",
    "{\"command\": \"cat\"}",
  };
  GtkWidget *name = named (f, "mcp-name");
  GtkWidget *entry = named (f, "mcp-entry");

  for (guint i = 0; i < 12; i++)
    {
      GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (f->window));

      if (focus != NULL && gtk_widget_is_ancestor (focus, name))
        type_text (focus, "files");
      else if (focus == entry)
        for (guint j = 0; j < G_N_ELEMENTS (entries); j++)
          {
            GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (entry));

            gtk_text_buffer_set_text (buffer, "", -1);
            type_text (entry, entries[j]);
            iterate_ms (100);
          }
      gtk_widget_child_focus (GTK_WIDGET (f->window), GTK_DIR_TAB_FORWARD);
      iterate_ms (50);
    }
}

/* Whether the entry's cursor shows in the page's scrolled window. */
static gboolean
cursor_in_view (GtkWidget *entry)
{
  GtkTextView *view = GTK_TEXT_VIEW (entry);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkWidget *scroller = gtk_widget_get_ancestor (entry, GTK_TYPE_SCROLLED_WINDOW);
  graphene_point_t at;
  GdkRectangle cursor;
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  gtk_text_view_get_iter_location (view, &iter, &cursor);
  gtk_text_view_buffer_to_window_coords (view, GTK_TEXT_WINDOW_WIDGET, cursor.x, cursor.y,
                                         &cursor.x, &cursor.y);
  g_assert_true (gtk_widget_compute_point (entry, scroller,
                                           &GRAPHENE_POINT_INIT (cursor.x, cursor.y), &at));
  return at.y >= 0 && at.y + cursor.height <= gtk_widget_get_height (scroller);
}

/* The Add MCP Server page as a person uses it: a name and an entry that
 * goes from a local command to a remote URL with headers over several
 * lines and back, typed at the cursor; Tab through every control; the
 * window 600 px wide; Back; the page again. GTK warns of nothing (GTK 4.8
 * drew the scrollbar of the entry, which scrolled on its own, before it
 * had a size, as the text grew), and the page follows the cursor of the
 * entry, which now grows instead of scrolling. */
static void
test_add_mcp_server_warnings (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);

  gtk_warnings = warnings;
  open_window (f);
  g_signal_emit_by_name (named (f, "add-mcp"), "clicked");
  iterate_ms (300);
  fill_mcp_editor (f);

  gtk_window_set_default_size (GTK_WINDOW (f->window), 600, 500);
  iterate_ms (500);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 600);
  fill_mcp_editor (f);
  /* The last entry typed, at the end of many lines, in a page 500 px high. */
  gtk_widget_grab_focus (named (f, "mcp-entry"));
  type_text (named (f, "mcp-entry"), "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\"end\": true");
  /* The view scrolls over a few frames; slow builds take longer. */
  {
    gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

    iterate_ms (300);
    while (!cursor_in_view (named (f, "mcp-entry")) && g_get_monotonic_time () < end)
      iterate_ms (50);
  }
  g_assert_true (cursor_in_view (named (f, "mcp-entry")));

  adw_preferences_window_close_subpage (ADW_PREFERENCES_WINDOW (f->window));
  iterate_ms (500);
  g_signal_emit_by_name (named (f, "add-mcp"), "clicked");
  iterate_ms (300);
  fill_mcp_editor (f);
  gtk_warnings = NULL;
  for (guint i = 0; i < warnings->len; i++)
    g_test_message ("GTK: %s", (char *) g_ptr_array_index (warnings, i));
  g_assert_cmpuint (warnings->len, ==, 0);
}

/* The preferences fit on a small screen: on a parent window of 1280×800
 * and of 600×800, the window is no larger than its parent, its buttons
 * lie inside it and outside any scrolling, and what does not fit scrolls:
 * the Tools page with many servers, and the Add MCP Server page with a
 * long entry. */

/* Whether @widget shows whole inside @container. */
static gboolean
shows_within (GtkWidget *widget,
              GtkWidget *container)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget) || !gtk_widget_compute_bounds (widget, container, &bounds))
    return FALSE;
  return bounds.origin.x >= 0 && bounds.origin.y >= 0
         && bounds.origin.x + bounds.size.width <= gtk_widget_get_width (container)
         && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (container);
}

/* Whether a person sees the whole button without scrolling. */
static gboolean
button_shows (Fixture   *f,
              GtkWidget *button)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (button, GTK_TYPE_SCROLLED_WINDOW);

  return shows_within (button, GTK_WIDGET (f->window))
         && (scroller == NULL || shows_within (button, scroller));
}

/* Whether the scrolled window holding @widget has more than it shows. */
static gboolean
scrolls (GtkWidget *widget)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;

  g_assert_nonnull (scroller);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment);
}

static void
test_fits (Fixture       *f,
           gconstpointer  data)
{
  int parent_width = GPOINTER_TO_INT (data);
  GtkWidget *parent = gtk_window_new ();
  GString *entry = g_string_new ("{\"command\": \"sh\", \"env\": {");
  g_autoptr(GError) error = NULL;
  int width, height;

  for (guint i = 0; i < 40; i++)
    g_string_append_printf (entry, "%s\"VARIABLE_%u\": \"value %u\"", i > 0 ? ", " : "", i, i);
  g_string_append (entry, "}}");
  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "long", TRUE, entry->str, &error));
  g_assert_no_error (error);
  g_string_free (entry, TRUE);
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *name = g_strdup_printf ("server-%02u", i);

      g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, name, FALSE,
                                               "{\"command\": \"sh\"}", NULL));
    }

  gtk_window_set_default_size (GTK_WINDOW (parent), parent_width, 800);
  gtk_window_present (GTK_WINDOW (parent));
  iterate_ms (300);
  f->window = tb_preferences_window_new (GTK_WINDOW (parent));
  gtk_window_present (GTK_WINDOW (f->window));
  iterate_ms (500);
  width = gtk_widget_get_width (GTK_WIDGET (f->window));
  height = gtk_widget_get_height (GTK_WIDGET (f->window));
  g_test_message ("preferences %d×%d on a parent %d×800", width, height, parent_width);
  g_assert_cmpint (width, <=, parent_width);
  g_assert_cmpint (height, <=, 800);

  /* The Tools page: its buttons show, its many servers scroll. */
  adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (f->window), "tools");
  iterate_ms (300);
  g_assert_true (button_shows (f, named (f, "import-mcp")));
  g_assert_true (button_shows (f, named (f, "add-mcp")));
  g_assert_true (scrolls (named (f, "add-mcp")));

  /* The server with a long entry: Back and Save show, the entry scrolls
   * with the page. */
  tb_preferences_window_edit_mcp_server (f->window, "long");
  iterate_ms (500);
  /* The subpage slides in; on a slow machine (a sanitizer build) it takes
   * longer than half a second. */
  for (guint i = 0; i < 100 && !(button_shows (f, named (f, "mcp-save")) &&
                                  scrolls (named (f, "mcp-entry"))); i++)
    iterate_ms (100);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, parent_width);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (f->window)), <=, 800);
  g_assert_true (button_shows (f, named (f, "mcp-save")));
  g_assert_true (button_shows (f, named (f, "mcp-back")));
  g_assert_true (scrolls (named (f, "mcp-entry")));

  gtk_window_destroy (GTK_WINDOW (f->window));
  f->window = NULL;
  gtk_window_destroy (GTK_WINDOW (parent));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
  g_log_set_writer_func (record_gtk_warnings, NULL, NULL);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/preferences/bad-url", Fixture, NULL, fixture_setup, test_bad_url,
              fixture_teardown);
  g_test_add ("/preferences/add-endpoint", Fixture, NULL, fixture_setup, test_add_endpoint,
              fixture_teardown);
  g_test_add ("/preferences/rows-act-on-their-item", Fixture, NULL, fixture_setup,
              test_rows_act_on_their_item, fixture_teardown);
  g_test_add ("/preferences/loop-defaults", Fixture, NULL, fixture_setup, test_loop_defaults,
              fixture_teardown);
  g_test_add ("/preferences/mcp-running", Fixture, NULL, fixture_setup, test_mcp_running,
              fixture_teardown);
  g_test_add ("/preferences/mcp-switch", Fixture, NULL, fixture_setup, test_mcp_switch,
              fixture_teardown);
  g_test_add ("/preferences/mcp-protocol", Fixture, NULL, fixture_setup, test_mcp_protocol,
              fixture_teardown);
  g_test_add ("/preferences/mcp-headers-in-keyring", Fixture, NULL, fixture_setup,
              test_mcp_headers_in_keyring, fixture_teardown);
  g_test_add ("/preferences/mcp-bad-input", Fixture, NULL, fixture_setup, test_mcp_bad_input,
              fixture_teardown);
  g_test_add ("/preferences/add-mcp-server/no-gtk-warnings", Fixture, NULL, fixture_setup,
              test_add_mcp_server_warnings, fixture_teardown);
  g_test_add ("/preferences/fits-1280x800", Fixture, GINT_TO_POINTER (1280), fixture_setup,
              test_fits, fixture_teardown);
  g_test_add ("/preferences/fits-600-wide", Fixture, GINT_TO_POINTER (600), fixture_setup,
              test_fits, fixture_teardown);

  return g_test_run ();
}
