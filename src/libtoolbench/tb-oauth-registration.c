/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-oauth-private.h"

/* Which client Toolbench is at the authorization server, in the order the
 * MCP specification gives: a pre-registered client ID (and secret) when
 * the person gave one; the URL of a client ID metadata document when the
 * server supports them (`client_id_metadata_document_supported`) and one
 * is configured; a registration kept from an earlier sign-in with the same
 * authorization server; dynamic client registration (RFC 7591) at the
 * server's registration endpoint. How the client authenticates at the
 * token endpoint comes from the registration's answer, else from what the
 * server's metadata supports. */

void
_tb_oauth_client_free (TbOAuthClient *client)
{
  if (client == NULL)
    return;
  g_free (client->client_id);
  if (client->client_secret != NULL)
    memset (client->client_secret, 0, strlen (client->client_secret));
  g_free (client->client_secret);
  g_free (client->auth_method);
  g_free (client->registered_by);
  g_free (client->issuer);
  g_free (client);
}

TbOAuthClient *
_tb_oauth_client_copy (const TbOAuthClient *client)
{
  TbOAuthClient *copy;

  if (client == NULL)
    return NULL;
  copy = g_new0 (TbOAuthClient, 1);
  copy->client_id = g_strdup (client->client_id);
  copy->client_secret = g_strdup (client->client_secret);
  copy->auth_method = g_strdup (client->auth_method);
  copy->registered_by = g_strdup (client->registered_by);
  copy->issuer = g_strdup (client->issuer);
  return copy;
}

static gboolean
supports (TbOAuthServerMetadata *metadata,
          const char            *method)
{
  /* RFC 8414 §2: without the member, client_secret_basic is the default. */
  if (metadata->token_endpoint_auth_methods == NULL)
    return g_str_equal (method, "client_secret_basic");
  return _tb_oauth_strv_contains (metadata->token_endpoint_auth_methods, method);
}

/**
 * _tb_oauth_choose_auth_method:
 *
 * Returns: (transfer full): how a client with what it has authenticates
 *   at the token endpoint of this server
 */
char *
_tb_oauth_choose_auth_method (TbOAuthServerMetadata *metadata,
                              gboolean               has_secret,
                              gboolean               has_key)
{
  if (has_key && supports (metadata, "private_key_jwt"))
    return g_strdup ("private_key_jwt");
  if (has_secret)
    {
      if (supports (metadata, "client_secret_basic"))
        return g_strdup ("client_secret_basic");
      if (supports (metadata, "client_secret_post"))
        return g_strdup ("client_secret_post");
      return g_strdup ("client_secret_basic");
    }
  return g_strdup ("none");
}

/* The method to ask for in a registration: none (a native app keeps no
 * secret well) when the server takes it, else what it takes. */
static const char *
method_to_request (TbOAuthServerMetadata *metadata)
{
  static const char * const preferred[] = {
    "none", "client_secret_basic", "client_secret_post",
  };

  if (metadata->token_endpoint_auth_methods == NULL)
    return "none";
  for (guint i = 0; i < G_N_ELEMENTS (preferred); i++)
    if (_tb_oauth_strv_contains (metadata->token_endpoint_auth_methods, preferred[i]))
      return preferred[i];
  return "none";
}

typedef struct
{
  TbOAuthServerMetadata *metadata;
  char                  *endpoint;
} Registration;

static void
registration_free (gpointer data)
{
  Registration *r = data;

  g_free (r->endpoint);
  g_free (r);
}

static void
register_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Registration *r = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbOAuthResponse) response = NULL;
  g_autoptr(TbOAuthClient) client = NULL;
  JsonObject *answer;
  const char *client_id;
  const char *method;

  response = _tb_oauth_http_finish (SOUP_SESSION (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (response->status))
    {
      g_autofree char *summary = _tb_oauth_response_summary (response);

      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REGISTRATION,
                               /* Translators: a URL, then what the server said */
                               _("The registration endpoint %s refused to register Toolbench: "
                                 "%s"), r->endpoint, summary);
      return;
    }
  answer = _tb_oauth_response_object (response);
  if (answer == NULL)
    {
      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REGISTRATION,
                               _("The registration endpoint %s answered with something that is "
                                 "not JSON (%s)"), r->endpoint,
                               response->json_problem != NULL ? response->json_problem
                                                              : _("it is not an object"));
      return;
    }
  client_id = tb_json_object_get_string (answer, "client_id");
  if (client_id == NULL || *client_id == '\0')
    {
      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_REGISTRATION,
                               _("The registration endpoint %s answered without a client_id"),
                               r->endpoint);
      return;
    }

  client = g_new0 (TbOAuthClient, 1);
  client->client_id = g_strdup (client_id);
  client->client_secret = g_strdup (tb_json_object_get_string (answer, "client_secret"));
  if (client->client_secret != NULL && *client->client_secret == '\0')
    g_clear_pointer (&client->client_secret, g_free);
  method = tb_json_object_get_string (answer, "token_endpoint_auth_method");
  if (method != NULL)
    client->auth_method = g_strdup (method);
  else
    client->auth_method = _tb_oauth_choose_auth_method (r->metadata,
                                                        client->client_secret != NULL, FALSE);
  client->registered_by = g_strdup ("dynamic");
  client->issuer = g_strdup (r->metadata->issuer);
  g_task_return_pointer (task, g_steal_pointer (&client), (GDestroyNotify) _tb_oauth_client_free);
}

static GBytes *
registration_request (TbOAuthServerMetadata *metadata,
                      const char            *redirect_uri)
{
  JsonObject *body = json_object_new ();
  JsonArray *redirects = json_array_new ();
  JsonArray *grants = json_array_new ();
  JsonArray *responses = json_array_new ();
  g_autoptr(JsonNode) node = NULL;
  gsize length = 0;
  char *text;

  json_object_set_string_member (body, "client_name", "Toolbench");
  /* A program on the person's machine, redirected to loopback (OpenID
   * Connect Dynamic Registration, RFC 8252). */
  json_object_set_string_member (body, "application_type", "native");
  json_array_add_string_element (redirects, redirect_uri);
  json_object_set_array_member (body, "redirect_uris", redirects);
  json_array_add_string_element (grants, "authorization_code");
  json_array_add_string_element (grants, "refresh_token");
  json_object_set_array_member (body, "grant_types", grants);
  json_array_add_string_element (responses, "code");
  json_object_set_array_member (body, "response_types", responses);
  json_object_set_string_member (body, "token_endpoint_auth_method",
                                 method_to_request (metadata));
  node = tb_json_node_take_object (body);
  text = tb_json_to_data (node, FALSE, &length);
  return g_bytes_new_take (text, length);
}

/**
 * _tb_oauth_register_async:
 * @metadata: the authorization server (kept alive by the caller until the
 *   callback)
 * @config: what the person gave
 * @kept: (nullable): the client kept from an earlier sign-in
 * @redirect_uri: where the browser comes back to
 *
 * Picks, or registers, the client.
 */
void
_tb_oauth_register_async (SoupSession               *session,
                          TbOAuthServerMetadata     *metadata,
                          const TbOAuthClientConfig *config,
                          const TbOAuthClient       *kept,
                          const char                *redirect_uri,
                          GCancellable              *cancellable,
                          GAsyncReadyCallback        callback,
                          gpointer                   user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GBytes) body = NULL;
  Registration *r;

  g_task_set_source_tag (task, _tb_oauth_register_async);

  if (config->client_id != NULL)
    {
      TbOAuthClient *client = g_new0 (TbOAuthClient, 1);

      client->client_id = g_strdup (config->client_id);
      client->client_secret = g_strdup (config->client_secret);
      client->auth_method = _tb_oauth_choose_auth_method (metadata, config->client_secret != NULL,
                                                          config->key_pem != NULL);
      client->registered_by = g_strdup ("pre-registered");
      client->issuer = g_strdup (metadata->issuer);
      g_task_return_pointer (task, client, (GDestroyNotify) _tb_oauth_client_free);
      return;
    }

  if (config->metadata_url != NULL && metadata->client_id_metadata_document_supported)
    {
      TbOAuthClient *client = g_new0 (TbOAuthClient, 1);

      client->client_id = g_strdup (config->metadata_url);
      client->auth_method = _tb_oauth_choose_auth_method (metadata, FALSE,
                                                          config->key_pem != NULL);
      client->registered_by = g_strdup ("metadata-document");
      client->issuer = g_strdup (metadata->issuer);
      g_task_return_pointer (task, client, (GDestroyNotify) _tb_oauth_client_free);
      return;
    }

  if (kept != NULL && g_strcmp0 (kept->registered_by, "dynamic") == 0 &&
      g_strcmp0 (kept->issuer, metadata->issuer) == 0)
    {
      g_task_return_pointer (task, _tb_oauth_client_copy (kept),
                             (GDestroyNotify) _tb_oauth_client_free);
      return;
    }

  if (metadata->registration_endpoint == NULL)
    {
      if (config->metadata_url != NULL)
        g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_UNSUPPORTED,
                                 _("The authorization server %s takes neither client ID "
                                   "metadata documents nor dynamic client registration; "
                                   "register a client with it and give its client ID"),
                                 metadata->issuer);
      else
        g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_UNSUPPORTED,
                                 _("The authorization server %s offers no dynamic client "
                                   "registration; register a client with it and give its "
                                   "client ID, or the URL of a client ID metadata document if "
                                   "it takes them"), metadata->issuer);
      return;
    }

  r = g_new0 (Registration, 1);
  r->metadata = metadata;
  r->endpoint = g_strdup (metadata->registration_endpoint);
  g_task_set_task_data (task, r, registration_free);
  body = registration_request (metadata, redirect_uri);
  _tb_oauth_http_async (session, SOUP_METHOD_POST, r->endpoint, "application/json", body, NULL,
                        FALSE, cancellable, register_cb, g_steal_pointer (&task));
}

/**
 * _tb_oauth_register_finish:
 *
 * Returns: (transfer full): the client
 */
TbOAuthClient *
_tb_oauth_register_finish (GAsyncResult  *result,
                           GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
