/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The preferences' settings: the schema's keys and ranges, and bad input —
 * a value out of range, a provider URL that is not a URL, an MCP
 * configuration that is not JSON or names a missing command — each
 * refused with a sentence while the setting in place stays. */

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>

#include "tb-prefs.h"
#include "tb-prefs-private.h"

typedef struct
{
  GSettings *settings;
  char      *tmpdir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->settings = g_settings_new (APPLICATION_ID);
  /* The memory backend keeps values between tests of one process; start
   * every test from the defaults. */
  {
    g_autoptr(GSettingsSchema) schema = NULL;
    g_auto(GStrv) keys = NULL;

    g_object_get (f->settings, "settings-schema", &schema, NULL);
    keys = g_settings_schema_list_keys (schema);
    for (guint i = 0; keys[i] != NULL; i++)
      g_settings_reset (f->settings, keys[i]);
  }
  f->tmpdir = g_dir_make_tmp ("tb-prefs-XXXXXX", NULL);
  g_assert_nonnull (f->tmpdir);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_rmdir (f->tmpdir);
  g_free (f->tmpdir);
  g_assert_finalize_object (f->settings);
}

static void
test_schema_keys (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) cap = NULL;
  g_autoptr(GVariant) range = NULL;
  const char *type;
  g_autoptr(GVariant) bounds = NULL;
  guint32 min, max;
  g_autofree char *policy = NULL;
  g_autoptr(GVariant) providers = NULL;
  static const char * const keys[] = {
    "providers", "loop-iteration-cap", "tool-timeout-seconds", "approval-policy",
    "mcp-servers", "tool-folders", "sandbox-root", "welcome-dismissed",
  };

  g_object_get (f->settings, "settings-schema", &schema, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_true (g_settings_schema_has_key (schema, keys[i]));

  /* No key of the schema can hold an API key. */
  {
    g_auto(GStrv) all = g_settings_schema_list_keys (schema);

    for (guint i = 0; all[i] != NULL; i++)
      {
        g_assert_null (strstr (all[i], "key"));
        g_assert_null (strstr (all[i], "secret"));
        g_assert_null (strstr (all[i], "token"));
      }
  }

  cap = g_settings_schema_get_key (schema, "loop-iteration-cap");
  range = g_settings_schema_key_get_range (cap);
  g_variant_get (range, "(&sv)", &type, &bounds);
  g_assert_cmpstr (type, ==, "range");
  g_variant_get (bounds, "(uu)", &min, &max);
  g_assert_cmpuint (min, ==, 1);
  g_assert_cmpuint (max, ==, 200);

  g_assert_cmpuint (g_settings_get_uint (f->settings, "loop-iteration-cap"), ==, 10);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "tool-timeout-seconds"), ==, 60);
  policy = g_settings_get_string (f->settings, "approval-policy");
  g_assert_cmpstr (policy, ==, "ask");
  providers = g_settings_get_value (f->settings, "providers");
  g_assert_cmpuint (g_variant_n_children (providers), ==, 0);
}

static void
test_range_refused (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tb_prefs_set_uint (f->settings, "loop-iteration-cap", 25, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "loop-iteration-cap"), ==, 25);

  g_assert_false (tb_prefs_set_uint (f->settings, "loop-iteration-cap", 0, &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_RANGE);
  g_assert_cmpstr (error->message, ==,
                   "Iteration cap must be between 1 and 200; 0 was not saved and the "
                   "setting stays 25.");
  g_clear_error (&error);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "loop-iteration-cap"), ==, 25);

  g_assert_false (tb_prefs_set_uint (f->settings, "tool-timeout-seconds", 3601, &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "between 1 and 3600"));
  g_clear_error (&error);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "tool-timeout-seconds"), ==, 60);

  g_assert_false (tb_prefs_set_string_choice (f->settings, "approval-policy", "sometimes",
                                              &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_RANGE);
  g_assert_cmpstr (error->message, ==,
                   "“sometimes” is not a possible value of Approval policy; the setting "
                   "stays “ask”.");
  g_clear_error (&error);
  g_assert_cmpint (tb_prefs_get_approval_policy (f->settings), ==, TB_APPROVAL_POLICY_ASK);
  g_assert_true (tb_prefs_set_string_choice (f->settings, "approval-policy", "reject-all",
                                             &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_prefs_get_approval_policy (f->settings), ==,
                   TB_APPROVAL_POLICY_REJECT_ALL);
}

static void
test_url_refused (Fixture       *f,
                  gconstpointer  data)
{
  static const struct { const char *text; const char *message; } bad[] = {
    { "", "The base URL is empty; enter one such as https://api.openai.com/v1." },
    { "api.openai.com/v1", NULL },
    { "ftp://example.com/v1", "“ftp://example.com/v1” is not an http:// or https:// URL." },
    { "http://", NULL },
    { "not a url", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (tb_prefs_check_url (bad[i].text, &error));
      g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_URL);
      if (bad[i].message != NULL)
        g_assert_cmpstr (error->message, ==, bad[i].message);
      else
        g_assert_nonnull (strstr (error->message, bad[i].text));
    }
  g_assert_true (tb_prefs_check_url ("http://127.0.0.1:11434/v1", NULL));
  g_assert_true (tb_prefs_check_url ("https://api.anthropic.com", NULL));
}

static void
test_providers (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(TbProviderEndpoint) found = NULL;

  g_assert_true (tb_prefs_save_provider (f->settings, NULL, " Local ", "openai",
                                         "http://127.0.0.1:11434/v1", "llama3", &error));
  g_assert_no_error (error);
  g_assert_true (tb_prefs_save_provider (f->settings, NULL, "Claude", "anthropic",
                                         "https://api.anthropic.com", NULL, &error));
  g_assert_no_error (error);

  /* A URL that is not one: refused, and the endpoint stays as it was. */
  g_assert_false (tb_prefs_save_provider (f->settings, "Local", "Local", "openai",
                                          "localhost v1", "llama3", &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_URL);
  g_clear_error (&error);
  found = tb_prefs_find_provider (f->settings, "Local");
  g_assert_nonnull (found);
  g_assert_cmpstr (found->base_url, ==, "http://127.0.0.1:11434/v1");
  g_assert_cmpstr (found->model, ==, "llama3");

  g_assert_false (tb_prefs_save_provider (f->settings, NULL, "Claude", "openai",
                                          "http://127.0.0.1/v1", NULL, &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_EXISTS);
  g_assert_cmpstr (error->message, ==,
                   "An endpoint named “Claude” already exists; choose another name.");
  g_clear_error (&error);

  g_assert_false (tb_prefs_save_provider (f->settings, NULL, "X", "mistral",
                                          "http://127.0.0.1/v1", NULL, &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_INVALID);
  g_clear_error (&error);

  /* Renaming in place keeps the order. */
  g_assert_true (tb_prefs_save_provider (f->settings, "Local", "Ollama", "openai",
                                         "http://127.0.0.1:11434/v1", "qwen", &error));
  g_assert_no_error (error);
  list = tb_prefs_get_providers (f->settings);
  g_assert_cmpuint (list->len, ==, 2);
  g_assert_cmpstr (((TbProviderEndpoint *) list->pdata[0])->name, ==, "Ollama");
  g_assert_cmpstr (((TbProviderEndpoint *) list->pdata[0])->model, ==, "qwen");
  g_assert_cmpstr (((TbProviderEndpoint *) list->pdata[1])->kind, ==, "anthropic");

  {
    g_autoptr(TbProviderEndpoint) claude = tb_prefs_find_provider (f->settings, "Claude");
    g_autoptr(TbProvider) provider = tb_provider_endpoint_create (claude, "sk-test");

    g_assert_nonnull (provider);
    g_assert_cmpstr (tb_provider_get_kind (provider), ==, "anthropic");
    g_assert_cmpstr (tb_http_provider_get_base_url (TB_HTTP_PROVIDER (provider)), ==,
                     "https://api.anthropic.com");
  }
  g_assert_true (tb_prefs_remove_provider (f->settings, "Claude", &error));
  g_assert_false (tb_prefs_remove_provider (f->settings, "Claude", &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_NOT_FOUND);
}

static guint
count_mcp (GSettings *settings)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, "mcp-servers");

  return g_variant_n_children (value);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Imports as the Preferences window does, header values to a keyring that
 * lives in memory. */
static guint
import_mcp (GSettings   *settings,
            const char  *text,
            GStrv       *problems,
            GError     **error)
{
  g_autoptr(TbSecretStore) store = tb_secret_store_new_in_memory ("for the test");
  g_autoptr(GAsyncResult) result = NULL;

  tb_prefs_import_mcp_config_async (settings, store, text, -1, NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tb_prefs_import_mcp_config_finish (settings, result, problems, error);
}

static void
test_mcp_import_bad (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) problems = NULL;

  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "shell", TRUE,
                                           "{\"command\": \"sh\", \"args\": [\"-c\", \"true\"]}",
                                           &error));
  g_assert_no_error (error);

  /* Not JSON: nothing imported, the server already there stays. */
  g_assert_cmpuint (import_mcp (f->settings, "{\"mcpServers\": {", &problems, &error), ==, 0);
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG);
  g_assert_true (g_str_has_prefix (error->message, "The MCP configuration is not JSON ("));
  g_assert_true (g_str_has_suffix (error->message, "); nothing was imported."));
  g_clear_error (&error);
  g_assert_cmpuint (count_mcp (f->settings), ==, 1);

  g_assert_cmpuint (import_mcp (f->settings, "[1, 2]", NULL, &error),
                    ==, 0);
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG);
  g_assert_cmpstr (error->message, ==,
                   "The MCP configuration has no “mcpServers” object; nothing was imported.");
  g_clear_error (&error);

  /* A missing command: that server is left out with a sentence, the others
   * come in. */
  g_clear_pointer (&problems, g_strfreev);
  g_assert_cmpuint (import_mcp (f->settings,
                                "{\"mcpServers\": {"
                                "\"gone\": {\"command\": \"tb-no-such-server\"},"
                                "\"web\": {\"url\": \"http://127.0.0.1:9/mcp\"},"
                                "\"odd\": 5}}",
                                &problems, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 2);
  g_assert_cmpstr (problems[0], ==,
                   "The MCP server “gone” runs “tb-no-such-server”, which is not installed "
                   "or not in the PATH; install it or give its full path. It was left out.");
  g_assert_cmpstr (problems[1], ==,
                   "The server “odd” is not described by an object; it was left out.");
  g_assert_cmpuint (count_mcp (f->settings), ==, 2);
}

static void
test_mcp_edit (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) config = NULL;
  g_autoptr(GPtrArray) clients = NULL;
  g_auto(GStrv) problems = NULL;

  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "a", TRUE,
                                           "{\"command\": \"/bin/sh\"}", &error));
  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "b", TRUE,
                                           "{\"url\": \"http://127.0.0.1:9/mcp\"}", &error));
  g_assert_no_error (error);

  g_assert_false (tb_prefs_save_mcp_server (f->settings, "a", "a", TRUE, "{\"command\": ",
                                            &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG);
  g_assert_true (g_str_has_prefix (error->message,
                                   "The entry of the MCP server “a” is not JSON: "));
  g_clear_error (&error);

  g_assert_false (tb_prefs_save_mcp_server (f->settings, "a", "b", TRUE,
                                            "{\"command\": \"sh\"}", &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_EXISTS);
  g_clear_error (&error);

  g_assert_true (tb_prefs_set_mcp_enabled (f->settings, "b", FALSE, &error));
  config = tb_prefs_get_mcp_config (f->settings, TRUE);
  clients = tb_mcp_config_load (config, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (clients->len, ==, 1);
  g_assert_cmpstr (tb_mcp_client_get_name (clients->pdata[0]), ==, "a");

  g_assert_true (tb_prefs_remove_mcp_server (f->settings, "a", &error));
  g_assert_false (tb_prefs_remove_mcp_server (f->settings, "a", &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_NOT_FOUND);
  g_assert_cmpuint (count_mcp (f->settings), ==, 1);
}

static void
test_wrap_for_host (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse ("{\"command\": \"npx\", \"args\": [\"-y\", \"srv\"],"
                                            " \"env\": {\"TOKEN\": \"x y\"}, \"cwd\": \"/srv\"}",
                                            -1, &error);
  g_autoptr(JsonNode) url = tb_json_parse ("{\"url\": \"http://127.0.0.1:9/mcp\"}", -1, &error);
  g_autoptr(JsonObject) wrapped = tb_prefs_wrap_for_host (json_node_get_object (node));
  g_autoptr(JsonObject) again = tb_prefs_wrap_for_host (wrapped);
  g_autoptr(JsonObject) same = tb_prefs_wrap_for_host (json_node_get_object (url));
  g_autoptr(JsonNode) printed = json_node_init_object (json_node_alloc (), wrapped);
  g_autofree char *text = tb_json_to_string (printed, FALSE);
  g_autoptr(TbMcpClient) client = NULL;

  g_assert_cmpstr (text, ==,
                   "{\"command\":\"flatpak-spawn\",\"args\":[\"--host\",\"--watch-bus\","
                   "\"--directory=/srv\",\"--env=TOKEN=x y\",\"npx\",\"-y\",\"srv\"]}");
  g_assert_true (again == wrapped);
  g_assert_true (same == json_node_get_object (url));
  client = tb_mcp_client_new_from_config ("host", wrapped, &error);
  g_assert_no_error (error);
  g_assert_nonnull (client);
}

static void
test_folders (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) folders = NULL;
  g_autofree char *missing = g_build_filename (f->tmpdir, "missing", NULL);
  g_autofree char *root = NULL;

  g_assert_true (tb_prefs_add_tool_folder (f->settings, f->tmpdir, &error));
  g_assert_true (tb_prefs_add_tool_folder (f->settings, f->tmpdir, &error));
  g_assert_no_error (error);
  folders = g_settings_get_strv (f->settings, "tool-folders");
  g_assert_cmpuint (g_strv_length (folders), ==, 1);

  g_assert_false (tb_prefs_add_tool_folder (f->settings, "relative/tools", &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_FOLDER);
  g_clear_error (&error);

  g_assert_true (tb_prefs_set_sandbox_root (f->settings, f->tmpdir, &error));
  g_assert_false (tb_prefs_set_sandbox_root (f->settings, missing, &error));
  g_assert_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_FOLDER);
  root = g_settings_get_string (f->settings, "sandbox-root");
  g_assert_cmpstr (root, ==, f->tmpdir);

  g_assert_true (tb_prefs_remove_tool_folder (f->settings, f->tmpdir));
  g_assert_false (tb_prefs_remove_tool_folder (f->settings, f->tmpdir));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/prefs/schema-keys", Fixture, NULL, fixture_setup, test_schema_keys,
              fixture_teardown);
  g_test_add ("/prefs/range-refused", Fixture, NULL, fixture_setup, test_range_refused,
              fixture_teardown);
  g_test_add ("/prefs/url-refused", Fixture, NULL, fixture_setup, test_url_refused,
              fixture_teardown);
  g_test_add ("/prefs/providers", Fixture, NULL, fixture_setup, test_providers,
              fixture_teardown);
  g_test_add ("/prefs/mcp-import-bad", Fixture, NULL, fixture_setup, test_mcp_import_bad,
              fixture_teardown);
  g_test_add ("/prefs/mcp-edit", Fixture, NULL, fixture_setup, test_mcp_edit,
              fixture_teardown);
  g_test_add ("/prefs/wrap-for-host", Fixture, NULL, fixture_setup, test_wrap_for_host,
              fixture_teardown);
  g_test_add ("/prefs/folders", Fixture, NULL, fixture_setup, test_folders,
              fixture_teardown);

  return g_test_run ();
}
