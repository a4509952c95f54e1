/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-proposal-row.h"

G_BEGIN_DECLS

/* The most characters of the value the row's title shows. */
#define TB_PROPOSAL_ROW_MAX_VALUE 300

/* For the tests: what the widget shows, without going through the screen. */

TbFactProposal *tb_proposal_row_get_proposal (TbProposalRow  *self);

G_END_DECLS
