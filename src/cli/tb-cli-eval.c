/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>

#include "tb-cli.h"

/* toolbench-cli eval: the engine's TbEvalSuite, with the reports written
 * where the options say. */

static void
live_provider_free (gpointer data)
{
  tb_cli_provider_options_clear (data);
  g_free (data);
}

static TbProvider *
make_live_provider (TbEvalScenario  *scenario,
                    const char      *model,
                    gpointer         user_data,
                    GError         **error)
{
  return tb_cli_make_provider (user_data, model, NULL, error);
}

/* Writes one report; "-" is standard output. Returns whether it was. */
static gboolean
write_report (const char *path,
              const char *text)
{
  g_autoptr(GError) error = NULL;

  if (g_str_equal (path, "-"))
    {
      g_print ("%s", text);
      return TRUE;
    }
  if (g_file_set_contents (path, text, -1, &error))
    return TRUE;
  g_printerr ("toolbench-cli: %s\n", error->message);
  return FALSE;
}

static void
print_table (GListModel *cells)
{
  g_autoptr(GPtrArray) summaries = tb_eval_report_summarize (cells);
  guint n = g_list_model_get_n_items (cells);
  guint passed = 0;

  g_print ("%-20s %-28s %-7s %5s %8s %10s  %s\n", _("model"), _("scenario"), _("result"),
           _("calls"), _("invalid"), _("iterations"), _("end"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);
      TbEvalResult *result = tb_eval_cell_get_result (cell);
      const char *verdict;

      switch (tb_eval_cell_get_status (cell))
        {
        case TB_EVAL_CELL_PASSED: verdict = _("pass"); passed++; break;
        case TB_EVAL_CELL_FAILED: verdict = _("FAIL"); break;
        case TB_EVAL_CELL_ERROR: verdict = _("error"); break;
        case TB_EVAL_CELL_NOT_RUN:
        case TB_EVAL_CELL_WAITING:
        case TB_EVAL_CELL_RUNNING:
        default: verdict = _("not run"); break;
        }

      if (result == NULL)
        {
          g_print ("%-20s %-28s %-7s %s\n", tb_eval_cell_get_model (cell),
                   tb_eval_cell_get_scenario (cell), verdict,
                   tb_eval_cell_get_error (cell) != NULL ? tb_eval_cell_get_error (cell) : "");
          continue;
        }
      g_print ("%-20s %-28s %-7s %5u %7.0f%% %10u  %s\n", tb_eval_cell_get_model (cell),
               tb_eval_cell_get_scenario (cell), verdict, result->calls,
               result->calls > 0 ? 100.0 * result->invalid_calls / result->calls : 0.0,
               result->iterations, tb_loop_state_to_string (result->state));
      for (guint j = 0; j < result->failures->len; j++)
        g_print ("    - %s\n", (const char *) g_ptr_array_index (result->failures, j));
    }

  g_print ("\n%-20s %9s %7s %8s %10s %9s %17s\n", _("model"), _("passed"), _("calls"),
           _("invalid"), _("iterations"), _("time (s)"), _("tokens in/out"));
  for (guint i = 0; i < summaries->len; i++)
    {
      TbEvalSummary *summary = g_ptr_array_index (summaries, i);
      g_autofree char *ratio = g_strdup_printf ("%u/%u", summary->passed, summary->runs);
      g_autofree char *tokens = g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                                 summary->input_tokens, summary->output_tokens);

      g_print ("%-20s %9s %7u %7.0f%% %10u %9.2f %17s\n", summary->model, ratio, summary->calls,
               summary->calls > 0 ? 100.0 * summary->invalid_calls / summary->calls : 0.0,
               summary->iterations, summary->duration_ms / 1000.0, tokens);
    }
  g_print (g_dngettext (GETTEXT_PACKAGE, "%u of %u scenario run passed.\n",
                        "%u of %u scenario runs passed.\n", n), passed, n);
}

int
tb_cli_eval (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbEvalSuite) suite = tb_eval_suite_new ();
  g_autoptr(TbToolSourceSet) sources = NULL;
  g_autoptr(TbRedactor) redactor = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) dirs = NULL;
  g_auto(TbCliProviderOptions) provider_options = { NULL };
  g_autofree char *models_text = NULL;
  g_autofree char *junit_path = NULL;
  g_autofree char *html_path = NULL;
  g_autofree char *json_path = NULL;
  g_autofree char *trace_dir = NULL;
  gboolean json = FALSE;
  gint jobs = -1;
  gboolean live;
  GListModel *cells;
  TbCliInterrupt *watch;
  gboolean all_passed = TRUE;
  gboolean interrupted;
  int status = TB_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "scenarios", 's', 0, G_OPTION_ARG_FILENAME_ARRAY, &dirs,
      N_("A folder of scenario files (*.json); repeatable. Scenario files may also be named "
         "after the options"), N_("DIR") },
    { "models", 'm', 0, G_OPTION_ARG_STRING, &models_text,
      N_("The models to evaluate, separated by commas"), N_("M1,M2,…") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
      N_("How many runs go side by side (default: the number of processors)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the report as JSON instead of the table"), NULL },
    { "json-file", 0, 0, G_OPTION_ARG_FILENAME, &json_path,
      N_("Also write the JSON report to FILE (the app opens it)"), N_("FILE") },
    { "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit_path,
      N_("Write a JUnit XML report: one test case per scenario and model"), N_("FILE") },
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &html_path,
      N_("Write a self-contained HTML report with every run's conversation"), N_("FILE") },
    { "traces", 0, 0, G_OPTION_ARG_FILENAME, &trace_dir,
      N_("Save every run's trace in this folder"), N_("DIR") },
    { NULL }
  };

  context = tb_cli_context_new (_("[SCENARIO…]"),
                                _("Run evaluation scenarios. Offline and deterministic with "
                                  "each scenario's script by default; against live models "
                                  "with --provider and --models when the key variable is set. "
                                  "Each run starts its own tools: the scenario's MCP servers, "
                                  "manifests and workspace copy, and those of the options.\n\n"
                                  "Exit status: 0 when every scenario passed, 1 otherwise, "
                                  "2 on a usage error, 4 when interrupted."), NULL);
  tb_cli_add_provider_options (context, &provider_options,
                               N_("scripted (default: offline, each scenario's script) or a "
                                  "provider kind listed below"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!tb_cli_parse_options (context, &argc, &argv, TRUE, &error) ||
      !tb_cli_check_provider_kind (&provider_options, TRUE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (dirs == NULL && argc < 2)
    return tb_cli_usage_error (context, _("Name the scenarios: --scenarios DIR, or files"));

  if (jobs == 0 || jobs < -1)
    return tb_cli_usage_error (context, _("--jobs takes a number of runs from 1 to %d"),
                               TB_CLI_MAX_JOBS);
  if (jobs > TB_CLI_MAX_JOBS)
    {
      g_printerr (_("toolbench-cli: --jobs %d is more than %d; running %d side by side\n"),
                  jobs, TB_CLI_MAX_JOBS, TB_CLI_MAX_JOBS);
      jobs = TB_CLI_MAX_JOBS;
    }
  if (jobs > 0)
    tb_eval_suite_set_jobs (suite, jobs);

  live = provider_options.kind != NULL && !g_str_equal (provider_options.kind, "scripted");
  if (live)
    {
      g_auto(GStrv) models = NULL;
      TbCliProviderOptions *provider;

      if (models_text == NULL)
        return tb_cli_usage_error (context, _("Name the models to evaluate with --models"));
      if (!tb_cli_provider_options_has_key (&provider_options))
        {
          g_printerr (_("toolbench-cli: live evaluation needs a key in $%s; nothing was run. "
                        "Without --provider the scenarios run offline.\n"),
                      tb_cli_provider_options_get_key_variable (&provider_options));
          return TB_CLI_EXIT_USAGE;
        }
      models = g_strsplit (models_text, ",", -1);
      for (guint i = 0; models[i] != NULL; i++)
        if (*g_strstrip (models[i]) == '\0')
          return tb_cli_usage_error (context, _("--models has an empty name in “%s”"),
                                     models_text);
      tb_eval_suite_set_models (suite, (const char * const *) models);

      provider = g_new0 (TbCliProviderOptions, 1);
      provider->kind = g_strdup (provider_options.kind);
      provider->base_url = g_strdup (provider_options.base_url);
      provider->key_variable = g_strdup (provider_options.key_variable);
      tb_eval_suite_set_provider_func (suite, make_live_provider, provider, live_provider_free);
    }
  else if (models_text != NULL)
    return tb_cli_usage_error (context, _("--models is for a live --provider; offline, each "
                                          "scenario plays its own script"));

  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    if (!tb_eval_suite_add_folder (suite, dirs[i], &error))
      return tb_cli_usage_error (context, _("Cannot use the scenario folder: %s"), error->message);
  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          if (!tb_eval_suite_add_folder (suite, argv[i], &error))
            return tb_cli_usage_error (context, _("Cannot use the scenario folder: %s"),
                                       error->message);
        }
      else
        tb_eval_suite_add_file (suite, argv[i]);
    }

  if (!tb_cli_check_writable (junit_path, &error) || !tb_cli_check_writable (html_path, &error) ||
      !tb_cli_check_writable (json_path, &error))
    {
      g_printerr (_("toolbench-cli: %s; nothing was run\n"), error->message);
      return TB_CLI_EXIT_USAGE;
    }
  if (trace_dir != NULL && g_mkdir_with_parents (trace_dir, 0755) != 0)
    {
      int saved = errno;

      g_printerr (_("toolbench-cli: cannot create the trace folder “%s”: %s; nothing was run\n"),
                  trace_dir, g_strerror (saved));
      return TB_CLI_EXIT_USAGE;
    }

  sources = tb_cli_get_tool_sources (TRUE, &error);
  if (sources == NULL)
    {
      g_printerr ("toolbench-cli: %s\n", error->message);
      return TB_CLI_EXIT_USAGE;
    }
  redactor = tb_cli_new_redactor (tb_cli_provider_options_get_key_variable (&provider_options));
  tb_eval_suite_set_sources (suite, sources);
  tb_eval_suite_set_redactor (suite, redactor);
  tb_eval_suite_set_trace_dir (suite, trace_dir);

  watch = tb_cli_interrupt_watch (cancellable,
                                  _("toolbench-cli: interrupted; stopping the runs and their "
                                    "servers, then writing what finished"));
  tb_eval_suite_run_async (suite, cancellable, tb_cli_keep_result, &result);
  tb_cli_wait_for (&result);
  g_clear_pointer (&watch, tb_cli_interrupt_unwatch);
  interrupted = !tb_eval_suite_run_finish (suite, result, NULL);

  cells = tb_eval_suite_get_cells (suite);
  for (guint i = 0; i < g_list_model_get_n_items (cells); i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);

      all_passed &= tb_eval_cell_get_status (cell) == TB_EVAL_CELL_PASSED;
    }

  if (json || json_path != NULL)
    {
      g_autoptr(JsonNode) node = tb_eval_report_to_json (cells);
      g_autofree char *text = tb_json_to_string (node, TRUE);

      if (json)
        tb_cli_print_json (node, TRUE);
      if (json_path != NULL && !write_report (json_path, text))
        status = TB_CLI_EXIT_FAILED;
    }
  if (!json)
    print_table (cells);
  if (junit_path != NULL)
    {
      g_autofree char *text = tb_eval_report_to_junit (cells, "toolbench eval");

      if (!write_report (junit_path, text))
        status = TB_CLI_EXIT_FAILED;
    }
  if (html_path != NULL)
    {
      g_autofree char *text = tb_eval_report_to_html (cells, redactor);

      if (!write_report (html_path, text))
        status = TB_CLI_EXIT_FAILED;
    }

  if (interrupted)
    return TB_CLI_EXIT_CANCELLED;
  if (status != TB_CLI_EXIT_OK)
    return status;
  return all_passed ? TB_CLI_EXIT_OK : TB_CLI_EXIT_FAILED;
}
