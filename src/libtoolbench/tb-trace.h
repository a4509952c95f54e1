/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-trace-event.h"

G_BEGIN_DECLS

#define TB_TYPE_TRACE (tb_trace_get_type())

G_DECLARE_FINAL_TYPE (TbTrace, tb_trace, TB, TRACE, GObject)

TbTrace      *tb_trace_new                  (void);
TbTraceEvent *tb_trace_append               (TbTrace       *self,
                                             const char    *event_type,
                                             JsonObject    *payload);
void          tb_trace_append_event         (TbTrace       *self,
                                             TbTraceEvent  *event);
TbTraceEvent *tb_trace_get_event            (TbTrace       *self,
                                             guint          position);
guint         tb_trace_get_n_events         (TbTrace       *self);
guint         tb_trace_get_n_in_memory      (TbTrace       *self);
JsonObject   *tb_trace_get_header           (TbTrace       *self);
void          tb_trace_set_header           (TbTrace       *self,
                                             JsonObject    *header);
guint         tb_trace_count                (TbTrace       *self,
                                             const char    *event_type);
void          tb_trace_add_problem          (TbTrace       *self,
                                             const char    *reason);
const char * const *tb_trace_get_problems   (TbTrace       *self);

G_END_DECLS
