/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-cli.h"

/* toolbench-cli plugins: the plugin folder loaded as the app loads it, one
 * line a plugin: its file, its state, and its tools or why it failed.
 * Exit status: 0 when every plugin loaded, 1 when one failed or the
 * folder cannot be read, 2 usage error. */

static const char *
state_text (TbPluginState state)
{
  switch (state)
    {
    case TB_PLUGIN_STATE_LOADED:
      return _("loaded");
    case TB_PLUGIN_STATE_FAILED:
      return _("failed");
    case TB_PLUGIN_STATE_LOADING:
    default:
      return _("loading");
    }
}

static JsonNode *
plugins_to_json (GListModel *plugins)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (plugins); i++)
    {
      g_autoptr(TbPlugin) plugin = g_list_model_get_item (plugins, i);
      const char * const *tools = tb_plugin_get_tools (plugin);
      g_autoptr(GEnumClass) states = g_type_class_ref (TB_TYPE_PLUGIN_STATE);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, tb_plugin_get_name (plugin));
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, tb_plugin_get_path (plugin));
      json_builder_set_member_name (builder, "state");
      json_builder_add_string_value (builder,
        g_enum_get_value (states, tb_plugin_get_state (plugin))->value_nick);
      json_builder_set_member_name (builder, "tools");
      json_builder_begin_array (builder);
      for (guint j = 0; tools[j] != NULL; j++)
        json_builder_add_string_value (builder, tools[j]);
      json_builder_end_array (builder);
      if (tb_plugin_get_message (plugin) != NULL)
        {
          json_builder_set_member_name (builder, "message");
          json_builder_add_string_value (builder, tb_plugin_get_message (plugin));
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  return json_builder_get_root (builder);
}

int
tb_cli_plugins (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) plugins = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *shown_dir = NULL;
  gboolean json = FALSE;
  gboolean failed = FALSE;
  const GOptionEntry entries[] = {
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir,
      N_("The plugin folder (default: toolbench/plugins in the user's data folder, as the "
         "app loads)"), N_("DIR") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the plugins as a JSON array"), NULL },
    { NULL }
  };

  context = tb_cli_context_new (NULL,
                                _("Load the Python and JavaScript plugins of a folder as the "
                                  "app does, and list each with its state: its tools, or why "
                                  "it failed. Use --plugins (or --plugins-dir) with the other "
                                  "commands to offer their tools.\n\n"
                                  "Exit status: 0 when every plugin loaded, 1 when one failed "
                                  "or the folder cannot be read, 2 on a usage error."), entries);
  if (!tb_cli_parse_options (context, &argc, &argv, FALSE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc > 1)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[1]);

  if (dir == NULL)
    dir = tb_plugins_get_default_dir ();
  tb_plugins_load_async (registry, dir, NULL, tb_cli_keep_result, &result);
  plugins = tb_plugins_load_finish (tb_cli_wait_for (&result), &error);
  if (plugins == NULL)
    return tb_cli_fail (error);

  for (guint i = 0; i < g_list_model_get_n_items (plugins); i++)
    {
      g_autoptr(TbPlugin) plugin = g_list_model_get_item (plugins, i);

      failed |= tb_plugin_get_state (plugin) != TB_PLUGIN_STATE_LOADED;
    }

  if (json)
    {
      g_autoptr(JsonNode) node = plugins_to_json (plugins);

      tb_cli_print_json (node, TRUE);
      return failed ? TB_CLI_EXIT_FAILED : TB_CLI_EXIT_OK;
    }

  shown_dir = g_filename_display_name (dir);
  if (g_list_model_get_n_items (plugins) == 0)
    g_print (_("No plugins in %s\n"), shown_dir);
  for (guint i = 0; i < g_list_model_get_n_items (plugins); i++)
    {
      g_autoptr(TbPlugin) plugin = g_list_model_get_item (plugins, i);
      g_autofree char *tools = g_strjoinv (", ", (GStrv) tb_plugin_get_tools (plugin));

      g_print ("%-24s %-8s %s\n", tb_plugin_get_name (plugin),
               state_text (tb_plugin_get_state (plugin)), tools);
      if (tb_plugin_get_message (plugin) != NULL)
        {
          g_auto(GStrv) lines = g_strsplit (tb_plugin_get_message (plugin), "\n", -1);

          for (guint j = 0; lines[j] != NULL; j++)
            g_print ("    %s\n", lines[j]);
        }
    }
  return failed ? TB_CLI_EXIT_FAILED : TB_CLI_EXIT_OK;
}
