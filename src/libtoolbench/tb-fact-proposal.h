/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * TbProposalStatus:
 * @TB_PROPOSAL_STATUS_PENDING: waits for a person.
 * @TB_PROPOSAL_STATUS_COMMITTED: a person confirmed it; the fact holds its value.
 * @TB_PROPOSAL_STATUS_REJECTED: a person rejected it.
 * @TB_PROPOSAL_STATUS_SUPERSEDED: the fact changed after it was made; it can
 *   only be proposed again.
 *
 * Where a #TbFactProposal stands (#TbFactProposal:status).
 */
typedef enum
{
  TB_PROPOSAL_STATUS_PENDING,
  TB_PROPOSAL_STATUS_COMMITTED,
  TB_PROPOSAL_STATUS_REJECTED,
  TB_PROPOSAL_STATUS_SUPERSEDED,
} TbProposalStatus;

#define TB_TYPE_PROPOSAL_STATUS (tb_proposal_status_get_type ())
GType tb_proposal_status_get_type (void);

#define TB_TYPE_FACT_PROPOSAL (tb_fact_proposal_get_type ())

G_DECLARE_FINAL_TYPE (TbFactProposal, tb_fact_proposal, TB, FACT_PROPOSAL, GObject)

const char       *tb_fact_proposal_get_id             (TbFactProposal   *self);
const char       *tb_fact_proposal_get_key            (TbFactProposal   *self);
const char       *tb_fact_proposal_get_pointer        (TbFactProposal   *self);
JsonNode         *tb_fact_proposal_get_value          (TbFactProposal   *self);
gboolean          tb_fact_proposal_has_previous       (TbFactProposal   *self);
JsonNode         *tb_fact_proposal_get_previous       (TbFactProposal   *self);
const char       *tb_fact_proposal_get_reason         (TbFactProposal   *self);
const char       *tb_fact_proposal_get_origin_call_id (TbFactProposal   *self);
TbProposalStatus  tb_fact_proposal_get_status         (TbFactProposal   *self);
gint64            tb_fact_proposal_get_created        (TbFactProposal   *self);
gint64            tb_fact_proposal_get_resolved       (TbFactProposal   *self);
const char       *tb_fact_proposal_get_resolved_by    (TbFactProposal   *self);
JsonNode         *tb_fact_proposal_to_json            (TbFactProposal   *self);
const char       *tb_proposal_status_to_string        (TbProposalStatus  status);
gboolean          tb_proposal_status_from_string      (const char       *text,
                                                       TbProposalStatus *status);

G_END_DECLS
