/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-enums.h"
#include "tb-mcp-auth-private.h"

/**
 * TbMcpAuth:
 *
 * The OAuth 2.1 authorization of one MCP server over streamable HTTP, as
 * the MCP specification (2025-11-25, "Authorization") defines it, with the
 * 2025-03-26 behaviour kept for older servers.
 *
 * Every #TbMcpClient for an HTTP server has one (tb_mcp_client_get_auth()).
 * Its transport sends the access token as `Authorization: Bearer` on every
 * request; when the server answers 401, the auth object uses the tokens
 * kept in the #TbSecretStore, refreshes them, or signs in, and the request
 * goes again. A 403 with `error="insufficient_scope"` signs in again with
 * the scope the server names (step-up). A request causes at most
 * %TB_OAUTH_MAX_UNAUTHORIZED_ROUNDS sign-ins for 401 and three in all;
 * then it fails with a sentence saying why.
 *
 * Signing in: the protected resource metadata (RFC 9728) names the
 * authorization server, whose metadata (RFC 8414 or OpenID Connect
 * discovery) names its endpoints; the client is pre-registered (see
 * tb_mcp_auth_set_client()), a client ID metadata document (see
 * tb_mcp_auth_set_client_metadata_url()), a registration kept from an
 * earlier sign-in, or registered on the spot (RFC 7591). The authorization
 * request carries PKCE (S256), `state`, `resource` (RFC 8707) and the
 * scope: the one the server's challenge names, else the resource
 * metadata's `scopes_supported`, else none (with `offline_access` added
 * when the authorization server lists it, for a refresh token).
 *
 * How the authorization URL reaches a person is the caller's choice: the
 * #TbMcpAuth::present-url signal is emitted with it, and a handler that
 * shows it (an app calls gtk_show_uri()) returns %TRUE. Otherwise the
 * #TbMcpAuth:mode decides: %TB_MCP_AUTH_MODE_BROWSER opens it in the
 * default browser, %TB_MCP_AUTH_MODE_FETCH fetches it without a browser
 * and takes the code from the redirect. Either way the browser comes back
 * to a listener on 127.0.0.1, which checks `state` and gives up after
 * tb_mcp_auth_set_redirect_timeout_ms().
 *
 * When the authorization server offers no authorization code grant, a
 * pre-registered client with a secret or key gets a token with the client
 * credentials grant, and with tb_mcp_auth_set_identity_assertion() an
 * identity provider's ID token is exchanged (RFC 8693) for an identity
 * assertion grant (RFC 7523).
 *
 * What a sign-in leaves (tokens, expiry, granted scope, the client
 * registration and the account) is kept in the Secret Service under the
 * server's name and URL, or in memory when none runs; never in a file, a
 * log, a trace or GSettings. A sign-in that fails leaves what was kept as
 * it was.
 *
 * "Signed in as" (#TbMcpAuth:account) is the `email`, `preferred_username`,
 * `name` or `sub` claim of the ID token when the token endpoint sent one,
 * else the client ID the sign-in used.
 */
G_DEFINE_FINAL_TYPE (TbMcpAuth, tb_mcp_auth, G_TYPE_OBJECT)
/**
 * tb_mcp_auth_error_quark:
 *
 * The error domain of #TbMcpAuthError: a sign-in to an HTTP MCP server that
 * failed, with the step that failed in the message.
 *
 * Returns: the quark of %TB_MCP_AUTH_ERROR
 */
G_DEFINE_QUARK (tb-mcp-auth-error-quark, tb_mcp_auth_error)

enum {
  PROP_0,
  PROP_SERVER_NAME,
  PROP_SERVER_URL,
  PROP_MODE,
  PROP_STATE,
  PROP_ACCOUNT,
  PROP_SCOPE,
  PROP_AUTHORIZATION_URL,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];
guint _tb_mcp_auth_signals [TB_MCP_AUTH_N_SIGNALS];

/* Frees a secret, overwritten first. */
void
_tb_mcp_auth_wipe_free (char *text)
{
  if (text != NULL)
    memset (text, 0, strlen (text));
  g_free (text);
}

/* State. */

void
_tb_mcp_auth_set_state (TbMcpAuth      *self,
                        TbMcpAuthState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

static void
set_string (TbMcpAuth   *self,
            char       **slot,
            const char  *value,
            guint        prop_id)
{
  if (g_strcmp0 (*slot, value) == 0)
    return;
  g_free (*slot);
  *slot = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties [prop_id]);
}

void
_tb_mcp_auth_set_error (TbMcpAuth  *self,
                        const char *error)
{
  set_string (self, &self->error, error, PROP_ERROR);
}

void
_tb_mcp_auth_set_authorization_url (TbMcpAuth  *self,
                                    const char *url)
{
  set_string (self, &self->authorization_url, url, PROP_AUTHORIZATION_URL);
}

gboolean
_tb_mcp_auth_has_token (TbMcpAuth *self)
{
  return self->credentials != NULL && self->credentials->tokens != NULL;
}

void
_tb_mcp_auth_set_credentials (TbMcpAuth          *self,
                              TbOAuthCredentials *credentials)
{
  _tb_oauth_credentials_free (self->credentials);
  self->credentials = credentials;
  self->serial++;
  _tb_mcp_auth_set_state (self, _tb_mcp_auth_has_token (self) ? TB_MCP_AUTH_STATE_SIGNED_IN
                                                              : TB_MCP_AUTH_STATE_SIGNED_OUT);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ACCOUNT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SCOPE]);
}

/* What the store kept for this server (@text, wiped here), unless it was
 * loaded already. */
void
_tb_mcp_auth_take_kept (TbMcpAuth *self,
                        char      *text)
{
  if (!self->loaded)
    {
      TbOAuthCredentials *credentials = _tb_oauth_credentials_from_text (text);

      self->loaded = TRUE;
      if (credentials != NULL)
        _tb_mcp_auth_set_credentials (self, credentials);
    }
  if (text != NULL)
    memset (text, 0, strlen (text));
}

/* Public API. */

/**
 * tb_mcp_auth_new:
 * @server_name: the server's name, one half of the key its sign-in is kept
 *   under
 * @server_url: the MCP endpoint, the other half
 *
 * Makes the authorization of one HTTP MCP server: OAuth 2.1 as the MCP
 * specification asks, discovered from the server, with the tokens and the
 * client registration kept in the keyring. An HTTP #TbMcpClient makes its
 * own (tb_mcp_client_get_auth()), which a 401 from the server sets signing
 * in; make one directly to sign in or out without a client.
 *
 * Returns: (transfer full): the authorization of one server, in browser
 *   mode, keeping its sign-in in tb_secret_store_get_default()
 */
TbMcpAuth *
tb_mcp_auth_new (const char *server_name,
                 const char *server_url)
{
  g_return_val_if_fail (server_name != NULL, NULL);
  g_return_val_if_fail (server_url != NULL, NULL);

  return g_object_new (TB_TYPE_MCP_AUTH,
                       "server-name", server_name,
                       "server-url", server_url,
                       NULL);
}

/**
 * tb_mcp_auth_get_server_name:
 * @self: an authorization
 *
 * Gives the server's name (#TbMcpAuth:server-name).
 *
 * Returns: the server's name
 */
const char *
tb_mcp_auth_get_server_name (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), NULL);
  return self->server_name;
}

/**
 * tb_mcp_auth_get_server_url:
 * @self: an authorization
 *
 * Gives the server's MCP endpoint (#TbMcpAuth:server-url).
 *
 * Returns: the endpoint's URL
 */
const char *
tb_mcp_auth_get_server_url (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), NULL);
  return self->server_url;
}

/**
 * tb_mcp_auth_set_mode:
 * @mode: how the authorization URL is followed when no handler of
 *   #TbMcpAuth::present-url takes it
 * @self: an authorization
 *
 * Sets #TbMcpAuth:mode.
 */
void
tb_mcp_auth_set_mode (TbMcpAuth     *self,
                      TbMcpAuthMode  mode)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));

  if (self->mode == mode)
    return;
  self->mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MODE]);
}

/**
 * tb_mcp_auth_get_mode:
 * @self: an authorization
 *
 * Tells how the authorization URL is followed (#TbMcpAuth:mode).
 *
 * Returns: the mode
 */
TbMcpAuthMode
tb_mcp_auth_get_mode (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), TB_MCP_AUTH_MODE_BROWSER);
  return self->mode;
}

/**
 * tb_mcp_auth_set_secret_store:
 * @store: where sign-ins are kept
 * @self: an authorization
 *
 * What was loaded from the previous store is forgotten.
 */
void
tb_mcp_auth_set_secret_store (TbMcpAuth     *self,
                              TbSecretStore *store)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));
  g_return_if_fail (TB_IS_SECRET_STORE (store));

  g_set_object (&self->store, store);
  self->loaded = FALSE;
}

/**
 * tb_mcp_auth_get_secret_store:
 * @self: an authorization
 *
 * Gives the store the sign-in is kept in.
 *
 * Returns: (transfer none): where sign-ins are kept
 */
TbSecretStore *
tb_mcp_auth_get_secret_store (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), NULL);
  return self->store;
}

static void
replace_secret (char       **slot,
                const char  *value)
{
  _tb_mcp_auth_wipe_free (*slot);
  *slot = value != NULL && *value != '\0' ? g_strdup (value) : NULL;
}

/**
 * tb_mcp_auth_set_client:
 * @client_id: (nullable): a client registered with the authorization
 *   server beforehand
 * @client_secret: (nullable): its secret, for a confidential client
 * @self: an authorization
 *
 * A pre-registered client, used before any other way of registering.
 */
void
tb_mcp_auth_set_client (TbMcpAuth  *self,
                        const char *client_id,
                        const char *client_secret)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));

  replace_secret (&self->config.client_id, client_id);
  replace_secret (&self->config.client_secret, client_secret);
}

/**
 * tb_mcp_auth_set_client_metadata_url:
 * @url: (nullable): the HTTPS URL of Toolbench's client ID metadata
 *   document, used as the client ID where the authorization server takes
 *   them
 * @self: an authorization
 *
 * Names the client by the URL of a metadata document instead of
 * registering it, for authorization servers that accept client ID metadata
 * documents.
 */
void
tb_mcp_auth_set_client_metadata_url (TbMcpAuth  *self,
                                     const char *url)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));

  replace_secret (&self->config.metadata_url, url);
}

/**
 * tb_mcp_auth_set_client_key:
 * @pem: (nullable): a private key in PEM form (P-256, P-384 or RSA)
 * @error: why it cannot be used
 * @self: an authorization
 *
 * The key a pre-registered client authenticates with at the token
 * endpoint (`private_key_jwt`, RFC 7523), where the authorization server
 * takes it.
 *
 * Returns: whether the key can sign
 */
gboolean
tb_mcp_auth_set_client_key (TbMcpAuth   *self,
                            const char  *pem,
                            GError     **error)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), FALSE);

  if (pem != NULL && !_tb_oauth_jwt_check_key (pem, error))
    return FALSE;
  replace_secret (&self->config.key_pem, pem);
  return TRUE;
}

/**
 * tb_mcp_auth_set_identity_assertion:
 * @token_endpoint: (nullable): the identity provider's token endpoint
 * @client_id: (nullable): Toolbench's client ID at the identity provider
 * @id_token: (nullable): the ID token the identity provider issued
 * @self: an authorization
 *
 * For authorization servers that take identity assertions (RFC 7523)
 * instead of a sign-in in a browser: the ID token is exchanged at the
 * identity provider (RFC 8693) for an assertion for the authorization
 * server, and the pre-registered client (tb_mcp_auth_set_client())
 * presents it.
 */
void
tb_mcp_auth_set_identity_assertion (TbMcpAuth  *self,
                                    const char *token_endpoint,
                                    const char *client_id,
                                    const char *id_token)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));

  replace_secret (&self->idp_token_endpoint, token_endpoint);
  replace_secret (&self->idp_client_id, client_id);
  replace_secret (&self->id_token, id_token);
}

/**
 * tb_mcp_auth_set_assertion:
 * @assertion: (nullable): a JSON Web Token the authorization server takes
 *   as a grant, such as a workload's identity token from its platform
 * @self: an authorization
 *
 * For authorization servers that take JWT assertions (RFC 7523) from
 * workloads: the token is presented as it is, by the pre-registered client
 * (tb_mcp_auth_set_client()).
 */
void
tb_mcp_auth_set_assertion (TbMcpAuth  *self,
                           const char *assertion)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));

  replace_secret (&self->assertion, assertion);
}

/**
 * tb_mcp_auth_set_redirect_timeout_ms:
 * @timeout_ms: how long a sign-in waits for the browser to come back; 0
 *   for no limit
 * @self: an authorization
 *
 * Sets how long a sign-in in a browser may take before it fails with
 * %TB_MCP_AUTH_ERROR_TIMEOUT.
 */
void
tb_mcp_auth_set_redirect_timeout_ms (TbMcpAuth *self,
                                     guint      timeout_ms)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));
  self->redirect_timeout_ms = timeout_ms;
}

/**
 * tb_mcp_auth_get_state:
 * @self: an authorization
 *
 * Tells whether a sign-in is kept, under way or absent (#TbMcpAuth:state).
 *
 * Returns: the state
 */
TbMcpAuthState
tb_mcp_auth_get_state (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), TB_MCP_AUTH_STATE_SIGNED_OUT);
  return self->state;
}

/**
 * tb_mcp_auth_get_account:
 * @self: an authorization
 *
 * Tells who is signed in (#TbMcpAuth:account).
 *
 * Returns: (nullable): who is signed in, for "Signed in as …": a claim of
 *   the ID token, else the client ID; %NULL when signed out
 */
const char *
tb_mcp_auth_get_account (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), NULL);

  if (!_tb_mcp_auth_has_token (self))
    return NULL;
  if (self->credentials->account != NULL)
    return self->credentials->account;
  if (self->credentials->client != NULL)
    return self->credentials->client->client_id;
  return NULL;
}

/**
 * tb_mcp_auth_get_scope:
 * @self: an authorization
 *
 * Gives the scope the authorization server granted (#TbMcpAuth:scope).
 *
 * Returns: (nullable): the scope granted
 */
const char *
tb_mcp_auth_get_scope (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), NULL);

  return _tb_mcp_auth_has_token (self) ? self->credentials->tokens->scope : NULL;
}

/**
 * tb_mcp_auth_get_authorization_url:
 * @self: an authorization
 *
 * Gives the URL a person opens to sign in (#TbMcpAuth:authorization-url).
 *
 * Returns: (nullable): while a sign-in waits for a person, the URL they
 *   open
 */
const char *
tb_mcp_auth_get_authorization_url (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), NULL);
  return self->authorization_url;
}

/**
 * tb_mcp_auth_get_error:
 * @self: an authorization
 *
 * Tells why the last sign-in failed (#TbMcpAuth:error).
 *
 * Returns: (nullable): why the last sign-in failed
 */
const char *
tb_mcp_auth_get_error (TbMcpAuth *self)
{
  g_return_val_if_fail (TB_IS_MCP_AUTH (self), NULL);
  return self->error;
}

/**
 * tb_mcp_auth_cancel:
 * @self: an authorization
 *
 * Stops the sign-in under way; what waited on it fails as cancelled.
 */
void
tb_mcp_auth_cancel (TbMcpAuth *self)
{
  g_return_if_fail (TB_IS_MCP_AUTH (self));

  if (self->flow != NULL)
    g_cancellable_cancel (self->flow->cancellable);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbMcpAuth *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = tb_secret_store_fetch_finish (TB_SECRET_STORE (object), result, &error);

  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  _tb_mcp_auth_take_kept (self, text);
  g_task_return_boolean (task, TRUE);
}

/**
 * tb_mcp_auth_load_async:
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when what is kept is known
 * @user_data: closure
 * @self: an authorization
 *
 * Reads what an earlier sign-in kept, so that #TbMcpAuth:state and
 * #TbMcpAuth:account say who is signed in before the server is asked
 * anything.
 */
void
tb_mcp_auth_load_async (TbMcpAuth           *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TB_IS_MCP_AUTH (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_auth_load_async);
  if (self->loaded)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  tb_secret_store_fetch_async (self->store, TB_SECRET_KIND_MCP_AUTHORIZATION, self->server_name,
                               self->server_url, cancellable, loaded_cb, g_steal_pointer (&task));
}

/**
 * tb_mcp_auth_load_finish:
 * @self: an authorization
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Ends tb_mcp_auth_load_async().
 *
 * Returns: %TRUE when the store was read, whether or not it kept a sign-in
 */
gboolean
tb_mcp_auth_load_finish (TbMcpAuth     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tb_mcp_auth_sign_in_async:
 * @cancellable: (nullable): stops the sign-in
 * @callback: called when signed in, or when the sign-in failed
 * @user_data: closure
 * @self: an authorization
 *
 * Signs in now, whether or not a token is kept: discovery from the
 * server's well-known metadata, then as after a 401.
 */
void
tb_mcp_auth_sign_in_async (TbMcpAuth           *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Flow *flow;

  g_return_if_fail (TB_IS_MCP_AUTH (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_auth_sign_in_async);
  if (self->flow != NULL)
    {
      self->flow->explicit = TRUE;
      _tb_mcp_auth_flow_add_waiter (self->flow, task);
      return;
    }
  flow = _tb_mcp_auth_flow_new (self);
  self->flow = flow;
  flow->explicit = TRUE;
  flow->force_sign_in = TRUE;
  _tb_mcp_auth_flow_add_waiter (flow, task);
  _tb_mcp_auth_flow_start (flow);
}

/**
 * tb_mcp_auth_sign_in_finish:
 * @self: an authorization
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpAuthError
 *
 * Ends tb_mcp_auth_sign_in_async().
 *
 * Returns: %TRUE when signed in
 */
gboolean
tb_mcp_auth_sign_in_finish (TbMcpAuth     *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
forgotten_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  /* The store's own result: tb_mcp_auth_sign_out_finish() reads it there. */
  g_task_return_pointer (task, g_object_ref (result), g_object_unref);
}

/**
 * tb_mcp_auth_sign_out_async:
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the sign-in is forgotten
 * @user_data: closure
 * @self: an authorization
 *
 * Stops a sign-in under way and forgets the tokens and the client
 * registration, in memory and in the keyring.
 */
void
tb_mcp_auth_sign_out_async (TbMcpAuth           *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TB_IS_MCP_AUTH (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_auth_sign_out_async);
  tb_mcp_auth_cancel (self);
  self->loaded = TRUE;
  _tb_mcp_auth_set_credentials (self, NULL);
  _tb_mcp_auth_set_error (self, NULL);
  tb_secret_store_forget_async (self->store, TB_SECRET_KIND_MCP_AUTHORIZATION, self->server_name,
                                self->server_url, cancellable, forgotten_cb,
                                g_steal_pointer (&task));
}

/**
 * tb_mcp_auth_sign_out_finish:
 * @removed: (out) (optional): whether anything was kept
 * @self: an authorization
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error of the store
 *
 * Ends tb_mcp_auth_sign_out_async().
 *
 * Returns: whether the sign-in is forgotten
 */
gboolean
tb_mcp_auth_sign_out_finish (TbMcpAuth     *self,
                             GAsyncResult  *result,
                             gboolean      *removed,
                             GError       **error)
{
  g_autoptr(GAsyncResult) forgotten = NULL;
  g_autoptr(GObject) store = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (removed != NULL)
    *removed = FALSE;
  forgotten = g_task_propagate_pointer (G_TASK (result), error);
  if (forgotten == NULL)
    return FALSE;
  store = g_async_result_get_source_object (forgotten);
  return tb_secret_store_forget_finish (TB_SECRET_STORE (store), forgotten, removed, error);
}

/* The object. */

static gboolean
present_url_accumulator (GSignalInvocationHint *hint,
                         GValue                *return_accu,
                         const GValue          *handler_return,
                         gpointer               data)
{
  gboolean handled = g_value_get_boolean (handler_return);

  g_value_set_boolean (return_accu, handled);
  return !handled;
}

static void
tb_mcp_auth_constructed (GObject *object)
{
  TbMcpAuth *self = (TbMcpAuth *)object;
  g_autoptr(GUri) uri = g_uri_parse (self->server_url, G_URI_FLAGS_NONE, NULL);

  G_OBJECT_CLASS (tb_mcp_auth_parent_class)->constructed (object);

  /* As the transport does: no proxy between Toolbench and a server on this
   * machine, nor its authorization server. */
  if (uri != NULL && _tb_oauth_is_loopback_host (g_uri_get_host (uri)))
    soup_session_set_proxy_resolver (self->session, NULL);
}

static void
tb_mcp_auth_dispose (GObject *object)
{
  TbMcpAuth *self = (TbMcpAuth *)object;

  if (self->flow != NULL)
    g_cancellable_cancel (self->flow->cancellable);

  G_OBJECT_CLASS (tb_mcp_auth_parent_class)->dispose (object);
}

static void
tb_mcp_auth_finalize (GObject *object)
{
  TbMcpAuth *self = (TbMcpAuth *)object;

  g_free (self->server_name);
  g_free (self->server_url);
  g_clear_object (&self->store);
  _tb_mcp_auth_wipe_free (self->config.client_id);
  _tb_mcp_auth_wipe_free (self->config.client_secret);
  _tb_mcp_auth_wipe_free (self->config.metadata_url);
  _tb_mcp_auth_wipe_free (self->config.key_pem);
  _tb_mcp_auth_wipe_free (self->idp_token_endpoint);
  _tb_mcp_auth_wipe_free (self->idp_client_id);
  _tb_mcp_auth_wipe_free (self->id_token);
  _tb_mcp_auth_wipe_free (self->assertion);
  g_clear_object (&self->session);
  _tb_oauth_credentials_free (self->credentials);
  g_free (self->error);
  g_free (self->authorization_url);

  G_OBJECT_CLASS (tb_mcp_auth_parent_class)->finalize (object);
}

static void
tb_mcp_auth_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TbMcpAuth *self = TB_MCP_AUTH (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:
      g_value_set_string (value, self->server_name);
      break;
    case PROP_SERVER_URL:
      g_value_set_string (value, self->server_url);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_ACCOUNT:
      g_value_set_string (value, tb_mcp_auth_get_account (self));
      break;
    case PROP_SCOPE:
      g_value_set_string (value, tb_mcp_auth_get_scope (self));
      break;
    case PROP_AUTHORIZATION_URL:
      g_value_set_string (value, self->authorization_url);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_auth_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TbMcpAuth *self = TB_MCP_AUTH (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:
      self->server_name = g_value_dup_string (value);
      break;
    case PROP_SERVER_URL:
      self->server_url = g_value_dup_string (value);
      break;
    case PROP_MODE:
      tb_mcp_auth_set_mode (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_auth_class_init (TbMcpAuthClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags construct_flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                G_PARAM_STATIC_STRINGS;
  GParamFlags rw_flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro_flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = tb_mcp_auth_constructed;
  object_class->dispose = tb_mcp_auth_dispose;
  object_class->finalize = tb_mcp_auth_finalize;
  object_class->get_property = tb_mcp_auth_get_property;
  object_class->set_property = tb_mcp_auth_set_property;

  /**
   * TbMcpAuth:server-name:
   *
   * The server's name, which with #TbMcpAuth:server-url is the key its
   * sign-in is kept under. Construct-only.
   */
  properties [PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL, NULL, construct_flags);
  /**
   * TbMcpAuth:server-url:
   *
   * The server's MCP endpoint, where discovery starts. Construct-only.
   */
  properties [PROP_SERVER_URL] =
    g_param_spec_string ("server-url", NULL, NULL, NULL, construct_flags);
  /**
   * TbMcpAuth:mode:
   *
   * How the authorization URL is followed when no handler of
   * #TbMcpAuth::present-url takes it.
   */
  properties [PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL, TB_TYPE_MCP_AUTH_MODE, TB_MCP_AUTH_MODE_BROWSER,
                       rw_flags);
  /**
   * TbMcpAuth:state:
   *
   * Whether a sign-in is kept, under way or absent.
   */
  properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TB_TYPE_MCP_AUTH_STATE, TB_MCP_AUTH_STATE_SIGNED_OUT,
                       ro_flags);
  /**
   * TbMcpAuth:account:
   *
   * Who is signed in; see tb_mcp_auth_get_account().
   */
  properties [PROP_ACCOUNT] =
    g_param_spec_string ("account", NULL, NULL, NULL, ro_flags);
  /**
   * TbMcpAuth:scope:
   *
   * The scope the authorization server granted, or %NULL when signed out.
   */
  properties [PROP_SCOPE] =
    g_param_spec_string ("scope", NULL, NULL, NULL, ro_flags);
  /**
   * TbMcpAuth:authorization-url:
   *
   * While a sign-in waits for a person, the URL they open in a browser;
   * %NULL otherwise.
   */
  properties [PROP_AUTHORIZATION_URL] =
    g_param_spec_string ("authorization-url", NULL, NULL, NULL, ro_flags);
  /**
   * TbMcpAuth:error:
   *
   * Why the last sign-in failed, a sentence naming the step; %NULL after a
   * sign-in that worked.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL, ro_flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbMcpAuth::present-url:
   * @self: the authorization
   * @url: the authorization URL a person opens to sign in
   *
   * A sign-in needs @url opened. A handler that shows it to a person (an
   * app with gtk_show_uri()) returns %TRUE; the browser then comes back to
   * the engine's listener. A handler that only tells about it (a command
   * line printing it) returns %FALSE, and #TbMcpAuth:mode decides.
   *
   * Returns: whether the handler took care of opening @url
   */
  _tb_mcp_auth_signals [TB_MCP_AUTH_PRESENT_URL] =
    g_signal_new ("present-url", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  present_url_accumulator, NULL, NULL, G_TYPE_BOOLEAN, 1, G_TYPE_STRING);
}

static void
tb_mcp_auth_init (TbMcpAuth *self)
{
  self->store = g_object_ref (tb_secret_store_get_default ());
  self->redirect_timeout_ms = TB_MCP_AUTH_DEFAULT_REDIRECT_TIMEOUT_MS;
  self->session = _tb_oauth_session_new ();
}
