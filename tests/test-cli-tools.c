/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

/* Runs the real toolbench-cli and checks what a person sees: standard
 * output, standard error and the exit status. */

typedef struct
{
  char *out;
  char *err;
  int   status;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
run_cli (Run        *run,
         const char *stdin_text,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  const char *arg;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, stdin_text);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDIN_PIPE |
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, stdin_text, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
}

static JsonNode *
parse_out (Run *run)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (run->out, -1, &error);

  g_assert_no_error (error);
  return node;
}

static void
test_list (void)
{
  g_auto(Run) run = { 0 };

  run_cli (&run, NULL, "list", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "echo"));
  g_assert_nonnull (strstr (run.out, "add"));
  g_assert_nonnull (strstr (run.out, "sleep"));
  g_assert_nonnull (strstr (run.out, "model"));
  g_assert_nonnull (strstr (run.out, "demo"));
}

static void
test_list_json (void)
{
  const char *formats[] = { "native", "openai", "anthropic", "gemini", "openai-responses" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_auto(Run) run = { 0 };
      g_autoptr(JsonNode) node = NULL;
      JsonArray *array;

      run_cli (&run, NULL, "list", "--json", "--format", formats[i], NULL);
      g_assert_cmpint (run.status, ==, 0);
      node = parse_out (&run);
      array = json_node_get_array (node);

      if (g_str_equal (formats[i], "openai"))
        {
          JsonObject *first = json_array_get_object_element (array, 0);

          g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "function");
          g_assert_cmpstr (json_object_get_string_member (
                             json_object_get_object_member (first, "function"), "name"),
                           ==, "echo");
        }
      else if (g_str_equal (formats[i], "openai-responses"))
        {
          JsonObject *first = json_array_get_object_element (array, 0);

          /* Flat, and strict mode off, which Responses would otherwise assume. */
          g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "function");
          g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "echo");
          g_assert_true (json_object_has_member (first, "strict"));
          g_assert_false (json_object_get_boolean_member (first, "strict"));
        }
      else if (g_str_equal (formats[i], "anthropic"))
        {
          g_assert_true (json_object_has_member (json_array_get_object_element (array, 0),
                                                 "input_schema"));
        }
      else if (g_str_equal (formats[i], "gemini"))
        {
          JsonObject *outer = json_array_get_object_element (array, 0);

          g_assert_cmpuint (json_array_get_length (
                              json_object_get_array_member (outer, "functionDeclarations")),
                            ==, 3);
        }
      else
        {
          g_assert_cmpuint (json_array_get_length (array), ==, 3);
        }
    }
}

static void
test_call_ok (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(JsonNode) node = NULL;
  JsonObject *envelope;

  run_cli (&run, NULL, "call", "add", "--args", "{\"a\": 2, \"b\": 3}", NULL);
  g_assert_cmpint (run.status, ==, 0);
  node = parse_out (&run);
  envelope = json_node_get_object (node);
  g_assert_true (json_object_get_boolean_member (envelope, "ok"));
  g_assert_cmpint (json_object_get_int_member (envelope, "data"), ==, 5);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (envelope, "errors")),
                    ==, 0);
}

static void
test_call_stdin (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(JsonNode) node = NULL;

  run_cli (&run, "{\"text\": \"from stdin\"}", "call", "echo", "--args-file", "-", NULL);
  g_assert_cmpint (run.status, ==, 0);
  node = parse_out (&run);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "data"), ==,
                   "from stdin");
}

static void
test_call_failures (void)
{
  static const struct { const char *name; const char *args; const char *kind; } cases[] = {
    { "add", "{\"a\": \"two\", \"b\": 3}", "invalid-arguments" },
    { "add", "[]", "invalid-arguments" },
    { "nope", "{}", "not-found" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) run = { 0 };
      g_autoptr(JsonNode) node = NULL;
      JsonObject *error;

      run_cli (&run, NULL, "call", cases[i].name, "--args", cases[i].args, NULL);
      g_assert_cmpint (run.status, ==, 1);
      node = parse_out (&run);
      g_assert_false (json_object_get_boolean_member (json_node_get_object (node), "ok"));
      error = json_array_get_object_element (
                json_object_get_array_member (json_node_get_object (node), "errors"), 0);
      g_assert_cmpstr (json_object_get_string_member (error, "kind"), ==, cases[i].kind);
    }
}

/* --no-validate sends what the schema refuses, exactly as written, and
 * says so. */
static void
test_call_no_validate (void)
{
  g_auto(Run) refused = { 0 };
  g_auto(Run) sent = { 0 };
  g_autoptr(JsonNode) node = NULL;
  JsonObject *result;
  const char *error;

  run_cli (&refused, NULL, "call", "add", "--args", "{\"a\": 2}", NULL);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_null (strstr (refused.err, "without being validated"));

  /* The tool itself now answers about the missing “b”. */
  run_cli (&sent, NULL, "call", "add", "--args", "{\"a\": 2}", "--no-validate", "--full",
           NULL);
  g_assert_cmpint (sent.status, ==, 1);
  g_assert_nonnull (strstr (sent.err, "without being validated"));
  node = parse_out (&sent);
  result = json_node_get_object (node);
  g_assert_true (json_object_get_boolean_member (
                   json_object_get_object_member (result, "metadata"), "unvalidated"));
  error = json_object_get_string_member (result, "error");
  g_assert_nonnull (strstr (error, "“b”"));
  g_assert_null (strstr (error, "not valid"));
}

static void
test_call_timeout (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(JsonNode) node = NULL;

  run_cli (&run, NULL, "call", "sleep", "--args", "{\"ms\": 5000}", "--timeout-ms", "100",
           "--full", NULL);
  g_assert_cmpint (run.status, ==, 1);
  node = parse_out (&run);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "kind"), ==,
                   "timeout");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "duration_us"),
                   >=, 100000);
}

static void
test_usage_errors (void)
{
  static const char *cases[][6] = {
    { NULL },
    { "frobnicate", NULL },
    { "call", NULL },
    { "call", "add", "--args", "{not json", NULL },
    { "call", "add", "--args", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", NULL },
    { "call", "add", "extra", NULL },
    { "list", "--format", "cobol", NULL },
    { "list", "--no-such-option", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) run = { 0 };

      run_cli (&run, NULL, cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.err, !=, "");
      g_assert_cmpstr (run.out, ==, "");
    }

  /* The arguments' own mistakes, worded the same for call and mcp call. */
  {
    const char *wrong[][3] = {
      { "--args", "{\"a\":1}", "Give the arguments with --args or --args-file, not both" },
      { "--args-file", "/nonexistent/args.json", "Cannot read the arguments: " },
      { "--args", "{not json", "The arguments are not usable: " },
    };

    for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
      {
        g_auto(Run) run = { 0 };

        if (i == 0)
          run_cli (&run, NULL, "call", "add", "--args", "{}", "--args-file", "-", NULL);
        else
          run_cli (&run, NULL, "call", "add", wrong[i][0], wrong[i][1], NULL);
        g_assert_cmpint (run.status, ==, 2);
        g_assert_nonnull (strstr (run.err, wrong[i][2]));
        g_assert_cmpstr (run.out, ==, "");
      }
  }
}

static void
test_help_version (void)
{
  g_auto(Run) help = { 0 };
  g_auto(Run) version = { 0 };

  run_cli (&help, NULL, "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "call"));

  run_cli (&version, NULL, "--version", NULL);
  g_assert_cmpint (version.status, ==, 0);
  g_assert_true (g_str_has_prefix (version.out, "toolbench-cli "));
}

static void
test_trace_show (void)
{
  g_autofree char *dir = g_dir_make_tmp ("toolbench-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.jsonl", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbTraceWriter) writer = tb_trace_writer_new (file, NULL, NULL, NULL);
  g_autoptr(JsonNode) call = tb_json_parse ("{\"type\":\"tool-call\",\"iteration\":1,"
                                            "\"call\":{\"id\":\"c1\",\"name\":\"echo\","
                                            "\"arguments\":{\"text\":\"hi\"}}}", -1, NULL);
  g_autoptr(JsonNode) decision = tb_json_parse ("{\"type\":\"decision\",\"iteration\":1,"
                                                "\"call_id\":\"c1\",\"decision\":\"reject\","
                                                "\"by\":\"person\"}", -1, NULL);
  g_autoptr(JsonNode) end = tb_json_parse ("{\"type\":\"end\",\"state\":\"finished\"}", -1,
                                           NULL);
  g_auto(Run) show = { 0 };
  g_auto(Run) json = { 0 };
  g_auto(Run) damaged = { 0 };
  g_auto(Run) usage = { 0 };
  g_autofree char *contents = NULL;
  g_autofree char *cut = NULL;

  g_assert_true (tb_trace_writer_append (writer, json_node_get_object (call), NULL));
  g_assert_true (tb_trace_writer_append (writer, json_node_get_object (decision), NULL));
  g_assert_true (tb_trace_writer_append (writer, json_node_get_object (end), NULL));
  g_assert_true (tb_trace_writer_close (writer, NULL));

  run_cli (&show, NULL, "trace", "show", path, NULL);
  g_assert_cmpint (show.status, ==, 0);
  g_assert_nonnull (strstr (show.out, "3 events"));
  /* Who did what, under the iteration's heading, the decision under its call. */
  g_assert_nonnull (strstr (show.out, "  Iteration 1\n"));
  g_assert_nonnull (strstr (show.out, " s    Model calls echo {text: \"hi\"}\n"));
  g_assert_nonnull (strstr (show.out, " s      You rejected echo\n"));
  g_assert_nonnull (strstr (show.out, " s  Finished\n"));

  run_cli (&json, NULL, "trace", "show", "--json", path, NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_true (g_str_has_prefix (json.out, "{\"format\":\"toolbench-trace\""));

  /* A trace cut off mid-line shows what it has and says what it lost. */
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  cut = g_strconcat (contents, "{\"seq\":4,\"t\"", NULL);
  g_assert_true (g_file_set_contents (bad, cut, -1, NULL));
  run_cli (&damaged, NULL, "trace", "show", bad, NULL);
  g_assert_cmpint (damaged.status, ==, 0);
  g_assert_nonnull (strstr (damaged.out, "3 events"));
  g_assert_nonnull (strstr (damaged.err, "incomplete"));

  run_cli (&usage, NULL, "trace", "frob", NULL);
  g_assert_cmpint (usage.status, ==, 2);

  g_unlink (path);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
test_trace_show_bad (void)
{
  g_auto(Run) run = { 0 };

  run_cli (&run, NULL, "trace", "show", "/nonexistent/trace.jsonl", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "Cannot open the trace"));
}

static void
test_replay (void)
{
  g_autofree char *dir = g_dir_make_tmp ("toolbench-cli-XXXXXX", NULL);
  g_autofree char *trace = g_build_filename (dir, "demo.jsonl", NULL);
  g_autofree char *fork = g_build_filename (dir, "fork.jsonl", NULL);
  g_auto(Run) run = { 0 };
  g_auto(Run) same = { 0 };
  g_auto(Run) mocked = { 0 };
  g_auto(Run) forked = { 0 };
  g_auto(Run) json = { 0 };
  g_auto(Run) usage = { 0 };
  g_auto(Run) missing = { 0 };
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;

  /* The demo loop, recorded, then replayed with no provider at all. */
  run_cli (&run, NULL, "run", "--prompt", "Add 2 and 3", "-n", "5", "--trace", trace, "-q", NULL);
  g_assert_cmpint (run.status, ==, 0);

  run_cli (&same, NULL, "replay", trace, "--check", NULL);
  g_assert_cmpint (same.status, ==, 0);
  g_assert_nonnull (strstr (same.out, "No divergence"));

  run_cli (&mocked, NULL, "replay", trace, "--mock-tools", "--check", NULL);
  g_assert_cmpint (mocked.status, ==, 0);

  /* A fork at step 1 with other arguments diverges there, and says so. */
  run_cli (&forked, NULL, "replay", trace, "--fork-step", "1",
           "--edit-arguments", "{\"a\": 40, \"b\": 2}", "--check", "--save", fork, NULL);
  g_assert_cmpint (forked.status, ==, 1);
  g_assert_nonnull (strstr (forked.out, "> step 1   different-arguments"));
  g_assert_true (g_file_test (fork, G_FILE_TEST_EXISTS));

  run_cli (&json, NULL, "replay", fork, "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  report = tb_json_parse (json.out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (json_node_get_object (report), "steps"));

  run_cli (&usage, NULL, "replay", trace, "--fork-step", "1", NULL);
  g_assert_cmpint (usage.status, ==, 2);

  run_cli (&missing, NULL, "replay", "/nonexistent.jsonl", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "Cannot open the trace"));

  g_unlink (trace);
  g_unlink (fork);
  g_rmdir (dir);
}

/* A recorded conversation as Responses input items, to paste elsewhere. */
static void
test_trace_export (void)
{
  g_autofree char *dir = g_dir_make_tmp ("toolbench-cli-XXXXXX", NULL);
  g_autofree char *trace = g_build_filename (dir, "demo.jsonl", NULL);
  g_auto(Run) run = { 0 };
  g_auto(Run) exported = { 0 };
  g_auto(Run) unknown = { 0 };
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  JsonArray *input;
  JsonObject *first;
  gboolean call = FALSE;
  gboolean output = FALSE;

  run_cli (&run, NULL, "run", "--prompt", "Add 2 and 3", "-n", "5", "--trace", trace, "-q", NULL);
  g_assert_cmpint (run.status, ==, 0);

  run_cli (&exported, NULL, "trace", "export", "--format", "openai-responses", trace, NULL);
  g_assert_cmpint (exported.status, ==, 0);
  node = parse_out (&exported);
  object = json_node_get_object (node);
  g_assert_false (json_object_has_member (object, "messages"));
  input = json_object_get_array_member (object, "input");
  first = json_array_get_object_element (input, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "message");
  g_assert_cmpstr (json_object_get_string_member (first, "role"), ==, "user");
  g_assert_cmpstr (json_object_get_string_member (first, "content"), ==, "Add 2 and 3");
  for (guint i = 0; i < json_array_get_length (input); i++)
    {
      JsonObject *item = json_array_get_object_element (input, i);
      const char *type = json_object_get_string_member (item, "type");

      if (g_str_equal (type, "function_call") &&
          g_str_equal (json_object_get_string_member (item, "name"), "add"))
        call = TRUE;
      else if (g_str_equal (type, "function_call_output") &&
               g_str_equal (json_object_get_string_member (item, "output"), "5"))
        output = TRUE;
    }
  g_assert_true (call && output);
  g_assert_false (json_object_get_boolean_member (
                    json_array_get_object_element (json_object_get_array_member (object, "tools"),
                                                   0), "strict"));

  run_cli (&unknown, NULL, "trace", "export", "--format", "cobol", trace, NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "Unknown format “cobol”: use openai, anthropic or "
                                         "openai-responses"));

  g_unlink (trace);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/list", test_list);
  g_test_add_func ("/cli/list-json", test_list_json);
  g_test_add_func ("/cli/call/ok", test_call_ok);
  g_test_add_func ("/cli/call/stdin", test_call_stdin);
  g_test_add_func ("/cli/call/failures", test_call_failures);
  g_test_add_func ("/cli/call/no-validate", test_call_no_validate);
  g_test_add_func ("/cli/call/timeout", test_call_timeout);
  g_test_add_func ("/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/cli/help-version", test_help_version);
  g_test_add_func ("/cli/trace/show", test_trace_show);
  g_test_add_func ("/cli/trace/show-bad", test_trace_show_bad);
  g_test_add_func ("/cli/trace/export", test_trace_export);
  g_test_add_func ("/cli/replay", test_replay);

  return g_test_run ();
}
