/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-window.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

TbToolPage    *tb_window_get_tool_page       (TbWindow       *self);
TbHistoryPage *tb_window_get_history_page    (TbWindow       *self);
GtkEditable   *tb_window_get_search_entry    (TbWindow       *self);
GListModel    *tb_window_get_tool_model      (TbWindow       *self);
GtkListView   *tb_window_get_tool_list       (TbWindow       *self);
GtkDropDown   *tb_window_get_source_dropdown (TbWindow       *self);
const char    *tb_window_get_count_text      (TbWindow       *self);
gboolean       tb_window_select_tool         (TbWindow       *self,
                                              const char     *name);
TbFactsPage   *tb_window_get_facts_page      (TbWindow       *self);

G_END_DECLS
