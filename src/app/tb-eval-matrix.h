/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

#include "tb-eval-matrix-row.h"
#include "tb-eval-matrix-summary.h"

G_BEGIN_DECLS

#define TB_TYPE_EVAL_MATRIX (tb_eval_matrix_get_type())

G_DECLARE_FINAL_TYPE (TbEvalMatrix, tb_eval_matrix, TB, EVAL_MATRIX, GObject)

TbEvalMatrix       *tb_eval_matrix_new              (GListModel          *cells);
GListModel         *tb_eval_matrix_get_cells        (TbEvalMatrix        *self);
GListModel         *tb_eval_matrix_get_rows         (TbEvalMatrix        *self);
GListModel         *tb_eval_matrix_get_summaries    (TbEvalMatrix        *self);
const char * const *tb_eval_matrix_get_models       (TbEvalMatrix        *self);
guint               tb_eval_matrix_get_n_done       (TbEvalMatrix        *self);

gboolean            tb_eval_matrix_cell_has_trace   (TbEvalCell          *cell);
gboolean            tb_eval_matrix_cell_is_done     (TbEvalCell          *cell);

G_END_DECLS
