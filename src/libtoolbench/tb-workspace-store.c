/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace-store"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-workspace-store.h"

/**
 * tb_workspace_error_quark:
 *
 * The error domain of #TbWorkspaceError.
 *
 * Returns: the quark of %TB_WORKSPACE_ERROR
 */
G_DEFINE_QUARK (tb-workspace-error-quark, tb_workspace_error)
/**
 * TbWorkspaceStore:
 *
 * Where a #TbWorkspace keeps its state: a whole JSON document, read and
 * replaced atomically, with a lock so that writers take turns.
 * #TbWorkspaceFileStore keeps it in a file.
 */
G_DEFINE_INTERFACE (TbWorkspaceStore, tb_workspace_store, G_TYPE_OBJECT)

static char *
tb_workspace_store_real_describe (TbWorkspaceStore *self)
{
  return g_strdup (G_OBJECT_TYPE_NAME (self));
}

static gboolean
tb_workspace_store_real_lock (TbWorkspaceStore  *self,
                              GCancellable      *cancellable,
                              GError           **error)
{
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

static void
tb_workspace_store_real_unlock (TbWorkspaceStore *self)
{
}

static gboolean
tb_workspace_store_real_reload (TbWorkspaceStore  *self,
                                JsonNode         **document,
                                gboolean          *changed,
                                GCancellable      *cancellable,
                                GError           **error)
{
  *changed = TRUE;
  return TB_WORKSPACE_STORE_GET_IFACE (self)->load (self, document, cancellable, error);
}

static void
tb_workspace_store_default_init (TbWorkspaceStoreInterface *iface)
{
  iface->describe = tb_workspace_store_real_describe;
  iface->lock = tb_workspace_store_real_lock;
  iface->unlock = tb_workspace_store_real_unlock;
  iface->reload = tb_workspace_store_real_reload;
}

/**
 * tb_workspace_store_load:
 * @self: a store
 * @document: (out) (transfer full) (nullable): the stored document, or
 *   %NULL when nothing was stored yet
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #TbWorkspaceError
 *
 * Reads the whole workspace document.
 *
 * Returns: %TRUE when the store could be read (even if it was empty)
 */
gboolean
tb_workspace_store_load (TbWorkspaceStore  *self,
                         JsonNode         **document,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (document != NULL, FALSE);

  *document = NULL;
  return TB_WORKSPACE_STORE_GET_IFACE (self)->load (self, document, cancellable, error);
}

/**
 * tb_workspace_store_save:
 * @self: a store
 * @document: the whole workspace document
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #TbWorkspaceError
 *
 * Replaces the stored document atomically: after a crash at any moment the
 * store holds either the old or the new document, whole.
 *
 * Returns: %TRUE when the document was stored durably
 */
gboolean
tb_workspace_store_save (TbWorkspaceStore  *self,
                         JsonNode          *document,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (document != NULL, FALSE);

  return TB_WORKSPACE_STORE_GET_IFACE (self)->save (self, document, cancellable, error);
}

/**
 * tb_workspace_store_describe:
 * @self: a store
 *
 * Names where the store keeps the workspace, for error messages.
 *
 * Returns: (transfer full): where the store keeps the workspace, for messages
 */
char *
tb_workspace_store_describe (TbWorkspaceStore *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_STORE (self), NULL);

  return TB_WORKSPACE_STORE_GET_IFACE (self)->describe (self);
}

/**
 * tb_workspace_store_lock:
 * @self: a store
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #TbWorkspaceError
 *
 * Waits until no other writer holds @self, for a bounded time, and keeps
 * other writers out until tb_workspace_store_unlock(). A lock held by a
 * process that dies is released with it.
 *
 * Returns: %TRUE when @self is locked; %TB_WORKSPACE_ERROR_BUSY when
 *   another writer held it for too long
 */
gboolean
tb_workspace_store_lock (TbWorkspaceStore  *self,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_STORE (self), FALSE);

  return TB_WORKSPACE_STORE_GET_IFACE (self)->lock (self, cancellable, error);
}

/**
 * tb_workspace_store_unlock:
 * @self: a store locked with tb_workspace_store_lock()
 *
 * Lets the next writer in after tb_workspace_store_lock().
 */
void
tb_workspace_store_unlock (TbWorkspaceStore *self)
{
  g_return_if_fail (TB_IS_WORKSPACE_STORE (self));

  TB_WORKSPACE_STORE_GET_IFACE (self)->unlock (self);
}

/**
 * tb_workspace_store_reload:
 * @self: a store
 * @document: (out) (transfer full) (nullable): the stored document when it
 *   changed, or %NULL
 * @changed: (out): whether the stored document changed since @self last
 *   read or wrote it
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #TbWorkspaceError
 *
 * Reads the stored document again if another writer changed it. A
 * document that is no longer there gives %NULL with @changed %TRUE.
 *
 * Returns: %TRUE when the store could be read
 */
gboolean
tb_workspace_store_reload (TbWorkspaceStore  *self,
                           JsonNode         **document,
                           gboolean          *changed,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_STORE (self), FALSE);
  g_return_val_if_fail (document != NULL, FALSE);
  g_return_val_if_fail (changed != NULL, FALSE);

  *document = NULL;
  *changed = FALSE;
  return TB_WORKSPACE_STORE_GET_IFACE (self)->reload (self, document, changed, cancellable,
                                                       error);
}
