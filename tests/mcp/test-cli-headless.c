/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-cli-headless"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"
#include "../test-files-util.h"

/* toolbench-cli run, eval and replay --check as CI calls them: with a
 * person's own tools (a real MCP server from npm, command-tool manifests,
 * a workspace), side by side, with the reports CI systems read. */

typedef struct
{
  char *dir;
  char *server_json;
  char *out;
  char *err;
  int   status;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;

  f->dir = g_dir_make_tmp ("tb-headless-XXXXXX", NULL);
  if (argv == NULL)
    return;
  /* {"command": node, "args": [script, "stdio"]} */
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, argv[0]);
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  for (guint i = 1; argv[i] != NULL; i++)
    json_builder_add_string_value (builder, argv[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  f->server_json = tb_json_to_string (node, FALSE);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->server_json);
  g_free (f->out);
  g_free (f->err);
}

static gboolean
need_server (Fixture *f)
{
  if (f->server_json == NULL)
    {
      g_test_skip ("server-everything is not installed (run build-aux/setup-node.sh)");
      return FALSE;
    }
  return TRUE;
}

static char *
path_in (Fixture    *f,
         const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

static void
write_in (Fixture    *f,
          const char *name,
          const char *contents)
{
  g_autofree char *path = path_in (f, name);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

static void
cli_argv (Fixture            *f,
          const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_ptr_array_add (argv, (char *) g_getenv ("TOOLBENCH_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, "", NULL, &f->out, &f->err, &error);
  g_assert_no_error (error);
  f->status = g_subprocess_get_exit_status (process);
  if (f->err != NULL && *f->err != '\0')
    g_test_message ("stderr: %s", f->err);
}

#define cli(f, ...) cli_argv (f, (const char * const []) { __VA_ARGS__, NULL })

static JsonNode *
parse_out (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (f->out, -1, &error);

  g_assert_no_error (error);
  return node;
}

/* The report without the times, which differ from run to run. */
static char *
without_times (JsonNode *report)
{
  JsonArray *rows = json_object_get_array_member (json_node_get_object (report), "results");
  JsonArray *models = json_object_get_array_member (json_node_get_object (report), "models");

  for (guint i = 0; i < json_array_get_length (rows); i++)
    json_object_remove_member (json_array_get_object_element (rows, i), "duration_ms");
  for (guint i = 0; i < json_array_get_length (models); i++)
    json_object_remove_member (json_array_get_object_element (models, i), "duration_ms");
  return tb_json_to_string (report, TRUE);
}

static void
assert_junit_valid (const char *path)
{
  g_autofree char *schema = g_build_filename (g_getenv ("TOOLBENCH_SOURCE_ROOT"), "tests",
                                              "data", "junit.xsd", NULL);
  g_autofree char *xmllint = g_find_program_in_path ("xmllint");
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  const char *argv[] = { xmllint, "--noout", "--schema", schema, path, NULL };

  if (xmllint == NULL)
    g_error ("xmllint is missing (libxml2-utils; build-aux/setup.sh installs it)");
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s does not validate against the JUnit schema: %s", path, err);
}

/* ---- run with an MCP server ------------------------------------------------ */

static void
test_run_mcp (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *script = path_in (f, "script.json");
  g_autofree char *config = path_in (f, "mcp.json");
  g_autofree char *config_text = NULL;
  g_autofree char *spec = NULL;
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);

  if (!need_server (f))
    return;

  write_in (f, "script.json",
            "[{\"tool_calls\":[{\"name\":\"everything.echo\","
            "\"arguments\":{\"message\":\"from the model\"}}]},{\"text\":\"done\"}]");

  /* The tool-source options before the command… */
  spec = g_strdup_printf ("everything=%s %s %s", argv[0], argv[1], argv[2]);
  cli (f, "--mcp", spec, "run", "--script", script, "--prompt", "Echo", "-n", "3");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "Echo: from the model"));
  g_assert_nonnull (strstr (f->out, "assistant: done"));

  /* A command with a verb of its own keeps it in front. */
  cli (f, "--mcp", spec, "mcp", "ping");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_true (g_str_has_prefix (f->out, "everything: answered in "));

  /* …and after it, from a configuration file. */
  config_text = g_strdup_printf ("{\"mcpServers\":{\"everything\":%s}}", f->server_json);
  write_in (f, "mcp.json", config_text);
  cli (f, "run", "--mcp-config", config, "--script", script, "--prompt", "Echo", "-n", "3");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "Echo: from the model"));

  /* Only the tool-source options may come first. */
  cli (f, "--quiet", "run");
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "“--quiet” is not an option that may come before the "
                                    "command"));
}

/* ---- eval with the scenario's own tools ------------------------------------ */

static void
write_scenarios (Fixture *f)
{
  g_autofree char *mcp = NULL;
  g_autofree char *no_server = NULL;
  g_autoptr(TbWorkspace) workspace = NULL;
  g_autofree char *workspace_path = path_in (f, "scenarios/data/workspace.json");
  g_autoptr(GError) error = NULL;

  mcp = g_strdup_printf (
    "{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"mcp-and-manifest\","
    "\"prompt\":\"Echo hi, then count\",\"max_iterations\":4,"
    "\"mcpServers\":{\"everything\":%s},\"tools_dirs\":[\"tools\"],"
    "\"tools\":[\"everything.echo\",\"cat\",\"add\"],"
    "\"script\":[{\"tool_calls\":[{\"name\":\"everything.echo\",\"arguments\":{\"message\":\"hi\"}},"
    "{\"name\":\"cat\",\"arguments\":{\"n\":3}}]},{\"text\":\"Echoed and counted.\"}],"
    "\"expect\":{\"state\":\"finished\",\"iterations\":2,\"not_called\":[\"add\"],"
    "\"calls\":[{\"name\":\"everything.echo\",\"result_contains\":\"Echo: hi\","
    "\"arguments_schema\":{\"type\":\"object\",\"required\":[\"message\"]}},"
    "{\"name\":\"cat\",\"arguments\":{\"n\":3},\"ok\":true}],"
    "\"text_contains\":\"counted\"}}", f->server_json);
  write_in (f, "scenarios/a-mcp.json", mcp);
  write_in (f, "scenarios/tools/cat.json",
            "{\"name\":\"cat\",\"description\":\"Gives back its arguments\","
            "\"parameters\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}},"
            "\"command\":[\"/bin/cat\"]}");

  /* A workspace next to the scenario, opened as a private copy. */
  write_in (f, "scenarios/data/README", "The workspace of b-facts.json.");
  workspace = tb_workspace_new_for_path (workspace_path, &error);
  g_assert_no_error (error);
  g_assert_true (tb_workspace_save (workspace, &error));
  g_assert_no_error (error);
  write_in (f, "scenarios/b-facts.json",
            "{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"proposes-a-fact\","
            "\"prompt\":\"Remember the city\",\"workspace\":\"data/workspace.json\","
            "\"script\":[{\"tool_calls\":[{\"name\":\"facts.propose\",\"arguments\":"
            "{\"key\":\"city\",\"value\":\"Lisbon\",\"reason\":\"the person said so\"}}]},"
            "{\"text\":\"Proposed.\"}],"
            "\"expect\":{\"state\":\"finished\",\"not_called\":[\"facts.commit\"],"
            "\"facts_proposed\":[{\"key\":\"city\",\"value\":\"Lisbon\"}]}}");

  /* A file that is not JSON, and a server that does not start: those two
   * fail with their reasons, the others run. */
  write_in (f, "scenarios/c-broken.json", "{\"format\": \"toolbench-scenario\", ");
  no_server = g_strdup ("{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"no-server\","
                        "\"prompt\":\"x\",\"mcpServers\":{\"ghost\":{\"command\":"
                        "\"/nonexistent/mcp-server\"}},\"script\":[{\"text\":\"x\"}],"
                        "\"expect\":{\"state\":\"finished\"}}");
  write_in (f, "scenarios/d-no-server.json", no_server);

  /* The file tools, confined to a folder beside the scenario. */
  write_in (f, "scenarios/e-files.json",
            "{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"reads-a-file\","
            "\"prompt\":\"Read the note\",\"files_root\":\"data\","
            "\"script\":[{\"tool_calls\":[{\"name\":\"read_file\",\"arguments\":{\"path\":\"README\"}}]},"
            "{\"text\":\"Read.\"}],"
            "\"expect\":{\"state\":\"finished\",\"calls\":[{\"name\":\"read_file\",\"ok\":true,"
            "\"result_contains\":\"The workspace of b-facts.json.\"}]}}");
}

static JsonObject *
row (JsonNode   *report,
     guint       index)
{
  JsonArray *rows = json_object_get_array_member (json_node_get_object (report), "results");

  return json_array_get_object_element (rows, index);
}

static void
test_eval_sources (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *dir = path_in (f, "scenarios");
  g_autofree char *junit = path_in (f, "junit.xml");
  g_autofree char *html = path_in (f, "report.html");
  g_autofree char *html_text = NULL;
  g_autofree char *workspace_before = NULL;
  g_autofree char *workspace_after = NULL;
  g_autofree char *workspace_path = NULL;
  g_autofree char *one = NULL;
  g_autofree char *four = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(JsonNode) again = NULL;

  if (!need_server (f))
    return;
  write_scenarios (f);
  workspace_path = path_in (f, "scenarios/data/workspace.json");
  g_assert_true (g_file_get_contents (workspace_path, &workspace_before, NULL, NULL));

  cli (f, "eval", "--scenarios", dir, "--json", "--jobs", "1", "--junit", junit, "--html", html);
  g_assert_cmpint (f->status, ==, 1);
  report = parse_out (f);

  g_assert_cmpstr (json_object_get_string_member (row (report, 0), "status"), ==, "passed");
  g_assert_cmpint (json_object_get_int_member (row (report, 0), "calls"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (row (report, 1), "status"), ==, "passed");
  g_assert_cmpstr (json_object_get_string_member (row (report, 2), "status"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (row (report, 2), "scenario"), ==,
                   "c-broken.json");
  g_assert_nonnull (strstr (json_object_get_string_member (row (report, 2), "error"),
                            "c-broken.json” is not JSON"));
  g_assert_cmpstr (json_object_get_string_member (row (report, 3), "status"), ==, "error");
  g_assert_nonnull (strstr (json_object_get_string_member (row (report, 3), "error"),
                            "The scenario “no-server” cannot start its tools"));

  g_assert_cmpstr (json_object_get_string_member (row (report, 4), "status"), ==, "passed");

  /* The private copy took the proposal; the file itself did not change. */
  g_assert_true (g_file_get_contents (workspace_path, &workspace_after, NULL, NULL));
  g_assert_cmpstr (workspace_before, ==, workspace_after);

  assert_junit_valid (junit);
  g_assert_true (g_file_get_contents (html, &html_text, NULL, NULL));
  g_assert_nonnull (strstr (html_text, "<a href=\"#run-0\">passed</a>"));
  g_assert_nonnull (strstr (html_text, "Echo: hi"));
  g_assert_nonnull (strstr (html_text, "cannot start its tools"));

  /* Four side by side come to the same results. */
  cli (f, "eval", "--scenarios", dir, "--json", "--jobs", "4");
  g_assert_cmpint (f->status, ==, 1);
  again = parse_out (f);
  one = without_times (report);
  four = without_times (again);
  g_assert_cmpstr (one, ==, four);
}

static void
test_eval_checks_fail (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *path = path_in (f, "calls-add.json");
  g_autoptr(JsonNode) report = NULL;
  JsonArray *failures;

  /* A tool that must not be called, and arguments against a schema. */
  write_in (f, "calls-add.json",
            "{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"must-not-add\","
            "\"prompt\":\"x\",\"tools\":[\"add\"],"
            "\"script\":[{\"tool_calls\":[{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}]},"
            "{\"text\":\"5\",\"usage\":{\"input_tokens\":7,\"output_tokens\":2}}],"
            "\"expect\":{\"not_called\":[\"add\"],\"calls\":[{\"name\":\"add\","
            "\"arguments_schema\":{\"type\":\"object\",\"properties\":{\"a\":{\"maximum\":1}}}}],"
            "\"facts_proposed\":[{\"key\":\"city\"}]}}");
  cli (f, "eval", path, "--json");
  g_assert_cmpint (f->status, ==, 1);
  report = parse_out (f);
  failures = json_object_get_array_member (row (report, 0), "failures");
  g_assert_cmpuint (json_array_get_length (failures), ==, 3);
  g_assert_nonnull (strstr (json_array_get_string_element (failures, 0),
                            "call 1 has arguments that do not match its “arguments_schema”"));
  g_assert_cmpstr (json_array_get_string_element (failures, 1), ==,
                   "the model called “add” 1 time; it must not");
  g_assert_cmpstr (json_array_get_string_element (failures, 2), ==,
                   "no fact “city” was proposed: the scenario has no workspace");
  g_assert_cmpint (json_object_get_int_member (row (report, 0), "input_tokens"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (row (report, 0), "output_tokens"), ==, 2);

  /* The summary table a person reads has the tokens too. */
  cli (f, "eval", path);
  g_assert_nonnull (strstr (f->out, "7/2"));
  g_assert_nonnull (strstr (f->out, "0 of 1 scenario run passed."));
}

/* ---- bad input ---------------------------------------------------------------- */

static void
test_eval_bad_options (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *dir = g_build_filename (g_getenv ("TOOLBENCH_SOURCE_ROOT"), "tests", "loop",
                                           "scenarios", NULL);
  g_autofree char *traces = path_in (f, "traces");

  cli (f, "eval", "--scenarios", dir, "--jobs", "0");
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "--jobs takes a number of runs from 1 to 256"));

  cli (f, "eval", "--scenarios", dir, "--jobs", "10000");
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->err, "--jobs 10000 is more than 256; running 256 side by side"));
  g_assert_nonnull (strstr (f->out, "10 of 10 scenario runs passed."));

  /* A report that cannot be written: nothing runs. */
  cli (f, "eval", "--scenarios", dir, "--junit", "/nonexistent/dir/junit.xml", "--traces",
       traces);
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "Cannot write “/nonexistent/dir/junit.xml”"));
  g_assert_nonnull (strstr (f->err, "nothing was run"));
  g_assert_false (g_file_test (traces, G_FILE_TEST_EXISTS));

  cli (f, "eval", "--scenarios", dir, "--models", "a,b");
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "--models is for a live --provider"));
}

static gboolean
file_has_text (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) && *contents != '\0';
}

static gboolean
process_gone (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *end;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return TRUE;
  /* "pid (comm) S …": a zombie has exited. */
  end = strrchr (stat, ')');
  return end != NULL && end[1] == ' ' && end[2] == 'Z';
}

/* Runs `eval` on a scenario whose MCP server is `/bin/sh -c @server_body`
 * (after it writes its pid), interrupts it @settle_us after the server
 * started, and checks what every interrupted evaluation must do: exit 4,
 * write the partial report, mark the scenario that did not start, and
 * leave no server behind. Returns the report's row of the interrupted
 * scenario. */
static JsonObject *
interrupt_eval (Fixture    *f,
                const char *server_body,
                gulong      settle_us,
                JsonNode  **report)
{
  g_autofree char *dir = path_in (f, "slow");
  g_autofree char *pidfile = path_in (f, "server.pid");
  g_autofree char *wrapper = path_in (f, "server.sh");
  g_autofree char *wrapper_text = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *report_path = path_in (f, "partial.json");
  g_autofree char *pid_text = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli_path = g_getenv ("TOOLBENCH_CLI");
  pid_t server;

  /* The server says who it is, then waits for the client. */
  wrapper_text = g_strdup_printf ("#!/bin/sh\necho $$ > '%s'\n%s\n", pidfile, server_body);
  write_in (f, "server.sh", wrapper_text);
  g_assert_cmpint (g_chmod (wrapper, 0755), ==, 0);
  scenario = g_strdup_printf ("{\"format\":\"toolbench-scenario\",\"version\":1,"
                              "\"name\":\"slow-model\",\"prompt\":\"x\","
                              "\"mcpServers\":{\"everything\":{\"command\":\"%s\"}},"
                              "\"script\":[{\"text\":\"late\",\"delay_ms\":60000}],"
                              "\"expect\":{\"state\":\"finished\"}}", wrapper);
  write_in (f, "slow/slow.json", scenario);
  write_in (f, "slow/zz-waiting.json",
            "{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"never-started\","
            "\"prompt\":\"x\",\"script\":[{\"text\":\"x\"}],\"expect\":{}}");

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error, cli_path, "eval", "--scenarios", dir, "--jobs", "1",
                              "--json-file", report_path, NULL);
  g_assert_no_error (error);
  for (guint i = 0; i < 300 && !file_has_text (pidfile); i++)
    g_usleep (100 * 1000);
  g_assert_true (file_has_text (pidfile));
  g_assert_true (g_file_get_contents (pidfile, &pid_text, NULL, NULL));
  server = (pid_t) g_ascii_strtoll (pid_text, NULL, 10);
  g_assert_cmpint (server, >, 0);
  g_usleep (settle_us);

  g_subprocess_send_signal (process, SIGINT);
  g_assert_true (g_subprocess_wait (process, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 4);

  /* The partial report: the other scenario did not start. */
  *report = tb_json_parse_file (report_path, TB_JSON_MAX_SIZE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (row (*report, 1), "status"), ==, "not-run");

  /* And the server is gone (or only its exit status is left): its
   * watchdog stops it within moments. */
  for (guint i = 0; i < 100 && !process_gone (server); i++)
    g_usleep (50 * 1000);
  g_assert_true (process_gone (server));

  return row (*report, 0);
}

/* Interrupted while the model's turn runs, the scenario ended cancelled. */
static void
test_eval_interrupted (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) report = NULL;
  JsonObject *interrupted;

  if (!need_server (f))
    return;

  body = g_strdup_printf ("exec '%s' '%s' stdio", argv[0], argv[1]);
  /* Let the handshake finish and the model turn start; on a busy machine
   * it may not have, which the next test covers. */
  interrupted = interrupt_eval (f, body, 1500 * 1000, &report);
  g_assert_cmpstr (tb_json_object_get_string (interrupted, "state"), ==, "cancelled");
}

/* Interrupted while its server has not answered yet, the scenario ended
 * cancelled too, and says when. */
static void
test_eval_interrupted_starting (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(JsonNode) report = NULL;
  JsonObject *interrupted;
  JsonArray *failures;

  interrupted = interrupt_eval (f, "exec sleep 60", 200 * 1000, &report);
  g_assert_cmpstr (tb_json_object_get_string (interrupted, "state"), ==, "cancelled");
  g_assert_cmpstr (tb_json_object_get_string (interrupted, "status"), ==, "failed");
  failures = json_object_get_array_member (interrupted, "failures");
  g_assert_cmpuint (json_array_get_length (failures), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (failures, 0), ==,
                   "The run was interrupted while its tools were starting");
}

/* ---- replay --check of many traces ------------------------------------------- */

static void
test_replay_many (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *script = path_in (f, "add.json");
  g_autofree char *junit = path_in (f, "replay.xml");
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *one = NULL;
  g_autofree char *four = NULL;

  write_in (f, "add.json",
            "[{\"tool_calls\":[{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}]},"
            "{\"text\":\"5\"}]");
  g_ptr_array_add (args, g_strdup ("replay"));
  g_ptr_array_add (args, g_strdup ("--check"));
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%02u.jsonl", i);
      g_autofree char *trace = path_in (f, name);

      cli (f, "run", "--script", script, "--prompt", "2+3?", "-n", "3", "--trace", trace);
      g_assert_cmpint (f->status, ==, 0);
      if (i == 13)
        {
          g_autofree char *contents = NULL;
          g_autoptr(GString) tampered = NULL;

          /* The recorded sum is not what add says now. */
          g_assert_true (g_file_get_contents (trace, &contents, NULL, NULL));
          tampered = g_string_new (contents);
          g_assert_cmpuint (g_string_replace (tampered, "\"output\":5,", "\"output\":6,", 0),
                            ==, 1);
          g_assert_true (g_file_set_contents (trace, tampered->str, -1, NULL));
        }
      g_ptr_array_add (args, g_steal_pointer (&trace));
    }

  g_ptr_array_add (args, g_strdup ("--jobs"));
  g_ptr_array_add (args, g_strdup ("1"));
  g_ptr_array_add (args, NULL);
  cli_argv (f, (const char * const *) args->pdata);
  g_assert_cmpint (f->status, ==, 1);
  one = g_strdup (f->out);
  g_assert_nonnull (strstr (one, "19 of 20 traces replayed without divergence."));
  g_assert_nonnull (strstr (one, "DIVERGED"));
  g_assert_nonnull (strstr (one, "t13.jsonl: step 1 diverged"));

  g_ptr_array_remove_index (args, args->len - 1);
  g_ptr_array_remove_index (args, args->len - 1);
  g_ptr_array_add (args, g_strdup ("4"));
  g_ptr_array_add (args, g_strdup ("--junit"));
  g_ptr_array_add (args, g_strdup (junit));
  g_ptr_array_add (args, NULL);
  cli_argv (f, (const char * const *) args->pdata);
  g_assert_cmpint (f->status, ==, 1);
  four = g_strdup (f->out);
  g_assert_cmpstr (one, ==, four);
  assert_junit_valid (junit);

  /* Several traces only make sense as a check. */
  cli (f, "replay", g_ptr_array_index (args, 2), g_ptr_array_index (args, 3));
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "Several traces, or --junit, need --check"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/headless/run-mcp", Fixture, NULL, setup, test_run_mcp, teardown);
  g_test_add ("/headless/eval-sources", Fixture, NULL, setup, test_eval_sources, teardown);
  g_test_add ("/headless/eval-checks-fail", Fixture, NULL, setup, test_eval_checks_fail,
              teardown);
  g_test_add ("/headless/eval-bad-options", Fixture, NULL, setup, test_eval_bad_options,
              teardown);
  g_test_add ("/headless/eval-interrupted-starting", Fixture, NULL, setup,
              test_eval_interrupted_starting, teardown);
  g_test_add ("/headless/eval-interrupted", Fixture, NULL, setup, test_eval_interrupted,
              teardown);
  g_test_add ("/headless/replay-many", Fixture, NULL, setup, test_replay_many, teardown);

  return g_test_run ();
}
