/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

#define TB_SECRET_STORE_ERROR (tb_secret_store_error_quark ())

/**
 * TbSecretStoreError:
 * @TB_SECRET_STORE_ERROR_INVALID: the endpoint name, URL or key is empty.
 *
 * Errors of #TbSecretStore. Keyring failures never surface as errors: the
 * store falls back to memory and says so through
 * tb_secret_store_get_fallback_message().
 */
typedef enum
{
  TB_SECRET_STORE_ERROR_INVALID,
} TbSecretStoreError;

/**
 * TbSecretKind:
 * @TB_SECRET_KIND_API_KEY: the API key of a provider endpoint, named by the
 *   endpoint's name and base URL.
 * @TB_SECRET_KIND_MCP_AUTHORIZATION: what signing in to an MCP server left
 *   (tokens, client registration, account), named by the server's name and
 *   URL.
 * @TB_SECRET_KIND_MCP_HEADERS: the values of the HTTP headers a person gave
 *   an MCP server (API keys), one JSON object of header name to value,
 *   named by the server's name and URL.
 *
 * What a secret is for. Each kind has its own schema in the keyring, so a
 * search for one kind never finds the other.
 */
typedef enum
{
  TB_SECRET_KIND_API_KEY,
  TB_SECRET_KIND_MCP_AUTHORIZATION,
  TB_SECRET_KIND_MCP_HEADERS,
} TbSecretKind;

#define TB_TYPE_SECRET_STORE (tb_secret_store_get_type ())
G_DECLARE_FINAL_TYPE (TbSecretStore, tb_secret_store, TB, SECRET_STORE, GObject)

GQuark         tb_secret_store_error_quark          (void);
TbSecretStore *tb_secret_store_new                  (void);
TbSecretStore *tb_secret_store_get_default          (void);
TbSecretStore *tb_secret_store_new_in_memory        (const char          *reason);
gboolean       tb_secret_store_is_in_memory         (TbSecretStore       *self);
const char    *tb_secret_store_get_fallback_message (TbSecretStore       *self);

void           tb_secret_store_save_async           (TbSecretStore       *self,
                                                     const char          *endpoint,
                                                     const char          *base_url,
                                                     const char          *key,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean       tb_secret_store_save_finish          (TbSecretStore       *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
void           tb_secret_store_lookup_async         (TbSecretStore       *self,
                                                     const char          *endpoint,
                                                     const char          *base_url,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
char          *tb_secret_store_lookup_finish        (TbSecretStore       *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
void           tb_secret_store_clear_async          (TbSecretStore       *self,
                                                     const char          *endpoint,
                                                     const char          *base_url,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean       tb_secret_store_clear_finish         (TbSecretStore       *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);

void           tb_secret_store_store_async          (TbSecretStore       *self,
                                                     TbSecretKind         kind,
                                                     const char          *name,
                                                     const char          *url,
                                                     const char          *secret,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean       tb_secret_store_store_finish         (TbSecretStore       *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
void           tb_secret_store_fetch_async          (TbSecretStore       *self,
                                                     TbSecretKind         kind,
                                                     const char          *name,
                                                     const char          *url,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
char          *tb_secret_store_fetch_finish         (TbSecretStore       *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
void           tb_secret_store_forget_async         (TbSecretStore       *self,
                                                     TbSecretKind         kind,
                                                     const char          *name,
                                                     const char          *url,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean       tb_secret_store_forget_finish        (TbSecretStore       *self,
                                                     GAsyncResult        *result,
                                                     gboolean            *removed,
                                                     GError             **error);

G_END_DECLS
