/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The MCP client against the real reference server from npm,
 * @modelcontextprotocol/server-everything, over stdio. */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  TbToolRegistry *registry;
  TbMcpClient    *client;
  GPtrArray      *registered;
} Fixture;

static void
tool_registered_cb (TbToolRegistry *registry,
                    TbTool         *tool,
                    Fixture        *f)
{
  g_ptr_array_add (f->registered, g_strdup (tb_tool_get_name (tool)));
}

static void
setup_with (Fixture           *f,
            TbMcpCapabilities  capabilities,
            gboolean           via_shell)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autoptr(GError) error = NULL;

  f->registry = tb_tool_registry_new ();
  f->registered = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f->registry, "tool-registered", G_CALLBACK (tool_registered_cb), f);
  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }

  if (via_shell)
    {
      /* The shell prints its pid on stderr, then becomes the server: the
       * test can kill the server and read the pid from the server log. */
      g_autofree char *quoted_node = g_shell_quote (argv[0]);
      g_autofree char *quoted_script = g_shell_quote (argv[1]);
      g_autofree char *line = g_strdup_printf ("echo \"pid=$$\" >&2; exec %s %s stdio",
                                               quoted_node, quoted_script);
      const char *shell_argv[] = { "/bin/sh", "-c", line, NULL };

      f->client = tb_mcp_client_new_stdio ("everything", shell_argv, NULL, NULL);
    }
  else
    {
      f->client = tb_mcp_client_new_stdio ("everything", (const char * const *) argv, NULL, NULL);
    }
  tb_mcp_client_set_capabilities (f->client, capabilities);
  tb_mcp_client_attach (f->client, f->registry);
  if (!mcp_test_connect (f->client, &error))
    g_error ("server-everything did not start: %s", error->message);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  setup_with (f, TB_MCP_CAPABILITY_NONE, FALSE);
}

static void
setup_capable (Fixture       *f,
               gconstpointer  data)
{
  setup_with (f, TB_MCP_CAPABILITY_ELICITATION | TB_MCP_CAPABILITY_SAMPLING |
                 TB_MCP_CAPABILITY_ROOTS, FALSE);
}

static void
setup_shell (Fixture       *f,
             gconstpointer  data)
{
  setup_with (f, TB_MCP_CAPABILITY_NONE, TRUE);
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
  if (f->client != NULL)
    {
      TbMcpClient *client = f->client;

      tb_mcp_client_detach (client);
      tb_mcp_client_disconnect (client);
      g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
      g_clear_object (&f->client);
      /* Reads still in flight hold the client until they see the cancel. */
      g_assert_true (mcp_test_wait (pointer_is_null, &client, 5000));
    }
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 0);
  g_assert_finalize_object (f->registry);
  g_ptr_array_unref (f->registered);
}

static void
test_list (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(TbTool) echo = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  JsonNode *info;

  if (f->client == NULL)
    return;

  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==, TB_MCP_PROTOCOL_VERSION);
  info = tb_mcp_client_get_server_info (f->client);
  g_assert_nonnull (info);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (info), "name"), ==,
                   "mcp-servers/everything");
  g_assert_nonnull (tb_mcp_client_get_instructions (f->client));

  tools = tb_mcp_client_get_tools (f->client);
  g_assert_cmpuint (tools->len, >=, 10);
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, tools->len);

  echo = tb_tool_registry_lookup (f->registry, "echo");
  g_assert_true (TB_IS_MCP_TOOL (echo));
  g_assert_cmpstr (tb_tool_get_source (echo), ==, "mcp:everything");
  g_assert_cmpstr (tb_tool_get_description (echo), ==, "Echoes back the input string");
  g_assert_cmpstr (tb_mcp_tool_get_title (TB_MCP_TOOL (echo)), ==, "Echo Tool");
  g_assert_cmpstr (tb_tool_get_title (echo), ==, "Echo Tool");
  /* Its annotations say read-only and idempotent; false ones stay unset. */
  g_assert_cmpint (tb_tool_get_hints (echo), ==, TB_TOOL_HINT_READ_ONLY | TB_TOOL_HINT_IDEMPOTENT);
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "echo", NULL), ==,
                   TB_TOOL_HINT_READ_ONLY | TB_TOOL_HINT_IDEMPOTENT);
  g_assert_null (tb_mcp_tool_get_schema_error (TB_MCP_TOOL (echo)));
  g_assert_true (tb_tool_registry_contains (f->registry, "get-sum"));
  g_assert_true (tb_tool_registry_contains (f->registry, "trigger-long-running-operation"));
  /* Offered only to clients that declare elicitation. */
  g_assert_false (tb_tool_registry_contains (f->registry, "trigger-elicitation-request"));
}

static void
test_ping (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (f->client == NULL)
    return;
  tb_mcp_client_ping_async (f->client, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 10000));
  g_assert_true (tb_mcp_client_ping_finish (f->client, result, &error));
  g_assert_no_error (error);
}

static void
test_call_echo (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) refused = NULL;
  JsonObject *metadata;

  if (f->client == NULL)
    return;

  result = mcp_test_call (f->registry, "echo", "{\"message\":\"hello\"}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (result)), ==, "Echo: hello");
  metadata = tb_tool_result_get_metadata (result);
  g_assert_cmpstr (json_object_get_string_member (metadata, "server"), ==, "everything");
  g_assert_cmpstr (json_object_get_string_member (metadata, "tool"), ==, "echo");

  /* Refused before it reaches the server: "message" is required. */
  refused = mcp_test_call (f->registry, "echo", "{}", NULL);
  g_assert_false (tb_tool_result_get_ok (refused));
  g_assert_cmpint (tb_tool_result_get_kind (refused), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_nonnull (strstr (tb_tool_result_get_error (refused), "message"));
}

static void
test_server_is_error (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = tb_json_parse ("{\"message\":5}", -1, NULL);
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(TbToolResult) result = NULL;

  if (f->client == NULL)
    return;

  /* Straight to the server, past the registry's argument check: the
   * server reports bad arguments as a result with isError. */
  tb_mcp_client_call_tool_async (f->client, "echo", arguments, NULL, NULL, NULL,
                                 mcp_test_store_result, &async);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &async, 10000));
  answer = tb_mcp_client_call_tool_finish (f->client, async, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (answer), "isError"));

  result = tb_mcp_result_to_tool_result ("everything", "echo", NULL, answer);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_nonnull (strstr (tb_tool_result_get_error (result), "expected string"));
}

static void
test_unknown_tool (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;

  if (f->client == NULL)
    return;

  tb_mcp_client_call_tool_async (f->client, "no-such-tool", NULL, NULL, NULL, NULL,
                                 mcp_test_store_result, &async);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &async, 10000));
  answer = tb_mcp_client_call_tool_finish (f->client, async, &error);
  /* Either a JSON-RPC error or an isError result; both name the tool. */
  if (answer == NULL)
    {
      g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_REMOTE);
      g_assert_nonnull (strstr (error->message, "no-such-tool"));
    }
  else
    {
      g_autoptr(TbToolResult) result =
        tb_mcp_result_to_tool_result ("everything", "no-such-tool", NULL, answer);

      g_assert_false (tb_tool_result_get_ok (result));
      g_assert_nonnull (strstr (tb_tool_result_get_error (result), "no-such-tool"));
    }
}

static void
test_structured (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbTool) tool = NULL;
  JsonObject *output;

  if (f->client == NULL)
    return;

  tool = tb_tool_registry_lookup (f->registry, "get-structured-content");
  g_assert_nonnull (tb_mcp_tool_get_output_schema (TB_MCP_TOOL (tool)));

  result = mcp_test_call (f->registry, "get-structured-content", "{\"location\":\"Chicago\"}",
                          NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  output = json_node_get_object (tb_tool_result_get_output (result));
  g_assert_cmpint (json_object_get_int_member (output, "temperature"), ==, 36);
  g_assert_cmpstr (json_object_get_string_member (output, "conditions"), ==,
                   "Light rain / drizzle");
  /* Checked against the tool's draft-07 output schema. */
  g_assert_true (json_object_get_boolean_member (tb_tool_result_get_metadata (result),
                                                  "output-schema-checked"));
}

static void
test_image (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  JsonArray *content;
  gboolean saw_image = FALSE;

  if (f->client == NULL)
    return;

  result = mcp_test_call (f->registry, "get-tiny-image", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_true (JSON_NODE_HOLDS_ARRAY (tb_tool_result_get_output (result)));
  content = json_node_get_array (tb_tool_result_get_output (result));
  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = json_array_get_object_element (content, i);

      if (g_strcmp0 (json_object_get_string_member (block, "type"), "image") == 0)
        {
          g_assert_cmpstr (json_object_get_string_member (block, "mimeType"), ==, "image/png");
          g_assert_cmpuint (strlen (json_object_get_string_member (block, "data")), >, 100);
          saw_image = TRUE;
        }
    }
  g_assert_true (saw_image);
}

static void
test_resource_links (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *text = NULL;

  if (f->client == NULL)
    return;

  result = mcp_test_call (f->registry, "get-resource-links", "{\"count\":2}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "\"type\":\"resource_link\""));

  g_clear_object (&result);
  result = mcp_test_call (f->registry, "get-resource-reference",
                          "{\"resourceType\":\"Text\",\"resourceId\":1}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_free (text);
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "\"type\":\"resource\""));
}

typedef struct
{
  guint count;
} ProgressSeen;

static void
progress_seen_cb (TbMcpClient  *client,
                  const char   *token,
                  double        progress,
                  double        total,
                  const char   *message,
                  ProgressSeen *seen)
{
  seen->count++;
  g_assert_cmpfloat (total, ==, 6);
}

static void
test_progress_extends_deadline (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  ProgressSeen seen = { 0 };
  JsonObject *metadata;

  if (f->client == NULL)
    return;

  /* 3 s of work with a 1.5 s limit: each of the 6 progress notifications
   * (one every 0.5 s) starts the limit over, so the call finishes. */
  tb_tool_registry_set_default_timeout_ms (f->registry, 1500);
  g_signal_connect (f->client, "progress", G_CALLBACK (progress_seen_cb), &seen);
  result = mcp_test_call (f->registry, "trigger-long-running-operation",
                          "{\"duration\":3,\"steps\":6}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_nonnull (strstr (json_node_get_string (tb_tool_result_get_output (result)),
                            "Long running operation completed"));
  metadata = tb_tool_result_get_metadata (result);
  g_assert_cmpint (json_object_get_int_member (metadata, "progress-notifications"), ==, 6);
  g_assert_cmpuint (seen.count, ==, 6);
  g_signal_handlers_disconnect_by_data (f->client, &seen);

  /* Without progress in between, the same limit stops a call. */
  g_clear_object (&result);
  result = mcp_test_call (f->registry, "trigger-long-running-operation",
                          "{\"duration\":3,\"steps\":1}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
}

typedef struct
{
  GThread *thread;
  GArray  *progress;
  double   total;
  guint    finished;
  char    *call_id;
} CallProgress;

static void
call_started_cb (TbToolRegistry *registry,
                 TbTool         *tool,
                 const char     *call_id,
                 JsonNode       *arguments,
                 CallProgress   *seen)
{
  g_free (seen->call_id);
  seen->call_id = g_strdup (call_id);
}

static void
call_progress_cb (TbToolRegistry *registry,
                  const char     *call_id,
                  double          progress,
                  double          total,
                  const char     *message,
                  CallProgress   *seen)
{
  /* On the registry's context, not the client's reader, and never after
   * the result. */
  g_assert_true (g_thread_self () == seen->thread);
  g_assert_cmpuint (seen->finished, ==, 0);
  g_assert_cmpstr (call_id, ==, seen->call_id);
  g_array_append_val (seen->progress, progress);
  seen->total = total;
}

static void
call_finished_cb (TbToolRegistry *registry,
                  TbTool         *tool,
                  const char     *call_id,
                  TbToolResult   *result,
                  CallProgress   *seen)
{
  seen->finished++;
}

static void
test_call_progress (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GArray) progress = g_array_new (FALSE, FALSE, sizeof (double));
  CallProgress seen = { g_thread_self (), progress, 0, 0, NULL };

  if (f->client == NULL)
    return;

  g_signal_connect (f->registry, "call-started", G_CALLBACK (call_started_cb), &seen);
  g_signal_connect (f->registry, "call-progress", G_CALLBACK (call_progress_cb), &seen);
  g_signal_connect (f->registry, "call-finished", G_CALLBACK (call_finished_cb), &seen);
  result = mcp_test_call (f->registry, "trigger-long-running-operation",
                          "{\"duration\":1,\"steps\":4}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpuint (seen.finished, ==, 1);

  g_assert_cmpuint (progress->len, ==, 4);
  for (guint i = 0; i < progress->len; i++)
    g_assert_cmpfloat (g_array_index (progress, double, i), ==, i + 1);
  g_assert_cmpfloat (seen.total, ==, 4);

  g_signal_handlers_disconnect_by_data (f->registry, &seen);
  g_free (seen.call_id);
}

typedef struct
{
  GHashTable *seen;   /* call id → number of reports */
  guint       mixed;  /* reports naming a call other than the tool's */
} LoopProgress;

static void
loop_progress_cb (TbDispatchLoop *loop,
                  TbPendingCall  *pending,
                  double          progress,
                  double          total,
                  const char     *message,
                  LoopProgress   *seen)
{
  const char *id = tb_tool_call_get_id (tb_pending_call_get_call (pending));
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (seen->seen, id));

  g_hash_table_replace (seen->seen, g_strdup (id), GUINT_TO_POINTER (n + 1));
  if (total != 4 || progress < 1 || progress > 4)
    seen->mixed++;
}

static void
loop_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Two long calls in one model turn, run side by side: each one's progress
 * reaches the loop naming its own pending call, and the trace keeps it as
 * tool-progress events between the call and its result. */
static void
test_loop_parallel_progress (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) recorded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  LoopProgress seen = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), 0 };
  TbTrace *trace;
  gint64 start;
  double elapsed;

  if (f->client == NULL)
    return;

  script = tb_json_parse ("{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
                          "{\"tool_calls\":["
                          "{\"id\":\"slow1\",\"name\":\"trigger-long-running-operation\","
                          "\"arguments\":{\"duration\":1,\"steps\":4}},"
                          "{\"id\":\"slow2\",\"name\":\"trigger-long-running-operation\","
                          "\"arguments\":{\"duration\":1,\"steps\":4}}]},"
                          "{\"text\":\"Both done.\"}]}", -1, NULL);
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);
  loop = tb_dispatch_loop_new (f->registry, TB_PROVIDER (provider), 4);
  tb_dispatch_loop_set_parallel_tool_calls (loop, TRUE);
  g_signal_connect (loop, "call-progress", G_CALLBACK (loop_progress_cb), &seen);
  tb_dispatch_loop_add_user_message (loop, "Run two slow things.", &error);
  g_assert_no_error (error);

  start = g_get_monotonic_time ();
  tb_dispatch_loop_run_async (loop, NULL, loop_done_cb, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 60000));
  g_assert_cmpint (tb_dispatch_loop_run_finish (loop, result, &error), ==,
                   TB_LOOP_STATE_FINISHED);
  g_assert_no_error (error);
  elapsed = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  g_test_message ("two 1 s calls side by side took %.2f s", elapsed);

  g_assert_cmpuint (seen.mixed, ==, 0);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (seen.seen, "slow1")), ==, 4);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (seen.seen, "slow2")), ==, 4);

  /* In the trace: each call's last report says 4 of 4, before its result. */
  trace = tb_dispatch_loop_get_trace (loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      JsonObject *payload = tb_trace_event_get_payload (event);
      const char *type = tb_trace_event_get_event_type (event);
      const char *id = tb_json_object_get_string (payload, "call_id");

      if (g_str_equal (type, "tool-progress"))
        {
          g_assert_true (g_strcmp0 (id, "slow1") == 0 || g_strcmp0 (id, "slow2") == 0);
          g_assert_false (g_hash_table_contains (recorded, id)
                          && GPOINTER_TO_UINT (g_hash_table_lookup (recorded, id)) == 0);
          g_assert_cmpfloat (json_object_get_double_member (payload, "total"), ==, 4);
          g_hash_table_replace (recorded, g_strdup (id),
                                GUINT_TO_POINTER ((guint) json_object_get_double_member
                                                    (payload, "progress")));
        }
      else if (g_str_equal (type, "tool-result"))
        {
          /* the last report before the result is the end */
          g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (recorded, id)), ==, 4);
          g_hash_table_replace (recorded, g_strdup (id), GUINT_TO_POINTER (0));
        }
    }
  g_assert_cmpuint (g_hash_table_size (recorded), ==, 2);

  /* Offline, the progress is history: the replay does not diverge on it. */
  {
    g_autoptr(TbReplay) replay = tb_replay_new (trace);
    g_autoptr(GAsyncResult) replayed = NULL;
    g_autoptr(TbReplayReport) report = NULL;

    tb_replay_run_async (replay, NULL, loop_done_cb, &replayed);
    g_assert_true (mcp_test_wait (mcp_test_pointer_set, &replayed, 30000));
    report = tb_replay_run_finish (replay, replayed, &error);
    g_assert_no_error (error);
    g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  }

  {
    JsonObject *event = json_object_new ();
    g_autofree char *text = NULL;

    json_object_set_string_member (event, "type", "tool-progress");
    json_object_set_string_member (event, "name", "slow");
    json_object_set_double_member (event, "progress", 3);
    json_object_set_double_member (event, "total", 4);
    json_object_set_string_member (event, "message", "Copying");
    text = tb_trace_describe_event (event, NULL);
    g_assert_cmpstr (text, ==, "slow: 3 of 4, Copying");
    g_assert_cmpint (tb_trace_describe_kind (event), ==, TB_TRACE_KIND_CALL);
    json_object_unref (event);
  }

  g_hash_table_unref (seen.seen);
}

static gboolean
cancel_soon_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) after = NULL;
  g_auto(GStrv) log = NULL;

  if (f->client == NULL)
    return;

  g_timeout_add (300, cancel_soon_cb, cancellable);
  result = mcp_test_call (f->registry, "trigger-long-running-operation",
                          "{\"duration\":5,\"steps\":5}", cancellable);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_CANCELLED);

  /* The server was told (notifications/cancelled) and still answers. */
  after = mcp_test_call (f->registry, "echo", "{\"message\":\"still here\"}", NULL);
  g_assert_true (tb_tool_result_get_ok (after));
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
}

static gboolean
has_tool (gpointer data)
{
  Fixture *f = data;

  return tb_tool_registry_contains (f->registry, "trigger-elicitation-request");
}

static void
test_list_changed (Fixture       *f,
                   gconstpointer  data)
{
  gboolean found = FALSE;

  if (f->client == NULL)
    return;

  /* The server adds the elicitation, sampling and roots tools after the
   * session starts and announces them with notifications/tools/list_changed. */
  g_assert_true (mcp_test_wait (has_tool, f, 10000));
  g_assert_true (tb_tool_registry_contains (f->registry, "trigger-sampling-request"));
  g_assert_true (tb_tool_registry_contains (f->registry, "get-roots-list"));
  for (guint i = 0; i < f->registered->len; i++)
    found |= g_str_equal (g_ptr_array_index (f->registered, i), "trigger-elicitation-request");
  g_assert_true (found);
}

static gboolean
accept_cb (TbMcpClient        *client,
           TbMcpServerRequest *request,
           gpointer            data)
{
  JsonObject *params = json_node_get_object (tb_mcp_server_request_get_params (request));
  g_autoptr(JsonNode) content = NULL;

  g_assert_cmpstr (tb_mcp_server_request_get_method (request), ==, "elicitation/create");
  content = tb_mcp_elicitation_defaults (json_object_get_member (params, "requestedSchema"));
  json_object_set_string_member (json_node_get_object (content), "name", "Ada Lovelace");
  tb_mcp_server_request_accept (request, content);
  return TRUE;
}

static gboolean
decline_cb (TbMcpClient        *client,
            TbMcpServerRequest *request,
            gpointer            data)
{
  tb_mcp_server_request_decline (request);
  return TRUE;
}

static void
test_elicitation (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *text = NULL;
  gulong id;

  if (f->client == NULL)
    return;
  g_assert_true (mcp_test_wait (has_tool, f, 10000));

  id = g_signal_connect (f->client, "elicitation-requested", G_CALLBACK (accept_cb), NULL);
  result = mcp_test_call (f->registry, "trigger-elicitation-request", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "Name: Ada Lovelace"));
  g_assert_nonnull (strstr (text, "Favorite Integer: 42"));
  g_signal_handler_disconnect (f->client, id);

  id = g_signal_connect (f->client, "elicitation-requested", G_CALLBACK (decline_cb), NULL);
  g_clear_object (&result);
  result = mcp_test_call (f->registry, "trigger-elicitation-request", NULL, NULL);
  g_free (text);
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "declined"));
  g_signal_handler_disconnect (f->client, id);

  /* Nobody to ask: the server hears so, it is not answered silently. */
  g_clear_object (&result);
  result = mcp_test_call (f->registry, "trigger-elicitation-request", NULL, NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_nonnull (strstr (tb_tool_result_get_error (result), "no handler"));
}

static gboolean
sampling_cb (TbMcpClient        *client,
             TbMcpServerRequest *request,
             gpointer            data)
{
  g_autoptr(JsonNode) answer =
    tb_json_parse ("{\"role\":\"assistant\",\"model\":\"toolbench-test\","
                   "\"content\":{\"type\":\"text\",\"text\":\"sampled words\"}}", -1, NULL);

  g_assert_cmpstr (tb_mcp_server_request_get_method (request), ==, "sampling/createMessage");
  tb_mcp_server_request_respond (request, answer);
  return TRUE;
}

static void
test_sampling (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *text = NULL;

  if (f->client == NULL)
    return;
  g_assert_true (mcp_test_wait (has_tool, f, 10000));

  g_signal_connect (f->client, "sampling-requested", G_CALLBACK (sampling_cb), NULL);
  result = mcp_test_call (f->registry, "trigger-sampling-request",
                          "{\"prompt\":\"say something\",\"maxTokens\":20}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "sampled words"));
}

static void
test_roots (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *text = NULL;
  const char *roots[] = { "file:///tmp/toolbench-root", NULL };

  if (f->client == NULL)
    return;
  g_assert_true (mcp_test_wait (has_tool, f, 10000));

  tb_mcp_client_set_roots (f->client, roots);
  result = mcp_test_call (f->registry, "get-roots-list", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "file:///tmp/toolbench-root"));
}

typedef struct
{
  guint server_messages;
} LogSeen;

static void
log_seen_cb (TbMcpClient *client,
             const char  *origin,
             const char  *level,
             const char  *text,
             LogSeen     *seen)
{
  if (g_str_equal (origin, "server"))
    seen->server_messages++;
}

static gboolean
got_server_message (gpointer data)
{
  return ((LogSeen *) data)->server_messages > 0;
}

static void
test_logging (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_auto(GStrv) log = NULL;
  LogSeen seen = { 0 };
  gboolean stderr_seen = FALSE;

  if (f->client == NULL)
    return;

  /* The server's stderr is in the log from the start. */
  log = tb_mcp_client_get_log (f->client);
  for (guint i = 0; log[i] != NULL; i++)
    stderr_seen |= g_str_has_prefix (log[i], "[stderr]");
  g_assert_true (stderr_seen);

  tb_mcp_client_set_log_level_async (f->client, "debug", NULL, mcp_test_store_result, &async);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &async, 10000));
  g_assert_true (tb_mcp_client_set_log_level_finish (f->client, async, &error));
  g_assert_no_error (error);

  g_signal_connect (f->client, "log-message", G_CALLBACK (log_seen_cb), &seen);
  result = mcp_test_call (f->registry, "toggle-simulated-logging", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_true (mcp_test_wait (got_server_message, &seen, 10000));
  g_signal_handlers_disconnect_by_data (f->client, &seen);
}

static GPid
server_pid (TbMcpClient *client)
{
  g_auto(GStrv) log = tb_mcp_client_get_log (client);

  for (guint i = 0; log[i] != NULL; i++)
    {
      const char *found = strstr (log[i], "pid=");

      if (found != NULL)
        return (GPid) g_ascii_strtoll (found + 4, NULL, 10);
    }
  return 0;
}

static gboolean
kill_cb (gpointer data)
{
  kill (GPOINTER_TO_INT (data), SIGKILL);
  return G_SOURCE_REMOVE;
}

static void
test_killed_mid_call (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) refused = NULL;
  g_autoptr(TbToolResult) again = NULL;
  g_autoptr(GError) error = NULL;
  GPid pid;

  if (f->client == NULL)
    return;

  pid = server_pid (f->client);
  g_assert_cmpint (pid, >, 0);
  g_timeout_add (300, kill_cb, GINT_TO_POINTER (pid));
  result = mcp_test_call (f->registry, "trigger-long-running-operation",
                          "{\"duration\":5,\"steps\":5}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_nonnull (strstr (tb_tool_result_get_error (result), "“everything”"));
  g_assert_nonnull (strstr (tb_tool_result_get_error (result), "killed by signal 9"));
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_FAILED);

  /* Its tools stay listed, and say why they cannot run. */
  refused = mcp_test_call (f->registry, "echo", "{\"message\":\"x\"}", NULL);
  g_assert_false (tb_tool_result_get_ok (refused));
  g_assert_nonnull (strstr (tb_tool_result_get_error (refused), "Restart the server"));

  /* And it restarts. */
  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_no_error (error);
  again = mcp_test_call (f->registry, "echo", "{\"message\":\"back\"}", NULL);
  g_assert_true (tb_tool_result_get_ok (again));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp/everything/list", Fixture, NULL, setup, test_list, teardown);
  g_test_add ("/mcp/everything/ping", Fixture, NULL, setup, test_ping, teardown);
  g_test_add ("/mcp/everything/call-echo", Fixture, NULL, setup, test_call_echo, teardown);
  g_test_add ("/mcp/everything/is-error", Fixture, NULL, setup, test_server_is_error, teardown);
  g_test_add ("/mcp/everything/unknown-tool", Fixture, NULL, setup, test_unknown_tool, teardown);
  g_test_add ("/mcp/everything/structured", Fixture, NULL, setup, test_structured, teardown);
  g_test_add ("/mcp/everything/image", Fixture, NULL, setup, test_image, teardown);
  g_test_add ("/mcp/everything/resources", Fixture, NULL, setup, test_resource_links, teardown);
  g_test_add ("/mcp/everything/progress", Fixture, NULL, setup,
              test_progress_extends_deadline, teardown);
  g_test_add ("/mcp/everything/loop-parallel-progress", Fixture, NULL, setup,
              test_loop_parallel_progress, teardown);
  g_test_add ("/mcp/everything/call-progress", Fixture, NULL, setup, test_call_progress,
              teardown);
  g_test_add ("/mcp/everything/cancel", Fixture, NULL, setup, test_cancel, teardown);
  g_test_add ("/mcp/everything/list-changed", Fixture, NULL, setup_capable, test_list_changed,
              teardown);
  g_test_add ("/mcp/everything/elicitation", Fixture, NULL, setup_capable, test_elicitation,
              teardown);
  g_test_add ("/mcp/everything/sampling", Fixture, NULL, setup_capable, test_sampling, teardown);
  g_test_add ("/mcp/everything/roots", Fixture, NULL, setup_capable, test_roots, teardown);
  g_test_add ("/mcp/everything/logging", Fixture, NULL, setup, test_logging, teardown);
  g_test_add ("/mcp/everything/killed-mid-call", Fixture, NULL, setup_shell,
              test_killed_mid_call, teardown);

  return g_test_run ();
}
