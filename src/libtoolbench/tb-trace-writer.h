/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-redact.h"
#include "tb-trace-file.h"

G_BEGIN_DECLS

#define TB_TYPE_TRACE_WRITER (tb_trace_writer_get_type())

G_DECLARE_FINAL_TYPE (TbTraceWriter, tb_trace_writer, TB, TRACE_WRITER, GObject)

TbTraceWriter *tb_trace_writer_new              (GFile          *file,
                                                 JsonObject     *header,
                                                 TbRedactor     *redactor,
                                                 GError        **error);
gboolean       tb_trace_writer_append           (TbTraceWriter  *self,
                                                 JsonObject     *event,
                                                 GError        **error);
gboolean       tb_trace_writer_sync             (TbTraceWriter  *self,
                                                 GError        **error);
gboolean       tb_trace_writer_close            (TbTraceWriter  *self,
                                                 GError        **error);
guint64        tb_trace_writer_get_n_events     (TbTraceWriter  *self);
void           tb_trace_writer_set_sync_policy  (TbTraceWriter  *self,
                                                 guint           every_n_events,
                                                 guint           every_ms);

G_END_DECLS
