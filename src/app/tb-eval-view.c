/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-eval-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-eval-cell-view.h"
#include "tb-eval-view-private.h"

/**
 * TbEvalView:
 *
 * An evaluation's results: a summary line per model (runs passed, calls,
 * invalid arguments, iterations, time, tokens) and the matrix of runs, a
 * row per scenario and a column per model. It follows the cells while
 * they run. Activating a cell whose trace was kept (a click, Enter or
 * Space on it; Enter on a row when there is one model) emits
 * #TbEvalView::cell-activated.
 */

struct _TbEvalView
{
  GtkWidget            parent_instance;

  GtkStack            *stack;
  GtkLabel            *progress_label;
  GtkColumnView       *summary_view;
  GtkNoSelection      *summary_selection;
  GtkColumnView       *matrix_view;
  GtkNoSelection      *matrix_selection;
  GtkColumnViewColumn *scenario_column;

  TbEvalMatrix        *matrix;
  GPtrArray           *model_columns;
};

G_DEFINE_FINAL_TYPE (TbEvalView, tb_eval_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_CELLS, N_PROPS };
enum { CELL_ACTIVATED, N_SIGNALS };

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

/* A model's column. Which model a column shows is known only once the
 * cells are, and a builder factory cannot be told which column it fills:
 * the column's factory makes a TbEvalCellView (built from its template)
 * and gives it the row's cell of that model. */

static void
on_cell_clicked (TbEvalView     *self,
                 TbEvalCellView *cell_view)
{
  TbEvalCell *cell = tb_eval_cell_view_get_cell (cell_view);

  if (cell != NULL)
    tb_eval_view_activate_cell (self, cell);
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            TbEvalView               *self)
{
  GtkWidget *cell_view = g_object_new (TB_TYPE_EVAL_CELL_VIEW, NULL);

  g_signal_connect_object (cell_view, "clicked", G_CALLBACK (on_cell_clicked), self,
                           G_CONNECT_SWAPPED);
  gtk_list_item_set_child (item, cell_view);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  column)
{
  TbEvalMatrixRow *row = gtk_list_item_get_item (item);

  tb_eval_cell_view_set_cell (TB_EVAL_CELL_VIEW (gtk_list_item_get_child (item)),
                              tb_eval_matrix_row_get_cell (row, GPOINTER_TO_UINT (column)));
}

static void
cell_unbind (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  tb_eval_cell_view_set_cell (TB_EVAL_CELL_VIEW (gtk_list_item_get_child (item)), NULL);
}

static void
rebuild_columns (TbEvalView *self)
{
  const char * const *models = self->matrix != NULL ? tb_eval_matrix_get_models (self->matrix)
                                                    : NULL;

  for (guint i = 0; i < self->model_columns->len; i++)
    gtk_column_view_remove_column (self->matrix_view,
                                   g_ptr_array_index (self->model_columns, i));
  g_ptr_array_set_size (self->model_columns, 0);

  for (guint i = 0; models != NULL && models[i] != NULL; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), self);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), NULL);
      column = gtk_column_view_column_new (models[i], factory);
      gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (self->matrix_view, column);
      g_ptr_array_add (self->model_columns, column);
    }
}

static void
update_progress (TbEvalView *self)
{
  guint n = self->matrix != NULL
            ? g_list_model_get_n_items (tb_eval_matrix_get_cells (self->matrix)) : 0;
  guint done = self->matrix != NULL ? tb_eval_matrix_get_n_done (self->matrix) : 0;
  g_autofree char *text = NULL;

  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "results" : "empty");
  if (done < n)
    /* Translators: runs that have their outcome, then all the runs */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u run done",
                                         "%u of %u runs done", n), done, n);
  gtk_label_set_label (self->progress_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->progress_label), text != NULL);
}

/* Enter or a double click on a row: with one model, the row is its cell. */
static void
on_row_activated (TbEvalView *self,
                  guint       position)
{
  g_autoptr(TbEvalMatrixRow) row = NULL;
  TbEvalCell *cell;

  if (self->matrix == NULL || self->model_columns->len != 1)
    return;
  row = g_list_model_get_item (tb_eval_matrix_get_rows (self->matrix), position);
  cell = row != NULL ? tb_eval_matrix_row_get_cell (row, 0) : NULL;
  if (cell != NULL)
    tb_eval_view_activate_cell (self, cell);
}

static void
forget_matrix (TbEvalView *self)
{
  if (self->matrix == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->matrix, self);
  g_signal_handlers_disconnect_by_data (tb_eval_matrix_get_rows (self->matrix), self);
  g_clear_object (&self->matrix);
}

static void
tb_eval_view_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TbEvalView *self = TB_EVAL_VIEW (object);

  switch (prop_id)
    {
    case PROP_CELLS:
      g_value_set_object (value, tb_eval_view_get_cells (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_eval_view_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  TbEvalView *self = TB_EVAL_VIEW (object);

  switch (prop_id)
    {
    case PROP_CELLS:
      tb_eval_view_set_cells (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_eval_view_dispose (GObject *object)
{
  TbEvalView *self = TB_EVAL_VIEW (object);

  forget_matrix (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_EVAL_VIEW);
  g_clear_pointer (&self->model_columns, g_ptr_array_unref);
  G_OBJECT_CLASS (tb_eval_view_parent_class)->dispose (object);
}

static void
tb_eval_view_class_init (TbEvalViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_eval_view_dispose;
  object_class->get_property = tb_eval_view_get_property;
  object_class->set_property = tb_eval_view_set_property;

  /**
   * TbEvalView:cells:
   *
   * The #GListModel of #TbEvalCell shown.
   */
  properties [PROP_CELLS] =
    g_param_spec_object ("cells", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbEvalView::cell-activated:
   * @self: the view
   * @cell: a #TbEvalCell whose trace was kept
   *
   * A person asked to see the run's trace.
   */
  signals [CELL_ACTIVATED] =
    g_signal_new ("cell-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, TB_TYPE_EVAL_CELL);

  /* The factories' templates name these types. */
  g_type_ensure (TB_TYPE_EVAL_MATRIX_ROW);
  g_type_ensure (TB_TYPE_EVAL_MATRIX_SUMMARY);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-eval-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbEvalView, stack);
  gtk_widget_class_bind_template_child (widget_class, TbEvalView, progress_label);
  gtk_widget_class_bind_template_child (widget_class, TbEvalView, summary_view);
  gtk_widget_class_bind_template_child (widget_class, TbEvalView, summary_selection);
  gtk_widget_class_bind_template_child (widget_class, TbEvalView, matrix_view);
  gtk_widget_class_bind_template_child (widget_class, TbEvalView, matrix_selection);
  gtk_widget_class_bind_template_child (widget_class, TbEvalView, scenario_column);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tb_eval_view_init (TbEvalView *self)
{
  self->model_columns = g_ptr_array_new_with_free_func (g_object_unref);
  gtk_widget_init_template (GTK_WIDGET (self));
  update_progress (self);
}

/**
 * tb_eval_view_set_cells:
 * @self: a view
 * @cells: (nullable) (element-type TbEvalCell): the cells of an
 *   evaluation, from a #TbEvalSuite (followed while it runs) or
 *   tb_eval_report_load()
 */
void
tb_eval_view_set_cells (TbEvalView *self,
                        GListModel *cells)
{
  g_return_if_fail (TB_IS_EVAL_VIEW (self));
  g_return_if_fail (cells == NULL || G_IS_LIST_MODEL (cells));

  if (cells == tb_eval_view_get_cells (self))
    return;
  forget_matrix (self);
  if (cells != NULL)
    {
      self->matrix = tb_eval_matrix_new (cells);
      g_signal_connect_swapped (self->matrix, "notify::models", G_CALLBACK (rebuild_columns),
                                self);
      g_signal_connect_swapped (self->matrix, "notify::n-done", G_CALLBACK (update_progress),
                                self);
      g_signal_connect_swapped (tb_eval_matrix_get_rows (self->matrix), "items-changed",
                                G_CALLBACK (update_progress), self);
    }
  /* The columns go before the rows, so that no row is bound to a column
   * of the previous evaluation's models. */
  gtk_no_selection_set_model (self->matrix_selection, NULL);
  rebuild_columns (self);
  gtk_no_selection_set_model (self->matrix_selection,
                              self->matrix != NULL ? tb_eval_matrix_get_rows (self->matrix)
                                                   : NULL);
  gtk_no_selection_set_model (self->summary_selection,
                              self->matrix != NULL ? tb_eval_matrix_get_summaries (self->matrix)
                                                   : NULL);
  update_progress (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CELLS]);
}

/**
 * tb_eval_view_get_cells:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the cells shown
 */
GListModel *
tb_eval_view_get_cells (TbEvalView *self)
{
  g_return_val_if_fail (TB_IS_EVAL_VIEW (self), NULL);
  return self->matrix != NULL ? tb_eval_matrix_get_cells (self->matrix) : NULL;
}

/**
 * tb_eval_view_get_matrix:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the rows and summaries shown
 */
TbEvalMatrix *
tb_eval_view_get_matrix (TbEvalView *self)
{
  g_return_val_if_fail (TB_IS_EVAL_VIEW (self), NULL);
  return self->matrix;
}

/**
 * tb_eval_view_activate_cell:
 * @self: a view
 * @cell: one of its cells
 *
 * What clicking the cell does: emits #TbEvalView::cell-activated when its
 * trace was kept.
 *
 * Returns: whether the cell had a trace to open
 */
gboolean
tb_eval_view_activate_cell (TbEvalView *self,
                            TbEvalCell *cell)
{
  g_return_val_if_fail (TB_IS_EVAL_VIEW (self), FALSE);
  g_return_val_if_fail (TB_IS_EVAL_CELL (cell), FALSE);

  if (!tb_eval_matrix_cell_has_trace (cell))
    return FALSE;
  g_signal_emit (self, signals [CELL_ACTIVATED], 0, cell);
  return TRUE;
}

static GtkWidget *
find_cell_widget (GtkWidget  *widget,
                  TbEvalCell *cell)
{
  if (TB_IS_EVAL_CELL_VIEW (widget))
    return tb_eval_cell_view_get_cell (TB_EVAL_CELL_VIEW (widget)) == cell ? widget : NULL;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_cell_widget (child, cell);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/**
 * tb_eval_view_get_cell_widget:
 * @self: a view
 * @row: a scenario's row
 * @column: a model's column
 *
 * Returns: (transfer none) (nullable): the #TbEvalCellView showing that
 *   cell, when the matrix has made one for it
 */
GtkWidget *
tb_eval_view_get_cell_widget (TbEvalView *self,
                              guint       row,
                              guint       column)
{
  g_autoptr(TbEvalMatrixRow) item = NULL;
  TbEvalCell *cell;

  g_return_val_if_fail (TB_IS_EVAL_VIEW (self), NULL);

  if (self->matrix == NULL)
    return NULL;
  item = g_list_model_get_item (tb_eval_matrix_get_rows (self->matrix), row);
  cell = item != NULL ? tb_eval_matrix_row_get_cell (item, column) : NULL;
  return cell != NULL ? find_cell_widget (GTK_WIDGET (self->matrix_view), cell) : NULL;
}

/**
 * tb_eval_view_get_column_title:
 * @self: a view
 * @column: a model's column
 *
 * Returns: (nullable): its heading: the model's name
 */
const char *
tb_eval_view_get_column_title (TbEvalView *self,
                               guint       column)
{
  g_return_val_if_fail (TB_IS_EVAL_VIEW (self), NULL);

  if (column >= self->model_columns->len)
    return NULL;
  return gtk_column_view_column_get_title (g_ptr_array_index (self->model_columns, column));
}

/**
 * tb_eval_view_get_empty:
 * @self: a view
 *
 * Returns: whether it shows its empty state: no runs
 */
gboolean
tb_eval_view_get_empty (TbEvalView *self)
{
  g_return_val_if_fail (TB_IS_EVAL_VIEW (self), FALSE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "empty") == 0;
}

/**
 * tb_eval_view_get_progress_text:
 * @self: a view
 *
 * Returns: how far a run is ("3 of 10 runs done"); "" once every run has
 *   its outcome
 */
const char *
tb_eval_view_get_progress_text (TbEvalView *self)
{
  g_return_val_if_fail (TB_IS_EVAL_VIEW (self), NULL);
  return gtk_label_get_label (self->progress_label);
}
