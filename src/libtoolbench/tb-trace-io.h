/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

#include "tb-redact.h"
#include "tb-trace.h"
#include "tb-trace-reader.h"
#include "tb-trace-writer.h"

G_BEGIN_DECLS

#define TB_TYPE_TRACE_RECORDER (tb_trace_recorder_get_type())

/**
 * TB_TRACE_RECORDER_DEFAULT_WINDOW:
 *
 * How many of its latest events a recorded trace keeps in memory unless
 * tb_trace_recorder_set_window() says otherwise.
 */
#define TB_TRACE_RECORDER_DEFAULT_WINDOW 4096

G_DECLARE_FINAL_TYPE (TbTraceRecorder, tb_trace_recorder, TB, TRACE_RECORDER, GObject)

TbTrace         *tb_trace_load                (GFile           *file,
                                               GCancellable    *cancellable,
                                               char          ***problems,
                                               GError         **error);
TbTrace         *tb_trace_open                (GFile           *file,
                                               GCancellable    *cancellable,
                                               char          ***problems,
                                               GError         **error);
gboolean         tb_trace_save                (TbTrace         *trace,
                                               GFile           *file,
                                               TbRedactor      *redactor,
                                               GError         **error);
TbTraceRecorder *tb_trace_recorder_new        (TbTrace         *trace,
                                               GFile           *file,
                                               TbRedactor      *redactor);
void             tb_trace_recorder_set_window (TbTraceRecorder *self,
                                               guint            n_events);
const GError    *tb_trace_recorder_get_error  (TbTraceRecorder *self);
gboolean         tb_trace_recorder_close      (TbTraceRecorder *self,
                                               GError         **error);

G_END_DECLS
