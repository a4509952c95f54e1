/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-loop"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <toolbench.h>
#include <unistd.h>

/* The dispatch loop's own overhead: a scripted model that always calls a
 * tool that does nothing, its trace recorded to a file as the app and the
 * command line record it. Runs 10,000 and 100,000 iterations, each in a
 * process of its own so that each has its own peak memory.
 *
 * The reference, from the same process: the same provider and tool called
 * the same number of times by a bare loop that only keeps the
 * conversation (the least any loop must do), without the state machine,
 * decisions and trace. The loop's iterations/s over the reference's is
 * the ratio printed; the 50,000 iterations/s target is printed too.
 *
 * The floor, from the same process: the bare loop again, now also writing
 * one iteration's trace lines, taken from the recorded file, with one
 * write() each and an fsync() as often as the trace writer's default
 * policy asks. The trace format flushes every event as it happens
 * (docs/trace-format.md), so no loop that records its trace can go faster
 * than this floor; the loop's rate over it is printed, and the floor's
 * over the 50,000 iterations/s target.
 *
 * Memory: the 100,000-iteration run is given the 10,000-iteration run's
 * peak (the parent runs that one first) and prints its own peak against
 * it: memory that does not grow with the run keeps that ratio near 1.
 * Every line gives the figure, its reference and their ratio.
 * Prints figures; never passes or fails on time. */

#define TARGET_PER_S 50000.0

typedef struct
{
  double wall_s;
  double cpu_s;
} Took;

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
took_start (Took *took)
{
  took->wall_s = g_get_monotonic_time () / (double) G_USEC_PER_SEC;
  took->cpu_s = cpu_seconds ();
}

static void
took_stop (Took *took)
{
  took->wall_s = g_get_monotonic_time () / (double) G_USEC_PER_SEC - took->wall_s;
  took->cpu_s = cpu_seconds () - took->cpu_s;
}

/* Resident memory now, in bytes. */
static gsize
rss_now (void)
{
  g_autofree char *statm = NULL;
  gulong size = 0, resident = 0;

  if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    sscanf (statm, "%lu %lu", &size, &resident);
  return resident * (gsize) sysconf (_SC_PAGESIZE);
}

static JsonNode *
noop (TbTool        *tool,
      JsonObject    *arguments,
      JsonObject    *context,
      GCancellable  *cancellable,
      gpointer       user_data,
      GError       **error)
{
  return json_node_new (JSON_NODE_NULL);
}

static void
setup (TbToolRegistry     **registry,
       TbScriptedProvider **provider)
{
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(GError) error = NULL;

  *registry = tb_tool_registry_new ();
  schema = tb_json_parse ("{\"type\":\"object\",\"properties\":{}}", -1, &error);
  g_assert_no_error (error);
  tool = tb_tool_new_simple ("noop", "Does nothing.", schema, TB_TOOL_SIMPLE_FLAGS_NONE, noop,
                             NULL, NULL, &error);
  g_assert_no_error (error);
  tb_tool_registry_register (*registry, tool, &error);
  g_assert_no_error (error);

  script = tb_json_parse ("{\"repeat\":true,\"responses\":[{\"tool_calls\":"
                          "[{\"name\":\"noop\",\"arguments\":{}}]}]}", -1, &error);
  g_assert_no_error (error);
  *provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  TbLoopState *state = user_data;

  *state = tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, NULL);
}

/* The loop, recorded to @path. */
static void
run_loop (guint       iterations,
          const char *path,
          Took       *took,
          gsize      *grown,
          guint      *in_memory)
{
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  TbLoopState state = TB_LOOP_STATE_READY;
  gsize before;

  setup (&registry, &provider);
  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), iterations);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), file, NULL);
  tb_dispatch_loop_add_user_message (loop, "Go.", &error);
  g_assert_no_error (error);

  before = rss_now ();
  took_start (took);
  tb_dispatch_loop_run_async (loop, NULL, done_cb, &state);
  while (!tb_loop_state_is_end (state))
    g_main_context_iteration (NULL, TRUE);
  took_stop (took);
  *grown = rss_now () - MIN (before, rss_now ());

  g_assert_cmpint (state, ==, TB_LOOP_STATE_LIMIT_REACHED);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (loop), ==, iterations);
  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);
  *in_memory = tb_trace_get_n_in_memory (tb_dispatch_loop_get_trace (loop));
}

/* ---- the reference: the provider and the tool, called bare ------------------ */

typedef struct
{
  TbScriptedProvider *provider;
  TbToolRegistry     *registry;
  GPtrArray          *history;
  guint               left;
  /* The floor only: where one iteration's trace lines go, and the lines. */
  int                 fd;
  GPtrArray          *lines;
  guint               unsynced;
  gint64              last_sync;
} Bare;

/* The trace writer's default: fsync after 1,000 events or one second. */
#define SYNC_EVERY_EVENTS 1000
#define SYNC_EVERY_US     G_USEC_PER_SEC

static void
bare_write_lines (Bare *bare)
{
  for (guint i = 0; i < bare->lines->len; i++)
    {
      GBytes *line = g_ptr_array_index (bare->lines, i);
      gsize size = 0;
      const char *data = g_bytes_get_data (line, &size);
      gint64 now;

      if (write (bare->fd, data, size) != (gssize) size)
        g_error ("The floor's trace could not be written: %s", g_strerror (errno));
      now = g_get_monotonic_time ();
      if (++bare->unsynced >= SYNC_EVERY_EVENTS || now - bare->last_sync >= SYNC_EVERY_US)
        {
          fsync (bare->fd);
          bare->unsynced = 0;
          bare->last_sync = now;
        }
    }
}

static void bare_ask (Bare *bare);

static void
bare_tool_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Bare *bare = user_data;
  g_autoptr(TbToolResult) tool_result = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object),
                                                                      result);
  TbMessage *answer = g_ptr_array_index (bare->history, bare->history->len - 1);
  TbToolCall *call = tb_message_get_tool_call (answer, 0);

  g_ptr_array_add (bare->history,
                   tb_message_new_tool_result (tb_tool_call_get_id (call),
                                               tb_tool_call_get_name (call), "null",
                                               !tb_tool_result_get_ok (tool_result)));
  if (bare->fd >= 0)
    bare_write_lines (bare);
  bare->left--;
  if (bare->left > 0)
    bare_ask (bare);
}

static void
bare_model_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Bare *bare = user_data;
  g_autoptr(TbProviderResponse) response = tb_provider_complete_finish (TB_PROVIDER (object),
                                                                         result, NULL);
  TbToolCall *call;

  g_assert_nonnull (response);
  g_ptr_array_add (bare->history, g_object_ref (response->message));
  call = tb_message_get_tool_call (response->message, 0);
  tb_tool_registry_call_async (bare->registry, tb_tool_call_get_name (call),
                               tb_tool_call_get_id (call), tb_tool_call_get_arguments (call),
                               NULL, NULL, bare_tool_cb, bare);
}

static void
bare_ask (Bare *bare)
{
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();

  g_ptr_array_unref (request->messages);
  request->messages = g_ptr_array_ref (bare->history);
  request->tools = g_object_ref (bare->registry);
  tb_provider_complete_async (TB_PROVIDER (bare->provider), request, NULL, bare_model_cb, bare);
}

/* The bare loop; with @lines, also writes them to @path each iteration. */
static void
run_bare (guint       iterations,
          GPtrArray  *lines,
          const char *path,
          Took       *took)
{
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(GPtrArray) history = g_ptr_array_new_with_free_func (g_object_unref);
  Bare bare;

  setup (&registry, &provider);
  g_ptr_array_add (history, tb_message_new (TB_MESSAGE_ROLE_USER, "Go."));
  bare = (Bare) { provider, registry, history, iterations, -1, lines, 0, 0 };
  if (lines != NULL)
    {
      bare.fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (bare.fd < 0)
        g_error ("%s could not be opened: %s", path, g_strerror (errno));
      bare.last_sync = g_get_monotonic_time ();
    }

  took_start (took);
  bare_ask (&bare);
  while (bare.left > 0)
    g_main_context_iteration (NULL, TRUE);
  if (bare.fd >= 0)
    {
      fsync (bare.fd);
      close (bare.fd);
    }
  took_stop (took);
}

/* The lines the loop wrote for its second iteration, each with its newline:
 * what one iteration costs the trace file. */
static GPtrArray *
iteration_lines (const char *path)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *head = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, &error);
  gsize got = 0;
  const char *line;

  g_assert_no_error (error);
  head = g_malloc (1 << 16);
  g_input_stream_read_all (G_INPUT_STREAM (stream), head, (1 << 16) - 1, &got, NULL, &error);
  g_assert_no_error (error);
  head[got] = '\0';

  for (line = head; *line != '\0';)
    {
      const char *end = strchr (line, '\n');

      if (end == NULL)
        break;
      if (g_strstr_len (line, end - line, ",\"iteration\":2,") != NULL)
        g_ptr_array_add (lines, g_bytes_new (line, end + 1 - line));
      line = end + 1;
    }
  g_assert_cmpuint (lines->len, >, 0);
  return g_steal_pointer (&lines);
}

static int
measure (guint  iterations,
         double reference_peak_mib)
{
  g_autofree char *dir = g_dir_make_tmp ("toolbench-bench-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "loop.jsonl", NULL);
  struct rusage usage;
  g_autofree char *floor_path = g_build_filename (dir, "floor.jsonl", NULL);
  g_autoptr(GPtrArray) lines = NULL;
  Took loop, bare, floor;
  gsize grown = 0;
  guint in_memory = 0;
  GStatBuf st;
  double loop_rate, bare_rate, floor_rate;

  /* A short warm-up of each, then the measured runs. */
  run_bare (100, NULL, NULL, &bare);
  run_loop (100, path, &loop, &grown, &in_memory);
  lines = iteration_lines (path);
  run_bare (100, lines, floor_path, &floor);
  run_loop (iterations, path, &loop, &grown, &in_memory);
  g_stat (path, &st);
  getrusage (RUSAGE_SELF, &usage);
  run_bare (iterations, NULL, NULL, &bare);
  run_bare (iterations, lines, floor_path, &floor);

  loop_rate = iterations / loop.wall_s;
  bare_rate = iterations / bare.wall_s;
  floor_rate = iterations / floor.wall_s;

  g_print ("loop %u: trace %.1f MiB written, %u events in memory, "
           "%.0f bytes per iteration (resident memory grown during the run)\n",
           iterations, st.st_size / (1024.0 * 1024.0), in_memory, grown / (double) iterations);
  g_print ("loop %u: %.0f iterations/s (%.1f us each); bare provider+tool calls %.0f "
           "iterations/s; ratio loop / bare provider+tool calls (%u iterations): %.2f\n",
           iterations, loop_rate, loop.wall_s * 1e6 / iterations, bare_rate, iterations,
           loop_rate / bare_rate);
  g_print ("loop %u: %.0f iterations/s by CPU time; bare %.0f by CPU time; "
           "ratio loop / bare by CPU time (%u iterations): %.2f\n",
           iterations, iterations / loop.cpu_s, iterations / bare.cpu_s, iterations,
           bare.cpu_s / loop.cpu_s);
  g_print ("loop %u: %.0f iterations/s; floor, bare calls and %u trace lines written one "
           "write() each, %.0f iterations/s (%.1f us each); ratio loop / floor (%u iterations): "
           "%.2f\n", iterations, loop_rate, lines->len, floor_rate, floor.wall_s * 1e6 / iterations,
           iterations, loop_rate / floor_rate);
  g_print ("loop %u: floor %.0f iterations/s; target 50,000 iterations/s; "
           "ratio floor / 50,000 iterations/s target (%u iterations): %.2f\n",
           iterations, floor_rate, iterations, floor_rate / TARGET_PER_S);
  g_print ("loop %u: %.0f iterations/s; target 50,000 iterations/s; "
           "ratio loop / 50,000 iterations/s target (%u iterations): %.2f\n",
           iterations, loop_rate, iterations, loop_rate / TARGET_PER_S);
  if (reference_peak_mib > 0)
    g_print ("loop %u: peak memory %.1f MiB; 10,000 iterations %.1f MiB; "
             "ratio peak memory %u / 10,000 iterations: %.2f\n",
             iterations, usage.ru_maxrss / 1024.0, reference_peak_mib, iterations,
             usage.ru_maxrss / 1024.0 / reference_peak_mib);
  else
    g_print ("loop %u: peak memory %.1f MiB\n", iterations, usage.ru_maxrss / 1024.0);

  g_unlink (path);
  g_unlink (floor_path);
  g_rmdir (dir);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  static const guint sizes[] = { 10000, 100000 };
  g_autofree char *reference = NULL;

  if (argc > 1)
    return measure ((guint) MAX (g_ascii_strtoull (argv[1], NULL, 10), 1),
                    argc > 2 ? g_ascii_strtod (argv[2], NULL) : 0);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *count = g_strdup_printf ("%u", sizes[i]);
      const char *child_argv[] = { self_path, count, reference, NULL };
      g_autofree char *out = NULL;
      g_autoptr(GError) error = NULL;
      const char *peak;
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) child_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                         NULL, NULL, &out, NULL, &status, &error))
        g_error ("%s", error->message);
      g_print ("%s", out);
      /* The first size's peak is the reference of the next. */
      peak = reference == NULL ? strstr (out, "peak memory ") : NULL;
      if (peak != NULL)
        reference = g_strdup_printf ("%.1f", g_ascii_strtod (peak + strlen ("peak memory "),
                                                             NULL));
    }
  return 0;
}
