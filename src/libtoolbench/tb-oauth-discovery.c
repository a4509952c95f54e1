/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-oauth-private.h"

/* Where the server's authorization server is, and what it offers.
 *
 * Protected resource metadata (RFC 9728): at the URL the server's
 * WWW-Authenticate challenge names in `resource_metadata`, else at the
 * well-known URL with the server's path inserted, then at the well-known
 * URL of its origin. Its `resource` must name the server the client talks
 * to (§3.3): the same origin, and a path the server's path starts with;
 * otherwise the document is not used, wherever it came from.
 *
 * Authorization server metadata, for an issuer with a path such as
 * https://auth.example.com/tenant1: RFC 8414 with the path inserted
 * (/.well-known/oauth-authorization-server/tenant1), OpenID Connect
 * discovery with the path inserted (/.well-known/openid-configuration/
 * tenant1), then OpenID Connect with the path appended (/tenant1/
 * .well-known/openid-configuration); for an issuer without a path the
 * first two at the root. Its `issuer` must be the issuer the URL was built
 * from (RFC 8414 §3.3).
 *
 * The 2025-03-26 revision had no protected resource metadata: the
 * authorization server was the MCP server's origin, its metadata at the
 * origin's well-known URL, and without metadata the endpoints /authorize,
 * /token and /register at the origin. That is what a server without
 * protected resource metadata gets; the issuer such a server's metadata
 * names is not checked, since the client guessed it. */

void
_tb_oauth_resource_metadata_free (TbOAuthResourceMetadata *metadata)
{
  if (metadata == NULL)
    return;
  g_free (metadata->url);
  g_free (metadata->resource);
  g_strfreev (metadata->authorization_servers);
  g_strfreev (metadata->scopes_supported);
  g_free (metadata);
}

void
_tb_oauth_server_metadata_free (TbOAuthServerMetadata *metadata)
{
  if (metadata == NULL)
    return;
  g_free (metadata->metadata_url);
  g_free (metadata->issuer);
  g_free (metadata->authorization_endpoint);
  g_free (metadata->token_endpoint);
  g_free (metadata->registration_endpoint);
  g_strfreev (metadata->code_challenge_methods);
  g_strfreev (metadata->token_endpoint_auth_methods);
  g_strfreev (metadata->grant_types);
  g_strfreev (metadata->scopes_supported);
  g_free (metadata);
}

/* The path of @url without trailing slashes: "" for the root. */
static char *
path_of (GUri *uri)
{
  g_autofree char *path = g_strdup (g_uri_get_path (uri));
  gsize len = strlen (path);

  while (len > 0 && path[len - 1] == '/')
    path[--len] = '\0';
  return g_steal_pointer (&path);
}

static char *
build (GUri       *uri,
       const char *path)
{
  g_autoptr(GUri) built = g_uri_build (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL,
                                       g_uri_get_host (uri), g_uri_get_port (uri), path, NULL,
                                       NULL);

  return g_uri_to_string (built);
}

/**
 * _tb_oauth_resource_metadata_urls:
 *
 * Returns: (transfer container) (element-type utf8): the well-known URLs of a
 *   server's protected resource metadata, in the order to try them
 */
GPtrArray *
_tb_oauth_resource_metadata_urls (const char *server_url)
{
  GPtrArray *urls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GUri) uri = g_uri_parse (server_url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *path = NULL;

  if (uri == NULL)
    return urls;
  path = path_of (uri);
  if (*path != '\0')
    {
      g_autofree char *inserted = g_strconcat ("/.well-known/oauth-protected-resource", path,
                                               NULL);

      g_ptr_array_add (urls, build (uri, inserted));
    }
  g_ptr_array_add (urls, build (uri, "/.well-known/oauth-protected-resource"));
  return urls;
}

/**
 * _tb_oauth_server_metadata_urls:
 *
 * Returns: (transfer container) (element-type utf8): the metadata URLs of an
 *   authorization server, in the order the MCP specification gives
 */
GPtrArray *
_tb_oauth_server_metadata_urls (const char *issuer)
{
  GPtrArray *urls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GUri) uri = g_uri_parse (issuer, G_URI_FLAGS_NONE, NULL);
  g_autofree char *path = NULL;

  if (uri == NULL)
    return urls;
  path = path_of (uri);
  if (*path != '\0')
    {
      g_autofree char *oauth = g_strconcat ("/.well-known/oauth-authorization-server", path, NULL);
      g_autofree char *oidc = g_strconcat ("/.well-known/openid-configuration", path, NULL);
      g_autofree char *appended = g_strconcat (path, "/.well-known/openid-configuration", NULL);

      g_ptr_array_add (urls, build (uri, oauth));
      g_ptr_array_add (urls, build (uri, oidc));
      g_ptr_array_add (urls, build (uri, appended));
    }
  else
    {
      g_ptr_array_add (urls, build (uri, "/.well-known/oauth-authorization-server"));
      g_ptr_array_add (urls, build (uri, "/.well-known/openid-configuration"));
    }
  return urls;
}

static gboolean
same_origin (GUri *a,
             GUri *b)
{
  return g_ascii_strcasecmp (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0 &&
         g_ascii_strcasecmp (g_uri_get_host (a) ?: "", g_uri_get_host (b) ?: "") == 0 &&
         g_uri_get_port (a) == g_uri_get_port (b);
}

/**
 * _tb_oauth_resource_matches:
 *
 * Returns: whether a protected resource metadata's `resource` names the
 *   server at @server_url: the same origin, and @server_url's path is the
 *   resource's path or below it
 */
gboolean
_tb_oauth_resource_matches (const char *resource,
                            const char *server_url)
{
  g_autoptr(GUri) a = resource != NULL ? g_uri_parse (resource, G_URI_FLAGS_NONE, NULL) : NULL;
  g_autoptr(GUri) b = g_uri_parse (server_url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *resource_path = NULL;
  g_autofree char *server_path = NULL;
  gsize len;

  if (a == NULL || b == NULL || g_uri_get_fragment (a) != NULL || !same_origin (a, b))
    return FALSE;
  resource_path = path_of (a);
  server_path = path_of (b);
  len = strlen (resource_path);
  return strncmp (server_path, resource_path, len) == 0 &&
         (server_path[len] == '\0' || server_path[len] == '/');
}

typedef struct _Discovery Discovery;

/* What differs between looking for the two kinds of metadata. */
typedef struct
{
  /* A document that answered: the metadata, or %NULL with @error. */
  gpointer (*read)      (Discovery        *d,
                         TbOAuthResponse  *response,
                         GError          **error);
  /* Why the answer at @response->url, not a JSON object, is not used. */
  char *   (*not_json)  (TbOAuthResponse  *response);
  /* Returns @task when no URL had a document. */
  void     (*none)      (Discovery        *d,
                         GTask            *task);
  GDestroyNotify free;
} DiscoveryKind;

struct _Discovery
{
  const DiscoveryKind *kind;
  SoupSession         *session;
  GPtrArray           *urls;
  guint                next;
  char                *server_url;
  char                *issuer;
  gboolean             legacy;
  char                *problem;
  GString             *tried;
};

static void
discovery_free (gpointer data)
{
  Discovery *d = data;

  g_clear_object (&d->session);
  g_clear_pointer (&d->urls, g_ptr_array_unref);
  g_free (d->server_url);
  g_free (d->issuer);
  g_free (d->problem);
  if (d->tried != NULL)
    g_string_free (d->tried, TRUE);
  g_free (d);
}

static void
note_tried (Discovery       *d,
            TbOAuthResponse *response)
{
  g_autofree char *summary = _tb_oauth_response_summary (response);

  if (d->tried->len > 0)
    g_string_append (d->tried, "; ");
  g_string_append_printf (d->tried, "%s: %s", response->url, summary);
}

static const char *
json_problem (TbOAuthResponse *response)
{
  return response->json_problem != NULL ? response->json_problem : _("it is not an object");
}

/* Trying the candidate URLs in turn, until one has a document. */

static void discovery_next (GTask *task);

static void
discovery_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Discovery *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbOAuthResponse) response = NULL;
  gpointer metadata;

  response = _tb_oauth_http_finish (SOUP_SESSION (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (response->status))
    {
      note_tried (d, response);
      discovery_next (g_steal_pointer (&task));
      return;
    }
  if (_tb_oauth_response_object (response) == NULL)
    {
      if (d->problem == NULL)
        d->problem = d->kind->not_json (response);
      note_tried (d, response);
      discovery_next (g_steal_pointer (&task));
      return;
    }
  metadata = d->kind->read (d, response, &error);
  if (metadata == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, metadata, d->kind->free);
}

/* Takes @task. */
static void
discovery_next (GTask *task)
{
  Discovery *d = g_task_get_task_data (task);

  if (d->next >= d->urls->len)
    {
      if (d->problem != NULL)
        g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY, "%s",
                                 d->problem);
      else
        d->kind->none (d, task);
      g_object_unref (task);
      return;
    }
  _tb_oauth_http_async (d->session, SOUP_METHOD_GET, g_ptr_array_index (d->urls, d->next++),
                        NULL, NULL, NULL, TRUE, g_task_get_cancellable (task), discovery_cb,
                        task);
}

static GTask *
discovery_new (const DiscoveryKind *kind,
               SoupSession         *session,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Discovery *d = g_new0 (Discovery, 1);

  g_task_set_task_data (task, d, discovery_free);
  d->kind = kind;
  d->session = g_object_ref (session);
  d->tried = g_string_new (NULL);
  return task;
}

/* Protected resource metadata. */

/* Returns: (transfer full): a TbOAuthResourceMetadata */
static gpointer
read_resource_metadata (Discovery        *d,
                        TbOAuthResponse  *response,
                        GError          **error)
{
  JsonObject *object = _tb_oauth_response_object (response);
  g_autoptr(TbOAuthResourceMetadata) metadata = g_new0 (TbOAuthResourceMetadata, 1);
  const char *resource;

  resource = tb_json_object_get_string (object, "resource");
  if (resource == NULL)
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                   _("The protected resource metadata at %s names no resource"), response->url);
      return NULL;
    }
  if (!_tb_oauth_resource_matches (resource, d->server_url))
    {
      g_autofree char *shown = _tb_oauth_shown (resource, 200);

      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                   /* Translators: a URL, a resource URL, the server's URL */
                   _("The protected resource metadata at %s is for “%s”, not for the MCP "
                     "server at %s; it is not used"), response->url, shown, d->server_url);
      return NULL;
    }
  metadata->url = g_strdup (response->url);
  metadata->resource = g_strdup (resource);
  metadata->authorization_servers = _tb_oauth_json_strv (object, "authorization_servers");
  metadata->scopes_supported = _tb_oauth_json_strv (object, "scopes_supported");
  if (metadata->authorization_servers == NULL || metadata->authorization_servers[0] == NULL)
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                   _("The protected resource metadata at %s names no authorization server"),
                   response->url);
      return NULL;
    }
  return g_steal_pointer (&metadata);
}

static char *
resource_not_json (TbOAuthResponse *response)
{
  return g_strdup_printf (_("The protected resource metadata at %s is not JSON (%s)"),
                          response->url, json_problem (response));
}

static void
no_resource_metadata (Discovery *d,
                      GTask     *task)
{
  g_task_return_pointer (task, NULL, NULL);
}

static const DiscoveryKind resource_kind = {
  read_resource_metadata, resource_not_json, no_resource_metadata,
  (GDestroyNotify) _tb_oauth_resource_metadata_free,
};

/**
 * _tb_oauth_discover_resource_async:
 * @server_url: the MCP server's URL
 * @metadata_url: (nullable): the `resource_metadata` of its challenge
 *
 * Finds the server's protected resource metadata.
 */
void
_tb_oauth_discover_resource_async (SoupSession         *session,
                                   const char          *server_url,
                                   const char          *metadata_url,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = discovery_new (&resource_kind, session, cancellable, callback,
                                         user_data);
  Discovery *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, _tb_oauth_discover_resource_async);
  d->server_url = g_strdup (server_url);
  d->urls = _tb_oauth_resource_metadata_urls (server_url);
  if (metadata_url != NULL)
    {
      if (!_tb_oauth_url_is_usable (metadata_url, &error))
        {
          g_prefix_error (&error, _("The MCP server names unusable resource metadata: "));
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_ptr_array_insert (d->urls, 0, g_strdup (metadata_url));
    }
  discovery_next (g_steal_pointer (&task));
}

/**
 * _tb_oauth_discover_resource_finish:
 *
 * Returns: (transfer full) (nullable): the metadata, or %NULL without an
 *   error when the server publishes none (a 2025-03-26 server)
 */
TbOAuthResourceMetadata *
_tb_oauth_discover_resource_finish (GAsyncResult  *result,
                                    GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Authorization server metadata. */

static gboolean
same_issuer (const char *a,
             const char *b)
{
  gsize la = strlen (a);
  gsize lb = strlen (b);

  if (la > 0 && a[la - 1] == '/')
    la--;
  if (lb > 0 && b[lb - 1] == '/')
    lb--;
  return la == lb && strncmp (a, b, la) == 0;
}

static gboolean
take_endpoint (JsonObject  *object,
               const char  *member,
               const char  *metadata_url,
               char       **slot,
               GError     **error)
{
  const char *url = tb_json_object_get_string (object, member);
  g_autoptr(GError) local_error = NULL;

  if (url == NULL)
    return TRUE;
  if (!_tb_oauth_url_is_usable (url, &local_error))
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                   /* Translators: a URL, a member name, why */
                   _("The authorization server metadata at %s has an unusable %s: %s"),
                   metadata_url, member, local_error->message);
      return FALSE;
    }
  *slot = g_strdup (url);
  return TRUE;
}

/* Returns: (transfer full): a TbOAuthServerMetadata */
static gpointer
read_server_metadata (Discovery        *d,
                      TbOAuthResponse  *response,
                      GError          **error)
{
  JsonObject *object = _tb_oauth_response_object (response);
  g_autoptr(TbOAuthServerMetadata) metadata = g_new0 (TbOAuthServerMetadata, 1);
  const char *issuer = tb_json_object_get_string (object, "issuer");

  if (!d->legacy && (issuer == NULL || !same_issuer (issuer, d->issuer)))
    {
      g_autofree char *shown = _tb_oauth_shown (issuer != NULL ? issuer : "", 200);

      if (issuer == NULL)
        g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                     _("The authorization server metadata at %s names no issuer; it is not "
                       "used"), response->url);
      else
        g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                     /* Translators: a URL, the issuer it names, the issuer expected */
                     _("The authorization server metadata at %s names the issuer “%s”, not "
                       "%s; it is not used"), response->url, shown, d->issuer);
      return NULL;
    }
  metadata->metadata_url = g_strdup (response->url);
  metadata->issuer = g_strdup (issuer != NULL ? issuer : d->issuer);
  metadata->legacy = d->legacy;
  if (!take_endpoint (object, "authorization_endpoint", response->url,
                      &metadata->authorization_endpoint, error) ||
      !take_endpoint (object, "token_endpoint", response->url, &metadata->token_endpoint,
                      error) ||
      !take_endpoint (object, "registration_endpoint", response->url,
                      &metadata->registration_endpoint, error))
    return NULL;
  if (metadata->token_endpoint == NULL)
    {
      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                   _("The authorization server metadata at %s names no token endpoint"),
                   response->url);
      return NULL;
    }
  metadata->code_challenge_methods = _tb_oauth_json_strv (object,
                                                          "code_challenge_methods_supported");
  metadata->token_endpoint_auth_methods =
    _tb_oauth_json_strv (object, "token_endpoint_auth_methods_supported");
  metadata->grant_types = _tb_oauth_json_strv (object, "grant_types_supported");
  metadata->scopes_supported = _tb_oauth_json_strv (object, "scopes_supported");
  metadata->client_id_metadata_document_supported =
    tb_json_object_get_boolean (object, "client_id_metadata_document_supported", FALSE);
  metadata->iss_parameter_supported =
    tb_json_object_get_boolean (object, "authorization_response_iss_parameter_supported", FALSE);
  return g_steal_pointer (&metadata);
}

static TbOAuthServerMetadata *
default_endpoints (Discovery *d)
{
  TbOAuthServerMetadata *metadata = g_new0 (TbOAuthServerMetadata, 1);

  metadata->issuer = g_strdup (d->issuer);
  metadata->authorization_endpoint = g_strconcat (d->issuer, "/authorize", NULL);
  metadata->token_endpoint = g_strconcat (d->issuer, "/token", NULL);
  metadata->registration_endpoint = g_strconcat (d->issuer, "/register", NULL);
  metadata->legacy = TRUE;
  return metadata;
}

static char *
server_not_json (TbOAuthResponse *response)
{
  return g_strdup_printf (_("Authorization server metadata at %s is not JSON (%s)"),
                          response->url, json_problem (response));
}

static void
no_server_metadata (Discovery *d,
                    GTask     *task)
{
  if (d->legacy)
    g_task_return_pointer (task, default_endpoints (d),
                           (GDestroyNotify) _tb_oauth_server_metadata_free);
  else
    g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                             /* Translators: an issuer URL, then the URLs tried and
                              * their answers */
                             _("The authorization server %s publishes no metadata (%s)"),
                             d->issuer, d->tried->str);
}

static const DiscoveryKind server_kind = {
  read_server_metadata, server_not_json, no_server_metadata,
  (GDestroyNotify) _tb_oauth_server_metadata_free,
};

/**
 * _tb_oauth_discover_server_async:
 * @issuer: the authorization server, as the resource metadata names it, or
 *   the MCP server's origin for a 2025-03-26 server
 * @legacy: whether @issuer was guessed from the MCP server (2025-03-26):
 *   the issuer the metadata names is not checked, and without metadata the
 *   default endpoints are used
 *
 * Finds an authorization server's metadata.
 */
void
_tb_oauth_discover_server_async (SoupSession         *session,
                                 const char          *issuer,
                                 gboolean             legacy,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = discovery_new (&server_kind, session, cancellable, callback,
                                         user_data);
  Discovery *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, _tb_oauth_discover_server_async);
  d->issuer = g_strdup (issuer);
  d->legacy = legacy;
  if (!_tb_oauth_url_is_usable (issuer, &error))
    {
      g_prefix_error (&error, _("The authorization server cannot be used: "));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  d->urls = _tb_oauth_server_metadata_urls (issuer);
  discovery_next (g_steal_pointer (&task));
}

/**
 * _tb_oauth_discover_server_finish:
 *
 * Returns: (transfer full): the metadata
 */
TbOAuthServerMetadata *
_tb_oauth_discover_server_finish (GAsyncResult  *result,
                                  GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
