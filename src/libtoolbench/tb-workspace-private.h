/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-confirmation.h"
#include "tb-fact-proposal.h"
#include "tb-workspace.h"

G_BEGIN_DECLS

TbFactProposal *_tb_fact_proposal_new            (const char        *id,
                                                  const char        *key,
                                                  const char        *pointer,
                                                  JsonNode          *value,
                                                  JsonNode          *previous,
                                                  const char        *reason,
                                                  const char        *origin_call_id,
                                                  gint64             created);
void            _tb_fact_proposal_set_resolution (TbFactProposal    *self,
                                                  TbProposalStatus   status,
                                                  gint64             resolved,
                                                  const char        *resolved_by);
void            _tb_fact_proposal_set_pointer    (TbFactProposal    *self,
                                                  const char        *pointer);
void            _tb_fact_proposal_notify_status  (TbFactProposal    *self);
TbFactProposal *_tb_fact_proposal_from_json      (JsonNode          *node,
                                                  GError           **error);

TbConfirmation *_tb_confirmation_new             (const char        *proposal_id,
                                                  const char        *confirmed_by);
void            _tb_confirmation_mark_used       (TbConfirmation    *self);

gboolean        _tb_workspace_issue_confirmation (TbWorkspace       *self,
                                                  TbFactProposal    *proposal,
                                                  TbConfirmation    *confirmation,
                                                  GError           **error);
TbConfirmation *_tb_workspace_lookup_confirmation (TbWorkspace      *self,
                                                   const char       *token);

void            _tb_workspace_set_pause_runs     (TbWorkspace       *self,
                                                  gboolean           pause);
gboolean        _tb_workspace_get_pause_runs     (TbWorkspace       *self);


G_END_DECLS
