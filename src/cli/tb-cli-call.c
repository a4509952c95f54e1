/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-cli.h"

/* Calling one tool by hand, for `call` and `mcp call`: the options that say
 * how (--args, --args-file, --timeout-ms, --full, --no-validate), the call
 * itself, interruptible, and the result printed as a model would read it. */

/**
 * tb_cli_add_call_options:
 * @context: a command's options
 * @options: where the values go
 * @timeout_help: what --timeout-ms says, which differs by command
 *
 * Adds the options of a call by hand to @context.
 */
void
tb_cli_add_call_options (GOptionContext   *context,
                         TbCliCallOptions *options,
                         const char       *timeout_help)
{
  const GOptionEntry entries[] = {
    { "args", 'a', 0, G_OPTION_ARG_STRING, &options->args_text,
      N_("The arguments as a JSON object (default: {})"), N_("JSON") },
    { "args-file", 0, 0, G_OPTION_ARG_FILENAME, &options->args_file,
      N_("Read the arguments from a file, or - for standard input"), N_("FILE") },
    { "timeout-ms", 0, 0, G_OPTION_ARG_INT, &options->timeout_ms, timeout_help, N_("MS") },
    { "full", 0, 0, G_OPTION_ARG_NONE, &options->full,
      N_("Print the whole result (kind, metadata, duration) instead of the envelope"), NULL },
    { "no-validate", 0, 0, G_OPTION_ARG_NONE, &options->no_validate,
      N_("Send the arguments as they are, without checking them against the tool’s schema, "
         "to see how the tool handles bad ones; the result is marked “unvalidated”"), NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

/**
 * tb_cli_read_call_options:
 * @options: the parsed options
 * @arguments: (out): the arguments of the call
 * @error: return location for a usage error
 *
 * Returns: whether the options are usable and the arguments were read
 */
gboolean
tb_cli_read_call_options (const TbCliCallOptions  *options,
                          JsonNode               **arguments,
                          GError                 **error)
{
  if (options->timeout_ms < 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--timeout-ms must be a positive number"));
      return FALSE;
    }
  return tb_cli_read_arguments (options->args_text, options->args_file, arguments, error);
}

void
tb_cli_call_options_clear (TbCliCallOptions *options)
{
  g_clear_pointer (&options->args_text, g_free);
  g_clear_pointer (&options->args_file, g_free);
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(TbToolResult **) user_data = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object), result);
}

/* What a running tool says of itself (an MCP server's progress, a task's
 * status) goes to stderr, so that the result on stdout stays JSON. */
static void
progress_cb (TbToolRegistry *registry,
             const char     *call_id,
             double          progress,
             double          total,
             const char     *message,
             gpointer        user_data)
{
  if (message != NULL && *message != '\0' && total > 0)
    /* Translators: progress of a running tool, such as "3 of 10: copying" */
    g_printerr (_("toolbench-cli: %g of %g: %s\n"), progress, total, message);
  else if (message != NULL && *message != '\0')
    g_printerr ("toolbench-cli: %s\n", message);
  else if (total > 0)
    g_printerr (_("toolbench-cli: %g of %g\n"), progress, total);
}

/**
 * tb_cli_call_tool:
 * @registry: the registry holding the tool
 * @name: the tool's name in @registry
 * @arguments: the arguments
 * @options: the parsed options
 *
 * Calls the tool, Ctrl+C cancelling the call, and prints the result.
 *
 * Returns: the exit status: 0 when the tool succeeded, 1 otherwise
 */
int
tb_cli_call_tool (TbToolRegistry         *registry,
                  const char             *name,
                  JsonNode               *arguments,
                  const TbCliCallOptions *options)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(JsonNode) printed = NULL;
  TbCliInterrupt *watch;
  gulong progress_id;

  if (options->timeout_ms > 0)
    tb_tool_registry_set_default_timeout_ms (registry, options->timeout_ms);

  watch = tb_cli_interrupt_watch (cancellable, NULL);
  progress_id = g_signal_connect (registry, "call-progress", G_CALLBACK (progress_cb), NULL);
  if (options->no_validate)
    tb_tool_registry_call_unvalidated_async (registry, name, NULL, arguments, NULL,
                                             cancellable, call_cb, &result);
  else
    tb_tool_registry_call_async (registry, name, NULL, arguments, NULL, cancellable,
                                 call_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  tb_cli_interrupt_unwatch (watch);
  g_signal_handler_disconnect (registry, progress_id);

  printed = options->full ? tb_tool_result_to_json (result) : tb_tool_result_to_envelope (result);
  /* The envelope is what a model would read; the person is told apart. */
  if (tb_tool_result_get_unvalidated (result))
    g_printerr ("%s\n", _("toolbench-cli: the arguments were sent without being validated"));
  tb_cli_print_json (printed, TRUE);
  return tb_tool_result_get_ok (result) ? TB_CLI_EXIT_OK : TB_CLI_EXIT_FAILED;
}
