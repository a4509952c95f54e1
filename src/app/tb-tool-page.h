/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-argument-editor.h"
#include "tb-history.h"
#include "tb-result-view.h"

G_BEGIN_DECLS

#define TB_TYPE_TOOL_PAGE (tb_tool_page_get_type())

G_DECLARE_FINAL_TYPE (TbToolPage, tb_tool_page, TB, TOOL_PAGE, GtkWidget)

GtkWidget        *tb_tool_page_new                 (TbToolRegistry *registry,
                                                    TbHistory      *history,
                                                    GSettings      *settings);
void              tb_tool_page_setup               (TbToolPage     *self,
                                                    TbToolRegistry *registry,
                                                    TbHistory      *history,
                                                    GSettings      *settings);
void              tb_tool_page_set_tool            (TbToolPage     *self,
                                                    TbTool         *tool);
TbTool           *tb_tool_page_get_tool            (TbToolPage     *self);
gboolean          tb_tool_page_get_running         (TbToolPage     *self);
gboolean          tb_tool_page_get_can_run         (TbToolPage     *self);
gboolean          tb_tool_page_get_can_run_anyway  (TbToolPage     *self);
void              tb_tool_page_run                 (TbToolPage     *self);
void              tb_tool_page_run_anyway          (TbToolPage     *self);
void              tb_tool_page_cancel              (TbToolPage     *self);
void              tb_tool_page_show_entry          (TbToolPage     *self,
                                                    TbHistoryEntry *entry);
TbArgumentEditor *tb_tool_page_get_argument_editor (TbToolPage     *self);
TbResultView     *tb_tool_page_get_result_view     (TbToolPage     *self);

G_END_DECLS
