/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A screen reader can name every control of the preferences (each page and
 * both editors) and of the welcome page, checked through GTK's test
 * accessibility backend (GTK_A11Y=test). */

#include "config.h"

#include <adwaita.h>
#include <toolbench.h>

#include "tb-preferences-window.h"
#include "tb-prefs.h"
#include "tb-welcome-page.h"

static void
settle (void)
{
  gint64 end = g_get_monotonic_time () + 200 * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

/* Controls whose name comes from the widget that holds them. */
static gboolean
inside_named_owner (GtkWidget *widget)
{
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_DROP_DOWN (w) || GTK_IS_SEARCH_ENTRY (w) || GTK_IS_WINDOW_CONTROLS (w)
        || GTK_IS_POPOVER (w) || ADW_IS_ENTRY_ROW (w) || ADW_IS_VIEW_SWITCHER (w)
        || ADW_IS_VIEW_SWITCHER_BAR (w) || ADW_IS_VIEW_SWITCHER_TITLE (w))
      return TRUE;
  return FALSE;
}

static gboolean
wants_name (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) || GTK_IS_SWITCH (widget) || GTK_IS_TEXT_VIEW (widget)
         || GTK_IS_SPIN_BUTTON (widget) || GTK_IS_CHECK_BUTTON (widget)
         || ADW_IS_ENTRY_ROW (widget) || ADW_IS_COMBO_ROW (widget)
         || (ADW_IS_ACTION_ROW (widget)
             && gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (widget)));
}

static gboolean
named (GtkWidget *widget)
{
  GtkAccessible *accessible = GTK_ACCESSIBLE (widget);

  if (gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL)
      || gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY))
    return TRUE;
  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) != NULL)
    return TRUE;
  if (ADW_IS_PREFERENCES_ROW (widget)
      && *adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)) != '\0')
    return TRUE;
  return FALSE;
}

static void
walk (GtkWidget *widget,
      GString   *unnamed,
      guint     *checked)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (wants_name (widget) && !inside_named_owner (widget))
    {
      (*checked)++;
      if (!named (widget))
        g_string_append_printf (unnamed, "  %s “%s” in %s\n", G_OBJECT_TYPE_NAME (widget),
                                gtk_widget_get_name (widget),
                                G_OBJECT_TYPE_NAME (gtk_widget_get_parent (widget)));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    walk (child, unnamed, checked);
}

static void
assert_named (GtkWidget  *root,
              const char *where)
{
  g_autoptr(GString) unnamed = g_string_new (NULL);
  guint checked = 0;

  walk (root, unnamed, &checked);
  g_test_message ("%s: %u controls checked", where, checked);
  g_assert_cmpuint (checked, >=, 2);
  if (unnamed->len > 0)
    g_error ("Controls without an accessible name on %s:\n%s", where, unnamed->str);
}

static void
test_preferences (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  TbPreferencesWindow *window;
  static const char * const pages[] = { "providers", "loop", "tools" };

  g_assert_true (tb_prefs_save_provider (settings, NULL, "Local", "openai",
                                         "http://127.0.0.1:11434/v1", "m", NULL));
  g_assert_true (tb_prefs_save_mcp_server (settings, NULL, "shell", TRUE,
                                           "{\"command\": \"sh\"}", NULL));
  window = tb_preferences_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  settle ();

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (window), pages[i]);
      settle ();
      g_assert_cmpstr (adw_preferences_window_get_visible_page_name (
                         ADW_PREFERENCES_WINDOW (window)), ==, pages[i]);
      assert_named (GTK_WIDGET (window), pages[i]);
    }

  tb_preferences_window_edit_provider (window, "Local");
  settle ();
  assert_named (GTK_WIDGET (window), "the endpoint editor");
  adw_preferences_window_close_subpage (ADW_PREFERENCES_WINDOW (window));
  /* Let the closing transition end before the next subpage. */
  for (int i = 0; i < 5; i++)
    settle ();
  tb_preferences_window_edit_mcp_server (window, "shell");
  settle ();
  assert_named (GTK_WIDGET (window), "the MCP server editor");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_welcome (void)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_child (GTK_WINDOW (window), tb_welcome_page_new ());
  gtk_window_present (GTK_WINDOW (window));
  settle ();
  assert_named (window, "the welcome page");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/ship-a11y/preferences", test_preferences);
  g_test_add_func ("/ship-a11y/welcome", test_welcome);

  return g_test_run ();
}
