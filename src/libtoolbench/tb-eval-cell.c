/* SPDX-License-Identifier: GPL-3.0-or-later */

/* One scenario run against one model: a cell of the evaluation's
 * matrix, from waiting to its result. */

#define G_LOG_DOMAIN "tb-eval"

#include "config.h"

#include "tb-eval-cell.h"

struct _TbEvalCell
{
  GObject           parent_instance;

  char             *model;
  char             *scenario;
  char             *path;
  char             *trace_path;
  TbEvalCellStatus  status;
  TbEvalResult     *result;
  char             *error;
};

/**
 * TbEvalCell:
 *
 * One scenario run against one model: a cell of an evaluation's matrix,
 * from waiting to its result. #TbEvalCell:status is notified as the run
 * goes, so that a view of the matrix can follow it.
 */
G_DEFINE_FINAL_TYPE (TbEvalCell, tb_eval_cell, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATUS,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
tb_eval_cell_finalize (GObject *object)
{
  TbEvalCell *self = (TbEvalCell *)object;

  g_free (self->model);
  g_free (self->scenario);
  g_free (self->path);
  g_free (self->trace_path);
  g_clear_pointer (&self->result, tb_eval_result_unref);
  g_free (self->error);

  G_OBJECT_CLASS (tb_eval_cell_parent_class)->finalize (object);
}

static void
tb_eval_cell_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TbEvalCell *self = TB_EVAL_CELL (object);

  switch (prop_id)
    {
    case PROP_STATUS:
      g_value_set_uint (value, self->status);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_eval_cell_class_init (TbEvalCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_eval_cell_finalize;
  object_class->get_property = tb_eval_cell_get_property;

  /**
   * TbEvalCell:status:
   *
   * A #TbEvalCellStatus; notified as the run goes.
   */
  properties [PROP_STATUS] =
    g_param_spec_uint ("status", NULL, NULL, 0, TB_EVAL_CELL_NOT_RUN, TB_EVAL_CELL_WAITING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_eval_cell_init (TbEvalCell *self)
{
}

/**
 * tb_eval_cell_new:
 * @model: the model's name (`scripted` offline)
 * @scenario: the scenario's name, or its file's name when it cannot be read
 * @path: (nullable): the scenario's file
 *
 * Makes a cell of the matrix, waiting to run; #TbEvalSuite makes them.
 *
 * Returns: (transfer full): a waiting cell
 */
TbEvalCell *
tb_eval_cell_new (const char *model,
                  const char *scenario,
                  const char *path)
{
  TbEvalCell *self = g_object_new (TB_TYPE_EVAL_CELL, NULL);

  self->model = g_strdup (model);
  self->scenario = g_strdup (scenario);
  self->path = g_strdup (path);
  return self;
}

/**
 * tb_eval_cell_get_model:
 * @self: a cell
 *
 * Names the model of the cell's column.
 *
 * Returns: the model's name
 */
const char *
tb_eval_cell_get_model (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);
  return self->model;
}

/**
 * tb_eval_cell_get_scenario:
 * @self: a cell
 *
 * Names the cell's scenario.
 *
 * Returns: the scenario's name
 */
const char *
tb_eval_cell_get_scenario (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);
  return self->scenario;
}

/**
 * tb_eval_cell_get_path:
 * @self: a cell
 *
 * Gives the file the cell's scenario comes from.
 *
 * Returns: (nullable): the scenario's file
 */
const char *
tb_eval_cell_get_path (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);
  return self->path;
}

/**
 * tb_eval_cell_get_status:
 * @self: a cell
 *
 * Tells where the cell stands (#TbEvalCell:status).
 *
 * Returns: the cell's status
 */
TbEvalCellStatus
tb_eval_cell_get_status (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), TB_EVAL_CELL_WAITING);
  return self->status;
}

/**
 * tb_eval_cell_get_status_name:
 * @self: a cell
 *
 * Names the cell's status in the words reports use.
 *
 * Returns: `waiting`, `running`, `passed`, `failed`, `error` or `not-run`,
 *   as reports write it
 */
const char *
tb_eval_cell_get_status_name (TbEvalCell *self)
{
  static const char * const names[] = {
    "waiting", "running", "passed", "failed", "error", "not-run",
  };

  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);
  return names[self->status];
}

/**
 * tb_eval_cell_get_result:
 * @self: a cell
 *
 * Gives what the run came to: whether it passed, the failed expectations,
 * the counts and the trace.
 *
 * Returns: (transfer none) (nullable): the result, once the cell ran
 */
TbEvalResult *
tb_eval_cell_get_result (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);
  return self->result;
}

/**
 * tb_eval_cell_get_error:
 * @self: a cell
 *
 * Tells why the cell could not run, as a sentence naming the scenario.
 *
 * Returns: (nullable): why the cell could not run
 */
const char *
tb_eval_cell_get_error (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);
  return self->error;
}

/**
 * tb_eval_cell_get_message:
 * @self: a cell
 *
 * Gives the one sentence a report shows for the cell.
 *
 * Returns: (nullable): the sentence a report shows first: why it could
 *   not run, or the first expectation that did not hold
 */
const char *
tb_eval_cell_get_message (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);

  if (self->error != NULL)
    return self->error;
  if (self->result != NULL && self->result->failures->len > 0)
    return g_ptr_array_index (self->result->failures, 0);
  return NULL;
}

/**
 * tb_eval_cell_get_trace_path:
 * @self: a cell
 *
 * Gives the file the run's trace was saved in, when the evaluation saves
 * traces.
 *
 * Returns: (nullable): where the run's trace was saved
 */
const char *
tb_eval_cell_get_trace_path (TbEvalCell *self)
{
  g_return_val_if_fail (TB_IS_EVAL_CELL (self), NULL);
  return self->trace_path;
}

/**
 * tb_eval_cell_set_trace_path:
 * @self: a cell
 * @path: (nullable): the file the run's trace was saved in
 *
 * Records where the run's trace was saved.
 */
void
tb_eval_cell_set_trace_path (TbEvalCell *self,
                             const char *path)
{
  g_return_if_fail (TB_IS_EVAL_CELL (self));

  g_free (self->trace_path);
  self->trace_path = g_strdup (path);
}

static void
set_status (TbEvalCell       *self,
            TbEvalCellStatus  status)
{
  if (self->status == status)
    return;
  self->status = status;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATUS]);
}

/**
 * tb_eval_cell_set_running:
 * @self: a cell
 *
 * Marks the cell as running.
 */
void
tb_eval_cell_set_running (TbEvalCell *self)
{
  g_return_if_fail (TB_IS_EVAL_CELL (self));
  set_status (self, TB_EVAL_CELL_RUNNING);
}

/**
 * tb_eval_cell_set_result:
 * @self: a cell
 * @result: what the run came to
 *
 * Gives the cell its result; it passes or fails with it.
 */
void
tb_eval_cell_set_result (TbEvalCell   *self,
                         TbEvalResult *result)
{
  g_return_if_fail (TB_IS_EVAL_CELL (self));
  g_return_if_fail (result != NULL);

  g_clear_pointer (&self->result, tb_eval_result_unref);
  self->result = tb_eval_result_ref (result);
  set_status (self, result->passed ? TB_EVAL_CELL_PASSED : TB_EVAL_CELL_FAILED);
}

/**
 * tb_eval_cell_set_error:
 * @self: a cell
 * @message: why the cell could not run, a sentence
 *
 * Marks the cell as unable to run (%TB_EVAL_CELL_ERROR), as the suite does.
 */
void
tb_eval_cell_set_error (TbEvalCell *self,
                        const char *message)
{
  g_return_if_fail (TB_IS_EVAL_CELL (self));

  g_free (self->error);
  self->error = g_strdup (message);
  set_status (self, TB_EVAL_CELL_ERROR);
}

/**
 * tb_eval_cell_set_not_run:
 * @self: a cell
 *
 * Marks the cell as never run, because the evaluation was stopped first.
 */
void
tb_eval_cell_set_not_run (TbEvalCell *self)
{
  g_return_if_fail (TB_IS_EVAL_CELL (self));
  set_status (self, TB_EVAL_CELL_NOT_RUN);
}
