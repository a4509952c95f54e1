/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace"

#include "config.h"

#include "tb-json.h"
#include "tb-trace.h"

/**
 * TbTrace:
 *
 * The append-only record of a run, also a #GListModel of #TbTraceEvent
 * so views bind to it directly. The dispatch loop appends; a file writer
 * follows #GListModel::items-changed, and a reader fills a trace with
 * tb_trace_append_event(). Nothing here ever holds a secret: providers
 * keep keys in request headers, which are never recorded.
 */
struct _TbTrace
{
  GObject     parent_instance;

  GPtrArray  *events;
  JsonObject *header;
  gint64      started;
  GPtrArray  *problems;  /* char*, NULL-terminated */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbTrace, tb_trace, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum { PROP_0, PROP_N_ITEMS, N_PROPS };

static GParamSpec *properties [N_PROPS];

static GType
tb_trace_get_item_type (GListModel *model)
{
  return TB_TYPE_TRACE_EVENT;
}

static guint
tb_trace_get_n_items (GListModel *model)
{
  return TB_TRACE (model)->events->len;
}

static gpointer
tb_trace_get_item (GListModel *model,
                   guint       position)
{
  TbTrace *self = TB_TRACE (model);

  if (position >= self->events->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->events, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = tb_trace_get_item_type;
  iface->get_n_items = tb_trace_get_n_items;
  iface->get_item = tb_trace_get_item;
}

static void
tb_trace_finalize (GObject *object)
{
  TbTrace *self = (TbTrace *)object;

  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_clear_pointer (&self->header, json_object_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_trace_parent_class)->finalize (object);
}

static void
tb_trace_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  TbTrace *self = TB_TRACE (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->events->len);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_trace_class_init (TbTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_trace_finalize;
  object_class->get_property = tb_trace_get_property;

  properties [PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_trace_init (TbTrace *self)
{
  self->events = g_ptr_array_new_with_free_func (g_object_unref);
  self->header = json_object_new ();
  self->started = g_get_monotonic_time ();
}

TbTrace *
tb_trace_new (void)
{
  return g_object_new (TB_TYPE_TRACE, NULL);
}

/**
 * tb_trace_append_event:
 * @self: a trace
 * @event: an event, kept as it is (a reader restores recorded ones)
 */
void
tb_trace_append_event (TbTrace      *self,
                       TbTraceEvent *event)
{
  g_return_if_fail (TB_IS_TRACE (self));
  g_return_if_fail (TB_IS_TRACE_EVENT (event));

  g_ptr_array_add (self->events, g_object_ref (event));
  g_list_model_items_changed (G_LIST_MODEL (self), self->events->len - 1, 0, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_ITEMS]);
}

/**
 * tb_trace_append:
 * @self: a trace
 * @event_type: the event's type
 * @payload: (nullable): the payload; the trace takes a reference and seals it
 *
 * Appends a new event numbered after the last one, timed from the
 * trace's start.
 *
 * Returns: (transfer none): the event
 */
TbTraceEvent *
tb_trace_append (TbTrace    *self,
                 const char *event_type,
                 JsonObject *payload)
{
  g_autoptr(TbTraceEvent) event = NULL;

  g_return_val_if_fail (TB_IS_TRACE (self), NULL);
  g_return_val_if_fail (event_type != NULL, NULL);

  /* Numbered from 1, as in the trace file. */
  event = tb_trace_event_new (self->events->len + 1, g_get_monotonic_time () - self->started,
                              event_type, payload);
  tb_trace_append_event (self, event);
  return event;
}

/**
 * tb_trace_get_event:
 *
 * Returns: (transfer none) (nullable): the event at @position
 */
TbTraceEvent *
tb_trace_get_event (TbTrace *self,
                    guint    position)
{
  g_return_val_if_fail (TB_IS_TRACE (self), NULL);

  if (position >= self->events->len)
    return NULL;
  return g_ptr_array_index (self->events, position);
}

guint
tb_trace_get_n_events (TbTrace *self)
{
  g_return_val_if_fail (TB_IS_TRACE (self), 0);
  return self->events->len;
}

/**
 * tb_trace_get_header:
 *
 * The header line's contents: tool definitions and provider settings,
 * written by whoever starts the run. Never holds keys.
 *
 * Returns: (transfer none): the header object
 */
JsonObject *
tb_trace_get_header (TbTrace *self)
{
  g_return_val_if_fail (TB_IS_TRACE (self), NULL);
  return self->header;
}

void
tb_trace_set_header (TbTrace    *self,
                     JsonObject *header)
{
  g_return_if_fail (TB_IS_TRACE (self));
  g_return_if_fail (header != NULL);

  json_object_ref (header);
  g_clear_pointer (&self->header, json_object_unref);
  self->header = header;
}

/**
 * tb_trace_count:
 * @self: a trace
 * @event_type: a type
 *
 * Returns: how many events of @event_type the trace holds
 */
guint
tb_trace_count (TbTrace    *self,
                const char *event_type)
{
  guint n = 0;

  g_return_val_if_fail (TB_IS_TRACE (self), 0);

  for (guint i = 0; i < self->events->len; i++)
    {
      TbTraceEvent *event = g_ptr_array_index (self->events, i);

      if (g_strcmp0 (tb_trace_event_get_event_type (event), event_type) == 0)
        n++;
    }
  return n;
}

/**
 * tb_trace_add_problem:
 * @reason: what was wrong, as a sentence
 *
 * Notes what was wrong with the trace's file when it was loaded: damaged
 * lines left out, events out of order. A replay of a trace with problems
 * cannot confirm the run.
 */
void
tb_trace_add_problem (TbTrace    *self,
                  const char *reason)
{
  g_return_if_fail (TB_IS_TRACE (self));
  g_return_if_fail (reason != NULL);

  if (self->problems == NULL)
    {
      self->problems = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (self->problems, NULL);
    }
  g_ptr_array_insert (self->problems, self->problems->len - 1, g_strdup (reason));
}

/**
 * tb_trace_get_problems:
 *
 * Returns: (transfer none) (array zero-terminated=1): what was wrong, a
 *   sentence each; empty for a trace read whole
 */
const char * const *
tb_trace_get_problems (TbTrace *self)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (TB_IS_TRACE (self), NULL);

  return self->problems != NULL ? (const char * const *) self->problems->pdata : none;
}
