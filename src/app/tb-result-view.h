/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

/**
 * TB_RESULT_VIEW_MAX_SHOWN:
 *
 * How many bytes of output the view shows; the whole output can be saved.
 */
#define TB_RESULT_VIEW_MAX_SHOWN (256 * 1024)

#define TB_TYPE_RESULT_VIEW (tb_result_view_get_type())

G_DECLARE_FINAL_TYPE (TbResultView, tb_result_view, TB, RESULT_VIEW, GtkWidget)

GtkWidget    *tb_result_view_new             (void);
void          tb_result_view_set_result      (TbResultView *self,
                                              TbToolResult *result);
TbToolResult *tb_result_view_get_result      (TbResultView *self);
void          tb_result_view_copy            (TbResultView *self);
void          tb_result_view_save            (TbResultView *self);

G_END_DECLS
