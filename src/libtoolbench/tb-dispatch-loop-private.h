/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the files of TbDispatchLoop share: the type, its properties and
 * signals (tb-dispatch-loop.c), what it records (tb-dispatch-loop-record.c),
 * who decides a call (tb-dispatch-loop-approval.c), the phases of a step or
 * a run (tb-dispatch-loop-run.c), running the decided calls
 * (tb-dispatch-loop-calls.c) and what a person puts into the conversation
 * (tb-dispatch-loop-conversation.c). */

#include "tb-dispatch-loop.h"
#include "tb-loop-mcp-private.h"
#include "tb-loop-messages-private.h"

G_BEGIN_DECLS

struct _TbDispatchLoop
{
  GObject           parent_instance;

  TbToolRegistry   *registry;
  TbToolRegistry   *model_tools;
  guint             model_tools_generation;
  TbProvider       *provider;
  TbTrace          *trace;
  TbLoopMessages   *messages;
  GPtrArray        *history;      /* what the provider needs of the conversation */
  guint             n_earlier;    /* messages before those, left out of requests */
  GListStore       *pending;
  GError           *error;
  char            **breakpoints;
  char             *tool_choice;

  guint             max_iterations;
  guint             iteration;
  TbLoopState       state;
  TbApprovalPolicy  policy;
  gboolean          parallel_tool_calls;
  gboolean          stream;

  /* The phase in progress. */
  GTask            *task;
  gboolean          run;
  gboolean          busy;
  gboolean          awaiting;
  GCancellable     *phase_cancellable;
  gulong            outer_cancel_id;
  GCancellable     *outer_cancellable;
  guint             paused_at_iteration;
  gboolean          cancel_requested;
  GError           *failure;      /* tb_dispatch_loop_fail() while busy */
  gboolean          pause_requested;
  guint             calls_left;
  guint             next_call;

  gulong            progress_id;
  gulong            wire_request_id;
  gulong            wire_response_id;

  TbLoopMcp        *mcp;
  GHashTable       *call_ids;     /* of the latest calls the model asked for in this run */
};

enum {
  PROP_0,
  PROP_REGISTRY,
  PROP_PROVIDER,
  PROP_TRACE,
  PROP_MAX_ITERATIONS,
  PROP_ITERATION,
  PROP_STATE,
  PROP_APPROVAL_POLICY,
  PROP_PARALLEL_TOOL_CALLS,
  PROP_STREAM,
  N_PROPS
};

enum { CALL_PENDING, CALL_PROGRESS, WARNING, N_SIGNALS };

extern GParamSpec *_tb_dispatch_loop_properties [N_PROPS];
extern guint _tb_dispatch_loop_signals [N_SIGNALS];

void        _tb_dispatch_loop_set_state           (TbDispatchLoop *self,
                                                   TbLoopState     state);

/* tb-dispatch-loop-record.c */
JsonObject *_tb_dispatch_loop_event_new           (TbDispatchLoop *self);
void        _tb_dispatch_loop_record              (TbDispatchLoop *self,
                                                   const char     *type,
                                                   JsonObject     *payload);
GString    *_tb_dispatch_loop_line_new            (TbDispatchLoop *self);
void        _tb_dispatch_loop_record_line         (TbDispatchLoop *self,
                                                   const char     *type,
                                                   GString        *line);
guint       _tb_dispatch_loop_conversation_length (TbDispatchLoop *self);
void        _tb_dispatch_loop_append_message      (TbDispatchLoop *self,
                                                   TbMessage      *message,
                                                   const char     *origin);
void        _tb_dispatch_loop_ensure_header       (TbDispatchLoop *self);
void        _tb_dispatch_loop_end                 (TbDispatchLoop *self,
                                                   TbLoopState     state,
                                                   const char     *reason);
void        _tb_dispatch_loop_end_with_error      (TbDispatchLoop *self,
                                                   GError         *error);
void        _tb_dispatch_loop_warn                (TbDispatchLoop *self,
                                                   const char     *message);
void        _tb_dispatch_loop_watch               (TbDispatchLoop *self);
void        _tb_dispatch_loop_unwatch             (TbDispatchLoop *self);

/* tb-dispatch-loop-approval.c */
gboolean    _tb_dispatch_loop_waits_for_person    (TbDispatchLoop *self,
                                                   TbPendingCall  *call);
guint       _tb_dispatch_loop_count_waiting       (TbDispatchLoop *self);
gboolean    _tb_dispatch_loop_should_continue     (TbDispatchLoop *self);
void        _tb_dispatch_loop_record_decisions    (TbDispatchLoop *self);

/* tb-dispatch-loop-run.c */
void        _tb_dispatch_loop_phase_finished      (TbDispatchLoop *self);
void        _tb_dispatch_loop_accept_model_turn   (TbDispatchLoop *self,
                                                   TbMessage      *message,
                                                   const char     *origin);
gboolean    _tb_dispatch_loop_begin_iteration     (TbDispatchLoop *self);

/* tb-dispatch-loop-calls.c */
void        _tb_dispatch_loop_set_model_tools     (TbDispatchLoop *self,
                                                   TbToolRegistry *model_tools);
void        _tb_dispatch_loop_run_tools           (TbDispatchLoop *self);

G_END_DECLS
