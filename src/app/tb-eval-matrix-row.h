/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_EVAL_MATRIX_ROW (tb_eval_matrix_row_get_type())

G_DECLARE_FINAL_TYPE (TbEvalMatrixRow, tb_eval_matrix_row, TB, EVAL_MATRIX_ROW, GObject)

const char         *tb_eval_matrix_row_get_scenario (TbEvalMatrixRow     *self);
const char         *tb_eval_matrix_row_get_path     (TbEvalMatrixRow     *self);
TbEvalCell         *tb_eval_matrix_row_get_cell     (TbEvalMatrixRow     *self,
                                                     guint                column);

G_END_DECLS
