/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-loop"

#include "config.h"

#include <sys/resource.h>
#include <toolbench.h>

/* The dispatch loop's own overhead: a scripted model that always calls a
 * tool that does nothing, for 10,000 iterations. Prints figures; never
 * passes or fails on time. */

#define ITERATIONS 10000

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
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  TbLoopState *state = user_data;

  *state = tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, NULL);
}

static double
run (guint    iterations,
     guint   *events)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(GError) error = NULL;
  TbLoopState state = TB_LOOP_STATE_READY;
  gint64 start;

  schema = tb_json_parse ("{\"type\":\"object\",\"properties\":{}}", -1, &error);
  g_assert_no_error (error);
  tool = tb_tool_new_simple ("noop", "Does nothing.", schema, TB_TOOL_SIMPLE_FLAGS_NONE, noop,
                             NULL, NULL, &error);
  g_assert_no_error (error);
  tb_tool_registry_register (registry, tool, &error);
  g_assert_no_error (error);

  script = tb_json_parse ("{\"repeat\":true,\"responses\":[{\"tool_calls\":"
                          "[{\"name\":\"noop\",\"arguments\":{}}]}]}", -1, &error);
  g_assert_no_error (error);
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);

  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), iterations);
  tb_dispatch_loop_add_user_message (loop, "Go.", &error);
  g_assert_no_error (error);

  start = g_get_monotonic_time ();
  tb_dispatch_loop_run_async (loop, NULL, done_cb, &state);
  while (!tb_loop_state_is_end (state))
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpint (state, ==, TB_LOOP_STATE_LIMIT_REACHED);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (loop), ==, iterations);
  *events = tb_trace_get_n_events (tb_dispatch_loop_get_trace (loop));
  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
}

int
main (int   argc,
      char *argv[])
{
  struct rusage usage;
  guint events = 0;
  guint iterations = ITERATIONS;
  double seconds;

  if (argc > 1)
    iterations = (guint) g_ascii_strtoull (argv[1], NULL, 10);
  if (iterations == 0)
    iterations = ITERATIONS;

  /* A short warm-up run, then the measured one. */
  run (100, &events);
  seconds = run (iterations, &events);
  getrusage (RUSAGE_SELF, &usage);

  g_print ("loop: %u iterations (model turn + one no-op call each) in %.3f s\n",
           iterations, seconds);
  g_print ("loop: %.0f iterations/s, %.1f us per iteration\n", iterations / seconds,
           seconds * 1e6 / iterations);
  g_print ("loop: %u trace events and %u messages kept in memory\n", events,
           1 + 2 * iterations);
  g_print ("loop: peak memory (ru_maxrss) %ld KiB\n", usage.ru_maxrss);
  return 0;
}
