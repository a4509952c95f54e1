/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-argument-editor.h"
#include "tb-loop-page.h"

G_BEGIN_DECLS

/* What the window tests, the screenshots and the benchmark reach on the
 * Loop page: its controls and what they show, and the setup of a run
 * without going through the controls. */

void              tb_loop_page_set_provider           (TbLoopPage  *self,
                                                       TbProvider  *provider);
gboolean          tb_loop_page_set_script_file        (TbLoopPage  *self,
                                                       GFile       *file,
                                                       GError     **error);
void              tb_loop_page_reset                  (TbLoopPage  *self);
void              tb_loop_page_set_user_message       (TbLoopPage  *self,
                                                       const char  *text);
void              tb_loop_page_set_system_prompt      (TbLoopPage  *self,
                                                       const char  *text);
void              tb_loop_page_set_max_iterations     (TbLoopPage  *self,
                                                       guint        max);
void              tb_loop_page_set_breakpoints        (TbLoopPage  *self,
                                                       const char  *names);
void              tb_loop_page_set_tool_offered       (TbLoopPage  *self,
                                                       const char  *name,
                                                       gboolean     offered);
void              tb_loop_page_set_ask                (TbLoopPage  *self,
                                                       gboolean     ask);

const char       *tb_loop_page_get_state_text         (TbLoopPage  *self);
const char       *tb_loop_page_get_iteration_text     (TbLoopPage  *self);
const char       *tb_loop_page_get_error_text         (TbLoopPage  *self);
const char       *tb_loop_page_get_streaming_text     (TbLoopPage  *self);
gboolean          tb_loop_page_get_busy               (TbLoopPage  *self);
gboolean          tb_loop_page_get_key_pending        (TbLoopPage  *self);
char             *tb_loop_page_get_offered_tools_json (TbLoopPage  *self);

guint             tb_loop_page_get_n_rows             (TbLoopPage  *self);
char             *tb_loop_page_get_row_text           (TbLoopPage  *self,
                                                       guint        position);
char             *tb_loop_page_get_row_reasoning      (TbLoopPage  *self,
                                                      guint        position);
char             *tb_loop_page_get_row_json           (TbLoopPage  *self,
                                                       guint        position);

GtkWidget        *tb_loop_page_get_button             (TbLoopPage  *self,
                                                       const char  *name);
GtkDropDown      *tb_loop_page_get_provider_dropdown  (TbLoopPage  *self);
GtkEditable      *tb_loop_page_get_model_entry        (TbLoopPage  *self);
GtkEditable      *tb_loop_page_get_model_turn_entry   (TbLoopPage  *self);

guint             tb_loop_page_get_n_pending          (TbLoopPage  *self);
TbArgumentEditor *tb_loop_page_get_pending_editor     (TbLoopPage  *self,
                                                       guint        position);
GtkProgressBar   *tb_loop_page_get_pending_progress   (TbLoopPage  *self,
                                                       guint        position);
GtkWidget        *tb_loop_page_get_pending_button     (TbLoopPage  *self,
                                                       guint        position,
                                                       const char  *name);
GtkEditable      *tb_loop_page_get_pending_skip_entry (TbLoopPage  *self,
                                                       guint        position);

G_END_DECLS
