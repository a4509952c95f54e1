/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_EVAL_MATRIX_ROW (tb_eval_matrix_row_get_type())

G_DECLARE_FINAL_TYPE (TbEvalMatrixRow, tb_eval_matrix_row, TB, EVAL_MATRIX_ROW, GObject)

#define TB_TYPE_EVAL_MATRIX_SUMMARY (tb_eval_matrix_summary_get_type())

G_DECLARE_FINAL_TYPE (TbEvalMatrixSummary, tb_eval_matrix_summary, TB, EVAL_MATRIX_SUMMARY,
                      GObject)

#define TB_TYPE_EVAL_MATRIX (tb_eval_matrix_get_type())

G_DECLARE_FINAL_TYPE (TbEvalMatrix, tb_eval_matrix, TB, EVAL_MATRIX, GObject)

const char         *tb_eval_matrix_row_get_scenario (TbEvalMatrixRow     *self);
const char         *tb_eval_matrix_row_get_path     (TbEvalMatrixRow     *self);
TbEvalCell         *tb_eval_matrix_row_get_cell     (TbEvalMatrixRow     *self,
                                                     guint                column);

const char         *tb_eval_matrix_summary_get_model (TbEvalMatrixSummary *self);

TbEvalMatrix       *tb_eval_matrix_new              (GListModel          *cells);
GListModel         *tb_eval_matrix_get_cells        (TbEvalMatrix        *self);
GListModel         *tb_eval_matrix_get_rows         (TbEvalMatrix        *self);
GListModel         *tb_eval_matrix_get_summaries    (TbEvalMatrix        *self);
const char * const *tb_eval_matrix_get_models       (TbEvalMatrix        *self);
guint               tb_eval_matrix_get_n_done       (TbEvalMatrix        *self);

gboolean            tb_eval_matrix_cell_has_trace   (TbEvalCell          *cell);
gboolean            tb_eval_matrix_cell_is_done     (TbEvalCell          *cell);

G_END_DECLS
