/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

#include "tb-timeline-node.h"

G_BEGIN_DECLS

#define TB_TYPE_TIMELINE (tb_timeline_get_type())

G_DECLARE_FINAL_TYPE (TbTimeline, tb_timeline, TB, TIMELINE, GObject)

TbTimeline  *tb_timeline_new                (GObject        *source);
GListModel  *tb_timeline_get_model          (TbTimeline     *self);
guint        tb_timeline_get_n_events       (TbTimeline     *self);
gboolean     tb_timeline_get_complete       (TbTimeline     *self);

G_END_DECLS
