/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_LOOP_STATUS (tb_loop_status_get_type())

G_DECLARE_FINAL_TYPE (TbLoopStatus, tb_loop_status, TB, LOOP_STATUS, GtkWidget)

void        tb_loop_status_set_loop           (TbLoopStatus   *self,
                                               TbDispatchLoop *loop);
void        tb_loop_status_set_max_iterations (TbLoopStatus   *self,
                                               guint           max);
void        tb_loop_status_set_holding        (TbLoopStatus   *self,
                                               gboolean        holding);
void        tb_loop_status_set_error          (TbLoopStatus   *self,
                                               const char     *text);
const char *tb_loop_status_get_error          (TbLoopStatus   *self);
const char *tb_loop_status_get_state_text     (TbLoopStatus   *self);
const char *tb_loop_status_get_iteration_text (TbLoopStatus   *self);
GtkWidget  *tb_loop_status_get_review_button  (TbLoopStatus   *self);

G_END_DECLS
