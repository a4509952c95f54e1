/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-trace-file.h"
#include "tb-trace-event.h"
#include "tb-trace-reader.h"
#include "tb-trace-writer.h"

G_BEGIN_DECLS

int _tb_trace_file_open_local (GFile       *file,
                               int          flags,
                               const char  *remote_message,
                               char       **path_out,
                               GError     **error);

guint64  _tb_trace_writer_get_size     (TbTraceWriter  *self);
gboolean _tb_trace_writer_append_event (TbTraceWriter  *self,
                                        TbTraceEvent   *event,
                                        GError        **error);

char    *_tb_trace_reader_read_line     (TbTraceReader  *self,
                                        guint           position,
                                        gsize          *length,
                                        guint          *line_number,
                                        GError        **error);

G_END_DECLS
