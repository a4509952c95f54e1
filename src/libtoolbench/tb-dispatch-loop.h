/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

#include "tb-loop-types.h"
#include "tb-message.h"
#include "tb-pending-call.h"
#include "tb-provider.h"
#include "tb-tool-registry.h"
#include "tb-trace.h"

G_BEGIN_DECLS

/**
 * TB_DISPATCH_LOOP_WARN_ITERATION:
 *
 * The iteration at which the loop records a warning: a model still calling
 * tools after five turns is often going in circles.
 */
#define TB_DISPATCH_LOOP_WARN_ITERATION 5

#define TB_LOOP_ERROR (tb_loop_error_quark ())

/**
 * TbLoopError:
 * @TB_LOOP_ERROR_BUSY: a phase is already running.
 * @TB_LOOP_ERROR_WRONG_STATE: the loop is not in a state where this is possible.
 * @TB_LOOP_ERROR_UNDECIDED: calls still wait for a decision.
 * @TB_LOOP_ERROR_INVALID: the message or arguments given are not acceptable.
 * @TB_LOOP_ERROR_MODEL: the provider failed; the message says why.
 *
 * Why a #TbDispatchLoop refused to do what it was asked: the loop was busy,
 * in the wrong state or had calls nobody decided, the input was not
 * acceptable, or the model failed. The messages say which and what to do.
 */
typedef enum
{
  TB_LOOP_ERROR_BUSY,
  TB_LOOP_ERROR_WRONG_STATE,
  TB_LOOP_ERROR_UNDECIDED,
  TB_LOOP_ERROR_INVALID,
  TB_LOOP_ERROR_MODEL,
} TbLoopError;

#define TB_TYPE_DISPATCH_LOOP (tb_dispatch_loop_get_type())

G_DECLARE_FINAL_TYPE (TbDispatchLoop, tb_dispatch_loop, TB, DISPATCH_LOOP, GObject)

GQuark            tb_loop_error_quark                (void);
TbDispatchLoop   *tb_dispatch_loop_new               (TbToolRegistry   *registry,
                                                      TbProvider       *provider,
                                                      guint             max_iterations);
TbToolRegistry   *tb_dispatch_loop_get_registry      (TbDispatchLoop   *self);
TbProvider       *tb_dispatch_loop_get_provider      (TbDispatchLoop   *self);
TbTrace          *tb_dispatch_loop_get_trace         (TbDispatchLoop   *self);
TbLoopState       tb_dispatch_loop_get_state         (TbDispatchLoop   *self);
guint             tb_dispatch_loop_get_iteration     (TbDispatchLoop   *self);
guint             tb_dispatch_loop_get_max_iterations (TbDispatchLoop  *self);
const GError     *tb_dispatch_loop_get_error         (TbDispatchLoop   *self);
GListModel       *tb_dispatch_loop_get_messages      (TbDispatchLoop   *self);
GListModel       *tb_dispatch_loop_get_pending_calls (TbDispatchLoop   *self);
gboolean         tb_dispatch_loop_call_waits_for_person (TbDispatchLoop *self,
                                                         TbPendingCall  *call);
TbApprovalPolicy  tb_dispatch_loop_get_approval_policy (TbDispatchLoop *self);
void              tb_dispatch_loop_set_approval_policy (TbDispatchLoop *self,
                                                        TbApprovalPolicy policy);
void              tb_dispatch_loop_set_breakpoints   (TbDispatchLoop     *self,
                                                      const char * const *tool_names);
const char * const *tb_dispatch_loop_get_breakpoints (TbDispatchLoop   *self);
void              tb_dispatch_loop_set_parallel_tool_calls (TbDispatchLoop *self,
                                                            gboolean        parallel);
void              tb_dispatch_loop_set_stream        (TbDispatchLoop   *self,
                                                      gboolean          stream);
void              tb_dispatch_loop_set_tool_choice   (TbDispatchLoop   *self,
                                                      const char       *tool_choice);
gboolean          tb_dispatch_loop_add_message       (TbDispatchLoop   *self,
                                                      TbMessage        *message,
                                                      GError          **error);
gboolean          tb_dispatch_loop_add_user_message  (TbDispatchLoop   *self,
                                                      const char       *text,
                                                      GError          **error);
gboolean          tb_dispatch_loop_restore           (TbDispatchLoop   *self,
                                                      GPtrArray        *messages,
                                                      guint             iterations_used,
                                                      GError          **error);
gboolean          tb_dispatch_loop_submit_model_turn (TbDispatchLoop   *self,
                                                      TbMessage        *message,
                                                      GError          **error);
void              tb_dispatch_loop_step_async        (TbDispatchLoop      *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
gboolean          tb_dispatch_loop_step_finish       (TbDispatchLoop   *self,
                                                      GAsyncResult     *result,
                                                      GError          **error);
void              tb_dispatch_loop_run_async         (TbDispatchLoop      *self,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
TbLoopState       tb_dispatch_loop_run_finish        (TbDispatchLoop   *self,
                                                      GAsyncResult     *result,
                                                      GError          **error);
void              tb_dispatch_loop_cancel            (TbDispatchLoop   *self);
void              tb_dispatch_loop_fail              (TbDispatchLoop   *self,
                                                      const GError     *error);
gboolean          tb_dispatch_loop_extend            (TbDispatchLoop   *self,
                                                      guint             n,
                                                      GError          **error);

G_END_DECLS
