/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace-store"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-workspace-store.h"

G_DEFINE_QUARK (tb-workspace-error-quark, tb_workspace_error)
G_DEFINE_INTERFACE (TbWorkspaceStore, tb_workspace_store, G_TYPE_OBJECT)

static char *
tb_workspace_store_real_describe (TbWorkspaceStore *self)
{
  return g_strdup (G_OBJECT_TYPE_NAME (self));
}

static void
tb_workspace_store_default_init (TbWorkspaceStoreInterface *iface)
{
  iface->describe = tb_workspace_store_real_describe;
}

/**
 * tb_workspace_store_load:
 * @self: a store
 * @document: (out) (transfer full) (nullable): the stored document, or
 *   %NULL when nothing was stored yet
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #TbWorkspaceError
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
 * Returns: (transfer full): where the store keeps the workspace, for messages
 */
char *
tb_workspace_store_describe (TbWorkspaceStore *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_STORE (self), NULL);

  return TB_WORKSPACE_STORE_GET_IFACE (self)->describe (self);
}
