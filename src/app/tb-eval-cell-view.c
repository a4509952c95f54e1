/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-eval-cell-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-eval-cell-view-private.h"
#include "tb-eval-matrix.h"

/* One cell of the evaluation matrix: how the scenario's run with one
 * model went, in words and with an icon (never by colour alone), and for
 * a run that failed or could not run, the first reason. It is a button
 * that opens the run's trace, insensitive while there is none. */

struct _TbEvalCellView
{
  GtkButton   parent_instance;

  GtkImage   *icon;
  GtkSpinner *spinner;
  GtkLabel   *status_label;
  GtkLabel   *detail_label;

  TbEvalCell *cell;
};

G_DEFINE_FINAL_TYPE (TbEvalCellView, tb_eval_cell_view, GTK_TYPE_BUTTON)

enum { PROP_0, PROP_CELL, N_PROPS };

static GParamSpec *properties [N_PROPS];

static const char * const status_classes[] = { "success", "error", "warning", "dim-label" };

static void
set_status_class (TbEvalCellView *self,
                  const char     *wanted)
{
  for (guint i = 0; i < G_N_ELEMENTS (status_classes); i++)
    {
      if (g_strcmp0 (status_classes[i], wanted) == 0)
        gtk_widget_add_css_class (GTK_WIDGET (self->icon), status_classes[i]);
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->icon), status_classes[i]);
    }
}

static void
show_cell (TbEvalCellView *self)
{
  TbEvalCellStatus status = self->cell != NULL ? tb_eval_cell_get_status (self->cell)
                                               : TB_EVAL_CELL_WAITING;
  const char *message = self->cell != NULL ? tb_eval_cell_get_message (self->cell) : NULL;
  gboolean done = self->cell != NULL && tb_eval_matrix_cell_is_done (self->cell);
  gboolean has_trace = self->cell != NULL && tb_eval_matrix_cell_has_trace (self->cell);
  const char *text, *icon_name, *style;
  const char *detail = NULL;
  g_autofree char *label = NULL;
  g_autofree char *tooltip = NULL;

  switch (status)
    {
    case TB_EVAL_CELL_RUNNING:
      text = _("Running");
      icon_name = NULL;
      style = NULL;
      break;
    case TB_EVAL_CELL_PASSED:
      text = _("Passed");
      icon_name = "emblem-ok-symbolic";
      style = "success";
      break;
    case TB_EVAL_CELL_FAILED:
      text = _("Failed");
      icon_name = "dialog-error-symbolic";
      style = "error";
      break;
    case TB_EVAL_CELL_ERROR:
      text = _("Could not run");
      icon_name = "dialog-warning-symbolic";
      style = "warning";
      break;
    case TB_EVAL_CELL_NOT_RUN:
      text = _("Not run");
      icon_name = "action-unavailable-symbolic";
      style = "dim-label";
      break;
    case TB_EVAL_CELL_WAITING:
    default:
      text = _("Waiting");
      icon_name = "content-loading-symbolic";
      style = "dim-label";
      break;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), status == TB_EVAL_CELL_RUNNING);
  gtk_spinner_set_spinning (self->spinner, status == TB_EVAL_CELL_RUNNING);
  gtk_widget_set_visible (GTK_WIDGET (self->icon), icon_name != NULL);
  gtk_image_set_from_icon_name (self->icon, icon_name);
  set_status_class (self, style);
  gtk_label_set_label (self->status_label, self->cell != NULL ? text : "");

  if (message != NULL && (status == TB_EVAL_CELL_FAILED || status == TB_EVAL_CELL_ERROR))
    detail = message;
  else if (done && !has_trace)
    detail = _("No trace was saved for this run");
  gtk_label_set_label (self->detail_label, detail != NULL ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->detail_label), detail != NULL);

  /* The tooltip holds the whole reason the label may cut short, and says
   * what a click does or why it does nothing. */
  if (done && !has_trace)
    tooltip = detail == message && message != NULL
              ? g_strdup_printf ("%s\n%s", message, _("No trace was saved for this run"))
              : g_strdup (_("No trace was saved for this run"));
  else if (has_trace)
    tooltip = detail != NULL ? g_strdup_printf ("%s\n%s", detail, _("Open the run's trace"))
                             : g_strdup (_("Open the run's trace"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), tooltip);
  gtk_widget_set_sensitive (GTK_WIDGET (self), has_trace);

  if (self->cell != NULL)
    /* Translators: a scenario, the model it ran with, then how it went */
    label = g_strdup_printf (_("%s with %s: %s"), tb_eval_cell_get_scenario (self->cell),
                             tb_eval_cell_get_model (self->cell), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label != NULL ? label : "",
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  tooltip != NULL ? tooltip : "",
                                  -1);
}

static void
tb_eval_cell_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TbEvalCellView *self = TB_EVAL_CELL_VIEW (object);

  switch (prop_id)
    {
    case PROP_CELL:
      g_value_set_object (value, self->cell);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_eval_cell_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TbEvalCellView *self = TB_EVAL_CELL_VIEW (object);

  switch (prop_id)
    {
    case PROP_CELL:
      tb_eval_cell_view_set_cell (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_eval_cell_view_dispose (GObject *object)
{
  TbEvalCellView *self = TB_EVAL_CELL_VIEW (object);

  if (self->cell != NULL)
    g_signal_handlers_disconnect_by_data (self->cell, self);
  g_clear_object (&self->cell);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_EVAL_CELL_VIEW);
  G_OBJECT_CLASS (tb_eval_cell_view_parent_class)->dispose (object);
}

static void
tb_eval_cell_view_class_init (TbEvalCellViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_eval_cell_view_dispose;
  object_class->get_property = tb_eval_cell_view_get_property;
  object_class->set_property = tb_eval_cell_view_set_property;

  properties [PROP_CELL] =
    g_param_spec_object ("cell", NULL, NULL, TB_TYPE_EVAL_CELL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-eval-cell-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbEvalCellView, icon);
  gtk_widget_class_bind_template_child (widget_class, TbEvalCellView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TbEvalCellView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TbEvalCellView, detail_label);
}

static void
tb_eval_cell_view_init (TbEvalCellView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  show_cell (self);
}

/**
 * tb_eval_cell_view_get_cell:
 * @self: a cell view
 *
 * Returns: (transfer none) (nullable): the cell it shows
 */
TbEvalCell *
tb_eval_cell_view_get_cell (TbEvalCellView *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL_VIEW (self), NULL);
  return self->cell;
}

/**
 * tb_eval_cell_view_set_cell:
 * @self: a cell view
 * @cell: (nullable): the cell to show; it is followed as it runs
 */
void
tb_eval_cell_view_set_cell (TbEvalCellView *self,
                            TbEvalCell     *cell)
{
  g_return_if_fail (TB_IS_EVAL_CELL_VIEW (self));
  g_return_if_fail (cell == NULL || TB_IS_EVAL_CELL (cell));

  if (self->cell == cell)
    return;
  if (self->cell != NULL)
    g_signal_handlers_disconnect_by_data (self->cell, self);
  g_set_object (&self->cell, cell);
  if (cell != NULL)
    g_signal_connect_swapped (cell, "notify::status", G_CALLBACK (show_cell), self);
  show_cell (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CELL]);
}

/**
 * tb_eval_cell_view_get_status_text:
 * @self: a cell view
 *
 * Returns: what the cell says of its run: "Passed", "Failed", …
 */
const char *
tb_eval_cell_view_get_status_text (TbEvalCellView *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL_VIEW (self), NULL);
  return gtk_label_get_label (self->status_label);
}

/**
 * tb_eval_cell_view_get_detail_text:
 * @self: a cell view
 *
 * Returns: the line under the status: the first reason a run failed or
 *   could not run, or that no trace was saved; "" when there is none
 */
const char *
tb_eval_cell_view_get_detail_text (TbEvalCellView *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL_VIEW (self), NULL);
  return gtk_label_get_label (self->detail_label);
}
