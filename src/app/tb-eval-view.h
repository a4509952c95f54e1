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

G_END_DECLS
