/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-pending-list"

#include "config.h"

#include "tb-app-util.h"
#include "tb-pending-list.h"

/* The calls of the model's turn that wait for the person, one row each,
 * under a title; hidden while none waits. Each row says what Step does
 * with its call if nobody decides, as the run's policy says. The call the
 * decision keys act on is the one holding the focus, else the first
 * nobody decided. */

struct _TbPendingList
{
  GtkWidget         parent_instance;

  GListModel       *model;
  TbApprovalPolicy  policy;

  GtkWidget        *title_label;
  GtkListBox       *list_box;
};

G_DEFINE_FINAL_TYPE (TbPendingList, tb_pending_list, GTK_TYPE_WIDGET)

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  TbPendingList *self = user_data;

  return tb_pending_call_row_new (item, self->policy);
}

static gboolean
is_waiting (GtkWidget *row)
{
  return TB_IS_PENDING_CALL_ROW (row)
         && tb_pending_call_get_decision (tb_pending_call_row_get_pending (
                                            TB_PENDING_CALL_ROW (row)))
            == TB_CALL_DECISION_UNDECIDED;
}

static void
on_items_changed (TbPendingList *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), g_list_model_get_n_items (self->model) > 0);
}

static void
tb_pending_list_dispose (GObject *object)
{
  TbPendingList *self = (TbPendingList *) object;

  tb_pending_list_set_model (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_PENDING_LIST);

  G_OBJECT_CLASS (tb_pending_list_parent_class)->dispose (object);
}

static void
tb_pending_list_class_init (TbPendingListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_pending_list_dispose;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-pending-list.ui");
  gtk_widget_class_bind_template_child (widget_class, TbPendingList, title_label);
  gtk_widget_class_bind_template_child (widget_class, TbPendingList, list_box);
}

static void
tb_pending_list_init (TbPendingList *self)
{
  self->policy = TB_APPROVAL_POLICY_APPROVE_ALL;
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_pending_list_set_model:
 * @self: a pending list
 * @pending_calls: (nullable): the run's #TbPendingCall list
 */
void
tb_pending_list_set_model (TbPendingList *self,
                           GListModel    *pending_calls)
{
  g_return_if_fail (TB_IS_PENDING_LIST (self));
  g_return_if_fail (!pending_calls || G_IS_LIST_MODEL (pending_calls));

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_set_object (&self->model, pending_calls);
  if (self->list_box != NULL)
    gtk_list_box_bind_model (self->list_box, pending_calls, pending_calls ? create_row : NULL,
                             self, NULL);
  if (pending_calls != NULL)
    {
      g_signal_connect_swapped (pending_calls, "items-changed", G_CALLBACK (on_items_changed),
                                self);
      on_items_changed (self);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/**
 * tb_pending_list_set_policy:
 * @self: a pending list
 * @policy: what Step does with the calls nobody decided
 */
void
tb_pending_list_set_policy (TbPendingList    *self,
                            TbApprovalPolicy  policy)
{
  g_return_if_fail (TB_IS_PENDING_LIST (self));

  self->policy = policy;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (TB_IS_PENDING_CALL_ROW (row))
      tb_pending_call_row_set_policy (TB_PENDING_CALL_ROW (row), policy);
}

/**
 * tb_pending_list_set_progress:
 * @self: a pending list
 * @pending: a running call
 * @progress: how far it is
 * @total: what @progress reaches at the end, or a negative number
 * @message: (nullable): what its tool says it is doing
 *
 * Shows the progress in the call's own row.
 */
void
tb_pending_list_set_progress (TbPendingList *self,
                              TbPendingCall *pending,
                              double         progress,
                              double         total,
                              const char    *message)
{
  g_return_if_fail (TB_IS_PENDING_LIST (self));

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (TB_IS_PENDING_CALL_ROW (row)
        && tb_pending_call_row_get_pending (TB_PENDING_CALL_ROW (row)) == pending)
      tb_pending_call_row_set_progress (TB_PENDING_CALL_ROW (row), progress, total, message);
}

/**
 * tb_pending_list_get_current:
 * @self: a pending list
 *
 * Returns: (transfer none) (nullable): the row of the call the decision
 *   keys act on: the one holding the focus, else the first nobody decided
 */
TbPendingCallRow *
tb_pending_list_get_current (TbPendingList *self)
{
  GtkRoot *root;
  GtkWidget *focus;
  GtkWidget *row;

  g_return_val_if_fail (TB_IS_PENDING_LIST (self), NULL);

  root = gtk_widget_get_root (GTK_WIDGET (self));
  focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->list_box)))
    {
      row = gtk_widget_get_ancestor (focus, TB_TYPE_PENDING_CALL_ROW);
      if (row != NULL)
        return TB_PENDING_CALL_ROW (row);
    }
  for (row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (is_waiting (row))
      return TB_PENDING_CALL_ROW (row);
  return NULL;
}

/**
 * tb_pending_list_focus_waiting:
 * @self: a pending list
 * @after: (nullable): a row, or %NULL to start at the first
 *
 * Gives the focus to the first row after @after whose call nobody
 * decided.
 *
 * Returns: whether there was one
 */
gboolean
tb_pending_list_focus_waiting (TbPendingList    *self,
                               TbPendingCallRow *after)
{
  GtkWidget *row;

  g_return_val_if_fail (TB_IS_PENDING_LIST (self), FALSE);
  g_return_val_if_fail (!after || TB_IS_PENDING_CALL_ROW (after), FALSE);

  row = after != NULL ? gtk_widget_get_next_sibling (GTK_WIDGET (after))
                      : gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
  for (; row != NULL; row = gtk_widget_get_next_sibling (row))
    if (is_waiting (row))
      {
        gtk_widget_grab_focus (row);
        return TRUE;
      }
  return FALSE;
}

guint
tb_pending_list_get_n_rows (TbPendingList *self)
{
  g_return_val_if_fail (TB_IS_PENDING_LIST (self), 0);
  return tb_list_box_count_rows (self->list_box);
}

/**
 * tb_pending_list_get_row:
 * @self: a pending list
 * @position: a row
 *
 * Returns: (transfer none) (nullable): the row at @position
 */
TbPendingCallRow *
tb_pending_list_get_row (TbPendingList *self,
                         guint          position)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (TB_IS_PENDING_LIST (self), NULL);

  row = gtk_list_box_get_row_at_index (self->list_box, position);
  return row != NULL && TB_IS_PENDING_CALL_ROW (row) ? TB_PENDING_CALL_ROW (row) : NULL;
}
