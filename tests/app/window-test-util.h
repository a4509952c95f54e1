/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

/* Drops the test's reference to @object and waits until it is finalized:
 * rows, timers and idles let go of it within a main context iteration or
 * two, but a slow build (AddressSanitizer) needs longer than a fixed
 * pause. Fails when something still holds it after 20 s. */
static inline void
window_test_finalize (gpointer object)
{
  gpointer weak = object;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_object_add_weak_pointer (G_OBJECT (object), &weak);
  g_object_unref (object);
  while (weak != NULL && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  if (weak != NULL)
    g_error ("A %s was not finalized: something still holds it",
             G_OBJECT_TYPE_NAME (weak));
}

/* Destroys a test's window, then as window_test_finalize(). */
static inline void
window_test_destroy (GtkWindow *window)
{
  gtk_window_destroy (window);
  window_test_finalize (window);
}
