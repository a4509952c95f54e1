/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-replay"

#include "config.h"

#include <glib/gstdio.h>
#include <sys/resource.h>
#include <toolbench.h>

/* Replaying long runs: a run of N steps (one echo call a turn) is
 * recorded to a file, then replayed with the recorded results, the new
 * run recorded too, and the two compared: the trace as its recorder left
 * it, the file opened with tb_trace_open() as `toolbench-cli replay`
 * opens it, and the file loaded whole with tb_trace_load(). 10,000 and
 * 100,000 steps, each way in a process of its own so that each has its
 * own peak memory.
 *
 * The reference is the recording of the same run in the same process:
 * a replay runs the same loop, so its steps/s over the recording's is
 * the ratio printed; peak memory is printed against the 64 MiB budget.
 * Every line gives the figure, its reference and their ratio.
 * Prints figures; never passes or fails on time. */

#define BUDGET_MIB 64.0

static double
peak_rss_mib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  TbLoopState *state = user_data;

  *state = tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, NULL);
}

static void
replay_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  TbReplayReport **report = user_data;
  g_autoptr(GError) error = NULL;

  *report = tb_replay_run_finish (TB_REPLAY (object), result, &error);
  g_assert_no_error (error);
}

typedef enum { RECORDED, OPENED, LOADED } Source;
static const char * const source_names[] = { "recorded", "opened", "loaded" };

static int
measure (guint  n,
         Source source)
{
  g_autofree char *dir = g_dir_make_tmp ("toolbench-bench-XXXXXX", NULL);
  g_autofree char *recorded_path = g_build_filename (dir, "recorded.jsonl", NULL);
  g_autofree char *replayed_path = g_build_filename (dir, "replayed.jsonl", NULL);
  g_autoptr(GFile) recorded_file = g_file_new_for_path (recorded_path);
  g_autoptr(GFile) replayed_file = g_file_new_for_path (replayed_path);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(GError) error = NULL;
  TbLoopState state = TB_LOOP_STATE_READY;
  double after_record;
  gint64 start;
  double record_s, replay_s;

  tb_demo_tools_register (registry, NULL);
  script = tb_json_parse ("{\"repeat\":true,\"responses\":[{\"tool_calls\":"
                          "[{\"name\":\"echo\",\"arguments\":{\"text\":\"step\"}}]}]}", -1, &error);
  g_assert_no_error (error);
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);

  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), n);
  tb_dispatch_loop_set_approval_policy (loop, TB_APPROVAL_POLICY_APPROVE_ALL);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), recorded_file, NULL);
  tb_dispatch_loop_add_user_message (loop, "go", NULL);

  start = g_get_monotonic_time ();
  tb_dispatch_loop_run_async (loop, NULL, run_cb, &state);
  while (!tb_loop_state_is_end (state))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);
  record_s = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  after_record = peak_rss_mib ();

  if (source == RECORDED)
    replay = tb_replay_new (tb_dispatch_loop_get_trace (loop));
  else
    {
      g_autoptr(TbTrace) trace = NULL;

      g_clear_object (&recorder);
      g_clear_object (&loop);
      trace = source == OPENED ? tb_trace_open (recorded_file, NULL, NULL, &error)
                               : tb_trace_load (recorded_file, NULL, NULL, &error);
      g_assert_no_error (error);
      replay = tb_replay_new (trace);
    }
  tb_replay_set_output (replay, replayed_file, NULL);
  start = g_get_monotonic_time ();
  tb_replay_run_async (replay, NULL, replay_cb, &report);
  while (report == NULL)
    g_main_context_iteration (NULL, TRUE);
  replay_s = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;

  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  g_print ("replay %u steps, %s: %.0f steps/s (report included); recording them %.0f steps/s; "
           "ratio replay / recording steps/s (%u steps, %s): %.2f\n",
           n, source_names[source], n / replay_s, n / record_s, n, source_names[source],
           record_s / replay_s);
  g_print ("replay %u steps, %s: peak memory %.1f MiB (%.1f MiB after recording); budget %.0f MiB; "
           "ratio peak memory / %.0f MiB budget (%u steps, %s): %.2f\n",
           n, source_names[source], peak_rss_mib (), after_record, BUDGET_MIB, BUDGET_MIB, n,
           source_names[source], peak_rss_mib () / BUDGET_MIB);

  g_unlink (recorded_path);
  g_unlink (replayed_path);
  g_rmdir (dir);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  static const guint sizes[] = { 10000, 100000 };

  if (argc > 2)
    return measure ((guint) MAX (g_ascii_strtoull (argv[1], NULL, 10), 1),
                    g_str_equal (argv[2], "opened") ? OPENED
                    : g_str_equal (argv[2], "loaded") ? LOADED : RECORDED);

  for (guint i = 0; i < G_N_ELEMENTS (sizes) * G_N_ELEMENTS (source_names); i++)
    {
      g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *count = g_strdup_printf ("%u", sizes[i / G_N_ELEMENTS (source_names)]);
      const char *child_argv[] = { self_path, count,
                                   source_names[i % G_N_ELEMENTS (source_names)], NULL };
      g_autoptr(GError) error = NULL;
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) child_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                         NULL, NULL, NULL, NULL, &status, &error))
        g_error ("%s", error->message);
    }
  return 0;
}
