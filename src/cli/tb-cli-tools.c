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

  context = tb_cli_context_new (NULL, _("List the registered tools."), entries);
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
    return tb_cli_fail (error);

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

int
tb_cli_call (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_auto(TbCliCallOptions) options = { NULL };

  context = tb_cli_context_new (_("NAME"),
                                _("Call a tool and print its result.\n\n"
                                  "Exit status: 0 when the tool succeeded, 1 when it failed, "
                                  "2 on a usage error."), NULL);
  tb_cli_add_call_options (context, &options,
                           N_("Time limit of calls whose tool sets none (default: 30000)"));
  if (!tb_cli_parse_options (context, &argc, &argv, TRUE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc != 2)
    return tb_cli_usage_error (context, argc < 2 ? _("Name the tool to call")
                                                 : _("Name only one tool to call"));
  if (!tb_cli_read_call_options (&options, &arguments, &error))
    return tb_cli_usage_error (context, "%s", error->message);

  registry = tb_cli_build_registry (&error);
  if (registry == NULL)
    return tb_cli_fail (error);
  return tb_cli_call_tool (registry, argv[1], arguments, &options);
}
