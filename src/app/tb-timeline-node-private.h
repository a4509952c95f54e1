/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-timeline-node.h"

G_BEGIN_DECLS

TbTimelineNode *tb_timeline_node_new          (GObject        *source,
                                               gint            position,
                                               guint           iteration,
                                               JsonObject     *event,
                                               gint            call,
                                               gboolean        has_children);
TbTimelineNode *tb_timeline_node_new_heading  (GObject        *source,
                                               guint           iteration);
TbTimelineNode *tb_timeline_node_new_group    (GObject        *source,
                                               guint           iteration);
GListStore     *tb_timeline_node_get_store    (TbTimelineNode *self);
JsonObject     *tb_timeline_node_read_source  (GObject        *source,
                                               gint            position);

G_END_DECLS
