/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-history-loop"

#include "config.h"

#include <adwaita.h>
#include <toolbench.h>

#include "window-test-util.h"

#include "tb-app-util.h"
#include "tb-argument-editor.h"
#include "tb-history-page.h"
#include "tb-history-row.h"
#include "tb-window.h"
#include "tb-history-page-private.h"
#include "tb-argument-editor-private.h"
#include "tb-loop-page-private.h"
#include "tb-window-private.h"

/* The History page lists the calls the loop makes, though the loop runs
 * them through a registry of its own: each row says the call came from
 * the loop, and when a person edited it, that it ran edited arguments. */

typedef WindowFixture Fixture;

static void
click (GtkWidget *button)
{
  g_assert_nonnull (button);
  WAIT_UNTIL (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static void
click_loop (Fixture    *f,
            const char *name)
{
  click (tb_loop_page_get_button (f->page, name));
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
}

/* Whether a label under @widget says @text. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget)
      && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

static TbHistoryEntry *
row_entry (Fixture *f,
           guint    position)
{
  GtkListBox *list = tb_history_page_get_list (tb_window_get_history_page (f->window));
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, position);

  g_assert_nonnull (row);
  return tb_history_row_get_entry (TB_HISTORY_ROW (row));
}

static gboolean
row_shows (Fixture    *f,
           guint       position,
           const char *text)
{
  GtkListBox *list = tb_history_page_get_list (tb_window_get_history_page (f->window));

  return shows_label (GTK_WIDGET (gtk_list_box_get_row_at_index (list, position)), text);
}

/* The demo run to its end: both calls are listed as the loop's, newest
 * first, with what they returned. */
static void
test_continue (Fixture       *f,
               gconstpointer  data)
{
  GtkListBox *list = tb_history_page_get_list (tb_window_get_history_page (f->window));
  TbHistoryEntry *entry;

  click_loop (f, "continue");
  tb_window_set_page (f->window, "history");
  window_test_iterate (100);

  g_assert_cmpuint (tb_list_box_count_rows (list), ==, 2);
  entry = row_entry (f, 0);
  g_assert_cmpstr (tb_history_entry_get_tool_name (entry), ==, "echo");
  g_assert_true (tb_history_entry_get_from_loop (entry));
  g_assert_false (tb_history_entry_get_edited (entry));
  g_assert_true (tb_tool_result_get_ok (tb_history_entry_get_result (entry)));
  g_assert_true (row_shows (f, 0, "From the loop · Succeeded in "));

  entry = row_entry (f, 1);
  g_assert_cmpstr (tb_history_entry_get_tool_name (entry), ==, "add");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (
                     tb_history_entry_get_arguments (entry)), "a"), ==, 2);
  g_assert_true (row_shows (f, 1, "From the loop · Succeeded in "));

  /* A new run adds to the list; the earlier run's calls stay. */
  tb_window_set_page (f->window, "loop");
  click_loop (f, "new");
  click_loop (f, "continue");
  window_test_iterate (50);
  g_assert_cmpuint (tb_list_box_count_rows (list), ==, 4);
}

/* An edited call is listed with the arguments that ran and says it was
 * edited; a skipped one ran no tool and is not listed. */
static void
test_edit_and_skip (Fixture       *f,
                    gconstpointer  data)
{
  GtkListBox *list = tb_history_page_get_list (tb_window_get_history_page (f->window));
  TbArgumentEditor *editor;
  TbHistoryEntry *entry;

  click_loop (f, "step");
  editor = tb_loop_page_get_pending_editor (f->page, 0);
  g_assert_nonnull (editor);
  g_assert_true (tb_argument_editor_set_text (editor, "{\"a\": 40, \"b\": 2}", NULL));
  click (tb_loop_page_get_pending_button (f->page, 0, "approve"));
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
  /* Decided, not yet run: nothing is listed. */
  g_assert_cmpuint (tb_list_box_count_rows (list), ==, 0);
  click_loop (f, "step");

  g_assert_cmpuint (tb_list_box_count_rows (list), ==, 1);
  entry = row_entry (f, 0);
  g_assert_cmpstr (tb_history_entry_get_tool_name (entry), ==, "add");
  g_assert_true (tb_history_entry_get_edited (entry));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (
                     tb_history_entry_get_arguments (entry)), "a"), ==, 40);
  g_assert_true (row_shows (f, 0, "From the loop, with edited arguments · Succeeded in "));
  {
    g_autofree char *text = tb_json_to_string (
      tb_tool_result_get_output (tb_history_entry_get_result (entry)), FALSE);

    g_assert_cmpstr (text, ==, "42");
  }

  /* The model calls echo; the person answers for it. */
  click_loop (f, "step");
  gtk_editable_set_text (tb_loop_page_get_pending_skip_entry (f->page, 0), "by hand");
  click (tb_loop_page_get_pending_button (f->page, 0, "skip"));
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
  click_loop (f, "step");
  g_assert_cmpuint (tb_list_box_count_rows (list), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  window_test_add ("/history/loop-continue", test_continue);
  window_test_add ("/history/loop-edit-and-skip", test_edit_and_skip);
  return g_test_run ();
}
