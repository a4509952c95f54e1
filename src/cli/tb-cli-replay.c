/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-cli.h"

typedef struct
{
  TbReplayReport *report;
  GError         *error;
  gboolean        done;
} ReplayState;

static void
replay_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ReplayState *state = user_data;

  state->report = tb_replay_run_finish (TB_REPLAY (object), result, &state->error);
  state->done = TRUE;
}

static gboolean
parse_edit (const char    *text,
            const char    *what,
            JsonNode     **node,
            GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  *node = tb_json_parse (text, -1, &local_error);
  if (*node == NULL)
    {
      /* Translators: the first %s names an option, the second is why */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s is not JSON: %s"), what,
                   local_error->message);
      return FALSE;
    }
  return TRUE;
}

int
tb_cli_replay (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTrace) trace = NULL;
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(JsonNode) edit_value = NULL;
  g_autofree char *save_path = NULL;
  g_autofree char *edit_arguments = NULL;
  g_autofree char *edit_result = NULL;
  g_autofree char *edit_turn = NULL;
  g_autofree char *key_variable = NULL;
  g_autoptr(TbRedactor) redactor = NULL;
  gboolean mock_tools = FALSE;
  gboolean check = FALSE;
  gboolean json = FALSE;
  gint fork_step = 0;
  gint jobs = -1;
  g_autofree char *junit_path = NULL;
  TbReplayEdit edit = TB_REPLAY_EDIT_NONE;
  ReplayState state = { NULL, NULL, FALSE };
  int status;
  const GOptionEntry entries[] = {
    { "mock-tools", 0, 0, G_OPTION_ARG_NONE, &mock_tools,
      N_("Give back the recorded tool results instead of running the tools"), NULL },
    { "check", 0, 0, G_OPTION_ARG_NONE, &check,
      N_("Exit with status 1 when the replay diverges from the recording (for CI)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the report as JSON"), NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
      N_("With --check and several traces: how many replay side by side (default: the number "
         "of processors)"), N_("N") },
    { "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit_path,
      N_("With --check: write a JUnit XML report, one test case per trace"), N_("FILE") },
    { "fork-step", 0, 0, G_OPTION_ARG_INT, &fork_step,
      N_("Fork at this step (1 for the first tool call, or the model turn with --edit-turn)"),
      N_("N") },
    { "edit-arguments", 0, 0, G_OPTION_ARG_STRING, &edit_arguments,
      N_("Fork: run the call at --fork-step with these arguments"), N_("JSON") },
    { "edit-result", 0, 0, G_OPTION_ARG_STRING, &edit_result,
      N_("Fork: skip the call at --fork-step and give the model this output"), N_("JSON") },
    { "edit-turn", 0, 0, G_OPTION_ARG_STRING, &edit_turn,
      N_("Fork: replace model turn --fork-step with this message "
         "({\"role\":\"assistant\",\"text\":…,\"tool_calls\":[…]})"), N_("JSON") },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &save_path,
      N_("Save the replayed run as a trace"), N_("FILE") },
    { "api-key-env", 0, 0, G_OPTION_ARG_STRING, &key_variable,
      N_("An environment variable holding a key to keep out of the report and the saved "
         "trace (the key variables of every provider kind always are)"),
      N_("VAR") },
    { NULL }
  };

  context = tb_cli_context_new (_("TRACE…"),
                                _("Replay a trace offline and report where the new run differs "
                                  "from the recorded one, step by step.\n\n"
                                  "The model's turns come from the trace; no provider is "
                                  "contacted. Tools run again unless --mock-tools is given.\n"
                                  "Exit status: 0 when the replay ran (and, with --check, did not "
                                  "diverge), 1 on a divergence or an incomplete trace with "
                                  "--check, or when the trace "
                                  "cannot be read, 2 on a usage error."), entries);
  if (!tb_cli_parse_options (context, &argc, &argv, TRUE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc < 2)
    return tb_cli_usage_error (context, _("Name the trace to replay"));
  if (jobs == 0 || jobs < -1)
    return tb_cli_usage_error (context, _("--jobs takes a number of replays from 1 to %d"),
                               TB_CLI_MAX_JOBS);
  if (jobs > TB_CLI_MAX_JOBS)
    {
      g_printerr (_("toolbench-cli: --jobs %d is more than %d; replaying %d side by side\n"),
                  jobs, TB_CLI_MAX_JOBS, TB_CLI_MAX_JOBS);
      jobs = TB_CLI_MAX_JOBS;
    }
  if ((argc > 2 || junit_path != NULL) && !check)
    return tb_cli_usage_error (context, _("Several traces, or --junit, need --check"));
  if (argc > 2 && (edit_arguments != NULL || edit_result != NULL || edit_turn != NULL ||
                   save_path != NULL))
    return tb_cli_usage_error (context, _("A fork or --save takes one trace"));
  if (check && (argc > 2 || junit_path != NULL))
    {
      g_autoptr(TbRedactor) many_redactor = tb_cli_new_redactor (key_variable);

      if (!tb_cli_check_writable (junit_path, &error))
        {
          g_printerr (_("toolbench-cli: %s; nothing was replayed\n"), error->message);
          return TB_CLI_EXIT_USAGE;
        }
      return tb_cli_replay_check_many ((const char * const *) argv + 1,
                                       jobs > 0 ? (guint) jobs
                                                : MAX (g_get_num_processors (), 1),
                                       mock_tools, json, junit_path, many_redactor);
    }
  if ((edit_arguments != NULL) + (edit_result != NULL) + (edit_turn != NULL) > 1)
    return tb_cli_usage_error (context, _("Give one edit: --edit-arguments, --edit-result or "
                                          "--edit-turn"));
  if ((edit_arguments != NULL || edit_result != NULL || edit_turn != NULL) && fork_step < 1)
    return tb_cli_usage_error (context, _("A fork needs --fork-step N, counting from 1"));
  if (fork_step != 0 && edit_arguments == NULL && edit_result == NULL && edit_turn == NULL)
    return tb_cli_usage_error (context, _("--fork-step needs an edit: --edit-arguments, "
                                          "--edit-result or --edit-turn"));

  if (edit_arguments != NULL)
    {
      edit = TB_REPLAY_EDIT_ARGUMENTS;
      if (!parse_edit (edit_arguments, "--edit-arguments", &edit_value, &error))
        return tb_cli_usage_error (context, "%s", error->message);
    }
  else if (edit_result != NULL)
    {
      edit = TB_REPLAY_EDIT_RESULT;
      if (!parse_edit (edit_result, "--edit-result", &edit_value, &error))
        return tb_cli_usage_error (context, "%s", error->message);
    }
  else if (edit_turn != NULL)
    {
      edit = TB_REPLAY_EDIT_MODEL_TURN;
      if (!parse_edit (edit_turn, "--edit-turn", &edit_value, &error))
        return tb_cli_usage_error (context, "%s", error->message);
    }

  /* Tools run again with the environment, and a trace from elsewhere may
   * hold a key in the clear: neither reaches the output. */
  redactor = tb_cli_new_redactor (key_variable);

  trace = tb_cli_open_trace (argv[1], &error);
  if (trace == NULL)
    return tb_cli_fail (error);

  replay = tb_replay_new (trace);
  tb_replay_set_parent (replay, argv[1]);
  if (!mock_tools)
    {
      if (!tb_cli_check_tool_source_options (&error) ||
          (registry = tb_cli_build_registry (&error)) == NULL)
        {
          g_autofree char *clean = tb_redactor_redact_text (redactor, error->message);

          g_printerr ("toolbench-cli: %s\n", clean);
          return TB_CLI_EXIT_FAILED;
        }
      tb_replay_set_registry (replay, registry);
    }

  if (edit != TB_REPLAY_EDIT_NONE &&
      !tb_replay_set_fork (replay, fork_step - 1, edit, edit_value, &error))
    return tb_cli_usage_error (context, "%s", error->message);

  tb_replay_run_async (replay, NULL, replay_cb, &state);
  while (!state.done)
    g_main_context_iteration (NULL, TRUE);

  if (state.report == NULL)
    {
      g_autofree char *clean = tb_redactor_redact_text (redactor, state.error->message);

      g_printerr ("toolbench-cli: %s\n", clean);
      g_clear_error (&state.error);
      return TB_CLI_EXIT_FAILED;
    }

  if (json)
    {
      g_autoptr(JsonNode) node = tb_replay_report_to_json (state.report);
      g_autoptr(JsonNode) clean = tb_redactor_redact_node (redactor, node);

      tb_cli_print_json (clean, TRUE);
    }
  else
    {
      g_autofree char *text = tb_replay_report_to_text (state.report);
      g_autofree char *clean = tb_redactor_redact_text (redactor, text);

      g_print ("%s", clean);
    }

  if (save_path != NULL)
    {
      g_autoptr(GFile) out = g_file_new_for_commandline_arg (save_path);

      if (!tb_trace_save (tb_replay_get_trace (replay), out, redactor, &error))
        {
          g_printerr ("toolbench-cli: %s\n", error->message);
          g_clear_object (&state.report);
          return TB_CLI_EXIT_FAILED;
        }
    }

  /* A trace known to be incomplete never passes a check. */
  status = check && (tb_replay_report_get_n_divergences (state.report) > 0 ||
                     tb_replay_report_get_incomplete (state.report) != NULL)
           ? TB_CLI_EXIT_FAILED : TB_CLI_EXIT_OK;
  g_clear_object (&state.report);
  return status;
}
