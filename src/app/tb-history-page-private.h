/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read of the History page. */

#include "tb-history-page.h"

G_BEGIN_DECLS

GtkListBox     *tb_history_page_get_list     (TbHistoryPage  *self);

G_END_DECLS
