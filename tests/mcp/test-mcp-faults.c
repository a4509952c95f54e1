/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The faults real servers do not produce, from an in-tree fake server:
 * garbage, crashes, hangs, closed output, huge and binary results,
 * non-UTF-8 stderr, thousands of tools, broken schemas, name clashes. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  TbToolRegistry *registry;
  GPtrArray      *clients;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->registry = tb_tool_registry_new ();
  f->clients = g_ptr_array_new ();
}

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  for (guint i = 0; i < f->clients->len; i++)
    {
      TbMcpClient *client = g_ptr_array_index (f->clients, i);

      tb_mcp_client_detach (client);
      tb_mcp_client_disconnect (client);
      g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
      g_object_unref (client);
      g_assert_true (mcp_test_wait (pointer_is_null, &client, 5000));
    }
  g_ptr_array_unref (f->clients);
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 0);
  g_assert_finalize_object (f->registry);
}

/* Starts the fake server with @options (space-separated), attached to the
 * registry; NULL (test skipped) when python3 is missing. */
static TbMcpClient *
start_fake (Fixture    *f,
            const char *name,
            const char *options,
            gboolean    connect)
{
  g_autofree char *script = mcp_test_fake_server ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) extra = g_strsplit (options != NULL ? options : "", " ", -1);
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  TbMcpClient *client;

  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return NULL;
    }
  g_strv_builder_add (builder, "/usr/bin/python3");
  g_strv_builder_add (builder, script);
  for (guint i = 0; extra[i] != NULL; i++)
    if (*extra[i] != '\0')
      g_strv_builder_add (builder, extra[i]);
  argv = g_strv_builder_end (builder);

  client = tb_mcp_client_new_stdio (name, (const char * const *) argv, NULL, NULL);
  g_ptr_array_add (f->clients, client);
  tb_mcp_client_attach (client, f->registry);
  if (connect && !mcp_test_connect (client, &error))
    g_error ("the fake server did not start: %s", error->message);
  return client;
}

static void
test_garbage (Fixture       *f,
              gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  const char *error;

  if (client == NULL)
    return;
  result = mcp_test_call (f->registry, "garbage", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  error = tb_tool_result_get_error (result);
  g_assert_nonnull (strstr (error, "The MCP server “fake” printed something that is not a "
                                   "JSON-RPC message"));
  g_assert_nonnull (strstr (error, "this is not json at all"));
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_FAILED);
  g_assert_cmpstr (tb_mcp_client_get_error (client), ==, error);
}

static void
test_crash (Fixture       *f,
            gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) again = NULL;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  result = mcp_test_call (f->registry, "crash", NULL, NULL);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The MCP server “fake” exited with status 3");
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_FAILED);

  g_assert_true (mcp_test_connect (client, &error));
  again = mcp_test_call (f->registry, "echo", "{\"message\":\"hi\"}", NULL);
  g_assert_true (tb_tool_result_get_ok (again));
}

static void
test_hang (Fixture       *f,
           gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) after = NULL;

  if (client == NULL)
    return;
  tb_tool_registry_set_default_timeout_ms (f->registry, 500);
  tb_mcp_client_set_request_timeout_ms (client, 500);
  result = mcp_test_call (f->registry, "hang", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);

  /* The call that was given up on leads to a ping; no answer: a hang. */
  while (tb_mcp_client_get_state (client) == TB_MCP_CLIENT_STATE_CONNECTED)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_FAILED);
  g_assert_cmpstr (tb_mcp_client_get_error (client), ==,
                   "The MCP server “fake” stopped answering (no reply to a ping within 500 ms)");

  after = mcp_test_call (f->registry, "echo", "{\"message\":\"hi\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (after));
  g_assert_nonnull (strstr (tb_tool_result_get_error (after), "stopped answering"));
}

static void
test_hang_at_start (Fixture       *f,
                    gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", "--hang-init", FALSE);
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  tb_mcp_client_set_request_timeout_ms (client, 300);
  g_assert_false (mcp_test_connect (client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "did not answer “initialize” within 300 ms"));
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_FAILED);
}

static void
test_closed_stdout (Fixture       *f,
                    gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;

  if (client == NULL)
    return;
  result = mcp_test_call (f->registry, "close", NULL, NULL);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The MCP server “fake” closed its standard output");
}

static void
test_spawn_failure (Fixture       *f,
                    gconstpointer  data)
{
  const char *argv[] = { "/nonexistent/mcp-server", "--flag", NULL };
  TbMcpClient *client = tb_mcp_client_new_stdio ("missing", argv, NULL, NULL);
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (f->clients, client);
  g_assert_false (mcp_test_connect (client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_SPAWN);
  g_assert_nonnull (strstr (error->message, "The MCP server “missing” could not be started "
                                            "(/nonexistent/mcp-server)"));
}

static void
test_version (Fixture       *f,
              gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", "--version 1999-01-01", FALSE);
  TbMcpClient *older = start_fake (f, "older", "--version 2025-03-26", FALSE);
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  g_assert_false (mcp_test_connect (client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_VERSION);
  g_assert_nonnull (strstr (error->message, "“1999-01-01”"));
  g_clear_error (&error);

  g_assert_true (mcp_test_connect (older, &error));
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (older), ==, "2025-03-26");
}

static void
test_big_result (Fixture       *f,
                 gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) huge = NULL;

  if (client == NULL)
    return;
  result = mcp_test_call (f->registry, "big", "{\"size\":10485760}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpuint (strlen (json_node_get_string (tb_tool_result_get_output (result))), ==,
                    10485760);

  /* Past the message limit: refused, the server disconnected, no crash. */
  huge = mcp_test_call (f->registry, "huge-line", NULL, NULL);
  g_assert_false (tb_tool_result_get_ok (huge));
  g_assert_cmpstr (tb_tool_result_get_error (huge), ==,
                   "The MCP server “fake” sent a message larger than 32.0\302\240MiB, "
                   "the most the client keeps");
}

static void
test_binary (Fixture       *f,
             gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  JsonArray *content;
  JsonArray *types;

  if (client == NULL)
    return;
  result = mcp_test_call (f->registry, "binary", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  content = json_node_get_array (tb_tool_result_get_output (result));
  g_assert_cmpuint (json_array_get_length (content), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 1),
                                                  "mimeType"), ==, "audio/wav");
  types = json_object_get_array_member (tb_tool_result_get_metadata (result), "content-types");
  g_assert_cmpstr (json_array_get_string_element (types, 0), ==, "image");
  g_assert_cmpstr (json_array_get_string_element (types, 2), ==, "resource");
  g_assert_cmpstr (json_array_get_string_element (types, 3), ==, "resource_link");
}

static gboolean
log_has_bad_bytes (gpointer data)
{
  g_auto(GStrv) log = tb_mcp_client_get_log (data);

  for (guint i = 0; log[i] != NULL; i++)
    if (strstr (log[i], "bad bytes:") != NULL)
      return TRUE;
  return FALSE;
}

static void
test_stderr_not_utf8 (Fixture       *f,
                      gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  g_auto(GStrv) log = NULL;

  if (client == NULL)
    return;
  result = mcp_test_call (f->registry, "stderr", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  /* stderr is read beside stdout and may come a moment later. */
  g_assert_true (mcp_test_wait (log_has_bad_bytes, client, 5000));
  log = tb_mcp_client_get_log (client);
  for (guint i = 0; log[i] != NULL; i++)
    {
      g_assert_true (g_utf8_validate (log[i], -1, NULL));
      if (strstr (log[i], "bad bytes:") != NULL)
        g_assert_true (g_str_has_suffix (log[i], " end"));
    }
}

static void
test_many_tools (Fixture       *f,
                 gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", "--tools 5000 --page 700", TRUE);
  g_autoptr(TbToolResult) result = NULL;

  if (client == NULL)
    return;
  /* 24 built-in fake tools plus 5,000 generated, over 8 pages. */
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 5024);
  g_assert_true (tb_tool_registry_contains (f->registry, "tool_04999"));
  result = mcp_test_call (f->registry, "tool_04999", NULL, NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The MCP server “fake” answered with error -32602: Unknown tool: tool_04999");
}

static void
test_broken_schemas (Fixture       *f,
                     gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", "--broken-schemas", TRUE);
  const char *names[] = { "schema-not-object", "schema-wrong-type", "schema-missing",
                          "schema-bad-keyword" };
  const char *expected[] = {
    "the inputSchema is of type string, not a JSON Schema object",
    "the inputSchema must have “type”: “object”",
    "the server gave no inputSchema",
    NULL,
  };

  if (client == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(TbTool) tool = tb_tool_registry_lookup (f->registry, names[i]);
      g_autoptr(TbToolResult) result = NULL;
      g_autofree char *message = NULL;

      const char *schema_error;

      g_assert_true (TB_IS_MCP_TOOL (tool));
      schema_error = tb_mcp_tool_get_schema_error (TB_MCP_TOOL (tool));
      if (expected[i] != NULL)
        g_assert_cmpstr (schema_error, ==, expected[i]);
      else
        g_assert_true (g_str_has_prefix (schema_error,
                                         "the inputSchema is not valid JSON Schema: "));
      result = mcp_test_call (f->registry, names[i], NULL, NULL);
      message = g_strdup_printf ("The tool “%s” of the MCP server “fake” cannot be called: %s. "
                                 "The server's tool definition needs fixing",
                                 names[i], schema_error);
      g_assert_cmpstr (tb_tool_result_get_error (result), ==, message);
    }
}

static void
test_names (Fixture       *f,
            gconstpointer  data)
{
  TbMcpClient *first = start_fake (f, "first", "--weird-names", TRUE);
  TbMcpClient *second = NULL;
  g_autoptr(TbTool) odd = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *long_name = NULL;

  if (first == NULL)
    return;
  second = start_fake (f, "second", NULL, TRUE);

  /* Both servers have "echo": the second one's gets its server's prefix. */
  g_assert_true (tb_tool_registry_contains (f->registry, "echo"));
  g_assert_true (tb_tool_registry_contains (f->registry, "second.echo"));
  result = mcp_test_call (f->registry, "second.echo", "{\"message\":\"two\"}", NULL);
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (result)), ==, "Echo: two");
  g_assert_cmpstr (json_object_get_string_member (tb_tool_result_get_metadata (result), "server"),
                   ==, "second");

  /* Characters a tool name may not have become "_"; the server still
   * gets its own name. */
  odd = tb_tool_registry_lookup (f->registry, "has_space_and_colon");
  g_assert_nonnull (odd);
  g_assert_cmpstr (tb_mcp_tool_get_remote_name (TB_MCP_TOOL (odd)), ==, "has space/and:colon");
  long_name = g_strnfill (64, 'x');
  g_assert_true (tb_tool_registry_contains (f->registry, long_name));
  (void) second;
}

static gboolean
tool_added (gpointer data)
{
  return tb_tool_registry_contains (data, "added-later");
}

typedef struct
{
  guint added;
  guint removed;
} Changes;

static void
added_cb (TbToolRegistry *registry, TbTool *tool, Changes *changes)
{
  const char *name = tb_tool_get_name (tool);

  g_assert_true (g_str_equal (name, "added-later") || g_str_equal (name, "stderr"));
  changes->added++;
}

static void
removed_cb (TbToolRegistry *registry, TbTool *tool, Changes *changes)
{
  const char *name = tb_tool_get_name (tool);

  g_assert_true (g_str_equal (name, "binary") || g_str_equal (name, "stderr"));
  changes->removed++;
}

static void
test_list_changed (Fixture       *f,
                   gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  Changes changes = { 0 };

  if (client == NULL)
    return;
  g_signal_connect (f->registry, "tool-registered", G_CALLBACK (added_cb), &changes);
  g_signal_connect (f->registry, "tool-unregistered", G_CALLBACK (removed_cb), &changes);
  result = mcp_test_call (f->registry, "change-tools", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_true (mcp_test_wait (tool_added, f->registry, 5000));
  g_assert_false (tb_tool_registry_contains (f->registry, "binary"));
  /* Added: added-later. Removed: binary. Changed (removed, then added
   * again with the new definition): stderr. */
  g_assert_cmpuint (changes.added, ==, 2);
  g_assert_cmpuint (changes.removed, ==, 2);
  {
    g_autoptr(TbTool) changed = tb_tool_registry_lookup (f->registry, "stderr");

    g_assert_cmpstr (tb_tool_get_description (changed), ==, "A changed description");
  }
  g_signal_handlers_disconnect_by_data (f->registry, &changes);
}

static gboolean
cancel_soon (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel_notifies (Fixture       *f,
                      gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) seen = NULL;
  g_autoptr(JsonNode) list = NULL;
  JsonObject *first;

  if (client == NULL)
    return;
  g_timeout_add (200, cancel_soon, cancellable);
  result = mcp_test_call (f->registry, "wait-cancel", NULL, cancellable);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_CANCELLED);
  /* The registry answers at once; the client tells the server from an idle. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  /* The server heard of it, with the request's id, and still answers. */
  seen = mcp_test_call (f->registry, "cancelled", NULL, NULL);
  list = tb_json_parse (json_node_get_string (tb_tool_result_get_output (seen)), -1, NULL);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (list)), ==, 1);
  first = json_array_get_object_element (json_node_get_array (list), 0);
  g_assert_cmpint (json_object_get_int_member (first, "requestId"), >, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "reason"), ==,
                   "The caller cancelled the request");
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
}

static void
test_structured (Fixture       *f,
                 gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) missing = NULL;
  g_autoptr(TbToolResult) mismatch = NULL;
  g_autoptr(TbToolResult) unchecked = NULL;
  const char *error;

  if (client == NULL)
    return;
  result = mcp_test_call (f->registry, "structured", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (
                     tb_tool_result_get_output (result)), "n"), ==, 7);

  g_assert_true (json_object_get_boolean_member (tb_tool_result_get_metadata (result),
                                                  "output-schema-checked"));

  missing = mcp_test_call (f->registry, "no-structured", NULL, NULL);
  g_assert_cmpstr (tb_tool_result_get_error (missing), ==,
                   "The tool “no-structured” of the MCP server “fake” declares an output schema "
                   "but returned no structured content");

  /* Checked against the output schema: every mismatch is listed. */
  mismatch = mcp_test_call (f->registry, "bad-structured", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (mismatch), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  error = tb_tool_result_get_error (mismatch);
  g_test_message ("%s", error);
  g_assert_true (g_str_has_prefix (error, "The structured content of the tool “bad-structured” "
                                          "of the MCP server “fake” does not match its output "
                                          "schema:\n- "));
  g_assert_nonnull (strstr (error, "/n"));
  g_assert_nonnull (strstr (error, "unit"));

  /* An output schema that is not a schema checks nothing, and says so. */
  unchecked = mcp_test_call (f->registry, "broken-output-schema", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (unchecked));
  g_assert_true (g_str_has_prefix (tb_tool_result_get_warnings (unchecked)[0],
                                   "The output schema of “broken-output-schema” is not valid "
                                   "JSON Schema"));
}

static void
test_elicitation_not_supported (Fixture       *f,
                                gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, FALSE);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (client == NULL)
    return;
  /* Declared, but nobody connected a handler: the server is told. */
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
  g_assert_true (mcp_test_connect (client, &error));
  result = mcp_test_call (f->registry, "elicit", NULL, NULL);
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "\"code\": -32601"));
  g_assert_nonnull (strstr (text, "no handler"));
}

typedef struct
{
  TbMcpServerRequest *request;
  guint               withdrawn;
} Held;

static void
withdrawn_cb (TbMcpServerRequest *request,
              Held               *held)
{
  held->withdrawn++;
}

static gboolean
hold_cb (TbMcpClient        *client,
         TbMcpServerRequest *request,
         Held               *held)
{
  /* A person has not answered yet: keep it open. */
  held->request = g_object_ref (request);
  g_signal_connect (request, "withdrawn", G_CALLBACK (withdrawn_cb), held);
  return TRUE;
}

static void
test_elicitation_withdrawn (Fixture       *f,
                            gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, FALSE);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Held held = { 0 };

  if (client == NULL)
    return;
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
  g_signal_connect (client, "elicitation-requested", G_CALLBACK (hold_cb), &held);
  g_assert_true (mcp_test_connect (client, &error));
  result = mcp_test_call (f->registry, "elicit-withdrawn", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));

  g_assert_nonnull (held.request);
  g_assert_cmpuint (held.withdrawn, ==, 1);
  g_assert_true (tb_mcp_server_request_is_answered (held.request));
  /* A late answer is not sent. */
  tb_mcp_server_request_decline (held.request);
  g_signal_handlers_disconnect_by_data (client, &held);
  g_assert_finalize_object (held.request);
}

static void
test_hostile_messages (Fixture       *f,
                       gconstpointer  data)
{
  TbMcpClient *client = start_fake (f, "fake", NULL, TRUE);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) deep = NULL;
  g_autoptr(TbToolResult) after = NULL;
  g_auto(GStrv) log = NULL;
  gboolean batch_seen = FALSE;

  if (client == NULL)
    return;
  /* Answers to requests never sent, progress and log messages of the wrong
   * shape, unknown methods, a batch, blank lines: none of it stops the
   * session, and the call still gets its answer. */
  result = mcp_test_call (f->registry, "hostile", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (result)), ==, "survived");
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
  log = tb_mcp_client_get_log (client);
  for (guint i = 0; log[i] != NULL; i++)
    batch_seen |= strstr (log[i], "from a batch") != NULL;
  g_assert_true (batch_seen);

  /* 100,000 levels of nesting: refused before the parser sees it. */
  deep = mcp_test_call (f->registry, "deep", NULL, NULL);
  g_assert_false (tb_tool_result_get_ok (deep));
  g_assert_nonnull (strstr (tb_tool_result_get_error (deep),
                            "sent a message that Toolbench does not read: The JSON nests arrays "
                            "and objects more than 512 levels deep"));
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_FAILED);

  after = mcp_test_call (f->registry, "echo", "{\"message\":\"x\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (after));
}

static void
test_env_and_cwd (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *script = mcp_test_fake_server ();
  g_autofree char *dir = g_dir_make_tmp ("tb-mcp-cwd-XXXXXX", NULL);
  g_autofree char *real_dir = g_canonicalize_filename (dir, NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) config = NULL;
  g_autoptr(GPtrArray) clients = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(JsonNode) seen = NULL;
  g_autoptr(GError) error = NULL;
  TbMcpClient *client;

  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return;
    }
  text = g_strdup_printf ("{\"mcpServers\":{\"placed\":{\"command\":\"/usr/bin/python3\","
                          "\"args\":[\"%s\"],\"env\":{\"TB_FAKE_VAR\":\"from the config\"},"
                          "\"cwd\":\"%s\"}}}", script, dir);
  config = tb_json_parse (text, -1, &error);
  g_assert_no_error (error);
  clients = tb_mcp_config_load (config, NULL, &error);
  g_assert_no_error (error);
  client = g_object_ref (g_ptr_array_index (clients, 0));
  g_ptr_array_add (f->clients, client);
  tb_mcp_client_attach (client, f->registry);
  g_assert_true (mcp_test_connect (client, &error));

  result = mcp_test_call (f->registry, "where", NULL, NULL);
  seen = tb_json_parse (json_node_get_string (tb_tool_result_get_output (result)), -1, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (seen), "var"), ==,
                   "from the config");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (seen), "cwd"), ==,
                   real_dir);
  g_rmdir (dir);
}

static void
test_config (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(JsonNode) config = tb_json_parse (
    "{\"mcpServers\":{"
    "\"local\":{\"command\":\"/usr/bin/python3\",\"args\":[\"x.py\"],\"env\":{\"A\":\"1\"}},"
    "\"remote\":{\"url\":\"http://127.0.0.1:9/mcp\",\"headers\":{\"X-Token\":\"t\"}},"
    "\"off\":{\"command\":\"x\",\"disabled\":true},"
    "\"old\":{\"type\":\"sse\",\"url\":\"http://127.0.0.1:9/sse\"},"
    "\"bad-args\":{\"command\":\"x\",\"args\":\"not an array\"},"
    "\"nothing\":{}}}", -1, NULL);
  g_autoptr(GPtrArray) clients = NULL;
  g_auto(GStrv) problems = NULL;
  g_autoptr(GError) error = NULL;

  clients = tb_mcp_config_load (config, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (clients->len, ==, 2);
  g_assert_cmpstr (tb_mcp_client_get_name (g_ptr_array_index (clients, 0)), ==, "local");
  g_assert_cmpstr (tb_mcp_client_get_name (g_ptr_array_index (clients, 1)), ==, "remote");
  g_assert_cmpuint (g_strv_length (problems), ==, 3);
  g_assert_cmpstr (problems[0], ==, "The server “old” uses the old HTTP+SSE transport, which is "
                                    "not supported; use its streamable HTTP endpoint");
  g_assert_cmpstr (problems[1], ==, "The server “bad-args”: “args” must be an array of strings");
  g_assert_cmpstr (problems[2], ==, "The server “nothing” has neither a “command” nor a “url”");

  {
    g_autoptr(JsonNode) wrong = tb_json_parse ("[1,2]", -1, NULL);
    g_autoptr(GPtrArray) none = tb_mcp_config_load (wrong, NULL, &error);

    g_assert_null (none);
    g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp/faults/garbage", Fixture, NULL, setup, test_garbage, teardown);
  g_test_add ("/mcp/faults/crash", Fixture, NULL, setup, test_crash, teardown);
  g_test_add ("/mcp/faults/hang", Fixture, NULL, setup, test_hang, teardown);
  g_test_add ("/mcp/faults/hang-at-start", Fixture, NULL, setup, test_hang_at_start, teardown);
  g_test_add ("/mcp/faults/closed-stdout", Fixture, NULL, setup, test_closed_stdout, teardown);
  g_test_add ("/mcp/faults/spawn-failure", Fixture, NULL, setup, test_spawn_failure, teardown);
  g_test_add ("/mcp/faults/version", Fixture, NULL, setup, test_version, teardown);
  g_test_add ("/mcp/faults/big-result", Fixture, NULL, setup, test_big_result, teardown);
  g_test_add ("/mcp/faults/binary", Fixture, NULL, setup, test_binary, teardown);
  g_test_add ("/mcp/faults/stderr-not-utf8", Fixture, NULL, setup, test_stderr_not_utf8,
              teardown);
  g_test_add ("/mcp/faults/many-tools", Fixture, NULL, setup, test_many_tools, teardown);
  g_test_add ("/mcp/faults/broken-schemas", Fixture, NULL, setup, test_broken_schemas, teardown);
  g_test_add ("/mcp/faults/names", Fixture, NULL, setup, test_names, teardown);
  g_test_add ("/mcp/faults/list-changed", Fixture, NULL, setup, test_list_changed, teardown);
  g_test_add ("/mcp/faults/structured", Fixture, NULL, setup, test_structured, teardown);
  g_test_add ("/mcp/faults/cancel-notifies", Fixture, NULL, setup, test_cancel_notifies,
              teardown);
  g_test_add ("/mcp/faults/elicitation-not-supported", Fixture, NULL, setup,
              test_elicitation_not_supported, teardown);
  g_test_add ("/mcp/faults/elicitation-withdrawn", Fixture, NULL, setup,
              test_elicitation_withdrawn, teardown);
  g_test_add ("/mcp/faults/hostile-messages", Fixture, NULL, setup, test_hostile_messages,
              teardown);
  g_test_add ("/mcp/faults/config", Fixture, NULL, setup, test_config, teardown);
  g_test_add ("/mcp/faults/env-and-cwd", Fixture, NULL, setup, test_env_and_cwd, teardown);

  return g_test_run ();
}
