/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-mcp-auth-private.h"

/* The authorization code grant: the client registered for the redirect to
 * the listener on 127.0.0.1, the authorization URL with PKCE and `state`,
 * shown to a person or fetched without a browser, and the code that comes
 * back exchanged for tokens. */

#define MAX_AUTHORIZE_HOPS 5

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
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  form = _tb_mcp_auth_new_form ("authorization_code");
  g_hash_table_insert (form, g_strdup ("code"), g_strdup (code));
  g_hash_table_insert (form, g_strdup ("redirect_uri"),
                       g_strdup (_tb_oauth_loopback_get_redirect_uri (flow->loopback)));
  g_hash_table_insert (form, g_strdup ("code_verifier"), g_strdup (flow->verifier));
  g_hash_table_insert (form, g_strdup ("resource"), g_strdup (flow->resource));
  _tb_oauth_token_async (flow->self->session, flow->server->token_endpoint, flow->server->issuer,
                         flow->client, flow->self->config.key_pem, TB_OAUTH_GRANT_CODE, form,
                         flow->cancellable, _tb_mcp_auth_flow_token_cb, flow);
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

  _tb_mcp_auth_set_authorization_url (self, url);
  g_signal_emit (self, _tb_mcp_auth_signals [TB_MCP_AUTH_PRESENT_URL], 0, url, &handled);
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
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
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

void
_tb_mcp_auth_flow_start_code_grant (Flow *flow)
{
  TbMcpAuth *self = flow->self;
  g_autoptr(GError) error = NULL;
  const TbOAuthClient *kept = self->credentials != NULL ? self->credentials->client : NULL;

  if (!_tb_oauth_pkce_check_server (flow->server, &error))
    {
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  if (flow->server->authorization_endpoint == NULL)
    {
      error = g_error_new (TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                           _("The authorization server metadata at %s names no "
                             "authorization endpoint"),
                           flow->server->metadata_url);
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  flow->loopback = _tb_oauth_loopback_new (&error);
  if (flow->loopback == NULL)
    {
      _tb_mcp_auth_flow_finish (flow, g_steal_pointer (&error));
      return;
    }
  _tb_oauth_register_async (self->session, flow->server, &self->config, kept,
                            _tb_oauth_loopback_get_redirect_uri (flow->loopback),
                            flow->cancellable, code_registered_cb, flow);
}
