/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-attack-names"

#include "config.h"

#include "attack-util.h"
#include "../mcp/mcp-test-util.h"

/* A name with a NUL or another control character never stands for
 * another name: json-glib would cut "add\u0000x" to "add", so the escape
 * becomes U+FFFD, and such names are refused wherever a name arrives. */

typedef AttackDir Fixture;

/* The model calls "add\u0000x" and "add" with an escape sequence: neither
 * runs add; each gets an error the model can read, naming no raw control
 * character. */
static void
test_model_call (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *script = g_build_filename (f->dir, "script.json", NULL);
  g_autofree char *trace = g_build_filename (f->dir, "names.jsonl", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(TbTrace) loaded = NULL;
  g_autoptr(GError) error = NULL;
  guint results = 0;
  AttackRun run = { 0 };

  attack_write_file (script,
                     "{\"version\":1,\"responses\":[{\"tool_calls\":["
                     "{\"id\":\"c1\",\"name\":\"add\\u0000x\",\"arguments\":{\"a\":2,\"b\":3}},"
                     "{\"id\":\"c2\",\"name\":\"add\\u001b]0;pwned\\u0007\","
                     "\"arguments\":{\"a\":2,\"b\":3}}]},{\"text\":\"done\"}]}");
  attack_cli (&run, NULL, NULL, "run", "-n", "3", "--prompt", "hi", "--script", script,
              "--trace", trace, "-q");
  g_assert_cmpint (run.status, ==, 0);
  attack_run_clear (&run);

  file = g_file_new_for_path (trace);
  loaded = tb_trace_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < tb_trace_get_n_events (loaded); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (loaded, i);
      JsonObject *payload = tb_trace_event_get_payload (event);
      JsonObject *result = tb_json_object_get_object (payload, "result");
      const char *content = tb_json_object_get_string (payload, "content");

      if (!g_str_equal (tb_trace_event_get_event_type (event), "tool-result"))
        continue;
      results++;
      /* add would have answered 5 */
      g_assert_false (json_object_get_boolean_member (result, "ok"));
      g_assert_cmpstr (content, ==, "Error: The call names a tool that cannot exist: tool names "
                                    "use only letters, digits, “_”, “.” and “-”. Available "
                                    "tools: echo, add, sleep.");
      g_assert_null (strchr (content, '\x1b'));
      g_assert_cmpstr (tb_json_object_get_string (payload, "name"), !=, "add");
    }
  g_assert_cmpuint (results, ==, 2);
}

static gboolean
client_gone (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* An MCP server that offers "echo\u0000x" must not shadow or become
 * "echo"; names with control characters are left out, with a line in the
 * server's log. */
static void
test_mcp_tool_names (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *script = mcp_test_fake_server ();
  const char *argv[] = { "/usr/bin/python3", script, "--control-names", NULL };
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  TbMcpClient *client;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) log = NULL;
  gboolean found = FALSE;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return;
    }
  client = tb_mcp_client_new_stdio ("fake", argv, NULL, NULL);
  tb_mcp_client_attach (client, registry);
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_CONNECTED);

  g_assert_true (tb_tool_registry_contains (registry, "echo"));
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (registry)); i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (registry), i);
      const char *name = tb_tool_get_name (tool);

      g_assert_null (strstr (name, "title"));
      g_assert_false (g_str_has_prefix (name, "echo_") || g_str_has_prefix (name, "fake.echo"));
    }

  log = tb_mcp_client_get_log (client);
  for (guint i = 0; log[i] != NULL; i++)
    if (strstr (log[i], "The server offers a tool whose name has a control character; it was "
                        "left out") != NULL)
      found = TRUE;
  g_assert_true (found);

  /* the client goes once its process has been reaped */
  tb_mcp_client_detach (client);
  tb_mcp_client_disconnect (client);
  g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
  g_object_unref (client);
  g_assert_true (mcp_test_wait (client_gone, &client, 5000));
  g_assert_cmpuint (tb_tool_registry_get_size (registry), ==, 0);
}

/* A command tool's manifest naming a tool with a control character is
 * refused with the position of the character. */
static void
test_manifest_name (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *tools = g_build_filename (f->dir, "tools", NULL);
  g_autofree char *manifest = g_build_filename (tools, "bell.json", NULL);
  AttackRun run = { 0 };

  g_mkdir (tools, 0700);
  attack_write_file (manifest, "{\"name\":\"bell\\u0007\",\"command\":[\"true\"],"
                               "\"parameters\":{\"type\":\"object\"}}");
  attack_cli (&run, NULL, NULL, "list", "--tools-dir", tools);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "has a character that is not allowed at position 5"));
  g_assert_null (strstr (run.out, "bell"));
  attack_run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  attack_dir_test_add ("/attack/names/model-call", test_model_call);
  attack_dir_test_add ("/attack/names/mcp-tool-names", test_mcp_tool_names);
  attack_dir_test_add ("/attack/names/manifest", test_manifest_name);

  return g_test_run ();
}
