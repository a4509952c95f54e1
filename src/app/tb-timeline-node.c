/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-timeline"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-timeline-node-private.h"

/* One row of a trace's timeline: an event, or an iteration's heading. It
 * keeps only where its event is in the trace or the file and reads it again
 * when a row shows it. TbTimeline makes the nodes and places them. */

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
  ICON_MCP,
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
  [ICON_MCP] = "network-transmit-receive-symbolic",
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
  gboolean    group;       /* the MCP messages of a call */
  GListStore *children;    /* for headings, groups, model turns and calls */
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

/**
 * tb_timeline_node_read_source:
 * @source: a #TbTrace or #TbTraceReader
 * @position: an event's position, or -1
 *
 * Returns: (transfer full) (nullable): the event, %NULL for a heading or
 *   a line that cannot be read
 */
JsonObject *
tb_timeline_node_read_source (GObject *source,
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

/**
 * tb_timeline_node_is_heading:
 * @self: a node
 *
 * Returns: whether the node stands for no event: an iteration's heading,
 *   or the group of a call's MCP messages
 */
gboolean
tb_timeline_node_is_heading (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), FALSE);
  return self->position < 0;
}

/**
 * tb_timeline_node_is_group:
 * @self: a node
 *
 * Returns: whether the node holds the MCP messages of a call
 */
gboolean
tb_timeline_node_is_group (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), FALSE);
  return self->group;
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
  return tb_timeline_node_read_source (self->source, self->position);
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

  if (self->group)
    return g_strdup (_("MCP messages"));
  if (self->position < 0)
    return tb_trace_describe_iteration (self->iteration);
  event = tb_timeline_node_read_source (self->source, self->position);
  if (event == NULL)
    return g_strdup (_("This event cannot be read"));
  call = tb_timeline_node_read_source (self->source, self->call);
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
  if (g_str_equal (type, "mcp-message"))
    return g_strcmp0 (tb_json_object_get_string (event, "direction"), "sent") == 0
           ? ICON_REQUEST : ICON_RESPONSE;
  if (g_str_equal (type, "response") || g_str_equal (type, "model-turn"))
    return ICON_RESPONSE;
  if (g_str_equal (type, "tool-call"))
    return ICON_CALL;
  if (g_str_equal (type, "tool-result"))
    return tb_json_object_get_boolean (tb_json_object_get_object (event, "result"), "ok",
                                       FALSE)
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

/**
 * tb_timeline_node_new:
 * @source: a #TbTrace or #TbTraceReader
 * @position: the event's position
 * @iteration: the iteration it belongs to
 * @event: (nullable): the event, %NULL for a line that cannot be read
 * @call: the position of the tool call it answers, or -1
 * @has_children: whether rows go under it (model turns and calls)
 *
 * Returns: (transfer full): a node for the event
 */
TbTimelineNode *
tb_timeline_node_new (GObject    *source,
                      gint        position,
                      guint       iteration,
                      JsonObject *event,
                      gint        call,
                      gboolean    has_children)
{
  TbTimelineNode *self = g_object_new (TB_TYPE_TIMELINE_NODE, NULL);

  self->source = g_object_ref (source);
  self->position = position;
  self->iteration = iteration;
  self->call = call;
  self->kind = event != NULL ? tb_trace_describe_kind (event) : TB_TRACE_KIND_PROBLEM;
  self->icon = event != NULL ? icon_for (event) : ICON_WARNING;
  if (has_children)
    self->children = g_list_store_new (TB_TYPE_TIMELINE_NODE);
  return self;
}

/**
 * tb_timeline_node_new_heading:
 * @source: a #TbTrace or #TbTraceReader
 * @iteration: the iteration
 *
 * Returns: (transfer full): the heading of @iteration
 */
TbTimelineNode *
tb_timeline_node_new_heading (GObject *source,
                              guint    iteration)
{
  TbTimelineNode *self = g_object_new (TB_TYPE_TIMELINE_NODE, NULL);

  self->source = g_object_ref (source);
  self->iteration = iteration;
  self->kind = TB_TRACE_KIND_OTHER;
  self->icon = ICON_HEADING;
  self->children = g_list_store_new (TB_TYPE_TIMELINE_NODE);
  return self;
}

/**
 * tb_timeline_node_new_group:
 * @source: a #TbTrace or #TbTraceReader
 * @iteration: the iteration of the call
 *
 * Returns: (transfer full): the row under a call that holds its MCP
 *   messages, collapsed until a person opens it
 */
TbTimelineNode *
tb_timeline_node_new_group (GObject *source,
                            guint    iteration)
{
  TbTimelineNode *self = g_object_new (TB_TYPE_TIMELINE_NODE, NULL);

  self->source = g_object_ref (source);
  self->iteration = iteration;
  self->group = TRUE;
  self->kind = TB_TRACE_KIND_WIRE;
  self->icon = ICON_MCP;
  self->children = g_list_store_new (TB_TYPE_TIMELINE_NODE);
  return self;
}

/**
 * tb_timeline_node_get_store:
 * @self: a node
 *
 * Returns: (transfer none) (nullable): the store of the rows under it
 */
GListStore *
tb_timeline_node_get_store (TbTimelineNode *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_NODE (self), NULL);
  return self->children;
}
