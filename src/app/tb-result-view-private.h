/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-result-view.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

const char   *tb_result_view_get_status_text (TbResultView *self);
char         *tb_result_view_get_output_text (TbResultView *self);
const char   *tb_result_view_get_error_text  (TbResultView *self);
char         *tb_result_view_dup_full_text   (TbResultView *self);
gboolean      tb_result_view_get_truncated   (TbResultView *self);
gboolean      tb_result_view_get_output_highlighted (TbResultView *self);

G_END_DECLS
