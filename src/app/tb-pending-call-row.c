/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-pending-call-row"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-pending-call-row.h"
#include "tb-pending-call-row-private.h"

/* One call of the model's turn, waiting for the person: its arguments in
 * the Tool page's editor and what to do with it. Approve runs exactly
 * what the editor shows: the model's call when nothing was changed, an
 * edit (with both sides in the trace) otherwise. Arguments the schema
 * refuses run only through Run Anyway. A change after a decision
 * withdraws it, so an approval never runs arguments that are no longer
 * on screen. While the call runs, the progress its tool reports shows
 * under the buttons until the result arrives. */

struct _TbPendingCallRow
{
  GtkListBoxRow     parent_instance;

  TbPendingCall    *pending;
  TbApprovalPolicy  policy;
  char             *problem;

  GtkLabel         *title_label;
  GtkLabel         *note_label;
  TbArgumentEditor *editor;
  GtkWidget        *buttons;
  GtkWidget        *approve_button;
  GtkWidget        *anyway_button;
  GtkWidget        *edit_button;
  GtkWidget        *reject_button;
  GtkWidget        *skip_button;
  GtkEditable      *skip_entry;
  GtkLabel         *problem_label;
  GtkLabel         *decision_label;
  GtkProgressBar   *progress_bar;
};

G_DEFINE_FINAL_TYPE (TbPendingCallRow, tb_pending_call_row, GTK_TYPE_LIST_BOX_ROW)

/* Whether the editor shows other arguments than @node. */
static gboolean
form_differs_from (TbPendingCallRow *self,
                   JsonNode         *node)
{
  g_autoptr(JsonNode) shown = tb_argument_editor_get_arguments (self->editor);

  if (shown == NULL || node == NULL)
    return TRUE;
  return !tb_json_equal (shown, node);
}

static void
set_problem (TbPendingCallRow *self,
             const char       *text)
{
  g_free (self->problem);
  self->problem = g_strdup (text);
  tb_label_set_outside_text (self->problem_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->problem_label), text != NULL);
}

static void
show_anyway (TbPendingCallRow *self,
             gboolean          shown)
{
  /* Its flow box child too, so that no gap is left. */
  gtk_widget_set_visible (self->anyway_button, shown);
  gtk_widget_set_visible (gtk_widget_get_parent (self->anyway_button), shown);
}

static void
update_decision (TbPendingCallRow *self)
{
  const char *text = NULL;
  gboolean edited = self->pending != NULL
                    && tb_pending_call_get_tool (self->pending) != NULL
                    && form_differs_from (self,
                                          tb_pending_call_get_model_arguments (self->pending));

  switch (tb_pending_call_get_decision (self->pending))
    {
    case TB_CALL_DECISION_UNDECIDED:
      /* What Step will do, as the policy says. */
      if (self->policy == TB_APPROVAL_POLICY_ASK)
        text = _("Not decided: Step waits until you decide");
      else if (self->policy == TB_APPROVAL_POLICY_REJECT_ALL)
        text = _("Not decided: Step rejects it");
      else if (edited)
        text = _("Not decided: Step runs the model's arguments, not the ones above; "
                 "Approve runs yours");
      else
        text = _("Not decided: Step runs it as the model sent it");
      break;
    case TB_CALL_DECISION_APPROVE:
      text = _("Approved: runs as the model sent it");
      break;
    case TB_CALL_DECISION_EDIT:
      text = _("Approved with your changes: runs with the arguments above");
      break;
    case TB_CALL_DECISION_SKIP:
      text = _("Skipped: the model sees your result");
      break;
    case TB_CALL_DECISION_REJECT:
      text = _("Rejected: the model is told you declined");
      break;
    default:
      break;
    }
  gtk_label_set_label (self->decision_label, text);
}

static void
on_decision_changed (TbPendingCallRow *self)
{
  update_decision (self);
}

static void
on_result_changed (TbPendingCallRow *self)
{
  if (tb_pending_call_get_result (self->pending) != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
}

static void
on_editor_changed (TbPendingCallRow *self)
{
  TbCallDecision decision = tb_pending_call_get_decision (self->pending);

  /* An approval stands for the arguments that were on screen. */
  if ((decision == TB_CALL_DECISION_APPROVE || decision == TB_CALL_DECISION_EDIT)
      && form_differs_from (self, tb_pending_call_get_arguments (self->pending)))
    {
      tb_pending_call_undecide (self->pending);
      set_problem (self, _("The arguments changed after you approved them: approve again."));
    }
  update_decision (self);
}

/* Runs the arguments on screen: approve when they are the model's, edit
 * otherwise; @anyway sends arguments the schema refuses. */
static gboolean
decide (TbPendingCallRow *self,
        gboolean          anyway)
{
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(GError) error = NULL;
  gboolean edited;

  if (tb_pending_call_get_tool (self->pending) == NULL)
    return FALSE;
  arguments = tb_argument_editor_get_arguments (self->editor);
  if (arguments == NULL)
    {
      set_problem (self, _("The arguments are not valid JSON: fix them before you approve."));
      return FALSE;
    }
  if (!anyway && !tb_argument_editor_get_valid (self->editor))
    {
      set_problem (self, _("The arguments do not fit the tool's schema (see the problems "
                           "above). Fix them, or Run Anyway to send them as they are."));
      show_anyway (self, TRUE);
      return FALSE;
    }
  if (!form_differs_from (self, tb_pending_call_get_model_arguments (self->pending)))
    tb_pending_call_approve (self->pending);
  else
    {
      edited = anyway ? tb_pending_call_edit_anyway (self->pending, arguments, &error)
                      : tb_pending_call_edit (self->pending, arguments, &error);
      if (!edited)
        {
          set_problem (self, error->message);
          if (!anyway)
            show_anyway (self, TRUE);
          return FALSE;
        }
    }
  set_problem (self, NULL);
  show_anyway (self, FALSE);
  update_decision (self);
  return TRUE;
}

/**
 * tb_pending_call_row_approve:
 * @self: a pending call's row
 *
 * Decides to run the arguments the editor shows: approve when they are
 * the model's, edit otherwise. Refused (with the reason shown in the row
 * and Run Anyway offered) when they are not JSON or the schema refuses
 * them.
 *
 * Returns: whether the call was approved
 */
gboolean
tb_pending_call_row_approve (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), FALSE);

  return decide (self, FALSE);
}

/**
 * tb_pending_call_row_run_anyway:
 * @self: a pending call's row
 *
 * Like tb_pending_call_row_approve() for arguments the schema refuses:
 * they run as shown and the tool answers them.
 *
 * Returns: whether the call was approved
 */
gboolean
tb_pending_call_row_run_anyway (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), FALSE);

  return decide (self, TRUE);
}

/**
 * tb_pending_call_row_edit:
 * @self: a pending call's row
 *
 * Moves the focus into the arguments, to change them before approving:
 * straight to the first field (or the JSON), past the editor's buttons.
 */
void
tb_pending_call_row_edit (TbPendingCallRow *self)
{
  g_return_if_fail (TB_IS_PENDING_CALL_ROW (self));

  if (gtk_widget_get_visible (GTK_WIDGET (self->editor)))
    tb_argument_editor_focus_arguments (self->editor);
}

void
tb_pending_call_row_skip (TbPendingCallRow *self)
{
  const char *text;
  g_autoptr(JsonNode) output = NULL;

  g_return_if_fail (TB_IS_PENDING_CALL_ROW (self));

  /* JSON is kept as JSON; anything else is the result's text. */
  text = gtk_editable_get_text (self->skip_entry);
  output = tb_json_parse (text, -1, NULL);
  if (output == NULL)
    output = tb_json_node_new_string (text);
  tb_pending_call_skip (self->pending, output);
  set_problem (self, NULL);
  show_anyway (self, FALSE);
}

void
tb_pending_call_row_reject (TbPendingCallRow *self)
{
  g_return_if_fail (TB_IS_PENDING_CALL_ROW (self));

  tb_pending_call_reject (self->pending, NULL);
  set_problem (self, NULL);
  show_anyway (self, FALSE);
}

static void
on_approve_clicked (TbPendingCallRow *self)
{
  tb_pending_call_row_approve (self);
}

static void
on_anyway_clicked (TbPendingCallRow *self)
{
  tb_pending_call_row_run_anyway (self);
}

static void
on_edit_clicked (TbPendingCallRow *self)
{
  tb_pending_call_row_edit (self);
}

static void
on_skip_clicked (TbPendingCallRow *self)
{
  tb_pending_call_row_skip (self);
}

static void
on_reject_clicked (TbPendingCallRow *self)
{
  tb_pending_call_row_reject (self);
}

static void
tb_pending_call_row_dispose (GObject *object)
{
  TbPendingCallRow *self = (TbPendingCallRow *) object;

  if (self->pending != NULL)
    g_signal_handlers_disconnect_by_data (self->pending, self);
  g_clear_object (&self->pending);
  g_clear_pointer (&self->problem, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_PENDING_CALL_ROW);

  G_OBJECT_CLASS (tb_pending_call_row_parent_class)->dispose (object);
}

static void
tb_pending_call_row_class_init (TbPendingCallRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_pending_call_row_dispose;

  g_type_ensure (TB_TYPE_ARGUMENT_EDITOR);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-pending-call-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, note_label);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, editor);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, buttons);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, approve_button);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, anyway_button);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, edit_button);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, reject_button);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, skip_button);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, skip_entry);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, problem_label);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, decision_label);
  gtk_widget_class_bind_template_child (widget_class, TbPendingCallRow, progress_bar);
  gtk_widget_class_bind_template_callback (widget_class, on_approve_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_anyway_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_edit_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_skip_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_reject_clicked);
}

static void
tb_pending_call_row_init (TbPendingCallRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  show_anyway (self, FALSE);
}

/**
 * tb_pending_call_row_new:
 * @pending: a call waiting for a decision
 * @policy: what the loop does with it if nobody decides
 *
 * Returns: (transfer floating): a row for the pending calls list
 */
GtkWidget *
tb_pending_call_row_new (TbPendingCall    *pending,
                         TbApprovalPolicy  policy)
{
  TbPendingCallRow *self;
  TbToolCall *call;
  TbTool *tool;
  g_autofree char *raw_title = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (TB_IS_PENDING_CALL (pending), NULL);

  self = g_object_new (TB_TYPE_PENDING_CALL_ROW, NULL);
  self->pending = g_object_ref (pending);
  self->policy = policy;
  call = tb_pending_call_get_call (pending);
  tool = tb_pending_call_get_tool (pending);

  /* Translators: a tool's name and the model's id of the call */
  raw_title = g_strdup_printf (_("%s (call %s)"), tb_tool_call_get_name (call),
                               tb_tool_call_get_id (call));
  /* The model wrote these: show its control characters. */
  title = tb_text_escape_controls (raw_title, -1);
  gtk_label_set_label (self->title_label, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title, -1);

  if (tool == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->note_label), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->editor), FALSE);
      gtk_widget_set_visible (self->buttons, FALSE);
    }
  else
    {
      tb_argument_editor_set_tool (self->editor, tool, tb_pending_call_get_arguments (pending));
      g_signal_connect_swapped (self->editor, "changed", G_CALLBACK (on_editor_changed), self);
    }
  g_signal_connect_swapped (pending, "notify::decision", G_CALLBACK (on_decision_changed), self);
  g_signal_connect_swapped (pending, "notify::result", G_CALLBACK (on_result_changed), self);
  update_decision (self);
  return GTK_WIDGET (self);
}

TbPendingCall *
tb_pending_call_row_get_pending (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), NULL);
  return self->pending;
}

/**
 * tb_pending_call_row_set_policy:
 * @self: a pending call's row
 * @policy: the loop's approval policy
 *
 * The row says what Step will do with the call if nobody decides.
 */
void
tb_pending_call_row_set_policy (TbPendingCallRow *self,
                                TbApprovalPolicy  policy)
{
  g_return_if_fail (TB_IS_PENDING_CALL_ROW (self));
  self->policy = policy;
  update_decision (self);
}

TbArgumentEditor *
tb_pending_call_row_get_editor (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), NULL);
  return tb_pending_call_get_tool (self->pending) != NULL ? self->editor : NULL;
}

/**
 * tb_pending_call_row_get_button:
 * @self: a pending call's row
 * @name: "approve", "run-anyway", "edit", "skip" or "reject"
 *
 * Returns: (transfer none) (nullable): the button
 */
GtkWidget *
tb_pending_call_row_get_button (TbPendingCallRow *self,
                                const char       *name)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), NULL);

  if (tb_pending_call_get_tool (self->pending) == NULL)
    return NULL;
  if (g_str_equal (name, "approve"))
    return self->approve_button;
  if (g_str_equal (name, "run-anyway"))
    return self->anyway_button;
  if (g_str_equal (name, "edit"))
    return self->edit_button;
  if (g_str_equal (name, "skip"))
    return self->skip_button;
  if (g_str_equal (name, "reject"))
    return self->reject_button;
  return NULL;
}

GtkEditable *
tb_pending_call_row_get_skip_entry (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), NULL);
  return tb_pending_call_get_tool (self->pending) != NULL ? self->skip_entry : NULL;
}

const char *
tb_pending_call_row_get_decision_text (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), NULL);
  return gtk_label_get_label (self->decision_label);
}

/**
 * tb_pending_call_row_get_problem_text:
 * @self: a pending call's row
 *
 * Returns: (nullable): why the last decision was refused, if it was
 */
const char *
tb_pending_call_row_get_problem_text (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), NULL);
  return self->problem;
}

/**
 * tb_pending_call_row_set_progress:
 * @self: a pending call's row
 * @progress: how far the running call is
 * @total: what @progress reaches at the end, or a negative number when unknown
 * @message: (nullable): what the tool says it is doing
 *
 * Shows the progress the call's tool reports: a fraction when the total
 * is known, a pulse otherwise, with the tool's message as the bar's text.
 * Does nothing once the call has its result.
 */
void
tb_pending_call_row_set_progress (TbPendingCallRow *self,
                                  double            progress,
                                  double            total,
                                  const char       *message)
{
  g_autofree char *shown = NULL;

  g_return_if_fail (TB_IS_PENDING_CALL_ROW (self));

  /* A report that arrives late must not bring the bar back. */
  if (tb_pending_call_get_result (self->pending) != NULL)
    return;

  if (message != NULL && *message != '\0')
    shown = tb_text_escape_controls (message, -1);
  if (total > 0)
    {
      gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (progress / total, 0.0, 1.0));
    }
  else
    {
      gtk_progress_bar_pulse (self->progress_bar);
      /* A pulse has no percentage to show in place of a message. */
      if (shown == NULL)
        shown = g_strdup (_("Running…"));
    }
  gtk_progress_bar_set_text (self->progress_bar, shown);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
}

/**
 * tb_pending_call_row_get_progress_bar:
 * @self: a pending call's row
 *
 * Returns: (transfer none): the bar that shows the running call's progress
 */
GtkProgressBar *
tb_pending_call_row_get_progress_bar (TbPendingCallRow *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL_ROW (self), NULL);
  return self->progress_bar;
}
