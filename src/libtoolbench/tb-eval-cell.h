/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>

#include "tb-eval-result.h"

G_BEGIN_DECLS

/**
 * TbEvalCellStatus:
 * @TB_EVAL_CELL_WAITING: not started yet.
 * @TB_EVAL_CELL_RUNNING: running.
 * @TB_EVAL_CELL_PASSED: ran, and every expectation held.
 * @TB_EVAL_CELL_FAILED: ran, and an expectation did not hold.
 * @TB_EVAL_CELL_ERROR: could not run: a broken scenario file, tools that
 *   did not start, a provider that could not be made.
 * @TB_EVAL_CELL_NOT_RUN: the evaluation was stopped before it started.
 *
 * Where a #TbEvalCell stands (#TbEvalCell:status).
 */
typedef enum
{
  TB_EVAL_CELL_WAITING,
  TB_EVAL_CELL_RUNNING,
  TB_EVAL_CELL_PASSED,
  TB_EVAL_CELL_FAILED,
  TB_EVAL_CELL_ERROR,
  TB_EVAL_CELL_NOT_RUN,
} TbEvalCellStatus;

#define TB_TYPE_EVAL_CELL (tb_eval_cell_get_type ())

G_DECLARE_FINAL_TYPE (TbEvalCell, tb_eval_cell, TB, EVAL_CELL, GObject)

TbEvalCell       *tb_eval_cell_new              (const char       *model,
                                                 const char       *scenario,
                                                 const char       *path);
const char       *tb_eval_cell_get_model        (TbEvalCell       *self);
const char       *tb_eval_cell_get_scenario     (TbEvalCell       *self);
const char       *tb_eval_cell_get_path         (TbEvalCell       *self);
TbEvalCellStatus  tb_eval_cell_get_status       (TbEvalCell       *self);
const char       *tb_eval_cell_get_status_name  (TbEvalCell       *self);
TbEvalResult     *tb_eval_cell_get_result       (TbEvalCell       *self);
const char       *tb_eval_cell_get_error        (TbEvalCell       *self);
const char       *tb_eval_cell_get_message      (TbEvalCell       *self);
const char       *tb_eval_cell_get_trace_path   (TbEvalCell       *self);
void              tb_eval_cell_set_trace_path   (TbEvalCell       *self,
                                                 const char       *path);
void              tb_eval_cell_set_running      (TbEvalCell       *self);
void              tb_eval_cell_set_result       (TbEvalCell       *self,
                                                 TbEvalResult     *result);
void              tb_eval_cell_set_error        (TbEvalCell       *self,
                                                 const char       *message);
void              tb_eval_cell_set_not_run      (TbEvalCell       *self);

G_END_DECLS
