/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-oauth"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-oauth-private.h"
#include "tb-read-all.h"
#include "tb-text.h"

/* HTTP of the authorization flow: metadata, registration and token
 * requests. An answer is read up to TB_OAUTH_MAX_DOCUMENT and, when it is
 * a JSON document, parsed with the engine's depth and size bounds; what to
 * make of the status is the caller's business, since a 404 during
 * discovery means "try the next place" and a 400 from the token endpoint
 * carries an OAuth error. Also the URL rules every step shares. */

#define REQUEST_TIMEOUT_S 30

void
_tb_oauth_response_free (TbOAuthResponse *response)
{
  if (response == NULL)
    return;
  g_free (response->url);
  g_free (response->reason);
  g_free (response->content_type);
  g_free (response->location);
  g_clear_pointer (&response->body, g_bytes_unref);
  g_clear_pointer (&response->json, json_node_unref);
  g_free (response->json_problem);
  g_free (response);
}

SoupSession *
_tb_oauth_session_new (void)
{
  return soup_session_new_with_options ("timeout", REQUEST_TIMEOUT_S,
                                        "user-agent", "toolbench/" PACKAGE_VERSION,
                                        NULL);
}

typedef struct
{
  SoupMessage     *message;
  GInputStream    *stream;
  TbOAuthResponse *response;
} Exchange;

static void
exchange_free (gpointer data)
{
  Exchange *ex = data;

  g_clear_object (&ex->message);
  g_clear_object (&ex->stream);
  _tb_oauth_response_free (ex->response);
  g_free (ex);
}

static gboolean
is_json_type (const char *type)
{
  return type != NULL &&
         (g_ascii_strcasecmp (type, "application/json") == 0 || g_str_has_suffix (type, "+json"));
}

static void
finish_response (GTask *task)
{
  Exchange *ex = g_task_get_task_data (task);
  TbOAuthResponse *response = ex->response;
  g_autoptr(GError) error = NULL;
  gsize length = g_bytes_get_size (response->body);

  if (length == 0)
    response->json_problem = g_strdup (_("it is empty"));
  else if (response->content_type != NULL && !is_json_type (response->content_type))
    /* Translators: a content type such as text/html */
    response->json_problem = g_strdup_printf (_("it is %s"), response->content_type);
  else if ((response->json = tb_json_parse (g_bytes_get_data (response->body, NULL), length,
                                            &error)) == NULL)
    response->json_problem = g_strdup (error->message);
  g_task_return_pointer (task, g_steal_pointer (&ex->response),
                         (GDestroyNotify) _tb_oauth_response_free);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Exchange *ex = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  ex->response->body = tb_input_stream_read_all_finish (G_INPUT_STREAM (object), result, &error);
  if (ex->response->body == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
        g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_HTTP,
                                 /* Translators: a URL, then a size such as "1.0 MB" */
                                 _("The answer of %s is larger than %s; it is not read"),
                                 ex->response->url, "1 MiB");
      else
        g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_HTTP,
                                 /* Translators: a URL, then why */
                                 _("The answer of %s broke off: %s"), ex->response->url,
                                 error->message);
      return;
    }
  g_input_stream_close_async (ex->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  finish_response (task);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Exchange *ex = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  const char *type;

  ex->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (ex->stream == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_HTTP,
                                 /* Translators: a URL, then why */
                                 _("%s cannot be reached: %s"), ex->response->url,
                                 error->message);
      return;
    }

  headers = soup_message_get_response_headers (ex->message);
  type = soup_message_headers_get_content_type (headers, NULL);
  ex->response->status = soup_message_get_status (ex->message);
  ex->response->reason = g_strdup (soup_message_get_reason_phrase (ex->message));
  ex->response->content_type = g_strdup (type);
  ex->response->location = g_strdup (soup_message_headers_get_one (headers, "Location"));
  /* The cancellable is read before the task is handed on. */
  {
    GCancellable *cancellable = g_task_get_cancellable (task);

    tb_input_stream_read_all_async (ex->stream, TB_OAUTH_MAX_DOCUMENT, G_PRIORITY_DEFAULT,
                                    cancellable, read_cb, g_steal_pointer (&task));
  }
}

/**
 * _tb_oauth_http_async:
 * @session: the session
 * @method: GET or POST
 * @url: where
 * @content_type: (nullable): of @body
 * @body: (nullable): what to send
 * @authorization: (nullable): the Authorization header
 * @follow_redirects: whether to follow 3xx answers
 *
 * One request. Every status is an answer; only a failure to talk (or an
 * answer too large) is an error.
 */
void
_tb_oauth_http_async (SoupSession         *session,
                      const char          *method,
                      const char          *url,
                      const char          *content_type,
                      GBytes              *body,
                      const char          *authorization,
                      gboolean             follow_redirects,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (session, cancellable, callback, user_data);
  Exchange *ex = g_new0 (Exchange, 1);
  SoupMessageHeaders *headers;

  g_task_set_source_tag (task, _tb_oauth_http_async);
  g_task_set_task_data (task, ex, exchange_free);
  ex->response = g_new0 (TbOAuthResponse, 1);
  ex->response->url = g_strdup (url);
  ex->message = soup_message_new (method, url);
  if (ex->message == NULL)
    {
      g_task_return_new_error (task, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_CONFIG,
                               _("“%s” is not a URL Toolbench can use"), url);
      return;
    }
  headers = soup_message_get_request_headers (ex->message);
  soup_message_headers_replace (headers, "Accept", "application/json");
  if (authorization != NULL)
    soup_message_headers_replace (headers, "Authorization", authorization);
  if (body != NULL)
    soup_message_set_request_body_from_bytes (ex->message, content_type, body);
  if (!follow_redirects)
    soup_message_add_flags (ex->message, SOUP_MESSAGE_NO_REDIRECT);
  soup_session_send_async (session, ex->message, G_PRIORITY_DEFAULT, cancellable, send_cb,
                           g_steal_pointer (&task));
}

/**
 * _tb_oauth_http_finish:
 *
 * Returns: (transfer full): the answer
 */
TbOAuthResponse *
_tb_oauth_http_finish (SoupSession   *session,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, session), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * _tb_oauth_response_object:
 *
 * Returns: (transfer none) (nullable): the answer's JSON object
 */
JsonObject *
_tb_oauth_response_object (TbOAuthResponse *response)
{
  if (response->json == NULL || !JSON_NODE_HOLDS_OBJECT (response->json))
    return NULL;
  return json_node_get_object (response->json);
}

/**
 * _tb_oauth_response_oauth_error:
 *
 * Returns: (transfer full) (nullable): "error (description)" when the
 *   answer is an OAuth error object
 */
char *
_tb_oauth_response_oauth_error (TbOAuthResponse *response)
{
  JsonObject *object = _tb_oauth_response_object (response);
  const char *code;
  const char *description;
  g_autofree char *shown_code = NULL;
  g_autofree char *shown_description = NULL;

  if (object == NULL || (code = tb_json_object_get_string (object, "error")) == NULL)
    return NULL;
  shown_code = _tb_oauth_shown (code, 100);
  description = tb_json_object_get_string (object, "error_description");
  if (description == NULL || *description == '\0')
    return g_steal_pointer (&shown_code);
  shown_description = _tb_oauth_shown (description, 300);
  return g_strdup_printf ("%s (%s)", shown_code, shown_description);
}

/**
 * _tb_oauth_response_summary:
 *
 * Returns: (transfer full): what the server said, for a message: the
 *   status, and the OAuth error when there is one
 */
char *
_tb_oauth_response_summary (TbOAuthResponse *response)
{
  g_autofree char *oauth_error = _tb_oauth_response_oauth_error (response);

  if (oauth_error != NULL)
    /* Translators: an HTTP status, then an OAuth error code and its description */
    return g_strdup_printf (_("HTTP %u, %s"), response->status, oauth_error);
  return g_strdup_printf ("HTTP %u %s", response->status,
                          response->reason != NULL ? response->reason
                                                   : soup_status_get_phrase (response->status));
}

/**
 * _tb_oauth_shown:
 * @text: (nullable): text from outside
 * @max_chars: the most characters shown
 *
 * Returns: (transfer full): @text for a message: valid UTF-8, shortened,
 *   control characters escaped
 */
char *
_tb_oauth_shown (const char *text,
                 guint       max_chars)
{
  g_autofree char *short_text = tb_text_shorten (text != NULL ? text : "", -1, max_chars);

  return tb_text_escape_controls (short_text, -1);
}

gboolean
_tb_oauth_is_loopback_host (const char *host)
{
  return host != NULL &&
         (g_ascii_strcasecmp (host, "localhost") == 0 || g_str_has_prefix (host, "127.") ||
          g_str_equal (host, "::1") || g_str_equal (host, "[::1]"));
}

/**
 * _tb_oauth_url_is_usable:
 *
 * Returns: whether @url may carry a sign-in: absolute, HTTPS, or HTTP to
 *   this machine only
 */
gboolean
_tb_oauth_url_is_usable (const char  *url,
                         GError     **error)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;

  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
      (g_ascii_strcasecmp (scheme, "https") != 0 && g_ascii_strcasecmp (scheme, "http") != 0))
    {
      g_autofree char *shown = _tb_oauth_shown (url != NULL ? url : "", 200);

      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                   _("“%s” is not an http:// or https:// address"), shown);
      return FALSE;
    }
  if (g_ascii_strcasecmp (scheme, "http") == 0 &&
      !_tb_oauth_is_loopback_host (g_uri_get_host (uri)))
    {
      g_autofree char *shown = _tb_oauth_shown (url, 200);

      g_set_error (error, TB_MCP_AUTH_ERROR, TB_MCP_AUTH_ERROR_DISCOVERY,
                   _("“%s” is not an HTTPS address; sign-ins go over plain HTTP only to this "
                     "machine"), shown);
      return FALSE;
    }
  return TRUE;
}

/**
 * _tb_oauth_canonical_resource:
 *
 * Returns: (transfer full): the canonical URI of a server (RFC 8707 §2):
 *   lower-case scheme and host, no fragment, no query, no lone trailing
 *   slash
 */
char *
_tb_oauth_canonical_resource (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GUri) canonical = NULL;
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  const char *path;

  if (uri == NULL)
    return g_strdup (url);
  scheme = g_ascii_strdown (g_uri_get_scheme (uri), -1);
  host = g_ascii_strdown (g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : "", -1);
  path = g_uri_get_path (uri);
  if (g_str_equal (path, "/"))
    path = "";
  canonical = g_uri_build (G_URI_FLAGS_NONE, scheme, NULL, host, g_uri_get_port (uri), path,
                           NULL, NULL);
  return g_uri_to_string (canonical);
}

/**
 * _tb_oauth_origin:
 *
 * Returns: (transfer full): scheme, host and port of @url, without a path
 */
char *
_tb_oauth_origin (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GUri) origin = NULL;

  if (uri == NULL)
    return g_strdup (url);
  origin = g_uri_build (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                        g_uri_get_port (uri), "", NULL, NULL);
  return g_uri_to_string (origin);
}

/**
 * _tb_oauth_json_strv:
 *
 * Returns: (transfer full) (nullable): the strings of an array member;
 *   %NULL when the member is absent or not an array
 */
char **
_tb_oauth_json_strv (JsonObject *object,
                     const char *member)
{
  JsonArray *array = tb_json_object_get_array (object, member);
  g_autoptr(GStrvBuilder) builder = NULL;

  if (array == NULL)
    return NULL;
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array) && i < 1000; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (node));
    }
  return g_strv_builder_end (builder);
}

gboolean
_tb_oauth_strv_contains (char * const *strv,
                         const char   *value)
{
  return strv != NULL && g_strv_contains ((const char * const *) strv, value);
}
