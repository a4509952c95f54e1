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


/* Fact keys (a member name or a JSON Pointer), the values they may hold,
 * and the tree of facts or draft they name (tb-workspace-key.c). */

#define TB_WORKSPACE_MAX_KEY_PARTS (TB_WORKSPACE_MAX_DEPTH / 2)

/* A key or value as an error message quotes it. */
#define TB_WORKSPACE_SHOWN_CHARS 78

typedef struct
{
  GPtrArray *tokens;
  char      *pointer;
  char      *display;
} Key;

void       _tb_workspace_key_clear (Key *key);
gboolean   _tb_workspace_key_parse (const char *text,
                                    Key *key,
                                    GError **error);
gboolean   _tb_workspace_pointers_overlap (const char *a,
                                           const char *b);
gboolean   _tb_workspace_check_value (JsonNode *value,
                                      const Key *key,
                                      GError **error);
JsonNode  *_tb_workspace_tree_lookup (JsonNode *root,
                                      const Key *key);
gboolean   _tb_workspace_tree_check_place (JsonNode *root,
                                           const Key *key,
                                           GError **error);
gboolean   _tb_workspace_tree_set (JsonNode *root,
                                   const Key *key,
                                   JsonNode *value,
                                   GError **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Key, _tb_workspace_key_clear)

G_END_DECLS
