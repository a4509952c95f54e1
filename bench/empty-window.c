/* SPDX-License-Identifier: GPL-3.0-or-later */

#include <adwaita.h>

/* The reference bench/start measures the app against: the least a
 * libadwaita application shows, an empty AdwApplicationWindow of the
 * app's default size, registered on the session bus under an ID of its
 * own as the app registers under its ID. */

static void
activate (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));

  gtk_window_set_title (GTK_WINDOW (window), "Empty window");
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 780);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app =
    adw_application_new ("io.github.toolbench.Toolbench.EmptyWindow", G_APPLICATION_DEFAULT_FLAGS);

  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
