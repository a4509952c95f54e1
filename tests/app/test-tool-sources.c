/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The preferences drive the registry: a manifest folder's tools come and
 * go with the folder, the file tools with the sandbox root, and an enabled
 * MCP server is started and its tools registered, then stopped when it is
 * turned off. A bad folder is reported, not fatal. */

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>

#include "tb-prefs.h"
#include "tb-tool-sources.h"
#include "tb-tool-sources-private.h"

typedef struct
{
  GSettings      *settings;
  TbToolRegistry *registry;
  TbToolSources  *sources;
  char           *dir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  f->settings = g_settings_new (APPLICATION_ID);
  g_object_get (f->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (f->settings, keys[i]);
  f->registry = tb_tool_registry_new ();
  f->sources = tb_tool_sources_new (f->registry, f->settings);
  f->dir = g_dir_make_tmp ("tb-sources-XXXXXX", NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *manifest = g_build_filename (f->dir, "shout.json", NULL);

  g_object_run_dispose (G_OBJECT (f->sources));
  g_assert_finalize_object (f->sources);
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 0);
  g_assert_finalize_object (f->registry);
  g_clear_object (&f->settings);
  g_unlink (manifest);
  g_rmdir (f->dir);
  g_free (f->dir);
}

static void
test_folders_and_sandbox (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *manifest = g_build_filename (f->dir, "shout.json", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "gone", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) problems = NULL;
  g_autoptr(TbTool) tool = NULL;

  g_assert_true (g_file_set_contents (manifest,
                                      "{\"name\": \"shout\", \"description\": \"Shouts\","
                                      " \"parameters\": {\"type\": \"object\"},"
                                      " \"command\": [\"cat\"]}", -1, &error));
  g_assert_true (tb_prefs_add_tool_folder (f->settings, f->dir, &error));
  g_assert_no_error (error);
  tool = tb_tool_registry_lookup (f->registry, "shout");
  g_assert_nonnull (tool);
  g_assert_true (g_str_has_prefix (tb_tool_get_source (tool), "manifest:"));

  g_assert_true (tb_prefs_set_sandbox_root (f->settings, f->dir, &error));
  g_assert_true (tb_tool_registry_contains (f->registry, "read_file"));
  g_assert_true (tb_tool_registry_contains (f->registry, "list_dir"));

  g_assert_true (tb_prefs_remove_tool_folder (f->settings, f->dir));
  g_assert_false (tb_tool_registry_contains (f->registry, "shout"));
  g_assert_true (tb_tool_registry_contains (f->registry, "read_file"));
  g_assert_true (tb_prefs_set_sandbox_root (f->settings, "", &error));
  g_assert_false (tb_tool_registry_contains (f->registry, "read_file"));

  /* A folder that went away after it was configured is reported. */
  g_settings_set_strv (f->settings, "tool-folders", (const char *[]) { missing, NULL });
  problems = tb_tool_sources_get_problems (f->sources);
  g_assert_cmpuint (g_strv_length (problems), ==, 1);
  g_assert_nonnull (strstr (problems[0], "gone"));
}

static gboolean
has_echo (Fixture *f)
{
  return tb_tool_registry_contains (f->registry, "echo");
}

static gboolean
wire_has (TbMcpClient *client,
          const char  *method)
{
  GListModel *history = tb_mcp_client_get_wire_history (client);

  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      if (tb_mcp_wire_record_get_direction (record) == TB_MCP_WIRE_DIRECTION_SENT &&
          g_strcmp0 (tb_mcp_wire_record_get_method (record), method) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_mcp_server (Fixture       *f,
                 gconstpointer  data)
{
  const char *server = g_getenv ("TB_FAKE_MCP_SERVER");
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *entry = NULL;
  g_autoptr(GError) error = NULL;
  gint64 end;
  TbMcpClient *client;

  if (server == NULL || python == NULL)
    {
      g_test_skip ("Needs python3 and tests/mcp/fake-mcp-server.py");
      return;
    }
  entry = g_strdup_printf ("{\"command\": \"python3\", \"args\": [\"%s\"]}", server);
  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "fake", TRUE, entry, &error));
  g_assert_no_error (error);
  client = tb_tool_sources_get_client (f->sources, "fake");
  g_assert_nonnull (client);

  end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!has_echo (f) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (has_echo (f));
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
  {
    g_autoptr(TbTool) echo = tb_tool_registry_lookup (f->registry, "echo");

    g_assert_cmpstr (tb_tool_get_source (echo), ==, "mcp:fake");
  }
  /* Probed for 2026-07-28, then the handshake. */
  g_assert_cmpint (tb_mcp_client_get_protocol (client), ==, TB_MCP_PROTOCOL_AUTO);
  g_assert_true (wire_has (client, "server/discover"));
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (client), ==, "2025-11-25");

  /* The handshake only: the server restarts without the probe. */
  tb_mcp_client_clear_wire_history (client);
  g_settings_set_string (f->settings, "mcp-protocol", "2025-11-25");
  g_assert_cmpint (tb_mcp_client_get_protocol (client), ==, TB_MCP_PROTOCOL_HANDSHAKE);
  end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!(tb_mcp_client_get_state (client) == TB_MCP_CLIENT_STATE_CONNECTED &&
           wire_has (client, "initialize")) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
  g_assert_true (wire_has (client, "initialize"));
  g_assert_false (wire_has (client, "server/discover"));

  /* Turned off: stopped and its tools gone. */
  g_assert_true (tb_prefs_set_mcp_enabled (f->settings, "fake", FALSE, &error));
  g_assert_null (tb_tool_sources_get_client (f->sources, "fake"));
  g_assert_false (has_echo (f));
}

/* A person's hints in the settings reach the registry, also for a tool that
 * is not registered yet, and leave it when removed. */
static void
test_hints (Fixture       *f,
            gconstpointer  data)
{
  gboolean overridden = FALSE;

  tb_prefs_set_tool_hints (f->settings, "later_tool", "destructive,open-world");
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "later_tool", &overridden), ==,
                   TB_TOOL_HINT_DESTRUCTIVE | TB_TOOL_HINT_OPEN_WORLD);
  g_assert_true (overridden);
  /* Words it does not know are left alone rather than half applied. */
  tb_prefs_set_tool_hints (f->settings, "odd_tool", "sometimes");
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "odd_tool", &overridden), ==,
                   TB_TOOL_HINT_NONE);
  g_assert_false (overridden);
  tb_prefs_set_tool_hints (f->settings, "later_tool", NULL);
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "later_tool", &overridden), ==,
                   TB_TOOL_HINT_NONE);
  g_assert_false (overridden);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/tool-sources/hints", Fixture, NULL, fixture_setup, test_hints,
              fixture_teardown);
  g_test_add ("/tool-sources/folders-and-sandbox", Fixture, NULL, fixture_setup,
              test_folders_and_sandbox, fixture_teardown);
  g_test_add ("/tool-sources/mcp-server", Fixture, NULL, fixture_setup, test_mcp_server,
              fixture_teardown);

  return g_test_run ();
}
