/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read of a run's cell. */

#include "tb-eval-cell-view.h"

G_BEGIN_DECLS

const char *tb_eval_cell_view_get_status_text (TbEvalCellView *self);
const char *tb_eval_cell_view_get_detail_text (TbEvalCellView *self);

G_END_DECLS
