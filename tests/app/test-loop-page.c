/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-loop-page"

#include "config.h"

#include <adwaita.h>
#include <toolbench.h>

#include "window-test-util.h"

#include <glib/gstdio.h>

#include "tb-app-util.h"
#include "tb-trace-page-private.h"
#include "tb-confirm-dialog.h"
#include "tb-elicitation-dialog-private.h"
#include "tb-mcp-dialogs.h"
#include "tb-mcp-log-view-private.h"
#include "tb-pending-call-row.h"
#include "tb-window.h"
#include "tb-facts-page-private.h"
#include "tb-mcp-dialogs-private.h"
#include "tb-argument-editor-private.h"
#include "tb-loop-page-private.h"
#include "tb-pending-call-row-private.h"
#include "tb-window-private.h"
#include "tb-confirm-dialog-private.h"
#include "../test-soup-util.h"

/* The Loop page of the real window, driven through its buttons over the
 * built-in demo tools and the offline scripted demo: the rows of the
 * conversation, the state and iteration labels, the pending calls. */

typedef WindowFixture Fixture;

static void
click (Fixture    *f,
       const char *name)
{
  GtkWidget *button = tb_loop_page_get_button (f->page, name);

  g_assert_nonnull (button);
  WAIT_UNTIL (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
  g_test_message ("after %s: %s / %s / %s", name, tb_loop_page_get_state_text (f->page),
                  tb_loop_page_get_iteration_text (f->page), tb_loop_page_get_error_text (f->page));
}

static void
assert_row (Fixture    *f,
            guint       position,
            const char *expected)
{
  g_autofree char *text = tb_loop_page_get_row_text (f->page, position);

  g_assert_cmpstr (text, ==, expected);
}

static void
assert_status (Fixture    *f,
               const char *state,
               const char *iteration)
{
  g_assert_cmpstr (tb_loop_page_get_state_text (f->page), ==, state);
  g_assert_cmpstr (tb_loop_page_get_iteration_text (f->page), ==, iteration);
}

static void
click_pending (Fixture    *f,
               guint       position,
               const char *name)
{
  GtkWidget *button = tb_loop_page_get_pending_button (f->page, position, name);

  g_assert_nonnull (button);
  WAIT_UNTIL (gtk_widget_get_mapped (button));
  g_signal_emit_by_name (button, "clicked");
}

/* The decision event the trace recorded for a call. */
static JsonObject *
decision_for (Fixture    *f,
              const char *call_id)
{
  TbTrace *trace = tb_dispatch_loop_get_trace (tb_loop_page_get_loop (f->page));

  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      JsonObject *payload = tb_trace_event_get_payload (event);

      if (g_str_equal (tb_trace_event_get_event_type (event), "decision")
          && g_strcmp0 (tb_json_object_get_string (payload, "call_id"), call_id) == 0)
        return payload;
    }
  return NULL;
}

static void
test_step_edit_skip (Fixture       *f,
                     gconstpointer  data)
{
  TbArgumentEditor *editor;
  JsonObject *decision;
  g_autofree char *json = NULL;
  g_autofree char *arguments = NULL;

  assert_status (f, "Not started", "Iteration 0 of 10");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 0);

  /* Step 1: the model's first turn, a call to add. */
  click (f, "step");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 2);
  assert_row (f, 0, "You: What is 2 + 3?");
  assert_row (f, 1, "Model: Let me add those numbers.\nCalls add {\"a\":2,\"b\":3}");
  assert_status (f, "Calls wait for your decision", "Iteration 1 of 10");
  g_assert_cmpuint (tb_loop_page_get_n_pending (f->page), ==, 1);
  json = tb_loop_page_get_row_json (f->page, 1);
  g_assert_nonnull (strstr (json, "\"tool_calls\""));
  /* The model's turn carries the request and response of its turn. */
  g_assert_nonnull (strstr (json, "Request on the wire"));
  g_assert_nonnull (strstr (json, "Response on the wire"));
  g_clear_pointer (&json, g_free);
  json = tb_loop_page_get_row_json (f->page, 0);
  g_assert_null (strstr (json, "on the wire"));

  /* The call's arguments are edited in the Tool page's editor; Approve
   * runs what it shows. */
  editor = tb_loop_page_get_pending_editor (f->page, 0);
  g_assert_nonnull (editor);
  arguments = tb_argument_editor_get_text (editor);
  g_assert_nonnull (strstr (arguments, "\"a\""));
  g_assert_true (tb_argument_editor_set_text (editor, "{\"a\": 40, \"b\": 2}", NULL));
  click_pending (f, 0, "approve");

  /* Step 2: the edited call runs. */
  click (f, "step");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 3);
  assert_row (f, 2, "Result of add: 42\n"
                    "Edited by you: ran with {\"a\":40,\"b\":2} instead of {\"a\":2,\"b\":3}");
  assert_status (f, "Ready for the model's turn", "Iteration 1 of 10");
  decision = decision_for (f, "demo_1");
  g_assert_nonnull (decision);
  g_assert_cmpstr (json_object_get_string_member (decision, "decision"), ==, "edit");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (decision,
                                                                              "arguments"),
                                               "a"), ==, 40);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (decision,
                                                                              "model_arguments"),
                                               "a"), ==, 2);

  /* Step 3: the model calls echo; the person answers for the tool. */
  click (f, "step");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 4);
  assert_row (f, 3, "Calls echo {\"text\":\"2 + 3 = 5\"}");
  assert_status (f, "Calls wait for your decision", "Iteration 2 of 10");
  gtk_editable_set_text (tb_loop_page_get_pending_skip_entry (f->page, 0), "written by hand");
  click_pending (f, 0, "skip");

  /* Step 4: the hand-written result is what the model sees. */
  click (f, "step");
  assert_row (f, 4, "Result of echo: written by hand\n"
                    "Skipped by you: the model was told your result, the tool did not run");
  g_assert_cmpstr (json_object_get_string_member (decision_for (f, "demo_2"), "decision"), ==,
                   "skip");

  /* Step 5: the answer. */
  click (f, "step");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 6);
  assert_row (f, 5, "Model: 2 + 3 = 5. I used the add tool for the sum and the echo tool to "
                    "confirm it.");
  assert_status (f, "Finished", "Iteration 3 of 10");
  g_assert_false (gtk_widget_is_sensitive (tb_loop_page_get_button (f->page, "step")));

  /* New Run starts over. */
  click (f, "new");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 0);
  assert_status (f, "Not started", "Iteration 0 of 10");
}

static void press (Fixture    *f,
                   const char *accelerator);

static gboolean
editor_shows (TbArgumentEditor *editor,
              const char       *text)
{
  g_autofree char *shown = tb_argument_editor_get_text (editor);

  return strstr (shown, text) != NULL;
}

static TbPendingCallRow *
pending_row (Fixture *f,
             guint    position)
{
  GtkWidget *editor = GTK_WIDGET (tb_loop_page_get_pending_editor (f->page, position));

  return TB_PENDING_CALL_ROW (gtk_widget_get_ancestor (editor, TB_TYPE_PENDING_CALL_ROW));
}

/* Approve runs what the form shows, as a person types it in the form's
 * field; the row says what Step would do before anything is decided. */
static void
test_approve_runs_form (Fixture       *f,
                        gconstpointer  data)
{
  TbArgumentEditor *editor;
  GtkWidget *field;
  JsonObject *decision;

  click (f, "step");
  editor = tb_loop_page_get_pending_editor (f->page, 0);
  g_assert_cmpstr (tb_pending_call_row_get_decision_text (pending_row (f, 0)), ==,
                   "Not decided: Step runs it as the model sent it");
  field = tb_schema_form_get_input (tb_argument_editor_get_form (editor), "/a");
  g_assert_nonnull (field);
  gtk_editable_set_text (GTK_EDITABLE (field), "7");
  WAIT_UNTIL (editor_shows (editor, "7"));
  g_assert_cmpstr (tb_pending_call_row_get_decision_text (pending_row (f, 0)), ==,
                   "Not decided: Step runs the model's arguments, not the ones above; "
                   "Approve runs yours");

  click_pending (f, 0, "approve");
  g_assert_cmpstr (tb_pending_call_row_get_decision_text (pending_row (f, 0)), ==,
                   "Approved with your changes: runs with the arguments above");
  /* A change after approving withdraws the approval. */
  gtk_editable_set_text (GTK_EDITABLE (field), "8");
  WAIT_UNTIL (tb_pending_call_get_decision (tb_pending_call_row_get_pending (pending_row (f, 0)))
              == TB_CALL_DECISION_UNDECIDED);
  g_assert_cmpstr (tb_pending_call_row_get_problem_text (pending_row (f, 0)), ==,
                   "The arguments changed after you approved them: approve again.");
  gtk_editable_set_text (GTK_EDITABLE (field), "7");
  click_pending (f, 0, "approve");

  click (f, "step");
  assert_row (f, 2, "Result of add: 10\n"
                    "Edited by you: ran with {\"a\":7,\"b\":3} instead of {\"a\":2,\"b\":3}");
  decision = decision_for (f, "demo_1");
  g_assert_cmpstr (json_object_get_string_member (decision, "decision"), ==, "edit");
  g_assert_cmpstr (json_object_get_string_member (decision, "by"), ==, "person");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (decision,
                                                                              "arguments"),
                                               "a"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (decision,
                                                                              "model_arguments"),
                                               "a"), ==, 2);
}

/* Arguments the schema refuses are not approved; Run Anyway sends them
 * and the model reads the tool's answer. Under "ask" the row says that
 * Step waits, and Step does. */
static void
test_run_anyway (Fixture       *f,
                 gconstpointer  data)
{
  TbArgumentEditor *editor;
  GtkWidget *anyway;
  g_autofree char *row = NULL;

  tb_loop_page_set_ask (f->page, TRUE);
  click (f, "step");
  g_assert_cmpstr (tb_pending_call_row_get_decision_text (pending_row (f, 0)), ==,
                   "Not decided: Step waits until you decide");
  click (f, "step");
  g_assert_nonnull (strstr (tb_loop_page_get_error_text (f->page), "1 call waits"));
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 2);

  editor = tb_loop_page_get_pending_editor (f->page, 0);
  g_assert_true (tb_argument_editor_set_text (editor, "{\"a\": \"seven\", \"b\": 3}", NULL));
  WAIT_UNTIL (!tb_argument_editor_get_valid (editor));
  anyway = tb_loop_page_get_pending_button (f->page, 0, "run-anyway");
  g_assert_false (gtk_widget_get_visible (anyway));
  click_pending (f, 0, "approve");
  g_assert_cmpint (tb_pending_call_get_decision (tb_pending_call_row_get_pending (
                                                   pending_row (f, 0))), ==,
                   TB_CALL_DECISION_UNDECIDED);
  g_assert_nonnull (strstr (tb_pending_call_row_get_problem_text (pending_row (f, 0)),
                            "Run Anyway"));
  g_assert_true (gtk_widget_get_visible (anyway));
  click_pending (f, 0, "run-anyway");
  g_assert_cmpint (tb_pending_call_get_decision (tb_pending_call_row_get_pending (
                                                   pending_row (f, 0))), ==,
                   TB_CALL_DECISION_EDIT);

  click (f, "step");
  row = tb_loop_page_get_row_text (f->page, 2);
  g_assert_true (g_str_has_prefix (row, "Error from add: "));
  g_assert_nonnull (strstr (row, "Edited by you: ran with {\"a\":\"seven\",\"b\":3}"));
}

/* The decision keys act on the focused call and move on: the first
 * waiting call takes the focus, Alt+J rejects it, then Step. */
static void
test_decide_by_keys (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *focus;

  click (f, "step");
  WAIT_UNTIL ((focus = gtk_window_get_focus (GTK_WINDOW (f->window))) != NULL
              && gtk_widget_get_ancestor (focus, TB_TYPE_PENDING_CALL_ROW) != NULL);
  press (f, "<Alt>e");
  focus = gtk_window_get_focus (GTK_WINDOW (f->window));
  g_assert_true (gtk_widget_is_ancestor (focus,
                                         GTK_WIDGET (tb_loop_page_get_pending_editor (f->page,
                                                                                      0))));
  press (f, "<Alt>j");
  g_assert_cmpint (tb_pending_call_get_decision (tb_pending_call_row_get_pending (
                                                   pending_row (f, 0))), ==,
                   TB_CALL_DECISION_REJECT);
  /* Every call decided: the focus is on Step. */
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (f->window))
                 == tb_loop_page_get_button (f->page, "step"));
  press (f, "F6");
  {
    g_autofree char *row = tb_loop_page_get_row_text (f->page, 2);

    g_assert_nonnull (strstr (row, "Rejected by you: the model was told you declined"));
  }
  /* Next turn (echo): Alt+A approves it as sent. */
  press (f, "F6");
  WAIT_UNTIL (tb_loop_page_get_n_pending (f->page) == 1);
  press (f, "<Alt>a");
  g_assert_cmpint (tb_pending_call_get_decision (tb_pending_call_row_get_pending (
                                                   pending_row (f, 0))), ==,
                   TB_CALL_DECISION_APPROVE);
}

/* Tab from the first control of the page, as the window moves the focus,
 * until it leaves the page: the widgets in the order they took the focus
 * (entries by their text widget's entry). A trap shows as a widget that
 * keeps the focus. */
static GPtrArray *
walk_tab (Fixture   *f,
          GtkWidget *start)
{
  GPtrArray *seen = g_ptr_array_new ();

  /* The window gives the initial focus once it is shown: after that. */
  window_test_iterate (100);
  gtk_widget_grab_focus (start);
  WAIT_UNTIL (gtk_window_get_focus (GTK_WINDOW (f->window)) == start);
  for (guint i = 0; i < 80; i++)
    {
      GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (f->window));
      GtkWidget *entry;

      if (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (f->page)))
        break;
      if (GTK_IS_TEXT (focus)
          && (entry = gtk_widget_get_ancestor (gtk_widget_get_parent (focus),
                                               GTK_TYPE_EDITABLE)) != NULL)
        focus = entry;
      if (seen->len > 0 && g_ptr_array_index (seen, seen->len - 1) == focus)
        g_error ("Tab stays on a %s", G_OBJECT_TYPE_NAME (focus));
      g_ptr_array_add (seen, focus);
      g_test_message ("focus %u: %s", seen->len, G_OBJECT_TYPE_NAME (focus));
      if (!gtk_widget_child_focus (GTK_WIDGET (f->window), GTK_DIR_TAB_FORWARD))
        break;
      window_test_iterate (10);
    }
  return seen;
}

/* The widgets come in this order among those the walk reached. */
static void
assert_in_order (GPtrArray  *seen,
                 GtkWidget **expected)
{
  guint at = 0;

  for (guint i = 0; expected[i] != NULL; i++)
    {
      guint found;

      if (!g_ptr_array_find (seen, expected[i], &found))
        g_error ("Tab never reaches the %s number %u", G_OBJECT_TYPE_NAME (expected[i]), i);
      g_assert_cmpuint (found, >=, at);
      at = found;
    }
}

static void
test_tab_order (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  GtkWidget *provider = GTK_WIDGET (tb_loop_page_get_provider_dropdown (f->page));
  GtkWidget *provider_button = gtk_widget_get_first_child (provider);

  /* Before a run: the collapsed "Tools to offer" and the insensitive Stop
   * let Tab through to Step, Continue, New Run and the model's turn. */
  before = walk_tab (f, provider_button);
  assert_in_order (before, (GtkWidget *[]) {
    provider_button,
    tb_loop_page_get_button (f->page, "step"),
    tb_loop_page_get_button (f->page, "continue"),
    tb_loop_page_get_button (f->page, "new"),
    GTK_WIDGET (tb_loop_page_get_model_turn_entry (f->page)),
    NULL });
  g_assert_false (g_ptr_array_find (before, tb_loop_page_get_button (f->page, "stop"), NULL));

  /* A call waiting: Stop, the conversation's JSON, then the call's
   * buttons, then the model's turn. */
  tb_loop_page_set_ask (f->page, TRUE);
  click (f, "step");
  WAIT_UNTIL (tb_loop_page_get_n_pending (f->page) == 1);
  /* The waiting call takes the focus first. */
  WAIT_UNTIL (gtk_window_get_focus (GTK_WINDOW (f->window)) != NULL
              && gtk_widget_get_ancestor (gtk_window_get_focus (GTK_WINDOW (f->window)),
                                          TB_TYPE_PENDING_CALL_ROW) != NULL);
  pending = walk_tab (f, provider_button);
  assert_in_order (pending, (GtkWidget *[]) {
    tb_loop_page_get_button (f->page, "continue"),
    tb_loop_page_get_button (f->page, "stop"),
    tb_loop_page_get_button (f->page, "new"),
    tb_loop_page_get_pending_button (f->page, 0, "approve"),
    tb_loop_page_get_pending_button (f->page, 0, "edit"),
    tb_loop_page_get_pending_button (f->page, 0, "reject"),
    tb_loop_page_get_pending_button (f->page, 0, "skip"),
    GTK_WIDGET (tb_loop_page_get_model_turn_entry (f->page)),
    NULL });

  /* Alt+W, the mnemonic of "Write the model's turn", goes to its entry. */
  {
    GtkWidget *entry = GTK_WIDGET (tb_loop_page_get_model_turn_entry (f->page));
    GList *labels = gtk_widget_list_mnemonic_labels (entry);

    g_assert_nonnull (labels);
    g_assert_cmpuint (gdk_keyval_to_lower (gtk_label_get_mnemonic_keyval (labels->data)), ==,
                      GDK_KEY_w);
    gtk_widget_mnemonic_activate (labels->data, FALSE);
    g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (f->window)), entry));
    g_list_free (labels);
  }
}

static void
test_reject (Fixture       *f,
             gconstpointer  data)
{
  click (f, "step");
  click_pending (f, 0, "reject");
  click (f, "step");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 3);
  {
    g_autofree char *text = tb_loop_page_get_row_text (f->page, 2);

    g_assert_true (g_str_has_prefix (text, "Error from add: "));
    g_assert_nonnull (strstr (text, "declined"));
  }
}

static void
test_cap_and_extend (Fixture       *f,
                     gconstpointer  data)
{
  tb_loop_page_set_max_iterations (f->page, 1);
  assert_status (f, "Not started", "Iteration 0 of 1");
  click (f, "step");
  g_assert_false (gtk_widget_is_sensitive (tb_loop_page_get_button (f->page, "extend")));
  click (f, "step");
  assert_status (f, "Iteration cap reached", "Iteration 1 of 1");
  g_assert_false (gtk_widget_is_sensitive (tb_loop_page_get_button (f->page, "step")));

  click (f, "extend");
  assert_status (f, "Ready for the model's turn", "Iteration 1 of 6");
  click (f, "step");
  assert_row (f, 3, "Calls echo {\"text\":\"2 + 3 = 5\"}");
  assert_status (f, "Calls wait for your decision", "Iteration 2 of 6");
}

static void
test_continue_breakpoint (Fixture       *f,
                          gconstpointer  data)
{
  tb_loop_page_set_system_prompt (f->page, "Be brief.");
  tb_loop_page_set_breakpoints (f->page, "echo");
  click (f, "continue");
  assert_row (f, 0, "System: Be brief.");
  assert_status (f, "Calls wait for your decision", "Iteration 2 of 10");
  assert_row (f, 3, "Result of add: 5");
  assert_row (f, 4, "Calls echo {\"text\":\"2 + 3 = 5\"}");

  click (f, "continue");
  assert_status (f, "Finished", "Iteration 3 of 10");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 7);
}

static void
test_model_turn (Fixture       *f,
                 gconstpointer  data)
{
  GtkEditable *entry = tb_loop_page_get_model_turn_entry (f->page);

  /* A call written by hand, then the answer written by hand. */
  gtk_editable_set_text (entry, "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"mine\","
                                "\"name\":\"echo\",\"arguments\":{\"text\":\"by hand\"}}]}");
  click (f, "model-turn");
  g_assert_cmpstr (tb_loop_page_get_error_text (f->page), ==, "");
  assert_row (f, 1, "Calls echo {\"text\":\"by hand\"}");
  assert_status (f, "Calls wait for your decision", "Iteration 1 of 10");
  click (f, "step");
  assert_row (f, 2, "Result of echo: by hand");

  gtk_editable_set_text (entry, "All done.");
  click (f, "model-turn");
  assert_row (f, 3, "Model: All done.");
  assert_status (f, "Finished", "Iteration 2 of 10");

  /* A turn that is not a valid message is refused with a reason. */
  click (f, "new");
  gtk_editable_set_text (entry, "{\"role\":\"user\",\"content\":\"x\"}");
  click (f, "model-turn");
  g_assert_cmpstr (tb_loop_page_get_error_text (f->page), !=, "");
  g_test_message ("refused: %s", tb_loop_page_get_error_text (f->page));
  gtk_editable_set_text (entry, "{not json");
  click (f, "model-turn");
  g_assert_cmpstr (tb_loop_page_get_error_text (f->page), !=, "");
  g_test_message ("refused: %s", tb_loop_page_get_error_text (f->page));
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 1);
}

static JsonNode *
late_tool (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  return tb_json_node_new_string ("late ran");
}

/* A tool that comes during a run is offered from the next turn: a call to
 * it before it came is refused with the tools there are, the same call
 * after it came runs (as when a person adds a tool folder mid-run). */
static void
test_tool_comes_mid_run (Fixture       *f,
                         gconstpointer  data)
{
  GtkEditable *entry = tb_loop_page_get_model_turn_entry (f->page);
  const char *turn = "{\"role\":\"assistant\",\"tool_calls\":[{\"name\":\"late_tool\","
                     "\"arguments\":{}}]}";
  g_autoptr(JsonNode) schema = tb_json_parse ("{\"type\":\"object\"}", -1, NULL);
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *refused = NULL;

  gtk_editable_set_text (entry, turn);
  click (f, "model-turn");
  assert_row (f, 1, "Calls late_tool {}");
  click (f, "step");
  refused = tb_loop_page_get_row_text (f->page, 2);
  g_assert_true (g_str_has_prefix (refused, "Error from late_tool: Error: There is no tool "
                                            "named “late_tool”. Available tools: "));

  tool = tb_tool_new_simple ("late_tool", "Came late.", schema, TB_TOOL_SIMPLE_FLAGS_NONE,
                             late_tool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (f->registry, tool, &error));
  g_assert_no_error (error);

  gtk_editable_set_text (entry, turn);
  click (f, "model-turn");
  assert_row (f, 3, "Calls late_tool {}");
  assert_status (f, "Calls wait for your decision", "Iteration 2 of 10");
  click (f, "step");
  assert_row (f, 4, "Result of late_tool: late ran");
}

/* Fires the page's shortcut for an accelerator, as the window's shortcut
 * manager does when the key is pressed. */
static void
press (Fixture    *f,
       const char *accelerator)
{
  window_test_press (GTK_WIDGET (f->page), accelerator);
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
}

static void
test_shortcuts (Fixture       *f,
                gconstpointer  data)
{
  tb_loop_page_set_max_iterations (f->page, 1);
  press (f, "F6");
  assert_status (f, "Calls wait for your decision", "Iteration 1 of 1");
  press (f, "F5");
  assert_status (f, "Iteration cap reached", "Iteration 1 of 1");
  press (f, "<Control><Shift>x");
  assert_status (f, "Ready for the model's turn", "Iteration 1 of 6");
  press (f, "<Control><Shift>n");
  assert_status (f, "Not started", "Iteration 0 of 1");

  /* From another page F6 brings the Loop page forward and steps: the
   * person asked for the loop. */
  tb_window_set_page (f->window, "tool");
  WAIT_UNTIL (!gtk_widget_get_mapped (GTK_WIDGET (f->page)));
  press (f, "F6");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (tb_window_get_view_stack (f->window)),
                   ==, "loop");
  assert_status (f, "Calls wait for your decision", "Iteration 1 of 1");
}

static void
test_ask_and_subset (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *tools = NULL;
  g_autofree char *text = NULL;

  /* With "ask", Step waits for a decision on every call. */
  tb_loop_page_set_ask (f->page, TRUE);
  click (f, "step");
  click (f, "step");
  g_assert_cmpstr (tb_loop_page_get_error_text (f->page), !=, "");
  g_test_message ("refused: %s", tb_loop_page_get_error_text (f->page));
  assert_status (f, "Calls wait for your decision", "Iteration 1 of 10");
  click_pending (f, 0, "approve");
  click (f, "step");
  assert_row (f, 2, "Result of add: 5");

  /* A tool left out is not offered, and a call to it does not run. */
  click (f, "new");
  tb_loop_page_set_ask (f->page, FALSE);
  tb_loop_page_set_tool_offered (f->page, "echo", FALSE);
  tools = tb_loop_page_get_offered_tools_json (f->page);
  g_assert_null (strstr (tools, "\"echo\""));
  g_assert_nonnull (strstr (tools, "\"add\""));
  click (f, "continue");
  text = tb_loop_page_get_row_text (f->page, 4);
  g_assert_true (g_str_has_prefix (text, "Error from echo: "));
  g_clear_pointer (&tools, g_free);
  tools = tb_loop_page_get_offered_tools_json (f->page);
  g_assert_null (strstr (tools, "\"echo\""));
}

/* A provider that fails: the page says why, the trace keeps the attempt,
 * and the turn can be asked again. */
static void
test_provider_error (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(JsonNode) script = tb_json_parse (
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"error\":\"The model is down.\"},{\"text\":\"Back again.\"}]}", -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, NULL);
  TbTrace *trace;
  GtkWidget *retry = tb_loop_page_get_button (f->page, "retry");

  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  g_assert_false (gtk_widget_get_visible (retry));
  click (f, "step");
  assert_status (f, "Failed", "Iteration 1 of 10");
  g_assert_nonnull (strstr (tb_loop_page_get_error_text (f->page), "The model is down."));
  trace = tb_dispatch_loop_get_trace (tb_loop_page_get_loop (f->page));
  g_assert_cmpuint (tb_trace_count (trace, "error"), ==, 1);

  click (f, "retry");
  assert_status (f, "Ready for the model's turn", "Iteration 0 of 10");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 1);
  click (f, "step");
  assert_row (f, 1, "Model: Back again.");
  assert_status (f, "Finished", "Iteration 1 of 10");
  /* One trace holds the failed attempt and the retried turn. */
  g_assert_true (tb_dispatch_loop_get_trace (tb_loop_page_get_loop (f->page)) == trace);
  g_assert_cmpuint (tb_trace_count (trace, "error"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 2);
}

/* What the model thought is under its turn, collapsed, and in the trace;
 * a turn without reasoning has no such expander. */
static void
test_reasoning (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(JsonNode) script = tb_json_parse (
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"reasoning\":\"Adding needs the add tool.\",\"tool_calls\":[{\"name\":\"add\","
    "\"arguments\":{\"a\":2,\"b\":3}}]},{\"text\":\"5\"}]}", -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, NULL);
  g_autofree char *thought = NULL;
  g_autofree char *none = NULL;
  g_autofree char *json = NULL;

  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  click (f, "step");
  assert_status (f, "Calls wait for your decision", "Iteration 1 of 10");
  click (f, "step");
  click (f, "step");
  assert_status (f, "Finished", "Iteration 2 of 10");
  thought = tb_loop_page_get_row_reasoning (f->page, 1);
  g_assert_cmpstr (thought, ==, "Adding needs the add tool.");
  none = tb_loop_page_get_row_reasoning (f->page, 3);
  g_assert_null (none);
  json = tb_loop_page_get_row_json (f->page, 1);
  g_assert_nonnull (strstr (json, "\"reasoning\" : \"Adding needs the add tool.\""));
}

/* The model's text is shown as it arrives, then becomes its row. */
static void
test_streaming (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(JsonNode) script = tb_json_parse (
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"text\":\"The whole answer.\",\"delay_ms\":1500}]}", -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, NULL);

  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  g_signal_emit_by_name (tb_loop_page_get_button (f->page, "step"), "clicked");
  WAIT_UNTIL (g_str_equal (tb_loop_page_get_state_text (f->page), "Waiting for the model"));
  /* The scripted provider streams its text before its delay is over. */
  WAIT_UNTIL (g_str_equal (tb_loop_page_get_streaming_text (f->page),
                           "Model (arriving): The whole answer."));
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 1);
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
  g_assert_cmpstr (tb_loop_page_get_streaming_text (f->page), ==, "");
  assert_row (f, 1, "Model: The whole answer.");
}

/* A long answer arriving shows its end, a few lines: the whole of it,
 * laid out again on every frame as it grew, took seconds (120,000
 * characters: 4 s). Its row then shows its start and Show More. */
static void
test_streaming_long (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new ("{\"format\":\"toolbench-script\",\"version\":1,"
                                          "\"responses\":[{\"delay_ms\":1500,\"text\":\"");
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autofree char *row = NULL;
  const char *shown;

  for (guint i = 0; i < 5000; i++)
    g_string_append (text, "Ünïcode answer, ");
  g_string_append (text, "the end.\"}]}");
  script = tb_json_parse (text->str, -1, NULL);
  provider = tb_scripted_provider_new_from_json (script, NULL);
  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  g_signal_emit_by_name (tb_loop_page_get_button (f->page, "step"), "clicked");
  WAIT_UNTIL (g_str_has_suffix (tb_loop_page_get_streaming_text (f->page), "the end."));
  shown = tb_loop_page_get_streaming_text (f->page);
  g_assert_true (g_str_has_prefix (shown, "Model (arriving): …"));
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  g_assert_cmpuint (strlen (shown), <=, strlen ("Model (arriving): …") + 2000);
  g_assert_cmpuint (strlen (shown), >, 1900);

  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
  row = tb_loop_page_get_row_text (f->page, 1);
  g_assert_true (g_str_has_prefix (row, "Model: Ünïcode answer, "));
  g_assert_true (g_str_has_suffix (row, "the end."));
}

/* A model that calls 50 tools in one turn: every call waits in the list. */
static void
test_fifty_calls (Fixture       *f,
                  gconstpointer  data)
{
  GString *text = g_string_new ("{\"format\":\"toolbench-script\",\"version\":1,"
                                "\"responses\":[{\"tool_calls\":[");
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autofree char *last = NULL;
  gint64 start;

  for (guint i = 0; i < 50; i++)
    g_string_append_printf (text, "%s{\"id\":\"c%u\",\"name\":\"add\","
                            "\"arguments\":{\"a\":%u,\"b\":1}}", i > 0 ? "," : "", i, i);
  g_string_append (text, "]},{\"text\":\"Done.\"}]}");
  script = tb_json_parse (text->str, -1, NULL);
  g_string_free (text, TRUE);
  provider = tb_scripted_provider_new_from_json (script, NULL);
  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));

  start = g_get_monotonic_time ();
  click (f, "step");
  g_assert_cmpuint (tb_loop_page_get_n_pending (f->page), ==, 50);
  window_test_iterate (50);
  g_test_message ("50 pending calls shown in %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  click (f, "step");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 52);
  last = tb_loop_page_get_row_text (f->page, 51);
  g_assert_cmpstr (last, ==, "Result of add: 50");
}

/* The index of the waiting call whose row holds the focus, or -1. */
static int
focused_pending (Fixture *f)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (f->window));
  GtkWidget *row = focus != NULL ? gtk_widget_get_ancestor (focus, TB_TYPE_PENDING_CALL_ROW)
                                 : NULL;

  return row != NULL ? gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)) : -1;
}

/* Tab or Shift+Tab, as the window moves the focus for the key. */
static void
tab (Fixture          *f,
     GtkDirectionType  direction)
{
  gtk_widget_child_focus (GTK_WIDGET (f->window), direction);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
focus_in (Fixture   *f,
          GtkWidget *widget)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (f->window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Whether the top of @widget shows in the page's scrolled window: the
 * page scrolls to what takes the focus. */
static gboolean
top_shows (Fixture   *f,
           GtkWidget *widget)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  graphene_point_t top;

  while (gtk_widget_get_ancestor (gtk_widget_get_parent (scroller), GTK_TYPE_SCROLLED_WINDOW))
    scroller = gtk_widget_get_ancestor (gtk_widget_get_parent (scroller),
                                        GTK_TYPE_SCROLLED_WINDOW);
  if (!gtk_widget_compute_point (widget, scroller, &GRAPHENE_POINT_INIT (0, 0), &top))
    return FALSE;
  return top.y >= 0 && top.y < gtk_widget_get_height (scroller);
}

/* What a person types goes into the editable that has the focus. */
static void
type_text (Fixture    *f,
           const char *text)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (f->window));

  g_assert_true (GTK_IS_EDITABLE (focus));
  gtk_editable_set_text (GTK_EDITABLE (focus), text);
}

/* Walks the waiting calls with Tab (or Shift+Tab) from where the focus
 * is until it leaves them: each step stays in the same row or goes to the
 * next one in reading order. Returns how many steps it took. */
static guint
walk_pending (Fixture          *f,
              GtkDirectionType  direction,
              int               first,
              int               last)
{
  int at = focused_pending (f);
  guint steps = 0;

  g_assert_cmpint (at, ==, first);
  for (;;)
    {
      int next;

      tab (f, direction);
      steps++;
      next = focused_pending (f);
      if (next < 0)
        break;
      if (direction == GTK_DIR_TAB_FORWARD)
        g_assert_true (next == at || next == at + 1);
      else
        g_assert_true (next == at || next == at - 1);
      at = next;
      g_assert_cmpuint (steps, <, 2000);
    }
  g_assert_cmpint (at, ==, last);
  return steps;
}

/* A model turn of 50 calls, with every call decided by the keyboard
 * alone: the first waiting call takes the focus, Tab and Shift+Tab go
 * through the calls in reading order and on to the controls around them,
 * the decision keys decide the focused call and move on to the next, and
 * Step runs them and asks for the answer. */
static void
test_fifty_calls_by_keys (Fixture       *f,
                          gconstpointer  data)
{
  GString *text = g_string_new ("{\"format\":\"toolbench-script\",\"version\":1,"
                                "\"responses\":[{\"tool_calls\":[");
  g_autoptr(JsonNode) script = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  GtkWidget *turn_entry = GTK_WIDGET (tb_loop_page_get_model_turn_entry (f->page));
  GtkWidget *step = tb_loop_page_get_button (f->page, "step");
  static const TbCallDecision decisions[] = {
    TB_CALL_DECISION_APPROVE, TB_CALL_DECISION_SKIP, TB_CALL_DECISION_REJECT,
    TB_CALL_DECISION_EDIT,
  };
  guint forward, backward;
  gint64 start, in_keys = 0;
  double shown_ms, decided_ms;

  for (guint i = 0; i < 50; i++)
    g_string_append_printf (text, "%s{\"id\":\"c%u\",\"name\":\"add\","
                            "\"arguments\":{\"a\":%u,\"b\":1}}", i > 0 ? "," : "", i, i);
  g_string_append (text, "]},{\"text\":\"Done.\"}]}");
  script = tb_json_parse (text->str, -1, NULL);
  g_string_free (text, TRUE);
  provider = tb_scripted_provider_new_from_json (script, NULL);
  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  /* Step waits until every call is decided. */
  tb_loop_page_set_ask (f->page, TRUE);

  /* F6: the 50 calls wait, and the first takes the focus. */
  start = g_get_monotonic_time ();
  press (f, "F6");
  WAIT_UNTIL (tb_loop_page_get_n_pending (f->page) == 50 && focused_pending (f) == 0);
  shown_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (f->window))
                 == gtk_widget_get_ancestor (GTK_WIDGET (tb_loop_page_get_pending_editor (f->page,
                                                                                         0)),
                                             TB_TYPE_PENDING_CALL_ROW));

  /* Tab goes through every call in order, then to the model's turn. */
  forward = walk_pending (f, GTK_DIR_TAB_FORWARD, 0, 49);
  g_assert_true (focus_in (f, turn_entry));
  /* Shift+Tab comes back through them in reverse, then to what is above
   * them on the page, not to the sidebar. */
  tab (f, GTK_DIR_TAB_BACKWARD);
  backward = walk_pending (f, GTK_DIR_TAB_BACKWARD, 49, 0) + 1;
  g_assert_true (focus_in (f, GTK_WIDGET (f->page)));
  g_test_message ("Tab passes the 50 calls in %u steps, Shift+Tab in %u", forward, backward);
  tab (f, GTK_DIR_TAB_FORWARD);
  g_assert_cmpint (focused_pending (f), ==, 0);

  /* Approve, skip with a typed result, reject, edit: each by its key on
   * the focused call, and the focus goes on to the next. */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < 50; i++)
    {
      TbArgumentEditor *editor = tb_loop_page_get_pending_editor (f->page, i);
      GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (editor), TB_TYPE_PENDING_CALL_ROW);
      g_autofree char *typed = NULL;

      g_assert_true (gtk_window_get_focus (GTK_WINDOW (f->window)) == row);
      /* The page has scrolled to the call that has the focus. */
      WAIT_UNTIL (top_shows (f, row));
      switch (i % 4)
        {
        case 0:
          in_keys -= g_get_monotonic_time ();
          press (f, "<Alt>a");
          in_keys += g_get_monotonic_time ();
          break;
        case 1:
          /* Tab to the row's result entry and type the result. */
          while (!focus_in (f, GTK_WIDGET (tb_loop_page_get_pending_skip_entry (f->page, i))))
            {
              tab (f, GTK_DIR_TAB_FORWARD);
              g_assert_cmpint (focused_pending (f), ==, i);
            }
          typed = g_strdup_printf ("by hand %u", i);
          type_text (f, typed);
          in_keys -= g_get_monotonic_time ();
          press (f, "<Alt>k");
          in_keys += g_get_monotonic_time ();
          break;
        case 2:
          in_keys -= g_get_monotonic_time ();
          press (f, "<Alt>j");
          in_keys += g_get_monotonic_time ();
          break;
        default:
          /* Alt+E: straight into the first argument. */
          in_keys -= g_get_monotonic_time ();
          press (f, "<Alt>e");
          in_keys += g_get_monotonic_time ();
          g_assert_true (focus_in (f, tb_schema_form_get_input (
                                        tb_argument_editor_get_form (editor), "/a")));
          type_text (f, "100");
          WAIT_UNTIL (editor_shows (editor, "100"));
          in_keys -= g_get_monotonic_time ();
          press (f, "<Alt>a");
          in_keys += g_get_monotonic_time ();
          break;
        }
      g_assert_cmpint (tb_pending_call_get_decision (tb_pending_call_row_get_pending (
                                                       TB_PENDING_CALL_ROW (row))), ==,
                       decisions[i % 4]);
    }
  decided_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_test_message ("50 pending calls shown and focused in %.0f ms; decided in %.0f ms, of which "
                  "%.1f ms in the decision keys (the rest is Tab and typing)",
                  shown_ms, decided_ms, in_keys / 1000.0);

  /* Every call decided: the focus is on Step. Enter runs the calls, F6
   * asks for the answer. */
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (f->window)) == step);
  g_assert_true (gtk_widget_activate (step));
  WAIT_UNTIL (tb_loop_page_get_n_rows (f->page) == 52 && !tb_loop_page_get_busy (f->page));
  press (f, "F6");
  assert_status (f, "Finished", "Iteration 2 of 10");
  g_assert_cmpuint (tb_loop_page_get_n_rows (f->page), ==, 53);

  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *row = tb_loop_page_get_row_text (f->page, 2 + i);
      g_autofree char *expected = NULL;

      switch (i % 4)
        {
        case 0:
          expected = g_strdup_printf ("Result of add: %u", i + 1);
          break;
        case 1:
          expected = g_strdup_printf ("Result of add: by hand %u\nSkipped by you: the model was "
                                      "told your result, the tool did not run", i);
          break;
        case 2:
          /* The tool's error text is the engine's; the note is the page's. */
          g_assert_true (g_str_has_prefix (row, "Error from add: "));
          g_assert_true (g_str_has_suffix (row, "\nRejected by you: the model was told you "
                                                "declined, the tool did not run"));
          continue;
        default:
          expected = g_strdup_printf ("Result of add: 101\nEdited by you: ran with "
                                      "{\"a\":100,\"b\":1} instead of {\"a\":%u,\"b\":1}", i);
          break;
        }
      g_assert_cmpstr (row, ==, expected);
    }
  assert_row (f, 52, "Model: Done.");
}

/* A script file plays the model, offline; a bad one is refused. */
static void
test_script_file (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("toolbench-script-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "mine.json", NULL);
  g_autofree char *bad_path = g_build_filename (dir, "bad.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) bad = g_file_new_for_path (bad_path);

  g_assert_true (g_file_set_contents (path, "{\"format\":\"toolbench-script\",\"version\":1,"
                                            "\"responses\":[{\"text\":\"From my script.\"}]}",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (bad_path, "{\"format\":\"something else\"}", -1, NULL));

  g_assert_false (tb_loop_page_set_script_file (f->page, bad, &error));
  g_assert_nonnull (error);
  g_test_message ("refused: %s", error->message);
  g_clear_error (&error);

  g_assert_true (tb_loop_page_set_script_file (f->page, file, &error));
  g_assert_no_error (error);
  click (f, "step");
  assert_row (f, 1, "Model: From my script.");
  /* Each run plays the script from its start. */
  click (f, "new");
  click (f, "step");
  assert_row (f, 1, "Model: From my script.");
  g_unlink (path);
  g_unlink (bad_path);
  g_rmdir (dir);
}

static void
test_no_message (Fixture       *f,
                 gconstpointer  data)
{
  tb_loop_page_set_user_message (f->page, "");
  click (f, "step");
  g_assert_cmpstr (tb_loop_page_get_error_text (f->page), ==,
                   "Write a message for the model first.");
  assert_status (f, "Not started", "Iteration 0 of 10");
}

/* The Facts page and the confirmation dialog, over a workspace in a
 * temporary folder and a script in which the model proposes facts. */

static const char facts_script[] =
  "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
  "{\"tool_calls\":[{\"id\":\"p_1\",\"name\":\"facts.propose\",\"arguments\":"
  "{\"key\":\"city\",\"value\":\"Lyon\",\"reason\":\"The user moved\"}}]},"
  "{\"tool_calls\":[{\"id\":\"p_2\",\"name\":\"facts.propose\",\"arguments\":"
  "{\"key\":\"city\",\"value\":\"Nice\",\"reason\":\"Second thoughts\"}}]},"
  "{\"text\":\"Done.\"}]}";

typedef struct
{
  Fixture      base;
  char        *dir;
  char        *path;
  TbWorkspace *workspace;
} FactsFixture;

static void
facts_setup (FactsFixture  *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) script = tb_json_parse (facts_script, -1, &error);
  g_autoptr(TbScriptedProvider) provider = NULL;

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("toolbench-facts-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "workspace.json", NULL);
  g_assert_true (g_file_set_contents (f->path,
                                      "{\"format\":\"toolbench-workspace\",\"version\":1,"
                                      "\"facts\":{\"city\":\"Paris\"},\"draft\":{},"
                                      "\"locks\":[],\"proposals\":[]}", -1, NULL));
  f->workspace = tb_workspace_new_for_path (f->path, &error);
  g_assert_no_error (error);

  window_fixture_setup (&f->base, data);
  g_assert_true (tb_workspace_register_tools (f->workspace, f->base.registry, &error));
  g_assert_no_error (error);
  tb_window_set_workspace (f->base.window, f->workspace);
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);
  tb_loop_page_set_provider (f->base.page, TB_PROVIDER (provider));
  tb_loop_page_set_user_message (f->base.page, "I live in Lyon now.");
}

static void
facts_teardown (FactsFixture  *f,
                gconstpointer  data)
{
  g_autofree char *lock_path = g_strconcat (f->path, ".lock", NULL);

  window_fixture_teardown (&f->base, data);
  g_assert_finalize_object (f->workspace);
  g_unlink (f->path);
  g_unlink (lock_path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static TbFactsPage *
facts_page (FactsFixture *f)
{
  return tb_window_get_facts_page (f->base.window);
}

static char *
saved_city (FactsFixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) again = tb_workspace_new_for_path (f->path, &error);
  g_autoptr(JsonNode) city = NULL;

  g_assert_no_error (error);
  city = tb_workspace_dup_fact (again, "city", &error);
  g_assert_no_error (error);
  return g_strdup (json_node_get_string (city));
}

/* Another program (the command line, say) changes the file while the
 * window is open: the page follows, and the window's own next change keeps
 * what the other one committed. */
static void
test_facts_other_writer (FactsFixture  *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) other = tb_workspace_new_for_path (f->path, &error);
  g_autoptr(JsonNode) value = tb_json_node_new_string ("France");
  g_autoptr(TbConfirmation) confirmation = NULL;
  g_autoptr(TbWorkspace) again = NULL;
  g_autoptr(JsonNode) country = NULL;
  TbFactProposal *proposal;

  g_assert_no_error (error);
  proposal = tb_workspace_propose (other, "country", value, "", NULL, &error);
  g_assert_no_error (error);
  WAIT_UNTIL (tb_facts_page_get_n_pending_rows (facts_page (f)) == 1);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);

  confirmation = tb_confirmation_new (other, proposal, "Ada", &error);
  g_assert_no_error (error);
  g_assert_true (tb_workspace_commit (other, proposal, confirmation, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (strstr (tb_facts_page_get_facts_text (facts_page (f)), "France") != NULL);
  g_assert_cmpuint (tb_facts_page_get_n_pending_rows (facts_page (f)), ==, 0);

  g_assert_true (tb_workspace_lock (f->workspace, "city", &error));
  g_assert_no_error (error);
  again = tb_workspace_new_for_path (f->path, &error);
  g_assert_no_error (error);
  country = tb_workspace_dup_fact (again, "country", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (country), ==, "France");
  g_assert_true (tb_workspace_is_locked (again, "city"));
}

static AdwMessageDialog *
open_review (FactsFixture *f)
{
  GtkWidget *button;

  tb_window_set_page (f->base.window, "facts");
  g_assert_cmpuint (tb_facts_page_get_n_pending_rows (facts_page (f)), ==, 1);
  button = tb_facts_page_get_review_button (facts_page (f), 0);
  WAIT_UNTIL (gtk_widget_get_mapped (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_nonnull (tb_facts_page_get_dialog (facts_page (f)));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (tb_facts_page_get_dialog (facts_page (f)))));
  return tb_facts_page_get_dialog (facts_page (f));
}

static void
test_facts_confirm (FactsFixture  *f,
                    gconstpointer  data)
{
  AdwMessageDialog *dialog;
  g_autofree char *tools = NULL;
  g_autofree char *turn_json = NULL;
  g_autofree char *city = NULL;
  AdwViewStack *stack;

  g_assert_nonnull (strstr (tb_facts_page_get_facts_text (facts_page (f)), "Paris"));

  /* The model is offered facts.propose, never facts.commit. */
  tools = tb_loop_page_get_offered_tools_json (f->base.page);
  g_assert_nonnull (strstr (tools, "facts.propose"));
  g_assert_null (strstr (tools, "facts.commit"));

  /* First proposal: the dialog shows it; Escape decides nothing; Reject
   * leaves the facts as they are. */
  click (&f->base, "step");
  turn_json = tb_loop_page_get_row_json (f->base.page, 1);
  g_assert_null (strstr (turn_json, "facts.commit"));
  click (&f->base, "step");
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);
  stack = ADW_VIEW_STACK (gtk_widget_get_parent (GTK_WIDGET (facts_page (f))));
  while (stack != NULL && !ADW_IS_VIEW_STACK (stack))
    stack = ADW_VIEW_STACK (gtk_widget_get_parent (GTK_WIDGET (stack)));
  g_assert_cmpuint (adw_view_stack_page_get_badge_number (
                      adw_view_stack_get_page (stack, GTK_WIDGET (facts_page (f)))), ==, 1);

  dialog = open_review (f);
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "current"), ==, "\"Paris\"");
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "proposed"), ==, "\"Lyon\"");
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "reason"), ==, "The user moved");
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "origin"), ==,
                   "The model, in call p_1");
  g_assert_null (adw_message_dialog_get_default_response (dialog));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "commit"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);

  dialog = open_review (f);
  adw_message_dialog_response (dialog, "reject");
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 0);
  g_assert_cmpuint (tb_facts_page_get_n_pending_rows (facts_page (f)), ==, 0);
  g_assert_nonnull (strstr (tb_facts_page_get_facts_text (facts_page (f)), "Paris"));
  city = saved_city (f);
  g_assert_cmpstr (city, ==, "Paris");
  g_clear_pointer (&city, g_free);

  /* Second proposal: Commit changes the fact and the file. */
  tb_window_set_page (f->base.window, "loop");
  click (&f->base, "step");
  click (&f->base, "step");
  dialog = open_review (f);
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "proposed"), ==, "\"Nice\"");
  adw_message_dialog_response (dialog, "commit");
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 0);
  g_assert_nonnull (strstr (tb_facts_page_get_facts_text (facts_page (f)), "Nice"));
  city = saved_city (f);
  g_assert_cmpstr (city, ==, "Nice");
}

/* Enter in the dialog decides nothing: the focus starts on no response
 * button, Enter there does nothing, and the window's default action
 * (what Enter does elsewhere) is no response either. */
static void
test_facts_enter (FactsFixture  *f,
                  gconstpointer  data)
{
  AdwMessageDialog *dialog;
  GtkWidget *focus;

  click (&f->base, "step");
  click (&f->base, "step");
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);
  dialog = open_review (f);
  window_test_iterate (100);
  focus = gtk_window_get_focus (GTK_WINDOW (dialog));
  g_test_message ("focus: %s", focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "none");
  g_assert_true (focus == NULL || !GTK_IS_BUTTON (focus));
  if (focus != NULL)
    gtk_widget_activate (focus);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "default.activate", NULL);
  window_test_iterate (400);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);
}

/* A run that waits for a proposed fact says so on the Loop page, and its
 * button opens that proposal's confirmation dialog; deciding it takes the
 * notice away. */
static void
test_facts_paused (FactsFixture  *f,
                   gconstpointer  data)
{
  GtkWidget *review = tb_loop_page_get_button (f->base.page, "review-proposal");
  AdwMessageDialog *dialog;

  g_assert_false (gtk_widget_is_visible (review));
  click (&f->base, "step");
  click (&f->base, "step");
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);
  WAIT_UNTIL (gtk_widget_get_mapped (review));
  g_assert_true (gtk_widget_is_sensitive (review));

  g_signal_emit_by_name (review, "clicked");
  WAIT_UNTIL ((dialog = tb_facts_page_get_dialog (facts_page (f))) != NULL
              && gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  g_assert_cmpstr (tb_confirm_dialog_get_text (dialog, "proposed"), ==, "\"Lyon\"");
  adw_message_dialog_response (dialog, "reject");
  gtk_window_close (GTK_WINDOW (dialog));
  window_test_iterate (50);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 0);
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (review)));
}

static void
test_facts_locks (FactsFixture  *f,
                  gconstpointer  data)
{
  g_autofree char *text = NULL;

  tb_window_set_page (f->base.window, "facts");
  g_assert_true (tb_facts_page_lock (facts_page (f), "city"));
  g_assert_true (tb_workspace_is_locked (f->workspace, "city"));

  /* A proposal for a locked key is refused, and the model is told why. */
  tb_window_set_page (f->base.window, "loop");
  click (&f->base, "step");
  click (&f->base, "step");
  text = tb_loop_page_get_row_text (f->base.page, 2);
  g_assert_true (g_str_has_prefix (text, "Error from facts.propose: "));
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 0);

  g_assert_true (tb_facts_page_unlock (facts_page (f), "city"));
  g_assert_false (tb_workspace_is_locked (f->workspace, "city"));
  g_assert_false (tb_facts_page_lock (facts_page (f), "/a~2"));
  g_test_message ("refused: %s", tb_facts_page_get_status_text (facts_page (f)));
  g_assert_cmpstr (tb_facts_page_get_status_text (facts_page (f)), !=, "");
}

static void
test_confirm_diff (void)
{
  g_autofree char *diff = tb_confirm_diff ("{\n  \"a\" : 1,\n  \"b\" : 2\n}",
                                           "{\n  \"a\" : 1,\n  \"b\" : 3\n}");

  g_assert_cmpstr (diff, ==, "  {\n    \"a\" : 1,\n-   \"b\" : 2\n+   \"b\" : 3\n  }\n");
  g_clear_pointer (&diff, g_free);

  /* A member added after the last one changes only a comma above it. */
  diff = tb_confirm_diff ("{\n  \"a\" : 1\n}", "{\n  \"a\" : 1,\n  \"b\" : 2\n}");
  g_assert_cmpstr (diff, ==, "  {\n    \"a\" : 1,\n+   \"b\" : 2\n  }\n");
}

/* The Trace page: the current run's timeline, saved, reopened, replayed
 * and forked. */
static void
test_trace_replay_fork (Fixture       *f,
                        gconstpointer  data)
{
  TbTracePage *trace_page = tb_window_get_trace_page (f->window);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("toolbench-trace-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "run.jsonl", NULL);
  g_autofree char *export_path = g_build_filename (dir, "messages.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) export_file = g_file_new_for_path (export_path);
  g_autofree char *row = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *exported = NULL;
  guint n_events;

  g_assert_no_error (error);
  click (f, "continue");
  assert_status (f, "Finished", "Iteration 3 of 10");

  /* The timeline of the current run, and one event's JSON. */
  tb_window_set_page (f->window, "trace");
  g_assert_cmpstr (tb_trace_page_get_title (trace_page), ==, "Current run");
  n_events = tb_trace_page_get_n_events (trace_page);
  g_assert_cmpuint (n_events, >, 10);
  row = tb_trace_page_get_event_row_text (trace_page, 0);
  g_assert_cmpstr (row, ==, "You: What is 2 + 3?");
  for (guint i = 0; i < n_events; i++)
    {
      g_autofree char *text = tb_trace_page_get_event_row_text (trace_page, i);

      if (g_str_has_prefix (text, "add → "))
        g_assert_nonnull (strstr (text, " in "));
    }
  tb_trace_page_select_event (trace_page, 0);
  detail = tb_trace_page_get_detail_text (trace_page);
  g_assert_nonnull (strstr (detail, "What is 2 + 3?"));

  /* Export, save and open again. */
  g_assert_true (tb_trace_page_export_to (trace_page, export_file, TB_DEFINITION_FORMAT_OPENAI,
                                          &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (export_path, &exported, NULL, NULL));
  g_assert_nonnull (strstr (exported, "\"tool_calls\""));
  g_clear_pointer (&exported, g_free);
  /* and as Responses input items, the third format of the drop-down */
  g_assert_true (tb_trace_page_export_to (trace_page, export_file,
                                          TB_DEFINITION_FORMAT_OPENAI_RESPONSES, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (export_path, &exported, NULL, NULL));
  g_assert_nonnull (strstr (exported, "\"function_call_output\""));
  tb_trace_page_set_remember_recent (trace_page, TRUE);
  g_assert_cmpuint (tb_trace_page_get_n_recent (trace_page), ==, 0);
  g_assert_true (tb_trace_page_save_to (trace_page, file, &error));
  g_assert_no_error (error);
  /* Saved traces are listed under Recent (the export is not a trace). */
  WAIT_UNTIL (tb_trace_page_get_n_recent (trace_page) == 1);
  tb_trace_page_open_file (trace_page, file);
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
  g_assert_cmpstr (tb_trace_page_get_status_text (trace_page), ==, "");
  g_assert_cmpstr (tb_trace_page_get_title (trace_page), ==, "run.jsonl");
  g_assert_cmpuint (tb_trace_page_get_n_events (trace_page), ==, n_events);

  /* A replay with the recorded results does what the run did. */
  g_signal_emit_by_name (tb_trace_page_get_button (trace_page, "replay"), "clicked");
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
  g_assert_nonnull (tb_trace_page_get_report (trace_page));
  g_assert_cmpint (tb_replay_report_get_first_divergence (tb_trace_page_get_report (trace_page)),
                   ==, -1);
  g_assert_cmpuint (tb_trace_page_get_n_report_rows (trace_page), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_false (tb_trace_page_get_report_row_highlighted (trace_page, i));

  /* A fork at step 2 (the echo call) with live tools diverges there. */
  tb_trace_page_set_live (trace_page, TRUE);
  tb_trace_page_select_step (trace_page, 1);
  g_assert_true (gtk_widget_get_sensitive (tb_trace_page_get_button (trace_page, "fork")));
  g_assert_true (tb_trace_page_fork (trace_page, 1, TB_REPLAY_EDIT_ARGUMENTS,
                                     "{\"text\": \"forked\"}", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
  g_assert_cmpint (tb_replay_report_get_first_divergence (tb_trace_page_get_report (trace_page)),
                   ==, 1);
  g_assert_true (tb_trace_page_get_report_row_highlighted (trace_page, 1));
  g_assert_false (tb_trace_page_get_report_row_highlighted (trace_page, 0));
  g_clear_pointer (&row, g_free);
  row = tb_trace_page_get_report_row_text (trace_page, 1);
  g_assert_true (g_str_has_prefix (row, "Step 2 — first divergence: "));
  g_clear_pointer (&detail, g_free);
  detail = tb_trace_page_get_detail_text (trace_page);
  g_assert_nonnull (strstr (detail, "\"diff\""));
  g_assert_nonnull (strstr (detail, "forked"));

  /* A fork of the second model turn, through the page's controls: the
   * editor starts from the recorded turn; the model answers instead of
   * calling echo, so the echo step is missing. */
  {
    GtkTextBuffer *buffer = tb_trace_page_get_fork_buffer (trace_page);
    GtkTextIter start, end;
    g_autofree char *recorded = NULL;
    TbReplayReport *report;

    tb_trace_page_set_fork_kind (trace_page, TB_REPLAY_EDIT_MODEL_TURN, 2);
    gtk_text_buffer_get_bounds (buffer, &start, &end);
    recorded = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
    g_assert_nonnull (strstr (recorded, "\"echo\""));
    gtk_text_buffer_set_text (buffer, "{\"role\":\"assistant\",\"text\":\"Changed my mind.\"}",
                              -1);
    g_assert_true (gtk_widget_get_sensitive (tb_trace_page_get_button (trace_page, "fork")));
    g_signal_emit_by_name (tb_trace_page_get_button (trace_page, "fork"), "clicked");
    WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
    g_assert_cmpstr (tb_trace_page_get_status_text (trace_page), ==, "");
    report = tb_trace_page_get_report (trace_page);
    g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, 1);
    g_assert_cmpint (tb_replay_step_get_status (tb_replay_report_get_step (report, 1)), ==,
                     TB_REPLAY_MISSING);
    tb_trace_page_set_fork_kind (trace_page, TB_REPLAY_EDIT_ARGUMENTS, 0);
  }

  /* A trace that calls tools the registry no longer has: a live replay
   * diverges at the first such call instead of failing. */
  {
    g_autoptr(TbToolRegistry) empty = tb_tool_registry_new ();

    tb_trace_page_set_registry (trace_page, empty);
    g_signal_emit_by_name (tb_trace_page_get_button (trace_page, "replay"), "clicked");
    WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
    g_assert_cmpint (tb_replay_report_get_first_divergence (
                       tb_trace_page_get_report (trace_page)), ==, 0);
    g_assert_true (tb_trace_page_get_report_row_highlighted (trace_page, 0));
    tb_trace_page_set_registry (trace_page, f->registry);
  }

  /* A fork that does not fit the trace is refused with a reason. */
  g_assert_false (tb_trace_page_fork (trace_page, 9, TB_REPLAY_EDIT_ARGUMENTS, "{}", &error));
  g_assert_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK);

  g_unlink (path);
  g_unlink (export_path);
  g_rmdir (dir);
}

/* Crash safety: the run is written as it grows; a new window offers to
 * reopen it; dropping the run on purpose removes the file. */
static void
test_autosave (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("toolbench-autosave-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "cache", "autosave.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbTrace) saved = NULL;
  TbWindow *other;
  TbTracePage *trace_page;

  tb_loop_page_set_autosave_file (f->page, file);
  click (f, "step");
  click (f, "step");
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  saved = tb_trace_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tb_trace_get_n_events (saved), ==,
                    tb_trace_get_n_events (tb_dispatch_loop_get_trace (
                                             tb_loop_page_get_loop (f->page))));

  /* As after a crash: another window is offered the file. */
  other = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  trace_page = tb_window_get_trace_page (other);
  tb_window_set_page (other, "trace");
  g_assert_false (tb_trace_page_get_offering_recovered (trace_page));
  tb_trace_page_offer_recovered (trace_page, file);
  gtk_window_present (GTK_WINDOW (other));
  WAIT_UNTIL (gtk_widget_get_mapped (tb_trace_page_get_button (trace_page, "reopen")));
  g_signal_emit_by_name (tb_trace_page_get_button (trace_page, "reopen"), "clicked");
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
  g_assert_false (tb_trace_page_get_offering_recovered (trace_page));
  g_assert_cmpstr (tb_trace_page_get_title (trace_page), ==, "autosave.jsonl");
  g_assert_cmpuint (tb_trace_page_get_n_events (trace_page), ==, tb_trace_get_n_events (saved));
  gtk_window_destroy (GTK_WINDOW (other));
  window_test_iterate (50);
  g_assert_finalize_object (other);

  /* New Run drops the run on purpose: nothing is left to recover. */
  click (f, "new");
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  {
    g_autofree char *cache = g_path_get_dirname (path);

    g_rmdir (cache);
  }
  g_rmdir (dir);
}

/* The key of the provider in use stays out of the autosave, the wire view
 * and the Trace page's details, save and export, even when the model
 * repeats it (plainly and as JSON escapes). */
#define APP_KEY "tb-APPSECRET-7777"

static void
answer_with_key (SoupServer        *server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  static const char body[] =
    "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"the key is " APP_KEY
    " or \\u0074b-APPSECRET-7777\"},\"finish_reason\":\"stop\"}]}";

  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, body,
                                    strlen (body));
}

static void
assert_no_key (const char *what,
               const char *text)
{
  g_assert_nonnull (text);
  if (strstr (text, APP_KEY) != NULL || strstr (text, "APPSECRET") != NULL)
    g_error ("%s shows the key: %s", what, text);
}

static void
test_key_redacted (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autofree char *base = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autofree char *dir = g_dir_make_tmp ("toolbench-key-XXXXXX", &error);
  g_autofree char *autosave = g_build_filename (dir, "autosave.jsonl", NULL);
  g_autofree char *saved = g_build_filename (dir, "saved.jsonl", NULL);
  g_autofree char *exported = g_build_filename (dir, "exported.json", NULL);
  g_autoptr(GFile) autosave_file = g_file_new_for_path (autosave);
  g_autoptr(GFile) saved_file = g_file_new_for_path (saved);
  g_autoptr(GFile) exported_file = g_file_new_for_path (exported);
  g_autofree char *wire = NULL;
  g_autofree char *contents = NULL;
  TbTracePage *trace_page = tb_window_get_trace_page (f->window);

  soup_server_add_handler (server, NULL, answer_with_key, NULL, NULL);
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  base = g_strdup_printf ("http://127.0.0.1:%u/", test_server_port (server));
  provider = tb_openai_provider_new (base, "m", APP_KEY);

  tb_loop_page_set_provider (f->page, provider);
  tb_loop_page_set_autosave_file (f->page, autosave_file);
  click (f, "step");
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
  assert_status (f, "Finished", "Iteration 1 of 10");

  g_assert_true (g_file_get_contents (autosave, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "the key is [redacted] or [redacted]"));
  assert_no_key ("the autosave", contents);
  g_clear_pointer (&contents, g_free);

  wire = tb_loop_page_get_row_json (f->page, 1);
  g_assert_nonnull (strstr (wire, "the key is [redacted] or [redacted]"));
  assert_no_key ("the wire view", wire);

  for (guint i = 0; i < tb_trace_page_get_n_events (trace_page); i++)
    {
      g_autofree char *detail = NULL;

      tb_trace_page_select_event (trace_page, i);
      detail = tb_trace_page_get_detail_text (trace_page);
      assert_no_key ("the event details", detail);
    }
  g_assert_true (tb_trace_page_save_to (trace_page, saved_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (saved, &contents, NULL, NULL));
  assert_no_key ("the saved trace", contents);
  g_clear_pointer (&contents, g_free);
  g_assert_true (tb_trace_page_export_to (trace_page, exported_file,
                                          TB_DEFINITION_FORMAT_OPENAI, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (exported, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "[redacted]"));
  assert_no_key ("the exported messages", contents);

  click (f, "new");
  soup_server_disconnect (server);
  g_unlink (saved);
  g_unlink (exported);
  g_unlink (autosave);
  g_rmdir (dir);
}

/* An MCP server asking the person: the fake server's `elicit` tool sends
 * elicitation/create and returns the answer it got. */
static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* What a model, provider or server writes is shown with its control
 * characters as escapes: no ESC, BEL, carriage return or backspace reaches
 * a label or the log view, where they could fake text. */
#define EVIL_JSON "\\u001b]0;pwned\\u0007\\u001b[2J\\rsafe\\b\\b é 日本"
#define EVIL_SHOWN "\\u001b]0;pwned\\u0007\\u001b[2J\\u000dsafe\\u0008\\u0008 é 日本"

static void
assert_no_controls (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\n' && *p != '\t')
      g_error ("a control byte 0x%02x is shown: %s", (guchar) *p, text);
}

static void
test_outside_controls (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(JsonNode) script = tb_json_parse (
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"error\":\"Down: " EVIL_JSON "\"},{\"text\":\"Back: " EVIL_JSON "\"}]}", -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, NULL);
  static const char server[] =
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    if m.get('id') is None:\n"
    "        continue\n"
    "    r = {}\n"
    "    if m['method'] == 'initialize':\n"
    "        r = {'protocolVersion': m['params']['protocolVersion'], 'capabilities': {},\n"
    "             'serverInfo': {'name': 'evil', 'version': '1'}}\n"
    "        sys.stderr.buffer.write('\\x1b]0;pwned\\x07\\x1b[2J\\rsafe\\b\\b é 日本 \\x9b\\n'\n"
    "                                .encode() + b'raw \\xff end\\n')\n"
    "        sys.stderr.flush()\n"
    "    sys.stdout.write(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'result': r}) + '\\n')\n"
    "    sys.stdout.flush()\n";
  g_autofree char *dir = g_dir_make_tmp ("tb-evil-server-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "evil.py", NULL);
  const char *argv[] = { "/usr/bin/python3", path, NULL };
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(GAsyncResult) connected = NULL;
  g_autoptr(GtkWidget) log_view = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *log = NULL;
  g_autofree char *row = NULL;

  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  click (f, "step");
  assert_status (f, "Failed", "Iteration 1 of 10");
  assert_no_controls (tb_loop_page_get_error_text (f->page));
  g_assert_nonnull (strstr (tb_loop_page_get_error_text (f->page), "Down: " EVIL_SHOWN));
  click (f, "retry");
  click (f, "step");
  row = tb_loop_page_get_row_text (f->page, 1);
  assert_no_controls (row);
  g_assert_cmpstr (row, ==, "Model: Back: " EVIL_SHOWN);

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is needed for the server's log");
      g_rmdir (dir);
      return;
    }
  g_assert_true (g_file_set_contents (path, server, -1, NULL));
  client = tb_mcp_client_new_stdio ("evil", argv, NULL, NULL);
  log_view = g_object_ref_sink (tb_mcp_log_view_new (client));
  tb_mcp_client_connect_async (client, NULL, store_result, &connected);
  WAIT_UNTIL (connected != NULL);
  g_assert_true (tb_mcp_client_connect_finish (client, connected, &error));
  g_assert_no_error (error);
  WAIT_UNTIL ((g_free (log), log = tb_mcp_log_view_get_text (TB_MCP_LOG_VIEW (log_view)),
               strstr (log, "end") != NULL));
  assert_no_controls (log);
  g_assert_nonnull (strstr (log, "[stderr info] " EVIL_SHOWN " \\u009b\n"));
  g_assert_true (g_utf8_validate (log, -1, NULL));
  g_assert_null (strchr (log, '\x1b'));
  tb_mcp_client_disconnect (client);
  g_remove (path);
  g_rmdir (dir);
}

static void
test_elicitation (Fixture       *f,
                  gconstpointer  data)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *script = g_build_filename (srcdir != NULL ? srcdir : ".", "..", "mcp",
                                              "fake-mcp-server.py", NULL);
  const char *argv[] = { "/usr/bin/python3", script, NULL };
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(GAsyncResult) connected = NULL;
  g_autoptr(GAsyncResult) called = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *answer = NULL;
  AdwMessageDialog *dialog;
  TbArgumentEditor *editor;
  g_autofree char *text = NULL;
  g_autoptr(GtkWidget) log_view = NULL;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE)
      || !g_file_test (script, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("/usr/bin/python3 and tests/mcp/fake-mcp-server.py are needed");
      return;
    }
  client = tb_mcp_client_new_stdio ("fake", argv, NULL, NULL);
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
  tb_mcp_client_attach (client, f->registry);
  tb_mcp_dialogs_attach (GTK_WINDOW (f->window), client);
  log_view = g_object_ref_sink (tb_mcp_log_view_new (client));
  tb_mcp_client_connect_async (client, NULL, store_result, &connected);
  WAIT_UNTIL (connected != NULL);
  g_assert_true (tb_mcp_client_connect_finish (client, connected, &error));
  g_assert_no_error (error);

  tb_tool_registry_call_async (f->registry, "elicit", NULL, NULL, NULL, NULL, store_result,
                               &called);
  WAIT_UNTIL (tb_mcp_dialogs_get_open (GTK_WINDOW (f->window)) != NULL);
  dialog = tb_mcp_dialogs_get_open (GTK_WINDOW (f->window));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "“fake” Asks You");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, "Your name?");
  editor = tb_elicitation_dialog_get_editor (TB_ELICITATION_DIALOG (dialog));
  text = tb_argument_editor_get_text (editor);
  g_assert_nonnull (strstr (text, "Grace"));
  gtk_editable_set_text (GTK_EDITABLE (tb_schema_form_get_input (
                                         tb_argument_editor_get_form (editor), "/name")),
                         "Ada");
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "accept"));
  /* Nothing was answered before the person pressed a button. */
  g_assert_null (called);
  /* As the Accept button does: the response, then the dialog closes (its
   * close response, Cancel, no longer answers anything). */
  adw_message_dialog_response (dialog, "accept");
  gtk_window_close (GTK_WINDOW (dialog));

  WAIT_UNTIL (called != NULL);
  result = tb_tool_registry_call_finish (f->registry, called);
  g_assert_true (tb_tool_result_get_ok (result));
  answer = tb_json_to_string (tb_tool_result_get_output (result), FALSE);
  g_test_message ("answer: %s", answer);
  g_assert_nonnull (strstr (answer, "accept"));
  g_assert_nonnull (strstr (answer, "Ada"));
  g_assert_null (tb_mcp_dialogs_get_open (GTK_WINDOW (f->window)));

  /* A message of half a megabyte is shown whole, under the heading, as
   * soon as it comes: in a text view, not a label, which would lay it all
   * out at once. */
  g_clear_object (&called);
  {
    g_autoptr(JsonNode) arguments = tb_json_parse ("{\"long\": 20000}", -1, NULL);
    g_autoptr(TbToolResult) declined = NULL;
    g_autofree char *message = NULL;
    g_autofree char *declined_text = NULL;
    gint64 started = g_get_monotonic_time ();

    tb_tool_registry_call_async (f->registry, "elicit", NULL, arguments, NULL, NULL,
                                 store_result, &called);
    WAIT_UNTIL (tb_mcp_dialogs_get_open (GTK_WINDOW (f->window)) != NULL);
    dialog = tb_mcp_dialogs_get_open (GTK_WINDOW (f->window));
    window_test_iterate (100);
    g_test_message ("a 480 KB message shown in %.3f s",
                    (g_get_monotonic_time () - started) / 1e6);
    message = tb_elicitation_dialog_dup_message (TB_ELICITATION_DIALOG (dialog));
    g_assert_cmpuint (strlen (message), ==, 20000 * strlen ("Please read this first. ")
                                            + strlen ("Your name?"));
    g_assert_true (g_str_has_suffix (message, "Please read this first. Your name?"));
    g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, "");
    adw_message_dialog_response (dialog, "decline");
    gtk_window_close (GTK_WINDOW (dialog));
    WAIT_UNTIL (called != NULL);
    declined = tb_tool_registry_call_finish (f->registry, called);
    declined_text = tb_json_to_string (tb_tool_result_get_output (declined), FALSE);
    g_assert_nonnull (strstr (declined_text, "decline"));
  }

  /* The server's stderr is in its log view. */
  g_clear_object (&called);
  tb_tool_registry_call_async (f->registry, "stderr", NULL, NULL, NULL, NULL, store_result,
                               &called);
  WAIT_UNTIL (called != NULL);
  {
    g_autoptr(TbToolResult) printed = tb_tool_registry_call_finish (f->registry, called);
    g_autofree char *log = NULL;

    g_assert_true (tb_tool_result_get_ok (printed));
    WAIT_UNTIL ((g_free (log), log = tb_mcp_log_view_get_text (TB_MCP_LOG_VIEW (log_view)),
                 strstr (log, "bad bytes") != NULL));
    g_test_message ("log: %s", log);
  }
  tb_mcp_client_disconnect (client);
  tb_mcp_client_detach (client);
  window_test_iterate (200);
}

/* An MCP tool that reports its progress: its row shows a bar with the
 * server's message while it runs, and no bar once its result is in. */
static void
test_mcp_progress (Fixture       *f,
                   gconstpointer  data)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *script = g_build_filename (srcdir != NULL ? srcdir : ".", "..", "mcp",
                                              "fake-mcp-server.py", NULL);
  const char *argv[] = { "/usr/bin/python3", script, NULL };
  g_autoptr(JsonNode) turns = tb_json_parse (
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"tool_calls\":[{\"id\":\"p1\",\"name\":\"progress\",\"arguments\":{}}]},"
    "{\"text\":\"All three steps are done.\"}]}", -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (turns, NULL);
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(GAsyncResult) connected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkProgressBar) bar = NULL;
  double fraction;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE)
      || !g_file_test (script, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("/usr/bin/python3 and tests/mcp/fake-mcp-server.py are needed");
      return;
    }
  client = tb_mcp_client_new_stdio ("fake", argv, NULL, NULL);
  tb_mcp_client_attach (client, f->registry);
  tb_mcp_client_connect_async (client, NULL, store_result, &connected);
  WAIT_UNTIL (connected != NULL);
  g_assert_true (tb_mcp_client_connect_finish (client, connected, &error));
  g_assert_no_error (error);

  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  click (f, "step");
  WAIT_UNTIL (tb_loop_page_get_n_pending (f->page) == 1);
  bar = g_object_ref (tb_loop_page_get_pending_progress (f->page, 0));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (bar)));
  click_pending (f, 0, "approve");
  /* Step, without waiting for the run to be idle again */
  g_signal_emit_by_name (tb_loop_page_get_button (f->page, "step"), "clicked");

  /* 3 reports, 0.4 s apart, each with its message */
  WAIT_UNTIL (gtk_widget_get_visible (GTK_WIDGET (bar))
              && g_str_has_suffix (gtk_progress_bar_get_text (bar), " of 3"));
  g_test_message ("progress: %s", gtk_progress_bar_get_text (bar));
  g_assert_true (g_str_has_prefix (gtk_progress_bar_get_text (bar), "Step "));
  fraction = gtk_progress_bar_get_fraction (bar);
  g_assert_cmpfloat (fraction, >, 0.3);
  g_assert_cmpfloat (fraction, <=, 1.0);

  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
  g_assert_true (tb_loop_page_get_n_pending (f->page) == 0
                 || !gtk_widget_get_visible (GTK_WIDGET (bar)));
  {
    g_autofree char *row = tb_loop_page_get_row_text (f->page, 2);

    g_assert_nonnull (strstr (row, "done"));
  }

  tb_mcp_client_disconnect (client);
  tb_mcp_client_detach (client);
  window_test_iterate (200);
}

/* A large trace: the first events are listed while the rest is read. */
static void
test_trace_large (Fixture       *f,
                  gconstpointer  data)
{
  TbTracePage *trace_page = tb_window_get_trace_page (f->window);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("toolbench-trace-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "large.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbTrace) trace = tb_trace_new ();
  g_autofree char *row = NULL;
  g_autofree char *filler = g_strnfill (400, 'x');
  gint64 start, first = 0;
  guint n = 40000;
  GStatBuf st;

  for (guint i = 0; i < n; i++)
    {
      JsonObject *payload = json_object_new ();

      json_object_set_int_member (payload, "iteration", 1);
      json_object_set_string_member (payload, "message", filler);
      tb_trace_append (trace, "warning", payload);
      json_object_unref (payload);
    }
  g_assert_true (tb_trace_save (trace, file, NULL, &error));
  g_assert_no_error (error);

  tb_window_set_page (f->window, "trace");
  start = g_get_monotonic_time ();
  tb_trace_page_open_file (trace_page, file);
  while (tb_trace_page_get_busy (trace_page))
    {
      if (first == 0 && tb_trace_page_get_n_events (trace_page) > 0)
        first = g_get_monotonic_time ();
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_test_message ("%u events (%.1f MiB): first listed after %.0f ms, all read after %.0f ms",
                  n, st.st_size / 1048576.0,
                  first > 0 ? (first - start) / 1000.0 : -1.0,
                  (g_get_monotonic_time () - start) / 1000.0);
  g_assert_cmpstr (tb_trace_page_get_status_text (trace_page), ==, "");
  g_assert_cmpuint (tb_trace_page_get_n_events (trace_page), ==, n);
  row = tb_trace_page_get_event_row_text (trace_page, n - 1);
  g_assert_true (g_str_has_prefix (row, "Warning: xxx"));
  g_assert_true (gtk_widget_get_sensitive (tb_trace_page_get_button (trace_page, "replay")));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_trace_bad_file (Fixture       *f,
                     gconstpointer  data)
{
  TbTracePage *trace_page = tb_window_get_trace_page (f->window);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("toolbench-trace-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "newer.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_true (g_file_set_contents (path, "{\"format\":\"toolbench-trace\",\"version\":99}\n",
                                      -1, NULL));
  tb_trace_page_open_file (trace_page, file);
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
  g_test_message ("refused: %s", tb_trace_page_get_status_text (trace_page));
  g_assert_cmpstr (tb_trace_page_get_status_text (trace_page), !=, "");
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  window_test_add ("/loop-page/step-edit-skip", test_step_edit_skip);
  window_test_add ("/loop-page/approve-runs-form", test_approve_runs_form);
  window_test_add ("/loop-page/run-anyway", test_run_anyway);
  window_test_add ("/loop-page/decide-by-keys", test_decide_by_keys);
  window_test_add ("/loop-page/reject", test_reject);
  window_test_add ("/loop-page/tab-order", test_tab_order);
  window_test_add ("/loop-page/cap-and-extend", test_cap_and_extend);
  window_test_add ("/loop-page/continue-breakpoint", test_continue_breakpoint);
  window_test_add ("/loop-page/model-turn", test_model_turn);
  window_test_add ("/loop-page/tool-comes-mid-run", test_tool_comes_mid_run);
  window_test_add ("/loop-page/shortcuts", test_shortcuts);
  window_test_add ("/loop-page/ask-and-subset", test_ask_and_subset);
  window_test_add ("/loop-page/reasoning", test_reasoning);
  window_test_add ("/loop-page/streaming-long", test_streaming_long);
  window_test_add ("/loop-page/provider-error", test_provider_error);
  window_test_add ("/loop-page/outside-controls", test_outside_controls);
  window_test_add ("/loop-page/streaming", test_streaming);
  window_test_add ("/loop-page/fifty-calls", test_fifty_calls);
  window_test_add ("/loop-page/fifty-calls-by-keys", test_fifty_calls_by_keys);
  window_test_add ("/loop-page/script-file", test_script_file);
  window_test_add ("/loop-page/no-message", test_no_message);

  g_test_add ("/facts-page/confirm", FactsFixture, NULL, facts_setup, test_facts_confirm,
              facts_teardown);
  g_test_add ("/facts-page/enter", FactsFixture, NULL, facts_setup, test_facts_enter,
              facts_teardown);
  g_test_add ("/facts-page/paused", FactsFixture, NULL, facts_setup, test_facts_paused,
              facts_teardown);
  g_test_add ("/facts-page/locks", FactsFixture, NULL, facts_setup, test_facts_locks,
              facts_teardown);
  g_test_add_func ("/facts-page/diff", test_confirm_diff);
  g_test_add ("/facts-page/other-writer", FactsFixture, NULL, facts_setup,
              test_facts_other_writer, facts_teardown);
  window_test_add ("/trace-page/replay-fork", test_trace_replay_fork);
  window_test_add ("/trace-page/autosave", test_autosave);
  window_test_add ("/trace-page/key-redacted", test_key_redacted);
  window_test_add ("/mcp-dialogs/elicitation", test_elicitation);
  window_test_add ("/loop-page/mcp-progress", test_mcp_progress);
  window_test_add ("/trace-page/large", test_trace_large);
  window_test_add ("/trace-page/bad-file", test_trace_bad_file);

  return g_test_run ();
}
