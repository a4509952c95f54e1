/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TB_TYPE_TRACE_EVENT (tb_trace_event_get_type())

G_DECLARE_FINAL_TYPE (TbTraceEvent, tb_trace_event, TB, TRACE_EVENT, GObject)

TbTraceEvent *tb_trace_event_new            (guint64        seq,
                                             gint64         time_us,
                                             const char    *event_type,
                                             JsonObject    *payload);
guint64       tb_trace_event_get_seq        (TbTraceEvent  *self);
gint64        tb_trace_event_get_time_us    (TbTraceEvent  *self);
const char   *tb_trace_event_get_event_type (TbTraceEvent  *self);
JsonObject   *tb_trace_event_get_payload    (TbTraceEvent  *self);
JsonNode     *tb_trace_event_to_json        (TbTraceEvent  *self);

G_END_DECLS
