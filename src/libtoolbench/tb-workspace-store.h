/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * TB_WORKSPACE_FORMAT_VERSION:
 *
 * The version of the workspace document this build reads and writes
 * (see docs/workspace-format.md).
 */
#define TB_WORKSPACE_FORMAT_VERSION 1

#define TB_WORKSPACE_ERROR (tb_workspace_error_quark ())

/**
 * TbWorkspaceError:
 * @TB_WORKSPACE_ERROR_DAMAGED: the stored workspace cannot be read (not JSON,
 *   not a workspace, fields of the wrong type); it is left untouched and the
 *   store refuses to write over it.
 * @TB_WORKSPACE_ERROR_VERSION: the stored workspace has a version this build
 *   does not read.
 * @TB_WORKSPACE_ERROR_IO: reading or writing the store failed.
 * @TB_WORKSPACE_ERROR_CONFLICT: the stored workspace changed since it was
 *   read, or exists but was never read; saving would lose those changes.
 * @TB_WORKSPACE_ERROR_INVALID_KEY: a key or JSON Pointer is empty, malformed,
 *   too long, or does not lead to a place a value can be.
 * @TB_WORKSPACE_ERROR_INVALID_VALUE: a value is too large, too deep, or not
 *   representable as JSON.
 * @TB_WORKSPACE_ERROR_LOCKED: the key (or a key around or inside it) is locked.
 * @TB_WORKSPACE_ERROR_NOT_FOUND: no proposal, fact or draft entry of that name.
 * @TB_WORKSPACE_ERROR_NOT_PENDING: the proposal was already resolved.
 * @TB_WORKSPACE_ERROR_SUPERSEDED: the fact changed since the proposal was
 *   made; it must be proposed again.
 * @TB_WORKSPACE_ERROR_CONFIRMATION: the confirmation was not issued by the
 *   confirmation path of this workspace, was already used, or names another
 *   proposal.
 * @TB_WORKSPACE_ERROR_TOO_MANY: too many pending proposals.
 * @TB_WORKSPACE_ERROR_BUSY: another program held the workspace locked for
 *   longer than the store waits; nothing was changed.
 *
 * Why a workspace refused a change or could not be read or saved. The
 * messages name the key, the proposal or the file, and what to do.
 */
typedef enum
{
  TB_WORKSPACE_ERROR_DAMAGED,
  TB_WORKSPACE_ERROR_VERSION,
  TB_WORKSPACE_ERROR_IO,
  TB_WORKSPACE_ERROR_CONFLICT,
  TB_WORKSPACE_ERROR_INVALID_KEY,
  TB_WORKSPACE_ERROR_INVALID_VALUE,
  TB_WORKSPACE_ERROR_LOCKED,
  TB_WORKSPACE_ERROR_NOT_FOUND,
  TB_WORKSPACE_ERROR_NOT_PENDING,
  TB_WORKSPACE_ERROR_SUPERSEDED,
  TB_WORKSPACE_ERROR_CONFIRMATION,
  TB_WORKSPACE_ERROR_TOO_MANY,
  TB_WORKSPACE_ERROR_BUSY,
} TbWorkspaceError;

GQuark tb_workspace_error_quark (void);

#define TB_TYPE_WORKSPACE_STORE (tb_workspace_store_get_type ())

G_DECLARE_INTERFACE (TbWorkspaceStore, tb_workspace_store, TB, WORKSPACE_STORE, GObject)

/**
 * TbWorkspaceStoreInterface:
 * @load: reads the whole workspace document. Sets @document to %NULL and
 *   returns %TRUE when nothing was stored yet. A store that fails to read
 *   must refuse every later @save with %TB_WORKSPACE_ERROR_DAMAGED.
 * @save: replaces the stored document atomically: after a crash at any
 *   moment, the store holds either the old or the new document, whole.
 * @describe: a short text naming where the workspace lives, for messages.
 * @lock: waits, for a bounded time, until no other writer holds the store,
 *   and keeps others out until @unlock. Every read-modify-write of a
 *   workspace happens between the two, so concurrent writers (the app and
 *   the command line at once) take turns. Optional: a store that cannot be
 *   shared needs none.
 * @unlock: lets the next writer in.
 * @reload: reads the document again if it changed since the last @load,
 *   @reload or @save; sets @changed to %FALSE and @document to %NULL when it
 *   did not. Called under @lock, so what it returns is what the next @save
 *   replaces. The default calls @load.
 *
 * Where a workspace keeps its state. The document is the versioned JSON
 * object described in docs/workspace-format.md; a database-backed store
 * maps it onto its tables and hands the same object back.
 */
struct _TbWorkspaceStoreInterface
{
  GTypeInterface parent_iface;

  gboolean  (*load)     (TbWorkspaceStore  *self,
                         JsonNode         **document,
                         GCancellable      *cancellable,
                         GError           **error);
  gboolean  (*save)     (TbWorkspaceStore  *self,
                         JsonNode          *document,
                         GCancellable      *cancellable,
                         GError           **error);
  char     *(*describe) (TbWorkspaceStore  *self);
  gboolean  (*lock)     (TbWorkspaceStore  *self,
                         GCancellable      *cancellable,
                         GError           **error);
  void      (*unlock)   (TbWorkspaceStore  *self);
  gboolean  (*reload)   (TbWorkspaceStore  *self,
                         JsonNode         **document,
                         gboolean          *changed,
                         GCancellable      *cancellable,
                         GError           **error);
};

gboolean  tb_workspace_store_load     (TbWorkspaceStore  *self,
                                       JsonNode         **document,
                                       GCancellable      *cancellable,
                                       GError           **error);
gboolean  tb_workspace_store_save     (TbWorkspaceStore  *self,
                                       JsonNode          *document,
                                       GCancellable      *cancellable,
                                       GError           **error);
char     *tb_workspace_store_describe (TbWorkspaceStore  *self);
gboolean  tb_workspace_store_lock     (TbWorkspaceStore  *self,
                                       GCancellable      *cancellable,
                                       GError           **error);
void      tb_workspace_store_unlock   (TbWorkspaceStore  *self);
gboolean  tb_workspace_store_reload   (TbWorkspaceStore  *self,
                                       JsonNode         **document,
                                       gboolean          *changed,
                                       GCancellable      *cancellable,
                                       GError           **error);

G_END_DECLS
