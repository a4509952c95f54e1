/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* An event's payload written as JSON text straight from its fields
 * (tb-trace-line.c), byte for byte what tb_json_to_string() writes for
 * the same members, so that a recorder writes it without building a tree. */

#include "tb-trace.h"

G_BEGIN_DECLS

GString      *_tb_trace_line_new            (guint        iteration);
void          _tb_trace_line_append_string  (GString     *line,
                                             const char  *text);
void          _tb_trace_line_append_int     (GString     *line,
                                             gint64       value);
void          _tb_trace_line_add_name       (GString     *line,
                                             const char  *name);
void          _tb_trace_line_add_string     (GString     *line,
                                             const char  *name,
                                             const char  *value);
void          _tb_trace_line_add_int        (GString     *line,
                                             const char  *name,
                                             gint64       value);
void          _tb_trace_line_add_boolean    (GString     *line,
                                             const char  *name,
                                             gboolean     value);
void          _tb_trace_line_add_node_value (GString     *line,
                                             JsonNode    *value);
void          _tb_trace_line_add_node       (GString     *line,
                                             const char  *name,
                                             JsonNode    *value);
void          _tb_trace_line_add_object     (GString     *line,
                                             const char  *name,
                                             JsonObject  *value);
TbTraceEvent *_tb_trace_line_append_to      (GString     *line,
                                             TbTrace     *trace,
                                             const char  *event_type);

G_END_DECLS
