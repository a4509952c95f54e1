/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace"

#include "config.h"

#include "tb-json.h"
#include "tb-trace-event.h"
#include "tb-trace-private.h"

/**
 * TbTraceEvent:
 *
 * One immutable event of a run: its sequence number, a monotonic time in
 * microseconds since the trace began, a type (`request`, `response`,
 * `tool-call`, `decision`, `tool-result`, `message`, `warning`, `error`,
 * `end`, …) and a JSON object payload. See docs/loop.md.
 *
 * An event the dispatch loop appends holds its payload as the JSON text
 * it is written as (tb-trace-line.c) and parses it only when someone asks
 * for the payload: a recorded run writes the text as it is, so most
 * events are never parsed at all.
 */
struct _TbTraceEvent
{
  GObject     parent_instance;

  guint64     seq;
  gint64      time_us;
  char       *event_type;
  JsonObject *payload;    /* NULL until asked for when there is text */
  char       *text;       /* the payload as a compact JSON object, or NULL */
  gsize       length;
};

G_DEFINE_FINAL_TYPE (TbTraceEvent, tb_trace_event, G_TYPE_OBJECT)

static void
tb_trace_event_finalize (GObject *object)
{
  TbTraceEvent *self = (TbTraceEvent *)object;

  g_clear_pointer (&self->event_type, g_free);
  g_clear_pointer (&self->payload, json_object_unref);
  g_clear_pointer (&self->text, g_free);

  G_OBJECT_CLASS (tb_trace_event_parent_class)->finalize (object);
}

static void
tb_trace_event_class_init (TbTraceEventClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_trace_event_finalize;
}

static void
tb_trace_event_init (TbTraceEvent *self)
{
}

/**
 * tb_trace_event_new:
 * @seq: the sequence number
 * @time_us: monotonic microseconds since the trace began
 * @event_type: the type
 * @payload: (nullable): the payload; it is sealed and must not change afterwards
 *
 * Makes one event of a trace, immutable.
 *
 * Returns: (transfer full): a new event
 */
TbTraceEvent *
tb_trace_event_new (guint64     seq,
                    gint64      time_us,
                    const char *event_type,
                    JsonObject *payload)
{
  TbTraceEvent *self;

  g_return_val_if_fail (event_type != NULL, NULL);

  self = g_object_new (TB_TYPE_TRACE_EVENT, NULL);
  self->seq = seq;
  self->time_us = time_us;
  self->event_type = g_strdup (event_type);
  self->payload = payload != NULL ? json_object_ref (payload) : json_object_new ();
  json_object_seal (self->payload);
  return self;
}

/* An event whose payload is @text, a compact JSON object that the
 * caller wrote itself (so it always parses); the event takes it. */
TbTraceEvent *
_tb_trace_event_new_text (guint64     seq,
                          gint64      time_us,
                          const char *event_type,
                          char       *text,
                          gsize       length)
{
  TbTraceEvent *self = g_object_new (TB_TYPE_TRACE_EVENT, NULL);

  self->seq = seq;
  self->time_us = time_us;
  self->event_type = g_strdup (event_type);
  self->text = text;
  self->length = length;
  return self;
}

/* The payload's text, when the event was made from text. */
const char *
_tb_trace_event_peek_text (TbTraceEvent *self,
                           gsize        *length)
{
  *length = self->length;
  return self->text;
}

/**
 * tb_trace_event_get_seq:
 * @self: an event
 *
 * Gives the event's number in its trace: 1 for the first, one more for each
 * next one.
 *
 * Returns: the sequence number
 */
guint64
tb_trace_event_get_seq (TbTraceEvent *self)
{
  g_return_val_if_fail (TB_IS_TRACE_EVENT (self), 0);
  return self->seq;
}

/**
 * tb_trace_event_get_time_us:
 * @self: an event
 *
 * Tells when the event happened, on a clock that starts with the trace and
 * never goes back.
 *
 * Returns: microseconds since the trace began
 */
gint64
tb_trace_event_get_time_us (TbTraceEvent *self)
{
  g_return_val_if_fail (TB_IS_TRACE_EVENT (self), 0);
  return self->time_us;
}

/**
 * tb_trace_event_get_event_type:
 * @self: an event
 *
 * Names what happened, such as "request", "tool-call" or "decision"; the
 * trace format lists every type.
 *
 * Returns: the event's type
 */
const char *
tb_trace_event_get_event_type (TbTraceEvent *self)
{
  g_return_val_if_fail (TB_IS_TRACE_EVENT (self), NULL);
  return self->event_type;
}

/* Text the loop wrote: no limits to apply, and it always parses. */
static JsonObject *
parse_payload (TbTraceEvent *self)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonObject *payload;
  JsonNode *root;

  if (json_parser_load_from_data (parser, self->text, self->length, NULL) &&
      (root = json_parser_get_root (parser)) != NULL && JSON_NODE_HOLDS_OBJECT (root))
    payload = json_object_ref (json_node_get_object (root));
  else
    payload = json_object_new ();
  json_object_seal (payload);
  return payload;
}

/**
 * tb_trace_event_get_payload:
 * @self: an event
 *
 * Gives what the event says besides its number, time and type.
 *
 * Returns: (transfer none): the sealed payload
 */
JsonObject *
tb_trace_event_get_payload (TbTraceEvent *self)
{
  g_return_val_if_fail (TB_IS_TRACE_EVENT (self), NULL);

  if (self->payload == NULL)
    self->payload = parse_payload (self);
  return self->payload;
}

/* The payload with a reference, parsed for the caller alone when the
 * event has not kept it: for a reader that looks once at many events. */
JsonObject *
_tb_trace_event_dup_payload (TbTraceEvent *self)
{
  return self->payload != NULL ? json_object_ref (self->payload) : parse_payload (self);
}

/**
 * tb_trace_event_to_json:
 * @self: an event
 *
 * The event as one line of the trace format: `{"seq", "t", "type", …payload}`.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
tb_trace_event_to_json (TbTraceEvent *self)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  g_return_val_if_fail (TB_IS_TRACE_EVENT (self), NULL);

  json_object_set_int_member (object, "seq", (gint64) self->seq);
  json_object_set_int_member (object, "t", self->time_us);
  json_object_set_string_member (object, "type", self->event_type);

  json_object_iter_init (&iter, tb_trace_event_get_payload (self));
  while (json_object_iter_next (&iter, &member, &value))
    if (!json_object_has_member (object, member))
      json_object_set_member (object, member, json_node_copy (value));

  json_node_take_object (node, object);
  return node;
}
