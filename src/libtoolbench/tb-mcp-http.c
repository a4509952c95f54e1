/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-mcp-private.h"
#include "tb-oauth-private.h"
#include "tb-mcp-wire-private.h"

/* The streamable HTTP transport: every message is a POST; the answer is
 * 202 (nothing to say), one JSON message, or an SSE stream of messages.
 * The `Mcp-Session-Id` from the initialize answer goes on every later
 * request, with `MCP-Protocol-Version`. An SSE stream that ends before the
 * answer to its request came is resumed with a GET carrying
 * `Last-Event-ID`, after the server's `retry` delay (1 s when it named
 * none), at most five times. After initialization a standalone GET stream
 * carries what the server sends outside any request (list changes, its
 * own requests); a server that answers 405 has none, and that is fine.
 *
 * Authorization: every request carries the client's access token, if it
 * has one; a 401, or a 403 asking for more scope, hands the request to the
 * server's TbMcpAuth (tb-mcp-auth-challenge.c), which signs in, and the
 * request goes again, its time limit stopped meanwhile. */

#define READ_CHUNK (64 * 1024)
#define MAX_RECONNECTS 5
#define DEFAULT_RETRY_MS 1000

struct _TbMcpHttp
{
  TbMcpClient   *client;
  guint          generation;
  SoupSession   *session;
  char          *url;
  char         **headers;
  char          *session_id;
  char          *protocol_version;
  gboolean       stateless;
  GCancellable  *cancellable;
  GCancellable  *listening;      /* the exchange of subscriptions/listen */
};

typedef struct
{
  TbMcpHttp     *http;
  GCancellable  *cancellable;
  gint64         request_id;
  SoupMessage   *msg;
  GInputStream  *stream;
  gboolean       sse;
  GByteArray    *body;
  GByteArray    *line;
  GString       *data;
  char          *last_event_id;
  guint          retry_ms;
  gboolean       answered;
  gboolean       standalone;
  guint          reconnects;
  GBytes        *request_body;
  guint          auth_serial;
  guint          auth_rounds;
  guint          wire_exchange;
  char          *method;         /* stateless: the Mcp-Method and Mcp-Name headers */
  char          *name;
  GStrv          param_headers;  /* name, value, name, value… */
  GCancellable  *parent;         /* the transport's, when the exchange has its own */
  gulong         parent_id;
  guint          refused;        /* the HTTP status of a refusal whose body is read */
} Exchange;

static void read_more (Exchange *ex);

static void
exchange_free (Exchange *ex)
{
  if (ex->parent != NULL)
    {
      g_cancellable_disconnect (ex->parent, ex->parent_id);
      g_object_unref (ex->parent);
    }
  g_clear_object (&ex->cancellable);
  g_clear_object (&ex->msg);
  /* A stream given up on before its end is closed, so that its connection
   * ends too (the server sees a subscription or a call end). */
  if (ex->stream != NULL && !g_input_stream_is_closed (ex->stream))
    g_input_stream_close_async (ex->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  g_clear_object (&ex->stream);
  g_clear_pointer (&ex->body, g_byte_array_unref);
  g_clear_pointer (&ex->line, g_byte_array_unref);
  if (ex->data != NULL)
    g_string_free (ex->data, TRUE);
  g_free (ex->last_event_id);
  g_free (ex->method);
  g_free (ex->name);
  g_strfreev (ex->param_headers);
  g_clear_pointer (&ex->request_body, g_bytes_unref);
  g_free (ex);
}

static gboolean
exchange_alive (Exchange *ex)
{
  return !g_cancellable_is_cancelled (ex->cancellable);
}

static gboolean
is_loopback (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  const char *host;

  if (uri == NULL || (host = g_uri_get_host (uri)) == NULL)
    return FALSE;
  return g_str_equal (host, "localhost") || g_str_has_prefix (host, "127.") ||
         g_str_equal (host, "::1") || g_str_equal (host, "[::1]");
}

TbMcpHttp *
_tb_mcp_http_new (TbMcpClient        *client,
                  guint               generation,
                  const char         *url,
                  const char * const *headers)
{
  TbMcpHttp *self = g_new0 (TbMcpHttp, 1);

  self->client = client;
  self->generation = generation;
  self->url = g_strdup (url);
  self->headers = g_strdupv ((char **) headers);
  self->cancellable = g_cancellable_new ();
  /* Event streams hold connections open: the standalone stream, a call's
   * stream and the answer to a server request go at once. */
  self->session = soup_session_new_with_options ("timeout", 0,
                                                 "max-conns-per-host", 16,
                                                 "user-agent", "toolbench/" PACKAGE_VERSION,
                                                 NULL);
  /* A proxy has no business between the app and a server on this machine. */
  if (is_loopback (url))
    soup_session_set_proxy_resolver (self->session, NULL);
  return self;
}

/* The access token, when the client has one; returns which it was. */
static guint
add_authorization (TbMcpHttp   *self,
                   SoupMessage *msg)
{
  TbMcpAuth *auth = tb_mcp_client_get_auth (self->client);

  return auth != NULL ? _tb_mcp_auth_apply (auth, msg) : 0;
}

void
_tb_mcp_http_set_protocol_version (TbMcpHttp  *self,
                                   const char *version)
{
  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
}

/* The stateless revision: every POST names its revision, method and
 * target in headers, and there is no session. */
void
_tb_mcp_http_set_stateless (TbMcpHttp *self,
                            gboolean   stateless)
{
  self->stateless = stateless;
  _tb_mcp_http_set_protocol_version (self, stateless ? TB_MCP_PROTOCOL_VERSION_STATELESS : NULL);
  if (stateless)
    g_clear_pointer (&self->session_id, g_free);
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GInputStream) stream = soup_session_send_finish (SOUP_SESSION (object), result, NULL);

  if (stream != NULL)
    g_input_stream_close (stream, NULL, NULL);
}

void
_tb_mcp_http_free (TbMcpHttp *self)
{
  g_cancellable_cancel (self->cancellable);

  /* Tell the server the session is over; nobody waits for the answer. */
  if (self->session_id != NULL)
    {
      g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_DELETE, self->url);

      if (msg != NULL)
        {
          soup_message_headers_replace (soup_message_get_request_headers (msg),
                                        "Mcp-Session-Id", self->session_id);
          add_authorization (self, msg);
          soup_session_send_async (self->session, msg, G_PRIORITY_DEFAULT, NULL, delete_cb, NULL);
        }
    }

  g_clear_object (&self->listening);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->session);
  g_free (self->url);
  g_strfreev (self->headers);
  g_free (self->session_id);
  g_free (self->protocol_version);
  g_free (self);
}

static void
add_headers (TbMcpHttp   *self,
             SoupMessage *msg)
{
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);

  for (guint i = 0; self->headers != NULL && self->headers[i] != NULL; i++)
    {
      const char *colon = strchr (self->headers[i], ':');
      g_autofree char *name = NULL;

      if (colon == NULL)
        continue;
      name = g_strstrip (g_strndup (self->headers[i], colon - self->headers[i]));
      soup_message_headers_replace (headers, name, colon + 1 + strspn (colon + 1, " "));
    }
  if (self->session_id != NULL && !self->stateless)
    soup_message_headers_replace (headers, "Mcp-Session-Id", self->session_id);
  if (self->protocol_version != NULL)
    soup_message_headers_replace (headers, "MCP-Protocol-Version", self->protocol_version);
}

/* The headers every request of an exchange carries, whether it is the POST
 * or the GET that resumes its stream: the configured ones, the session's,
 * in the stateless revision what the request is about, and the access
 * token. */
static void
add_exchange_headers (Exchange *ex)
{
  TbMcpHttp *http = ex->http;

  add_headers (http, ex->msg);
  if (http->stateless && ex->method != NULL)
    {
      SoupMessageHeaders *headers = soup_message_get_request_headers (ex->msg);
      g_autofree char *method = _tb_mcp_header_value (ex->method);

      soup_message_headers_replace (headers, "Mcp-Method", method);
      if (ex->name != NULL)
        {
          g_autofree char *name = _tb_mcp_header_value (ex->name);

          soup_message_headers_replace (headers, "Mcp-Name", name);
        }
      for (guint i = 0; ex->param_headers != NULL && ex->param_headers[i] != NULL &&
                        ex->param_headers[i + 1] != NULL; i += 2)
        soup_message_headers_replace (headers, ex->param_headers[i], ex->param_headers[i + 1]);
    }
  ex->auth_serial = add_authorization (http, ex->msg);
}

static void
exchange_fail (Exchange   *ex,
               int         code,
               const char *text)
{
  TbMcpHttp *http = ex->http;

  if (ex->request_id >= 0)
    {
      g_autoptr(GError) error = g_error_new_literal (TB_MCP_ERROR, code, text);

      _tb_mcp_client_request_failed (http->client, http->generation, ex->request_id, error);
    }
  else
    {
      _tb_mcp_client_log (http->client, "client", "warning", text);
    }
}

/* Returns FALSE when the transport went away meanwhile. */
static gboolean
deliver (Exchange   *ex,
         const char *text,
         gsize       length)
{
  TbMcpHttp *http = ex->http;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) message = NULL;

  if (length == 0 || strspn (text, " \t\r\n") == length)
    return TRUE;

  message = _tb_mcp_parse_message (text, length, &error);
  _tb_mcp_wire_received (http->client, text, length, message, error ? error->message : NULL,
                         ex->wire_exchange);
  if (message == NULL)
    {
      g_autofree char *cause =
        g_strdup_printf (_("sent something that is not a JSON-RPC message over HTTP (%s)"),
                         error->message);

      _tb_mcp_client_lost (http->client, http->generation, cause);
      return FALSE;
    }

  if (JSON_NODE_HOLDS_OBJECT (message) && ex->request_id >= 0)
    {
      JsonObject *object = json_node_get_object (message);
      JsonNode *id = json_object_get_member (object, "id");

      if (id != NULL && !json_object_has_member (object, "method") &&
          JSON_NODE_HOLDS_VALUE (id) && json_node_get_value_type (id) == G_TYPE_INT64 &&
          json_node_get_int (id) == ex->request_id)
        ex->answered = TRUE;
    }

  _tb_mcp_client_receive (http->client, http->generation, message);
  return exchange_alive (ex);
}

/* The body of a refusal: a JSON-RPC error answers the request (its id may
 * be null when the server could not read it); anything else is the HTTP
 * status. */
static void
deliver_refusal (Exchange *ex)
{
  TbMcpHttp *http = ex->http;
  const char *text = (const char *) ex->body->data;
  g_autoptr(JsonNode) message = _tb_mcp_parse_message (text, ex->body->len, NULL);
  JsonNode *error = message != NULL && JSON_NODE_HOLDS_OBJECT (message)
                    ? json_object_get_member (json_node_get_object (message), "error") : NULL;

  _tb_mcp_wire_received (http->client, text, ex->body->len, message, NULL, ex->wire_exchange);
  if (error != NULL && JSON_NODE_HOLDS_OBJECT (error))
    {
      JsonObject *answer = json_object_new ();
      g_autoptr(JsonNode) node = NULL;

      json_object_set_string_member (answer, "jsonrpc", "2.0");
      json_object_set_int_member (answer, "id", ex->request_id);
      json_object_set_member (answer, "error", json_node_copy (error));
      node = tb_json_node_take_object (answer);
      _tb_mcp_client_receive (http->client, http->generation, node);
      return;
    }
  {
    g_autofree char *refusal =
      g_strdup_printf (_("The MCP server refused the request with HTTP status %u (%s)"),
                       ex->refused, soup_message_get_reason_phrase (ex->msg));

    exchange_fail (ex, TB_MCP_ERROR_HTTP, refusal);
  }
}

static gboolean
sse_dispatch (Exchange *ex)
{
  gboolean ok;

  if (ex->data->len == 0)
    return TRUE;
  ok = deliver (ex, ex->data->str, ex->data->len);
  if (ok)
    g_string_truncate (ex->data, 0);
  return ok;
}

static gboolean
sse_line (Exchange   *ex,
          const char *line,
          gsize       length)
{
  const char *colon;
  g_autofree char *field = NULL;
  const char *value;
  gsize value_len;

  if (length > 0 && line[length - 1] == '\r')
    length--;
  if (length == 0)
    return sse_dispatch (ex);
  if (line[0] == ':')
    return TRUE;

  colon = memchr (line, ':', length);
  if (colon == NULL)
    {
      field = g_strndup (line, length);
      value = "";
      value_len = 0;
    }
  else
    {
      field = g_strndup (line, colon - line);
      value = colon + 1;
      value_len = length - (value - line);
      if (value_len > 0 && *value == ' ')
        {
          value++;
          value_len--;
        }
    }

  if (g_str_equal (field, "data"))
    {
      if (ex->data->len > 0)
        g_string_append_c (ex->data, '\n');
      g_string_append_len (ex->data, value, value_len);
    }
  else if (g_str_equal (field, "id"))
    {
      g_free (ex->last_event_id);
      ex->last_event_id = g_strndup (value, value_len);
    }
  else if (g_str_equal (field, "retry"))
    {
      g_autofree char *digits = g_strndup (value, value_len);
      guint64 ms;

      if (g_ascii_string_to_unsigned (digits, 10, 0, 600000, &ms, NULL))
        ex->retry_ms = ms;
    }
  return TRUE;
}

static void
reconnect_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data);

static gboolean
reconnect_timeout_cb (gpointer user_data)
{
  Exchange *ex = user_data;
  TbMcpHttp *http;

  if (!exchange_alive (ex))
    {
      exchange_free (ex);
      return G_SOURCE_REMOVE;
    }

  http = ex->http;
  g_clear_object (&ex->msg);
  ex->wire_exchange = _tb_mcp_wire_begin_exchange (http->client, ex->wire_exchange);
  ex->msg = soup_message_new (SOUP_METHOD_GET, http->url);
  add_exchange_headers (ex);
  soup_message_headers_replace (soup_message_get_request_headers (ex->msg), "Accept",
                                "text/event-stream");
  if (ex->last_event_id != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (ex->msg), "Last-Event-ID",
                                  ex->last_event_id);
  soup_session_send_async (http->session, ex->msg, G_PRIORITY_DEFAULT, ex->cancellable,
                           reconnect_cb, ex);
  return G_SOURCE_REMOVE;
}

/* Drops the stream that closed and opens it again after the retry time
 * the server asked for. */
static void
reconnect_later (Exchange *ex)
{
  ex->reconnects++;
  g_clear_object (&ex->stream);
  g_byte_array_set_size (ex->line, 0);
  g_string_truncate (ex->data, 0);
  g_timeout_add (ex->retry_ms, reconnect_timeout_cb, ex);
}

static void
stream_ended (Exchange *ex)
{
  if (ex->standalone)
    {
      /* Reopened while the session lives, within the same bounds. */
      if (ex->reconnects >= MAX_RECONNECTS)
        {
          _tb_mcp_client_log (ex->http->client, "client", "warning",
                              _("The server's event stream closed too often; it is no longer "
                                "reopened"));
          exchange_free (ex);
          return;
        }
      reconnect_later (ex);
      return;
    }

  /* 2026-07-28 has no resumption: the client decides whether to ask again. */
  if (ex->sse && ex->request_id >= 0 && !ex->answered && ex->http->stateless)
    {
      _tb_mcp_client_stream_broke (ex->http->client, ex->http->generation, ex->request_id);
      exchange_free (ex);
      return;
    }

  if (ex->sse && ex->request_id >= 0 && !ex->answered)
    {
      if (ex->last_event_id == NULL || ex->reconnects >= MAX_RECONNECTS)
        {
          exchange_fail (ex, TB_MCP_ERROR_DISCONNECTED,
                         _("The MCP server closed the event stream before answering"));
          exchange_free (ex);
          return;
        }
      reconnect_later (ex);
      return;
    }

  if (!ex->sse && ex->body != NULL && ex->refused != 0)
    deliver_refusal (ex);
  else if (!ex->sse && ex->body != NULL)
    deliver (ex, (const char *) ex->body->data, ex->body->len);
  exchange_free (ex);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Exchange *ex = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize size;
  gsize start = 0;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (!exchange_alive (ex))
    {
      exchange_free (ex);
      return;
    }
  if (bytes == NULL)
    {
      /* A broken stream is treated like one that ended: resume or fail. */
      stream_ended (ex);
      return;
    }
  if (g_bytes_get_size (bytes) == 0)
    {
      stream_ended (ex);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (!ex->sse)
    {
      g_byte_array_append (ex->body, data, size);
      if (ex->body->len > TB_MCP_MAX_MESSAGE_SIZE)
        {
          _tb_mcp_wire_received_too_large (ex->http->client, (const char *) ex->body->data,
                                           ex->body->len, ex->wire_exchange);
          _tb_mcp_client_lost (ex->http->client, ex->http->generation,
                               _("sent an HTTP answer larger than the client keeps"));
          exchange_free (ex);
          return;
        }
      read_more (ex);
      return;
    }

  for (gsize i = 0; i < size; i++)
    {
      if (data[i] != '\n')
        continue;
      g_byte_array_append (ex->line, data + start, i - start);
      if (!sse_line (ex, (const char *) ex->line->data, ex->line->len))
        {
          exchange_free (ex);
          return;
        }
      g_byte_array_set_size (ex->line, 0);
      start = i + 1;
    }
  if (start < size)
    g_byte_array_append (ex->line, data + start, size - start);
  if (ex->line->len + ex->data->len > TB_MCP_MAX_MESSAGE_SIZE)
    {
      _tb_mcp_wire_received_too_large (ex->http->client,
                                       ex->data->len > 0 ? ex->data->str
                                                         : (const char *) ex->line->data,
                                       ex->line->len + ex->data->len, ex->wire_exchange);
      _tb_mcp_client_lost (ex->http->client, ex->http->generation,
                           _("sent an event larger than the client keeps"));
      exchange_free (ex);
      return;
    }
  read_more (ex);
}

static void
read_more (Exchange *ex)
{
  g_input_stream_read_bytes_async (ex->stream, READ_CHUNK, G_PRIORITY_DEFAULT, ex->cancellable,
                                   read_cb, ex);
}

static gboolean
start_reading (Exchange *ex)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
  const char *type = soup_message_headers_get_content_type (headers, NULL);

  if (g_strcmp0 (type, "text/event-stream") == 0)
    {
      ex->sse = TRUE;
      if (ex->line == NULL)
        ex->line = g_byte_array_new ();
      if (ex->data == NULL)
        ex->data = g_string_new (NULL);
    }
  else if (g_strcmp0 (type, "application/json") == 0)
    {
      ex->sse = FALSE;
      ex->body = g_byte_array_new ();
    }
  else
    {
      g_autofree char *text =
        g_strdup_printf (_("The MCP server answered with content of type “%s”, which is "
                           "neither JSON nor an event stream"), type ? type : "?");

      exchange_fail (ex, TB_MCP_ERROR_PROTOCOL, text);
      return FALSE;
    }
  read_more (ex);
  return TRUE;
}

static void
reconnect_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Exchange *ex = user_data;
  g_autoptr(GError) error = NULL;
  guint status;

  ex->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (!exchange_alive (ex))
    {
      exchange_free (ex);
      return;
    }
  _tb_mcp_wire_exchange (ex->http->client, ex->wire_exchange, ex->msg,
                         (const char * const *) ex->http->headers, error);
  status = soup_message_get_status (ex->msg);
  if (ex->standalone && (ex->stream == NULL || status != SOUP_STATUS_OK))
    {
      /* 405: the server offers no stream of its own. */
      exchange_free (ex);
      return;
    }
  if (ex->stream == NULL || status != SOUP_STATUS_OK)
    {
      g_autofree char *text =
        g_strdup_printf (_("The MCP server could not resume its event stream (%s)"),
                         error != NULL ? error->message
                                       : soup_status_get_phrase (status));

      exchange_fail (ex, TB_MCP_ERROR_DISCONNECTED, text);
      exchange_free (ex);
      return;
    }
  if (!start_reading (ex))
    exchange_free (ex);
}

static void send_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data);

/* Returns FALSE when the URL cannot carry a request. */
static gboolean
post (Exchange *ex)
{
  TbMcpHttp *http = ex->http;

  g_clear_object (&ex->msg);
  ex->msg = soup_message_new (SOUP_METHOD_POST, http->url);
  if (ex->msg == NULL)
    return FALSE;
  add_exchange_headers (ex);
  soup_message_headers_replace (soup_message_get_request_headers (ex->msg), "Accept",
                                "application/json, text/event-stream");
  soup_message_set_request_body_from_bytes (ex->msg, "application/json", ex->request_body);
  soup_session_send_async (http->session, ex->msg, G_PRIORITY_DEFAULT, ex->cancellable,
                           send_cb, ex);
  return TRUE;
}

static void
authorized_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Exchange *ex = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = _tb_mcp_auth_challenge_finish (TB_MCP_AUTH (object), result, &error);

  if (!exchange_alive (ex))
    {
      exchange_free (ex);
      return;
    }
  if (ex->request_id >= 0)
    _tb_mcp_client_hold_request (ex->http->client, ex->http->generation, ex->request_id, FALSE);
  if (!ok)
    {
      exchange_fail (ex, TB_MCP_ERROR_AUTHORIZATION, error->message);
      exchange_free (ex);
      return;
    }
  ex->auth_rounds++;
  post (ex);
}

/* A 401 or 403: sign in, then send the request again. */
static gboolean
authorize (Exchange *ex,
           guint     status)
{
  TbMcpHttp *http = ex->http;
  TbMcpAuth *auth = tb_mcp_client_get_auth (http->client);
  const char *challenge;

  if (auth == NULL || ex->request_body == NULL)
    return FALSE;
  challenge = soup_message_headers_get_list (soup_message_get_response_headers (ex->msg),
                                             "WWW-Authenticate");
  g_input_stream_close_async (ex->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  g_clear_object (&ex->stream);
  if (ex->request_id >= 0)
    _tb_mcp_client_hold_request (http->client, http->generation, ex->request_id, TRUE);
  _tb_mcp_auth_challenge_async (auth, status, challenge, ex->auth_serial, ex->auth_rounds,
                                ex->cancellable, authorized_cb, ex);
  return TRUE;
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Exchange *ex = user_data;
  g_autoptr(GError) error = NULL;
  TbMcpHttp *http;
  const char *session_id;
  guint status;

  ex->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (!exchange_alive (ex))
    {
      exchange_free (ex);
      return;
    }
  http = ex->http;
  _tb_mcp_wire_exchange (http->client, ex->wire_exchange, ex->msg,
                         (const char * const *) http->headers, error);

  if (ex->stream == NULL)
    {
      g_autofree char *cause =
        g_strdup_printf (_("cannot be reached at %s: %s"), http->url, error->message);

      _tb_mcp_client_lost (http->client, http->generation, cause);
      exchange_free (ex);
      return;
    }

  session_id = soup_message_headers_get_one (soup_message_get_response_headers (ex->msg),
                                             "Mcp-Session-Id");
  if (session_id != NULL && http->session_id == NULL && !http->stateless)
    http->session_id = g_strdup (session_id);

  status = soup_message_get_status (ex->msg);
  if ((status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN) &&
      authorize (ex, status))
    return;
  if (status == SOUP_STATUS_ACCEPTED || status == SOUP_STATUS_NO_CONTENT)
    {
      exchange_free (ex);
      return;
    }
  if (status == SOUP_STATUS_NOT_FOUND && http->session_id != NULL)
    {
      _tb_mcp_client_lost (http->client, http->generation,
                           _("ended the session (HTTP 404); restart the server to open a new "
                             "one"));
      exchange_free (ex);
      return;
    }
  /* A stateless server refuses with a JSON-RPC error in the body (400 for
   * an unsupported revision or a header that does not match); it is read
   * and answers the request. */
  if (!SOUP_STATUS_IS_SUCCESSFUL (status) && http->stateless && ex->request_id >= 0 &&
      g_strcmp0 (soup_message_headers_get_content_type (
                   soup_message_get_response_headers (ex->msg), NULL), "application/json") == 0)
    {
      ex->refused = status;
      if (!start_reading (ex))
        exchange_free (ex);
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autofree char *text =
        /* Translators: an HTTP status code and its reason phrase */
        g_strdup_printf (_("The MCP server refused the request with HTTP status %u (%s)"),
                         status, soup_message_get_reason_phrase (ex->msg));

      exchange_fail (ex, TB_MCP_ERROR_HTTP, text);
      exchange_free (ex);
      return;
    }
  if (!start_reading (ex))
    exchange_free (ex);
}

static void
cancel_child (GCancellable *parent,
              GCancellable *child)
{
  g_cancellable_cancel (child);
}

/**
 * _tb_mcp_http_end_listening:
 * @self: the transport
 *
 * Closes the event stream of the subscriptions/listen request, which is
 * how the stateless revision ends a subscription over HTTP.
 */
void
_tb_mcp_http_end_listening (TbMcpHttp *self)
{
  if (self->listening != NULL)
    g_cancellable_cancel (self->listening);
  g_clear_object (&self->listening);
}

void
_tb_mcp_http_open_stream (TbMcpHttp *self)
{
  Exchange *ex = g_new0 (Exchange, 1);

  ex->http = self;
  ex->cancellable = g_object_ref (self->cancellable);
  ex->request_id = -1;
  ex->standalone = TRUE;
  ex->retry_ms = DEFAULT_RETRY_MS;
  ex->line = g_byte_array_new ();
  ex->data = g_string_new (NULL);
  reconnect_timeout_cb (ex);
}

static gboolean
message_is (JsonNode   *message,
            const char *method)
{
  return JSON_NODE_HOLDS_OBJECT (message) &&
         g_strcmp0 (tb_json_object_get_string (json_node_get_object (message), "method"),
                    method) == 0;
}

void
_tb_mcp_http_send (TbMcpHttp *self,
                   JsonNode  *message,
                   gint64     request_id)
{
  Exchange *ex = g_new0 (Exchange, 1);
  g_autofree char *text = tb_json_to_string (message, FALSE);
  g_autoptr(GBytes) body = NULL;
  gsize length = strlen (text);

  ex->http = self;
  ex->request_id = request_id;
  ex->retry_ms = DEFAULT_RETRY_MS;
  if (request_id >= 0 && message_is (message, "subscriptions/listen"))
    {
      /* Its own cancellable, which ends the subscription alone. */
      ex->cancellable = g_cancellable_new ();
      ex->parent = g_object_ref (self->cancellable);
      ex->parent_id = g_cancellable_connect (ex->parent, G_CALLBACK (cancel_child),
                                             g_object_ref (ex->cancellable), g_object_unref);
      _tb_mcp_http_end_listening (self);
      self->listening = g_object_ref (ex->cancellable);
    }
  else
    ex->cancellable = g_object_ref (self->cancellable);
  ex->wire_exchange = _tb_mcp_wire_sent (self->client, message, text, length, TRUE);
  if (JSON_NODE_HOLDS_OBJECT (message))
    {
      JsonObject *object = json_node_get_object (message);
      JsonNode *params = json_object_get_member (object, "params");
      JsonObject *p = params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                      ? json_node_get_object (params) : NULL;

      ex->method = g_strdup (tb_json_object_get_string (object, "method"));
      if (g_strcmp0 (ex->method, "tools/call") == 0 || g_strcmp0 (ex->method, "prompts/get") == 0)
        ex->name = g_strdup (tb_json_object_get_string (p, "name"));
      if (self->stateless && g_strcmp0 (ex->method, "tools/call") == 0 && ex->name != NULL)
        {
          JsonNode *arguments = json_object_get_member (p, "arguments");

          ex->param_headers =
            _tb_mcp_param_headers_collect (_tb_mcp_client_find_tool_schema (self->client,
                                                                             ex->name),
                                           arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments)
                                           ? json_node_get_object (arguments) : NULL);
        }
      else if (g_strcmp0 (ex->method, "resources/read") == 0)
        ex->name = g_strdup (tb_json_object_get_string (p, "uri"));
      else if (ex->method != NULL && g_str_has_prefix (ex->method, "tasks/"))
        ex->name = g_strdup (tb_json_object_get_string (p, "taskId"));
    }
  body = g_bytes_new_take (g_steal_pointer (&text), length);
  ex->request_body = g_bytes_ref (body);
  if (!post (ex))
    {
      g_autofree char *cause = g_strdup_printf (_("has an unusable URL “%s”"), self->url);

      exchange_free (ex);
      _tb_mcp_client_lost (self->client, self->generation, cause);
    }
}
