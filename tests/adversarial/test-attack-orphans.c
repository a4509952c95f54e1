/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Promise: no process is left behind. A command tool or a stdio MCP server
 * that starts background jobs, setsid() daemons or helpers that keep its
 * output open gets all of them killed when it exits, reaches its time
 * limit, is stopped, or when Toolbench itself is killed; a command that
 * exited cleanly still has its output returned at once.
 *
 * Every hostile command writes the process numbers of what it starts to a
 * file; the test checks each of them is gone, and that no process with the
 * test's own `sleep` argument is left anywhere. */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <toolbench.h>

#include "attack-util.h"

#include "../mcp/mcp-test-util.h"

typedef struct
{
  TbToolRegistry *registry;
  char           *dir;
  char           *pids;
  /* Arguments of `sleep` no other process on the machine uses. */
  char           *mark[3];
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  guint base = g_random_int_range (100000, 900000) * 10;

  f->registry = tb_tool_registry_new ();
  f->dir = g_dir_make_tmp ("tb-orphans-XXXXXX", NULL);
  f->pids = g_build_filename (f->dir, "pids", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (f->mark); i++)
    f->mark[i] = g_strdup_printf ("%u", base + i + 1);
}

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  TbToolRegistry *registry = f->registry;

  attack_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->pids);
  for (guint i = 0; i < G_N_ELEMENTS (f->mark); i++)
    g_free (f->mark[i]);
  g_object_add_weak_pointer (G_OBJECT (registry), (gpointer *) &registry);
  g_object_unref (f->registry);
  /* A call stopped early finishes once its keeper has exited. */
  g_assert_true (mcp_test_wait (pointer_is_null, &registry, 5000));
}

/* How many live processes run `sleep MARK`. */
static guint
count_marked (const char *mark)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint found = 0;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *cmdline = NULL;
      gsize length;

      if (!g_ascii_isdigit (*name))
        continue;
      path = g_build_filename ("/proc", name, "cmdline", NULL);
      if (!g_file_get_contents (path, &cmdline, &length, NULL) || length == 0)
        continue;
      /* argv[0] NUL argv[1] NUL */
      if (g_str_has_suffix (cmdline, "sleep") && strlen (cmdline) + 1 < length &&
          g_str_equal (cmdline + strlen (cmdline) + 1, mark))
        found++;
    }
  return found;
}

/* Like mcp_test_wait(), for conditions no event announces: polls. */
static gboolean
poll_until (McpTestCondition condition,
            gpointer         data,
            guint            timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * (gint64) 1000;

  while (!condition (data) && g_get_monotonic_time () < deadline)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (10 * 1000);
    }
  return condition (data);
}

static GArray *
read_pids (Fixture *f)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (pid_t));

  if (!g_file_get_contents (f->pids, &text, NULL, NULL))
    return pids;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      pid_t pid = (pid_t) g_ascii_strtoll (lines[i], NULL, 10);

      if (pid > 0)
        g_array_append_val (pids, pid);
    }
  return pids;
}

static gboolean
pid_gone (pid_t pid)
{
  return kill (pid, 0) != 0 && errno == ESRCH;
}

static gboolean
all_gone (gpointer data)
{
  Fixture *f = data;
  g_autoptr(GArray) pids = read_pids (f);

  for (guint i = 0; i < pids->len; i++)
    if (!pid_gone (g_array_index (pids, pid_t, i)))
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (f->mark); i++)
    if (count_marked (f->mark[i]) > 0)
      return FALSE;
  return TRUE;
}

static gboolean
pids_written (gpointer data)
{
  Fixture *f = data;
  g_autoptr(GArray) pids = read_pids (f);

  return pids->len >= 3;
}

typedef struct
{
  Fixture *f;
  guint    index;
} Mark;

static gboolean
mark_running (gpointer data)
{
  Mark *mark = data;

  return count_marked (mark->f->mark[mark->index]) == 1;
}

/* Waits for the whole tree to be up: the pids written, the last sleep run. */
static void
wait_started (Fixture *f)
{
  Mark mark = { f, 2 };

  g_assert_true (poll_until (pids_written, f, 10000));
  g_assert_true (poll_until (mark_running, &mark, 10000));
}

static guint
n_pids (Fixture *f)
{
  g_autoptr(GArray) pids = read_pids (f);

  return pids->len;
}

static void
assert_nothing_left (Fixture *f,
                     guint    within_ms)
{
  g_autoptr(GArray) pids = read_pids (f);

  /* The command did start what it was meant to. */
  g_assert_cmpuint (pids->len, >=, 2);
  if (!poll_until (all_gone, f, within_ms))
    {
      for (guint i = 0; i < pids->len; i++)
        if (!pid_gone (g_array_index (pids, pid_t, i)))
          g_test_message ("process %d is still there", g_array_index (pids, pid_t, i));
      g_error ("processes of the tool survived");
    }
}

static void
add_tool (Fixture    *f,
          const char *name,
          const char *script,
          guint       timeout_ms)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) manifest = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *file = g_strconcat (name, ".json", NULL);
  g_autofree char *path = g_build_filename (f->dir, file, NULL);
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, name);
  json_builder_set_member_name (builder, "command");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "/bin/sh");
  json_builder_add_string_value (builder, "-c");
  json_builder_add_string_value (builder, script);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "env");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "PIDS");
  json_builder_add_string_value (builder, f->pids);
  json_builder_set_member_name (builder, "M1");
  json_builder_add_string_value (builder, f->mark[0]);
  json_builder_set_member_name (builder, "M2");
  json_builder_add_string_value (builder, f->mark[1]);
  json_builder_set_member_name (builder, "M3");
  json_builder_add_string_value (builder, f->mark[2]);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "timeout-ms");
  json_builder_add_int_value (builder, timeout_ms);
  json_builder_end_object (builder);
  manifest = json_builder_get_root (builder);

  /* Also on disk, for the command line. */
  text = tb_json_to_string (manifest, TRUE);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));

  tool = tb_command_tool_new_from_json (manifest, f->dir, "manifest:test", &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (f->registry, tool, &error));
  g_assert_no_error (error);
}

/* A background job keeps standard output open, a setsid() daemon leaves
 * the group: the command exited, so its output comes back at once. */
static const char *leaves_jobs =
  "( sleep $M1 ) & echo $! >> $PIDS\n"
  "setsid sleep $M2 & echo $! >> $PIDS\n"
  "printf '{\"answer\": 42}'\n";

static void
test_exited_command_keeps_output (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *output = NULL;
  gint64 start;
  gint64 elapsed;

  add_tool (f, "leaves_jobs", leaves_jobs, 20000);
  start = g_get_monotonic_time ();
  result = mcp_test_call (f->registry, "leaves_jobs", "{}", NULL);
  elapsed = g_get_monotonic_time () - start;

  g_test_message ("returned after %" G_GINT64_FORMAT " ms", elapsed / 1000);
  g_assert_true (tb_tool_result_get_ok (result));
  output = mcp_test_output_text (result);
  g_assert_cmpstr (output, ==, "{\"answer\":42}");
  /* The limit is 20 s; the command itself takes milliseconds. */
  g_assert_cmpint (elapsed, <, 2 * G_USEC_PER_SEC);
  /* Killed and reaped before the result was given. */
  assert_nothing_left (f, 0);
}

static const char *runs_too_long =
  "( sleep $M1 ) & echo $! >> $PIDS\n"
  "setsid sleep $M2 & echo $! >> $PIDS\n"
  "echo $$ >> $PIDS\n"
  "exec sleep $M3\n";

static void
test_time_limit_kills_tree (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  gint64 start;

  add_tool (f, "runs_too_long", runs_too_long, 500);
  start = g_get_monotonic_time ();
  result = mcp_test_call (f->registry, "runs_too_long", "{}", NULL);

  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The tool “runs_too_long” did not finish within 500 ms and was stopped");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
  g_assert_cmpuint (n_pids (f), ==, 3);
  assert_nothing_left (f, 5000);
}

static void
test_cancel_kills_tree (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(TbToolResult) result = NULL;

  add_tool (f, "runs_too_long", runs_too_long, 60000);
  tb_tool_registry_call_async (f->registry, "runs_too_long", NULL, NULL, NULL, cancellable,
                               mcp_test_store_result, &async);
  wait_started (f);
  g_cancellable_cancel (cancellable);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &async, 5000));
  result = tb_tool_registry_call_finish (f->registry, async);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_CANCELLED);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The call of “runs_too_long” was cancelled");
  assert_nothing_left (f, 5000);
}

/* The command's own status and signal are what the model reads. */
static void
test_status_kept (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbToolResult) status = NULL;
  g_autoptr(TbToolResult) killed = NULL;

  add_tool (f, "fails", "setsid sleep $M1 & echo $! >> $PIDS\n"
                        "sleep $M2 & echo $! >> $PIDS\n"
                        "echo 'no such record' >&2; exit 4\n", 20000);
  add_tool (f, "killed", "sleep $M3 & echo $! >> $PIDS\nkill -TERM $$\n", 20000);

  status = mcp_test_call (f->registry, "fails", "{}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (status), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_cmpstr (tb_tool_result_get_error (status), ==, "no such record");
  g_assert_cmpint (json_object_get_int_member (tb_tool_result_get_metadata (status),
                                               "exit-status"), ==, 4);

  killed = mcp_test_call (f->registry, "killed", "{}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (killed), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_cmpstr (tb_tool_result_get_error (killed), ==, g_strsignal (SIGTERM));
  g_assert_cmpint (json_object_get_int_member (tb_tool_result_get_metadata (killed),
                                               "signal"), ==, SIGTERM);
  g_assert_cmpuint (n_pids (f), ==, 3);
  assert_nothing_left (f, 0);
}

/* toolbench-cli is killed with SIGKILL while a tool runs: nothing can
 * run in it any more, so the tool's tree must go by itself. */
static void
test_cli_killed (Fixture       *f,
                 gconstpointer  data)
{
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  if (cli == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set; run through meson test");
      return;
    }
  add_tool (f, "runs_too_long", runs_too_long, 60000);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                              G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                              cli, "call", "--tools-dir", f->dir, "runs_too_long", NULL);
  g_assert_no_error (error);
  wait_started (f);

  g_subprocess_force_exit (process);
  g_assert_true (g_subprocess_wait (process, NULL, &error));
  g_assert_true (g_subprocess_get_if_signaled (process));
  g_assert_cmpint (g_subprocess_get_term_sig (process), ==, SIGKILL);
  assert_nothing_left (f, 5000);
}

/* Inside a Flatpak the command goes through flatpak-spawn, which passes
 * SIGTERM on to the host; a stand-in runs the command here. */
static const char *fake_spawn =
  "#!/bin/sh\n"
  "[ \"$1\" = --host ] || exit 9\n"
  "shift\n"
  "while [ $# -gt 0 ]; do\n"
  "  case \"$1\" in\n"
  "    --watch-bus) ;;\n"
  "    --directory=*) cd \"${1#--directory=}\" || exit 8 ;;\n"
  "    --env=*) export \"${1#--env=}\" ;;\n"
  "    *) break ;;\n"
  "  esac\n"
  "  shift\n"
  "done\n"
  "exec \"$@\"\n";

static void
test_through_flatpak_spawn (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *bin = g_build_filename (f->dir, "bin", NULL);
  g_autofree char *spawn = g_build_filename (bin, "flatpak-spawn", NULL);
  g_autofree char *marker = g_build_filename (f->dir, "flatpak-info", NULL);
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  g_autoptr(TbToolResult) output = NULL;
  g_autoptr(TbToolResult) timeout = NULL;
  g_autofree char *text = NULL;
  gint64 start;

  if (!g_test_subprocess ())
    {
      /* The environment changes: in a process of its own. */
      g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return;
    }

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_assert_true (g_file_set_contents (spawn, fake_spawn, -1, NULL));
  g_assert_cmpint (g_chmod (spawn, 0755), ==, 0);
  g_assert_true (g_file_set_contents (marker, "[Application]\n", -1, NULL));
  g_setenv ("TOOLBENCH_FLATPAK_INFO", marker, TRUE);
  g_setenv ("PATH", path, TRUE);
  g_assert_true (tb_host_in_flatpak ());

  add_tool (f, "leaves_jobs", leaves_jobs, 20000);
  add_tool (f, "runs_too_long", runs_too_long, 500);

  start = g_get_monotonic_time ();
  output = mcp_test_call (f->registry, "leaves_jobs", "{}", NULL);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  text = mcp_test_output_text (output);
  g_assert_cmpstr (text, ==, "{\"answer\":42}");
  assert_nothing_left (f, 0);

  g_unlink (f->pids);
  timeout = mcp_test_call (f->registry, "runs_too_long", "{}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (timeout), ==, TB_TOOL_FAILURE_TIMEOUT);
  /* flatpak-spawn gets a second to pass SIGTERM on before the rest is killed. */
  assert_nothing_left (f, 5000);
}

/* A stdio MCP server that starts helpers of its own. */
static char *
write_server (Fixture *f)
{
  g_autofree char *fake = mcp_test_fake_server ();
  g_autofree char *script = g_strdup_printf (
    "#!/bin/sh\n"
    "sleep %s & echo $! >> '%s'\n"
    "setsid sleep %s & echo $! >> '%s'\n"
    "exec /usr/bin/python3 '%s'\n", f->mark[0], f->pids, f->mark[1], f->pids, fake);
  char *path = g_build_filename (f->dir, "server.sh", NULL);

  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static void
test_mcp_server_stopped (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *server = NULL;
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) pids = NULL;

  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return;
    }
  server = write_server (f);
  client = tb_mcp_client_new_stdio ("helpers", (const char *[]) { server, NULL }, NULL, NULL);
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);

  pids = read_pids (f);
  g_assert_cmpuint (pids->len, ==, 2);
  for (guint i = 0; i < pids->len; i++)
    g_assert_false (pid_gone (g_array_index (pids, pid_t, i)));

  tb_mcp_client_disconnect (client);
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_DISCONNECTED);
  assert_nothing_left (f, 5000);
}

static void
test_mcp_server_crashes (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *server = NULL;
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed to run the fake MCP server");
      return;
    }
  server = write_server (f);
  client = tb_mcp_client_new_stdio ("helpers", (const char *[]) { server, NULL }, NULL, NULL);
  tb_mcp_client_attach (client, f->registry);
  g_assert_true (mcp_test_connect (client, &error));

  /* The server exits with status 3; the helpers hold its output open. */
  result = mcp_test_call (f->registry, "crash", NULL, NULL);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The MCP server “helpers” exited with status 3");
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_FAILED);
  assert_nothing_left (f, 5000);
  tb_mcp_client_detach (client);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/attack/orphans/exited-command-keeps-output", Fixture, NULL, setup,
              test_exited_command_keeps_output, teardown);
  g_test_add ("/attack/orphans/time-limit-kills-tree", Fixture, NULL, setup,
              test_time_limit_kills_tree, teardown);
  g_test_add ("/attack/orphans/cancel-kills-tree", Fixture, NULL, setup,
              test_cancel_kills_tree, teardown);
  g_test_add ("/attack/orphans/status-kept", Fixture, NULL, setup, test_status_kept, teardown);
  g_test_add ("/attack/orphans/cli-killed", Fixture, NULL, setup, test_cli_killed, teardown);
  g_test_add ("/attack/orphans/through-flatpak-spawn", Fixture, NULL, setup,
              test_through_flatpak_spawn, teardown);
  g_test_add ("/attack/orphans/mcp-server-stopped", Fixture, NULL, setup,
              test_mcp_server_stopped, teardown);
  g_test_add ("/attack/orphans/mcp-server-crashes", Fixture, NULL, setup,
              test_mcp_server_crashes, teardown);

  return g_test_run ();
}
