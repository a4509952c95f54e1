/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-eval-matrix"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-eval-matrix-private.h"

/* One scenario of an evaluation's matrix: its run with each model. */

struct _TbEvalMatrixRow
{
  GObject    parent_instance;

  char      *scenario;
  char      *path;
  GPtrArray *cells;   /* TbEvalCell or NULL, by model column */
};

G_DEFINE_FINAL_TYPE (TbEvalMatrixRow, tb_eval_matrix_row, G_TYPE_OBJECT)

enum { ROW_PROP_0, ROW_PROP_SCENARIO, ROW_PROP_PATH, ROW_N_PROPS };

static GParamSpec *row_properties [ROW_N_PROPS];

static void
clear_cell (gpointer data)
{
  if (data != NULL)
    g_object_unref (data);
}

static void
tb_eval_matrix_row_finalize (GObject *object)
{
  TbEvalMatrixRow *self = TB_EVAL_MATRIX_ROW (object);

  g_free (self->scenario);
  g_free (self->path);
  g_ptr_array_unref (self->cells);
  G_OBJECT_CLASS (tb_eval_matrix_row_parent_class)->finalize (object);
}

static void
tb_eval_matrix_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TbEvalMatrixRow *self = TB_EVAL_MATRIX_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_SCENARIO:
      g_value_set_string (value, self->scenario);
      break;
    case ROW_PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_eval_matrix_row_class_init (TbEvalMatrixRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_eval_matrix_row_finalize;
  object_class->get_property = tb_eval_matrix_row_get_property;

  row_properties [ROW_PROP_SCENARIO] =
    g_param_spec_string ("scenario", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  row_properties [ROW_PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_properties);
}

static void
tb_eval_matrix_row_init (TbEvalMatrixRow *self)
{
  self->cells = g_ptr_array_new_with_free_func (clear_cell);
}

const char *
tb_eval_matrix_row_get_scenario (TbEvalMatrixRow *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX_ROW (self), NULL);
  return self->scenario;
}

/**
 * tb_eval_matrix_row_get_path:
 * @self: a row
 *
 * Returns: (nullable): the scenario's file, when the cells name it
 */
const char *
tb_eval_matrix_row_get_path (TbEvalMatrixRow *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX_ROW (self), NULL);
  return self->path;
}

/**
 * tb_eval_matrix_row_get_cell:
 * @self: a row
 * @column: a model's column
 *
 * Returns: (transfer none) (nullable): the scenario's run with that
 *   model; %NULL when the evaluation has none
 */
TbEvalCell *
tb_eval_matrix_row_get_cell (TbEvalMatrixRow *self,
                             guint            column)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX_ROW (self), NULL);
  return column < self->cells->len ? g_ptr_array_index (self->cells, column) : NULL;
}

TbEvalMatrixRow *
_tb_eval_matrix_row_new (const char *scenario,
                         const char *path)
{
  TbEvalMatrixRow *self = g_object_new (TB_TYPE_EVAL_MATRIX_ROW, NULL);

  self->scenario = g_strdup (scenario);
  self->path = g_strdup (path);
  return self;
}

/* A cell already in @column stays: a scenario twice in a model's column
 * keeps its first run. */
void
_tb_eval_matrix_row_set_cell (TbEvalMatrixRow *self,
                              guint            column,
                              TbEvalCell      *cell)
{
  if (self->cells->len <= column)
    g_ptr_array_set_size (self->cells, column + 1);
  if (g_ptr_array_index (self->cells, column) == NULL)
    g_ptr_array_index (self->cells, column) = g_object_ref (cell);
}
