/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <toolbench.h>

G_BEGIN_DECLS

/**
 * TB_MCP_HEADER_KEPT:
 *
 * What the settings, and the entry a person edits, hold in place of an
 * HTTP header's value that is kept in the keyring.
 */
#define TB_MCP_HEADER_KEPT "(kept in the keyring)"

gboolean    tb_mcp_headers_has_values   (JsonObject          *entry);
gboolean    tb_mcp_headers_has_kept     (JsonObject          *entry);
JsonObject *tb_mcp_headers_split        (JsonObject          *entry,
                                         JsonObject         **values);
JsonObject *tb_mcp_headers_fill         (const char          *name,
                                         JsonObject          *entry,
                                         JsonObject          *values,
                                         GError             **error);

void        tb_mcp_headers_keep_async   (TbSecretStore       *store,
                                         const char          *old_name,
                                         JsonObject          *old_entry,
                                         const char          *name,
                                         JsonObject          *entry,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
JsonObject *tb_mcp_headers_keep_finish  (GAsyncResult        *result,
                                         GError             **error);
void        tb_mcp_headers_load_async   (TbSecretStore       *store,
                                         const char          *name,
                                         JsonObject          *entry,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
JsonObject *tb_mcp_headers_load_finish  (GAsyncResult        *result,
                                         GError             **error);
void        tb_mcp_headers_forget_async (TbSecretStore       *store,
                                         const char          *name,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
gboolean    tb_mcp_headers_forget_finish (GAsyncResult       *result,
                                          GError            **error);

G_END_DECLS
