/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_FACTS_PAGE (tb_facts_page_get_type())

G_DECLARE_FINAL_TYPE (TbFactsPage, tb_facts_page, TB, FACTS_PAGE, GtkWidget)

GtkWidget        *tb_facts_page_new               (void);
void              tb_facts_page_set_workspace     (TbFactsPage    *self,
                                                   TbWorkspace    *workspace);
TbWorkspace      *tb_facts_page_get_workspace     (TbFactsPage    *self);
AdwMessageDialog *tb_facts_page_review            (TbFactsPage    *self,
                                                   TbFactProposal *proposal);

G_END_DECLS
