/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read of an evaluation's view. */

#include "tb-eval-view.h"

G_BEGIN_DECLS

GListModel   *tb_eval_view_get_cells         (TbEvalView *self);
TbEvalMatrix *tb_eval_view_get_matrix        (TbEvalView *self);
GtkWidget    *tb_eval_view_get_cell_widget   (TbEvalView *self,
                                              guint       row,
                                              guint       column);
const char   *tb_eval_view_get_column_title  (TbEvalView *self,
                                              guint       column);
gboolean      tb_eval_view_get_empty         (TbEvalView *self);
const char   *tb_eval_view_get_progress_text (TbEvalView *self);

gboolean      tb_eval_view_activate_cell     (TbEvalView *self,
                                              TbEvalCell *cell);

G_END_DECLS
