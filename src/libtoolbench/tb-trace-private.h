/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* A trace that a recorder writes to a file keeps only its latest events
 * in memory; the older ones are read back from the file when asked for
 * (tb-trace-window.c). */

#include "tb-trace.h"
#include "tb-trace-reader.h"

G_BEGIN_DECLS

typedef struct _TbTraceBacking TbTraceBacking;

TbTraceBacking *_tb_trace_backing_new          (const char     *path);
TbTraceBacking *_tb_trace_backing_ref          (TbTraceBacking *self);
void            _tb_trace_backing_unref        (TbTraceBacking *self);
void            _tb_trace_backing_add          (TbTraceBacking *self,
                                                guint64         offset);
guint           _tb_trace_backing_get_n_lines  (TbTraceBacking *self);
TbTraceEvent   *_tb_trace_backing_read         (TbTraceBacking *self,
                                                guint           position);

TbTraceEvent   *_tb_trace_event_from_line      (JsonObject     *line,
                                                guint64         fallback_seq);
TbTraceEvent   *_tb_trace_event_from_text      (char           *text,
                                                gsize           length,
                                                guint64         fallback_seq,
                                                guint           line_number,
                                                GError        **error);
TbTraceEvent   *_tb_trace_event_new_unreadable (guint           position,
                                                const char     *path,
                                                const GError   *error);
TbTraceEvent   *_tb_trace_event_new_text       (guint64         seq,
                                                gint64          time_us,
                                                const char     *event_type,
                                                char           *text,
                                                gsize           length);
const char     *_tb_trace_event_peek_text      (TbTraceEvent   *self,
                                                gsize          *length);
JsonObject     *_tb_trace_event_dup_payload    (TbTraceEvent   *self);

/* Called with each event appended, before the trace's items-changed, by
 * the recorder that writes the trace. */
typedef void (*TbTraceSink) (TbTrace      *trace,
                             TbTraceEvent *event,
                             gpointer      user_data);

gboolean        _tb_trace_can_read_back        (TbTrace        *self);
gboolean        _tb_trace_set_sink             (TbTrace        *self,
                                                TbTraceSink     sink,
                                                gpointer        user_data);
TbTraceEvent   *_tb_trace_append_text          (TbTrace        *self,
                                                const char     *event_type,
                                                GString        *text);

void            _tb_trace_set_backing          (TbTrace        *self,
                                                TbTraceBacking *backing,
                                                guint           window);
void            _tb_trace_set_reader           (TbTrace        *self,
                                                TbTraceReader  *reader,
                                                const char     *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbTraceBacking, _tb_trace_backing_unref)

G_END_DECLS
