/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The HTTP headers of a remote MCP server (API keys) live in the keyring:
 * saving, editing, renaming, importing and removing a server keep the
 * settings free of their values, a server starts with them, and values an
 * earlier version left in the settings move. Bad input: a header said to be
 * kept that the keyring does not have, an entry with values saved past the
 * keyring. Runs with a keyring in memory, and with TB_TEST_KEYRING against
 * a real GNOME Keyring (run-with-keyring.sh). */

#include "config.h"

#include <libsoup/soup.h>
#include <toolbench.h>

#include "tb-mcp-headers.h"
#include "tb-prefs.h"
#include "tb-tool-sources.h"
#include "tb-tool-sources-private.h"

#define SECRET "sekrit-123"

typedef struct
{
  GSettings     *settings;
  TbSecretStore *store;
  SoupServer    *server;
  char          *url;
  char          *other_url;
  GPtrArray     *keys_seen;  /* X-Api-Key of every request, or "" */
} Fixture;

static void
mcp_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  Fixture *f = user_data;
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  const char *key = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                  "X-Api-Key");
  g_autoptr(JsonNode) request = NULL;
  g_autofree char *reply = NULL;
  JsonObject *object;
  const char *method;

  g_ptr_array_add (f->keys_seen, g_strdup (key != NULL ? key : ""));
  if (soup_server_message_get_method (msg) != SOUP_METHOD_POST)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }
  request = tb_json_parse (body->data, body->length, NULL);
  if (request == NULL || !JSON_NODE_HOLDS_OBJECT (request))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_BAD_REQUEST, NULL);
      return;
    }
  object = json_node_get_object (request);
  method = tb_json_object_get_string (object, "method");
  if (!json_object_has_member (object, "id"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      return;
    }
  if (g_strcmp0 (method, "initialize") == 0)
    reply = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": %" G_GINT64_FORMAT ", \"result\": "
                             "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": "
                             "{\"tools\": {}}, \"serverInfo\": {\"name\": \"keyed\", "
                             "\"version\": \"1\"}}}",
                             json_object_get_int_member (object, "id"));
  else
    reply = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": %" G_GINT64_FORMAT ", \"result\": "
                             "{\"tools\": []}}", json_object_get_int_member (object, "id"));
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, reply,
                                    strlen (reply));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) listeners = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  guint16 port;

  f->settings = g_settings_new (APPLICATION_ID);
  g_object_get (f->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (f->settings, keys[i]);
  f->store = g_getenv ("TB_TEST_KEYRING") != NULL
             ? tb_secret_store_new ()
             : tb_secret_store_new_in_memory ("for the test");
  f->keys_seen = g_ptr_array_new_with_free_func (g_free);

  f->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (f->server, "/mcp", mcp_handler, f, NULL);
  g_assert_true (soup_server_listen_local (f->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  listeners = soup_server_get_listeners (f->server);
  address = g_socket_get_local_address (listeners->data, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address));
  f->url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  f->other_url = g_strdup_printf ("http://127.0.0.1:%u/mcp?v=2", port);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->server);
  g_clear_pointer (&f->url, g_free);
  g_clear_pointer (&f->other_url, g_free);
  g_clear_pointer (&f->keys_seen, g_ptr_array_unref);
  g_clear_object (&f->store);
  g_clear_object (&f->settings);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static gboolean
save (Fixture     *f,
      const char  *old_name,
      const char  *name,
      const char  *entry,
      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_prefs_save_mcp_server_async (f->settings, f->store, old_name, name, TRUE, entry, NULL,
                                  done_cb, &result);
  return tb_prefs_save_mcp_server_finish (f->settings, wait_for (&result), error);
}

static char *
entry_for (const char *url,
           const char *headers)
{
  return g_strdup_printf ("{\"url\": \"%s\", \"headers\": {%s}}", url, headers);
}

/* What the keyring keeps for a server, as compact JSON; NULL for nothing. */
static char *
kept (Fixture    *f,
      const char *name,
      const char *url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;

  tb_secret_store_fetch_async (f->store, TB_SECRET_KIND_MCP_HEADERS, name, url, NULL, done_cb,
                               &result);
  text = tb_secret_store_fetch_finish (f->store, wait_for (&result), &error);
  g_assert_no_error (error);
  if (text == NULL)
    return NULL;
  node = tb_json_parse (text, -1, &error);
  g_assert_no_error (error);
  return tb_json_to_string (node, FALSE);
}

/* Every setting, printed: no secret may be in any of them. */
static void
assert_settings_clean (Fixture *f)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (f->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (f->settings, keys[i]);
      g_autofree char *text = g_variant_print (value, FALSE);

      g_assert_null (strstr (text, SECRET));
      g_assert_null (strstr (text, "team-red"));
    }
}

/* The entry the settings hold for a server, compact. */
static char *
stored (Fixture    *f,
        const char *name)
{
  g_autoptr(JsonNode) config = tb_prefs_get_mcp_config (f->settings, FALSE);
  JsonObject *servers = json_object_get_object_member (json_node_get_object (config),
                                                       "mcpServers");
  JsonNode *entry = json_object_get_member (servers, name);

  return entry != NULL ? tb_json_to_string (entry, FALSE) : NULL;
}

static void
test_save_keeps_values (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *entry = entry_for (f->url, "\"X-Api-Key\": \"" SECRET "\", "
                                              "\"X-Team\": \"team-blue\"");
  g_autofree char *expected = NULL;
  g_autofree char *in_keyring = NULL;
  g_autofree char *in_settings = NULL;

  g_assert_true (save (f, NULL, "keyed", entry, &error));
  g_assert_no_error (error);
  assert_settings_clean (f);
  in_settings = stored (f, "keyed");
  expected = g_strdup_printf ("{\"url\":\"%s\",\"headers\":{\"X-Api-Key\":\"%s\","
                              "\"X-Team\":\"%s\"}}", f->url, TB_MCP_HEADER_KEPT,
                              TB_MCP_HEADER_KEPT);
  g_assert_cmpstr (in_settings, ==, expected);
  in_keyring = kept (f, "keyed", f->url);
  g_assert_cmpstr (in_keyring, ==, "{\"X-Api-Key\":\"" SECRET "\",\"X-Team\":\"team-blue\"}");
}

static void
test_edit_keeps_and_replaces (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *first = entry_for (f->url, "\"X-Api-Key\": \"" SECRET "\", "
                                              "\"X-Team\": \"team-blue\"");
  g_autofree char *edited = entry_for (f->url, "\"X-Api-Key\": \"" TB_MCP_HEADER_KEPT "\", "
                                               "\"X-Team\": \"team-red\"");
  g_autofree char *fewer = entry_for (f->url, "\"X-Api-Key\": \"" TB_MCP_HEADER_KEPT "\"");
  g_autofree char *moved = entry_for (f->other_url,
                                      "\"X-Api-Key\": \"" TB_MCP_HEADER_KEPT "\"");
  g_autofree char *value = NULL;

  g_assert_true (save (f, NULL, "keyed", first, &error));
  g_assert_no_error (error);

  /* A kept value stays as it is, a typed one replaces the kept one. */
  g_assert_true (save (f, "keyed", "keyed", edited, &error));
  g_assert_no_error (error);
  value = kept (f, "keyed", f->url);
  g_assert_cmpstr (value, ==, "{\"X-Api-Key\":\"" SECRET "\",\"X-Team\":\"team-red\"}");
  g_clear_pointer (&value, g_free);
  assert_settings_clean (f);

  /* A header taken out of the entry is taken out of the keyring. */
  g_assert_true (save (f, "keyed", "keyed", fewer, &error));
  g_assert_no_error (error);
  value = kept (f, "keyed", f->url);
  g_assert_cmpstr (value, ==, "{\"X-Api-Key\":\"" SECRET "\"}");
  g_clear_pointer (&value, g_free);

  /* Renamed: the values follow the name, nothing stays under the old one. */
  g_assert_true (save (f, "keyed", "renamed", fewer, &error));
  g_assert_no_error (error);
  value = kept (f, "renamed", f->url);
  g_assert_cmpstr (value, ==, "{\"X-Api-Key\":\"" SECRET "\"}");
  g_clear_pointer (&value, g_free);
  value = kept (f, "keyed", f->url);
  g_assert_null (value);

  /* A new URL: the values follow it. */
  g_assert_true (save (f, "renamed", "renamed", moved, &error));
  g_assert_no_error (error);
  value = kept (f, "renamed", f->other_url);
  g_assert_cmpstr (value, ==, "{\"X-Api-Key\":\"" SECRET "\"}");
  g_clear_pointer (&value, g_free);
  value = kept (f, "renamed", f->url);
  g_assert_null (value);

  /* A local server now: nothing of the headers is kept. */
  g_assert_true (save (f, "renamed", "renamed", "{\"command\": \"sh\"}", &error));
  g_assert_no_error (error);
  value = kept (f, "renamed", f->other_url);
  g_assert_null (value);
}

static void
test_kept_without_value (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *entry = entry_for (f->url, "\"X-Api-Key\": \"" TB_MCP_HEADER_KEPT "\"");
  g_autofree char *typed = entry_for (f->url, "\"X-Api-Key\": \"" SECRET "\"");
  g_autoptr(GVariant) before = NULL;
  g_autoptr(GVariant) after = NULL;

  /* A new server cannot keep what was never kept. */
  g_assert_false (save (f, NULL, "lost", entry, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==,
                   "The header “X-Api-Key” of the MCP server “lost” is not in the keyring "
                   "any more; edit the server in Preferences and type its value again.");
  g_clear_error (&error);
  g_assert_null (stored (f, "lost"));

  /* Nor can a server whose keyring item went away; what is saved stays. */
  g_assert_true (save (f, NULL, "lost", typed, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GAsyncResult) result = NULL;

    tb_secret_store_forget_async (f->store, TB_SECRET_KIND_MCP_HEADERS, "lost", NULL, NULL,
                                  done_cb, &result);
    g_assert_true (tb_secret_store_forget_finish (f->store, wait_for (&result), NULL, NULL));
  }
  before = g_settings_get_value (f->settings, "mcp-servers");
  g_assert_false (save (f, "lost", "lost", entry, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  after = g_settings_get_value (f->settings, "mcp-servers");
  g_assert_true (g_variant_equal (before, after));

  /* Past the keyring, values are refused with a sentence. */
  g_assert_false (tb_prefs_save_mcp_server (f->settings, NULL, "plain", TRUE, typed, &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG);
  g_assert_cmpstr (error->message, ==,
                   "The MCP server “plain” has header values, which belong in the keyring; "
                   "save it from the Preferences window.");
  g_assert_null (stored (f, "plain"));
}

static gboolean
saw_key (Fixture    *f,
         const char *key)
{
  for (guint i = 0; i < f->keys_seen->len; i++)
    if (g_str_equal (g_ptr_array_index (f->keys_seen, i), key))
      return TRUE;
  return FALSE;
}

static void
wait_until_connected (TbToolSources *sources,
                      const char    *name)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end)
    {
      TbMcpClient *client = tb_tool_sources_get_client (sources, name);

      if (client != NULL && tb_mcp_client_get_state (client) == TB_MCP_CLIENT_STATE_CONNECTED)
        return;
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_not_reached ();
}

static void
test_server_starts_with_values (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolSources) sources = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *entry = entry_for (f->url, "\"X-Api-Key\": \"" SECRET "\"");
  g_autofree char *lost = entry_for (f->other_url, "\"X-Api-Key\": \"" TB_MCP_HEADER_KEPT "\"");
  g_autofree char *keyed = NULL;
  g_auto(GStrv) problems = NULL;
  GVariantBuilder builder;

  g_assert_true (save (f, NULL, "keyed", entry, &error));
  g_assert_no_error (error);
  sources = tb_tool_sources_new_with_store (registry, f->settings, f->store);
  wait_until_connected (sources, "keyed");
  g_assert_true (saw_key (f, SECRET));
  g_assert_false (saw_key (f, TB_MCP_HEADER_KEPT));

  /* A server whose value is gone from the keyring does not start, and the
   * preferences say which header to type again. */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sbs)"));
  keyed = stored (f, "keyed");
  g_variant_builder_add (&builder, "(sbs)", "keyed", TRUE, keyed);
  g_variant_builder_add (&builder, "(sbs)", "lost", TRUE, lost);
  g_settings_set_value (f->settings, "mcp-servers", g_variant_builder_end (&builder));
  for (guint i = 0; i < 5000; i++)
    {
      problems = tb_tool_sources_get_problems (sources);
      if (problems[0] != NULL)
        break;
      g_clear_pointer (&problems, g_strfreev);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_cmpuint (g_strv_length (problems), ==, 1);
  g_assert_cmpstr (problems[0], ==,
                   "The header “X-Api-Key” of the MCP server “lost” is not in the keyring any "
                   "more; edit the server in Preferences and type its value again.");
  g_assert_null (tb_tool_sources_get_client (sources, "lost"));
  g_assert_nonnull (tb_tool_sources_get_client (sources, "keyed"));
  g_object_run_dispose (G_OBJECT (sources));
}

static void
test_remove_forgets (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *entry = entry_for (f->url, "\"X-Api-Key\": \"" SECRET "\"");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) removed = NULL;
  g_autofree char *sign_in = NULL;
  g_autofree char *value = NULL;

  g_assert_true (save (f, NULL, "keyed", entry, &error));
  g_assert_no_error (error);
  tb_secret_store_store_async (f->store, TB_SECRET_KIND_MCP_AUTHORIZATION, "keyed", f->url,
                               "{\"access_token\": \"t\"}", NULL, done_cb, &result);
  g_assert_true (tb_secret_store_store_finish (f->store, wait_for (&result), &error));

  tb_prefs_remove_mcp_server_async (f->settings, f->store, "keyed", NULL, done_cb, &removed);
  g_assert_null (stored (f, "keyed"));
  g_assert_true (tb_prefs_remove_mcp_server_finish (f->settings, wait_for (&removed), &error));
  g_assert_no_error (error);
  value = kept (f, "keyed", f->url);
  g_assert_null (value);
  g_clear_object (&result);
  tb_secret_store_fetch_async (f->store, TB_SECRET_KIND_MCP_AUTHORIZATION, "keyed", f->url,
                               NULL, done_cb, &result);
  sign_in = tb_secret_store_fetch_finish (f->store, wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_null (sign_in);

  /* A server that is not there: the sentence, nothing else changes. */
  g_clear_object (&removed);
  tb_prefs_remove_mcp_server_async (f->settings, f->store, "keyed", NULL, done_cb, &removed);
  g_assert_false (tb_prefs_remove_mcp_server_finish (f->settings, wait_for (&removed), &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "There is no MCP server named “keyed”.");
}

static void
test_import (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) problems = NULL;
  g_autofree char *config = NULL;
  g_autofree char *value = NULL;
  g_autofree char *local = NULL;
  guint imported;

  config = g_strdup_printf ("{\"mcpServers\": {"
                            "\"keyed\": {\"url\": \"%s\", \"headers\": {\"X-Api-Key\": \"%s\"}},"
                            "\"stale\": {\"url\": \"%s\", \"headers\": {\"X-Api-Key\": \"%s\"}},"
                            "\"local\": {\"command\": \"sh\"}}}",
                            f->url, SECRET, f->url, TB_MCP_HEADER_KEPT);
  tb_prefs_import_mcp_config_async (f->settings, f->store, config, -1, NULL, done_cb, &result);
  imported = tb_prefs_import_mcp_config_finish (f->settings, wait_for (&result), &problems,
                                                &error);
  g_assert_no_error (error);
  g_assert_cmpuint (imported, ==, 2);
  g_assert_cmpuint (g_strv_length (problems), ==, 1);
  g_assert_cmpstr (problems[0], ==,
                   "The header “X-Api-Key” of the MCP server “stale” is not in the keyring any "
                   "more; edit the server in Preferences and type its value again. It was left "
                   "out.");
  assert_settings_clean (f);
  local = stored (f, "local");
  g_assert_nonnull (local);
  g_assert_null (stored (f, "stale"));
  value = kept (f, "keyed", f->url);
  g_assert_cmpstr (value, ==, "{\"X-Api-Key\":\"" SECRET "\"}");
}

/* Settings written by an earlier version hold the values: starting moves
 * them to the keyring, and the server runs with the same key throughout.
 * With only memory to keep secrets, they stay where they are. */
static void
test_move_from_settings (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolSources) sources = NULL;
  g_autofree char *entry = entry_for (f->url, "\"X-Api-Key\": \"" SECRET "\"");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *value = NULL;
  g_autofree char *now = NULL;
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sbs)"));
  g_variant_builder_add (&builder, "(sbs)", "old", TRUE, entry);
  g_settings_set_value (f->settings, "mcp-servers", g_variant_builder_end (&builder));

  if (tb_secret_store_is_in_memory (f->store))
    {
      g_autofree char *before = stored (f, "old");

      tb_prefs_move_mcp_headers_async (f->settings, f->store, NULL, done_cb, &result);
      g_assert_cmpint (tb_prefs_move_mcp_headers_finish (f->settings, wait_for (&result),
                                                         &error), ==, 0);
      g_assert_no_error (error);
      now = stored (f, "old");
      g_assert_cmpstr (now, ==, before);
      return;
    }

  sources = tb_tool_sources_new_with_store (registry, f->settings, f->store);
  for (guint i = 0; i < 5000 && strstr ((now = stored (f, "old")), SECRET) != NULL; i++)
    {
      g_clear_pointer (&now, g_free);
      g_main_context_iteration (NULL, TRUE);
    }
  assert_settings_clean (f);
  value = kept (f, "old", f->url);
  g_assert_cmpstr (value, ==, "{\"X-Api-Key\":\"" SECRET "\"}");
  wait_until_connected (sources, "old");
  g_assert_true (saw_key (f, SECRET));
  g_assert_false (saw_key (f, TB_MCP_HEADER_KEPT));
  g_object_run_dispose (G_OBJECT (sources));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp-headers/save-keeps-values", Fixture, NULL, fixture_setup,
              test_save_keeps_values, fixture_teardown);
  g_test_add ("/mcp-headers/edit-keeps-and-replaces", Fixture, NULL, fixture_setup,
              test_edit_keeps_and_replaces, fixture_teardown);
  g_test_add ("/mcp-headers/kept-without-value", Fixture, NULL, fixture_setup,
              test_kept_without_value, fixture_teardown);
  g_test_add ("/mcp-headers/server-starts-with-values", Fixture, NULL, fixture_setup,
              test_server_starts_with_values, fixture_teardown);
  g_test_add ("/mcp-headers/remove-forgets", Fixture, NULL, fixture_setup,
              test_remove_forgets, fixture_teardown);
  g_test_add ("/mcp-headers/import", Fixture, NULL, fixture_setup, test_import,
              fixture_teardown);
  g_test_add ("/mcp-headers/move-from-settings", Fixture, NULL, fixture_setup,
              test_move_from_settings, fixture_teardown);
  return g_test_run ();
}
