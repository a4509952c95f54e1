/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-replay-report-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-replay-report-view.h"
#include "tb-replay-report-view-private.h"

/* A replay's report, step by step: different steps in the warning colour,
 * the first divergence in the error colour and selected; above them, when
 * the recorded trace cannot confirm the run, why not. Selecting a step
 * emits ::step-selected so the page can show it. */

struct _TbReplayReportView
{
  GtkWidget       parent_instance;

  GtkWidget      *incomplete_row;
  GtkLabel       *incomplete_label;
  GtkLabel       *summary_label;
  GtkListBox     *list;

  TbReplayReport *report;
};

G_DEFINE_FINAL_TYPE (TbReplayReportView, tb_replay_report_view, GTK_TYPE_WIDGET)

enum { STEP_SELECTED, N_SIGNALS };
static guint signals [N_SIGNALS];

static char *
step_text (TbReplayStep *step,
           gboolean      first)
{
  g_autofree char *described = tb_replay_step_describe (step);

  if (first)
    /* Translators: %u is a step's number, %s what happened at it */
    return g_strdup_printf (_("Step %u — first divergence: %s"),
                            tb_replay_step_get_index (step) + 1, described);
  /* Translators: %u is a step's number, %s what happened at it */
  return g_strdup_printf (_("Step %u: %s"), tb_replay_step_get_index (step) + 1, described);
}

static GtkWidget *
step_row (TbReplayStep *step,
          gboolean      first)
{
  g_autofree char *text = step_text (step, first);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_margin_start (label, 10);
  gtk_widget_set_margin_end (label, 10);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  if (tb_replay_step_get_status (step) != TB_REPLAY_SAME)
    gtk_widget_add_css_class (label, "warning");
  if (first)
    {
      gtk_widget_add_css_class (row, "tb-divergence");
      gtk_widget_add_css_class (label, "error");
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  return row;
}

static void
on_row_selected (TbReplayReportView *self)
{
  if (self->list == NULL)   /* disposing */
    return;
  g_signal_emit (self, signals [STEP_SELECTED], 0,
                 tb_replay_report_view_get_selected_step (self));
}

static void
tb_replay_report_view_dispose (GObject *object)
{
  TbReplayReportView *self = (TbReplayReportView *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_REPLAY_REPORT_VIEW);
  /* GTK 4.8 leaves the template's unnamed children to us. */
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->report);

  G_OBJECT_CLASS (tb_replay_report_view_parent_class)->dispose (object);
}

static void
tb_replay_report_view_class_init (TbReplayReportViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_replay_report_view_dispose;

  /**
   * TbReplayReportView::step-selected:
   * @self: the view
   * @step: the selected step's position, or -1 when none is
   */
  signals [STEP_SELECTED] =
    g_signal_new ("step-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-replay-report-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbReplayReportView, incomplete_row);
  gtk_widget_class_bind_template_child (widget_class, TbReplayReportView, incomplete_label);
  gtk_widget_class_bind_template_child (widget_class, TbReplayReportView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TbReplayReportView, list);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
}

static void
tb_replay_report_view_init (TbReplayReportView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
tb_replay_report_view_new (void)
{
  return g_object_new (TB_TYPE_REPLAY_REPORT_VIEW, NULL);
}

/**
 * tb_replay_report_view_set_report:
 * @self: a report view
 * @report: (nullable): the report to show; %NULL empties the view
 *
 * Shows every step, and selects the first divergence when there is one.
 */
void
tb_replay_report_view_set_report (TbReplayReportView *self,
                                  TbReplayReport     *report)
{
  GtkListBoxRow *row;
  const char *incomplete;
  gint first;
  guint n;

  g_return_if_fail (TB_IS_REPLAY_REPORT_VIEW (self));
  g_return_if_fail (!report || TB_IS_REPLAY_REPORT (report));

  g_signal_handlers_block_by_func (self->list, on_row_selected, self);
  while ((row = gtk_list_box_get_row_at_index (self->list, 0)) != NULL)
    gtk_list_box_remove (self->list, GTK_WIDGET (row));
  g_signal_handlers_unblock_by_func (self->list, on_row_selected, self);
  g_set_object (&self->report, report);
  gtk_widget_set_visible (self->incomplete_row, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
  if (report == NULL)
    return;

  first = tb_replay_report_get_first_divergence (report);
  n = tb_replay_report_get_n_divergences (report);
  for (guint i = 0; i < tb_replay_report_get_n_steps (report); i++)
    gtk_list_box_append (self->list, step_row (tb_replay_report_get_step (report, i),
                                               (gint) i == first));

  incomplete = tb_replay_report_get_incomplete (report);
  if (incomplete != NULL)
    {
      g_autofree char *text = NULL;

      /* Translators: %s says what is missing from the recorded trace */
      text = g_strdup_printf (_("The recorded trace is incomplete, so the replay cannot "
                                "confirm the run: %s"), incomplete);
      gtk_label_set_label (self->incomplete_label, text);
      gtk_widget_set_visible (self->incomplete_row, TRUE);
    }

  if (first < 0)
    gtk_label_set_label (self->summary_label,
                         _("No divergence: the replay did what the recorded run did."));
  else
    {
      g_autofree char *summary = NULL;

      summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u divergence; the first at step %d.",
                                              "%u divergences; the first at step %d.", n),
                                 n, first + 1);
      gtk_label_set_label (self->summary_label, summary);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), TRUE);
  if (first >= 0)
    tb_replay_report_view_select_step (self, first);
}

/**
 * tb_replay_report_view_get_report:
 * @self: a report view
 *
 * Returns: (transfer none) (nullable): the report shown
 */
TbReplayReport *
tb_replay_report_view_get_report (TbReplayReportView *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT_VIEW (self), NULL);
  return self->report;
}

guint
tb_replay_report_view_get_n_rows (TbReplayReportView *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT_VIEW (self), 0);
  return tb_list_box_count_rows (self->list);
}

/**
 * tb_replay_report_view_dup_row_text:
 * @self: a report view
 * @position: a step
 *
 * Returns: (transfer full) (nullable): what the step's row says
 */
char *
tb_replay_report_view_dup_row_text (TbReplayReportView *self,
                                    guint               position)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (TB_IS_REPLAY_REPORT_VIEW (self), NULL);
  row = gtk_list_box_get_row_at_index (self->list, position);
  return row != NULL ? g_strdup (gtk_label_get_label (GTK_LABEL (gtk_list_box_row_get_child (row))))
                     : NULL;
}

/**
 * tb_replay_report_view_get_row_highlighted:
 * @self: a report view
 * @position: a step
 *
 * Returns: whether its row is marked as the first divergence
 */
gboolean
tb_replay_report_view_get_row_highlighted (TbReplayReportView *self,
                                           guint               position)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (TB_IS_REPLAY_REPORT_VIEW (self), FALSE);
  row = gtk_list_box_get_row_at_index (self->list, position);
  return row != NULL && gtk_widget_has_css_class (GTK_WIDGET (row), "tb-divergence");
}

void
tb_replay_report_view_select_step (TbReplayReportView *self,
                                   guint               position)
{
  g_return_if_fail (TB_IS_REPLAY_REPORT_VIEW (self));
  gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, position));
}

/**
 * tb_replay_report_view_get_selected_step:
 * @self: a report view
 *
 * Returns: the selected step's position, or -1
 */
gint
tb_replay_report_view_get_selected_step (TbReplayReportView *self)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (TB_IS_REPLAY_REPORT_VIEW (self), -1);
  row = gtk_list_box_get_selected_row (self->list);
  return row != NULL ? gtk_list_box_row_get_index (row) : -1;
}

/**
 * tb_replay_report_view_get_incomplete_text:
 * @self: a report view
 *
 * Returns: (nullable): what the row above the steps says when the recorded
 *   trace cannot confirm the run, %NULL when it is not shown
 */
const char *
tb_replay_report_view_get_incomplete_text (TbReplayReportView *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT_VIEW (self), NULL);
  return gtk_widget_get_visible (self->incomplete_row)
         ? gtk_label_get_label (self->incomplete_label) : NULL;
}

/**
 * tb_replay_report_view_get_summary:
 * @self: a report view
 *
 * Returns: the sentence above the steps ("" without a report)
 */
const char *
tb_replay_report_view_get_summary (TbReplayReportView *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT_VIEW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->summary_label))
         ? gtk_label_get_label (self->summary_label) : "";
}
