/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The protocol view of one MCP client: every JSON-RPC message in both
 * directions and every HTTP exchange, as TbMcpWireRecord, kept in a
 * bounded history (a GListModel) and announced with
 * TbMcpClient::wire-record. The transports call in here once where a
 * message goes out, once where one comes in, and once where an HTTP
 * exchange is answered; everything else (what a message is, which
 * request a result answers, which tool call caused it, masking the
 * credentials of HTTP headers, the bounds) happens here. */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-mcp-wire-private.h"
#include "tb-redact.h"
#include "tb-tool-private.h"

/* How many requests, progress tokens and exchanges are remembered for
 * attributing their answers: a server that never answers cannot grow
 * this. */
#define MAX_NOTES 4096

typedef struct
{
  char *method;
  char *id;
  char *call_id;
} Note;

typedef struct
{
  GListStore *history;
  gsize       bytes;
  guint64     next_seq;
  guint       next_exchange;
  TbRedactor *redactor;
  GHashTable *notes;        /* "o:ID" ours, "s:ID" the server's, "t:TOKEN", "x:N" → Note */
  GQueue      note_order;
} TbMcpWire;

static guint wire_record_signal;

static void
note_free (gpointer data)
{
  Note *note = data;

  g_free (note->method);
  g_free (note->id);
  g_free (note->call_id);
  g_free (note);
}

void
_tb_mcp_wire_free (gpointer data)
{
  TbMcpWire *wire = data;

  if (wire == NULL)
    return;
  g_clear_object (&wire->history);
  g_clear_object (&wire->redactor);
  g_clear_pointer (&wire->notes, g_hash_table_unref);
  g_queue_clear_full (&wire->note_order, g_free);
  g_free (wire);
}

static TbMcpWire *
wire_get (TbMcpClient *client)
{
  TbMcpWire *wire = client->wire;

  if (wire != NULL)
    return wire;

  wire = g_new0 (TbMcpWire, 1);
  wire->history = g_list_store_new (TB_TYPE_MCP_WIRE_RECORD);
  wire->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, note_free);
  g_queue_init (&wire->note_order);
  /* The values of the headers the configuration adds are API keys. */
  wire->redactor = tb_redactor_new ();
  for (guint i = 0; client->headers != NULL && client->headers[i] != NULL; i++)
    {
      const char *colon = strchr (client->headers[i], ':');

      if (colon != NULL)
        {
          g_autofree char *value = g_strstrip (g_strdup (colon + 1));

          tb_redactor_add_secret (wire->redactor, value);
        }
    }
  client->wire = wire;
  return wire;
}

/* Notes: what the answers and notifications to come need to know. */

static void
note_add (TbMcpWire  *wire,
          char       *key,
          const char *method,
          const char *id,
          const char *call_id)
{
  Note *note = g_new0 (Note, 1);

  note->method = g_strdup (method);
  note->id = g_strdup (id);
  note->call_id = g_strdup (call_id);
  g_queue_push_tail (&wire->note_order, g_strdup (key));
  g_hash_table_replace (wire->notes, key, note);
  while (wire->note_order.length > MAX_NOTES)
    {
      g_autofree char *oldest = g_queue_pop_head (&wire->note_order);

      g_hash_table_remove (wire->notes, oldest);
    }
}

static Note *
note_lookup (TbMcpWire  *wire,
             const char *prefix,
             const char *id)
{
  g_autofree char *key = NULL;

  if (id == NULL)
    return NULL;
  key = g_strconcat (prefix, id, NULL);
  return g_hash_table_lookup (wire->notes, key);
}

/* The id of a JSON-RPC message, as JSON text. */
static char *
id_text (JsonNode *id)
{
  if (id == NULL || JSON_NODE_HOLDS_NULL (id))
    return NULL;
  return tb_json_to_string (id, FALSE);
}

static char *
token_text (JsonObject *params)
{
  JsonObject *meta = tb_json_object_get_object (params, "_meta");
  JsonNode *token = meta != NULL ? json_object_get_member (meta, "progressToken") : NULL;

  if (token == NULL && params != NULL)
    token = json_object_get_member (params, "progressToken");
  return id_text (token);
}

/* A message that names no request (a log line, a server's question)
 * belongs to the one tool call in flight, when there is exactly one. */
static char *
call_in_flight (TbMcpClient *client,
                TbMcpWire   *wire)
{
  GHashTableIter iter;
  Pending *p;
  const char *found = NULL;

  g_hash_table_iter_init (&iter, client->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &p))
    {
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, p->id);
      Note *note = note_lookup (wire, "o:", id);

      if (note == NULL || note->call_id == NULL)
        continue;
      if (found != NULL && !g_str_equal (found, note->call_id))
        return NULL;
      found = note->call_id;
    }
  return g_strdup (found);
}

static void
classify (JsonNode       *message,
          TbMcpWireKind  *kind,
          const char    **method,
          JsonNode      **id,
          JsonObject    **params,
          const char    **problem)
{
  JsonObject *object;

  *method = NULL;
  *id = NULL;
  *params = NULL;
  *problem = NULL;

  if (JSON_NODE_HOLDS_ARRAY (message))
    {
      *kind = TB_MCP_WIRE_KIND_BATCH;
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (message))
    {
      *kind = TB_MCP_WIRE_KIND_INVALID;
      *problem = _("A JSON value that is not a JSON-RPC message");
      return;
    }

  object = json_node_get_object (message);
  *method = tb_json_object_get_string (object, "method");
  *id = json_object_get_member (object, "id");
  *params = tb_json_object_get_object (object, "params");
  if (*method != NULL)
    *kind = *id != NULL ? TB_MCP_WIRE_KIND_REQUEST : TB_MCP_WIRE_KIND_NOTIFICATION;
  else if (json_object_has_member (object, "error"))
    *kind = TB_MCP_WIRE_KIND_ERROR;
  else if (json_object_has_member (object, "result"))
    *kind = TB_MCP_WIRE_KIND_RESULT;
  else
    {
      *kind = TB_MCP_WIRE_KIND_INVALID;
      *problem = _("A JSON object that is neither a request, a notification nor a response");
    }
}

/* The history. */

static void
append (TbMcpClient     *client,
        TbMcpWire       *wire,
        TbMcpWireRecord *record)
{
  GListModel *model = G_LIST_MODEL (wire->history);
  guint n;
  guint drop = 0;
  gsize bytes;

  record->seq = ++wire->next_seq;
  if (record->time == 0)
    record->time = g_get_real_time ();
  g_free (record->server);
  record->server = g_strdup (client->name);
  if (record->protocol == NULL)
    record->protocol = g_strdup (client->stateless ? TB_MCP_PROTOCOL_VERSION_STATELESS
                                                   : client->protocol_version);

  wire->bytes += _tb_mcp_wire_record_get_cost (record);
  g_list_store_append (wire->history, record);

  /* The oldest go, in one change, until both bounds hold; the newest
   * record always stays. */
  n = g_list_model_get_n_items (model);
  bytes = wire->bytes;
  while (n - drop > 1 &&
         (n - drop > TB_MCP_WIRE_HISTORY_MAX_RECORDS || bytes > TB_MCP_WIRE_HISTORY_MAX_BYTES))
    {
      g_autoptr(TbMcpWireRecord) oldest = g_list_model_get_item (model, drop);

      bytes -= _tb_mcp_wire_record_get_cost (oldest);
      drop++;
    }
  if (drop > 0)
    {
      wire->bytes = bytes;
      g_list_store_splice (wire->history, 0, drop, NULL, 0);
    }

  g_signal_emit (client, wire_record_signal, 0, record);
}

/* The text kept of a message: valid UTF-8, cut at the bound on a
 * character's start. */
static void
set_text (TbMcpWireRecord *record,
          const char      *text,
          gsize            length)
{
  gsize kept = length;

  record->size = length;
  if (kept > TB_MCP_WIRE_MAX_TEXT)
    {
      kept = TB_MCP_WIRE_MAX_TEXT;
      /* A UTF-8 character has at most three bytes after its first. */
      while (kept > TB_MCP_WIRE_MAX_TEXT - 3 && ((guchar) text[kept] & 0xC0) == 0x80)
        kept--;
      record->truncated = TRUE;
    }
  record->text = g_utf8_make_valid (text, kept);
}

static TbMcpWireRecord *
message_record (TbMcpWireDirection  direction,
                const char         *text,
                gsize               length,
                guint               exchange)
{
  TbMcpWireRecord *record = _tb_mcp_wire_record_new ();

  record->direction = direction;
  record->exchange = exchange;
  set_text (record, text, length);
  return record;
}

/**
 * _tb_mcp_wire_begin_exchange:
 * @client: a client
 * @continues: the exchange whose event stream the new one resumes, or 0
 *
 * Returns: the number of a new HTTP exchange, for the records of the
 *   messages it carries and for _tb_mcp_wire_exchange()
 */
guint
_tb_mcp_wire_begin_exchange (TbMcpClient *client,
                             guint        continues)
{
  TbMcpWire *wire = wire_get (client);
  g_autofree char *key = NULL;
  Note *note;

  if (++wire->next_exchange == 0)
    wire->next_exchange = 1;

  /* A resumed stream still answers the request of the stream it resumes. */
  key = g_strdup_printf ("x:%u", continues);
  note = continues != 0 ? g_hash_table_lookup (wire->notes, key) : NULL;
  if (note != NULL)
    note_add (wire, g_strdup_printf ("x:%u", wire->next_exchange), note->method, note->id,
              note->call_id);
  return wire->next_exchange;
}

/**
 * _tb_mcp_wire_sent:
 * @client: a client
 * @message: the message
 * @text: its text as it goes
 * @length: the length of @text
 * @over_http: whether an HTTP exchange of its own carries it
 *
 * Records a message the client sends.
 *
 * Returns: for @over_http, the number of the exchange that carries it;
 *   otherwise 0
 */
guint
_tb_mcp_wire_sent (TbMcpClient *client,
                   JsonNode    *message,
                   const char  *text,
                   gsize        length,
                   gboolean     over_http)
{
  TbMcpWire *wire = wire_get (client);
  g_autoptr(TbMcpWireRecord) record = NULL;
  g_autofree char *id = NULL;
  TbMcpWireKind kind;
  const char *method;
  const char *problem;
  JsonNode *id_node;
  JsonObject *params;
  guint exchange = over_http ? _tb_mcp_wire_begin_exchange (client, 0) : 0;

  record = message_record (TB_MCP_WIRE_DIRECTION_SENT, text, length, exchange);
  classify (message, &kind, &method, &id_node, &params, &problem);
  id = id_text (id_node);
  record->kind = kind;
  record->method = g_strdup (method);
  record->id = g_strdup (id);
  record->problem = g_strdup (problem);

  if (kind == TB_MCP_WIRE_KIND_REQUEST && id_node != NULL && JSON_NODE_HOLDS_VALUE (id_node) &&
      json_node_get_value_type (id_node) == G_TYPE_INT64)
    {
      gint64 number = json_node_get_int (id_node);
      Pending *p = g_hash_table_lookup (client->pending, &number);
      g_autofree char *token = token_text (params);

      if (p != NULL && p->task != NULL)
        record->call_id = _tb_tool_call_dup_id (g_task_get_cancellable (p->task));
      note_add (wire, g_strconcat ("o:", id, NULL), method, id, record->call_id);
      if (token != NULL)
        note_add (wire, g_strconcat ("t:", token, NULL), method, id, record->call_id);
    }
  else if (kind == TB_MCP_WIRE_KIND_RESULT || kind == TB_MCP_WIRE_KIND_ERROR)
    {
      g_autofree char *key = g_strconcat ("s:", id, NULL);
      Note *note = g_hash_table_lookup (wire->notes, key);

      if (note != NULL)
        {
          record->method = g_strdup (note->method);
          record->call_id = g_strdup (note->call_id);
          g_hash_table_remove (wire->notes, key);
        }
    }
  else if (kind == TB_MCP_WIRE_KIND_NOTIFICATION && g_str_equal (method,
                                                                 "notifications/cancelled"))
    {
      g_autofree char *request = id_text (params != NULL
                                          ? json_object_get_member (params, "requestId") : NULL);
      Note *note = note_lookup (wire, "o:", request);

      if (note != NULL)
        record->call_id = g_strdup (note->call_id);
    }

  if (exchange != 0)
    {
      g_autofree char *key = g_strdup_printf ("x:%u", exchange);

      note_add (wire, g_steal_pointer (&key), record->method, record->id, record->call_id);
    }

  append (client, wire, record);
  return exchange;
}

/* Which tool call a message from the server belongs to. */
static char *
received_call (TbMcpClient *client,
               TbMcpWire   *wire,
               const char  *method,
               JsonObject  *params,
               guint        exchange)
{
  Note *note = NULL;

  if (g_strcmp0 (method, "notifications/progress") == 0)
    {
      g_autofree char *token = token_text (params);

      note = note_lookup (wire, "t:", token);
    }
  else if (g_strcmp0 (method, "notifications/cancelled") == 0)
    {
      g_autofree char *request = id_text (params != NULL
                                          ? json_object_get_member (params, "requestId") : NULL);

      note = note_lookup (wire, "s:", request);
    }
  if (note != NULL)
    return g_strdup (note->call_id);

  /* Over HTTP, what comes on a request's stream belongs to its call. */
  if (exchange != 0)
    {
      g_autofree char *key = g_strdup_printf ("x:%u", exchange);

      note = g_hash_table_lookup (wire->notes, key);
      if (note != NULL && note->call_id != NULL)
        return g_strdup (note->call_id);
    }
  return call_in_flight (client, wire);
}

/**
 * _tb_mcp_wire_received:
 * @client: a client
 * @text: the message's text as it came
 * @length: the length of @text
 * @message: (nullable): the message, or %NULL when @text is not JSON
 * @problem: (nullable): why @text is not JSON
 * @exchange: the HTTP exchange that carried it, or 0
 *
 * Records a message from the server, before the client handles it.
 */
void
_tb_mcp_wire_received (TbMcpClient *client,
                       const char  *text,
                       gsize        length,
                       JsonNode    *message,
                       const char  *problem,
                       guint        exchange)
{
  TbMcpWire *wire = wire_get (client);
  g_autoptr(TbMcpWireRecord) record = NULL;
  TbMcpWireKind kind = TB_MCP_WIRE_KIND_INVALID;
  const char *method = NULL;
  const char *shape_problem = NULL;
  JsonNode *id_node = NULL;
  JsonObject *params = NULL;

  record = message_record (TB_MCP_WIRE_DIRECTION_RECEIVED, text, length, exchange);
  if (message != NULL)
    classify (message, &kind, &method, &id_node, &params, &shape_problem);
  else
    shape_problem = problem != NULL ? problem : _("Not JSON");
  record->kind = kind;
  record->method = g_strdup (method);
  record->id = id_text (id_node);
  record->problem = g_strdup (shape_problem);

  if ((kind == TB_MCP_WIRE_KIND_RESULT || kind == TB_MCP_WIRE_KIND_ERROR) && record->id != NULL)
    {
      g_autofree char *key = g_strconcat ("o:", record->id, NULL);
      Note *note = g_hash_table_lookup (wire->notes, key);

      if (note != NULL)
        {
          record->method = g_strdup (note->method);
          record->call_id = g_strdup (note->call_id);
          g_hash_table_remove (wire->notes, key);
        }
    }
  else
    {
      record->call_id = received_call (client, wire, method, params, exchange);
      if (kind == TB_MCP_WIRE_KIND_REQUEST && record->id != NULL)
        note_add (wire, g_strconcat ("s:", record->id, NULL), method, record->id,
                  record->call_id);
    }

  append (client, wire, record);
}

/**
 * _tb_mcp_wire_received_too_large:
 * @client: a client
 * @text: the start of the message
 * @length: the bytes read of it
 * @exchange: the HTTP exchange that carried it, or 0
 *
 * Records a message the client stopped reading because it is larger than
 * %TB_MCP_MAX_MESSAGE_SIZE.
 */
void
_tb_mcp_wire_received_too_large (TbMcpClient *client,
                                 const char  *text,
                                 gsize        length,
                                 guint        exchange)
{
  TbMcpWire *wire = wire_get (client);
  g_autoptr(TbMcpWireRecord) record = NULL;
  g_autofree char *limit = g_format_size_full (TB_MCP_MAX_MESSAGE_SIZE, G_FORMAT_SIZE_IEC_UNITS);

  record = message_record (TB_MCP_WIRE_DIRECTION_RECEIVED, text, length, exchange);
  record->kind = TB_MCP_WIRE_KIND_INVALID;
  record->truncated = TRUE;
  record->problem = g_strdup_printf (_("The message is larger than %s, the most the client "
                                       "reads; it was not read to its end, and its size is the "
                                       "bytes read"), limit);
  record->call_id = received_call (client, wire, NULL, NULL, exchange);
  append (client, wire, record);
}

/* HTTP exchanges. */

static gboolean
header_is_secret (const char         *name,
                  const char * const *configured)
{
  static const char * const always[] = {
    "authorization", "proxy-authorization", "cookie", "set-cookie",
  };

  for (guint i = 0; i < G_N_ELEMENTS (always); i++)
    if (g_ascii_strcasecmp (name, always[i]) == 0)
      return TRUE;
  if (tb_redactor_is_secret_name (name))
    return TRUE;
  for (guint i = 0; configured != NULL && configured[i] != NULL; i++)
    {
      const char *colon = strchr (configured[i], ':');
      g_autofree char *configured_name = NULL;

      if (colon == NULL)
        continue;
      configured_name = g_strstrip (g_strndup (configured[i], colon - configured[i]));
      if (g_ascii_strcasecmp (name, configured_name) == 0)
        return TRUE;
    }
  return FALSE;
}

typedef struct
{
  JsonArray          *array;
  TbRedactor         *redactor;
  const char * const *configured;
} HeaderCollector;

static void
collect_header (const char *name,
                const char *value,
                gpointer    user_data)
{
  HeaderCollector *collector = user_data;
  JsonArray *pair = json_array_new ();
  g_autofree char *shown_name = g_utf8_make_valid (name, -1);
  g_autofree char *shown = NULL;

  if (header_is_secret (name, collector->configured))
    shown = g_strdup (TB_REDACTED);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);

      shown = tb_redactor_redact_text (collector->redactor, valid);
    }
  json_array_add_string_element (pair, shown_name);
  json_array_add_string_element (pair, shown);
  json_array_add_array_element (collector->array, pair);
}

static JsonArray *
headers_to_json (SoupMessageHeaders *headers,
                 TbRedactor         *redactor,
                 const char * const *configured)
{
  HeaderCollector collector = { json_array_new (), redactor, configured };

  if (headers != NULL)
    soup_message_headers_foreach (headers, collect_header, &collector);
  return collector.array;
}

static const char *
version_text (SoupHTTPVersion version)
{
  switch (version)
    {
    case SOUP_HTTP_1_0:
      return "HTTP/1.0";
    case SOUP_HTTP_2_0:
      return "HTTP/2";
    case SOUP_HTTP_1_1:
    default:
      return "HTTP/1.1";
    }
}

/**
 * _tb_mcp_wire_exchange:
 * @client: a client
 * @exchange: the exchange's number
 * @msg: its message, with the answer's headers when there is an answer
 * @configured_headers: (nullable): the `Name: value` headers the
 *   configuration adds, whose values are masked
 * @error: (nullable): why there is no answer
 *
 * Records an HTTP exchange once its answer's headers came (or it failed).
 */
void
_tb_mcp_wire_exchange (TbMcpClient        *client,
                       guint               exchange,
                       SoupMessage        *msg,
                       const char * const *configured_headers,
                       const GError       *error)
{
  TbMcpWire *wire = wire_get (client);
  g_autoptr(TbMcpWireRecord) record = _tb_mcp_wire_record_new ();
  g_autofree char *key = g_strdup_printf ("x:%u", exchange);
  g_autofree char *url = NULL;
  g_autofree char *target = NULL;
  g_autofree char *request_line = NULL;
  JsonObject *http = json_object_new ();
  GUri *uri = soup_message_get_uri (msg);
  const char *version = version_text (soup_message_get_http_version (msg));
  guint status = soup_message_get_status (msg);
  Note *note = g_hash_table_lookup (wire->notes, key);

  record->kind = TB_MCP_WIRE_KIND_HTTP;
  record->exchange = exchange;
  if (note != NULL)
    {
      record->method = g_strdup (note->method);
      record->id = g_strdup (note->id);
      record->call_id = g_strdup (note->call_id);
    }

  if (uri != NULL)
    {
      g_autofree char *full = g_uri_to_string_partial (uri, G_URI_HIDE_PASSWORD);
      const char *query = g_uri_get_query (uri);

      url = tb_redactor_redact_url (wire->redactor, full);
      target = g_strconcat (*g_uri_get_path (uri) != '\0' ? g_uri_get_path (uri) : "/",
                            query != NULL ? "?" : "", query != NULL ? query : "", NULL);
      if (query != NULL)
        {
          /* The target's parameters go through the same masking as the URL. */
          g_autofree char *shown = tb_redactor_redact_url (wire->redactor, target);

          g_free (target);
          target = g_steal_pointer (&shown);
        }
    }
  request_line = g_strdup_printf ("%s %s %s", soup_message_get_method (msg),
                                  target != NULL ? target : "/", version);
  json_object_set_string_member (http, "request_line", request_line);
  if (url != NULL)
    json_object_set_string_member (http, "url", url);
  json_object_set_array_member (http, "request_headers",
                                headers_to_json (soup_message_get_request_headers (msg),
                                                 wire->redactor, configured_headers));
  if (error == NULL && status != 0)
    {
      g_autofree char *status_line = NULL;
      const char *reason = soup_message_get_reason_phrase (msg);

      status_line = g_strdup_printf ("%s %u %s", version, status,
                                     reason != NULL ? reason : soup_status_get_phrase (status));
      json_object_set_int_member (http, "status", status);
      json_object_set_string_member (http, "status_line", status_line);
      json_object_set_array_member (http, "response_headers",
                                    headers_to_json (soup_message_get_response_headers (msg),
                                                     wire->redactor, configured_headers));
    }
  else
    {
      g_autofree char *why = tb_redactor_redact_text (wire->redactor,
                                                      error != NULL ? error->message : "");

      json_object_set_string_member (http, "error", why);
      record->problem = g_strdup (why);
    }
  json_object_seal (http);
  record->http = http;

  append (client, wire, record);
}

/* The client's part. */

void
_tb_mcp_wire_class_init (GObjectClass *klass)
{
  /**
   * TbMcpClient::wire-record:
   * @self: the client
   * @record: the message or HTTP exchange, just added to the history
   *
   * A message went out or came in, or an HTTP exchange was answered.
   * Emitted on the client's context, after the record joined
   * tb_mcp_client_get_wire_history(); a viewer that cannot keep up with a
   * flood should gather records and show them in batches.
   */
  wire_record_signal = g_signal_new ("wire-record", G_TYPE_FROM_CLASS (klass),
                                     G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                     TB_TYPE_MCP_WIRE_RECORD);
}

/**
 * tb_mcp_client_get_wire_history:
 * @self: a client
 *
 * The protocol view: the client's last messages in both directions and
 * its HTTP exchanges, oldest first, across connections. At most
 * %TB_MCP_WIRE_HISTORY_MAX_RECORDS records and
 * %TB_MCP_WIRE_HISTORY_MAX_BYTES bytes are kept; the oldest go first.
 *
 * Returns: (transfer none): a #GListModel of #TbMcpWireRecord
 */
GListModel *
tb_mcp_client_get_wire_history (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return G_LIST_MODEL (wire_get (self)->history);
}

/**
 * tb_mcp_client_clear_wire_history:
 * @self: a client
 *
 * Forgets the records kept so far. Sequence numbers go on.
 */
void
tb_mcp_client_clear_wire_history (TbMcpClient *self)
{
  TbMcpWire *wire;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  wire = wire_get (self);
  wire->bytes = 0;
  g_list_store_remove_all (wire->history);
}
