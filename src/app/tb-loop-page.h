/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_LOOP_PAGE (tb_loop_page_get_type())

G_DECLARE_FINAL_TYPE (TbLoopPage, tb_loop_page, TB, LOOP_PAGE, GtkWidget)

GtkWidget      *tb_loop_page_new               (void);
void            tb_loop_page_set_registry      (TbLoopPage     *self,
                                                TbToolRegistry *registry);
void            tb_loop_page_set_workspace     (TbLoopPage     *self,
                                                TbWorkspace    *workspace);
void            tb_loop_page_set_autosave_file (TbLoopPage     *self,
                                                GFile          *file);
void            tb_loop_page_set_settings      (TbLoopPage     *self,
                                                GSettings      *settings);
TbDispatchLoop *tb_loop_page_get_loop          (TbLoopPage     *self);
TbProvider     *tb_loop_page_create_provider   (TbLoopPage     *self,
                                                GError        **error);
gboolean        tb_loop_page_set_start_messages (TbLoopPage    *self,
                                                 GPtrArray     *messages,
                                                 GError       **error);

G_END_DECLS
