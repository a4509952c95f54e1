/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-loop-page-private.h"
#include "tb-window.h"

/* The window of a test over the demo tools, on its Loop page. */
typedef struct
{
  TbToolRegistry *registry;
  TbWindow       *window;
  TbLoopPage     *page;
} WindowFixture;

/* How long WAIT_UNTIL waits; a test of large files may wait longer. */
#ifndef WINDOW_TEST_WAIT_SECONDS
# define WINDOW_TEST_WAIT_SECONDS 10
#endif

#define WAIT_UNTIL(cond) \
  G_STMT_START { \
    gint64 _deadline = g_get_monotonic_time () + WINDOW_TEST_WAIT_SECONDS * G_USEC_PER_SEC; \
    while (!(cond)) \
      { \
        if (g_get_monotonic_time () > _deadline) \
          g_error ("Timed out waiting for %s", #cond); \
        if (!g_main_context_iteration (NULL, FALSE)) \
          g_usleep (1000); \
      } \
  } G_STMT_END

typedef gboolean (*WindowTestMatch) (GtkWidget     *widget,
                                     gconstpointer  data);

/* The first widget at or below @root, depth first, that @match takes, or
 * %NULL. */
static inline GtkWidget *
window_test_find (GtkWidget       *root,
                  WindowTestMatch  match,
                  gconstpointer    data)
{
  if (match (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = window_test_find (child, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The first key controller on @widget: the one the app put there. */
static inline GtkEventController *
window_test_key_controller (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        return GTK_EVENT_CONTROLLER (controller);
    }
  g_error ("%s has no key controller of the app's", G_OBJECT_TYPE_NAME (widget));
}

/* Gives @keyval, without modifiers, to @keys; whether it was handled. */
static inline gboolean
window_test_send_key (GtkEventController *keys,
                      guint               keyval)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (keys, "key-pressed", keyval, 0, 0, &handled);
  return handled;
}

/* Whether the keyboard focus of @widget's window is on @widget or in it. */
static inline gboolean
window_test_has_focus_in (GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static inline gboolean
window_test_is_named (GtkWidget     *widget,
                      gconstpointer  name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

static inline gboolean
window_test_is_label (GtkWidget     *widget,
                      gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0;
}

static inline gboolean
window_test_is_button (GtkWidget     *widget,
                       gconstpointer  label)
{
  return GTK_IS_BUTTON (widget)
         && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

static inline gboolean
window_test_is_a (GtkWidget     *widget,
                  gconstpointer  type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

/* The widget called @name (gtk_widget_set_name(), a .ui file's "name"
 * property) at or below @root, or %NULL. */
static inline GtkWidget *
window_test_find_named (GtkWidget  *root,
                        const char *name)
{
  return window_test_find (root, window_test_is_named, name);
}

/* The toplevel window called @name, or %NULL. */
static inline GtkWidget *
window_test_find_toplevel (const char *name)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (window_test_is_named (window, name))
        return window;
    }
  return NULL;
}

static inline void
window_test_iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

static inline void
window_test_read_text_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  char **text = user_data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("");
}

/* The text on @widget's clipboard, "" when it holds none. */
static inline char *
window_test_read_clipboard (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL,
                                 window_test_read_text_cb, &text);
  WAIT_UNTIL (text != NULL);
  return text;
}

/* Runs @widget's own shortcut for @accelerator ("<Control><Shift>k",
 * "F6"), as a key press in it would: the shortcut must exist. */
static inline void
window_test_press (GtkWidget  *widget,
                   const char *accelerator)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  g_autoptr(GtkShortcutTrigger) wanted = gtk_shortcut_trigger_parse_string (accelerator);
  gboolean found = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !found; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)) && !found; j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), wanted))
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0,
                                                           widget, NULL));
              found = TRUE;
            }
        }
    }
  g_assert_true (found);
}

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

static inline void
window_fixture_setup (WindowFixture *f,
                      gconstpointer  data)
{
  f->registry = tb_tool_registry_new ();
  g_assert_true (tb_demo_tools_register (f->registry, NULL));
  f->window = g_object_ref (TB_WINDOW (tb_window_new (NULL, f->registry, NULL)));
  f->page = tb_window_get_loop_page (f->window);
  tb_window_set_page (f->window, "loop");
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->page)));
}

static inline void
window_fixture_teardown (WindowFixture *f,
                         gconstpointer  data)
{
  window_test_destroy (GTK_WINDOW (f->window));
  window_test_finalize (f->registry);
}

#define window_test_add(path, func) \
  g_test_add ((path), WindowFixture, NULL, window_fixture_setup, (func), window_fixture_teardown)
