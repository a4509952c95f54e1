/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-cli.h"

typedef struct
{
  GMainLoop    *main_loop;
  TbEvalResult *result;
  GError       *error;
} Wait;

static void
scenario_done (GObject      *object,
               GAsyncResult *res,
               gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = tb_eval_scenario_run_finish (TB_EVAL_SCENARIO (object), res, &wait->error);
  g_main_loop_quit (wait->main_loop);
}

static TbEvalResult *
run_one (TbEvalScenario  *scenario,
         TbProvider      *provider,
         TbToolRegistry  *base,
         GError         **error)
{
  g_autoptr(GMainLoop) main_loop = g_main_loop_new (NULL, FALSE);
  Wait wait = { main_loop, NULL, NULL };

  tb_eval_scenario_run_async (scenario, provider, base, NULL, scenario_done, &wait);
  g_main_loop_run (main_loop);
  if (wait.error != NULL)
    g_propagate_error (error, wait.error);
  return wait.result;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
list_scenarios (const char  *dir,
                GError     **error)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, error);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (handle == NULL)
    return NULL;
  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, compare_names);
  return g_steal_pointer (&paths);
}

static gboolean
is_loopback (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  return g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "localhost") == 0;
}

static void
report (JsonArray    *rows,
        gboolean      json,
        const char   *model,
        const char   *scenario,
        TbEvalResult *result,
        const char   *problem)
{
  JsonObject *row = json_object_new ();
  const char *verdict = problem != NULL ? _("error") : result->passed ? _("pass") : _("FAIL");

  json_object_set_string_member (row, "model", model);
  json_object_set_string_member (row, "scenario", scenario);
  json_object_set_boolean_member (row, "passed", problem == NULL && result->passed);

  if (problem != NULL)
    {
      json_object_set_string_member (row, "error", problem);
      if (!json)
        g_print ("%-20s %-28s %-6s %s\n", model, scenario, verdict, problem);
      json_array_add_object_element (rows, row);
      return;
    }

  {
    double rate = result->calls > 0 ? 100.0 * result->invalid_calls / result->calls : 0.0;
    JsonArray *failures = json_array_new ();

    json_object_set_int_member (row, "calls", result->calls);
    json_object_set_int_member (row, "invalid_calls", result->invalid_calls);
    json_object_set_double_member (row, "invalid_argument_rate",
                                   result->calls > 0 ? (double) result->invalid_calls
                                                       / result->calls : 0.0);
    json_object_set_int_member (row, "iterations", result->iterations);
    json_object_set_string_member (row, "state", tb_loop_state_to_string (result->state));
    for (guint i = 0; i < result->failures->len; i++)
      json_array_add_string_element (failures, g_ptr_array_index (result->failures, i));
    json_object_set_array_member (row, "failures", failures);

    if (!json)
      {
        g_print ("%-20s %-28s %-6s %5u %7.0f%% %10u  %s\n", model, scenario, verdict,
                 result->calls, rate, result->iterations,
                 tb_loop_state_to_string (result->state));
        for (guint i = 0; i < result->failures->len; i++)
          g_print ("    - %s\n", (const char *) g_ptr_array_index (result->failures, i));
      }
  }
  json_array_add_object_element (rows, row);
}

int
tb_cli_eval (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GPtrArray) scenarios = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(TbToolRegistry) base = NULL;
  g_autoptr(JsonArray) rows = json_array_new ();
  g_autofree char *dir = NULL;
  g_autofree char *provider_kind = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *models_text = NULL;
  g_autofree char *key_variable = NULL;
  g_auto(GStrv) models = NULL;
  gboolean json = FALSE;
  gboolean live;
  guint passed = 0;
  guint total = 0;
  const GOptionEntry entries[] = {
    { "scenarios", 's', 0, G_OPTION_ARG_FILENAME, &dir,
      N_("The folder of scenario files (*.json)"), N_("DIR") },
    { "provider", 'p', 0, G_OPTION_ARG_STRING, &provider_kind,
      N_("scripted (default: offline, each scenario's script), openai, anthropic or gemini"),
      N_("NAME") },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url,
      N_("The provider's base URL, e.g. https://openrouter.ai/api/v1"), N_("URL") },
    { "models", 'm', 0, G_OPTION_ARG_STRING, &models_text,
      N_("The models to evaluate, separated by commas"), N_("M1,M2,…") },
    { "api-key-env", 0, 0, G_OPTION_ARG_STRING, &key_variable,
      N_("The environment variable holding the key (default: OPENROUTER_API_KEY for openai, "
         "ANTHROPIC_API_KEY, GEMINI_API_KEY)"), N_("VAR") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the results as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context,
                                _("Run evaluation scenarios. Offline and deterministic with "
                                  "each scenario's script by default; against live models "
                                  "with --provider and --models when the key variable is set.\n\n"
                                  "Exit status: 0 when every scenario passed, 1 otherwise, "
                                  "2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc > 1)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[1]);
  if (dir == NULL)
    return tb_cli_usage_error (context, _("Name the scenario folder with --scenarios DIR"));

  live = provider_kind != NULL && !g_str_equal (provider_kind, "scripted");
  if (live)
    {
      const char *variable = key_variable;

      if (models_text == NULL)
        return tb_cli_usage_error (context, _("Name the models to evaluate with --models"));
      models = g_strsplit (models_text, ",", -1);
      if (variable == NULL)
        variable = g_str_equal (provider_kind, "anthropic") ? "ANTHROPIC_API_KEY"
                   : g_str_equal (provider_kind, "gemini") ? "GEMINI_API_KEY"
                   : "OPENROUTER_API_KEY";
      if (key_variable == NULL)
        key_variable = g_strdup (variable);
      if ((g_getenv (variable) == NULL || *g_getenv (variable) == '\0') && !is_loopback (base_url))
        {
          g_printerr (_("toolbench-cli: live evaluation needs a key in $%s; nothing was run. "
                        "Without --provider the scenarios run offline.\n"), variable);
          return TB_CLI_EXIT_USAGE;
        }
    }
  else
    {
      models = g_new0 (char *, 2);
      models[0] = g_strdup ("scripted");
    }

  paths = list_scenarios (dir, &error);
  if (paths == NULL)
    return tb_cli_usage_error (context, _("Cannot read the scenario folder: %s"), error->message);
  if (paths->len == 0)
    return tb_cli_usage_error (context, _("The folder “%s” holds no scenario (*.json)"), dir);

  base = tb_cli_build_registry (&error);
  if (base == NULL)
    {
      g_printerr ("toolbench-cli: %s\n", error->message);
      return TB_CLI_EXIT_FAILED;
    }

  if (!json)
    g_print ("%-20s %-28s %-6s %5s %8s %10s  %s\n", _("model"), _("scenario"), _("result"),
             _("calls"), _("invalid"), _("iterations"), _("end"));

  for (guint m = 0; models[m] != NULL; m++)
    {
      const char *model = g_strstrip (models[m]);
      guint model_passed = 0;
      guint model_runs = 0;
      guint model_calls = 0;
      guint model_invalid = 0;
      guint model_iterations = 0;

      for (guint i = 0; i < paths->len; i++)
        {
          const char *path = g_ptr_array_index (paths, i);
          g_autofree char *file_name = g_path_get_basename (path);
          g_autoptr(TbEvalScenario) scenario = NULL;
          g_autoptr(TbProvider) provider = NULL;
          g_autoptr(TbEvalResult) result = NULL;
          g_autoptr(GError) local_error = NULL;

          total++;
          scenario = tb_eval_scenario_new_from_file (path, &local_error);
          if (scenario == NULL)
            {
              report (rows, json, model, file_name, NULL, local_error->message);
              continue;
            }

          if (live)
            provider = tb_cli_make_provider (provider_kind, base_url, model, key_variable, NULL,
                                             &local_error);
          else
            provider = TB_PROVIDER (tb_eval_scenario_create_provider (scenario, &local_error));
          if (provider == NULL)
            {
              report (rows, json, model, tb_eval_scenario_get_name (scenario), NULL,
                      local_error->message);
              continue;
            }

          result = run_one (scenario, provider, base, &local_error);
          if (result == NULL)
            {
              report (rows, json, model, tb_eval_scenario_get_name (scenario), NULL,
                      local_error->message);
              continue;
            }

          report (rows, json, model, tb_eval_scenario_get_name (scenario), result, NULL);
          if (result->passed)
            {
              passed++;
              model_passed++;
            }
          model_runs++;
          model_calls += result->calls;
          model_invalid += result->invalid_calls;
          model_iterations += result->iterations;
        }

      if (!json && model_runs > 0)
        /* Translators: a summary per model: name, passed, runs, calls,
         * percentage of invalid arguments, mean iterations */
        g_print (_("%s: %u of %u passed, %u calls, %.0f%% with invalid arguments, "
                   "%.1f iterations on average\n"),
                 model, model_passed, model_runs, model_calls,
                 model_calls > 0 ? 100.0 * model_invalid / model_calls : 0.0,
                 (double) model_iterations / model_runs);
    }

  if (json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      json_node_set_array (node, rows);
      tb_cli_print_json (node, TRUE);
    }
  else
    {
      g_print (g_dngettext (GETTEXT_PACKAGE, "%u of %u scenario run passed.\n",
                            "%u of %u scenario runs passed.\n", total), passed, total);
    }

  return passed == total ? TB_CLI_EXIT_OK : TB_CLI_EXIT_FAILED;
}
