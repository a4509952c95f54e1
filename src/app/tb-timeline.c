/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-timeline"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-timeline.h"
#include "tb-timeline-node-private.h"

/* A trace as a tree a person reads: iterations, in each the model's turn
 * with its calls, under each call its decision and result, and a row
 * that holds the MCP messages the call caused, closed at first. It is a view
 * over the trace or over the reader of its file: a node keeps only where
 * its event is, and the event is read again when a row shows it, so
 * scrolling through a large file costs nothing that stays. */


/* How long one idle pass places events of a file for: the window stays
 * responsive while a large trace is listed, whatever its events hold. */
#define PASS_US 8000

struct _TbTimeline
{
  GObject         parent_instance;

  GObject        *source;
  GListStore     *root;
  TbTraceOutline *outline;
  guint           n_done;
  guint           idle_id;
  TbTimelineNode *heading;   /* the current iteration's */
  GHashTable     *parents;   /* position → node, for the current turn and its calls */
  GHashTable     *groups;    /* a call's position → the node of its MCP messages */
  GHashTable     *pending;   /* store → nodes to add to it at the end of a pass */
};

G_DEFINE_FINAL_TYPE (TbTimeline, tb_timeline, G_TYPE_OBJECT)

static guint
source_n_events (TbTimeline *self)
{
  if (TB_IS_TRACE (self->source))
    return tb_trace_get_n_events (TB_TRACE (self->source));
  return tb_trace_reader_get_n_events (TB_TRACE_READER (self->source));
}

/* Nodes go to their store in one splice a pass: one change a store
 * rather than one a row keeps the tree and the list quick to update. */
static void
add_to (TbTimeline     *self,
        GListStore     *store,
        TbTimelineNode *node)
{
  GPtrArray *nodes = g_hash_table_lookup (self->pending, store);

  if (nodes == NULL)
    {
      nodes = g_ptr_array_new_with_free_func (g_object_unref);
      g_hash_table_insert (self->pending, g_object_ref (store), nodes);
    }
  g_ptr_array_add (nodes, g_object_ref (node));
}

static void
flush (TbTimeline *self)
{
  GHashTableIter iter;
  gpointer store, nodes;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, &store, &nodes))
    {
      GPtrArray *array = nodes;

      g_list_store_splice (store, g_list_model_get_n_items (store), 0, array->pdata, array->len);
    }
  g_hash_table_remove_all (self->pending);
}

/* The row that holds a call's MCP messages, made with the first one. */
static TbTimelineNode *
group_of (TbTimeline     *self,
          TbTimelineNode *call,
          gint            call_position,
          guint           iteration)
{
  TbTimelineNode *group = g_hash_table_lookup (self->groups, GINT_TO_POINTER (call_position));

  if (group == NULL)
    {
      group = tb_timeline_node_new_group (self->source, iteration);
      g_hash_table_insert (self->groups, GINT_TO_POINTER (call_position), group);
      add_to (self, tb_timeline_node_get_store (call), group);
    }
  return group;
}

/* What places an event: of a file, only the few members that say where
 * it goes and how its row looks, read without parsing the whole line. */
static JsonObject *
read_outline (TbTimeline *self,
              guint       position)
{
  if (TB_IS_TRACE_READER (self->source))
    return tb_trace_reader_read_outline (TB_TRACE_READER (self->source), position, NULL);
  return tb_timeline_node_read_source (self->source, position);
}

static void
place_event (TbTimeline *self,
             guint       position)
{
  g_autoptr(JsonObject) event = read_outline (self, position);
  g_autoptr(TbTimelineNode) node = NULL;
  TbTracePlace place;
  TbTimelineNode *parent;
  const char *type;
  gboolean has_children;

  if (event == NULL)
    {
      /* A line the reader gave up on still has a row saying so. */
      node = tb_timeline_node_new (self->source, position, 0, NULL, -1, FALSE);
      add_to (self, self->heading != NULL ? tb_timeline_node_get_store (self->heading)
                                          : self->root, node);
      return;
    }

  tb_trace_outline_add (self->outline, position, event, &place);
  type = tb_json_object_get_string (event, "type") ?: "";
  has_children = g_str_equal (type, "tool-call")
                 || (g_str_equal (type, "message")
                     && g_strcmp0 (tb_json_object_get_string (event, "origin"), "model") == 0);
  node = tb_timeline_node_new (self->source, position, place.iteration, event,
                               place.call != NULL ? place.parent : -1, has_children);

  if (place.opens_iteration)
    {
      TbTimelineNode *heading = tb_timeline_node_new_heading (self->source, place.iteration);

      g_hash_table_remove_all (self->parents);
      g_hash_table_remove_all (self->groups);
      add_to (self, self->root, heading);
      g_clear_object (&self->heading);
      self->heading = heading;
    }

  if (has_children)
    g_hash_table_insert (self->parents, GINT_TO_POINTER (position), node);

  parent = place.parent >= 0 ? g_hash_table_lookup (self->parents,
                                                    GINT_TO_POINTER (place.parent)) : NULL;
  if (parent != NULL && g_str_equal (type, "mcp-message"))
    parent = group_of (self, parent, place.parent, place.iteration);
  if (parent != NULL)
    add_to (self, tb_timeline_node_get_store (parent), node);
  else if (place.in_iteration && self->heading != NULL)
    add_to (self, tb_timeline_node_get_store (self->heading), node);
  else
    add_to (self, self->root, node);
}

/* Places events until @budget_us has passed (0: all of them). */
static gboolean
place_events (TbTimeline *self,
              gint64      budget_us)
{
  guint n = source_n_events (self);
  gint64 deadline = g_get_monotonic_time () + budget_us;

  while (self->n_done < n)
    {
      place_event (self, self->n_done++);
      /* The clock is read every 32 events. */
      if (budget_us > 0 && self->n_done % 32 == 0 && g_get_monotonic_time () >= deadline)
        break;
    }
  flush (self);
  return self->n_done < n;
}

static gboolean
place_more (gpointer data)
{
  TbTimeline *self = data;

  if (place_events (self, PASS_US))
    return G_SOURCE_CONTINUE;
  self->idle_id = 0;
  return G_SOURCE_REMOVE;
}

static void
on_source_grew (TbTimeline *self)
{
  /* A trace in memory is placed at once, so its rows are there when the
   * loop's signal returns; a file's index grows in the background. */
  if (TB_IS_TRACE (self->source))
    {
      place_events (self, 0);
      return;
    }
  if (self->idle_id == 0 && self->n_done < source_n_events (self))
    self->idle_id = g_idle_add_full (G_PRIORITY_LOW, place_more, self, NULL);
}

static void
tb_timeline_dispose (GObject *object)
{
  TbTimeline *self = TB_TIMELINE (object);

  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_data (self->source, self);
  g_clear_object (&self->source);
  g_clear_object (&self->heading);
  g_clear_object (&self->root);
  g_clear_pointer (&self->parents, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->outline, tb_trace_outline_free);
  G_OBJECT_CLASS (tb_timeline_parent_class)->dispose (object);
}

static void
tb_timeline_class_init (TbTimelineClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tb_timeline_dispose;
}

static void
tb_timeline_init (TbTimeline *self)
{
  self->root = g_list_store_new (TB_TYPE_TIMELINE_NODE);
  self->outline = tb_trace_outline_new ();
  self->parents = g_hash_table_new (NULL, NULL);
  self->groups = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->pending = g_hash_table_new_full (NULL, NULL, g_object_unref,
                                         (GDestroyNotify) g_ptr_array_unref);
}

/**
 * tb_timeline_new:
 * @source: a #TbTrace (it may still grow) or a #TbTraceReader (it may
 *   still be indexing)
 *
 * Returns: (transfer full): the timeline of its events
 */
TbTimeline *
tb_timeline_new (GObject *source)
{
  TbTimeline *self;

  g_return_val_if_fail (TB_IS_TRACE (source) || TB_IS_TRACE_READER (source), NULL);

  self = g_object_new (TB_TYPE_TIMELINE, NULL);
  self->source = g_object_ref (source);
  if (TB_IS_TRACE (source))
    g_signal_connect_swapped (source, "items-changed", G_CALLBACK (on_source_grew), self);
  else
    g_signal_connect_swapped (source, "notify::n-events", G_CALLBACK (on_source_grew), self);
  on_source_grew (self);
  return self;
}

/**
 * tb_timeline_get_model:
 * @self: a timeline
 *
 * Returns: (transfer none): the top of the tree: iteration headings and
 *   the run's end
 */
GListModel *
tb_timeline_get_model (TbTimeline *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE (self), NULL);
  return G_LIST_MODEL (self->root);
}

/**
 * tb_timeline_get_n_events:
 * @self: a timeline
 *
 * Returns: how many events it has placed
 */
guint
tb_timeline_get_n_events (TbTimeline *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE (self), 0);
  return self->n_done;
}

gboolean
tb_timeline_get_complete (TbTimeline *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE (self), FALSE);
  return self->idle_id == 0 && self->n_done == source_n_events (self);
}
