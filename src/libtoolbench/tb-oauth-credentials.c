/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <string.h>

#include "tb-json.h"
#include "tb-oauth-private.h"

/* What a sign-in leaves in the keyring, one secret per server (its name and
 * URL are the secret's attributes): a JSON object with the access token,
 * its type and expiry, the refresh token, the granted scope, the account
 * shown as "signed in as", the resource and token endpoint the tokens are
 * for, and the client (the ID and secret of a dynamic registration; a
 * pre-registered client's secret is not kept, the person gives it each
 * time). An ID token is read for the account and not kept. */

#define FORMAT "toolbench-mcp-authorization"
#define VERSION 1

void
_tb_oauth_credentials_free (TbOAuthCredentials *credentials)
{
  if (credentials == NULL)
    return;
  g_free (credentials->resource);
  g_free (credentials->token_endpoint);
  _tb_oauth_client_free (credentials->client);
  _tb_oauth_tokens_free (credentials->tokens);
  g_free (credentials->account);
  g_free (credentials);
}

static void
set_string (JsonObject *object,
            const char *member,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
}

/**
 * _tb_oauth_credentials_to_text:
 *
 * Returns: (transfer full): the secret to keep
 */
char *
_tb_oauth_credentials_to_text (const TbOAuthCredentials *credentials)
{
  JsonObject *object = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  json_object_set_string_member (object, "format", FORMAT);
  json_object_set_int_member (object, "version", VERSION);
  set_string (object, "resource", credentials->resource);
  set_string (object, "token_endpoint", credentials->token_endpoint);
  set_string (object, "account", credentials->account);
  if (credentials->client != NULL)
    {
      JsonObject *client = json_object_new ();
      gboolean keep_secret = g_strcmp0 (credentials->client->registered_by,
                                        "pre-registered") != 0;

      set_string (client, "client_id", credentials->client->client_id);
      if (keep_secret)
        set_string (client, "client_secret", credentials->client->client_secret);
      set_string (client, "auth_method", credentials->client->auth_method);
      set_string (client, "registered_by", credentials->client->registered_by);
      set_string (client, "issuer", credentials->client->issuer);
      json_object_set_object_member (object, "client", client);
    }
  if (credentials->tokens != NULL)
    {
      set_string (object, "access_token", credentials->tokens->access_token);
      set_string (object, "token_type", credentials->tokens->token_type);
      set_string (object, "refresh_token", credentials->tokens->refresh_token);
      set_string (object, "scope", credentials->tokens->scope);
      if (credentials->tokens->expires_at > 0)
        json_object_set_int_member (object, "expires_at", credentials->tokens->expires_at);
    }
  node = tb_json_node_take_object (object);
  return tb_json_to_string (node, FALSE);
}

/**
 * _tb_oauth_credentials_from_text:
 * @text: (nullable): a kept secret
 *
 * Returns: (transfer full) (nullable): what it holds; %NULL when it is not
 *   something this version wrote (it is then treated as absent)
 */
TbOAuthCredentials *
_tb_oauth_credentials_from_text (const char *text)
{
  g_autoptr(JsonNode) node = text != NULL ? tb_json_parse (text, -1, NULL) : NULL;
  g_autoptr(TbOAuthCredentials) credentials = NULL;
  JsonObject *object;
  JsonObject *client;
  const char *access_token;
  gint64 expires_at = 0;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  if (g_strcmp0 (tb_json_object_get_string (object, "format"), FORMAT) != 0)
    return NULL;

  credentials = g_new0 (TbOAuthCredentials, 1);
  credentials->resource = g_strdup (tb_json_object_get_string (object, "resource"));
  credentials->token_endpoint = g_strdup (tb_json_object_get_string (object, "token_endpoint"));
  credentials->account = g_strdup (tb_json_object_get_string (object, "account"));
  client = tb_json_object_get_object (object, "client");
  if (client != NULL && tb_json_object_get_string (client, "client_id") != NULL)
    {
      credentials->client = g_new0 (TbOAuthClient, 1);
      credentials->client->client_id = g_strdup (tb_json_object_get_string (client, "client_id"));
      credentials->client->client_secret =
        g_strdup (tb_json_object_get_string (client, "client_secret"));
      credentials->client->auth_method =
        g_strdup (tb_json_object_get_string (client, "auth_method") ?: "none");
      credentials->client->registered_by =
        g_strdup (tb_json_object_get_string (client, "registered_by"));
      credentials->client->issuer = g_strdup (tb_json_object_get_string (client, "issuer"));
    }
  access_token = tb_json_object_get_string (object, "access_token");
  if (access_token != NULL && *access_token != '\0')
    {
      credentials->tokens = g_new0 (TbOAuthTokens, 1);
      credentials->tokens->access_token = g_strdup (access_token);
      credentials->tokens->token_type =
        g_strdup (tb_json_object_get_string (object, "token_type") ?: "Bearer");
      credentials->tokens->refresh_token =
        g_strdup (tb_json_object_get_string (object, "refresh_token"));
      credentials->tokens->scope = g_strdup (tb_json_object_get_string (object, "scope"));
      if (tb_json_object_get_int_in_range (object, "expires_at", 0, G_MAXINT64, &expires_at,
                                           NULL))
        credentials->tokens->expires_at = expires_at;
    }
  return g_steal_pointer (&credentials);
}

/**
 * _tb_oauth_account_from_tokens:
 *
 * Returns: (transfer full) (nullable): who signed in, from the claims of
 *   the ID token (email, preferred_username, name, then sub)
 */
char *
_tb_oauth_account_from_tokens (const TbOAuthTokens *tokens)
{
  static const char * const claims[] = { "email", "preferred_username", "name", "sub" };
  g_autoptr(JsonObject) object = NULL;

  if (tokens == NULL || tokens->id_token == NULL)
    return NULL;
  object = _tb_oauth_jwt_claims (tokens->id_token);
  if (object == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (claims); i++)
    {
      const char *value = tb_json_object_get_string (object, claims[i]);

      if (value != NULL && *value != '\0')
        return _tb_oauth_shown (value, 200);
    }
  return NULL;
}
