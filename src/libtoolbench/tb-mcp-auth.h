/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

#include "tb-secret-store.h"
#include "tb-types.h"

G_BEGIN_DECLS

#define TB_TYPE_MCP_AUTH (tb_mcp_auth_get_type ())

G_DECLARE_FINAL_TYPE (TbMcpAuth, tb_mcp_auth, TB, MCP_AUTH, GObject)

#define TB_MCP_AUTH_ERROR (tb_mcp_auth_error_quark ())

/**
 * TbMcpAuthError:
 * @TB_MCP_AUTH_ERROR_DISCOVERY: the server's protected resource metadata or
 *   its authorization server's metadata is missing or unusable.
 * @TB_MCP_AUTH_ERROR_UNSUPPORTED: the authorization server offers nothing
 *   Toolbench can use (no PKCE with S256, no usable grant or client
 *   authentication, no way to register).
 * @TB_MCP_AUTH_ERROR_REGISTRATION: the client registration was refused.
 * @TB_MCP_AUTH_ERROR_DENIED: the authorization server answered the sign-in
 *   with an error.
 * @TB_MCP_AUTH_ERROR_STATE: the answer that came back does not belong to
 *   this sign-in (another `state`, another issuer); it was discarded.
 * @TB_MCP_AUTH_ERROR_TOKEN: the token endpoint refused, or answered with
 *   something that is not a token.
 * @TB_MCP_AUTH_ERROR_TIMEOUT: the browser never came back.
 * @TB_MCP_AUTH_ERROR_REFUSED: the MCP server still refuses after signing in
 *   as many times as Toolbench tries.
 * @TB_MCP_AUTH_ERROR_INTERACTION: fetch mode met a page that needs a person.
 * @TB_MCP_AUTH_ERROR_HTTP: an authorization server could not be reached.
 * @TB_MCP_AUTH_ERROR_CONFIG: a setting is not usable (a key file, a URL).
 *
 * Errors of #TbMcpAuth. Every message names the step that failed and what
 * the other side said.
 */
typedef enum
{
  TB_MCP_AUTH_ERROR_DISCOVERY,
  TB_MCP_AUTH_ERROR_UNSUPPORTED,
  TB_MCP_AUTH_ERROR_REGISTRATION,
  TB_MCP_AUTH_ERROR_DENIED,
  TB_MCP_AUTH_ERROR_STATE,
  TB_MCP_AUTH_ERROR_TOKEN,
  TB_MCP_AUTH_ERROR_TIMEOUT,
  TB_MCP_AUTH_ERROR_REFUSED,
  TB_MCP_AUTH_ERROR_INTERACTION,
  TB_MCP_AUTH_ERROR_HTTP,
  TB_MCP_AUTH_ERROR_CONFIG,
} TbMcpAuthError;

/**
 * TB_MCP_AUTH_DEFAULT_REDIRECT_TIMEOUT_MS:
 *
 * How long a sign-in waits for the browser to come back: five minutes.
 */
#define TB_MCP_AUTH_DEFAULT_REDIRECT_TIMEOUT_MS (5 * 60 * 1000)

GQuark          tb_mcp_auth_error_quark             (void);

TbMcpAuth      *tb_mcp_auth_new                     (const char          *server_name,
                                                     const char          *server_url);
const char     *tb_mcp_auth_get_server_name         (TbMcpAuth           *self);
const char     *tb_mcp_auth_get_server_url          (TbMcpAuth           *self);

void            tb_mcp_auth_set_mode                (TbMcpAuth           *self,
                                                     TbMcpAuthMode        mode);
TbMcpAuthMode   tb_mcp_auth_get_mode                (TbMcpAuth           *self);
void            tb_mcp_auth_set_secret_store        (TbMcpAuth           *self,
                                                     TbSecretStore       *store);
TbSecretStore  *tb_mcp_auth_get_secret_store        (TbMcpAuth           *self);
void            tb_mcp_auth_set_client              (TbMcpAuth           *self,
                                                     const char          *client_id,
                                                     const char          *client_secret);
void            tb_mcp_auth_set_client_metadata_url (TbMcpAuth           *self,
                                                     const char          *url);
gboolean        tb_mcp_auth_set_client_key          (TbMcpAuth           *self,
                                                     const char          *pem,
                                                     GError             **error);
void            tb_mcp_auth_set_identity_assertion  (TbMcpAuth           *self,
                                                     const char          *token_endpoint,
                                                     const char          *client_id,
                                                     const char          *id_token);
void            tb_mcp_auth_set_assertion           (TbMcpAuth           *self,
                                                     const char          *assertion);
void            tb_mcp_auth_set_redirect_timeout_ms (TbMcpAuth           *self,
                                                     guint                timeout_ms);

TbMcpAuthState  tb_mcp_auth_get_state               (TbMcpAuth           *self);
const char     *tb_mcp_auth_get_account             (TbMcpAuth           *self);
const char     *tb_mcp_auth_get_scope               (TbMcpAuth           *self);
const char     *tb_mcp_auth_get_authorization_url   (TbMcpAuth           *self);
const char     *tb_mcp_auth_get_error               (TbMcpAuth           *self);
void            tb_mcp_auth_cancel                  (TbMcpAuth           *self);

void            tb_mcp_auth_load_async              (TbMcpAuth           *self,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean        tb_mcp_auth_load_finish             (TbMcpAuth           *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
void            tb_mcp_auth_sign_in_async           (TbMcpAuth           *self,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean        tb_mcp_auth_sign_in_finish          (TbMcpAuth           *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
void            tb_mcp_auth_sign_out_async          (TbMcpAuth           *self,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean        tb_mcp_auth_sign_out_finish         (TbMcpAuth           *self,
                                                     GAsyncResult        *result,
                                                     gboolean            *removed,
                                                     GError             **error);

G_END_DECLS
