/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-mcp-auth-private.h"

/* Signing in anew: the resource's metadata and its authorization server
 * discovered, the scope chosen, and the grant the server offers: the
 * authorization code (tb-mcp-auth-code.c), or, without a browser, client
 * credentials and identity assertions. */

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
                         _tb_mcp_auth_flow_token_cb, flow);
}

static void
start_client_credentials (Flow *flow)
{
  g_autoptr(GHashTable) form = _tb_mcp_auth_new_form ("client_credentials");

  request_directly (flow, TB_OAUTH_GRANT_CLIENT_CREDENTIALS, form);
}

static void
present_assertion (Flow       *flow,
                   const char *assertion)
{
  g_autoptr(GHashTable) form =
    _tb_mcp_auth_new_form ("urn:ietf:params:oauth:grant-type:jwt-bearer");

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
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  present_assertion (flow, exchanged->access_token);
}

static void
start_identity_assertion (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  g_autoptr(GHashTable) form =
    _tb_mcp_auth_new_form ("urn:ietf:params:oauth:grant-type:token-exchange");
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

char *
_tb_mcp_auth_join_scopes (const char *a,
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
      char *with = _tb_mcp_auth_join_scopes (scope, "offline_access");

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
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  grants = flow->server->grant_types;
  if (grants == NULL || _tb_oauth_strv_contains (grants, "authorization_code"))
    {
      flow->scope = choose_scope (flow, TRUE);
      _tb_mcp_auth_flow_start_code_grant (flow);
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

    error = g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_UNSUPPORTED,
                         /* Translators: an issuer, then grant types */
                         _("The authorization server %s offers no grant Toolbench "
                           "can use with what it was given (it offers %s; client "
                           "credentials need a client ID with a secret or key, JWT "
                           "assertions a client ID with an ID token or assertion)"),
                         flow->server->issuer, offered);
    _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
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
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
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

void
_tb_mcp_auth_flow_sign_in (Flow *flow)
{
  TbMcpAuth *self = flow->self;

  _tb_mcp_auth_set_state (self, TB_MCP_AUTH_STATE_SIGNING_IN);
  _tb_oauth_discover_resource_async (self->session, self->server_url, flow->metadata_url,
                                     flow->cancellable, resource_cb, flow);
}
