/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_TIMELINE_NODE (tb_timeline_node_get_type())

G_DECLARE_FINAL_TYPE (TbTimelineNode, tb_timeline_node, TB, TIMELINE_NODE, GObject)

gint         tb_timeline_node_get_position  (TbTimelineNode *self);
guint        tb_timeline_node_get_iteration (TbTimelineNode *self);
TbTraceKind  tb_timeline_node_get_kind      (TbTimelineNode *self);
gboolean     tb_timeline_node_is_heading    (TbTimelineNode *self);
gboolean     tb_timeline_node_is_group      (TbTimelineNode *self);
GListModel  *tb_timeline_node_get_children  (TbTimelineNode *self);
JsonObject  *tb_timeline_node_read_event    (TbTimelineNode *self);
char        *tb_timeline_node_dup_text      (TbTimelineNode *self);
const char  *tb_timeline_node_get_icon_name (TbTimelineNode *self);

G_END_DECLS
