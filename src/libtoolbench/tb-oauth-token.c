/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-oauth-private.h"

/* Token requests (OAuth 2.1 §3.2): the authorization code with its PKCE
 * verifier, a refresh token, client credentials, an identity assertion
 * (RFC 7523) or a token exchange (RFC 8693). The caller puts the grant's
 * own parameters, `resource` (RFC 8707) among them, in the form; the client
 * authenticates as it was registered to: client_secret_basic (the ID and
 * secret form-encoded, then base64, RFC 6749 §2.3.1), client_secret_post,
 * private_key_jwt (a signed assertion whose audience is the authorization
 * server's issuer) or none (the client ID alone). */

#define MAX_LIFETIME_S (10 * 365 * 24 * 3600)

void
_tb_oauth_tokens_free (TbOAuthTokens *tokens)
{
  if (tokens == NULL)
    return;
  if (tokens->access_token != NULL)
    memset (tokens->access_token, 0, strlen (tokens->access_token));
  if (tokens->refresh_token != NULL)
    memset (tokens->refresh_token, 0, strlen (tokens->refresh_token));
  g_free (tokens->access_token);
  g_free (tokens->token_type);
  g_free (tokens->refresh_token);
  g_free (tokens->scope);
  g_free (tokens->id_token);
  g_free (tokens);
}

typedef struct
{
  char         *endpoint;
  TbOAuthGrant  grant;
} TokenRequest;

static void
token_request_free (gpointer data)
{
  TokenRequest *request = data;

  g_free (request->endpoint);
  g_free (request);
}

static char *
refusal (TbOAuthGrant  grant,
         const char   *endpoint,
         const char   *said)
{
  switch (grant)
    {
    case TB_OAUTH_GRANT_CODE:
      /* Translators: a URL, then what the server said */
      return g_strdup_printf (_("The token endpoint %s refused the code: %s"), endpoint, said);
    case TB_OAUTH_GRANT_REFRESH:
      return g_strdup_printf (_("The token endpoint %s refused the refresh token: %s"), endpoint,
                              said);
    case TB_OAUTH_GRANT_CLIENT_CREDENTIALS:
      return g_strdup_printf (_("The token endpoint %s refused the client credentials: %s"),
                              endpoint, said);
    case TB_OAUTH_GRANT_JWT_BEARER:
      return g_strdup_printf (_("The token endpoint %s refused the identity assertion: %s"),
                              endpoint, said);
    case TB_OAUTH_GRANT_TOKEN_EXCHANGE:
    default:
      return g_strdup_printf (_("The identity provider's token endpoint %s refused to exchange "
                                "the ID token: %s"), endpoint, said);
    }
}

static void
token_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TokenRequest *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbOAuthResponse) response = NULL;
  g_autoptr(TbOAuthTokens) tokens = NULL;
  JsonObject *answer;
  const char *access_token;
  const char *token_type;
  JsonNode *expires_in;

  response = _tb_oauth_http_finish (SOUP_SESSION (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  answer = _tb_oauth_response_object (response);
  if (!SOUP_STATUS_IS_SUCCESSFUL (response->status))
    {
      g_autofree char *summary = _tb_oauth_response_summary (response);
      g_autofree char *text = refusal (request->grant, request->endpoint, summary);

      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_TOKEN, "%s", text);
      return;
    }
  if (answer == NULL)
    {
      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_TOKEN,
                               _("The token endpoint %s answered with something that is not "
                                 "JSON (%s)"), request->endpoint,
                               response->json_problem != NULL ? response->json_problem
                                                              : _("it is not an object"));
      return;
    }
  access_token = tb_json_object_get_string (answer, "access_token");
  if (access_token == NULL || *access_token == '\0')
    {
      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_TOKEN,
                               _("The token endpoint %s answered without an access_token"),
                               request->endpoint);
      return;
    }
  token_type = tb_json_object_get_string (answer, "token_type");
  if (request->grant != TB_OAUTH_GRANT_TOKEN_EXCHANGE && token_type != NULL &&
      g_ascii_strcasecmp (token_type, "Bearer") != 0)
    {
      g_autofree char *shown = _tb_oauth_shown (token_type, 40);

      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_TOKEN,
                               _("The token endpoint %s gave a token of type “%s”; Toolbench "
                                 "sends only bearer tokens"), request->endpoint, shown);
      return;
    }

  tokens = g_new0 (TbOAuthTokens, 1);
  tokens->access_token = g_strdup (access_token);
  tokens->token_type = g_strdup (token_type != NULL ? token_type : "Bearer");
  tokens->refresh_token = g_strdup (tb_json_object_get_string (answer, "refresh_token"));
  tokens->scope = g_strdup (tb_json_object_get_string (answer, "scope"));
  tokens->id_token = g_strdup (tb_json_object_get_string (answer, "id_token"));
  expires_in = json_object_get_member (answer, "expires_in");
  if (expires_in != NULL && JSON_NODE_HOLDS_VALUE (expires_in) &&
      (json_node_get_value_type (expires_in) == G_TYPE_INT64 ||
       json_node_get_value_type (expires_in) == G_TYPE_DOUBLE))
    {
      double seconds = json_node_get_double (expires_in);

      if (seconds > 0)
        tokens->expires_at = g_get_real_time () / G_USEC_PER_SEC + (gint64) MIN (seconds,
                                                                                MAX_LIFETIME_S);
    }
  g_task_return_pointer (task, g_steal_pointer (&tokens), (GDestroyNotify) _tb_oauth_tokens_free);
}

static char *
basic_credentials (const TbOAuthClient *client)
{
  g_autofree char *id = g_uri_escape_string (client->client_id, NULL, FALSE);
  g_autofree char *secret = g_uri_escape_string (client->client_secret ?: "", NULL, FALSE);
  g_autofree char *pair = g_strconcat (id, ":", secret, NULL);
  g_autofree char *encoded = g_base64_encode ((const guchar *) pair, strlen (pair));

  memset (pair, 0, strlen (pair));
  return g_strconcat ("Basic ", encoded, NULL);
}

static char *
client_assertion (const TbOAuthClient  *client,
                  const char           *audience,
                  const char           *key_pem,
                  GError              **error)
{
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autofree char *jti = _tb_oauth_random_string (16);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  json_object_set_string_member (claims, "iss", client->client_id);
  json_object_set_string_member (claims, "sub", client->client_id);
  json_object_set_string_member (claims, "aud", audience);
  json_object_set_int_member (claims, "iat", now);
  json_object_set_int_member (claims, "exp", now + 300);
  json_object_set_string_member (claims, "jti", jti);
  return _tb_oauth_jwt_sign (key_pem, claims, error);
}

/**
 * _tb_oauth_token_async:
 * @token_endpoint: where
 * @audience: the authorization server's issuer, the audience of a client
 *   assertion
 * @client: who asks
 * @key_pem: (nullable): the key of a private_key_jwt client
 * @grant: what for, for the message when it is refused
 * @form: the grant's parameters; the client's are added
 *
 * One token request.
 */
void
_tb_oauth_token_async (SoupSession         *session,
                       const char          *token_endpoint,
                       const char          *audience,
                       const TbOAuthClient *client,
                       const char          *key_pem,
                       TbOAuthGrant         grant,
                       GHashTable          *form,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  TokenRequest *request = g_new0 (TokenRequest, 1);
  g_autofree char *authorization = NULL;
  g_autofree char *assertion = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  char *text;

  g_task_set_source_tag (task, _tb_oauth_token_async);
  g_task_set_task_data (task, request, token_request_free);
  request->endpoint = g_strdup (token_endpoint);
  request->grant = grant;

  if (g_strcmp0 (client->auth_method, "client_secret_basic") == 0)
    authorization = basic_credentials (client);
  else if (g_strcmp0 (client->auth_method, "client_secret_post") == 0)
    {
      g_hash_table_replace (form, g_strdup ("client_id"), g_strdup (client->client_id));
      g_hash_table_replace (form, g_strdup ("client_secret"),
                            g_strdup (client->client_secret ?: ""));
    }
  else if (g_strcmp0 (client->auth_method, "private_key_jwt") == 0)
    {
      assertion = client_assertion (client, audience, key_pem, &error);
      if (assertion == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_hash_table_replace (form, g_strdup ("client_assertion_type"),
                            g_strdup ("urn:ietf:params:oauth:client-assertion-type:jwt-bearer"));
      g_hash_table_replace (form, g_strdup ("client_assertion"), g_strdup (assertion));
    }
  else
    g_hash_table_replace (form, g_strdup ("client_id"), g_strdup (client->client_id));

  text = soup_form_encode_hash (form);
  body = g_bytes_new_take (text, strlen (text));
  _tb_oauth_http_async (session, SOUP_METHOD_POST, token_endpoint,
                        "application/x-www-form-urlencoded", body, authorization, FALSE,
                        cancellable, token_cb, g_steal_pointer (&task));
  if (authorization != NULL)
    memset (authorization, 0, strlen (authorization));
}

/**
 * _tb_oauth_token_finish:
 *
 * Returns: (transfer full): the tokens
 */
TbOAuthTokens *
_tb_oauth_token_finish (GAsyncResult  *result,
                        GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
