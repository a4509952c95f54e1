/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-eval-matrix.h"

G_BEGIN_DECLS

#define TB_TYPE_EVAL_VIEW (tb_eval_view_get_type())

G_DECLARE_FINAL_TYPE (TbEvalView, tb_eval_view, TB, EVAL_VIEW, GtkWidget)

void          tb_eval_view_set_cells         (TbEvalView *self,
                                              GListModel *cells);
GListModel   *tb_eval_view_get_cells         (TbEvalView *self);
TbEvalMatrix *tb_eval_view_get_matrix        (TbEvalView *self);
gboolean      tb_eval_view_activate_cell     (TbEvalView *self,
                                              TbEvalCell *cell);
GtkWidget    *tb_eval_view_get_cell_widget   (TbEvalView *self,
                                              guint       row,
                                              guint       column);
const char   *tb_eval_view_get_column_title  (TbEvalView *self,
                                              guint       column);
gboolean      tb_eval_view_get_empty         (TbEvalView *self);
const char   *tb_eval_view_get_progress_text (TbEvalView *self);

G_END_DECLS
