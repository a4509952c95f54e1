/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Prints how fast traces are written and opened. Figures only. */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <toolbench.h>
#include <unistd.h>

static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

static double
peak_rss_mib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

static JsonObject *
make_event (guint i,
            guint padding)
{
  JsonObject *event = json_object_new ();
  JsonObject *arguments = json_object_new ();
  g_autofree char *text = g_strnfill (padding, 'x');

  json_object_set_string_member (event, "type", i % 2 ? "tool-result" : "tool-call");
  json_object_set_string_member (event, "id", "call_0123456789");
  json_object_set_string_member (event, "name", "files.read");
  json_object_set_string_member (arguments, "path", "src/main.c");
  json_object_set_string_member (arguments, "text", text);
  json_object_set_object_member (event, "arguments", arguments);
  return event;
}

static void
write_trace (const char *path,
             guint       n,
             guint       padding,
             gboolean    report)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceWriter) writer = tb_trace_writer_new (file, NULL, NULL, &error);
  gint64 start = g_get_monotonic_time ();
  double ms;

  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonObject) event = make_event (i, padding);

      if (!tb_trace_writer_append (writer, event, &error))
        g_error ("%s", error->message);
    }
  tb_trace_writer_close (writer, NULL);
  ms = ms_since (start);

  if (report)
    g_print ("trace: write %u events (%u-byte payload):  %8.0f events/s  (%.0f ms)\n",
             n, padding, n / (ms / 1000.0), ms);
}

typedef struct
{
  GMainLoop *loop;
  gint64     start;
  double     first_100_ms;
} OpenState;

static void
n_events_cb (TbTraceReader *reader,
             GParamSpec    *pspec,
             OpenState     *state)
{
  if (state->first_100_ms < 0 && tb_trace_reader_get_n_events (reader) >= 100)
    {
      g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, 99, NULL);

      g_assert_nonnull (event);
      state->first_100_ms = ms_since (state->start);
    }
}

static void
indexed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_assert_true (tb_trace_reader_index_finish (TB_TRACE_READER (object), result, NULL));
  g_main_loop_quit (user_data);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  if (TB_IS_DISPATCH_LOOP (object))
    tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, NULL);
  else
    *(TbReplayReport **) g_object_get_data (object, "report") =
      tb_replay_run_finish (TB_REPLAY (object), result, NULL);
  g_main_loop_quit (user_data);
}

/* Records a run of n steps (one echo call a turn), then replays it with
 * the recorded results. */
static void
bench_replay (GMainLoop *loop,
              guint      n)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new ();
  g_autoptr(TbDispatchLoop) run = NULL;
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  gint64 start;
  double record_ms, replay_ms;

  tb_demo_tools_register (registry, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("call_%u", i);
      g_autoptr(JsonNode) arguments = tb_json_parse ("{\"text\":\"step\"}", -1, NULL);
      g_autoptr(TbToolCall) call = tb_tool_call_new (id, "echo", arguments);
      g_autoptr(TbMessage) message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);

      tb_message_add_tool_call (message, call);
      tb_scripted_provider_append_response (provider, message, NULL);
    }
  {
    g_autoptr(TbMessage) answer = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "done");

    tb_scripted_provider_append_response (provider, answer, NULL);
  }

  run = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), n + 1);
  tb_dispatch_loop_set_approval_policy (run, TB_APPROVAL_POLICY_APPROVE_ALL);
  tb_dispatch_loop_add_user_message (run, "go", NULL);
  start = g_get_monotonic_time ();
  tb_dispatch_loop_run_async (run, NULL, done_cb, loop);
  g_main_loop_run (loop);
  record_ms = ms_since (start);

  replay = tb_replay_new (tb_dispatch_loop_get_trace (run));
  g_object_set_data (G_OBJECT (replay), "report", &report);
  start = g_get_monotonic_time ();
  tb_replay_run_async (replay, NULL, done_cb, loop);
  g_main_loop_run (loop);
  replay_ms = ms_since (start);

  g_assert_nonnull (report);
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  g_print ("trace: record a %u-step run: %.0f ms; replay it with recorded results: %.0f ms "
           "(%.0f steps/s, report included)\n", n, record_ms, replay_ms, n / (replay_ms / 1000.0));
  g_print ("trace: peak memory after replaying:         %8.1f MiB\n", peak_rss_mib ());
}


/* The reference for indexing: counting the file's lines with `wc -l`,
 * and with a plain read() and memchr() loop, from the page cache. */
static double
wc_ms (const char *path)
{
  const char *argv[] = { "wc", "-l", path, NULL };
  gint64 start = g_get_monotonic_time ();
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL) || status != 0)
    return -1;
  return ms_since (start);
}

static double
memchr_ms (const char *path,
           guint64    *lines)
{
  g_autofree char *buffer = g_malloc (1024 * 1024);
  gint64 start = g_get_monotonic_time ();
  int fd = g_open (path, O_RDONLY, 0);
  gssize n;

  *lines = 0;
  while ((n = read (fd, buffer, 1024 * 1024)) > 0)
    for (const char *p = buffer; (p = memchr (p, '\n', buffer + n - p)) != NULL; p++)
      (*lines)++;
  close (fd);
  return ms_since (start);
}

static double
index_ms (GFile *file,
          guint *n_events)
{
  g_autoptr(TbTraceReader) reader = NULL;
  gint64 start = g_get_monotonic_time ();
  double ms;

  reader = tb_trace_reader_open (file, NULL);
  g_assert_nonnull (reader);
  g_assert_true (tb_trace_reader_index (reader, NULL, NULL));
  ms = ms_since (start);
  *n_events = tb_trace_reader_get_n_events (reader);
  return ms;
}

/* Indexing against counting lines, best of three each (the machine may be
 * busy with other work). */
static void
bench_index (const char *path,
             GFile      *file)
{
  double best_index = G_MAXDOUBLE, best_wc = G_MAXDOUBLE, best_memchr = G_MAXDOUBLE;
  guint n_events = 0;
  guint64 lines = 0;

  for (guint i = 0; i < 3; i++)
    {
      double wc = wc_ms (path);

      best_index = MIN (best_index, index_ms (file, &n_events));
      if (wc >= 0)
        best_wc = MIN (best_wc, wc);
      best_memchr = MIN (best_memchr, memchr_ms (path, &lines));
    }

  g_print ("trace: index %u events (synchronously, best of 3): %.1f ms; wc -l: %.1f ms; "
           "read()+memchr() counting %" G_GUINT64_FORMAT " lines: %.1f ms\n",
           n_events, best_index, best_wc < G_MAXDOUBLE ? best_wc : -1.0, lines, best_memchr);
  if (best_wc < G_MAXDOUBLE)
    g_print ("ratio index / wc -l: %.2f\n", best_index / best_wc);
  g_print ("ratio index / read()+memchr(): %.2f\n", best_index / best_memchr);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("toolbench-bench-XXXXXX", NULL);
  g_autofree char *small = g_build_filename (dir, "small.jsonl", NULL);
  g_autofree char *big = g_build_filename (dir, "big.jsonl", NULL);
  g_autoptr(GFile) big_file = g_file_new_for_path (big);
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  OpenState state = { loop, 0, -1 };
  GStatBuf st;
  double header_ms, full_ms;

  write_trace (small, 100000, 64, TRUE);
  g_print ("trace: peak memory after writing:           %8.1f MiB\n", peak_rss_mib ());

  /* About 100 MiB: 200,000 events of ~500 bytes. */
  write_trace (big, 200000, 420, FALSE);
  g_stat (big, &st);

  state.start = g_get_monotonic_time ();
  reader = tb_trace_reader_open (big_file, NULL);
  g_assert_nonnull (reader);
  header_ms = ms_since (state.start);
  g_signal_connect (reader, "notify::n-events", G_CALLBACK (n_events_cb), &state);
  tb_trace_reader_index_async (reader, NULL, indexed_cb, loop);
  g_main_loop_run (loop);
  full_ms = ms_since (state.start);

  g_print ("trace: open a %.0f MiB trace: header %.1f ms, first 100 events %.1f ms, "
           "fully indexed %.0f ms (%u events)\n",
           st.st_size / (1024.0 * 1024.0), header_ms, state.first_100_ms, full_ms,
           tb_trace_reader_get_n_events (reader));
  g_print ("trace: peak memory after opening:           %8.1f MiB\n", peak_rss_mib ());
  bench_index (big, big_file);

  bench_replay (loop, 10000);

  g_unlink (small);
  g_unlink (big);
  g_rmdir (dir);

  return 0;
}
