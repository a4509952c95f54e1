/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-enums.h"
#include "tb-json.h"
#include "tb-mcp-wire-private.h"

/**
 * TbMcpWireRecord:
 *
 * One record of an MCP client's protocol view: a JSON-RPC message the
 * client sent or received, or one HTTP exchange of the streamable HTTP
 * transport. It is immutable.
 *
 * A message record says when it went (wall clock), which way, what it is
 * (request, notification, result, error, batch, or invalid: not a
 * JSON-RPC message), its method (for a result or an error: the method of
 * the request it answers), its id, its size in bytes and its text, cut at
 * %TB_MCP_WIRE_MAX_TEXT. The tool call that caused it, when there is one,
 * is its call id. Over HTTP it names the exchange that carried it.
 *
 * An HTTP record holds the exchange's request line, status line and
 * headers. Credentials never reach it: `Authorization`,
 * `Proxy-Authorization`, `Cookie`, `Set-Cookie`, every header named like a
 * credential and every header the server's configuration adds have the
 * value `[redacted]`.
 *
 * tb_mcp_wire_record_to_line() gives the JSON Lines form that
 * `toolbench-cli --wire` and the app's export write, described in
 * docs/protocol-view.md; tb_mcp_wire_record_new_from_json() reads it back.
 */

G_DEFINE_FINAL_TYPE (TbMcpWireRecord, tb_mcp_wire_record, G_TYPE_OBJECT)

static void
tb_mcp_wire_record_finalize (GObject *object)
{
  TbMcpWireRecord *self = (TbMcpWireRecord *) object;

  g_free (self->server);
  g_free (self->protocol);
  g_free (self->method);
  g_free (self->id);
  g_free (self->text);
  g_free (self->problem);
  g_free (self->call_id);
  g_clear_pointer (&self->http, json_object_unref);

  G_OBJECT_CLASS (tb_mcp_wire_record_parent_class)->finalize (object);
}

static void
tb_mcp_wire_record_class_init (TbMcpWireRecordClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_mcp_wire_record_finalize;
}

static void
tb_mcp_wire_record_init (TbMcpWireRecord *self)
{
}

TbMcpWireRecord *
_tb_mcp_wire_record_new (void)
{
  return g_object_new (TB_TYPE_MCP_WIRE_RECORD, NULL);
}

/* What the record costs the history: its text, its headers, and the rest. */
gsize
_tb_mcp_wire_record_get_cost (TbMcpWireRecord *self)
{
  gsize cost = 256;

  if (self->text != NULL)
    cost += strlen (self->text);
  if (self->http != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), self->http);
      g_autofree char *text = tb_json_to_string (node, FALSE);

      cost += strlen (text);
    }
  return cost;
}

/**
 * tb_mcp_wire_record_get_seq:
 * @self: a record
 *
 * Gives the record's place in its client's protocol view, which orders the
 * records of one server.
 *
 * Returns: the sequence number, from 1
 */
guint64
tb_mcp_wire_record_get_seq (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), 0);
  return self->seq;
}

/**
 * tb_mcp_wire_record_get_time:
 * @self: a record
 *
 * Tells when the message went.
 *
 * Returns: when the message went or the exchange was answered, in
 *   microseconds since 1970 (g_get_real_time())
 */
gint64
tb_mcp_wire_record_get_time (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), 0);
  return self->time;
}

/**
 * tb_mcp_wire_record_get_server:
 * @self: a record
 *
 * Names the server the message went to or came from.
 *
 * Returns: the server's name
 */
const char *
tb_mcp_wire_record_get_server (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->server;
}

/**
 * tb_mcp_wire_record_get_protocol:
 * @self: a record
 *
 * Tells which revision of MCP the message followed.
 *
 * Returns: (nullable): the protocol revision the message went in
 *   ("2026-07-28" for the stateless one and its probe), or %NULL during
 *   the handshake, before a revision is agreed
 */
const char *
tb_mcp_wire_record_get_protocol (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->protocol;
}

/**
 * tb_mcp_wire_record_get_direction:
 * @self: a record
 *
 * Tells whether the message went to the server or came from it.
 *
 * Returns: the direction
 */
TbMcpWireDirection
tb_mcp_wire_record_get_direction (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), TB_MCP_WIRE_DIRECTION_NONE);
  return self->direction;
}

/**
 * tb_mcp_wire_record_get_kind:
 * @self: a record
 *
 * Tells what the record is: a request, a result, an error, a notification,
 * an invalid message or an HTTP exchange.
 *
 * Returns: the kind
 */
TbMcpWireKind
tb_mcp_wire_record_get_kind (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), TB_MCP_WIRE_KIND_INVALID);
  return self->kind;
}

/**
 * tb_mcp_wire_record_get_method:
 * @self: a record
 *
 * Names what the message is about.
 *
 * Returns: (nullable): the method of a request or notification; for a
 *   result or an error, the method of the request it answers when the
 *   client knows it; for an HTTP exchange, the method of the message it
 *   carried
 */
const char *
tb_mcp_wire_record_get_method (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->method;
}

/**
 * tb_mcp_wire_record_get_id:
 * @self: a record
 *
 * Gives the id that pairs a request with its answer.
 *
 * Returns: (nullable): the JSON-RPC id as JSON text (`7`, `"ask-1"`)
 */
const char *
tb_mcp_wire_record_get_id (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->id;
}

/**
 * tb_mcp_wire_record_get_size:
 * @self: a record
 *
 * Gives the size of the message as it went.
 *
 * Returns: the size of the whole message in bytes, also when only part of
 *   it is kept; for a message too large to read, the bytes read before the
 *   client stopped
 */
guint64
tb_mcp_wire_record_get_size (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), 0);
  return self->size;
}

/**
 * tb_mcp_wire_record_get_text:
 * @self: a record
 *
 * Gives the message as it went, for the protocol view.
 *
 * Returns: (nullable): the message's text as it went, cut at
 *   %TB_MCP_WIRE_MAX_TEXT when tb_mcp_wire_record_get_truncated() says so
 *   (made valid UTF-8); %NULL for an HTTP exchange
 */
const char *
tb_mcp_wire_record_get_text (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->text;
}

/**
 * tb_mcp_wire_record_get_truncated:
 * @self: a record
 *
 * Tells whether only the start of a long message is kept.
 *
 * Returns: %TRUE when the text was cut at %TB_MCP_WIRE_MAX_TEXT
 */
gboolean
tb_mcp_wire_record_get_truncated (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), FALSE);
  return self->truncated;
}

/**
 * tb_mcp_wire_record_get_problem:
 * @self: a record
 *
 * Tells what went wrong with the message or the exchange.
 *
 * Returns: (nullable): for an invalid message, why it is not one; for an
 *   HTTP exchange without an answer, why
 */
const char *
tb_mcp_wire_record_get_problem (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->problem;
}

/**
 * tb_mcp_wire_record_get_call_id:
 * @self: a record
 *
 * Links a message to the tool call that caused it, so that the trace can
 * show it under the call.
 *
 * Returns: (nullable): the id of the tool call whose `tools/call` caused
 *   the message (the registry's call id), when there is one
 */
const char *
tb_mcp_wire_record_get_call_id (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->call_id;
}

/**
 * tb_mcp_wire_record_get_exchange:
 * @self: a record
 *
 * Groups the messages that went in one HTTP exchange.
 *
 * Returns: over HTTP, the number of the exchange that carried the message
 *   (or of the exchange itself); 0 over stdio
 */
guint
tb_mcp_wire_record_get_exchange (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), 0);
  return self->exchange;
}

/**
 * tb_mcp_wire_record_get_http:
 * @self: a record
 *
 * Gives the request and response lines and headers of an HTTP exchange,
 * with credentials masked.
 *
 * Returns: (transfer none) (nullable): for an HTTP exchange,
 *   `{request_line, status, status_line, request_headers,
 *   response_headers, error}` as described in docs/protocol-view.md
 */
JsonObject *
tb_mcp_wire_record_get_http (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);
  return self->http;
}

/**
 * tb_mcp_wire_record_dup_message:
 * @self: a record
 *
 * Parses the message the record holds, for a program that looks into it.
 *
 * Returns: (transfer full) (nullable): the message as JSON, or %NULL when
 *   the record holds no whole JSON message (an HTTP exchange, a truncated
 *   or invalid message)
 */
JsonNode *
tb_mcp_wire_record_dup_message (TbMcpWireRecord *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);

  if (self->text == NULL || self->truncated || self->kind == TB_MCP_WIRE_KIND_INVALID ||
      self->kind == TB_MCP_WIRE_KIND_HTTP)
    return NULL;
  return tb_json_parse (self->text, -1, NULL);
}

static const char *
enum_nick (GType type,
           int   value)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  GEnumValue *found = g_enum_get_value (klass, value);

  return found != NULL ? found->value_nick : NULL;
}

static gboolean
enum_from_nick (GType       type,
                const char *nick,
                int        *value)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  GEnumValue *found = nick != NULL ? g_enum_get_value_by_nick (klass, nick) : NULL;

  if (found == NULL)
    return FALSE;
  *value = found->value;
  return TRUE;
}

static char *
format_time (gint64 time_us)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (time_us / G_USEC_PER_SEC);
  g_autoptr(GDateTime) exact = NULL;

  if (seconds == NULL)
    return NULL;
  exact = g_date_time_add (seconds, time_us % G_USEC_PER_SEC);
  return g_date_time_format (exact, "%Y-%m-%dT%H:%M:%S.%fZ");
}

/**
 * tb_mcp_wire_record_to_json:
 * @self: a record
 *
 * The record as one line of the JSON Lines form: `seq`, `time`, `server`,
 * `protocol`, `direction`, `kind`, `method`, `id`, `size`, `call_id`, `exchange`,
 * `truncated`, `problem`, and `message` (the JSON) or `text`, or `http`.
 * Members without a value are left out.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
tb_mcp_wire_record_to_json (TbMcpWireRecord *self)
{
  JsonObject *object;
  g_autofree char *time = NULL;
  g_autoptr(JsonNode) message = NULL;

  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);

  object = json_object_new ();
  json_object_set_int_member (object, "seq", (gint64) self->seq);
  time = format_time (self->time);
  if (time != NULL)
    json_object_set_string_member (object, "time", time);
  if (self->server != NULL)
    json_object_set_string_member (object, "server", self->server);
  if (self->protocol != NULL)
    json_object_set_string_member (object, "protocol", self->protocol);
  if (self->direction != TB_MCP_WIRE_DIRECTION_NONE)
    json_object_set_string_member (object, "direction",
                                   enum_nick (TB_TYPE_MCP_WIRE_DIRECTION, self->direction));
  json_object_set_string_member (object, "kind", enum_nick (TB_TYPE_MCP_WIRE_KIND, self->kind));
  if (self->method != NULL)
    json_object_set_string_member (object, "method", self->method);
  if (self->id != NULL)
    {
      JsonNode *id = tb_json_parse (self->id, -1, NULL);

      json_object_set_member (object, "id", id != NULL ? id : tb_json_node_new_string (self->id));
    }
  if (self->kind != TB_MCP_WIRE_KIND_HTTP)
    json_object_set_int_member (object, "size", (gint64) self->size);
  if (self->call_id != NULL)
    json_object_set_string_member (object, "call_id", self->call_id);
  if (self->exchange != 0)
    json_object_set_int_member (object, "exchange", self->exchange);
  if (self->truncated)
    json_object_set_boolean_member (object, "truncated", TRUE);
  if (self->problem != NULL)
    json_object_set_string_member (object, "problem", self->problem);

  message = tb_mcp_wire_record_dup_message (self);
  if (message != NULL)
    json_object_set_member (object, "message", g_steal_pointer (&message));
  else if (self->text != NULL)
    json_object_set_string_member (object, "text", self->text);
  if (self->http != NULL)
    json_object_set_member (object, "http",
                            json_node_init_object (json_node_alloc (), self->http));

  return tb_json_node_take_object (object);
}

/**
 * tb_mcp_wire_record_to_line:
 * @self: a record
 *
 * Writes the record as one line of a `--wire` file (JSON Lines).
 *
 * Returns: (transfer full): tb_mcp_wire_record_to_json() as compact JSON
 *   with a new line at the end
 */
char *
tb_mcp_wire_record_to_line (TbMcpWireRecord *self)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (self), NULL);

  node = tb_mcp_wire_record_to_json (self);
  text = tb_json_to_string (node, FALSE);
  return g_strconcat (text, "\n", NULL);
}

static gboolean
read_uint (JsonObject  *object,
           const char  *member,
           guint64      max,
           guint64     *value,
           GError     **error)
{
  gint64 number = 0;

  if (json_object_get_member (object, member) == NULL)
    return TRUE;
  if (!tb_json_object_get_int_in_range (object, member, 0, (gint64) MIN (max, G_MAXINT64),
                                        &number, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: a member name such as “size” */
                   _("The protocol record's “%s” is not a number of the right range"), member);
      return FALSE;
    }
  *value = (guint64) number;
  return TRUE;
}

static gboolean
read_string (JsonObject  *object,
             const char  *member,
             char       **value,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The protocol record's “%s” is not a string"), member);
      return FALSE;
    }
  *value = g_strdup (json_node_get_string (node));
  return TRUE;
}

/**
 * tb_mcp_wire_record_new_from_json:
 * @node: one line of the JSON Lines form, parsed
 * @error: return location for an error
 *
 * Reads a record back. Members it does not know are ignored.
 *
 * Returns: (transfer full) (nullable): the record, or %NULL with @error
 *   saying what is wrong with it
 */
TbMcpWireRecord *
tb_mcp_wire_record_new_from_json (JsonNode  *node,
                                  GError   **error)
{
  g_autoptr(TbMcpWireRecord) self = NULL;
  JsonObject *object;
  JsonNode *member;
  g_autofree char *kind = NULL;
  g_autofree char *direction = NULL;
  g_autofree char *time = NULL;
  guint64 exchange = 0;
  int value;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("A protocol record must be a JSON object"));
      return NULL;
    }
  object = json_node_get_object (node);
  self = _tb_mcp_wire_record_new ();

  if (!read_string (object, "kind", &kind, error) ||
      !read_string (object, "direction", &direction, error) ||
      !read_string (object, "time", &time, error) ||
      !read_string (object, "server", &self->server, error) ||
      !read_string (object, "protocol", &self->protocol, error) ||
      !read_string (object, "method", &self->method, error) ||
      !read_string (object, "call_id", &self->call_id, error) ||
      !read_string (object, "problem", &self->problem, error) ||
      !read_uint (object, "seq", G_MAXINT64, &self->seq, error) ||
      !read_uint (object, "size", G_MAXINT64, &self->size, error) ||
      !read_uint (object, "exchange", G_MAXUINT, &exchange, error))
    return NULL;
  self->exchange = exchange;

  if (kind == NULL || !enum_from_nick (TB_TYPE_MCP_WIRE_KIND, kind, &value))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The protocol record's kind “%s” is not one of request, notification, "
                     "result, error, batch, invalid or http"), kind != NULL ? kind : "");
      return NULL;
    }
  self->kind = value;

  if (direction != NULL)
    {
      if (!enum_from_nick (TB_TYPE_MCP_WIRE_DIRECTION, direction, &value))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The protocol record's direction “%s” is neither sent nor received"),
                       direction);
          return NULL;
        }
      self->direction = value;
    }

  if (time != NULL)
    {
      g_autoptr(GDateTime) parsed = g_date_time_new_from_iso8601 (time, NULL);

      if (parsed == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The protocol record's time “%s” is not an ISO 8601 time"), time);
          return NULL;
        }
      self->time = g_date_time_to_unix (parsed) * G_USEC_PER_SEC
                   + g_date_time_get_microsecond (parsed);
    }

  member = json_object_get_member (object, "id");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    self->id = tb_json_to_string (member, FALSE);

  self->truncated = tb_json_object_get_boolean (object, "truncated", FALSE);

  member = json_object_get_member (object, "message");
  if (member != NULL)
    self->text = tb_json_to_string (member, FALSE);
  else if (!read_string (object, "text", &self->text, error))
    return NULL;
  if (self->text != NULL && json_object_get_member (object, "size") == NULL)
    self->size = strlen (self->text);

  member = json_object_get_member (object, "http");
  if (member != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (member))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("The protocol record's “http” is not an object"));
          return NULL;
        }
      self->http = json_object_ref (json_node_get_object (member));
      json_object_seal (self->http);
    }

  return g_steal_pointer (&self);
}
