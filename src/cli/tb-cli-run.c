/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "tb-cli.h"


int
tb_cli_exit_for_state (TbLoopState state)
{
  switch (state)
    {
    case TB_LOOP_STATE_FINISHED:
      return TB_CLI_EXIT_OK;
    case TB_LOOP_STATE_LIMIT_REACHED:
      return TB_CLI_EXIT_LIMIT;
    case TB_LOOP_STATE_CANCELLED:
      return TB_CLI_EXIT_CANCELLED;
    case TB_LOOP_STATE_CALLS_PENDING:
      return TB_CLI_EXIT_PAUSED;
    case TB_LOOP_STATE_READY:
    case TB_LOOP_STATE_AWAITING_MODEL:
    case TB_LOOP_STATE_RUNNING_TOOLS:
    case TB_LOOP_STATE_FAILED:
    default:
      return TB_CLI_EXIT_FAILED;
    }
}

typedef struct
{
  GMainLoop   *main_loop;
  TbLoopState  state;
  GError      *error;
} Drive;

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Drive *drive = user_data;

  drive->state = tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, &drive->error);
  g_main_loop_quit (drive->main_loop);
}

/* Runs the loop until it stops; Ctrl+C and SIGTERM cancel it. */
TbLoopState
tb_cli_drive_loop (TbDispatchLoop  *loop,
                   GError         **error)
{
  g_autoptr(GMainLoop) main_loop = g_main_loop_new (NULL, FALSE);
  Drive drive = { main_loop, TB_LOOP_STATE_FAILED, NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TbCliInterrupt) watch = tb_cli_interrupt_watch (cancellable, NULL);

  tb_dispatch_loop_run_async (loop, cancellable, run_cb, &drive);
  g_main_loop_run (main_loop);

  if (drive.error != NULL)
    {
      g_propagate_error (error, drive.error);
      return TB_LOOP_STATE_FAILED;
    }
  return drive.state;
}

/* ---- printing the conversation -------------------------------------------- */

#define SHOWN_CHARS 2000

/* Everything printed passes through the redactor: a model or a tool may
 * repeat a key, and streamed text may bring it in pieces. */
typedef struct
{
  gboolean    streamed;
  gboolean    quiet;
  TbRedactor *redactor;
  GString    *held;       /* streamed text not shown yet */
} Printer;

/* Redacted before it is shortened, so no cut leaves the start of a key. */
static char *
shown (Printer    *printer,
       const char *text)
{
  g_autofree char *clean = tb_redactor_redact_text (printer->redactor, text);

  /* SHOWN_CHARS of it, then "…". */
  return tb_text_shorten (clean, -1, SHOWN_CHARS + 1);
}

/* Ends a streamed text: what was held back, then the line's end. */
static void
end_streamed (Printer *printer)
{
  g_autofree char *rest = NULL;

  if (!printer->streamed)
    return;
  rest = tb_redactor_feed (printer->redactor, printer->held, NULL);
  g_print ("%s\n", rest);
  printer->streamed = FALSE;
}

static void
print_message (TbMessage *message,
               Printer   *printer)
{
  g_autofree char *text = shown (printer, tb_message_get_text (message));

  switch (tb_message_get_role (message))
    {
    case TB_MESSAGE_ROLE_SYSTEM:
      g_print ("%s %s\n", _("system:"), text);
      break;

    case TB_MESSAGE_ROLE_USER:
      g_print ("%s %s\n", _("user:"), text);
      break;

    case TB_MESSAGE_ROLE_ASSISTANT:
      if (printer->streamed)
        end_streamed (printer);
      else if (tb_message_get_text (message) != NULL)
        g_print ("%s %s\n", _("assistant:"), text);
      for (guint i = 0; i < tb_message_get_n_tool_calls (message); i++)
        {
          TbToolCall *call = tb_message_get_tool_call (message, i);
          g_autofree char *args = shown (printer, tb_tool_call_get_raw_arguments (call));

          /* Translators: a tool call: tool name, arguments, call id */
          g_print (_("assistant calls %s %s [%s]\n"), tb_tool_call_get_name (call), args,
                   tb_tool_call_get_id (call));
        }
      printer->streamed = FALSE;
      break;

    case TB_MESSAGE_ROLE_TOOL:
      /* Translators: a tool's answer: tool name, call id, the text the model sees */
      g_print (_("tool %s [%s]: %s\n"), tb_message_get_tool_name (message),
               tb_message_get_tool_call_id (message), text);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
messages_changed (GListModel *messages,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Printer    *printer)
{
  if (printer->quiet)
    return;
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(TbMessage) message = g_list_model_get_item (messages, i);

      print_message (message, printer);
    }
}

static void
text_delta (TbProvider *provider,
            const char *text,
            Printer    *printer)
{
  g_autofree char *clean = NULL;

  if (printer->quiet)
    return;
  if (!printer->streamed)
    g_print ("%s ", _("assistant:"));
  printer->streamed = TRUE;
  clean = tb_redactor_feed (printer->redactor, printer->held, text);
  g_print ("%s", clean);
  fflush (stdout);
}

/* A line for the person on stderr, without the keys it may repeat. */
static void G_GNUC_PRINTF (2, 3)
print_error (Printer    *printer,
             const char *format,
             ...)
{
  g_autofree char *line = NULL;
  g_autofree char *clean = NULL;
  va_list args;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  clean = tb_redactor_redact_text (printer->redactor, line);
  g_printerr ("%s", clean);
}

static void
loop_warning (TbDispatchLoop *loop,
              const char     *message,
              Printer        *printer)
{
  print_error (printer, _("warning: %s\n"), message);
}

/* ---- asking the person ---------------------------------------------------- */

static void
ask_person (TbDispatchLoop *loop,
            TbPendingCall  *pending,
            Printer        *printer)
{
  TbToolCall *call = tb_pending_call_get_call (pending);
  g_autofree char *args = NULL;

  /* The rest is the policy's. */
  if (!tb_dispatch_loop_call_waits_for_person (loop, pending))
    return;
  args = tb_redactor_redact_text (printer->redactor, tb_tool_call_get_raw_arguments (call));

  for (;;)
    {
      char line[4096];
      g_autoptr(GError) error = NULL;

      g_printerr (_("Run %s %s [%s]? [a]pprove, [e]dit, [s]kip, [r]eject: "),
                  tb_tool_call_get_name (call), args, tb_tool_call_get_id (call));
      if (fgets (line, sizeof line, stdin) == NULL)
        {
          tb_pending_call_reject (pending, _("nobody answered"));
          g_printerr ("\n");
          return;
        }
      g_strstrip (line);

      if (g_str_equal (line, "a") || g_str_equal (line, "approve"))
        {
          tb_pending_call_approve (pending);
          return;
        }
      if (g_str_equal (line, "r") || g_str_equal (line, "reject"))
        {
          tb_pending_call_reject (pending, NULL);
          return;
        }
      if (g_str_equal (line, "s") || g_str_equal (line, "e") ||
          g_str_equal (line, "skip") || g_str_equal (line, "edit"))
        {
          gboolean skip = line[0] == 's';
          g_autoptr(JsonNode) node = NULL;

          g_printerr ("%s", skip ? _("The result the model sees (JSON): ")
                                 : _("The arguments (a JSON object on one line): "));
          if (fgets (line, sizeof line, stdin) == NULL)
            continue;
          node = tb_json_parse (line, -1, &error);
          if (node == NULL)
            {
              g_printerr (_("That is not JSON: %s\n"), error->message);
              continue;
            }
          if (skip)
            {
              tb_pending_call_skip (pending, node);
              return;
            }
          if (tb_pending_call_edit (pending, node, &error))
            return;
          g_printerr ("%s\n", error->message);
        }
    }
}

/* ---- run ------------------------------------------------------------------ */

static gboolean
parse_policy (const char       *text,
              TbApprovalPolicy *policy)
{
  if (text == NULL || g_str_equal (text, "all"))
    *policy = TB_APPROVAL_POLICY_APPROVE_ALL;
  else if (g_str_equal (text, "none"))
    *policy = TB_APPROVAL_POLICY_REJECT_ALL;
  else if (g_str_equal (text, "ask"))
    *policy = TB_APPROVAL_POLICY_ASK;
  else if (g_str_equal (text, "read-only"))
    *policy = TB_APPROVAL_POLICY_READ_ONLY;
  else
    return FALSE;
  return TRUE;
}

int
tb_cli_run (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) trace_gfile = NULL;
  TbWorkspace *workspace;
  g_autoptr(TbWorkspaceBinding) workspace_binding = NULL;
  const char *workspace_path;
  gboolean pause_for_proposals = FALSE;
  g_auto(TbCliProviderOptions) provider_options = { NULL };
  g_autofree char *model = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *system = NULL;
  g_autofree char *approve = NULL;
  g_autofree char *trace_path = NULL;
  g_autofree char *script = NULL;
  g_autofree char *tool_choice = NULL;
  g_auto(GStrv) breakpoints = NULL;
  gint max_iterations = 0;
  gint timeout_ms = 0;
  gboolean stream = FALSE;
  gboolean quiet = FALSE;
  g_autoptr(TbRedactor) redactor = NULL;
  g_autoptr(GString) held = g_string_new (NULL);
  Printer printer = { FALSE, FALSE, NULL, held };
  g_autoptr(TbTraceRecorder) recorder = NULL;
  TbApprovalPolicy policy;
  TbLoopState state;
  const GOptionEntry entries[] = {
    { "model", 'm', 0, G_OPTION_ARG_STRING, &model, N_("The model"), N_("MODEL") },
    { "prompt", 0, 0, G_OPTION_ARG_STRING, &prompt, N_("The user's message"), N_("TEXT") },
    { "system", 0, 0, G_OPTION_ARG_STRING, &system, N_("A system message"), N_("TEXT") },
    { "max-iterations", 'n', 0, G_OPTION_ARG_INT, &max_iterations,
      N_("The most model requests the loop may make (required)"), N_("N") },
    { "approve", 0, 0, G_OPTION_ARG_STRING, &approve,
      N_("Which calls run: all, none, ask for each, or read-only (calls to tools marked "
         "read-only run, the others are asked about); a tool marked destructive is always asked "
         "about (default: all)"), N_("POLICY") },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path,
      N_("Record the run as a JSON Lines trace"), N_("FILE") },
    { "script", 0, 0, G_OPTION_ARG_FILENAME, &script,
      N_("The script of the scripted provider (default: the demo)"), N_("FILE") },
    { "stream", 0, 0, G_OPTION_ARG_NONE, &stream, N_("Ask for streamed responses"), NULL },
    { "tool-choice", 0, 0, G_OPTION_ARG_STRING, &tool_choice,
      N_("auto, none, required, or a tool name"), N_("CHOICE") },
    { "break", 0, 0, G_OPTION_ARG_STRING_ARRAY, &breakpoints,
      N_("Stop before calls of this tool (repeatable)"), N_("TOOL") },
    { "timeout-ms", 0, 0, G_OPTION_ARG_INT, &timeout_ms,
      N_("How long the provider may send nothing (default: 60000)"), N_("MS") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print only how the loop ended"), NULL },
    { "pause-for-proposals", 0, 0, G_OPTION_ARG_NONE, &pause_for_proposals,
      N_("With --workspace: stop after the model proposes a fact, before asking it again"),
      NULL },
    { NULL }
  };

  context = tb_cli_context_new (NULL,
                                _("Run the dispatch loop: send the prompt and the tools to a "
                                  "model, run the calls it asks for, and repeat until it "
                                  "answers or the cap is reached.\n\n"
                                  "Exit status: 0 finished, 1 failed, 2 usage error, "
                                  "3 iteration cap reached, 4 cancelled, "
                                  "5 stopped at a breakpoint or waiting for a decision."), NULL);
  tb_cli_add_provider_options (context, &provider_options,
                               N_("scripted (default) or a provider kind listed below"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!tb_cli_parse_options (context, &argc, &argv, TRUE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc > 1)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[1]);
  workspace_path = tb_cli_get_workspace_path ();
  if (max_iterations <= 0)
    return tb_cli_usage_error (context, _("Give the cap with --max-iterations N (at least 1); "
                                          "a loop always has one"));
  if (prompt == NULL)
    return tb_cli_usage_error (context, _("Give the user's message with --prompt"));
  if (!parse_policy (approve, &policy))
    return tb_cli_usage_error (context, _("Unknown --approve “%s”: use all, none, ask or read-only"),
                               approve);
  if (timeout_ms < 0)
    return tb_cli_usage_error (context, _("--timeout-ms must be a positive number"));
  if (script != NULL && provider_options.kind != NULL &&
      !g_str_equal (provider_options.kind, "scripted"))
    return tb_cli_usage_error (context, _("--script is for the scripted provider"));

  /* The keys in the environment, whichever the run uses. */
  redactor = tb_cli_new_redactor (tb_cli_provider_options_get_key_variable (&provider_options));
  printer.redactor = redactor;

  provider = tb_cli_make_provider (&provider_options, model, script, &error);
  if (provider == NULL)
    {
      if (error->domain == G_OPTION_ERROR)
        return tb_cli_usage_error (context, "%s", error->message);
      print_error (&printer, "toolbench-cli: %s\n", error->message);
      return TB_CLI_EXIT_FAILED;
    }
  if (timeout_ms > 0 && TB_IS_HTTP_PROVIDER (provider))
    tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (provider), timeout_ms);

  registry = tb_cli_build_registry (&error);
  if (registry == NULL)
    {
      print_error (&printer, "toolbench-cli: %s\n", error->message);
      return TB_CLI_EXIT_FAILED;
    }

  workspace = tb_tool_session_get_workspace (tb_cli_get_session ());

  loop = tb_dispatch_loop_new (registry, provider, max_iterations);
  tb_dispatch_loop_set_approval_policy (loop, policy);
  if (workspace != NULL)
    {
      workspace_binding = tb_workspace_binding_new (workspace, loop);
      tb_workspace_binding_set_pause_for_proposals (workspace_binding, pause_for_proposals);
    }
  tb_dispatch_loop_set_stream (loop, stream);
  tb_dispatch_loop_set_tool_choice (loop, tool_choice);
  tb_dispatch_loop_set_breakpoints (loop, (const char * const *) breakpoints);

  if (trace_path != NULL)
    {
      /* Every event reaches the file as it happens; the keys never do. */
      trace_gfile = g_file_new_for_commandline_arg (trace_path);
      recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), trace_gfile, redactor);
      if (tb_trace_recorder_get_error (recorder) != NULL)
        {
          print_error (&printer, _("toolbench-cli: cannot write the trace: %s\n"),
                       tb_trace_recorder_get_error (recorder)->message);
          return TB_CLI_EXIT_FAILED;
        }
      /* A run whose trace misses events must not look like a recorded one. */
      g_signal_connect_object (recorder, "failed", G_CALLBACK (tb_dispatch_loop_fail), loop,
                               G_CONNECT_SWAPPED);
    }

  printer.quiet = quiet;
  g_signal_connect (tb_dispatch_loop_get_messages (loop), "items-changed",
                    G_CALLBACK (messages_changed), &printer);
  g_signal_connect (provider, "text-delta", G_CALLBACK (text_delta), &printer);
  g_signal_connect (loop, "warning", G_CALLBACK (loop_warning), &printer);
  /* Also under "all": a call to a tool marked destructive waits. */
  if (policy != TB_APPROVAL_POLICY_REJECT_ALL)
    g_signal_connect (loop, "call-pending", G_CALLBACK (ask_person), &printer);

  if (system != NULL)
    {
      g_autoptr(TbMessage) message = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, system);

      tb_dispatch_loop_add_message (loop, message, NULL);
    }
  tb_dispatch_loop_add_user_message (loop, prompt, NULL);

  state = tb_cli_drive_loop (loop, &error);

  g_signal_handlers_disconnect_by_data (tb_dispatch_loop_get_messages (loop), &printer);
  g_signal_handlers_disconnect_by_data (provider, &printer);
  g_signal_handlers_disconnect_by_data (loop, &printer);
  /* A stream cut off by a failure: show what arrived. */
  end_streamed (&printer);
  if (recorder != NULL)
    {
      g_autoptr(GError) trace_error = NULL;

      if (!tb_trace_recorder_close (recorder, &trace_error))
        print_error (&printer, _("toolbench-cli: the trace is incomplete: %s\n"),
                     trace_error->message);
    }

  if (error != NULL)
    {
      print_error (&printer, "toolbench-cli: %s\n", error->message);
      return TB_CLI_EXIT_FAILED;
    }

  switch (state)
    {
    case TB_LOOP_STATE_FINISHED:
      g_printerr (g_dngettext (GETTEXT_PACKAGE, "The loop finished after %u iteration.\n",
                               "The loop finished after %u iterations.\n",
                               tb_dispatch_loop_get_iteration (loop)),
                  tb_dispatch_loop_get_iteration (loop));
      break;

    case TB_LOOP_STATE_LIMIT_REACHED:
      g_printerr (_("The loop reached its cap of %u iterations without an answer; raise "
                    "--max-iterations to let it go on.\n"),
                  tb_dispatch_loop_get_max_iterations (loop));
      break;

    case TB_LOOP_STATE_CANCELLED:
      g_printerr ("%s\n", _("The loop was cancelled."));
      break;

    case TB_LOOP_STATE_CALLS_PENDING:
      g_printerr ("%s\n", _("The loop stopped before running the calls above (a breakpoint, "
                            "or calls nobody decided)."));
      break;

    case TB_LOOP_STATE_FAILED:
      print_error (&printer, _("toolbench-cli: the loop failed: %s\n"),
                   tb_dispatch_loop_get_error (loop)->message);
      break;

    case TB_LOOP_STATE_READY:
    case TB_LOOP_STATE_AWAITING_MODEL:
    case TB_LOOP_STATE_RUNNING_TOOLS:
    default:
      break;
    }

  if (workspace != NULL)
    {
      /* Only a pause_loop result (a proposal, with --pause-for-proposals)
       * stops a run in READY. */
      if (state == TB_LOOP_STATE_READY)
        g_printerr ("%s\n", _("The loop paused for the person before asking the model again."));
      tb_cli_report_workspace (workspace, workspace_path);
      if (state == TB_LOOP_STATE_READY)
        return TB_CLI_EXIT_PAUSED;
    }

  return tb_cli_exit_for_state (state);
}
