/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-a11y"

#include "config.h"

#include <adwaita.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-loop-page-private.h"
#include "tb-test-tools.h"
#include "tb-window.h"
#include "tb-history-page-private.h"
#include "tb-argument-editor-private.h"
#include "tb-window-private.h"

/* Every control a person can reach has a name a screen reader can say:
 * the window is shown with a rich form, a result and the history, and
 * each visible interactive widget is checked through GTK's test
 * accessibility backend (GTK_A11Y=test). */

static void
iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

/* Parts of other widgets, named by (or through) their owner. */
static gboolean
is_internal (GtkWidget *widget)
{
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_DROP_DOWN (w) || GTK_IS_ENTRY (w) || GTK_IS_SEARCH_ENTRY (w) ||
        GTK_IS_MENU_BUTTON (w) || GTK_IS_WINDOW_CONTROLS (w) || GTK_IS_POPOVER (w) ||
        ADW_IS_VIEW_SWITCHER_TITLE (w) || ADW_IS_VIEW_SWITCHER_BAR (w))
      return TRUE;
  return FALSE;
}

static gboolean
is_interactive (GtkWidget *widget)
{
  if (GTK_IS_LIST_BOX (widget))
    return gtk_widget_has_css_class (widget, "boxed-list") ||
           gtk_widget_has_css_class (widget, "navigation-sidebar");
  return GTK_IS_BUTTON (widget) || GTK_IS_ENTRY (widget) || GTK_IS_SEARCH_ENTRY (widget) ||
         GTK_IS_DROP_DOWN (widget) || GTK_IS_SWITCH (widget) || GTK_IS_TEXT_VIEW (widget) ||
         GTK_IS_LIST_VIEW (widget) || GTK_IS_EXPANDER (widget) || GTK_IS_CHECK_BUTTON (widget);
}

static gboolean
has_name (GtkWidget *widget)
{
  GtkAccessible *accessible = GTK_ACCESSIBLE (widget);

  if (gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL) ||
      gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY))
    return TRUE;
  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) != NULL)
    return TRUE;
  if (GTK_IS_EXPANDER (widget) && gtk_expander_get_label (GTK_EXPANDER (widget)) != NULL)
    return TRUE;
  if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)))
    return TRUE;
  return FALSE;
}

static void
check_tree (GtkWidget *widget,
            GString   *unnamed,
            guint     *checked)
{
  if (!gtk_widget_get_mapped (widget))
    return;

  if (is_interactive (widget) && !is_internal (widget))
    {
      (*checked)++;
      if (!has_name (widget))
        {
          GtkWidget *parent = gtk_widget_get_parent (widget);

          g_string_append_printf (unnamed, "  %s (in %s, tooltip “%s”)\n",
                                  G_OBJECT_TYPE_NAME (widget),
                                  parent != NULL ? G_OBJECT_TYPE_NAME (parent) : "-",
                                  gtk_widget_get_tooltip_text (widget));
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    check_tree (child, unnamed, checked);
}

static void
assert_all_named (GtkWidget  *window,
                  const char *where)
{
  g_autoptr(GString) unnamed = g_string_new (NULL);
  guint checked = 0;

  check_tree (window, unnamed, &checked);
  g_test_message ("%s: %u controls checked", where, checked);
  g_assert_cmpuint (checked, >, 3);
  if (unnamed->len > 0)
    g_error ("Controls without an accessible name on %s:\n%s", where, unnamed->str);
}

static void
test_names (void)
{
  g_autoptr(TbToolRegistry) registry = tb_test_tools_new_registry ();
  TbWindow *window = g_object_ref (tb_window_new (NULL, registry, NULL));
  TbToolPage *page = tb_window_get_tool_page (window);
  TbArgumentEditor *editor = tb_tool_page_get_argument_editor (page);
  gint64 deadline;

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 1600);
  gtk_window_present (GTK_WINDOW (window));
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the empty Tool page");

  g_assert_true (tb_window_select_tool (window, "create_issue"));
  tb_argument_editor_set_text (editor, "{\"title\":\"t\",\"labels\":[\"a\"],\"due\":null,"
                                       "\"assignee\":{\"login\":\"x\"},\"priority\":1}", NULL);
  tb_tool_page_run (page);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (tb_result_view_get_result (tb_tool_page_get_result_view (page)) == NULL &&
         g_get_monotonic_time () < deadline)
    iterate (10);
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the Tool page with a form and a result");

  tb_argument_editor_set_view (editor, "json");
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the JSON view");

  tb_window_set_page (window, "history");
  gtk_list_box_select_row (tb_history_page_get_list (tb_window_get_history_page (window)),
                           gtk_list_box_get_row_at_index (
                             tb_history_page_get_list (tb_window_get_history_page (window)), 0));
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the History page");

  gtk_window_destroy (GTK_WINDOW (window));
  iterate (50);
  g_assert_finalize_object (window);
}

/* The Loop, Facts and Trace pages, with a run under way and done. */
static void
test_page_names (void)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  TbWindow *window;
  TbLoopPage *loop_page;

  g_assert_true (tb_demo_tools_register (registry, NULL));
  window = g_object_ref (tb_window_new (NULL, registry, NULL));
  loop_page = tb_window_get_loop_page (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 1600);
  gtk_window_present (GTK_WINDOW (window));
  tb_window_set_page (window, "loop");
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the Loop page");

  g_signal_emit_by_name (tb_loop_page_get_button (loop_page, "step"), "clicked");
  while (tb_loop_page_get_busy (loop_page))
    iterate (10);
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the Loop page with a call waiting");

  g_signal_emit_by_name (tb_loop_page_get_button (loop_page, "continue"), "clicked");
  while (tb_loop_page_get_busy (loop_page))
    iterate (10);
  tb_window_set_page (window, "trace");
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the Trace page");

  tb_window_set_page (window, "facts");
  iterate (200);
  assert_all_named (GTK_WIDGET (window), "the Facts page");

  gtk_window_destroy (GTK_WINDOW (window));
  iterate (50);
  g_assert_finalize_object (window);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  g_test_add_func ("/a11y/names", test_names);
  g_test_add_func ("/a11y/page-names", test_page_names);

  return g_test_run ();
}
