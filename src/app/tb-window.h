/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-history.h"
#include "tb-facts-page.h"
#include "tb-history-page.h"
#include "tb-loop-page.h"
#include "tb-tool-page.h"
#include "tb-trace-page.h"

G_BEGIN_DECLS

#define TB_TYPE_WINDOW (tb_window_get_type())

G_DECLARE_FINAL_TYPE (TbWindow, tb_window, TB, WINDOW, AdwApplicationWindow)

TbWindow      *tb_window_new                 (GtkApplication *app,
                                              TbToolRegistry *registry,
                                              TbHistory      *history);
void           tb_window_set_page            (TbWindow       *self,
                                              const char     *name);
TbLoopPage    *tb_window_get_loop_page       (TbWindow       *self);
void           tb_window_set_workspace       (TbWindow       *self,
                                              TbWorkspace    *workspace);
void           tb_window_restore_last_tool   (TbWindow       *self);
TbTracePage   *tb_window_get_trace_page      (TbWindow       *self);
void           tb_window_set_remember_recent_traces (TbWindow *self,
                                                     gboolean  remember);
void           tb_window_add_toast           (TbWindow       *self,
                                              const char     *text);
gboolean       tb_window_start_loop          (TbWindow       *self,
                                              GPtrArray      *messages,
                                              GError        **error);

AdwViewStack     *tb_window_get_view_stack      (TbWindow       *self);

G_END_DECLS
