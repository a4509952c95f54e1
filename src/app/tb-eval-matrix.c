/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-eval-matrix"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-eval-matrix-private.h"

/* An evaluation's cells as the app shows them: one row per scenario with
 * a cell per model, and one summary line per model in the words of the
 * table `toolbench-cli eval` prints. Both follow the cells as they run:
 * a cell's status changing updates the summaries in place, and a cell
 * list that changes (a new run) lays the rows out again. */

/* ---- the matrix ----------------------------------------------------------- */

struct _TbEvalMatrix
{
  GObject     parent_instance;

  GListModel *cells;
  GStrv       models;
  GListStore *rows;
  GListStore *summaries;
  GPtrArray  *watched;   /* the cells whose status is followed */
  guint       n_done;
};

G_DEFINE_FINAL_TYPE (TbEvalMatrix, tb_eval_matrix, G_TYPE_OBJECT)

enum { PROP_0, PROP_MODELS, PROP_N_DONE, N_PROPS };

static GParamSpec *properties [N_PROPS];

/**
 * tb_eval_matrix_cell_is_done:
 * @cell: a cell
 *
 * Returns: whether the cell has its outcome: passed, failed, could not
 *   run or was not run
 */
gboolean
tb_eval_matrix_cell_is_done (TbEvalCell *cell)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (cell), FALSE);
  return tb_eval_cell_get_status (cell) >= TB_EVAL_CELL_PASSED;
}

/**
 * tb_eval_matrix_cell_has_trace:
 * @cell: a cell
 *
 * Returns: whether the Trace page can show the cell's run: its trace is
 *   in memory (a run of the app's) or was saved to a file (`--traces`)
 */
gboolean
tb_eval_matrix_cell_has_trace (TbEvalCell *cell)
{
  TbEvalResult *result;

  g_return_val_if_fail (TB_IS_EVAL_CELL (cell), FALSE);

  result = tb_eval_cell_get_result (cell);
  return (result != NULL && result->trace != NULL) || tb_eval_cell_get_trace_path (cell) != NULL;
}

static void
update_summaries (TbEvalMatrix *self)
{
  g_autoptr(GPtrArray) summaries = tb_eval_report_summarize (self->cells);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->summaries));
  guint done = 0;

  if (n != summaries->len)
    {
      g_autoptr(GPtrArray) fresh = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < summaries->len; i++)
        {
          TbEvalMatrixSummary *line = g_object_new (TB_TYPE_EVAL_MATRIX_SUMMARY, NULL);

          _tb_eval_matrix_summary_update (line, g_ptr_array_index (summaries, i));
          g_ptr_array_add (fresh, line);
        }
      g_list_store_splice (self->summaries, 0, n, fresh->pdata, fresh->len);
    }
  else
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(TbEvalMatrixSummary) line =
          g_list_model_get_item (G_LIST_MODEL (self->summaries), i);

        _tb_eval_matrix_summary_update (line, g_ptr_array_index (summaries, i));
      }

  for (guint i = 0; i < self->watched->len; i++)
    if (tb_eval_matrix_cell_is_done (g_ptr_array_index (self->watched, i)))
      done++;
  if (done != self->n_done)
    {
      self->n_done = done;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_DONE]);
    }
}

static void
unwatch (TbEvalMatrix *self)
{
  for (guint i = 0; i < self->watched->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->watched, i), self);
  g_ptr_array_set_size (self->watched, 0);
}

static guint
column_of (GPtrArray  *models,
           const char *model)
{
  for (guint i = 0; i < models->len; i++)
    if (g_str_equal (g_ptr_array_index (models, i), model))
      return i;
  g_ptr_array_add (models, g_strdup (model));
  return models->len - 1;
}

/* Lays the cells out again: rows in the order their scenarios first
 * appear, columns in the order their models do. */
static void
rebuild (TbEvalMatrix *self)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = g_list_model_get_n_items (self->cells);
  gboolean models_changed;

  unwatch (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (self->cells, i);
      const char *path = tb_eval_cell_get_path (cell);
      const char *key = path != NULL ? path : tb_eval_cell_get_scenario (cell);
      guint column = column_of (models, tb_eval_cell_get_model (cell));
      TbEvalMatrixRow *row = g_hash_table_lookup (by_key, key);

      if (row == NULL)
        {
          row = _tb_eval_matrix_row_new (tb_eval_cell_get_scenario (cell), path);
          g_ptr_array_add (rows, row);
          /* The key is the row's own copy. */
          g_hash_table_insert (by_key,
                               (gpointer) (tb_eval_matrix_row_get_path (row) != NULL
                                           ? tb_eval_matrix_row_get_path (row)
                                           : tb_eval_matrix_row_get_scenario (row)), row);
        }
      /* A scenario twice in a model's column keeps its first run. */
      _tb_eval_matrix_row_set_cell (row, column, cell);

      g_ptr_array_add (self->watched, g_object_ref (cell));
      g_signal_connect_swapped (cell, "notify::status", G_CALLBACK (update_summaries), self);
    }
  g_ptr_array_add (models, NULL);

  models_changed = !g_strv_equal ((const char * const *) self->models,
                                  (const char * const *) models->pdata);
  if (models_changed)
    {
      g_strfreev (self->models);
      self->models = (GStrv) g_ptr_array_steal (models, NULL);
    }
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       rows->pdata, rows->len);
  update_summaries (self);
  if (models_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MODELS]);
}

static void
tb_eval_matrix_dispose (GObject *object)
{
  TbEvalMatrix *self = TB_EVAL_MATRIX (object);

  if (self->cells != NULL)
    g_signal_handlers_disconnect_by_data (self->cells, self);
  unwatch (self);
  g_clear_object (&self->cells);
  G_OBJECT_CLASS (tb_eval_matrix_parent_class)->dispose (object);
}

static void
tb_eval_matrix_finalize (GObject *object)
{
  TbEvalMatrix *self = TB_EVAL_MATRIX (object);

  g_strfreev (self->models);
  g_clear_object (&self->rows);
  g_clear_object (&self->summaries);
  g_ptr_array_unref (self->watched);
  G_OBJECT_CLASS (tb_eval_matrix_parent_class)->finalize (object);
}

static void
tb_eval_matrix_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TbEvalMatrix *self = TB_EVAL_MATRIX (object);

  switch (prop_id)
    {
    case PROP_MODELS:
      g_value_set_boxed (value, self->models);
      break;
    case PROP_N_DONE:
      g_value_set_uint (value, self->n_done);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_eval_matrix_class_init (TbEvalMatrixClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_eval_matrix_dispose;
  object_class->finalize = tb_eval_matrix_finalize;
  object_class->get_property = tb_eval_matrix_get_property;

  /* The models, one column each; notified when the columns change. */
  properties [PROP_MODELS] =
    g_param_spec_boxed ("models", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* How many cells have their outcome. */
  properties [PROP_N_DONE] =
    g_param_spec_uint ("n-done", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_eval_matrix_init (TbEvalMatrix *self)
{
  self->models = g_new0 (char *, 1);
  self->rows = g_list_store_new (TB_TYPE_EVAL_MATRIX_ROW);
  self->summaries = g_list_store_new (TB_TYPE_EVAL_MATRIX_SUMMARY);
  self->watched = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * tb_eval_matrix_new:
 * @cells: (element-type TbEvalCell): an evaluation's cells, as a
 *   #TbEvalSuite or tb_eval_report_load() gives them
 *
 * Returns: (transfer full): the matrix, following @cells
 */
TbEvalMatrix *
tb_eval_matrix_new (GListModel *cells)
{
  TbEvalMatrix *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (cells), NULL);
  g_return_val_if_fail (g_list_model_get_item_type (cells) == TB_TYPE_EVAL_CELL, NULL);

  self = g_object_new (TB_TYPE_EVAL_MATRIX, NULL);
  self->cells = g_object_ref (cells);
  g_signal_connect_swapped (cells, "items-changed", G_CALLBACK (rebuild), self);
  rebuild (self);
  return self;
}

/**
 * tb_eval_matrix_get_cells:
 * @self: a matrix
 *
 * Returns: (transfer none): the cells it follows
 */
GListModel *
tb_eval_matrix_get_cells (TbEvalMatrix *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX (self), NULL);
  return self->cells;
}

/**
 * tb_eval_matrix_get_rows:
 * @self: a matrix
 *
 * Returns: (transfer none): a #GListModel of #TbEvalMatrixRow, one per
 *   scenario
 */
GListModel *
tb_eval_matrix_get_rows (TbEvalMatrix *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX (self), NULL);
  return G_LIST_MODEL (self->rows);
}

/**
 * tb_eval_matrix_get_summaries:
 * @self: a matrix
 *
 * Returns: (transfer none): a #GListModel of #TbEvalMatrixSummary, one
 *   per model, in the order of the columns
 */
GListModel *
tb_eval_matrix_get_summaries (TbEvalMatrix *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX (self), NULL);
  return G_LIST_MODEL (self->summaries);
}

/**
 * tb_eval_matrix_get_models:
 * @self: a matrix
 *
 * Returns: (transfer none) (array zero-terminated=1): the models, in the
 *   order of the columns
 */
const char * const *
tb_eval_matrix_get_models (TbEvalMatrix *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX (self), NULL);
  return (const char * const *) self->models;
}

guint
tb_eval_matrix_get_n_done (TbEvalMatrix *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX (self), 0);
  return self->n_done;
}
