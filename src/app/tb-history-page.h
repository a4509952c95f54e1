/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

#include "tb-history.h"

G_BEGIN_DECLS

#define TB_TYPE_HISTORY_PAGE (tb_history_page_get_type())

G_DECLARE_FINAL_TYPE (TbHistoryPage, tb_history_page, TB, HISTORY_PAGE, GtkWidget)

void            tb_history_page_set_history  (TbHistoryPage  *self,
                                              TbHistory      *history);
void            tb_history_page_select       (TbHistoryPage  *self,
                                              TbHistoryEntry *entry);
TbHistoryEntry *tb_history_page_get_selected (TbHistoryPage  *self);

G_END_DECLS
