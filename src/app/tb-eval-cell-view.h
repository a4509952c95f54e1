/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_EVAL_CELL_VIEW (tb_eval_cell_view_get_type())

G_DECLARE_FINAL_TYPE (TbEvalCellView, tb_eval_cell_view, TB, EVAL_CELL_VIEW, GtkButton)

TbEvalCell *tb_eval_cell_view_get_cell        (TbEvalCellView *self);
void        tb_eval_cell_view_set_cell        (TbEvalCellView *self,
                                               TbEvalCell     *cell);

G_END_DECLS
