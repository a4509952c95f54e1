/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

char *_tb_trace_context_new_trace_id (void);
char *_tb_trace_context_traceparent  (const char *trace_id,
                                      guint       iteration,
                                      const char *call_id);

G_END_DECLS
