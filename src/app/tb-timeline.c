/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-timeline"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-timeline.h"

/* A trace as a tree a person reads: iterations, in each the model's turn
 * with its calls, under each call its decision and result. It is a view
 * over the trace or over the reader of its file: a node keeps only where
 * its event is, and the event is read again when a row shows it, so
 * scrolling through a large file costs nothing that stays. */

enum
{
  ICON_HEADING,
  ICON_PERSON,
  ICON_MODEL,
  ICON_TOOL_MESSAGE,
  ICON_REQUEST,
  ICON_RESPONSE,
  ICON_CALL,
  ICON_RESULT_OK,
  ICON_RESULT_FAILED,
  ICON_APPROVE,
  ICON_EDIT,
  ICON_SKIP,
  ICON_REJECT,
  ICON_FACTS,
  ICON_WARNING,
  ICON_ERROR,
  ICON_END,
  ICON_OTHER,
};

static const char *icon_names[] = {
  [ICON_HEADING] = "media-playlist-repeat-symbolic",
  [ICON_PERSON] = "avatar-default-symbolic",
  [ICON_MODEL] = "computer-symbolic",
  [ICON_TOOL_MESSAGE] = "mail-unread-symbolic",
  [ICON_REQUEST] = "go-up-symbolic",
  [ICON_RESPONSE] = "go-down-symbolic",
  [ICON_CALL] = "system-run-symbolic",
  [ICON_RESULT_OK] = "object-select-symbolic",
  [ICON_RESULT_FAILED] = "dialog-error-symbolic",
  [ICON_APPROVE] = "emblem-ok-symbolic",
  [ICON_EDIT] = "document-edit-symbolic",
  [ICON_SKIP] = "media-skip-forward-symbolic",
  [ICON_REJECT] = "action-unavailable-symbolic",
  [ICON_FACTS] = "starred-symbolic",
  [ICON_WARNING] = "dialog-warning-symbolic",
  [ICON_ERROR] = "dialog-error-symbolic",
  [ICON_END] = "media-playback-stop-symbolic",
  [ICON_OTHER] = "dialog-question-symbolic",
};

struct _TbTimelineNode
{
  GObject     parent_instance;

  GObject    *source;      /* TbTrace or TbTraceReader */
  gint        position;    /* -1 for an iteration's heading */
  gint        call;        /* the tool-call this event answers, or -1 */
  guint       iteration;
  guint8      kind;
  guint8      icon;
  GListStore *children;    /* for headings, model turns and calls */
};

G_DEFINE_FINAL_TYPE (TbTimelineNode, tb_timeline_node, G_TYPE_OBJECT)

static void
tb_timeline_node_finalize (GObject *object)
{
  TbTimelineNode *self = TB_TIMELINE_NODE (object);

  g_clear_object (&self->source);
  g_clear_object (&self->children);
  G_OBJECT_CLASS (tb_timeline_node_parent_class)->finalize (object);
}

static void
tb_timeline_node_class_init (TbTimelineNodeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_timeline_node_finalize;
}

static void
tb_timeline_node_init (TbTimelineNode *self)
{
  self->position = -1;
  self->call = -1;
}

static JsonObject *
read_source (GObject *source,
             gint     position)
{
  if (position < 0)
    return NULL;
  if (TB_IS_TRACE (source))
    {
      TbTraceEvent *event = tb_trace_get_event (TB_TRACE (source), position);
      g_autoptr(JsonNode) node = NULL;

      if (event == NULL)
        return NULL;
      node = tb_trace_event_to_json (event);
      return json_object_ref (json_node_get_object (node));
    }
  return tb_trace_reader_read_event (TB_TRACE_READER (source), position, NULL);
}

gint
tb_timeline_node_get_position (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), -1);
  return self->position;
}

guint
tb_timeline_node_get_iteration (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), 0);
  return self->iteration;
}

TbTraceKind
tb_timeline_node_get_kind (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), TB_TRACE_KIND_OTHER);
  return self->kind;
}

gboolean
tb_timeline_node_is_heading (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), FALSE);
  return self->position < 0;
}

/**
 * tb_timeline_node_get_children:
 * @self: a node
 *
 * Returns: (transfer none) (nullable): the nodes under it
 */
GListModel *
tb_timeline_node_get_children (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), NULL);
  return self->children != NULL ? G_LIST_MODEL (self->children) : NULL;
}

/**
 * tb_timeline_node_read_event:
 * @self: a node
 *
 * Returns: (transfer full) (nullable): its event, read again
 */
JsonObject *
tb_timeline_node_read_event (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), NULL);
  return read_source (self->source, self->position);
}

/**
 * tb_timeline_node_dup_text:
 * @self: a node
 *
 * Returns: (transfer full): what its row says, the line `toolbench-cli
 *   trace show` prints for the event
 */
char *
tb_timeline_node_dup_text (TbTimelineNode *self)
{
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(JsonObject) call = NULL;

  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), NULL);

  if (self->position < 0)
    return tb_trace_describe_iteration (self->iteration);
  event = read_source (self->source, self->position);
  if (event == NULL)
    return g_strdup (_("This event cannot be read"));
  call = read_source (self->source, self->call);
  return tb_trace_describe_event (event, tb_json_object_get_object (call, "call"));
}

const char *
tb_timeline_node_get_icon_name (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), NULL);
  return icon_names[self->icon];
}

static guint8
icon_for (JsonObject *event)
{
  const char *type = tb_json_object_get_string (event, "type") ?: "";
  const char *decision = tb_json_object_get_string (event, "decision") ?: "";
  const char *origin = tb_json_object_get_string (event, "origin") ?: "";

  if (g_str_equal (type, "message"))
    return g_str_equal (origin, "model") ? ICON_MODEL
           : g_str_equal (origin, "tool") ? ICON_TOOL_MESSAGE : ICON_PERSON;
  if (g_str_equal (type, "request"))
    return ICON_REQUEST;
  if (g_str_equal (type, "response") || g_str_equal (type, "model-turn"))
    return ICON_RESPONSE;
  if (g_str_equal (type, "tool-call"))
    return ICON_CALL;
  if (g_str_equal (type, "tool-result"))
    return json_object_get_boolean_member_with_default (tb_json_object_get_object (event,
                                                                                   "result"),
                                                        "ok", FALSE)
           ? ICON_RESULT_OK : ICON_RESULT_FAILED;
  if (g_str_equal (type, "decision"))
    return g_str_equal (decision, "approve") ? ICON_APPROVE
           : g_str_equal (decision, "edit") ? ICON_EDIT
           : g_str_equal (decision, "skip") ? ICON_SKIP
           : g_str_equal (decision, "reject") ? ICON_REJECT : ICON_PERSON;
  if (g_str_equal (type, "warning") || g_str_equal (type, "incomplete"))
    return ICON_WARNING;
  if (g_str_equal (type, "error"))
    return ICON_ERROR;
  if (g_str_equal (type, "end"))
    return ICON_END;
  if (tb_trace_describe_kind (event) == TB_TRACE_KIND_FACTS)
    return ICON_FACTS;
  return ICON_OTHER;
}

/* How many events one idle pass places while a file is indexed. */
#define CHUNK 2000

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

static TbTimelineNode *
node_new (TbTimeline *self,
          gint        position,
          guint       iteration)
{
  TbTimelineNode *node = g_object_new (TB_TYPE_TIMELINE_NODE, NULL);

  node->source = g_object_ref (self->source);
  node->position = position;
  node->iteration = iteration;
  return node;
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

static void
place_event (TbTimeline *self,
             guint       position)
{
  g_autoptr(JsonObject) event = read_source (self->source, position);
  g_autoptr(TbTimelineNode) node = NULL;
  TbTracePlace place;
  TbTimelineNode *parent;
  const char *type;

  if (event == NULL)
    {
      /* A line the reader gave up on still has a row saying so. */
      node = node_new (self, position, 0);
      node->kind = TB_TRACE_KIND_PROBLEM;
      node->icon = ICON_WARNING;
      add_to (self, self->heading != NULL ? self->heading->children : self->root, node);
      return;
    }

  tb_trace_outline_add (self->outline, position, event, &place);
  node = node_new (self, position, place.iteration);
  node->kind = tb_trace_describe_kind (event);
  node->icon = icon_for (event);
  if (place.call != NULL)
    node->call = place.parent;
  type = tb_json_object_get_string (event, "type") ?: "";

  if (place.opens_iteration)
    {
      TbTimelineNode *heading = node_new (self, -1, place.iteration);

      heading->kind = TB_TRACE_KIND_OTHER;
      heading->icon = ICON_HEADING;
      heading->children = g_list_store_new (TB_TYPE_TIMELINE_NODE);
      g_hash_table_remove_all (self->parents);
      add_to (self, self->root, heading);
      g_clear_object (&self->heading);
      self->heading = heading;
    }

  if (g_str_equal (type, "tool-call")
      || (g_str_equal (type, "message")
          && g_strcmp0 (tb_json_object_get_string (event, "origin"), "model") == 0))
    {
      node->children = g_list_store_new (TB_TYPE_TIMELINE_NODE);
      g_hash_table_insert (self->parents, GINT_TO_POINTER (position), node);
    }

  parent = place.parent >= 0 ? g_hash_table_lookup (self->parents,
                                                    GINT_TO_POINTER (place.parent)) : NULL;
  if (parent != NULL)
    add_to (self, parent->children, node);
  else if (place.in_iteration && self->heading != NULL)
    add_to (self, self->heading->children, node);
  else
    add_to (self, self->root, node);
}

static gboolean
place_more (gpointer data)
{
  TbTimeline *self = data;
  guint n = source_n_events (self);
  guint stop = MIN (n, self->n_done + CHUNK);

  for (; self->n_done < stop; self->n_done++)
    place_event (self, self->n_done);
  flush (self);
  if (self->n_done < n)
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
      while (place_more (self) == G_SOURCE_CONTINUE)
        ;
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
