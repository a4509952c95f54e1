/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_EVAL_MATRIX_SUMMARY (tb_eval_matrix_summary_get_type())

G_DECLARE_FINAL_TYPE (TbEvalMatrixSummary, tb_eval_matrix_summary, TB, EVAL_MATRIX_SUMMARY,
                      GObject)

const char         *tb_eval_matrix_summary_get_model (TbEvalMatrixSummary *self);

G_END_DECLS
