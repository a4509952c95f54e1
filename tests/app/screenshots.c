/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "screenshots"

#include "config.h"

#include <adwaita.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-test-tools.h"
#include "tb-window.h"
#include "tb-history-page-private.h"
#include "tb-argument-editor-private.h"
#include "tb-window-private.h"

/* Renders the main views of the window to PNG files for the README and the
 * metainfo. Run through build-aux/screenshots.sh, which provides a display. */

static const char *outdir;

static void
iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

static void
save (GtkWidget  *window,
      const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_strdup_printf ("%s/%s.png", outdir, name);
  int width = gtk_widget_get_width (window);
  int height = gtk_widget_get_height (window);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  iterate (400);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    g_error ("Could not write %s", path);
  g_print ("%s\n", path);
}

static TbWindow *
new_window (TbToolRegistry *registry,
            TbHistory      *history,
            int             width,
            int             height)
{
  TbWindow *window = tb_window_new (NULL, registry, history);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  iterate (500);
  return window;
}

static GtkEditable *
field (TbWindow   *window,
       const char *pointer)
{
  TbArgumentEditor *editor = tb_tool_page_get_argument_editor (tb_window_get_tool_page (window));

  return GTK_EDITABLE (tb_schema_form_get_input (tb_argument_editor_get_form (editor), pointer));
}

static void
run_and_wait (TbWindow *window)
{
  TbToolPage *page = tb_window_get_tool_page (window);
  TbResultView *view = tb_tool_page_get_result_view (page);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  tb_result_view_set_result (view, NULL);
  tb_tool_page_run (page);
  while (tb_result_view_get_result (view) == NULL && g_get_monotonic_time () < deadline)
    iterate (20);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(TbHistory) history = NULL;
  g_autoptr(GError) error = NULL;
  TbWindow *window;
  TbArgumentEditor *editor;

  outdir = argc > 1 ? argv[1] : "docs/screenshots";
  g_mkdir_with_parents (outdir, 0755);

  gtk_init ();
  tb_app_init ();
  g_object_set (gtk_settings_get_default (),
                "gtk-font-name", "Cantarell 11",
                "gtk-enable-animations", FALSE,
                NULL);

  registry = tb_test_tools_new_registry ();
  if (!tb_demo_tools_register (registry, &error))
    g_error ("%s", error->message);
  history = tb_history_new (registry);

  /* The Tool page with a filled form. */
  window = new_window (registry, history, 1180, 860);
  tb_window_select_tool (window, "get_weather");
  gtk_editable_set_text (field (window, "/city"), "Lyon");
  gtk_editable_set_text (field (window, "/days"), "3");
  save (GTK_WIDGET (window), "tool-form");

  /* Its result. */
  run_and_wait (window);
  iterate (300);
  save (GTK_WIDGET (window), "result");

  /* Problems shown at their fields. */
  tb_window_select_tool (window, "create_issue");
  editor = tb_tool_page_get_argument_editor (tb_window_get_tool_page (window));
  tb_argument_editor_set_text (editor, "{\"body\":\"It crashes when the list is empty.\","
                                       "\"labels\":[\"bug\",\"crash\"],"
                                       "\"assignee\":{\"notify\":true},\"priority\":\"urgent\"}",
                               NULL);
  save (GTK_WIDGET (window), "validation");

  /* The same arguments as JSON. */
  tb_argument_editor_set_text (editor, "{\"title\":\"Crash on an empty list\","
                                       "\"body\":\"It crashes when the list is empty.\","
                                       "\"labels\":[\"bug\",\"crash\"],"
                                       "\"assignee\":{\"login\":\"ada\",\"notify\":true},"
                                       "\"priority\":2}", NULL);
  tb_argument_editor_set_view (editor, "json");
  save (GTK_WIDGET (window), "json-editor");
  tb_argument_editor_set_view (editor, "form");

  /* History after a few calls. */
  run_and_wait (window);
  tb_window_select_tool (window, "disk_cleanup");
  run_and_wait (window);
  tb_window_select_tool (window, "echo");
  tb_argument_editor_set_text (editor, "{\"text\":\"Hello from Toolbench\"}", NULL);
  run_and_wait (window);
  tb_window_set_page (window, "history");
  gtk_list_box_select_row (tb_history_page_get_list (tb_window_get_history_page (window)),
                           gtk_list_box_get_row_at_index (
                             tb_history_page_get_list (tb_window_get_history_page (window)), 1));
  save (GTK_WIDGET (window), "history");

  /* Searching. */
  tb_window_set_page (window, "tool");
  tb_window_select_tool (window, "get_weather");
  gtk_editable_set_text (tb_window_get_search_entry (window), "issue");
  save (GTK_WIDGET (window), "search");
  gtk_editable_set_text (tb_window_get_search_entry (window), "");

  /* Dark style. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  tb_window_select_tool (window, "create_issue");
  save (GTK_WIDGET (window), "dark");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_destroy (GTK_WINDOW (window));

  /* A narrow window: the sidebar folds away. */
  window = new_window (registry, history, 400, 760);
  tb_window_select_tool (window, "get_weather");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "tool");
  save (GTK_WIDGET (window), "narrow");
  tb_window_set_page (window, "history");
  save (GTK_WIDGET (window), "narrow-history");
  gtk_window_destroy (GTK_WINDOW (window));

  /* The shortcuts window. */
  {
    g_autoptr(GtkBuilder) builder =
      gtk_builder_new_from_resource ("/io/github/toolbench/Toolbench/tb-shortcuts-window.ui");
    GtkWidget *shortcuts = GTK_WIDGET (gtk_builder_get_object (builder, "help_overlay"));

    gtk_window_present (GTK_WINDOW (shortcuts));
    iterate (500);
    save (shortcuts, "shortcuts");
    gtk_window_destroy (GTK_WINDOW (shortcuts));
  }

  iterate (100);
  return 0;
}
