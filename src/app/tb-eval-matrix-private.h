/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the matrix's files share: making its rows and summary lines. */

#include "tb-eval-matrix.h"

G_BEGIN_DECLS

TbEvalMatrixRow *_tb_eval_matrix_row_new        (const char          *scenario,
                                                 const char          *path);
void             _tb_eval_matrix_row_set_cell   (TbEvalMatrixRow     *self,
                                                 guint                column,
                                                 TbEvalCell          *cell);
void             _tb_eval_matrix_summary_update (TbEvalMatrixSummary *self,
                                                 const TbEvalSummary *summary);

G_END_DECLS
