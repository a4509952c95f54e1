/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The MCP messages of a run in its trace: a scripted model calls tools of
 * the in-tree fake server; the trace has `mcp-message` events under the
 * calls that caused them, reloads from its file, replays without a
 * divergence, and `trace show` reads them; a trace from before they
 * existed still loads and replays. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

static const char *script_text =
  "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
  " {\"text\":\"Calling.\",\"tool_calls\":["
  "   {\"id\":\"c1\",\"name\":\"fake.echo\",\"arguments\":{\"message\":\"traced\"}},"
  "   {\"id\":\"c2\",\"name\":\"progress\",\"arguments\":{}}]},"
  " {\"tool_calls\":[{\"id\":\"c3\",\"name\":\"big\",\"arguments\":{\"size\":3000000}}]},"
  " {\"text\":\"Done.\"}]}";

typedef struct
{
  char           *dir;
  char           *path;
  TbToolRegistry *registry;
  TbMcpClient    *client;
  TbTrace        *recorded;
} Fixture;

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static TbMcpClient *
start_fake (TbToolRegistry *registry)
{
  g_autofree char *script = mcp_test_fake_server ();
  const char *argv[] = { "/usr/bin/python3", script, NULL };
  g_autoptr(GError) error = NULL;
  TbMcpClient *client = tb_mcp_client_new_stdio ("fake", argv, NULL, NULL);

  tb_mcp_client_attach (client, registry);
  if (!mcp_test_connect (client, &error))
    g_error ("the fake server did not start: %s", error->message);
  return client;
}

static void
stop_fake (TbMcpClient *client)
{
  tb_mcp_client_detach (client);
  tb_mcp_client_disconnect (client);
  g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
  g_object_unref (client);
  g_assert_true (mcp_test_wait (pointer_is_null, &client, 5000));
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) script = tb_json_parse (script_text, -1, NULL);
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) problems = NULL;

  f->registry = tb_tool_registry_new ();
  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return;
    }
  f->dir = g_dir_make_tmp ("tb-mcp-trace-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "run.jsonl", NULL);
  file = g_file_new_for_path (f->path);

  g_assert_true (tb_demo_tools_register (f->registry, NULL));
  f->client = start_fake (f->registry);
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);
  loop = tb_dispatch_loop_new (f->registry, TB_PROVIDER (provider), 5);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), file, NULL);
  g_assert_true (tb_dispatch_loop_add_user_message (loop, "Call the server.", &error));
  tb_dispatch_loop_run_async (loop, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 60000));
  g_assert_true (tb_dispatch_loop_run_finish (loop, result, &error));
  g_assert_no_error (error);
  /* A 3 MB result whose message the trace keeps cut does not fail the run. */
  g_assert_cmpint (tb_dispatch_loop_get_state (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);

  f->recorded = tb_trace_load (file, NULL, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (tb_trace_get_n_events (f->recorded), ==,
                    tb_trace_get_n_events (tb_dispatch_loop_get_trace (loop)));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  if (f->client != NULL)
    stop_fake (f->client);
  g_clear_object (&f->recorded);
  if (f->path != NULL)
    g_unlink (f->path);
  if (f->dir != NULL)
    g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_assert_finalize_object (f->registry);
}

static JsonObject *
event_at (TbTrace *trace,
          guint    i)
{
  g_autoptr(JsonNode) node = tb_trace_event_to_json (tb_trace_get_event (trace, i));

  return json_object_ref (json_node_get_object (node));
}

/* The position of the first event of @type whose @member is @value. */
static gint
find_event (TbTrace    *trace,
            const char *type,
            const char *member,
            const char *value)
{
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      g_autoptr(JsonObject) event = event_at (trace, i);

      if (g_strcmp0 (tb_json_object_get_string (event, "type"), type) == 0 &&
          (member == NULL || g_strcmp0 (tb_json_object_get_string (event, member), value) == 0))
        return i;
    }
  return -1;
}

static gint
find_call (TbTrace    *trace,
           const char *id)
{
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      g_autoptr(JsonObject) event = event_at (trace, i);

      if (g_strcmp0 (tb_json_object_get_string (event, "type"), "tool-call") == 0 &&
          g_strcmp0 (tb_json_object_get_string (tb_json_object_get_object (event, "call"), "id"),
                     id) == 0)
        return i;
    }
  return -1;
}

/* Each call's messages come between the call and its result, name it,
 * and are placed under it; nothing from before the run is there. */
static void
test_recorded (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbTraceOutline) outline = tb_trace_outline_new ();
  guint messages = 0, progress = 0;
  gboolean request_seen = FALSE, answer_seen = FALSE, truncated_seen = FALSE;

  if (f->recorded == NULL)
    return;

  g_assert_cmpint (find_event (f->recorded, "mcp-message", "method", "initialize"), ==, -1);
  g_assert_cmpint (find_event (f->recorded, "mcp-message", "method", "tools/list"), ==, -1);

  for (guint i = 0; i < tb_trace_get_n_events (f->recorded); i++)
    {
      g_autoptr(JsonObject) event = event_at (f->recorded, i);
      const char *call_id;
      TbTracePlace place;
      gint call_at, result_at;

      tb_trace_outline_add (outline, i, event, &place);
      if (g_strcmp0 (tb_json_object_get_string (event, "type"), "mcp-message") != 0)
        continue;
      messages++;
      call_id = tb_json_object_get_string (event, "call_id");
      g_assert_nonnull (call_id);
      call_at = find_call (f->recorded, call_id);
      result_at = find_event (f->recorded, "tool-result", "call_id", call_id);
      g_assert_cmpint (call_at, <, (gint) i);
      g_assert_cmpint ((gint) i, <, result_at);
      g_assert_cmpint (place.parent, ==, call_at);
      g_assert_nonnull (place.call);
      g_assert_cmpstr (tb_json_object_get_string (event, "server"), ==, "fake");

      if (g_str_equal (call_id, "c1") &&
          g_strcmp0 (tb_json_object_get_string (event, "kind"), "request") == 0)
        {
          JsonObject *message = tb_json_object_get_object (event, "message");

          g_assert_cmpstr (tb_json_object_get_string (event, "direction"), ==, "sent");
          g_assert_cmpstr (tb_json_object_get_string (event, "method"), ==, "tools/call");
          g_assert_cmpstr (tb_json_object_get_string (tb_json_object_get_object (
                             tb_json_object_get_object (message, "params"), "arguments"),
                             "message"), ==, "traced");
          request_seen = TRUE;
        }
      if (g_str_equal (call_id, "c1") &&
          g_strcmp0 (tb_json_object_get_string (event, "kind"), "result") == 0)
        {
          g_assert_cmpstr (tb_json_object_get_string (event, "direction"), ==, "received");
          g_assert_cmpstr (tb_json_object_get_string (event, "method"), ==, "tools/call");
          answer_seen = TRUE;
        }
      if (g_strcmp0 (tb_json_object_get_string (event, "method"), "notifications/progress") == 0)
        {
          g_assert_cmpstr (call_id, ==, "c2");
          progress++;
        }
      if (g_str_equal (call_id, "c3") &&
          g_strcmp0 (tb_json_object_get_string (event, "kind"), "result") == 0)
        {
          g_assert_true (tb_json_object_get_boolean (event, "truncated", FALSE));
          g_assert_cmpuint (strlen (tb_json_object_get_string (event, "text")), ==,
                            TB_MCP_WIRE_MAX_TEXT);
          g_assert_false (json_object_has_member (event, "message"));
          g_assert_cmpint (json_object_get_int_member (event, "size"), >, 3000000);
          truncated_seen = TRUE;
        }
    }
  g_assert_true (request_seen);
  g_assert_true (answer_seen);
  g_assert_true (truncated_seen);
  g_assert_cmpuint (progress, ==, 3);
  g_assert_cmpuint (messages, ==, 9);
}

/* The messages are observations, not steps: a replay with the same
 * server's tools does not diverge, and records messages of its own. */
static void
test_replay (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TbMcpClient *client;

  if (f->recorded == NULL)
    return;

  g_assert_true (tb_demo_tools_register (registry, NULL));
  client = start_fake (registry);
  replay = tb_replay_new (f->recorded);
  tb_replay_set_registry (replay, registry);
  tb_replay_run_async (replay, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 60000));
  report = tb_replay_run_finish (replay, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tb_replay_report_get_n_steps (report), ==, 4);
  g_assert_cmpuint (tb_replay_report_get_n_divergences (report), ==, 0);
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  g_assert_null (tb_replay_report_get_incomplete (report));
  g_assert_cmpint (find_event (tb_replay_get_trace (replay), "mcp-message", "call_id", "c1"),
                   >, 0);

  g_clear_object (&replay);
  stop_fake (client);
}

/* trace show says what each message is, under its call. */
static void
test_show (Fixture       *f,
           gconstpointer  data)
{
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  const char *argv[] = { cli, "trace", "show", f->path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (f->recorded == NULL)
    return;
  if (cli == NULL)
    {
      g_test_skip ("needs TOOLBENCH_CLI");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "MCP fake → tools/call #"));
  g_assert_nonnull (strstr (out, "MCP fake ← result of tools/call #"));
  g_assert_nonnull (strstr (out, "MCP fake ← notifications/progress"));

  {
    const char *export_argv[] = { cli, "trace", "export", f->path, "--format", "openai", NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) export_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_null (strstr (out, "mcp-message"));
    g_assert_null (strstr (out, "notifications/progress"));
  }
}

/* A trace written before `mcp-message` existed loads and replays. */
static void
test_old_trace (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");
  g_autofree char *path = g_build_filename (root != NULL ? root : ".", "data", "samples",
                                            "demo-trace.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbTrace) trace = NULL;
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) problems = NULL;

  trace = tb_trace_load (file, NULL, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (tb_trace_count (trace, "mcp-message"), ==, 0);

  g_assert_true (tb_demo_tools_register (registry, NULL));
  replay = tb_replay_new (trace);
  tb_replay_set_registry (replay, registry);
  tb_replay_run_async (replay, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 60000));
  report = tb_replay_run_finish (replay, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tb_replay_report_get_n_divergences (report), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp/trace/recorded", Fixture, NULL, setup, test_recorded, teardown);
  g_test_add ("/mcp/trace/replay", Fixture, NULL, setup, test_replay, teardown);
  g_test_add ("/mcp/trace/show", Fixture, NULL, setup, test_show, teardown);
  g_test_add_func ("/mcp/trace/old-trace", test_old_trace);

  return g_test_run ();
}
