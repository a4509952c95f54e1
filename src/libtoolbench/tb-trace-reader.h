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

#define TB_TYPE_TRACE_READER (tb_trace_reader_get_type())

G_DECLARE_FINAL_TYPE (TbTraceReader, tb_trace_reader, TB, TRACE_READER, GObject)

TbTraceReader *tb_trace_reader_open             (GFile          *file,
                                                 GError        **error);
JsonObject    *tb_trace_reader_get_header       (TbTraceReader  *self);
gint           tb_trace_reader_get_version      (TbTraceReader  *self);
gboolean       tb_trace_reader_index            (TbTraceReader  *self,
                                                 GCancellable   *cancellable,
                                                 GError        **error);
void           tb_trace_reader_index_async      (TbTraceReader  *self,
                                                 GCancellable   *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer        user_data);
gboolean       tb_trace_reader_index_finish     (TbTraceReader  *self,
                                                 GAsyncResult   *result,
                                                 GError        **error);
gboolean       tb_trace_reader_get_indexed      (TbTraceReader  *self);
guint          tb_trace_reader_get_n_events     (TbTraceReader  *self);
JsonObject    *tb_trace_reader_read_event       (TbTraceReader  *self,
                                                 guint           position,
                                                 GError        **error);
JsonObject    *tb_trace_reader_read_outline     (TbTraceReader  *self,
                                                 guint           position,
                                                 GError        **error);
char         **tb_trace_reader_get_problems     (TbTraceReader  *self);

G_END_DECLS
