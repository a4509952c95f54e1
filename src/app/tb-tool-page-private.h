/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-tool-page.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

gboolean          tb_tool_page_get_gone            (TbToolPage     *self);
GtkWidget        *tb_tool_page_get_run_button      (TbToolPage     *self);
GtkWidget        *tb_tool_page_get_cancel_button   (TbToolPage     *self);
GtkLabel         *tb_tool_page_get_description     (TbToolPage     *self);
GtkToggleButton  *tb_tool_page_get_description_more (TbToolPage    *self);
GtkExpander      *tb_tool_page_get_schema_expander (TbToolPage     *self);
char             *tb_tool_page_dup_schema_text     (TbToolPage     *self);
GtkListBox       *tb_tool_page_get_recent_list     (TbToolPage     *self);
const char       *tb_tool_page_get_status_text     (TbToolPage     *self);
const char       *tb_tool_page_get_gone_text       (TbToolPage     *self);
GtkWidget        *tb_tool_page_get_hints_bar       (TbToolPage     *self);
GtkProgressBar   *tb_tool_page_get_progress_bar    (TbToolPage     *self);

G_END_DECLS
