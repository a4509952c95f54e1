/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

/* Destroys a test's window and waits until it is finalized: rows, timers
 * and idles let go of it within a main context iteration or two, but a
 * slow build (AddressSanitizer) needs longer than a fixed pause. Fails
 * when something still holds it after 20 s. */
static inline void
window_test_destroy (GtkWindow *window)
{
  gpointer weak = window;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_destroy (window);
  g_object_unref (window);
  while (weak != NULL && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  if (weak != NULL)
    g_error ("The window was not finalized: something still holds it");
}
