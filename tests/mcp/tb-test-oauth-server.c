/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "tb-test-oauth-server.h"
#include "../test-soup-util.h"

/* The authorization server lives on its own port under /tenant, so that
 * its issuer has a path (http://127.0.0.1:PORT/tenant) and its metadata is
 * found by path insertion; the MCP server is at /mcp on another port and
 * publishes its protected resource metadata at the path-based well-known
 * URL. Codes are bound to the PKCE challenge, the redirect URI, the scope
 * and the resource of their request. */

typedef struct
{
  char *challenge;
  char *redirect_uri;
  char *scope;
} Code;

static void
code_free (Code *code)
{
  g_free (code->challenge);
  g_free (code->redirect_uri);
  g_free (code->scope);
  g_free (code);
}

static GBytes *
request_body (SoupServerMessage *msg)
{
  return soup_message_body_flatten (soup_server_message_get_request_body (msg));
}

static void
reply_json (SoupServerMessage *msg,
            guint              status,
            const char        *text)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, text,
                                    strlen (text));
}

static void
reply_node (SoupServerMessage *msg,
            guint              status,
            JsonObject        *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_take_object (node, object);
  text = json_to_string (node, FALSE);
  reply_json (msg, status, text);
}

static char *
base64url (const guint8 *data,
           gsize         length)
{
  char *text = g_base64_encode (data, length);
  gsize len = strlen (text);

  for (gsize i = 0; i < len; i++)
    text[i] = text[i] == '+' ? '-' : text[i] == '/' ? '_' : text[i];
  while (len > 0 && text[len - 1] == '=')
    text[--len] = '\0';
  return text;
}

static char *
s256 (const char *verifier)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize length = sizeof digest;

  g_checksum_update (checksum, (const guchar *) verifier, strlen (verifier));
  g_checksum_get_digest (checksum, digest, &length);
  return base64url (digest, length);
}

/* An unsigned JWT: the client reads its claims only. */
static char *
id_token (const char *email)
{
  g_autofree char *claims = g_strdup_printf ("{\"sub\":\"42\",\"email\":\"%s\"}", email);
  g_autofree char *header = base64url ((const guint8 *) "{\"alg\":\"none\"}", 14);
  g_autofree char *payload = base64url ((const guint8 *) claims, strlen (claims));

  return g_strconcat (header, ".", payload, ".", NULL);
}

/* The authorization server. */

static void
server_metadata_cb (SoupServer        *server,
                    SoupServerMessage *msg,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  TbTestOAuthServer *self = user_data;
  JsonObject *object = json_object_new ();
  JsonArray *methods = json_array_new ();
  JsonArray *grants = json_array_new ();
  JsonArray *auth = json_array_new ();
  g_autofree char *endpoint = NULL;

  self->n_server_metadata++;
  if (self->metadata_html)
    {
      const char *page = "<!DOCTYPE html><html><body>Sign in</body></html>";

      json_object_unref (object);
      json_array_unref (methods);
      json_array_unref (grants);
      json_array_unref (auth);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC, page,
                                        strlen (page));
      return;
    }
  json_object_set_string_member (object, "issuer",
                                 self->issuer_mismatch ? "https://evil.example/tenant"
                                                       : self->issuer);
  endpoint = g_strconcat (self->issuer, "/authorize", NULL);
  json_object_set_string_member (object, "authorization_endpoint", endpoint);
  g_free (endpoint);
  endpoint = g_strconcat (self->issuer, "/token", NULL);
  json_object_set_string_member (object, "token_endpoint", endpoint);
  g_free (endpoint);
  endpoint = g_strconcat (self->issuer, "/register", NULL);
  json_object_set_string_member (object, "registration_endpoint", endpoint);
  json_array_add_string_element (methods, self->no_s256 ? "plain" : "S256");
  json_object_set_array_member (object, "code_challenge_methods_supported", methods);
  json_array_add_string_element (grants, "authorization_code");
  json_array_add_string_element (grants, "refresh_token");
  json_object_set_array_member (object, "grant_types_supported", grants);
  json_array_add_string_element (auth, "none");
  json_object_set_array_member (object, "token_endpoint_auth_methods_supported", auth);
  reply_node (msg, SOUP_STATUS_OK, object);
}

static void
register_cb (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  TbTestOAuthServer *self = user_data;
  JsonObject *object = json_object_new ();
  g_autofree char *id = g_strdup_printf ("client-%u", ++self->n_register);

  json_object_set_string_member (object, "client_id", id);
  json_object_set_string_member (object, "token_endpoint_auth_method", "none");
  reply_node (msg, SOUP_STATUS_CREATED, object);
}

static void
authorize_cb (SoupServer        *server,
              SoupServerMessage *msg,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  TbTestOAuthServer *self = user_data;
  const char *redirect_uri = query != NULL ? g_hash_table_lookup (query, "redirect_uri") : NULL;
  const char *state = query != NULL ? g_hash_table_lookup (query, "state") : NULL;
  const char *challenge = query != NULL ? g_hash_table_lookup (query, "code_challenge") : NULL;
  g_autofree char *code_id = NULL;
  g_autofree char *location = NULL;
  g_autofree char *escaped_state = NULL;
  Code *code;

  self->n_authorize++;
  g_free (self->last_scope);
  self->last_scope = g_strdup (query != NULL ? g_hash_table_lookup (query, "scope") : NULL);
  g_free (self->last_resource);
  self->last_resource = g_strdup (query != NULL ? g_hash_table_lookup (query, "resource") : NULL);

  if (self->authorize_page)
    {
      const char *page = "<!DOCTYPE html><html><body><form>Password</form></body></html>";

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC, page,
                                        strlen (page));
      return;
    }
  if (redirect_uri == NULL || challenge == NULL ||
      g_strcmp0 (g_hash_table_lookup (query, "code_challenge_method"), "S256") != 0)
    {
      reply_json (msg, SOUP_STATUS_BAD_REQUEST,
                  "{\"error\":\"invalid_request\",\"error_description\":\"PKCE is required\"}");
      return;
    }
  escaped_state = g_uri_escape_string (self->wrong_state ? "not-the-state" : (state ?: ""), NULL,
                                       FALSE);
  if (self->deny)
    {
      location = g_strdup_printf ("%s?error=access_denied&error_description=%s&state=%s",
                                  redirect_uri, "The%20person%20said%20no", escaped_state);
      soup_server_message_set_redirect (msg, SOUP_STATUS_FOUND, location);
      return;
    }
  code_id = g_strdup_printf ("code-%u", ++self->serial);
  code = g_new0 (Code, 1);
  code->challenge = g_strdup (challenge);
  code->redirect_uri = g_strdup (redirect_uri);
  code->scope = g_strdup (g_hash_table_lookup (query, "scope"));
  g_hash_table_insert (self->codes, g_strdup (code_id), code);
  location = g_strdup_printf ("%s?code=%s&state=%s", redirect_uri, code_id, escaped_state);
  soup_server_message_set_redirect (msg, SOUP_STATUS_FOUND, location);
}

static void
issue (TbTestOAuthServer *self,
       SoupServerMessage *msg,
       const char        *scope)
{
  JsonObject *object = json_object_new ();
  g_autofree char *access = g_strdup_printf ("at-%u", ++self->serial);
  g_autofree char *refresh = g_strdup_printf ("rt-%u", self->serial);

  g_hash_table_insert (self->access_tokens, g_strdup (access), g_strdup (scope ?: ""));
  g_hash_table_insert (self->refresh_tokens, g_strdup (refresh), g_strdup (scope ?: ""));
  if (!self->token_without_access_token)
    json_object_set_string_member (object, "access_token", access);
  json_object_set_string_member (object, "token_type", "Bearer");
  json_object_set_string_member (object, "refresh_token", refresh);
  if (self->expires_in > 0)
    json_object_set_int_member (object, "expires_in", self->expires_in);
  if (scope != NULL && *scope != '\0')
    json_object_set_string_member (object, "scope", scope);
  if (self->id_token_email != NULL)
    {
      g_autofree char *token = id_token (self->id_token_email);

      json_object_set_string_member (object, "id_token", token);
    }
  reply_node (msg, SOUP_STATUS_OK, object);
}

static void
token_cb (SoupServer        *server,
          SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query,
          gpointer           user_data)
{
  TbTestOAuthServer *self = user_data;
  g_autoptr(GBytes) body = request_body (msg);
  g_autofree char *text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  g_autoptr(GHashTable) form = soup_form_decode (text);
  const char *grant = g_hash_table_lookup (form, "grant_type");

  g_free (self->last_token_resource);
  self->last_token_resource = g_strdup (g_hash_table_lookup (form, "resource"));
  if (g_strcmp0 (grant, "authorization_code") == 0)
    {
      const char *code_id = g_hash_table_lookup (form, "code");
      const char *verifier = g_hash_table_lookup (form, "code_verifier");
      Code *code = code_id != NULL ? g_hash_table_lookup (self->codes, code_id) : NULL;
      g_autofree char *challenge = verifier != NULL ? s256 (verifier) : NULL;
      g_autofree char *scope = NULL;

      self->n_token_code++;
      if (code == NULL || g_strcmp0 (code->challenge, challenge) != 0 ||
          g_strcmp0 (code->redirect_uri, g_hash_table_lookup (form, "redirect_uri")) != 0)
        {
          reply_json (msg, SOUP_STATUS_BAD_REQUEST,
                      "{\"error\":\"invalid_grant\",\"error_description\":\"Unknown code\"}");
          return;
        }
      scope = g_strdup (code->scope);
      g_hash_table_remove (self->codes, code_id);
      issue (self, msg, scope);
      return;
    }
  if (g_strcmp0 (grant, "refresh_token") == 0)
    {
      const char *refresh = g_hash_table_lookup (form, "refresh_token");
      const char *scope = refresh != NULL ? g_hash_table_lookup (self->refresh_tokens, refresh)
                                          : NULL;
      g_autofree char *kept = g_strdup (scope);

      self->n_token_refresh++;
      if (self->refuse_refresh || scope == NULL)
        {
          reply_json (msg, SOUP_STATUS_BAD_REQUEST,
                      "{\"error\":\"invalid_grant\",\"error_description\":"
                      "\"The refresh token expired\"}");
          return;
        }
      g_hash_table_remove (self->refresh_tokens, refresh);
      issue (self, msg, kept);
      return;
    }
  reply_json (msg, SOUP_STATUS_BAD_REQUEST, "{\"error\":\"unsupported_grant_type\"}");
}

/* The MCP server. */

static void
resource_metadata_cb (SoupServer        *server,
                      SoupServerMessage *msg,
                      const char        *path,
                      GHashTable        *query,
                      gpointer           user_data)
{
  TbTestOAuthServer *self = user_data;
  JsonObject *object = json_object_new ();
  JsonArray *servers = json_array_new ();

  self->n_resource_metadata++;
  json_object_set_string_member (object, "resource", self->mcp_url);
  json_array_add_string_element (servers, self->issuer);
  json_object_set_array_member (object, "authorization_servers", servers);
  if (self->scopes_supported != NULL)
    {
      JsonArray *scopes = json_array_new ();
      g_auto(GStrv) names = g_strsplit (self->scopes_supported, " ", -1);

      for (guint i = 0; names[i] != NULL; i++)
        json_array_add_string_element (scopes, names[i]);
      json_object_set_array_member (object, "scopes_supported", scopes);
    }
  reply_node (msg, SOUP_STATUS_OK, object);
}

static void
challenge (TbTestOAuthServer *self,
           SoupServerMessage *msg,
           guint              status,
           const char        *error)
{
  g_autofree char *prm = g_strconcat (self->mcp_url, "", NULL);
  g_autofree char *metadata = NULL;
  g_autofree char *header = NULL;
  g_autoptr(GUri) uri = g_uri_parse (self->mcp_url, G_URI_FLAGS_NONE, NULL);

  metadata = self->resource_metadata_url != NULL
    ? g_strdup (self->resource_metadata_url)
    : g_strdup_printf ("http://127.0.0.1:%d/.well-known/oauth-protected-resource/mcp",
                       g_uri_get_port (uri));
  if (self->odd_challenge)
    header = g_strdup_printf ("Basic realm=\"legacy\",  Bearer   realm = \"tool\\\"bench\" ,, "
                              "scope=\"%s\",resource_metadata = \"%s\"   , error=%s",
                              self->required_scope ?: "tools", metadata, error);
  else if (status == SOUP_STATUS_FORBIDDEN || self->required_scope != NULL)
    header = g_strdup_printf ("Bearer error=\"%s\", scope=\"%s\", resource_metadata=\"%s\", "
                              "error_description=\"The token lacks the scope\"", error,
                              self->required_scope ?: "", metadata);
  else
    header = g_strdup_printf ("Bearer error=\"%s\", resource_metadata=\"%s\", "
                              "error_description=\"No valid token\"", error, metadata);
  self->n_mcp_refused++;
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "WWW-Authenticate", header);
  reply_json (msg, status, "{\"error\":\"unauthorized\"}");
}

static gboolean
has_scope (const char *granted,
           const char *wanted)
{
  g_auto(GStrv) names = g_strsplit (granted != NULL ? granted : "", " ", -1);

  return g_strv_contains ((const char * const *) names, wanted);
}

static void
mcp_cb (SoupServer        *server,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  TbTestOAuthServer *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  const char *authorization;
  const char *scope = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *request;
  JsonObject *answer;
  JsonObject *result;
  const char *rpc_method;

  if (g_strcmp0 (method, SOUP_METHOD_POST) != 0)
    {
      soup_server_message_set_status (msg, g_strcmp0 (method, SOUP_METHOD_DELETE) == 0
                                             ? SOUP_STATUS_OK : SOUP_STATUS_METHOD_NOT_ALLOWED,
                                      NULL);
      return;
    }
  self->n_mcp++;
  authorization = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                "Authorization");
  if (authorization != NULL && g_str_has_prefix (authorization, "Bearer "))
    {
      g_free (self->last_bearer);
      self->last_bearer = g_strdup (authorization + strlen ("Bearer "));
      scope = g_hash_table_lookup (self->access_tokens, self->last_bearer);
    }
  if (scope == NULL || self->always_unauthorized)
    {
      challenge (self, msg, SOUP_STATUS_UNAUTHORIZED, "invalid_token");
      return;
    }
  if (self->required_scope != NULL && !has_scope (scope, self->required_scope))
    {
      challenge (self, msg, SOUP_STATUS_FORBIDDEN, "insufficient_scope");
      return;
    }

  body = request_body (msg);
  if (!json_parser_load_from_data (parser, g_bytes_get_data (body, NULL), g_bytes_get_size (body),
                                   NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      reply_json (msg, SOUP_STATUS_BAD_REQUEST, "{}");
      return;
    }
  request = json_node_get_object (json_parser_get_root (parser));
  rpc_method = json_object_get_string_member_with_default (request, "method", "");
  if (!json_object_has_member (request, "id"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      return;
    }
  answer = json_object_new ();
  result = json_object_new ();
  json_object_set_string_member (answer, "jsonrpc", "2.0");
  json_object_set_member (answer, "id", json_node_copy (json_object_get_member (request, "id")));
  if (g_str_equal (rpc_method, "initialize"))
    {
      JsonObject *capabilities = json_object_new ();
      JsonObject *info = json_object_new ();

      json_object_set_string_member (result, "protocolVersion", "2025-11-25");
      json_object_set_object_member (capabilities, "tools", json_object_new ());
      json_object_set_object_member (result, "capabilities", capabilities);
      json_object_set_string_member (info, "name", "oauth-test");
      json_object_set_string_member (info, "version", "1");
      json_object_set_object_member (result, "serverInfo", info);
    }
  else if (g_str_equal (rpc_method, "tools/list"))
    {
      JsonArray *tools = json_array_new ();
      JsonObject *tool = json_object_new ();
      JsonObject *schema = json_object_new ();

      json_object_set_string_member (tool, "name", "whoami");
      json_object_set_string_member (tool, "description", "Says which scope the token has");
      json_object_set_string_member (schema, "type", "object");
      json_object_set_object_member (tool, "inputSchema", schema);
      json_array_add_object_element (tools, tool);
      json_object_set_array_member (result, "tools", tools);
    }
  else if (g_str_equal (rpc_method, "tools/call"))
    {
      JsonArray *content = json_array_new ();
      JsonObject *item = json_object_new ();
      g_autofree char *text = g_strdup_printf ("scope: %s", scope);

      json_object_set_string_member (item, "type", "text");
      json_object_set_string_member (item, "text", text);
      json_array_add_object_element (content, item);
      json_object_set_array_member (result, "content", content);
    }
  json_object_set_object_member (answer, "result", result);
  reply_node (msg, SOUP_STATUS_OK, answer);
}

static SoupServer *
listen_on_loopback (guint *port)
{
  SoupServer *server = soup_server_new (NULL, NULL);
  g_autoptr(GInetAddress) address = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) socket_address = g_inet_socket_address_new (address, 0);
  g_autoptr(GError) error = NULL;

  soup_server_listen (server, socket_address, 0, &error);
  g_assert_no_error (error);
  *port = test_server_port (server);
  return server;
}

TbTestOAuthServer *
tb_test_oauth_server_new (void)
{
  TbTestOAuthServer *self = g_new0 (TbTestOAuthServer, 1);
  guint mcp_port;
  guint as_port;

  self->expires_in = 3600;
  self->codes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) code_free);
  self->access_tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->refresh_tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  self->as_server = listen_on_loopback (&as_port);
  self->issuer = g_strdup_printf ("http://127.0.0.1:%u/tenant", as_port);
  soup_server_add_handler (self->as_server, "/.well-known/oauth-authorization-server/tenant",
                           server_metadata_cb, self, NULL);
  soup_server_add_handler (self->as_server, "/tenant/register", register_cb, self, NULL);
  soup_server_add_handler (self->as_server, "/tenant/authorize", authorize_cb, self, NULL);
  soup_server_add_handler (self->as_server, "/tenant/token", token_cb, self, NULL);

  self->mcp_server = listen_on_loopback (&mcp_port);
  self->mcp_url = g_strdup_printf ("http://127.0.0.1:%u/mcp", mcp_port);
  soup_server_add_handler (self->mcp_server, "/.well-known/oauth-protected-resource/mcp",
                           resource_metadata_cb, self, NULL);
  soup_server_add_handler (self->mcp_server, "/mcp", mcp_cb, self, NULL);
  return self;
}

/* Every access token stops working (expired, say); refresh tokens still
 * do. */
void
tb_test_oauth_server_revoke_access (TbTestOAuthServer *self)
{
  g_hash_table_remove_all (self->access_tokens);
}

void
tb_test_oauth_server_free (TbTestOAuthServer *self)
{
  if (self == NULL)
    return;
  soup_server_disconnect (self->mcp_server);
  soup_server_disconnect (self->as_server);
  g_clear_object (&self->mcp_server);
  g_clear_object (&self->as_server);
  g_free (self->mcp_url);
  g_free (self->issuer);
  g_hash_table_unref (self->codes);
  g_hash_table_unref (self->access_tokens);
  g_hash_table_unref (self->refresh_tokens);
  g_free (self->resource_metadata_url);
  g_free (self->required_scope);
  g_free (self->scopes_supported);
  g_free (self->id_token_email);
  g_free (self->last_scope);
  g_free (self->last_resource);
  g_free (self->last_token_resource);
  g_free (self->last_bearer);
  g_free (self);
}
