/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>

#include "tb-fact-proposal.h"

G_BEGIN_DECLS

typedef struct _TbWorkspace TbWorkspace;

#define TB_TYPE_CONFIRMATION (tb_confirmation_get_type ())

G_DECLARE_FINAL_TYPE (TbConfirmation, tb_confirmation, TB, CONFIRMATION, GObject)

TbConfirmation *tb_confirmation_new                 (TbWorkspace     *workspace,
                                                     TbFactProposal  *proposal,
                                                     const char      *confirmed_by,
                                                     GError         **error);
const char     *tb_confirmation_get_proposal_id     (TbConfirmation  *self);
const char     *tb_confirmation_get_confirmed_by    (TbConfirmation  *self);
gint64          tb_confirmation_get_created         (TbConfirmation  *self);
const char     *tb_confirmation_get_token           (TbConfirmation  *self);
gboolean        tb_confirmation_get_used            (TbConfirmation  *self);

G_END_DECLS
