/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-plugins-ui"

/* Plugins in the app, under Xvfb: the plugin folder of the user's data
 * folder loaded at start, a working plugin's tool in the tool list with
 * its source and called from the Tool page, a broken plugin in the
 * preferences' Plugins group with the interpreter's error, file and line,
 * and Reload picking up a plugin fixed since. */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <toolbench.h>

#include "tb-plugin-row.h"
#include "tb-preferences-window.h"
#include "tb-result-view.h"
#include "tb-tool-page.h"
#include "tb-tool-sources.h"
#include "tb-window.h"
#include "tb-argument-editor-private.h"
#include "tb-tool-page-private.h"
#include "tb-window-private.h"
#include "../test-files-util.h"

/* Plugins start an interpreter each: generous for busy machines. */
#define WINDOW_TEST_WAIT_SECONDS 60
#include "window-test-util.h"


static const char WORDS_PY[] =
  "from toolbench_plugin import tool\n"
  "\n"
  "@tool({'type': 'object', 'properties': {'text': {'type': 'string'}}, 'required': ['text']})\n"
  "def word_count(text):\n"
  "    \"\"\"Counts the words of a text.\"\"\"\n"
  "    return {'words': len(text.split())}\n";

static const char BROKEN_PY[] =
  "from toolbench_plugin import tool\n"
  "\n"
  "def broken(:\n"
  "    pass\n";

static char *data_home;

static TbPluginRow *
plugin_row (GtkWidget  *list,
            const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (TB_IS_PLUGIN_ROW (child) &&
        g_strcmp0 (tb_plugin_get_name (tb_plugin_row_get_plugin (TB_PLUGIN_ROW (child))),
                   name) == 0)
      return TB_PLUGIN_ROW (child);
  return NULL;
}

static gboolean
has_tool (GListModel *model,
          const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (model, i);

      if (g_strcmp0 (tb_tool_get_name (tool), name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
write_plugin (const char *dir,
              const char *name,
              const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
test_plugins_in_app (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolSources) sources = NULL;
  g_autofree char *dir = g_build_filename (data_home, "toolbench", "plugins", NULL);
  TbPreferencesWindow *prefs;
  TbWindow *window;
  TbToolPage *page;
  TbToolResult *result;
  GtkWidget *list;
  TbPluginRow *row;
  g_autofree char *output = NULL;

  g_settings_reset (settings, "last-tool");
  g_settings_reset (settings, "last-arguments");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  write_plugin (dir, "words.py", WORDS_PY);
  write_plugin (dir, "broken.py", BROKEN_PY);

  sources = tb_tool_sources_new (registry, settings);
  tb_tool_sources_set_default (sources);
  g_assert_cmpstr (tb_tool_sources_get_plugins_dir (sources), ==, dir);

  window = g_object_ref (tb_window_new (NULL, registry, NULL));
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL (!tb_tool_sources_get_plugins_loading (sources));
  window_test_iterate (100);

  /* The working plugin's tool is listed, says where it comes from and runs. */
  g_assert_true (has_tool (tb_window_get_tool_model (window), "word_count"));
  g_assert_true (tb_window_select_tool (window, "word_count"));
  page = tb_window_get_tool_page (window);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (window_test_find_named (GTK_WIDGET (page),
                                                              "tool-source"))),
                   ==, "Plugin: words.py");
  WAIT_UNTIL (gtk_widget_get_mapped (tb_tool_page_get_run_button (page)));
  g_assert_true (tb_argument_editor_set_text (tb_tool_page_get_argument_editor (page),
                                              "{\"text\": \"one two three\"}", NULL));
  tb_tool_page_run (page);
  WAIT_UNTIL (!tb_tool_page_get_running (page) &&
              tb_result_view_get_result (tb_tool_page_get_result_view (page)) != NULL);
  result = tb_result_view_get_result (tb_tool_page_get_result_view (page));
  g_assert_true (tb_tool_result_get_ok (result));
  output = json_to_string (tb_tool_result_get_output (result), FALSE);
  g_assert_cmpstr (output, ==, "{\"words\":3}");

  /* The preferences list both, the broken one with the interpreter's
   * sentence. */
  prefs = tb_preferences_window_new (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (prefs));
  window_test_iterate (100);
  list = window_test_find_named (GTK_WIDGET (prefs), "plugins-list");
  g_assert_nonnull (list);
  row = plugin_row (list, "broken.py");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==,
                   "broken.py, line 3: SyntaxError: invalid syntax");
  row = plugin_row (list, "words.py");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "Tool: word_count");

  /* Fixed, then reloaded from the preferences: its tool appears. */
  write_plugin (dir, "broken.py",
                "from toolbench_plugin import tool\n\n@tool\ndef fixed():\n    return 'ok'\n");
  gtk_widget_activate_action (GTK_WIDGET (prefs), "prefs.reload-plugins", NULL);
  WAIT_UNTIL (!tb_tool_sources_get_plugins_loading (sources) &&
              plugin_row (list, "broken.py") != NULL);
  row = plugin_row (list, "broken.py");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "Tool: fixed");
  g_assert_true (tb_tool_registry_contains (registry, "fixed"));
  g_assert_true (tb_tool_registry_contains (registry, "word_count"));

  gtk_window_destroy (GTK_WINDOW (prefs));
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_iterate (50);
  g_assert_finalize_object (window);
  tb_tool_sources_set_default (NULL);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before GLib reads it: the plugin folder is the test's. */
  data_home = g_dir_make_tmp ("tb-plugins-ui-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/plugins-ui/in-app", test_plugins_in_app);

  status = g_test_run ();
  test_remove_tree (data_home);
  g_free (data_home);
  return status;
}
