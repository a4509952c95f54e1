/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-cli.h"

static gboolean
parse_format (const char         *text,
              TbDefinitionFormat *format)
{
  static const struct { const char *name; TbDefinitionFormat format; } formats[] = {
    { "native", TB_DEFINITION_FORMAT_NATIVE },
    { "openai", TB_DEFINITION_FORMAT_OPENAI },
    { "anthropic", TB_DEFINITION_FORMAT_ANTHROPIC },
    { "gemini", TB_DEFINITION_FORMAT_GEMINI },
    { "openai-responses", TB_DEFINITION_FORMAT_OPENAI_RESPONSES },
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      if (g_strcmp0 (text, formats[i].name) == 0)
        {
          *format = formats[i].format;
          return TRUE;
        }
    }
  return FALSE;
}

int
tb_cli_list (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *format_name = NULL;
  gboolean json = FALSE;
  gboolean model_only = FALSE;
  TbDefinitionFormat format = TB_DEFINITION_FORMAT_NATIVE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the tool definitions as JSON"), NULL },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name,
      N_("Definition format with --json: native, openai, anthropic, gemini or "
         "openai-responses"), N_("FORMAT") },
    { "model", 0, 0, G_OPTION_ARG_NONE, &model_only,
      N_("Only the tools a model may see"), NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("List the registered tools."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!tb_cli_parse_options (context, &argc, &argv, TRUE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc > 1)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[1]);
  if (format_name != NULL && !parse_format (format_name, &format))
    return tb_cli_usage_error (context,
                               _("Unknown format “%s”: use native, openai, anthropic, gemini or "
                                 "openai-responses"),
                               format_name);

  registry = tb_cli_build_registry (&error);
  if (registry == NULL)
    {
      g_printerr ("toolbench-cli: %s\n", error->message);
      return TB_CLI_EXIT_FAILED;
    }

  if (model_only)
    {
      TbToolRegistry *model = tb_tool_registry_get_model_tools (registry);

      g_object_unref (registry);
      registry = model;
    }

  if (json)
    {
      g_autoptr(JsonNode) definitions = tb_tool_registry_to_definitions (registry, format);

      tb_cli_print_json (definitions, TRUE);
      return TB_CLI_EXIT_OK;
    }

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (registry)); i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (registry), i);
      const char *description = tb_tool_get_description (tool);
      g_autofree char *first_line = g_strndup (description, strcspn (description, "\n"));

      g_print ("%-24s %-10s %-16s %s\n",
               tb_tool_get_name (tool),
               tb_tool_get_visibility (tool) == TB_TOOL_VISIBILITY_MODEL ? "model" : "user-only",
               tb_tool_get_source (tool),
               first_line);
    }

  return TB_CLI_EXIT_OK;
}

typedef struct
{
  GMainLoop    *loop;
  TbToolResult *result;
} CallState;

static void
call_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  CallState *state = user_data;

  state->result = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object), res);
  g_main_loop_quit (state->loop);
}

int
tb_cli_call (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(JsonNode) envelope = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autofree char *args_text = NULL;
  g_autofree char *args_file = NULL;
  gint timeout_ms = 0;
  gboolean full = FALSE;
  gboolean no_validate = FALSE;
  CallState state = { 0 };
  TbCliInterrupt *watch;
  const GOptionEntry entries[] = {
    { "args", 'a', 0, G_OPTION_ARG_STRING, &args_text,
      N_("The arguments as a JSON object (default: {})"), N_("JSON") },
    { "args-file", 0, 0, G_OPTION_ARG_FILENAME, &args_file,
      N_("Read the arguments from a file, or - for standard input"), N_("FILE") },
    { "timeout-ms", 0, 0, G_OPTION_ARG_INT, &timeout_ms,
      N_("Time limit of calls whose tool sets none (default: 30000)"), N_("MS") },
    { "full", 0, 0, G_OPTION_ARG_NONE, &full,
      N_("Print the whole result (kind, metadata, duration) instead of the envelope"), NULL },
    { "no-validate", 0, 0, G_OPTION_ARG_NONE, &no_validate,
      N_("Send the arguments as they are, without checking them against the tool’s schema, "
         "to see how the tool handles bad ones; the result is marked “unvalidated”"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("NAME"));
  g_option_context_set_summary (context,
                                _("Call a tool and print its result.\n\n"
                                  "Exit status: 0 when the tool succeeded, 1 when it failed, "
                                  "2 on a usage error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!tb_cli_parse_options (context, &argc, &argv, TRUE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc != 2)
    return tb_cli_usage_error (context, argc < 2 ? _("Name the tool to call")
                                                 : _("Name only one tool to call"));
  if (timeout_ms < 0)
    return tb_cli_usage_error (context, _("--timeout-ms must be a positive number"));
  if (!tb_cli_read_arguments (args_text, args_file, &arguments, &error))
    return tb_cli_usage_error (context, "%s", error->message);

  registry = tb_cli_build_registry (&error);
  if (registry == NULL)
    {
      g_printerr ("toolbench-cli: %s\n", error->message);
      return TB_CLI_EXIT_FAILED;
    }
  if (timeout_ms > 0)
    tb_tool_registry_set_default_timeout_ms (registry, timeout_ms);

  cancellable = g_cancellable_new ();
  loop = g_main_loop_new (NULL, FALSE);
  state.loop = loop;
  watch = tb_cli_interrupt_watch (cancellable, NULL);

  if (no_validate)
    tb_tool_registry_call_unvalidated_async (registry, argv[1], NULL, arguments, NULL,
                                             cancellable, call_cb, &state);
  else
    tb_tool_registry_call_async (registry, argv[1], NULL, arguments, NULL, cancellable,
                                 call_cb, &state);
  g_main_loop_run (loop);
  tb_cli_interrupt_unwatch (watch);

  if (full)
    envelope = tb_tool_result_to_json (state.result);
  else
    envelope = tb_tool_result_to_envelope (state.result);
  /* The envelope is what a model would read; the person is told apart. */
  if (tb_tool_result_get_unvalidated (state.result))
    g_printerr ("%s\n", _("toolbench-cli: the arguments were sent without being validated"));
  tb_cli_print_json (envelope, TRUE);

  {
    int status = tb_tool_result_get_ok (state.result) ? TB_CLI_EXIT_OK : TB_CLI_EXIT_FAILED;

    g_clear_object (&state.result);
    return status;
  }
}
