/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-confirmation.h"
#include "tb-fact-proposal.h"
#include "tb-tool-registry.h"
#include "tb-workspace-store.h"
#include "tb-workspace-file-store.h"

G_BEGIN_DECLS

/**
 * TB_WORKSPACE_MAX_KEY_LENGTH:
 *
 * The longest key or JSON Pointer, in bytes.
 */
#define TB_WORKSPACE_MAX_KEY_LENGTH 1024

/**
 * TB_WORKSPACE_MAX_VALUE_SIZE:
 *
 * The largest fact, draft value or proposed value, as compact JSON, in
 * bytes (1 MiB). A value must be smaller than this.
 */
#define TB_WORKSPACE_MAX_VALUE_SIZE (1024 * 1024)

/**
 * TB_WORKSPACE_MAX_DEPTH:
 *
 * How deep a value may sit: the parts of its key plus the nesting of the
 * value itself.
 */
#define TB_WORKSPACE_MAX_DEPTH 64

/**
 * TB_WORKSPACE_MAX_PENDING:
 *
 * The most proposals that may wait for a person at once.
 */
#define TB_WORKSPACE_MAX_PENDING 10000

/**
 * TB_WORKSPACE_MAX_REASON_LENGTH:
 *
 * The longest reason given with a proposal, in bytes.
 */
#define TB_WORKSPACE_MAX_REASON_LENGTH 4096

#define TB_TYPE_WORKSPACE (tb_workspace_get_type ())

G_DECLARE_FINAL_TYPE (TbWorkspace, tb_workspace, TB, WORKSPACE, GObject)

TbWorkspace      *tb_workspace_new                (void);
TbWorkspace      *tb_workspace_new_for_store      (TbWorkspaceStore  *store,
                                                   GCancellable      *cancellable,
                                                   GError           **error);
TbWorkspace      *tb_workspace_new_for_path       (const char        *path,
                                                   GError           **error);
TbWorkspaceStore *tb_workspace_get_store          (TbWorkspace       *self);
gboolean          tb_workspace_save               (TbWorkspace       *self,
                                                   GError           **error);
gboolean          tb_workspace_reload             (TbWorkspace       *self,
                                                   GError           **error);
void              tb_workspace_freeze_saves       (TbWorkspace       *self);
gboolean          tb_workspace_thaw_saves         (TbWorkspace       *self,
                                                   GError           **error);
JsonNode         *tb_workspace_to_json            (TbWorkspace       *self);

gboolean          tb_workspace_check_key          (const char        *key,
                                                   char             **pointer,
                                                   GError           **error);

JsonNode         *tb_workspace_get_facts          (TbWorkspace       *self);
JsonNode         *tb_workspace_dup_fact           (TbWorkspace       *self,
                                                   const char        *key,
                                                   GError           **error);
JsonNode         *tb_workspace_get_draft          (TbWorkspace       *self);
JsonNode         *tb_workspace_dup_draft_value    (TbWorkspace       *self,
                                                   const char        *key,
                                                   GError           **error);
gboolean          tb_workspace_set_draft_value    (TbWorkspace       *self,
                                                   const char        *key,
                                                   JsonNode          *value,
                                                   GError           **error);

char            **tb_workspace_get_locks          (TbWorkspace       *self);
gboolean          tb_workspace_is_locked          (TbWorkspace       *self,
                                                   const char        *key);
gboolean          tb_workspace_lock               (TbWorkspace       *self,
                                                   const char        *key,
                                                   GError           **error);
gboolean          tb_workspace_unlock             (TbWorkspace       *self,
                                                   const char        *key,
                                                   GError           **error);

GListModel       *tb_workspace_get_proposals      (TbWorkspace       *self);
guint             tb_workspace_get_n_pending      (TbWorkspace       *self);
TbFactProposal   *tb_workspace_lookup_proposal    (TbWorkspace       *self,
                                                   const char        *id);
TbFactProposal   *tb_workspace_propose            (TbWorkspace       *self,
                                                   const char        *key,
                                                   JsonNode          *value,
                                                   const char        *reason,
                                                   const char        *origin_call_id,
                                                   GError           **error);
TbFactProposal   *tb_workspace_repropose          (TbWorkspace       *self,
                                                   TbFactProposal    *proposal,
                                                   GError           **error);
gboolean          tb_workspace_reject             (TbWorkspace       *self,
                                                   TbFactProposal    *proposal,
                                                   const char        *rejected_by,
                                                   GError           **error);
gboolean          tb_workspace_commit             (TbWorkspace       *self,
                                                   TbFactProposal    *proposal,
                                                   TbConfirmation    *confirmation,
                                                   GError           **error);

gboolean          tb_workspace_register_tools     (TbWorkspace       *self,
                                                   TbToolRegistry    *registry,
                                                   GError           **error);

G_END_DECLS
