/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace"

#include "config.h"

#include "tb-json.h"
#include "tb-trace-file-private.h"
#include "tb-trace-private.h"

/**
 * TbTrace:
 *
 * The append-only record of a run, also a #GListModel of #TbTraceEvent
 * so views bind to it directly. The dispatch loop appends; a file writer
 * follows #GListModel::items-changed, and a reader fills a trace with
 * tb_trace_append_event(). Nothing here ever holds a secret: providers
 * keep keys in request headers, which are never recorded.
 *
 * A trace that a #TbTraceRecorder writes keeps only its latest events in
 * memory (tb_trace_recorder_set_window()): events already in the file
 * are dropped from memory and read back from the file when asked for,
 * so a run of any length needs the same memory. An event read back is
 * what the file holds (redacted), and a few of them are kept at a time.
 */

/* How many events read back stay valid for tb_trace_get_event()'s callers. */
#define N_READ_BACK 64

struct _TbTrace
{
  GObject         parent_instance;

  GPtrArray      *events;    /* in memory: positions first … n_events - 1 */
  guint           first;
  guint           n_events;
  JsonObject     *header;
  gint64          started;
  GPtrArray      *problems;  /* char*, NULL-terminated */

  TbTraceBacking *backing;
  guint           window;
  /* A trace opened from a file (tb_trace_open()) reads its events there. */
  TbTraceReader  *reader;
  char           *reader_path;
  TbTraceSink     sink;
  gpointer        sink_data;
  TbTraceEvent   *read_back[N_READ_BACK];
  guint           read_back_position[N_READ_BACK];
  guint           read_back_next;
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
  return TB_TRACE (model)->n_events;
}

static gpointer
tb_trace_get_item (GListModel *model,
                   guint       position)
{
  TbTraceEvent *event = tb_trace_get_event (TB_TRACE (model), position);

  return event != NULL ? g_object_ref (event) : NULL;
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
  g_clear_pointer (&self->backing, _tb_trace_backing_unref);
  g_clear_object (&self->reader);
  g_clear_pointer (&self->reader_path, g_free);
  for (guint i = 0; i < N_READ_BACK; i++)
    g_clear_object (&self->read_back[i]);

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
      g_value_set_uint (value, self->n_events);
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

  /**
   * TbTrace:n-items:
   *
   * The number of events in the trace, as the #GListModel says.
   */
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

/**
 * tb_trace_new:
 *
 * Makes an empty trace: the append-only list of a run's events, which a
 * #TbTraceRecorder writes to disk.
 *
 * Returns: (transfer full): the new trace
 */
TbTrace *
tb_trace_new (void)
{
  return g_object_new (TB_TYPE_TRACE, NULL);
}

/**
 * tb_trace_append_event:
 * @self: a trace
 * @event: an event, kept as it is (a reader restores recorded ones)
 *
 * Adds an event at the end of the trace; recorders and views are told as a
 * #GListModel tells them.
 */
void
tb_trace_append_event (TbTrace      *self,
                       TbTraceEvent *event)
{
  g_return_if_fail (TB_IS_TRACE (self));
  g_return_if_fail (TB_IS_TRACE_EVENT (event));

  g_ptr_array_add (self->events, g_object_ref (event));
  self->n_events++;
  if (self->sink != NULL)
    self->sink (self, event, self->sink_data);
  g_list_model_items_changed (G_LIST_MODEL (self), self->n_events - 1, 0, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_ITEMS]);

  /* Events already in the file leave memory, a batch at a time. */
  if (self->backing != NULL && self->window > 0 && self->events->len >= 2 * self->window)
    {
      guint written = _tb_trace_backing_get_n_lines (self->backing);
      guint drop = MIN (self->events->len - self->window,
                        written > self->first ? written - self->first : 0);

      if (drop > 0)
        {
          g_ptr_array_remove_range (self->events, 0, drop);
          self->first += drop;
        }
    }
}

/* Whether events that leave memory can be read back: a recorder writes
 * the trace to a file, or the trace was opened from one. */
gboolean
_tb_trace_can_read_back (TbTrace *self)
{
  return (self->backing != NULL && self->window > 0) || self->reader != NULL;
}

/* @sink sees each event as it is appended; one sink at a time: %FALSE
 * when another has it. A %NULL @sink lets go of @user_data's. */
gboolean
_tb_trace_set_sink (TbTrace     *self,
                    TbTraceSink  sink,
                    gpointer     user_data)
{
  if (sink == NULL)
    {
      if (self->sink_data == user_data)
        {
          self->sink = NULL;
          self->sink_data = NULL;
        }
      return TRUE;
    }
  if (self->sink != NULL)
    return FALSE;
  self->sink = sink;
  self->sink_data = user_data;
  return TRUE;
}

/* Appends an event whose payload is @text, a compact JSON object the
 * caller wrote (tb-trace-line.c); the trace takes @text. */
TbTraceEvent *
_tb_trace_append_text (TbTrace    *self,
                       const char *event_type,
                       GString    *text)
{
  g_autoptr(TbTraceEvent) event = NULL;
  gsize length = text->len;

  event = _tb_trace_event_new_text (self->n_events + 1, g_get_monotonic_time () - self->started,
                                    event_type, g_string_free (text, FALSE), length);
  tb_trace_append_event (self, event);
  return event;
}

/* The recorder of this trace writes its events to a file from now on;
 * the trace keeps about @window of them in memory (0: all). */
void
_tb_trace_set_backing (TbTrace        *self,
                       TbTraceBacking *backing,
                       guint           window)
{
  g_return_if_fail (TB_IS_TRACE (self));

  /* Events already dropped can only be read from the file they went to. */
  if (self->first > 0 && backing != self->backing)
    return;

  if (backing != NULL)
    _tb_trace_backing_ref (backing);
  g_clear_pointer (&self->backing, _tb_trace_backing_unref);
  self->backing = backing;
  self->window = window;
}

/* The events of @reader become this empty trace's, read from the file
 * as they are asked for; @path names the file in what a view shows of
 * an event that can no longer be read. */
void
_tb_trace_set_reader (TbTrace       *self,
                      TbTraceReader *reader,
                      const char    *path)
{
  g_return_if_fail (TB_IS_TRACE (self));
  g_return_if_fail (self->n_events == 0 && self->backing == NULL && self->reader == NULL);

  self->reader = g_object_ref (reader);
  self->reader_path = g_strdup (path);
  self->n_events = self->first = tb_trace_reader_get_n_events (reader);
}

static TbTraceEvent *
read_from_reader (TbTrace *self,
                  guint    position)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TbTraceEvent *event = NULL;
  gsize length = 0;
  guint line = 0;

  text = _tb_trace_reader_read_line (self->reader, position, &length, &line, &error);
  if (text != NULL)
    event = _tb_trace_event_from_text (text, length, position + 1, line, &error);
  return event != NULL ? event : _tb_trace_event_new_unreadable (position, self->reader_path, error);
}

static TbTraceEvent *
read_back (TbTrace *self,
           guint    position)
{
  guint slot;

  for (guint i = 0; i < N_READ_BACK; i++)
    if (self->read_back[i] != NULL && self->read_back_position[i] == position)
      return self->read_back[i];

  slot = self->read_back_next;
  self->read_back_next = (slot + 1) % N_READ_BACK;
  g_clear_object (&self->read_back[slot]);
  self->read_back[slot] = self->backing != NULL ? _tb_trace_backing_read (self->backing, position)
                                                : read_from_reader (self, position);
  self->read_back_position[slot] = position;
  return self->read_back[slot];
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
  event = tb_trace_event_new (self->n_events + 1, g_get_monotonic_time () - self->started,
                              event_type, payload);
  tb_trace_append_event (self, event);
  return event;
}

/**
 * tb_trace_get_event:
 * @self: a trace
 * @position: the event's index
 *
 * An event that a recorder already wrote and the trace no longer keeps
 * in memory is read back from the file; such an event stays valid for
 * the next 64 events read back (take a reference to keep it longer).
 *
 * Returns: (transfer none) (nullable): the event at @position
 */
TbTraceEvent *
tb_trace_get_event (TbTrace *self,
                    guint    position)
{
  g_return_val_if_fail (TB_IS_TRACE (self), NULL);

  if (position >= self->n_events)
    return NULL;
  if (position < self->first)
    return read_back (self, position);
  return g_ptr_array_index (self->events, position - self->first);
}

/**
 * tb_trace_get_n_events:
 * @self: a trace
 *
 * Counts the events in the trace.
 *
 * Returns: the number of events
 */
guint
tb_trace_get_n_events (TbTrace *self)
{
  g_return_val_if_fail (TB_IS_TRACE (self), 0);
  return self->n_events;
}

/**
 * tb_trace_get_n_in_memory:
 * @self: a trace
 *
 * Tells how many events the trace holds in memory.
 *
 * Returns: how many of the trace's events are held in memory; the others
 *   are read back from the file a #TbTraceRecorder wrote them to
 */
guint
tb_trace_get_n_in_memory (TbTrace *self)
{
  g_return_val_if_fail (TB_IS_TRACE (self), 0);
  return self->events->len;
}

/**
 * tb_trace_get_header:
 * @self: a trace
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

/**
 * tb_trace_set_header:
 * @self: a trace
 * @header: the header's members
 *
 * Sets what the header line holds: the tools and the provider's settings;
 * the trace keeps a reference to @header.
 */
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
 * Counts events of one type, for tests and summaries.
 *
 * Returns: how many events of @event_type the trace holds
 */
guint
tb_trace_count (TbTrace    *self,
                const char *event_type)
{
  guint n = 0;

  g_return_val_if_fail (TB_IS_TRACE (self), 0);

  for (guint i = 0; i < self->n_events; i++)
    {
      TbTraceEvent *event = tb_trace_get_event (self, i);

      if (g_strcmp0 (tb_trace_event_get_event_type (event), event_type) == 0)
        n++;
    }
  return n;
}

/**
 * tb_trace_add_problem:
 * @reason: what was wrong, as a sentence
 * @self: a trace
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
 * @self: a trace
 *
 * Lists what was wrong with the file the trace was loaded from.
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
