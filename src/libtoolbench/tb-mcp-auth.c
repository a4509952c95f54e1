/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-enums.h"
#include "tb-json.h"
#include "tb-oauth-loopback.h"
#include "tb-oauth-private.h"

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

struct _TbMcpAuth
{
  GObject              parent_instance;

  char                *server_name;
  char                *server_url;
  TbMcpAuthMode        mode;
  TbSecretStore       *store;
  TbOAuthClientConfig  config;
  char                *idp_token_endpoint;
  char                *idp_client_id;
  char                *id_token;
  char                *assertion;
  guint                redirect_timeout_ms;

  SoupSession         *session;
  gboolean             loaded;
  TbOAuthCredentials  *credentials;
  guint                serial;
  TbMcpAuthState       state;
  char                *error;
  char                *authorization_url;

  struct _Flow        *flow;
};

typedef struct _Flow
{
  TbMcpAuth               *self;
  GPtrArray               *waiters;
  GCancellable            *cancellable;
  gboolean                 explicit;
  gboolean                 force_sign_in;
  gboolean                 token_refused;
  guint                    serial_used;
  char                    *metadata_url;
  char                    *challenge_scope;
  char                    *refresh_problem;

  TbOAuthResourceMetadata *resource_metadata;
  TbOAuthServerMetadata   *server;
  TbOAuthClient           *client;
  TbOAuthLoopback         *loopback;
  char                    *resource;
  char                    *scope;
  char                    *state;
  char                    *verifier;
  TbOAuthTokens           *tokens;
  guint                    hops;
} Flow;

typedef struct
{
  GTask   *task;
  GSource *cancelled;
  Flow    *flow;
} Waiter;

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

enum {
  PRESENT_URL,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

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

#define MAX_AUTHORIZE_HOPS 5
#define EXPIRY_MARGIN_S 30

static void flow_sign_in   (Flow *flow);
static void flow_finish    (Flow *flow,
                            GError *error);

static void
wipe_free (char *text)
{
  if (text != NULL)
    memset (text, 0, strlen (text));
  g_free (text);
}

/* State. */

static void
set_state (TbMcpAuth      *self,
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

static void
set_error (TbMcpAuth  *self,
           const char *error)
{
  set_string (self, &self->error, error, PROP_ERROR);
}

static void
set_authorization_url (TbMcpAuth  *self,
                       const char *url)
{
  set_string (self, &self->authorization_url, url, PROP_AUTHORIZATION_URL);
}

static gboolean
has_token (TbMcpAuth *self)
{
  return self->credentials != NULL && self->credentials->tokens != NULL;
}

static void
set_credentials (TbMcpAuth          *self,
                 TbOAuthCredentials *credentials)
{
  _tb_oauth_credentials_free (self->credentials);
  self->credentials = credentials;
  self->serial++;
  set_state (self, has_token (self) ? TB_MCP_AUTH_STATE_SIGNED_IN
                                    : TB_MCP_AUTH_STATE_SIGNED_OUT);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ACCOUNT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SCOPE]);
}

/* Flows. */

static void
waiter_free (Waiter *waiter)
{
  if (waiter->cancelled != NULL)
    {
      g_source_destroy (waiter->cancelled);
      g_source_unref (waiter->cancelled);
    }
  g_clear_object (&waiter->task);
  g_free (waiter);
}

static gboolean
free_loopback_idle (gpointer user_data)
{
  _tb_oauth_loopback_free (user_data);
  return G_SOURCE_REMOVE;
}

static void
flow_free (Flow *flow)
{
  /* What is still under way (a fetch of the authorization URL) ends as
   * cancelled, without touching the flow. */
  g_cancellable_cancel (flow->cancellable);
  g_clear_pointer (&flow->waiters, g_ptr_array_unref);
  g_clear_object (&flow->cancellable);
  g_free (flow->metadata_url);
  g_free (flow->challenge_scope);
  g_free (flow->refresh_problem);
  _tb_oauth_resource_metadata_free (flow->resource_metadata);
  _tb_oauth_server_metadata_free (flow->server);
  _tb_oauth_client_free (flow->client);
  /* The flow may end inside the listener's own handler. */
  if (flow->loopback != NULL)
    g_idle_add_full (G_PRIORITY_DEFAULT, free_loopback_idle, flow->loopback, NULL);
  g_free (flow->resource);
  g_free (flow->scope);
  g_free (flow->state);
  wipe_free (flow->verifier);
  _tb_oauth_tokens_free (flow->tokens);
  g_clear_object (&flow->self);
  g_free (flow);
}

static gboolean
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  Waiter *waiter = user_data;
  Flow *flow = waiter->flow;
  g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

  g_ptr_array_remove (flow->waiters, waiter);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The sign-in was cancelled"));
  /* Nobody else waits: stop signing in. */
  if (flow->waiters->len == 0 && !flow->explicit)
    g_cancellable_cancel (flow->cancellable);
  return G_SOURCE_REMOVE;
}

static void
flow_add_waiter (Flow  *flow,
                 GTask *task)
{
  Waiter *waiter = g_new0 (Waiter, 1);
  GCancellable *cancellable = g_task_get_cancellable (task);

  waiter->task = g_object_ref (task);
  waiter->flow = flow;
  if (cancellable != NULL)
    {
      waiter->cancelled = g_cancellable_source_new (cancellable);
      g_source_set_callback (waiter->cancelled, G_SOURCE_FUNC (waiter_cancelled_cb), waiter,
                             NULL);
      g_source_set_static_name (waiter->cancelled, "[tb] sign-in waiter cancelled");
      g_source_attach (waiter->cancelled, g_task_get_context (task));
    }
  g_ptr_array_add (flow->waiters, waiter);
}

static Flow *
flow_new (TbMcpAuth *self)
{
  Flow *flow = g_new0 (Flow, 1);

  flow->self = g_object_ref (self);
  flow->waiters = g_ptr_array_new_with_free_func ((GDestroyNotify) waiter_free);
  flow->cancellable = g_cancellable_new ();
  return flow;
}

static void
flow_finish (Flow   *flow,
             GError *error)
{
  TbMcpAuth *self = flow->self;
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&flow->waiters);

  g_assert (self->flow == flow);
  self->flow = NULL;
  set_authorization_url (self, NULL);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Whichever step noticed it, in the same words. */
      g_clear_error (&error);
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   _("The sign-in was cancelled"));
    }
  if (error != NULL)
    {
      set_error (self, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                         ? NULL : error->message);
      set_state (self, has_token (self) ? TB_MCP_AUTH_STATE_SIGNED_IN
                                        : TB_MCP_AUTH_STATE_SIGNED_OUT);
    }
  else
    {
      set_error (self, NULL);
    }

  for (guint i = 0; i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);
      g_autoptr(GTask) task = g_steal_pointer (&waiter->task);

      if (task == NULL)
        continue;
      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
  g_clear_error (&error);
  flow_free (flow);
}

/* Saving what the sign-in left, then done. */

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Flow *flow = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_secret_store_store_finish (TB_SECRET_STORE (object), result, &error))
    g_warning ("The sign-in to the MCP server “%s” is kept in memory only: %s",
               flow->self->server_name, error->message);
  flow_finish (flow, NULL);
}

/* Uses @credentials from now on and keeps them; the flow ends once they
 * are kept. */
static void
flow_keep (Flow               *flow,
           TbOAuthCredentials *credentials)
{
  TbMcpAuth *self = flow->self;
  g_autofree char *text = NULL;

  set_credentials (self, credentials);
  text = _tb_oauth_credentials_to_text (credentials);
  tb_secret_store_store_async (self->store, TB_SECRET_KIND_MCP_AUTHORIZATION, self->server_name,
                               self->server_url, text, NULL, store_cb, flow);
  memset (text, 0, strlen (text));
}

static void
flow_signed_in (Flow          *flow,
                TbOAuthTokens *tokens)
{
  TbOAuthCredentials *credentials = g_new0 (TbOAuthCredentials, 1);

  credentials->resource = g_strdup (flow->resource);
  credentials->token_endpoint = g_strdup (flow->server->token_endpoint);
  credentials->client = _tb_oauth_client_copy (flow->client);
  credentials->account = _tb_oauth_account_from_tokens (tokens);
  credentials->tokens = tokens;
  g_clear_pointer (&credentials->tokens->id_token, g_free);
  if (credentials->tokens->scope == NULL && flow->scope != NULL)
    credentials->tokens->scope = g_strdup (flow->scope);
  flow_keep (flow, credentials);
}

/* The token endpoint's answer to the grant of any sign-in. */
static void
token_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Flow *flow = user_data;
  g_autoptr(GError) error = NULL;
  TbOAuthTokens *tokens = _tb_oauth_token_finish (result, &error);

  if (tokens == NULL)
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  flow_signed_in (flow, tokens);
}

static GHashTable *
new_form (const char *grant_type)
{
  GHashTable *form = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) wipe_free);

  g_hash_table_insert (form, g_strdup ("grant_type"), g_strdup (grant_type));
  return form;
}

/* The authorization code grant. */

static void
code_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Flow *flow = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) form = NULL;
  g_autofree char *code = _tb_oauth_loopback_wait_finish (flow->loopback, result, &error);

  if (code == NULL)
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  form = new_form ("authorization_code");
  g_hash_table_insert (form, g_strdup ("code"), g_strdup (code));
  g_hash_table_insert (form, g_strdup ("redirect_uri"),
                       g_strdup (_tb_oauth_loopback_get_redirect_uri (flow->loopback)));
  g_hash_table_insert (form, g_strdup ("code_verifier"), g_strdup (flow->verifier));
  g_hash_table_insert (form, g_strdup ("resource"), g_strdup (flow->resource));
  _tb_oauth_token_async (flow->self->session, flow->server->token_endpoint, flow->server->issuer,
                         flow->client, flow->self->config.key_pem, TB_OAUTH_GRANT_CODE, form,
                         flow->cancellable, token_cb, flow);
}

static void fetch_authorization (Flow       *flow,
                                 const char *url);

static void
fetch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Flow *flow = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbOAuthResponse) response = _tb_oauth_http_finish (SOUP_SESSION (object), result,
                                                               &error);
  g_autoptr(GUri) base = NULL;
  g_autoptr(GUri) target = NULL;
  g_autofree char *location = NULL;

  /* Cancelled: the flow may be gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (response == NULL)
    {
      _tb_oauth_loopback_fail (flow->loopback, g_steal_pointer (&error));
      return;
    }
  if (SOUP_STATUS_IS_REDIRECTION (response->status) && response->location != NULL)
    {
      base = g_uri_parse (response->url, G_URI_FLAGS_ENCODED, NULL);
      target = base != NULL ? g_uri_parse_relative (base, response->location,
                                                    G_URI_FLAGS_ENCODED, NULL) : NULL;
      location = target != NULL ? g_uri_to_string (target) : g_strdup (response->location);
      if (_tb_oauth_loopback_deliver (flow->loopback, location))
        return;
      if (++flow->hops < MAX_AUTHORIZE_HOPS && _tb_oauth_url_is_usable (location, NULL))
        {
          fetch_authorization (flow, location);
          return;
        }
      _tb_oauth_loopback_fail (flow->loopback,
                               g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_INTERACTION,
                                            _("The authorization endpoint redirected %u times "
                                              "without coming back to Toolbench; signing in "
                                              "there needs a browser"), flow->hops));
      return;
    }
  if (SOUP_STATUS_IS_SUCCESSFUL (response->status))
    {
      _tb_oauth_loopback_fail (flow->loopback,
                               g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_INTERACTION,
                                            /* Translators: a URL, an HTTP status, a type */
                                            _("The authorization endpoint shows a page at %s "
                                              "(HTTP %u, %s) instead of sending Toolbench back: "
                                              "signing in there needs a person in a browser"),
                                            response->url, response->status,
                                            response->content_type != NULL
                                              ? response->content_type : "?"));
      return;
    }
  {
    g_autofree char *summary = _tb_oauth_response_summary (response);

    _tb_oauth_loopback_fail (flow->loopback,
                             g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DENIED,
                                          /* Translators: a URL, then what it said */
                                          _("The authorization endpoint %s refused the "
                                            "authorization request: %s"), response->url,
                                          summary));
  }
}

static void
fetch_authorization (Flow       *flow,
                     const char *url)
{
  _tb_oauth_http_async (flow->self->session, SOUP_METHOD_GET, url, NULL, NULL, NULL, FALSE,
                        flow->cancellable, fetch_cb, flow);
}

static void
present (Flow       *flow,
         const char *url)
{
  TbMcpAuth *self = flow->self;
  gboolean handled = FALSE;

  set_authorization_url (self, url);
  g_signal_emit (self, signals [PRESENT_URL], 0, url, &handled);
  if (handled || flow->loopback == NULL)
    return;
  if (self->mode == TB_MCP_AUTH_MODE_FETCH)
    {
      fetch_authorization (flow, url);
      return;
    }
  {
    g_autoptr(GError) error = NULL;

    /* Without a browser the person can still open the URL the handlers of
     * present-url showed; the wait's time limit ends it otherwise. */
    if (!g_app_info_launch_default_for_uri (url, NULL, &error))
      g_debug ("No browser opened the authorization URL: %s", error->message);
  }
}

static char *
authorization_url (Flow *flow)
{
  g_autoptr(GUri) endpoint = g_uri_parse (flow->server->authorization_endpoint,
                                          G_URI_FLAGS_ENCODED, NULL);
  g_autoptr(GString) query = g_string_new (g_uri_get_query (endpoint));
  g_autofree char *challenge = _tb_oauth_pkce_challenge (flow->verifier);
  g_autoptr(GUri) built = NULL;
  const char *params[][2] = {
    { "response_type", "code" },
    { "client_id", flow->client->client_id },
    { "redirect_uri", _tb_oauth_loopback_get_redirect_uri (flow->loopback) },
    { "scope", flow->scope },
    { "state", flow->state },
    { "code_challenge", challenge },
    { "code_challenge_method", "S256" },
    { "resource", flow->resource },
  };

  for (guint i = 0; i < G_N_ELEMENTS (params); i++)
    {
      g_autofree char *value = NULL;

      if (params[i][1] == NULL)
        continue;
      value = g_uri_escape_string (params[i][1], NULL, FALSE);
      if (query->len > 0)
        g_string_append_c (query, '&');
      g_string_append_printf (query, "%s=%s", params[i][0], value);
    }
  built = g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (endpoint),
                       g_uri_get_userinfo (endpoint), g_uri_get_host (endpoint),
                       g_uri_get_port (endpoint), g_uri_get_path (endpoint), query->str, NULL);
  return g_uri_to_string (built);
}

static void
code_registered_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Flow *flow = user_data;
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  flow->client = _tb_oauth_register_finish (result, &error);
  if (flow->client == NULL)
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  flow->state = _tb_oauth_random_string (32);
  flow->verifier = _tb_oauth_random_string (32);
  url = authorization_url (flow);
  _tb_oauth_loopback_wait_async (flow->loopback, flow->state, flow->server->issuer,
                                 flow->server->iss_parameter_supported,
                                 self->redirect_timeout_ms, flow->cancellable, code_cb, flow);
  present (flow, url);
}

static void
start_code_grant (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  const TbOAuthClient *kept = self->credentials != NULL ? self->credentials->client : NULL;

  if (!_tb_oauth_pkce_check_server (flow->server, &error))
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  if (flow->server->authorization_endpoint == NULL)
    {
      flow_finish (flow, g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                                      _("The authorization server metadata at %s names no "
                                        "authorization endpoint"),
                                      flow->server->metadata_url));
      return;
    }
  flow->loopback = _tb_oauth_loopback_new (&error);
  if (flow->loopback == NULL)
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  _tb_oauth_register_async (self->session, flow->server, &self->config, kept,
                            _tb_oauth_loopback_get_redirect_uri (flow->loopback),
                            flow->cancellable, code_registered_cb, flow);
}

/* Grants without a browser: client credentials and identity assertions. */

/* The pre-registered client asks the token endpoint directly, with the
 * scope and resource added to @form. */
static void
request_directly (Flow         *flow,
                  TbOAuthGrant  grant,
                  GHashTable   *form)
{
  TbMcpAuth *self = flow->self;

  flow->client = g_new0 (TbOAuthClient, 1);
  flow->client->client_id = g_strdup (self->config.client_id);
  flow->client->client_secret = g_strdup (self->config.client_secret);
  flow->client->auth_method = _tb_oauth_choose_auth_method (flow->server,
                                                            self->config.client_secret != NULL,
                                                            self->config.key_pem != NULL);
  flow->client->registered_by = g_strdup ("pre-registered");
  flow->client->issuer = g_strdup (flow->server->issuer);
  if (flow->scope != NULL)
    g_hash_table_insert (form, g_strdup ("scope"), g_strdup (flow->scope));
  g_hash_table_insert (form, g_strdup ("resource"), g_strdup (flow->resource));
  _tb_oauth_token_async (self->session, flow->server->token_endpoint, flow->server->issuer,
                         flow->client, self->config.key_pem, grant, form, flow->cancellable,
                         token_cb, flow);
}

static void
start_client_credentials (Flow *flow)
{
  g_autoptr(GHashTable) form = new_form ("client_credentials");

  request_directly (flow, TB_OAUTH_GRANT_CLIENT_CREDENTIALS, form);
}

static void
present_assertion (Flow       *flow,
                   const char *assertion)
{
  g_autoptr(GHashTable) form = new_form ("urn:ietf:params:oauth:grant-type:jwt-bearer");

  g_hash_table_insert (form, g_strdup ("assertion"), g_strdup (assertion));
  request_directly (flow, TB_OAUTH_GRANT_JWT_BEARER, form);
}

static void
assertion_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Flow *flow = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbOAuthTokens) exchanged = _tb_oauth_token_finish (result, &error);

  if (exchanged == NULL)
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  present_assertion (flow, exchanged->access_token);
}

static void
start_identity_assertion (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  g_autoptr(GHashTable) form = new_form ("urn:ietf:params:oauth:grant-type:token-exchange");
  g_autoptr(TbOAuthClient) idp_client = g_new0 (TbOAuthClient, 1);

  idp_client->client_id = g_strdup (self->idp_client_id != NULL ? self->idp_client_id
                                                                : self->config.client_id);
  idp_client->auth_method = g_strdup ("none");
  g_hash_table_insert (form, g_strdup ("requested_token_type"),
                       g_strdup ("urn:ietf:params:oauth:token-type:id-jag"));
  g_hash_table_insert (form, g_strdup ("subject_token"), g_strdup (self->id_token));
  g_hash_table_insert (form, g_strdup ("subject_token_type"),
                       g_strdup ("urn:ietf:params:oauth:token-type:id_token"));
  g_hash_table_insert (form, g_strdup ("audience"), g_strdup (flow->server->issuer));
  g_hash_table_insert (form, g_strdup ("resource"), g_strdup (flow->resource));
  if (flow->scope != NULL)
    g_hash_table_insert (form, g_strdup ("scope"), g_strdup (flow->scope));
  _tb_oauth_token_async (self->session, self->idp_token_endpoint, NULL, idp_client, NULL,
                         TB_OAUTH_GRANT_TOKEN_EXCHANGE, form, flow->cancellable, assertion_cb,
                         flow);
}

/* Choosing the scope and the grant. */

static char *
join_scopes (const char *a,
             const char *b)
{
  g_auto(GStrv) first = g_strsplit_set (a != NULL ? a : "", " ", -1);
  g_auto(GStrv) second = g_strsplit_set (b != NULL ? b : "", " ", -1);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  for (guint i = 0; first[i] != NULL; i++)
    if (*first[i] != '\0' && !g_ptr_array_find_with_equal_func (all, first[i], g_str_equal, NULL))
      g_ptr_array_add (all, first[i]);
  for (guint i = 0; second[i] != NULL; i++)
    if (*second[i] != '\0' && !g_ptr_array_find_with_equal_func (all, second[i], g_str_equal,
                                                                 NULL))
      g_ptr_array_add (all, second[i]);
  if (all->len == 0)
    return NULL;
  g_ptr_array_add (all, NULL);
  return g_strjoinv (" ", (char **) all->pdata);
}

static char *
choose_scope (Flow     *flow,
              gboolean  code_grant)
{
  g_autofree char *scope = NULL;

  if (flow->challenge_scope != NULL)
    scope = g_strdup (flow->challenge_scope);
  else if (flow->resource_metadata != NULL && flow->resource_metadata->scopes_supported != NULL &&
           flow->resource_metadata->scopes_supported[0] != NULL)
    scope = g_strjoinv (" ", flow->resource_metadata->scopes_supported);
  if (scope != NULL && code_grant &&
      _tb_oauth_strv_contains (flow->server->scopes_supported, "offline_access"))
    {
      char *with = join_scopes (scope, "offline_access");

      g_free (scope);
      scope = with;
    }
  return g_steal_pointer (&scope);
}

static void
server_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Flow *flow = user_data;
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  char **grants;

  flow->server = _tb_oauth_discover_server_finish (result, &error);
  if (flow->server == NULL)
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  grants = flow->server->grant_types;
  if (grants == NULL || _tb_oauth_strv_contains (grants, "authorization_code"))
    {
      flow->scope = choose_scope (flow, TRUE);
      start_code_grant (flow);
      return;
    }
  flow->scope = choose_scope (flow, FALSE);
  if (_tb_oauth_strv_contains (grants, "urn:ietf:params:oauth:grant-type:jwt-bearer") &&
      self->id_token != NULL && self->idp_token_endpoint != NULL && self->config.client_id != NULL)
    {
      start_identity_assertion (flow);
      return;
    }
  if (_tb_oauth_strv_contains (grants, "urn:ietf:params:oauth:grant-type:jwt-bearer") &&
      self->assertion != NULL && self->config.client_id != NULL)
    {
      present_assertion (flow, self->assertion);
      return;
    }
  if (_tb_oauth_strv_contains (grants, "client_credentials") && self->config.client_id != NULL &&
      (self->config.client_secret != NULL || self->config.key_pem != NULL))
    {
      start_client_credentials (flow);
      return;
    }
  {
    g_autofree char *offered = g_strjoinv (", ", grants);

    flow_finish (flow, g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_UNSUPPORTED,
                                    /* Translators: an issuer, then grant types */
                                    _("The authorization server %s offers no grant Toolbench "
                                      "can use with what it was given (it offers %s; client "
                                      "credentials need a client ID with a secret or key, JWT "
                                      "assertions a client ID with an ID token or assertion)"),
                                    flow->server->issuer, offered));
  }
}

static void
resource_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Flow *flow = user_data;
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *origin = NULL;

  flow->resource_metadata = _tb_oauth_discover_resource_finish (result, &error);
  if (error != NULL)
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  if (flow->resource_metadata != NULL)
    {
      flow->resource = g_strdup (flow->resource_metadata->resource);
      _tb_oauth_discover_server_async (self->session,
                                       flow->resource_metadata->authorization_servers[0], FALSE,
                                       flow->cancellable, server_cb, flow);
      return;
    }
  /* A 2025-03-26 server: its origin is its authorization server. */
  flow->resource = _tb_oauth_canonical_resource (self->server_url);
  origin = _tb_oauth_origin (self->server_url);
  _tb_oauth_discover_server_async (self->session, origin, TRUE, flow->cancellable, server_cb,
                                   flow);
}

static void
flow_sign_in (Flow *flow)
{
  TbMcpAuth *self = flow->self;

  set_state (self, TB_MCP_AUTH_STATE_SIGNING_IN);
  _tb_oauth_discover_resource_async (self->session, self->server_url, flow->metadata_url,
                                     flow->cancellable, resource_cb, flow);
}

/* Refreshing. */

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Flow *flow = user_data;
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbOAuthTokens) tokens = _tb_oauth_token_finish (result, &error);
  TbOAuthCredentials *credentials;

  if (tokens == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          !g_error_matches (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_TOKEN))
        {
          flow_finish (flow, g_steal_pointer (&error));
          return;
        }
      /* An expired or revoked refresh token: sign in instead. */
      g_debug ("Signing in to %s again: %s", self->server_name, error->message);
      flow->refresh_problem = g_strdup (error->message);
      flow_sign_in (flow);
      return;
    }

  credentials = g_new0 (TbOAuthCredentials, 1);
  credentials->resource = g_strdup (self->credentials->resource);
  credentials->token_endpoint = g_strdup (self->credentials->token_endpoint);
  credentials->client = _tb_oauth_client_copy (self->credentials->client);
  credentials->account = _tb_oauth_account_from_tokens (tokens);
  if (credentials->account == NULL)
    credentials->account = g_strdup (self->credentials->account);
  if (tokens->refresh_token == NULL)
    tokens->refresh_token = g_strdup (self->credentials->tokens->refresh_token);
  if (tokens->scope == NULL)
    tokens->scope = g_strdup (self->credentials->tokens->scope);
  g_clear_pointer (&tokens->id_token, g_free);
  credentials->tokens = g_steal_pointer (&tokens);
  flow_keep (flow, credentials);
}

static void
flow_refresh (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  TbOAuthCredentials *kept = self->credentials;
  g_autoptr(GHashTable) form = new_form ("refresh_token");
  g_autoptr(TbOAuthClient) client = _tb_oauth_client_copy (kept->client);

  /* A pre-registered client's secret is not kept: it comes from the
   * settings each time. */
  if (g_strcmp0 (client->registered_by, "pre-registered") == 0 &&
      g_strcmp0 (client->client_id, self->config.client_id) == 0)
    {
      g_free (client->client_secret);
      client->client_secret = g_strdup (self->config.client_secret);
    }
  g_hash_table_insert (form, g_strdup ("refresh_token"), g_strdup (kept->tokens->refresh_token));
  if (kept->resource != NULL)
    g_hash_table_insert (form, g_strdup ("resource"), g_strdup (kept->resource));
  set_state (self, TB_MCP_AUTH_STATE_SIGNING_IN);
  _tb_oauth_token_async (self->session, kept->token_endpoint, client->issuer, client,
                         self->config.key_pem, TB_OAUTH_GRANT_REFRESH, form, flow->cancellable,
                         refresh_cb, flow);
}

/* What to do, once what is kept is known. */

static gboolean
expired (TbOAuthTokens *tokens)
{
  return tokens->expires_at > 0 &&
         tokens->expires_at <= g_get_real_time () / G_USEC_PER_SEC + EXPIRY_MARGIN_S;
}

static void
flow_decide (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  TbOAuthCredentials *kept = self->credentials;

  if (flow->force_sign_in || kept == NULL || kept->tokens == NULL)
    {
      flow_sign_in (flow);
      return;
    }
  /* A token the request did not carry, still valid: send it. */
  if (flow->serial_used != self->serial && !expired (kept->tokens))
    {
      flow_finish (flow, NULL);
      return;
    }
  if (kept->tokens->refresh_token != NULL && kept->token_endpoint != NULL &&
      kept->client != NULL)
    {
      flow_refresh (flow);
      return;
    }
  flow_sign_in (flow);
}

/* What the store kept for this server (@text, wiped here), unless it was
 * loaded already. */
static void
take_kept (TbMcpAuth *self,
           char      *text)
{
  if (!self->loaded)
    {
      TbOAuthCredentials *credentials = _tb_oauth_credentials_from_text (text);

      self->loaded = TRUE;
      if (credentials != NULL)
        set_credentials (self, credentials);
    }
  if (text != NULL)
    memset (text, 0, strlen (text));
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Flow *flow = user_data;
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = tb_secret_store_fetch_finish (TB_SECRET_STORE (object), result, &error);

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  take_kept (self, text);
  flow_decide (flow);
}

static void
flow_start (Flow *flow)
{
  TbMcpAuth *self = flow->self;

  if (!self->loaded)
    {
      tb_secret_store_fetch_async (self->store, TB_SECRET_KIND_MCP_AUTHORIZATION,
                                   self->server_name, self->server_url, flow->cancellable,
                                   load_cb, flow);
      return;
    }
  flow_decide (flow);
}

/* For the transport. */

/**
 * _tb_mcp_auth_apply:
 * @message: a request to the MCP server
 *
 * Puts the access token on @message.
 *
 * Returns: which token went, for _tb_mcp_auth_challenge_async(); 0 for none
 */
guint
_tb_mcp_auth_apply (TbMcpAuth   *self,
                    SoupMessage *message)
{
  g_autofree char *value = NULL;

  if (!has_token (self))
    return 0;
  value = g_strconcat ("Bearer ", self->credentials->tokens->access_token, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization",
                                value);
  memset (value, 0, strlen (value));
  return self->serial;
}

static gboolean
return_true_idle (gpointer user_data)
{
  g_autoptr(GTask) task = user_data;

  g_task_return_boolean (task, TRUE);
  return G_SOURCE_REMOVE;
}

/* Fails the request, and says why in #TbMcpAuth:error too. */
static void
refuse (TbMcpAuth *self,
        GTask     *task,
        GError    *error)
{
  set_error (self, error->message);
  g_task_return_error (task, error);
}

static char *
challenge_said (TbOAuthChallenge *bearer)
{
  const char *error = _tb_oauth_challenge_get (bearer, "error");
  const char *description = _tb_oauth_challenge_get (bearer, "error_description");
  g_autofree char *shown_error = NULL;
  g_autofree char *shown_description = NULL;

  if (error == NULL && description == NULL)
    return g_strdup ("");
  shown_error = _tb_oauth_shown (error != NULL ? error : "", 100);
  shown_description = _tb_oauth_shown (description != NULL ? description : "", 300);
  if (description == NULL)
    return g_strdup_printf (", %s", shown_error);
  if (error == NULL)
    return g_strdup_printf (", %s", shown_description);
  return g_strdup_printf (", %s: %s", shown_error, shown_description);
}

/**
 * _tb_mcp_auth_challenge_async:
 * @status: 401 or 403
 * @www_authenticate: (nullable): the answer's WWW-Authenticate
 * @serial_used: what _tb_mcp_auth_apply() returned for the request
 * @rounds: how many times this request went through here already
 *
 * Gets a token the request can go again with: the one kept, a refreshed
 * one, or a new sign-in (with more scope after a 403). A flow under way is
 * joined rather than started twice.
 */
void
_tb_mcp_auth_challenge_async (TbMcpAuth           *self,
                              guint                status,
                              const char          *www_authenticate,
                              guint                serial_used,
                              guint                rounds,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GPtrArray) challenges = _tb_oauth_parse_www_authenticate (www_authenticate);
  TbOAuthChallenge *bearer = _tb_oauth_find_bearer (challenges);
  const char *scope = _tb_oauth_challenge_get (bearer, "scope");
  const char *error = _tb_oauth_challenge_get (bearer, "error");
  g_autofree char *said = challenge_said (bearer);
  gboolean step_up = status == SOUP_STATUS_FORBIDDEN;
  Flow *flow;

  g_task_set_source_tag (task, _tb_mcp_auth_challenge_async);

  if (step_up && g_strcmp0 (error, "insufficient_scope") != 0)
    {
      /* Not about the token: the server refuses, and says why. */
      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REFUSED,
                               /* Translators: a server name, then what it said */
                               _("The MCP server “%s” refused the request (HTTP 403%s)"),
                               self->server_name, said);
      return;
    }
  if (step_up && rounds >= TB_OAUTH_MAX_ROUNDS)
    {
      refuse (self, task,
              g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REFUSED,
                           /* Translators: a server name, a scope, a number, what it said */
                           _("The MCP server “%s” still asks for the scope “%s” after %u "
                             "sign-ins, so Toolbench stopped signing in (HTTP 403%s)"),
                           self->server_name, scope != NULL ? scope : "", rounds, said));
      return;
    }
  if (!step_up && rounds >= TB_OAUTH_MAX_UNAUTHORIZED_ROUNDS)
    {
      refuse (self, task,
              g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REFUSED,
                           /* Translators: a server name, a number, what it said */
                           _("The MCP server “%s” refused the request %u times although "
                             "Toolbench got a new token each time, so it stopped (HTTP 401%s); "
                             "the server may not accept the tokens of the authorization server "
                             "it names"), self->server_name, rounds + 1, said));
      return;
    }

  /* Someone else got a new token meanwhile: go again with it. */
  if (!step_up && self->loaded && has_token (self) && serial_used != self->serial)
    {
      g_idle_add_full (G_PRIORITY_DEFAULT, return_true_idle, g_steal_pointer (&task), NULL);
      return;
    }

  if (self->flow != NULL)
    {
      flow_add_waiter (self->flow, task);
      return;
    }

  flow = flow_new (self);
  self->flow = flow;
  flow->serial_used = serial_used;
  flow->metadata_url = g_strdup (_tb_oauth_challenge_get (bearer, "resource_metadata"));
  flow->force_sign_in = step_up;
  if (step_up)
    flow->challenge_scope = join_scopes (has_token (self) ? self->credentials->tokens->scope
                                                          : NULL, scope);
  else
    flow->challenge_scope = g_strdup (scope);
  flow_add_waiter (flow, task);
  flow_start (flow);
}

gboolean
_tb_mcp_auth_challenge_finish (TbMcpAuth     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
  wipe_free (*slot);
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

  if (!has_token (self))
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

  return has_token (self) ? self->credentials->tokens->scope : NULL;
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
  take_kept (self, text);
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
      flow_add_waiter (self->flow, task);
      return;
    }
  flow = flow_new (self);
  self->flow = flow;
  flow->explicit = TRUE;
  flow->force_sign_in = TRUE;
  flow_add_waiter (flow, task);
  flow_start (flow);
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
  g_autoptr(GError) error = NULL;
  gboolean removed = FALSE;

  if (!tb_secret_store_forget_finish (TB_SECRET_STORE (object), result, &removed, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_int (task, removed);
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
  set_credentials (self, NULL);
  set_error (self, NULL);
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
  gssize value;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  value = g_task_propagate_int (G_TASK (result), error);
  if (removed != NULL)
    *removed = value > 0;
  return value >= 0;
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
  wipe_free (self->config.client_id);
  wipe_free (self->config.client_secret);
  wipe_free (self->config.metadata_url);
  wipe_free (self->config.key_pem);
  wipe_free (self->idp_token_endpoint);
  wipe_free (self->idp_client_id);
  wipe_free (self->id_token);
  wipe_free (self->assertion);
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
    g_param_spec_string ("server-name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpAuth:server-url:
   *
   * The server's MCP endpoint, where discovery starts. Construct-only.
   */
  properties [PROP_SERVER_URL] =
    g_param_spec_string ("server-url", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpAuth:mode:
   *
   * How the authorization URL is followed when no handler of
   * #TbMcpAuth::present-url takes it.
   */
  properties [PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL, TB_TYPE_MCP_AUTH_MODE, TB_MCP_AUTH_MODE_BROWSER,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpAuth:state:
   *
   * Whether a sign-in is kept, under way or absent.
   */
  properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TB_TYPE_MCP_AUTH_STATE, TB_MCP_AUTH_STATE_SIGNED_OUT,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpAuth:account:
   *
   * Who is signed in; see tb_mcp_auth_get_account().
   */
  properties [PROP_ACCOUNT] =
    g_param_spec_string ("account", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpAuth:scope:
   *
   * The scope the authorization server granted, or %NULL when signed out.
   */
  properties [PROP_SCOPE] =
    g_param_spec_string ("scope", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpAuth:authorization-url:
   *
   * While a sign-in waits for a person, the URL they open in a browser;
   * %NULL otherwise.
   */
  properties [PROP_AUTHORIZATION_URL] =
    g_param_spec_string ("authorization-url", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpAuth:error:
   *
   * Why the last sign-in failed, a sentence naming the step; %NULL after a
   * sign-in that worked.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
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
  signals [PRESENT_URL] =
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
