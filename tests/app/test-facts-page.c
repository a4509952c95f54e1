/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-facts-page"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

#include "window-test-util.h"

#include "tb-app-util.h"
#include "tb-confirm-dialog.h"
#include "tb-lock-row.h"
#include "tb-proposal-row.h"
#include "tb-window.h"
#include "tb-facts-page-private.h"
#include "tb-proposal-row-private.h"
#include "tb-lock-row-private.h"
#include "tb-window-private.h"
#include "tb-confirm-dialog-private.h"
#include "../test-json-util.h"

/* The Facts page of the real window over a workspace file: its rows are
 * made from the workspace's proposals and locks, and their buttons act
 * through the page's actions with the proposal's id or the key. */

typedef struct
{
  WindowFixture   base;
  char           *dir;
  char           *path;
  TbWorkspace    *workspace;
  TbFactProposal *city;
  TbFactProposal *home;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) city = tb_json_node_new_string ("Lyon");
  g_autoptr(JsonNode) home = tb_json_parse ("{\"city\":\"Lyon\",\"street\":\"2 place Bellecour\"}",
                                            -1, &error);

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("toolbench-facts-page-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "workspace.json", NULL);
  g_assert_true (g_file_set_contents (f->path,
                                      "{\"format\":\"toolbench-workspace\",\"version\":1,"
                                      "\"facts\":{\"home\":{\"city\":\"Paris\","
                                      "\"street\":\"1 rue de la Paix\"}},\"draft\":{},"
                                      "\"locks\":[\"name\",\"owner\"],\"proposals\":[]}",
                                      -1, NULL));
  f->workspace = tb_workspace_new_for_path (f->path, &error);
  g_assert_no_error (error);
  f->city = tb_workspace_propose (f->workspace, "city", city, "The user moved", "call_7", &error);
  g_assert_no_error (error);
  f->home = tb_workspace_propose (f->workspace, "home", home, NULL, NULL, &error);
  g_assert_no_error (error);

  window_fixture_setup (&f->base, data);
  tb_window_set_workspace (f->base.window, f->workspace);
  tb_window_set_page (f->base.window, "facts");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (tb_window_get_facts_page (f->base.window))));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *lock_path = g_strconcat (f->path, ".lock", NULL);

  window_fixture_teardown (&f->base, data);
  window_test_finalize (f->workspace);
  g_unlink (f->path);
  g_unlink (lock_path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static TbFactsPage *
page (Fixture *f)
{
  return tb_window_get_facts_page (f->base.window);
}

/* The rows of a list, in order. */
static GtkWidget *
row_at (GtkWidget *root,
        GType      type,
        guint      position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        {
          if (position == 0)
            return child;
          position--;
          continue;
        }
      found = row_at (child, type, position);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint
count_rows (GtkWidget *root,
            GType      type)
{
  guint n = 0;

  while (row_at (root, type, n) != NULL)
    n++;
  return n;
}

static GtkWidget *
button_of (GtkWidget  *row,
           GType       type,
           const char *name)
{
  GtkWidget *button = GTK_WIDGET (gtk_widget_get_template_child (row, type, name));

  g_assert_true (GTK_IS_BUTTON (button));
  WAIT_UNTIL (gtk_widget_get_mapped (button));
  return button;
}

/* Each waiting proposal is a row that holds it, titled with the key and
 * the new value, with the reason under it; each lock is a row of its key. */
static void
test_rows (Fixture       *f,
           gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (page (f));
  GtkWidget *row;

  g_assert_cmpuint (count_rows (root, TB_TYPE_PROPOSAL_ROW), ==, 2);
  row = row_at (root, TB_TYPE_PROPOSAL_ROW, 0);
  g_assert_true (tb_proposal_row_get_proposal (TB_PROPOSAL_ROW (row)) == f->city);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==,
                   "city → \"Lyon\"");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "The user moved");
  row = row_at (root, TB_TYPE_PROPOSAL_ROW, 1);
  g_assert_true (tb_proposal_row_get_proposal (TB_PROPOSAL_ROW (row)) == f->home);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "");

  g_assert_cmpuint (count_rows (root, TB_TYPE_LOCK_ROW), ==, 2);
  row = row_at (root, TB_TYPE_LOCK_ROW, 1);
  g_assert_cmpstr (tb_lock_row_get_key (TB_LOCK_ROW (row)), ==, "owner");
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "owner");
  g_assert_false (gtk_widget_get_mapped (window_test_find (root, window_test_is_label, "No key is locked.")));
}

/* Review on the second row opens the dialog about that proposal; deciding
 * it takes the row away. */
static void
test_review (Fixture       *f,
             gconstpointer  data)
{
  GtkWidget *row = row_at (GTK_WIDGET (page (f)), TB_TYPE_PROPOSAL_ROW, 1);
  AdwMessageDialog *dialog;

  g_signal_emit_by_name (button_of (row, TB_TYPE_PROPOSAL_ROW, "review_button"), "clicked");
  dialog = tb_facts_page_get_dialog (page (f));
  g_assert_nonnull (dialog);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Change the Fact “home”?");

  adw_message_dialog_response (dialog, "reject");
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_fact_proposal_get_status (f->home), ==, TB_PROPOSAL_STATUS_REJECTED);
  g_assert_cmpuint (count_rows (GTK_WIDGET (page (f)), TB_TYPE_PROPOSAL_ROW), ==, 1);
  row = row_at (GTK_WIDGET (page (f)), TB_TYPE_PROPOSAL_ROW, 0);
  g_assert_true (tb_proposal_row_get_proposal (TB_PROPOSAL_ROW (row)) == f->city);

  /* A proposal that is no longer waiting is not reviewed again. */
  gtk_widget_activate_action (GTK_WIDGET (page (f)), "facts.review", "s",
                              tb_fact_proposal_get_id (f->home));
  g_assert_null (tb_facts_page_get_dialog (page (f)));
}

/* The dialog holds the proposal and shows its parts: a line diff for a
 * structured value that had one before, none for a short one. Commit is
 * destructive and not the default; committing changes the fact. */
static void
test_dialog (Fixture       *f,
             gconstpointer  data)
{
  AdwMessageDialog *dialog = tb_facts_page_review (page (f), f->home);
  g_autoptr(JsonNode) home = NULL;
  g_autoptr(GError) error = NULL;

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  g_assert_true (TB_IS_CONFIRM_DIALOG (dialog));
  g_assert_true (tb_confirm_dialog_get_proposal (TB_CONFIRM_DIALOG (dialog)) == f->home);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog))
                 == GTK_WINDOW (f->base.window));
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "current"), ==,
                   "{\n  \"city\" : \"Paris\",\n  \"street\" : \"1 rue de la Paix\"\n}");
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "diff"), ==,
                   "  {\n"
                   "-   \"city\" : \"Paris\",\n"
                   "-   \"street\" : \"1 rue de la Paix\"\n"
                   "+   \"city\" : \"Lyon\",\n"
                   "+   \"street\" : \"2 place Bellecour\"\n"
                   "  }\n");
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "reason"), ==, "(none given)");
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "origin"), ==, "A person");
  g_assert_null (adw_message_dialog_get_default_response (dialog));
  g_assert_cmpstr (adw_message_dialog_get_close_response (dialog), ==, "close");
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "commit"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);

  adw_message_dialog_response (dialog, "commit");
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_fact_proposal_get_status (f->home), ==, TB_PROPOSAL_STATUS_COMMITTED);
  home = tb_workspace_dup_fact (f->workspace, "home", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (home), "street"), ==,
                   "2 place Bellecour");

  dialog = tb_facts_page_review (page (f), f->city);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "current"), ==, "(not set)");
  g_assert_null (tb_confirm_dialog_get_text (dialog, "diff"));
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "origin"), ==, "The model, in call call_7");
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_fact_proposal_get_status (f->city), ==, TB_PROPOSAL_STATUS_PENDING);
}

/* Unlock on a row unlocks its key; with no lock left the list says so.
 * The entry and Lock lock a key again. */
static void
test_locks (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *root = GTK_WIDGET (page (f));
  GtkWidget *row = row_at (root, TB_TYPE_LOCK_ROW, 0);
  GtkWidget *entry;

  g_assert_cmpstr (tb_lock_row_get_key (TB_LOCK_ROW (row)), ==, "name");
  g_signal_emit_by_name (button_of (row, TB_TYPE_LOCK_ROW, "unlock_button"), "clicked");
  g_assert_false (tb_workspace_is_locked (f->workspace, "name"));
  g_assert_true (tb_workspace_is_locked (f->workspace, "owner"));
  g_assert_cmpuint (count_rows (root, TB_TYPE_LOCK_ROW), ==, 1);

  row = row_at (root, TB_TYPE_LOCK_ROW, 0);
  g_signal_emit_by_name (button_of (row, TB_TYPE_LOCK_ROW, "unlock_button"), "clicked");
  g_assert_false (tb_workspace_is_locked (f->workspace, "owner"));
  g_assert_cmpuint (count_rows (root, TB_TYPE_LOCK_ROW), ==, 0);
  WAIT_UNTIL (window_test_find (root, window_test_is_label, "No key is locked.") != NULL
              && gtk_widget_get_mapped (window_test_find (root, window_test_is_label, "No key is locked.")));

  entry = GTK_WIDGET (gtk_widget_get_template_child (root, TB_TYPE_FACTS_PAGE, "lock_entry"));
  gtk_editable_set_text (GTK_EDITABLE (entry), "country");
  gtk_widget_activate_action (root, "facts.lock", NULL);
  g_assert_true (tb_workspace_is_locked (f->workspace, "country"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  g_assert_cmpuint (count_rows (root, TB_TYPE_LOCK_ROW), ==, 1);
  g_assert_cmpstr (tb_lock_row_get_key (TB_LOCK_ROW (row_at (root, TB_TYPE_LOCK_ROW, 0))), ==,
                   "country");
}

/* A proposal of half a megabyte, 1,500 lines of text: its row shows the
 * start of the value; Review shows all of it at once (labels took
 * fourteen seconds to lay it out), and Commit commits all of it. */
static void
test_large_value (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new ("[");
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(JsonNode) committed = NULL;
  g_autofree char *whole = NULL;
  TbFactProposal *proposal;
  AdwMessageDialog *dialog;
  GtkWidget *row;
  const char *title;
  gint64 started;

  for (guint i = 0; i < 1500; i++)
    g_string_append_printf (text, "%s\"%u lorem ipsum dolor sit amet, consectetur adipiscing "
                            "elit, sed do eiusmod tempor incididunt ut labore et dolore magna "
                            "aliqua, lorem ipsum dolor sit amet, consectetur adipiscing elit, "
                            "sed do eiusmod tempor incididunt ut labore et dolore magna aliqua\"",
                            i > 0 ? "," : "", i);
  g_string_append_c (text, ']');
  value = test_parse (text->str);
  whole = tb_json_to_string (value, TRUE);
  proposal = tb_workspace_propose (f->workspace, "notes", value, "The draft", "call_9", &error);
  g_assert_no_error (error);
  window_test_iterate (100);

  row = row_at (GTK_WIDGET (page (f)), TB_TYPE_PROPOSAL_ROW, 2);
  g_assert_true (tb_proposal_row_get_proposal (TB_PROPOSAL_ROW (row)) == proposal);
  title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row));
  g_assert_true (g_str_has_prefix (title, "notes → [\"0 lorem ipsum"));
  g_assert_true (g_str_has_suffix (title, "…"));
  g_assert_cmpint (g_utf8_strlen (title, -1), <=, strlen ("notes → ") + TB_PROPOSAL_ROW_MAX_VALUE);

  started = g_get_monotonic_time ();
  dialog = tb_facts_page_review (page (f), proposal);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  window_test_iterate (100);
  g_test_message ("the dialog took %.3f s", (g_get_monotonic_time () - started) / 1e6);
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "proposed"), ==, whole);
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "current"), ==, "(not set)");
  g_assert_null (tb_confirm_dialog_get_text (dialog, "diff"));
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "reason"), ==, "The draft");

  adw_message_dialog_response (dialog, "commit");
  gtk_window_close (GTK_WINDOW (dialog));
  started = g_get_monotonic_time ();
  window_test_iterate (50);
  g_test_message ("the page took %.3f s", (g_get_monotonic_time () - started) / 1e6);
  committed = tb_workspace_dup_fact (f->workspace, "notes", &error);
  g_assert_no_error (error);
  g_assert_true (json_node_equal (committed, value));
  g_assert_nonnull (strstr (tb_facts_page_get_facts_text (page (f)),
                            "\"1499 lorem ipsum dolor sit amet"));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  tb_app_init ();

  g_test_add ("/facts-page/rows", Fixture, NULL, setup, test_rows, teardown);
  g_test_add ("/facts-page/review", Fixture, NULL, setup, test_review, teardown);
  g_test_add ("/facts-page/dialog", Fixture, NULL, setup, test_dialog, teardown);
  g_test_add ("/facts-page/locks", Fixture, NULL, setup, test_locks, teardown);

  g_test_add ("/facts-page/large-value", Fixture, NULL, setup, test_large_value, teardown);
  return g_test_run ();
}
