/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * TbTraceKind:
 * @TB_TRACE_KIND_CONVERSATION: a message of the conversation
 * @TB_TRACE_KIND_CALL: a tool call or its result
 * @TB_TRACE_KIND_DECISION: a decision on a call, or on the run
 * @TB_TRACE_KIND_WIRE: a request, a response or a model turn's numbers
 * @TB_TRACE_KIND_FACTS: a fact proposal and what became of it
 * @TB_TRACE_KIND_PROBLEM: a warning, an error, an event not recorded
 * @TB_TRACE_KIND_OTHER: anything else (pauses, the end, unknown types)
 *
 * What a timeline filters events by.
 */
typedef enum
{
  TB_TRACE_KIND_CONVERSATION,
  TB_TRACE_KIND_CALL,
  TB_TRACE_KIND_DECISION,
  TB_TRACE_KIND_WIRE,
  TB_TRACE_KIND_FACTS,
  TB_TRACE_KIND_PROBLEM,
  TB_TRACE_KIND_OTHER,
} TbTraceKind;

/**
 * TbTracePlace:
 * @iteration: the iteration the event belongs to
 * @in_iteration: whether it sits under its iteration (the end does not)
 * @opens_iteration: whether it is the first event of another iteration
 * @parent: the position of the event it sits under (a model turn or a
 *   call), or -1
 * @depth: how far it is indented: 0 at the top, 1 in an iteration, 2
 *   under a model turn, 3 under a call
 * @call: (nullable): for a decision, result, progress report, MCP message
 *   or tool message, the `call` member of its tool-call event; valid until
 *   the next event is added
 *
 * Where a timeline puts an event.
 */
typedef struct
{
  guint       iteration;
  gboolean    in_iteration;
  gboolean    opens_iteration;
  gint        parent;
  guint       depth;
  JsonObject *call;
} TbTracePlace;

/**
 * TbTraceOutline:
 *
 * Where the events of a trace stand in its run, worked out as they arrive
 * in order: the iteration each belongs to and the call a result answers,
 * so that a timeline can indent them. Opaque; for C only.
 */
typedef struct _TbTraceOutline TbTraceOutline;

char           *tb_trace_describe_event     (JsonObject     *event,
                                             JsonObject     *call);
char           *tb_trace_describe_iteration (guint           iteration);
TbTraceKind     tb_trace_describe_kind      (JsonObject     *event);

TbTraceOutline *tb_trace_outline_new        (void);
void            tb_trace_outline_free       (TbTraceOutline *self);
void            tb_trace_outline_add        (TbTraceOutline *self,
                                             guint           position,
                                             JsonObject     *event,
                                             TbTracePlace   *place);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbTraceOutline, tb_trace_outline_free)

G_END_DECLS
