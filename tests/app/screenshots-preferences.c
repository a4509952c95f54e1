/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Renders the welcome page and the preferences into PNG files for the
 * README and the metainfo; build-aux/screenshots-preferences.sh runs it. */

#include "config.h"

#include <adwaita.h>
#include <toolbench.h>

#include "tb-preferences-window.h"
#include "tb-prefs.h"
#include "tb-welcome-page.h"

static const char *outdir;

static void
settle (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

static void
render (GtkWidget  *window,
        const char *name)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_strdup_printf ("%s/%s.png", outdir, name);
  int width, height;

  settle (500);
  width = gtk_widget_get_width (window);
  height = gtk_widget_get_height (window);
  paintable = gtk_widget_paintable_new (window);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    g_error ("Could not write %s", path);
  g_print ("%s\n", path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GSettings) settings = NULL;
  GtkWidget *welcome;
  TbPreferencesWindow *prefs;

  if (argc != 2)
    {
      g_printerr ("Usage: %s OUTPUT_FOLDER\n", argv[0]);
      return 2;
    }
  outdir = argv[1];
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
  gtk_init ();
  adw_init ();
  settings = g_settings_new (APPLICATION_ID);

  welcome = adw_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (welcome), 900, 720);
  adw_window_set_content (ADW_WINDOW (welcome), tb_welcome_page_new ());
  gtk_window_present (GTK_WINDOW (welcome));
  render (welcome, "welcome");
  gtk_window_destroy (GTK_WINDOW (welcome));

  tb_prefs_save_provider (settings, NULL, "Local Ollama", "openai", "http://localhost:11434/v1",
                          "qwen2.5:7b", NULL);
  tb_prefs_save_provider (settings, NULL, "Claude", "anthropic", "https://api.anthropic.com",
                          "claude-sonnet-4-5", NULL);
  tb_prefs_save_mcp_server (settings, NULL, "everything", TRUE,
                            "{\"command\": \"sh\", \"args\": [\"-c\", \"exit 0\"]}", NULL);
  prefs = tb_preferences_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (prefs), 640, 620);
  gtk_window_present (GTK_WINDOW (prefs));
  render (GTK_WIDGET (prefs), "preferences");
  adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (prefs), "tools");
  render (GTK_WIDGET (prefs), "preferences-tools");
  adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (prefs), "providers");
  tb_preferences_window_edit_provider (prefs, "Local Ollama");
  render (GTK_WIDGET (prefs), "preferences-endpoint");
  gtk_window_destroy (GTK_WINDOW (prefs));
  return 0;
}
