/* SPDX-License-Identifier: GPL-3.0-or-later */

/* MCP 2026-07-28 against stateless-server (this directory), over stdio and
 * over Streamable HTTP: discovery, tools, a multi round-trip elicitation,
 * subscriptions/listen, and tasks of the tasks extension — polled with
 * tasks/get, shown as running with their status message, their input
 * answered with tasks/update, cancelled with tasks/cancel. The server
 * checks every message against the specification's JSON Schema and writes
 * what it received to a report this test reads. Bad input: a task that
 * never finishes (the call's time limit applies and the task is cancelled
 * on the server), a task that fails, one cancelled by the server, a status
 * the client does not know, a task the client cancels. */

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  char           *report;      /* the server's report file */
  GSubprocess    *http;        /* the server, over HTTP */
  char           *url;
  TbMcpClient    *client;
  TbToolRegistry *registry;
  GPtrArray      *progress;    /* messages of call-progress */
  guint           asked;       /* elicitations the client was asked */
} Fixture;

/* Built beside this test. */
static char *
server_path (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = g_path_get_dirname (self);

  return g_build_filename (dir, "stateless-server", NULL);
}

static void
progress_cb (TbToolRegistry *registry,
             const char     *call_id,
             double          progress,
             double          total,
             const char     *message,
             Fixture        *f)
{
  g_ptr_array_add (f->progress, g_strdup (message));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = server_path ();
  g_autofree char *dir = g_dir_make_tmp ("tb-tasks-XXXXXX", &error);
  const char *env[] = { NULL, NULL };
  g_autofree char *report_env = NULL;

  g_assert_no_error (error);
  f->report = g_build_filename (dir, "report", NULL);
  f->progress = g_ptr_array_new_with_free_func (g_free);
  report_env = g_strconcat ("TB_TEST_SERVER_REPORT=", f->report, NULL);
  env[0] = report_env;

  if (g_str_equal (data, "http"))
    {
      g_autoptr(GSubprocessLauncher) launcher =
        g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                   G_SUBPROCESS_FLAGS_STDIN_PIPE);
      g_autoptr(GDataInputStream) out = NULL;
      g_autofree char *port = NULL;

      g_subprocess_launcher_setenv (launcher, "TB_TEST_SERVER_REPORT", f->report, TRUE);
      f->http = g_subprocess_launcher_spawn (launcher, &error, path, "--http", NULL);
      g_assert_no_error (error);
      out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (f->http));
      port = g_data_input_stream_read_line (out, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (port);
      f->url = g_strdup_printf ("http://127.0.0.1:%s/mcp", port);
      f->client = tb_mcp_client_new_http ("tasks", f->url, NULL);
    }
  else
    {
      const char *argv[] = { path, NULL };

      f->client = tb_mcp_client_new_stdio ("tasks", argv, env, NULL);
    }
  f->registry = tb_tool_registry_new ();
  tb_mcp_client_attach (f->client, f->registry);
  g_signal_connect (f->registry, "call-progress", G_CALLBACK (progress_cb), f);
}

/* The server's report: its lines starting with @prefix. */
static GPtrArray *
report_lines (Fixture    *f,
              const char *prefix)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);

  if (!g_file_get_contents (f->report, &text, NULL, NULL))
    return found;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      g_ptr_array_add (found, g_strdup (lines[i] + strlen (prefix)));
  return found;
}

static guint
count_of (Fixture    *f,
          const char *prefix)
{
  g_autoptr(GPtrArray) lines = report_lines (f, prefix);

  return lines->len;
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) invalid = report_lines (f, "INVALID ");
  g_autofree char *dir = g_path_get_dirname (f->report);

  for (guint i = 0; i < invalid->len; i++)
    g_printerr ("Not a message of 2026-07-28: %s\n", (char *) g_ptr_array_index (invalid, i));
  g_assert_cmpuint (invalid->len, ==, 0);
  /* The server saw the client's messages at all. */
  g_assert_cmpuint (count_of (f, "METHOD server/discover "), >=, 1);

  tb_mcp_client_detach (f->client);
  tb_mcp_client_disconnect (f->client);
  g_clear_object (&f->client);
  g_clear_object (&f->registry);
  if (f->http != NULL)
    {
      g_subprocess_force_exit (f->http);
      g_subprocess_wait (f->http, NULL, NULL);
      g_clear_object (&f->http);
    }
  g_unlink (f->report);
  g_rmdir (dir);
  g_free (f->report);
  g_free (f->url);
  g_clear_pointer (&f->progress, g_ptr_array_unref);
}

static gboolean
answer_cb (TbMcpClient        *client,
           TbMcpServerRequest *request,
           Fixture            *f)
{
  JsonObject *params = json_node_get_object (tb_mcp_server_request_get_params (request));
  const char *message = json_object_get_string_member (params, "message");
  g_autoptr(JsonNode) content = NULL;

  f->asked++;
  if (g_str_equal (message, "Sure?"))
    content = tb_json_parse ("{\"answer\": \"yes\"}", -1, NULL);
  else
    content = tb_json_parse ("{\"name\": \"Luca\"}", -1, NULL);
  tb_mcp_server_request_accept (request, content);
  return TRUE;
}

static void
connect (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  tb_mcp_client_set_capabilities (f->client, TB_MCP_CAPABILITY_ELICITATION);
  g_signal_connect (f->client, "elicitation-requested", G_CALLBACK (answer_cb), f);
  mcp_test_connect (f->client, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==,
                   TB_MCP_PROTOCOL_VERSION_STATELESS);
}

static char *
call_text (Fixture    *f,
           const char *tool,
           gboolean   *ok)
{
  g_autoptr(TbToolResult) result = mcp_test_call (f->registry, tool, "{}", NULL);

  *ok = tb_tool_result_get_ok (result);
  if (*ok)
    return mcp_test_output_text (result);
  return g_strdup (tb_tool_result_get_error (result));
}

/* Discovery, the tools, a call, and a multi round-trip elicitation. */
static void
test_basics (Fixture       *f,
             gconstpointer  data)
{
  gboolean ok;
  g_autofree char *echo = NULL;
  g_autofree char *asks = NULL;
  g_autoptr(TbTool) echo_tool = NULL;

  connect (f);
  echo_tool = tb_tool_registry_lookup (f->registry, "echo");
  g_assert_nonnull (echo_tool);
  echo = call_text (f, "echo", &ok);
  g_assert_true (ok);
  g_assert_cmpstr (echo, ==, "echo");
  asks = call_text (f, "asks", &ok);
  g_assert_true (ok);
  g_assert_cmpstr (asks, ==, "s-1: accept with yes");
  g_assert_cmpuint (f->asked, ==, 1);
  g_assert_cmpuint (count_of (f, "METHOD initialize "), ==, 0);
}

/* A task polled to its end; each status message is the call's progress;
 * over HTTP every tasks/get names the task in Mcp-Name. */
static void
test_task (Fixture       *f,
           gconstpointer  data)
{
  gboolean ok;
  g_autofree char *text = NULL;

  connect (f);
  text = call_text (f, "slow", &ok);
  g_assert_true (ok);
  g_assert_cmpstr (text, ==, "done after 3 polls");
  g_assert_cmpuint (count_of (f, "METHOD tasks/get "), ==, 3);
  g_assert_cmpuint (f->progress->len, >=, 2);
  g_assert_cmpstr (g_ptr_array_index (f->progress, 0), ==, "step 1 of 3");
  g_assert_cmpstr (g_ptr_array_index (f->progress, 1), ==, "step 2 of 3");
  if (f->http != NULL)
    g_assert_cmpuint (count_of (f, "HEADER Mcp-Name: task-1-slow"), ==, 3);
}

/* A task that needs a name: asked once though polled again, answered with
 * tasks/update. */
static void
test_task_input (Fixture       *f,
                 gconstpointer  data)
{
  gboolean ok;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) updates = NULL;

  connect (f);
  text = call_text (f, "task_asks", &ok);
  g_assert_true (ok);
  g_assert_cmpstr (text, ==, "Hello, Luca!");
  g_assert_cmpuint (f->asked, ==, 1);
  updates = report_lines (f, "METHOD tasks/update ");
  g_assert_cmpuint (updates->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (updates, 0),
                            "\"inputResponses\":{\"name\":{\"action\":\"accept\","
                            "\"content\":{\"name\":\"Luca\"}}}"));
}

static gboolean
cancel_seen (gpointer data)
{
  return count_of (data, "METHOD tasks/cancel ") >= 1;
}

/* Bad input: a task that never ends meets the call's time limit and is
 * cancelled on the server. */
static void
test_task_forever (Fixture       *f,
                   gconstpointer  data)
{
  gboolean ok;
  g_autofree char *text = NULL;

  tb_mcp_client_set_tool_timeout_ms (f->client, 400);
  connect (f);
  text = call_text (f, "task_forever", &ok);
  g_assert_false (ok);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "400 ms"));
  g_assert_true (mcp_test_wait (cancel_seen, f, 5000));
  g_assert_cmpuint (count_of (f, "METHOD tasks/get "), >=, 2);
}

static gboolean
cancel_later (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* The person cancels a running task: tasks/cancel, and the call ends as
 * cancelled. */
static void
test_task_cancel (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TbToolResult) result = NULL;

  connect (f);
  g_timeout_add (200, cancel_later, cancellable);
  result = mcp_test_call (f->registry, "task_forever", "{}", cancellable);
  g_assert_false (tb_tool_result_get_ok (result));
  g_test_message ("%s", tb_tool_result_get_error (result));
  g_assert_true (mcp_test_wait (cancel_seen, f, 5000));
}

/* Bad input: a task that fails, one the server cancels, and a status the
 * client does not know (cancelled on the server), each with the sentence a
 * person sees. */
static void
test_task_ends (Fixture       *f,
                gconstpointer  data)
{
  gboolean ok;
  g_autofree char *failed = NULL;
  g_autofree char *dropped = NULL;
  g_autofree char *odd = NULL;

  connect (f);
  failed = call_text (f, "task_fails", &ok);
  g_assert_false (ok);
  g_assert_cmpstr (failed, ==, "The task of “task_fails” on the MCP server “tasks” failed with "
                   "error -32603: API rate limit exceeded");
  dropped = call_text (f, "task_dropped", &ok);
  g_assert_false (ok);
  g_assert_cmpstr (dropped, ==, "The task of “task_dropped” was cancelled on the MCP server "
                   "“tasks”: stopped by the operator");
  odd = call_text (f, "task_odd", &ok);
  g_assert_false (ok);
  g_assert_cmpstr (odd, ==, "The MCP server “tasks” sent the unknown task status “paused” for "
                   "“task_odd”; the server was asked to cancel the task");
  g_assert_true (mcp_test_wait (cancel_seen, f, 5000));
  /* The client is still connected and works. */
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
}

static gboolean
listening (gpointer data)
{
  return count_of (data, "METHOD subscriptions/listen ") >= 1;
}

static gboolean
has_later (gpointer data)
{
  Fixture *f = data;

  g_autoptr(TbTool) later = tb_tool_registry_lookup (f->registry, "later");

  return later != NULL;
}

/* subscriptions/listen: a list change the server announces on the stream
 * is listed again. */
static void
test_subscriptions (Fixture       *f,
                    gconstpointer  data)
{
  gboolean ok;
  g_autofree char *text = NULL;

  connect (f);
  g_assert_true (mcp_test_wait (listening, f, 10000));
  text = call_text (f, "change", &ok);
  g_assert_true (ok);
  g_assert_true (mcp_test_wait (has_later, f, 10000));
  g_assert_cmpuint (count_of (f, "METHOD subscriptions/listen "), >=, 1);
}

/* A run is one W3C trace: its id in the trace's header, each MCP call's
 * traceparent in _meta; a task inside a run reports its status as the
 * call's progress in the trace. */
static void
test_traceparent (Fixture       *f,
                  gconstpointer  data)
{
  static const char *script_text =
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    " {\"tool_calls\":[{\"id\":\"c1\",\"name\":\"echo\",\"arguments\":{}},"
    "                  {\"id\":\"c2\",\"name\":\"slow\",\"arguments\":{}}]},"
    " {\"text\":\"Done.\"}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) script = tb_json_parse (script_text, -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, &error);
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) calls = NULL;
  g_autoptr(GRegex) pattern = NULL;
  g_autofree char *expected = NULL;
  TbTrace *trace;
  const char *trace_id;
  guint progress_events = 0;

  g_assert_no_error (error);
  connect (f);
  loop = tb_dispatch_loop_new (f->registry, TB_PROVIDER (provider), 5);
  tb_dispatch_loop_set_approval_policy (loop, TB_APPROVAL_POLICY_APPROVE_ALL);
  g_assert_true (tb_dispatch_loop_add_user_message (loop, "Go.", &error));
  tb_dispatch_loop_run_async (loop, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 30000));
  g_assert_true (tb_dispatch_loop_run_finish (loop, result, &error));
  g_assert_no_error (error);

  trace = tb_dispatch_loop_get_trace (loop);
  trace_id = json_object_get_string_member (tb_trace_get_header (trace), "trace_id");
  g_assert_true (g_regex_match_simple ("^[0-9a-f]{32}$", trace_id, 0, 0));
  expected = g_strdup_printf ("\"traceparent\":\"00-%s-[0-9a-f]{16}-01\"", trace_id);
  pattern = g_regex_new (expected, 0, 0, NULL);
  calls = report_lines (f, "METHOD tools/call ");
  g_assert_cmpuint (calls->len, ==, 2);
  for (guint i = 0; i < calls->len; i++)
    g_assert_true (g_regex_match (pattern, g_ptr_array_index (calls, i), 0, NULL));
  /* Two calls, two spans. */
  g_assert_cmpstr (strstr (g_ptr_array_index (calls, 0), "traceparent"), !=,
                   strstr (g_ptr_array_index (calls, 1), "traceparent"));
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);

      if (g_str_equal (tb_trace_event_get_event_type (event), "tool-progress") &&
          g_strcmp0 (tb_json_object_get_string (tb_trace_event_get_payload (event), "message"),
                     "step 1 of 3") == 0)
        progress_events++;
    }
  g_assert_cmpuint (progress_events, ==, 1);
}

/* A server of 2026-07-28 that starts slower than the first probe waits:
 * the client falls back to initialize, is refused, asks server/discover
 * again and speaks 2026-07-28. */
static void
test_slow_start (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = server_path ();
  g_autofree char *report_env = g_strconcat ("TB_TEST_SERVER_REPORT=", f->report, NULL);
  const char *argv[] = { path, "--slow-start", "5500", NULL };
  const char *env[] = { report_env, NULL };
  gboolean ok;
  g_autofree char *text = NULL;

  tb_mcp_client_detach (f->client);
  g_object_unref (f->client);
  f->client = tb_mcp_client_new_stdio ("tasks", argv, env, NULL);
  tb_mcp_client_attach (f->client, f->registry);
  connect (f);
  g_assert_cmpuint (count_of (f, "METHOD initialize "), ==, 1);
  g_assert_cmpuint (count_of (f, "METHOD server/discover "), ==, 2);
  text = call_text (f, "echo", &ok);
  g_assert_true (ok);
}

/* toolbench-cli mcp call against the HTTP server: the task's status on
 * stderr, its result on stdout, its input and a multi round-trip request
 * answered with --elicitation. */
static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  const char *url = f->url;
  McpTestRun runs[3] = { { 0 } };
  const char *tools[] = { "slow", "task_asks", "asks" };

  if (cli == NULL)
    {
      g_test_skip ("needs TOOLBENCH_CLI");
      return;
    }
  connect (f);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      const char *argv[] = { cli, "mcp", "call", "--elicitation=decline", tools[i], url, NULL };

      mcp_test_run (&runs[i], argv);
      g_test_message ("%s%s", runs[i].out, runs[i].err);
      g_assert_cmpint (runs[i].status, ==, 0);
    }
  g_assert_nonnull (strstr (runs[0].err, "toolbench-cli: step 1 of 3\n"));
  g_assert_nonnull (strstr (runs[0].out, "done after 3 polls"));
  g_assert_nonnull (strstr (runs[1].err, "toolbench-cli: waiting for a name\n"));
  g_assert_nonnull (strstr (runs[1].out, "Hello, nobody!"));
  /* A multi round-trip request hears the same answer. */
  g_assert_nonnull (strstr (runs[2].err, "asks: Sure?"));
  g_assert_nonnull (strstr (runs[2].out, "s-1: decline with nothing"));
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_free (runs[i].out);
      g_free (runs[i].err);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < 2; i++)
    {
      const char *transport = i == 0 ? "stdio" : "http";
      struct { const char *name; void (*func) (Fixture *, gconstpointer); } cases[] = {
        { "basics", test_basics },
        { "task", test_task },
        { "task-input", test_task_input },
        { "task-forever", test_task_forever },
        { "task-cancel", test_task_cancel },
        { "task-ends", test_task_ends },
        { "subscriptions", test_subscriptions },
        { "traceparent", test_traceparent },
      };

      for (guint j = 0; j < G_N_ELEMENTS (cases); j++)
        {
          g_autofree char *path = g_strdup_printf ("/mcp/tasks/%s/%s", transport, cases[j].name);

          g_test_add (path, Fixture, transport, fixture_setup, cases[j].func, fixture_teardown);
        }
    }
  g_test_add ("/mcp/tasks/http/cli", Fixture, "http", fixture_setup, test_cli, fixture_teardown);
  g_test_add ("/mcp/tasks/stdio/slow-start", Fixture, "stdio", fixture_setup, test_slow_start,
              fixture_teardown);
  return g_test_run ();
}
