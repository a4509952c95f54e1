/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-cli-loop"

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <toolbench.h>

/* toolbench-cli run and eval, as a person or CI would call them. */

typedef struct
{
  char *out;
  char *err;
  int   status;
} Output;

static void
output_clear (Output *output)
{
  g_clear_pointer (&output->out, g_free);
  g_clear_pointer (&output->err, g_free);
}

static void
cli (Output     *output,
     const char *input,
     ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list ap;

  g_ptr_array_add (args, (char *) g_getenv ("TOOLBENCH_CLI"));
  va_start (ap, input);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  process = g_subprocess_newv ((const char * const *) args->pdata,
                               G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, input != NULL ? input : "", NULL, &output->out,
                                 &output->err, &error);
  g_assert_no_error (error);
  output->status = g_subprocess_get_exit_status (process);
}

static char *
scenario_dir (const char *name)
{
  return g_build_filename (g_getenv ("TOOLBENCH_SOURCE_ROOT"), "tests", "loop", name, NULL);
}

static void
test_eval_offline (void)
{
  g_autofree char *dir = scenario_dir ("scenarios");
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  Output output = { 0 };
  JsonArray *rows;

  cli (&output, NULL, "eval", "--scenarios", dir, "--json", NULL);
  g_assert_cmpint (output.status, ==, 0);
  node = tb_json_parse (output.out, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "format"), ==,
                   "toolbench-eval-report");
  rows = json_object_get_array_member (json_node_get_object (node), "results");
  g_assert_cmpuint (json_array_get_length (rows), ==, 10);

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      const char *name = json_object_get_string_member (row, "scenario");

      g_assert_true (json_object_get_boolean_member (row, "passed"));
      g_assert_cmpstr (json_object_get_string_member (row, "model"), ==, "scripted");
      if (g_str_equal (name, "invalid-then-corrected"))
        {
          g_assert_cmpint (json_object_get_int_member (row, "calls"), ==, 3);
          g_assert_cmpint (json_object_get_int_member (row, "invalid_calls"), ==, 2);
        }
      if (g_str_equal (name, "iteration-cap"))
        g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "limit-reached");
      if (g_str_equal (name, "cancel-mid-request"))
        g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "cancelled");
    }
  output_clear (&output);

  /* The table a person reads. */
  cli (&output, NULL, "eval", "--scenarios", dir, NULL);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_nonnull (strstr (output.out, "10 of 10 scenario runs passed."));
  g_assert_nonnull (strstr (output.out, "invalid-then-corrected"));
  output_clear (&output);
}

static void
test_eval_failures (void)
{
  g_autofree char *dir = scenario_dir ("scenarios-failing");
  Output output = { 0 };

  cli (&output, NULL, "eval", "--scenarios", dir, NULL);
  g_assert_cmpint (output.status, ==, 1);
  g_assert_nonnull (strstr (output.out, "call 1 has arguments {\"a\":2,\"b\":4}, "
                                        "expected {\"a\":2,\"b\":3}"));
  g_assert_nonnull (strstr (output.out, "is not JSON"));
  g_assert_nonnull (strstr (output.out, "0 of 2 scenario runs passed."));
  output_clear (&output);
}

static void
test_eval_live_needs_key (void)
{
  g_autofree char *dir = scenario_dir ("scenarios");
  Output output = { 0 };

  if (g_getenv ("TB_TEST_UNSET_KEY") != NULL && *g_getenv ("TB_TEST_UNSET_KEY") != '\0')
    {
      g_test_skip ("TB_TEST_UNSET_KEY is set in the environment");
      return;
    }

  /* Never contacts anything without a key. */
  cli (&output, NULL, "eval", "--scenarios", dir, "--provider", "openai",
       "--base-url", "https://example.invalid/v1", "--models", "a,b",
       "--api-key-env", "TB_TEST_UNSET_KEY", NULL);
  g_assert_cmpint (output.status, ==, 2);
  g_assert_nonnull (strstr (output.err, "needs a key in $TB_TEST_UNSET_KEY"));
  output_clear (&output);
}

static void
test_run_demo (void)
{
  Output output = { 0 };

  cli (&output, NULL, "run", "--prompt", "What is 2 + 3?", "--max-iterations", "5", NULL);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_cmpstr (output.out, ==,
                   "user: What is 2 + 3?\n"
                   "assistant: Let me add those numbers.\n"
                   "assistant calls add {\"a\":2,\"b\":3} [demo_1]\n"
                   "tool add [demo_1]: 5\n"
                   "assistant calls echo {\"text\":\"2 + 3 = 5\"} [demo_2]\n"
                   "tool echo [demo_2]: 2 + 3 = 5\n"
                   "assistant: 2 + 3 = 5. I used the add tool for the sum and the echo tool to "
                   "confirm it.\n");
  g_assert_nonnull (strstr (output.err, "finished after 3 iterations"));
  output_clear (&output);
}

static void
test_run_statuses (void)
{
  Output output = { 0 };

  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "2", NULL);
  g_assert_cmpint (output.status, ==, 3);
  g_assert_nonnull (strstr (output.err, "reached its cap of 2 iterations"));
  output_clear (&output);

  cli (&output, NULL, "run", "--prompt", "x", NULL);
  g_assert_cmpint (output.status, ==, 2);
  g_assert_nonnull (strstr (output.err, "--max-iterations"));
  output_clear (&output);

  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "3", "--provider", "openai",
       NULL);
  g_assert_cmpint (output.status, ==, 2);
  g_assert_nonnull (strstr (output.err, "needs --model"));
  output_clear (&output);

  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "3", "--break", "echo", NULL);
  g_assert_cmpint (output.status, ==, 5);
  output_clear (&output);

  /* A provider that cannot be reached: the loop fails with a sentence. */
  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "3", "--provider", "openai",
       "--model", "m", "--base-url", "http://127.0.0.1:1/v1", NULL);
  g_assert_cmpint (output.status, ==, 1);
  g_assert_nonnull (strstr (output.err, "the loop failed: "));
  output_clear (&output);
}

static void
test_run_approval (void)
{
  Output output = { 0 };

  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "5", "--approve", "none",
       NULL);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_nonnull (strstr (output.out, "tool add [demo_1]: Error: The person declined"));
  output_clear (&output);

  /* Ask: reject the first call, edit the second. */
  cli (&output, "r\ne\n{\"text\":\"edited\"}\n", "run", "--prompt", "x", "--max-iterations", "5",
       "--approve", "ask", NULL);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_nonnull (strstr (output.out, "tool add [demo_1]: Error: The person declined"));
  g_assert_nonnull (strstr (output.out, "tool echo [demo_2]: edited"));
  g_assert_nonnull (strstr (output.err, "[a]pprove, [e]dit, [s]kip, [r]eject"));
  output_clear (&output);

  /* Read-only: the demo tools say they are; echo, told it is not, is asked
   * about. */
  cli (&output, "r\n", "run", "--prompt", "x", "--max-iterations", "5", "--approve", "read-only",
       "--hint", "echo=", NULL);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_nonnull (strstr (output.out, "tool add [demo_1]: 5"));
  g_assert_nonnull (strstr (output.out, "tool echo [demo_2]: Error: The person declined"));
  g_assert_nonnull (strstr (output.err, "Run echo "));
  g_assert_null (strstr (output.err, "Run add "));
  output_clear (&output);

  /* A tool said to be destructive is asked about even when all run. */
  cli (&output, "a\n", "run", "--prompt", "x", "--max-iterations", "5", "--hint",
       "echo=destructive", NULL);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_nonnull (strstr (output.err, "Run echo "));
  g_assert_null (strstr (output.err, "Run add "));
  output_clear (&output);

  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "5", "--approve", "maybe",
       NULL);
  g_assert_cmpint (output.status, ==, 2);
  g_assert_nonnull (strstr (output.err, "Unknown --approve “maybe”: use all, none, ask or "
                                        "read-only"));
  output_clear (&output);
  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "5", "--hint", "echo=safe",
       NULL);
  g_assert_cmpint (output.status, ==, 2);
  g_assert_nonnull (strstr (output.err, "“safe” is not a tool hint"));
  output_clear (&output);
  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "5", "--hint", "echo", NULL);
  g_assert_cmpint (output.status, ==, 2);
  g_assert_nonnull (strstr (output.err, "--hint takes TOOL=HINTS"));
  output_clear (&output);
}

static void
test_run_trace (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tb-run-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "run.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  Output output = { 0 };
  guint n = 0;

  cli (&output, NULL, "run", "--prompt", "x", "--max-iterations", "5", "--trace", path, NULL);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);

  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++, n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = tb_json_parse (lines[i], -1, &error);
      JsonObject *object;

      g_assert_no_error (error);
      object = json_node_get_object (node);
      if (i == 0)
        {
          g_assert_cmpstr (json_object_get_string_member (object, "format"), ==,
                           "toolbench-trace");
          g_assert_cmpint (json_object_get_int_member (object, "version"), ==, 1);
          g_assert_true (json_object_has_member (object, "tools"));
        }
      else
        {
          g_assert_cmpint (json_object_get_int_member (object, "seq"), ==, i);
        }
    }
  g_assert_cmpuint (n, >, 2);
  g_assert_nonnull (strstr (lines[n - 1], "\"type\":\"end\""));
  output_clear (&output);
  g_unlink (path);
  g_rmdir (dir);
}

/* A run stopped by SIGTERM (a CI job cancelled) or Ctrl+C ends cancelled,
 * exit status 4, and its trace is complete up to there, with its end. */
static void
test_run_terminated (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tb-cli-term-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (dir, "slow.json", NULL);
  g_autofree char *trace = g_build_filename (dir, "run.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  int signals[] = { SIGTERM, SIGINT };

  g_assert_true (g_file_set_contents (script, "{\"format\":\"toolbench-script\",\"version\":1,"
                                              "\"responses\":[{\"text\":\"late\","
                                              "\"delay_ms\":60000}]}", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_clear_object (&process);
      g_clear_pointer (&contents, g_free);
      g_remove (trace);
      process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                  G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                                  g_getenv ("TOOLBENCH_CLI"), "run", "--script", script,
                                  "--prompt", "Hi", "-n", "3", "--trace", trace, NULL);
      g_assert_no_error (error);
      /* Wait until the model's turn has begun: the request is in the trace. */
      for (guint n = 0; n < 200; n++)
        {
          g_clear_pointer (&contents, g_free);
          if (g_file_get_contents (trace, &contents, NULL, NULL)
              && strstr (contents, "\"type\":\"request\"") != NULL)
            break;
          g_usleep (50 * 1000);
        }
      g_subprocess_send_signal (process, signals[i]);
      g_assert_true (g_subprocess_wait (process, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_exited (process));
      g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 4);
      g_clear_pointer (&contents, g_free);
      g_assert_true (g_file_get_contents (trace, &contents, NULL, NULL));
      g_assert_nonnull (strstr (contents, "\"type\":\"end\""));
      g_assert_nonnull (strstr (contents, "cancelled"));
    }
  g_remove (script);
  g_remove (trace);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("TOOLBENCH_CLI") == NULL || g_getenv ("TOOLBENCH_SOURCE_ROOT") == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI and TOOLBENCH_SOURCE_ROOT are not set; run through meson test");
      return g_test_run ();
    }

  g_test_add_func ("/cli/eval/offline", test_eval_offline);
  g_test_add_func ("/cli/eval/failures", test_eval_failures);
  g_test_add_func ("/cli/eval/live-needs-key", test_eval_live_needs_key);
  g_test_add_func ("/cli/run/demo", test_run_demo);
  g_test_add_func ("/cli/run/statuses", test_run_statuses);
  g_test_add_func ("/cli/run/approval", test_run_approval);
  g_test_add_func ("/cli/run/trace", test_run_trace);
  g_test_add_func ("/cli/run/terminated", test_run_terminated);

  return g_test_run ();
}
