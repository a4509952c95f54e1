/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-argument-editor.h"

G_BEGIN_DECLS

#define TB_TYPE_LOOP_PAGE (tb_loop_page_get_type())

G_DECLARE_FINAL_TYPE (TbLoopPage, tb_loop_page, TB, LOOP_PAGE, GtkWidget)

GtkWidget        *tb_loop_page_new                 (void);
void              tb_loop_page_set_registry        (TbLoopPage     *self,
                                                    TbToolRegistry *registry);
void              tb_loop_page_set_workspace       (TbLoopPage     *self,
                                                    TbWorkspace    *workspace);
void              tb_loop_page_set_autosave_file   (TbLoopPage     *self,
                                                    GFile          *file);
void              tb_loop_page_set_provider        (TbLoopPage     *self,
                                                    TbProvider     *provider);
TbDispatchLoop   *tb_loop_page_get_loop            (TbLoopPage     *self);
void              tb_loop_page_reset               (TbLoopPage     *self);
void              tb_loop_page_set_user_message    (TbLoopPage     *self,
                                                    const char     *text);
void              tb_loop_page_set_system_prompt   (TbLoopPage     *self,
                                                    const char     *text);
void              tb_loop_page_set_max_iterations  (TbLoopPage     *self,
                                                    guint           max);
void              tb_loop_page_set_breakpoints     (TbLoopPage     *self,
                                                    const char     *names);
const char       *tb_loop_page_get_state_text      (TbLoopPage     *self);
const char       *tb_loop_page_get_iteration_text  (TbLoopPage     *self);
const char       *tb_loop_page_get_error_text      (TbLoopPage     *self);
gboolean          tb_loop_page_get_busy            (TbLoopPage     *self);
guint             tb_loop_page_get_n_rows          (TbLoopPage     *self);
char             *tb_loop_page_get_row_text        (TbLoopPage     *self,
                                                    guint           position);
char             *tb_loop_page_get_row_json        (TbLoopPage     *self,
                                                    guint           position);
GtkWidget        *tb_loop_page_get_button          (TbLoopPage     *self,
                                                    const char     *name);
guint             tb_loop_page_get_n_pending       (TbLoopPage     *self);
TbArgumentEditor *tb_loop_page_get_pending_editor  (TbLoopPage     *self,
                                                    guint           position);
GtkProgressBar   *tb_loop_page_get_pending_progress (TbLoopPage    *self,
                                                    guint          position);
GtkWidget        *tb_loop_page_get_pending_button  (TbLoopPage     *self,
                                                    guint           position,
                                                    const char     *name);
GtkEditable      *tb_loop_page_get_pending_skip_entry (TbLoopPage  *self,
                                                       guint        position);
GtkEditable      *tb_loop_page_get_model_turn_entry (TbLoopPage    *self);
char             *tb_loop_page_get_offered_tools_json (TbLoopPage  *self);

void              tb_loop_page_set_tool_offered    (TbLoopPage     *self,
                                                    const char     *name,
                                                    gboolean        offered);
void              tb_loop_page_set_ask             (TbLoopPage     *self,
                                                    gboolean        ask);

gboolean          tb_loop_page_set_script_file     (TbLoopPage     *self,
                                                    GFile          *file,
                                                    GError        **error);
const char       *tb_loop_page_get_streaming_text  (TbLoopPage     *self);
void              tb_loop_page_set_settings        (TbLoopPage     *self,
                                                    GSettings      *settings);
GtkDropDown      *tb_loop_page_get_provider_dropdown (TbLoopPage   *self);
GtkEditable      *tb_loop_page_get_model_entry     (TbLoopPage     *self);
gboolean          tb_loop_page_get_key_pending     (TbLoopPage     *self);
TbProvider       *tb_loop_page_create_provider     (TbLoopPage     *self,
                                                    GError        **error);

G_END_DECLS
