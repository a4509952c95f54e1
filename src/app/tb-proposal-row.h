/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_PROPOSAL_ROW (tb_proposal_row_get_type())

G_DECLARE_FINAL_TYPE (TbProposalRow, tb_proposal_row, TB, PROPOSAL_ROW, AdwActionRow)

GtkWidget      *tb_proposal_row_new          (TbFactProposal *proposal);

G_END_DECLS
