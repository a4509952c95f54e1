/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Long recorded runs: the trace keeps a window of events in memory and
 * reads older ones back from its file; a run stopped or killed midway
 * leaves a file that opens with everything it completed. */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <toolbench.h>

#include "../trace-file-fixture.h"

typedef TraceFileFixture Fixture;

/* Built with AddressSanitizer (GCC says so with a macro, clang with a
 * feature test). */
#if defined(__SANITIZE_ADDRESS__)
# define ADDRESS_SANITIZER 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define ADDRESS_SANITIZER 1
# endif
#endif

static JsonNode *
echo (TbTool        *tool,
      JsonObject    *arguments,
      JsonObject    *context,
      GCancellable  *cancellable,
      gpointer       user_data,
      GError       **error)
{
  return tb_json_parse ("{\"said\":\"it \\\"works\\\"\"}", -1, error);
}

/* Outputs of every length a read back meets: within the first piece
 * read, across it, across the largest piece, and short again. */
static JsonNode *
echo_lengths (TbTool        *tool,
              JsonObject    *arguments,
              JsonObject    *context,
              GCancellable  *cancellable,
              gpointer       user_data,
              GError       **error)
{
  static const guint lengths[] = { 10, 5000, 9000, 70000, 200, 8150, 140000, 0 };
  guint *calls = user_data;
  guint length = lengths[(*calls)++ % G_N_ELEMENTS (lengths)];
  g_autofree char *said = g_strnfill (length, 'a' + *calls % 26);
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "said", said);
  json_node_take_object (node, object);
  return node;
}

static TbDispatchLoop *
new_loop_with (guint             max_iterations,
               TbToolSimpleFunc  func,
               gpointer          user_data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(GError) error = NULL;
  TbDispatchLoop *loop;

  schema = tb_json_parse ("{\"type\":\"object\",\"properties\":{}}", -1, &error);
  tool = tb_tool_new_simple ("echo", "Says something.", schema, TB_TOOL_SIMPLE_FLAGS_NONE, func,
                             user_data, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (registry, tool, &error));
  script = tb_json_parse ("{\"repeat\":true,\"responses\":[{\"text\":\"again\",\"tool_calls\":"
                          "[{\"name\":\"echo\",\"arguments\":{\"n\":1}}]}]}", -1, &error);
  g_assert_no_error (error);
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);

  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), max_iterations);
  g_assert_true (tb_dispatch_loop_add_user_message (loop, "Go.", &error));
  return loop;
}

static TbDispatchLoop *
new_loop (guint max_iterations)
{
  return new_loop_with (max_iterations, echo, NULL);
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  TbLoopState *state = user_data;

  *state = tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, NULL);
}

static TbLoopState
run (TbDispatchLoop *loop)
{
  TbLoopState state = TB_LOOP_STATE_READY;

  tb_dispatch_loop_run_async (loop, NULL, run_cb, &state);
  while (!tb_loop_state_is_end (state))
    g_main_context_iteration (NULL, TRUE);
  return state;
}

/* Payloads as the file holds them: every member but the time. */
static void
assert_same_event (TbTraceEvent *a,
                   TbTraceEvent *b)
{
  g_autoptr(JsonNode) ja = tb_trace_event_to_json (a);
  g_autoptr(JsonNode) jb = tb_trace_event_to_json (b);

  json_object_remove_member (json_node_get_object (ja), "t");
  json_object_remove_member (json_node_get_object (jb), "t");
  json_object_remove_member (json_node_get_object (ja), "duration_us");
  if (json_object_has_member (json_node_get_object (ja), "result"))
    {
      json_object_remove_member (json_object_get_object_member (json_node_get_object (ja),
                                                                "result"), "duration_us");
      json_object_remove_member (json_object_get_object_member (json_node_get_object (jb),
                                                                "result"), "duration_us");
    }
  g_assert_true (json_node_equal (ja, jb));
}

static TbTraceReader *open_indexed (GFile *file);

static void
replayed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TbReplayReport **report = user_data;

  *report = tb_replay_run_finish (TB_REPLAY (object), result, NULL);
  g_assert_nonnull (*report);
}

/* Runs @recorded, recorded to the fixture's file with a window of
 * @window events, and @kept, not recorded, to their cap: the recorder,
 * closed (the trace reads back through it). */
static TbTraceRecorder *
run_recorded_and_kept (Fixture        *f,
                       TbDispatchLoop *recorded,
                       TbDispatchLoop *kept,
                       guint           window)
{
  TbTraceRecorder *recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (recorded),
                                                     f->file, NULL);
  g_autoptr(GError) error = NULL;

  tb_trace_recorder_set_window (recorder, window);
  g_assert_cmpint (run (recorded), ==, TB_LOOP_STATE_LIMIT_REACHED);
  g_assert_cmpint (run (kept), ==, TB_LOOP_STATE_LIMIT_REACHED);
  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tb_trace_get_n_events (tb_dispatch_loop_get_trace (recorded)), ==,
                    tb_trace_get_n_events (tb_dispatch_loop_get_trace (kept)));
  return recorder;
}

/* Every event of @trace, read back or not, is the one @all holds: in
 * order, then backwards @stride at a time. */
static void
assert_read_back (TbTrace *trace,
                  TbTrace *all,
                  guint    stride)
{
  guint n = tb_trace_get_n_events (trace);

  for (guint i = 0; i < n; i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);

      g_assert_cmpstr (tb_trace_event_get_event_type (event), !=, "incomplete");
      assert_same_event (event, tb_trace_get_event (all, i));
    }
  for (guint i = n; i > 0; i = i > stride ? i - stride : 0)
    assert_same_event (tb_trace_get_event (trace, i - 1), tb_trace_get_event (all, i - 1));
}

/* A recorded run with a small window holds few events, and every event,
 * read back from the file or not, is what an unrecorded run holds. */
static void
test_window (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) recorded = new_loop (500);
  g_autoptr(TbDispatchLoop) kept = new_loop (500);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  TbTrace *trace = tb_dispatch_loop_get_trace (recorded);
  TbTrace *all = tb_dispatch_loop_get_trace (kept);
  guint n;

  recorder = run_recorded_and_kept (f, recorded, kept, 100);
  n = tb_trace_get_n_events (trace);
  g_assert_cmpuint (n, >, 4000);
  g_assert_cmpuint (tb_trace_get_n_in_memory (trace), <, 200);
  g_assert_cmpuint (tb_trace_get_n_in_memory (all), ==, n);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), ==, n);

  /* In order, backwards, and by the list model. */
  assert_read_back (trace, all, 7);
  {
    g_autoptr(TbTraceEvent) first = g_list_model_get_item (G_LIST_MODEL (trace), 0);

    g_assert_cmpstr (tb_trace_event_get_event_type (first), ==, "message");
    g_assert_cmpuint (tb_trace_event_get_seq (first), ==, 1);
  }

  /* The counts the eval and the views use read the whole trace. */
  g_assert_cmpuint (tb_trace_count (trace, "tool-result"), ==, 500);

  /* The conversation is whole: the user's turn and a model turn and a
   * result each iteration. */
  g_assert_cmpuint (g_list_model_get_n_items (tb_dispatch_loop_get_messages (recorded)), ==,
                    1 + 2 * 500);

  /* A replay of the windowed trace confirms the run. */
  {
    g_autoptr(TbReplay) replay = tb_replay_new (trace);
    g_autoptr(TbReplayReport) report = NULL;
    g_autofree char *path = g_build_filename (f->dir, "replayed.jsonl", NULL);
    g_autoptr(GFile) replayed = g_file_new_for_path (path);
    g_autoptr(TbTraceReader) reader = NULL;
    TbTrace *new_trace;

    /* Recorded as it runs, the replay's own trace stays small too. */
    tb_replay_set_output (replay, replayed, NULL);
    tb_replay_run_async (replay, NULL, replayed_cb, &report);
    while (report == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
    g_assert_cmpuint (tb_replay_report_get_n_steps (report), ==, 501);

    new_trace = tb_replay_get_trace (replay);
    g_assert_cmpuint (tb_trace_get_n_events (new_trace), ==, n);
    reader = open_indexed (replayed);
    g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, n);
    g_unlink (path);
  }
}

/* Lines short and long, some longer than a piece read at once, read back
 * in order and backwards as they were written. */
static void
test_window_long_lines (Fixture       *f,
                        gconstpointer  data)
{
  guint calls_recorded = 0;
  guint calls_kept = 0;
  g_autoptr(TbDispatchLoop) recorded = new_loop_with (120, echo_lengths, &calls_recorded);
  g_autoptr(TbDispatchLoop) kept = new_loop_with (120, echo_lengths, &calls_kept);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  TbTrace *trace = tb_dispatch_loop_get_trace (recorded);
  TbTrace *all = tb_dispatch_loop_get_trace (kept);

  recorder = run_recorded_and_kept (f, recorded, kept, 16);
  g_assert_cmpuint (tb_trace_get_n_in_memory (trace), <, 40);
  assert_read_back (trace, all, 5);
  /* Every other one, so that no read goes on from the line before. */
  for (guint i = 0; i < tb_trace_get_n_events (trace); i += 2)
    assert_same_event (tb_trace_get_event (trace, i), tb_trace_get_event (all, i));
}

/* A file removed under a windowed trace: old events become gaps that say
 * so, nothing crashes. */
static void
test_window_file_gone (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = new_loop (100);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  TbTrace *trace = tb_dispatch_loop_get_trace (loop);
  TbTraceEvent *event;
  g_autofree char *expected = NULL;

  recorder = tb_trace_recorder_new (trace, f->file, NULL);
  tb_trace_recorder_set_window (recorder, 50);
  run (loop);
  g_assert_true (tb_trace_recorder_close (recorder, NULL));
  g_assert_cmpuint (tb_trace_get_n_in_memory (trace), <, tb_trace_get_n_events (trace));

  g_assert_true (g_file_set_contents (f->path, "", 0, NULL));
  event = tb_trace_get_event (trace, 3);
  g_assert_cmpstr (tb_trace_event_get_event_type (event), ==, "incomplete");
  expected = g_strdup_printf ("Event 4 can no longer be read from “%s”: the file is shorter "
                              "than what was written to it", f->path);
  g_assert_cmpstr (tb_json_object_get_string (tb_trace_event_get_payload (event), "reason"), ==,
                   expected);

  /* The latest events are still in memory. */
  event = tb_trace_get_event (trace, tb_trace_get_n_events (trace) - 1);
  g_assert_cmpstr (tb_trace_event_get_event_type (event), ==, "end");
}

static void
cancel_at (TbDispatchLoop *loop,
           GParamSpec     *pspec,
           gpointer        user_data)
{
  if (tb_dispatch_loop_get_iteration (loop) == GPOINTER_TO_UINT (user_data))
    tb_dispatch_loop_cancel (loop);
}

static TbTraceReader *
open_indexed (GFile *file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceReader) reader = tb_trace_reader_open (file, &error);

  g_assert_no_error (error);
  g_assert_true (tb_trace_reader_index (reader, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&reader);
}

/* A run allowed 100,000 iterations, cancelled at the 3,000th: the file
 * opens and holds every event, the end says why. */
static void
test_cancelled_long_run (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = new_loop (100000);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(JsonObject) last = NULL;
  g_auto(GStrv) problems = NULL;
  TbTrace *trace = tb_dispatch_loop_get_trace (loop);

  recorder = tb_trace_recorder_new (trace, f->file, NULL);
  g_signal_connect (loop, "notify::iteration", G_CALLBACK (cancel_at), GUINT_TO_POINTER (3000));
  g_assert_cmpint (run (loop), ==, TB_LOOP_STATE_CANCELLED);
  g_assert_true (tb_trace_recorder_close (recorder, NULL));
  g_assert_cmpuint (tb_trace_get_n_in_memory (trace), <=, 2 * TB_TRACE_RECORDER_DEFAULT_WINDOW);

  reader = open_indexed (f->file);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, tb_trace_get_n_events (trace));
  problems = tb_trace_reader_get_problems (reader);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  last = tb_trace_reader_read_event (reader, tb_trace_reader_get_n_events (reader) - 1, NULL);
  g_assert_cmpstr (json_object_get_string_member (last, "type"), ==, "end");
  g_assert_cmpstr (json_object_get_string_member (last, "state"), ==, "cancelled");
  g_assert_cmpint (json_object_get_int_member (last, "iteration"), ==, 3000);
}

/* The child: a recorded run of 100,000 iterations, killed by the parent. */
static int
run_forever (const char *path)
{
  g_autoptr(TbDispatchLoop) loop = new_loop (100000);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbTraceRecorder) recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop),
                                                               file, NULL);

  run (loop);
  return 0;
}

static void
test_killed_long_run (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceReader) reader = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) problems = NULL;
  gsize length = 0;
  guint complete_lines = 0;
  guint n;

  child = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, self_path, "--run-forever",
                            f->path, NULL);
  g_assert_no_error (error);

  /* Kill it once it has written a few megabytes: thousands of iterations.
   * A sanitizer build on a busy machine takes minutes to get there. */
  {
    gint64 deadline = g_get_monotonic_time () + 300 * G_USEC_PER_SEC;

    while (g_get_monotonic_time () < deadline)
      {
        GStatBuf st;

        if (g_stat (f->path, &st) == 0 && st.st_size > 3 * 1024 * 1024)
          break;
        g_usleep (10000);
      }
  }
  g_subprocess_send_signal (child, SIGKILL);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));

  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
  for (gsize i = 0; i < length; i++)
    complete_lines += contents[i] == '\n';
  g_assert_cmpuint (complete_lines, >, 10000);

  reader = open_indexed (f->file);
  n = tb_trace_reader_get_n_events (reader);
  /* Every complete line but the header is an event. */
  g_assert_cmpuint (n, ==, complete_lines - 1);
  problems = tb_trace_reader_get_problems (reader);
  if (length > 0 && contents[length - 1] != '\n')
    {
      g_autofree char *expected =
        g_strdup_printf ("The last event (line %u) is incomplete: the trace was cut off while "
                         "it was being written, and that event was left out",
                         complete_lines + 1);

      g_assert_cmpuint (g_strv_length (problems), ==, 1);
      g_assert_cmpstr (problems[0], ==, expected);
    }
  else
    {
      g_assert_cmpuint (g_strv_length (problems), ==, 0);
    }

  for (guint i = 0; i < n; i += 997)
    {
      g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, i, &error);

      g_assert_no_error (error);
      g_assert_cmpint (json_object_get_int_member (event, "seq"), ==, i + 1);
    }
}

/* The recorder writes an event redacted sharing what is clean, and
 * skips parsing bodies with nothing to find: the file must hold exactly
 * what redacting a copy gives. */
static void
test_redacted_like_a_copy (Fixture       *f,
                           gconstpointer  data)
{
  static const char * const payloads[] = {
    "{\"body\":\"{\\\"api_key\\\":\\\"abc\\\",\\\"n\\\":1}\",\"ok\":\"plain\"}",
    "{\"body\":\"{\\\"a\\\\u0070i_key\\\":\\\"abc\\\"}\"}",
    "{\"body\":\"[\\\"token=hunter2hunter2\\\"]\",\"list\":[1,{\"x\":\"Bearer abcdefghijklmnop\"}]}",
    "{\"nested\":{\"deeper\":[\"the s3cr3t-value here\",\"s3cr3t\\\\u002dvalue\"]}}",
    "{\"sk-abcdefghijklmnopqrstuvwxyz\":1,\"Authorization\":\"x\",\"password\":null}",
    "{\"body\":\"{\\\"text\\\":\\\"nothing here\\\"}\",\"n\":[[],{}]}",
    "{\"stream\":\"data: {\\\"d\\\":\\\"s3cr\\\"}\\n\\ndata: {\\\"d\\\":\\\"3t-value\\\"}\\n\\n\"}",
  };
  g_autoptr(TbTrace) trace = tb_trace_new ();
  g_autoptr(TbRedactor) redactor = tb_redactor_new ();
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(GError) error = NULL;

  tb_redactor_add_secret (redactor, "s3cr3t-value");
  recorder = tb_trace_recorder_new (trace, f->file, redactor);
  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (payloads[i], -1, &error);

      g_assert_no_error (error);
      tb_trace_append (trace, "response", json_node_get_object (node));
    }
  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);

  reader = open_indexed (f->file);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, G_N_ELEMENTS (payloads));
  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (payloads[i], -1, NULL);
      g_autoptr(JsonNode) expected = tb_redactor_redact_node (redactor, node);
      g_autoptr(JsonObject) line = tb_trace_reader_read_event (reader, i, &error);
      g_autoptr(JsonNode) written = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *expected_text = NULL;
      g_autofree char *written_text = NULL;

      g_assert_no_error (error);
      json_object_remove_member (line, "seq");
      json_object_remove_member (line, "t");
      json_object_remove_member (line, "type");
      json_node_set_object (written, line);
      expected_text = tb_json_to_string (expected, FALSE);
      written_text = tb_json_to_string (written, FALSE);
      g_assert_cmpstr (written_text, ==, expected_text);
    }
}

/* Decides the calls of the byte-for-byte test: edits the first, skips
 * the second, approves the rest. */
static void
decide_cb (TbDispatchLoop *loop,
           TbPendingCall  *call,
           gpointer        user_data)
{
  guint *n = user_data;
  g_autoptr(JsonNode) value = NULL;

  switch ((*n)++)
    {
    case 0:
      value = tb_json_parse ("{\"n\":2,\"note\":\"edited \\\"here\\\" \\u00e9\"}", -1, NULL);
      g_assert_true (tb_pending_call_edit (call, value, NULL));
      break;
    case 1:
      value = tb_json_parse ("{\"out\":\"tab\\there\",\"list\":[1,2.5,true,null]}", -1, NULL);
      tb_pending_call_skip (call, value);
      break;
    default:
      break;
    }
}

/* The loop writes its events as text from their fields, without trees:
 * every line must be exactly what writing the line's tree gives, for
 * text with quotes, backslashes, control characters, DEL and non-ASCII
 * letters, for edits, skips, usage and raw arguments. */
static void
test_lines_as_trees (Fixture       *f,
                     gconstpointer  data)
{
  static const char script[] =
    "{\"responses\":["
    "{\"text\":\"Say \\\"hi\\\" \\\\ back\\tslash \\u0001\\u007f é 日本\","
    " \"usage\":{\"input_tokens\":10,\"output_tokens\":3},"
    " \"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"n\":1,\"s\":\"a\\u001fb\"}},"
    "                 {\"name\":\"echo\",\"arguments\":{\"n\":1.5}},"
    "                 {\"name\":\"echo\",\"arguments\":\"{\\\"broken\\\": \"},"
    "                 {\"name\":\"nope\",\"arguments\":{}}]},"
    "{\"text\":\"line one\\nline two\",\"finish_reason\":\"stop\"}]}";
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_decided = 0;
  guint n_lines = 0;

  schema = tb_json_parse ("{\"type\":\"object\"}", -1, &error);
  tool = tb_tool_new_simple ("echo", "Says something.", schema, TB_TOOL_SIMPLE_FLAGS_NONE, echo,
                             NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (registry, tool, &error));
  parsed = tb_json_parse (script, -1, &error);
  g_assert_no_error (error);
  provider = tb_scripted_provider_new_from_json (parsed, &error);
  g_assert_no_error (error);
  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), 5);
  g_signal_connect (loop, "call-pending", G_CALLBACK (decide_cb), &n_decided);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), f->file, NULL);
  g_assert_true (tb_dispatch_loop_add_user_message (loop, "Quote \"this\"\r\n\x7f", &error));
  g_assert_cmpint (run (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(JsonNode) line = tb_json_parse (lines[i], -1, &error);
      g_autofree char *written = NULL;

      g_assert_no_error (error);
      written = tb_json_to_string (line, FALSE);
      g_assert_cmpstr (written, ==, lines[i]);
      n_lines++;
    }
  g_assert_cmpuint (n_decided, ==, 3);
  /* The person's message; request, response, model turn and message;
   * 4 calls, 4 decisions, 4 results with their 4 messages; the second
   * turn's 4 events and the end. */
  g_assert_cmpuint (n_lines, ==, 26);
}

/* A conversation longer than the loop keeps in memory: every message is
 * still there, the old ones read back from the file. */
static void
test_conversation_read_back (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = new_loop (3000);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  GListModel *messages = tb_dispatch_loop_get_messages (loop);
  g_autoptr(TbMessage) first = NULL;
  g_autoptr(TbMessage) call = NULL;
  g_autoptr(TbMessage) last = NULL;

  g_assert_cmpint (tb_provider_get_history (tb_dispatch_loop_get_provider (loop)), ==,
                   TB_PROVIDER_HISTORY_LATEST_TURN);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), f->file, NULL);
  tb_trace_recorder_set_window (recorder, 64);
  g_assert_cmpint (run (loop), ==, TB_LOOP_STATE_LIMIT_REACHED);

  /* The person's message, 3,000 model turns and 3,000 results. */
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 6001);
  first = g_list_model_get_item (messages, 0);
  g_assert_cmpstr (tb_message_get_text (first), ==, "Go.");
  call = g_list_model_get_item (messages, 1);
  g_assert_cmpint (tb_message_get_role (call), ==, TB_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpstr (tb_message_get_text (call), ==, "again");
  g_assert_cmpstr (tb_tool_call_get_name (tb_message_get_tool_call (call, 0)), ==, "echo");
  last = g_list_model_get_item (messages, 6000);
  g_assert_cmpint (tb_message_get_role (last), ==, TB_MESSAGE_ROLE_TOOL);
  g_assert_true (tb_trace_recorder_close (recorder, NULL));
}

static void
fail_loop (TbTraceRecorder *recorder,
           const GError    *error,
           TbDispatchLoop  *loop)
{
  tb_dispatch_loop_fail (loop, error);
}

/* A disk that is full from the start: the run fails with a sentence that
 * says so, and what happened stays in memory. */
static void
test_disk_full (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new ();
  g_autoptr(TbDispatchLoop) loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), 5);
  g_autoptr(GFile) full = g_file_new_for_path ("/dev/full");
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  TbTrace *trace = tb_dispatch_loop_get_trace (loop);

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("/dev/full is not there");
      return;
    }

  recorder = tb_trace_recorder_new (trace, full, NULL);
  g_signal_connect (recorder, "failed", G_CALLBACK (fail_loop), loop);
  g_assert_true (tb_dispatch_loop_add_user_message (loop, "Go.", &error));

  g_assert_cmpint (tb_dispatch_loop_get_state (loop), ==, TB_LOOP_STATE_FAILED);
  g_assert_cmpstr (tb_dispatch_loop_get_error (loop)->message, ==,
                   "The trace cannot be written: Cannot write the trace: No space left on "
                   "device");
  g_assert_false (tb_trace_recorder_close (recorder, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  /* The message, the error and the end: in memory, none lost. */
  g_assert_cmpuint (tb_trace_get_n_events (trace), ==, 3);
  g_assert_cmpuint (tb_trace_get_n_in_memory (trace), ==, 3);
  g_assert_cmpstr (tb_trace_event_get_event_type (tb_trace_get_event (trace, 0)), ==, "message");
  g_assert_cmpstr (tb_trace_event_get_event_type (tb_trace_get_event (trace, 2)), ==, "end");
}

/* The child: a recorded run whose file may not grow past 256 KiB, as
 * when the disk fills up while the run goes on. Checks that every event
 * is still there, in memory or in the file, and prints the run's error. */
static int
run_until_full (const char *path)
{
  g_autoptr(TbDispatchLoop) loop = new_loop (100000);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(TbTraceReader) reader = NULL;
  TbTrace *trace = tb_dispatch_loop_get_trace (loop);
  struct rlimit limit = { 256 * 1024, 256 * 1024 };
  guint n_file;

  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);

  recorder = tb_trace_recorder_new (trace, file, NULL);
  tb_trace_recorder_set_window (recorder, 64);
  g_signal_connect (recorder, "failed", G_CALLBACK (fail_loop), loop);
  g_assert_cmpint (run (loop), ==, TB_LOOP_STATE_FAILED);
  g_print ("%s\n", tb_dispatch_loop_get_error (loop)->message);

  /* What reached the file reads back; the rest is still in memory. */
  reader = open_indexed (file);
  n_file = tb_trace_reader_get_n_events (reader);
  g_assert_cmpuint (n_file, >, 500);
  g_assert_cmpuint (n_file, <, tb_trace_get_n_events (trace));
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);

      g_assert_cmpuint (tb_trace_event_get_seq (event), ==, i + 1);
      g_assert_cmpstr (tb_trace_event_get_event_type (event), !=, "incomplete");
      if (i < n_file)
        {
          g_autoptr(JsonObject) line = tb_trace_reader_read_event (reader, i, NULL);

          g_assert_cmpstr (json_object_get_string_member (line, "type"), ==,
                           tb_trace_event_get_event_type (event));
        }
    }
  g_assert_cmpstr (tb_trace_event_get_event_type (tb_trace_get_event (
                     trace, tb_trace_get_n_events (trace) - 1)), ==, "end");
  return 0;
}

static void
test_file_full_mid_run (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;

  child = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, self_path, "--until-full",
                            f->path, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (child, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (child));
  g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 0);
  g_assert_cmpstr (out, ==, "The trace cannot be written: Cannot write the trace: File too large\n");
}

/* A trace whose file changed after it was written: the replay names the
 * event and the line that changed, and says it cannot confirm the run. */
static void
test_replay_changed_file (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = new_loop (200);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) changed = g_string_new (NULL);

  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), f->file, NULL);
  tb_trace_recorder_set_window (recorder, 16);
  run (loop);
  g_assert_true (tb_trace_recorder_close (recorder, NULL));

  /* Line 50 (event 49) loses its first brace; its length stays. */
  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  lines[49][0] = '#';
  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (changed, i > 0 ? "\n%s" : "%s", lines[i]);
  g_assert_true (g_file_set_contents (f->path, changed->str, changed->len, NULL));

  replay = tb_replay_new (tb_dispatch_loop_get_trace (loop));
  tb_replay_run_async (replay, NULL, replayed_cb, &report);
  while (report == NULL)
    g_main_context_iteration (NULL, TRUE);

  expected = g_strdup_printf ("Event 49 can no longer be read from “%s”: line 50 has changed "
                              "since it was written (", f->path);
  g_assert_nonnull (tb_replay_report_get_incomplete (report));
  g_assert_true (g_str_has_prefix (tb_replay_report_get_incomplete (report), expected));
}

/* The child: records a run of @n steps, replays it (the recorded trace,
 * or with @opened the file opened anew as `toolbench-cli replay` opens
 * it) with its new run recorded, and prints its peak resident memory in
 * KiB. */
static int
replay_steps (const char *dir,
              guint       n,
              gboolean    opened)
{
  g_autofree char *recorded_path = g_build_filename (dir, "recorded.jsonl", NULL);
  g_autofree char *replayed_path = g_build_filename (dir, "replayed.jsonl", NULL);
  g_autoptr(GFile) recorded_file = g_file_new_for_path (recorded_path);
  g_autoptr(GFile) replayed_file = g_file_new_for_path (replayed_path);
  g_autoptr(TbDispatchLoop) loop = new_loop (n);
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  struct rusage usage;

  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), recorded_file, NULL);
  g_assert_cmpint (run (loop), ==, TB_LOOP_STATE_LIMIT_REACHED);
  g_assert_true (tb_trace_recorder_close (recorder, NULL));

  if (opened)
    {
      g_autoptr(TbTrace) trace = NULL;
      g_autoptr(GError) error = NULL;

      g_clear_object (&recorder);
      g_clear_object (&loop);
      trace = tb_trace_open (recorded_file, NULL, NULL, &error);
      g_assert_no_error (error);
      replay = tb_replay_new (trace);
    }
  else
    replay = tb_replay_new (tb_dispatch_loop_get_trace (loop));
  tb_replay_set_output (replay, replayed_file, NULL);
  tb_replay_run_async (replay, NULL, replayed_cb, &report);
  while (report == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  g_assert_cmpuint (tb_replay_report_get_n_steps (report), ==, n + 1);

  getrusage (RUSAGE_SELF, &usage);
  g_print ("%ld\n", usage.ru_maxrss);
  g_unlink (recorded_path);
  g_unlink (replayed_path);
  return 0;
}

static glong
replay_peak_kib (const char *dir,
                 guint       n,
                 gboolean    opened)
{
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *count = g_strdup_printf ("%u", n);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
#ifdef ADDRESS_SANITIZER
  {
    /* AddressSanitizer holds freed memory back (its quarantine) until
     * 256 MiB of it pile up, so the peak would measure how much was ever
     * freed; without it the peak is what was in use, as in a release
     * build. The fast unwinder makes each allocation cost less, but its
     * stacks end in the first library without frame pointers, too short
     * to match the leak suppressions: the child only measures, and the
     * same replay is checked for leaks in this process. The later of two
     * options wins. */
    g_autofree char *options = g_strconcat (g_getenv ("ASAN_OPTIONS") ?: "",
                                            ":quarantine_size_mb=0:fast_unwind_on_malloc=1"
                                            ":detect_leaks=0",
                                            NULL);

    g_subprocess_launcher_setenv (launcher, "ASAN_OPTIONS", options, TRUE);
  }
#endif
  child = g_subprocess_launcher_spawn (launcher, &error, self_path,
                                       opened ? "--replay-opened" : "--replay", dir, count,
                                       NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (child, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (child));
  g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 0);
  return strtol (out, NULL, 10);
}

/* The peak memory of replaying @n_small steps, and ten times as many:
 * each thousand more steps may add 16/18 MiB at most, less than 1 KiB a
 * step. */
static void
assert_replay_memory (Fixture  *f,
                      guint     n_small,
                      gboolean  opened)
{
  const guint n_large = 10 * n_small;
  glong small = replay_peak_kib (f->dir, n_small, opened);
  glong large = replay_peak_kib (f->dir, n_large, opened);

  g_test_message ("peak resident memory%s: %u steps %ld KiB, %u steps %ld KiB",
                  opened ? ", trace opened" : "", n_small, small, n_large, large);
  g_assert_cmpint (large - small, <, 16 * 1024 * (glong) (n_large - n_small) / 18000);
}

/* Replaying ten times as many steps needs about the same memory: before
 * steps were read from the trace as the replay reached them, each step
 * kept about 17 KiB. 18,000 more steps may add 16 MiB; a step takes
 * about ten times as long under AddressSanitizer, where 9,000 more steps
 * may add 8 MiB. */
static void
test_replay_memory (Fixture       *f,
                    gconstpointer  data)
{
#ifdef ADDRESS_SANITIZER
  assert_replay_memory (f, 1000, FALSE);
#else
  assert_replay_memory (f, 2000, FALSE);
#endif
}

/* A trace file opened to be replayed, as the command line opens it,
 * needs about the same memory whatever its length too: before, it was
 * read whole. Loaded whole, the 9,000 more steps took about 135 MiB
 * more; they may add 8 MiB. */
static void
test_replay_opened_memory (Fixture       *f,
                           gconstpointer  data)
{
  assert_replay_memory (f, 1000, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--run-forever"))
    return run_forever (argv[2]);
  if (argc == 3 && g_str_equal (argv[1], "--until-full"))
    return run_until_full (argv[2]);
  if (argc == 4 && g_str_equal (argv[1], "--replay"))
    return replay_steps (argv[2], (guint) g_ascii_strtoull (argv[3], NULL, 10), FALSE);
  if (argc == 4 && g_str_equal (argv[1], "--replay-opened"))
    return replay_steps (argv[2], (guint) g_ascii_strtoull (argv[3], NULL, 10), TRUE);

  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, trace_file_fixture_setup, func, trace_file_fixture_teardown)
  ADD ("/loop-record/window", test_window);
  ADD ("/loop-record/window-long-lines", test_window_long_lines);
  ADD ("/loop-record/window-file-gone", test_window_file_gone);
  ADD ("/loop-record/cancelled-long-run", test_cancelled_long_run);
  ADD ("/loop-record/killed-long-run", test_killed_long_run);
  ADD ("/loop-record/redacted-like-a-copy", test_redacted_like_a_copy);
  ADD ("/loop-record/lines-as-trees", test_lines_as_trees);
  ADD ("/loop-record/conversation-read-back", test_conversation_read_back);
  ADD ("/loop-record/disk-full", test_disk_full);
  ADD ("/loop-record/file-full-mid-run", test_file_full_mid_run);
  ADD ("/loop-record/replay-changed-file", test_replay_changed_file);
  ADD ("/loop-record/replay-opened-memory", test_replay_opened_memory);
  ADD ("/loop-record/replay-memory", test_replay_memory);
#undef ADD

  return g_test_run ();
}
