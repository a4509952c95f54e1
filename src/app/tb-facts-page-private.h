/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read of the Facts page. */

#include "tb-facts-page.h"

G_BEGIN_DECLS

const char       *tb_facts_page_get_facts_text    (TbFactsPage    *self);
const char       *tb_facts_page_get_status_text   (TbFactsPage    *self);
guint             tb_facts_page_get_n_pending_rows (TbFactsPage   *self);
GtkWidget        *tb_facts_page_get_review_button (TbFactsPage    *self,
                                                   guint           position);
AdwMessageDialog *tb_facts_page_get_dialog        (TbFactsPage    *self);

gboolean          tb_facts_page_lock              (TbFactsPage    *self,
                                                   const char     *key);
gboolean          tb_facts_page_unlock            (TbFactsPage    *self,
                                                   const char     *key);

G_END_DECLS
