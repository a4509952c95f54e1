/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * TbMessageRole:
 * @TB_MESSAGE_ROLE_SYSTEM: instructions for the model
 * @TB_MESSAGE_ROLE_USER: what the person says
 * @TB_MESSAGE_ROLE_ASSISTANT: what the model says, with its tool calls
 * @TB_MESSAGE_ROLE_TOOL: the result of one tool call, answering its call id
 *
 * Who a #TbMessage comes from.
 */
typedef enum
{
  TB_MESSAGE_ROLE_SYSTEM,
  TB_MESSAGE_ROLE_USER,
  TB_MESSAGE_ROLE_ASSISTANT,
  TB_MESSAGE_ROLE_TOOL,
} TbMessageRole;

/**
 * TbLoopState:
 * @TB_LOOP_STATE_READY: the next step asks the model
 * @TB_LOOP_STATE_AWAITING_MODEL: a request is on its way to the provider
 * @TB_LOOP_STATE_CALLS_PENDING: the model asked for calls; each waits for a decision
 * @TB_LOOP_STATE_RUNNING_TOOLS: the decided calls are running
 * @TB_LOOP_STATE_FINISHED: the model answered in text, or a tool asked to stop
 * @TB_LOOP_STATE_LIMIT_REACHED: the iteration cap was reached; it may be extended
 * @TB_LOOP_STATE_FAILED: the provider failed or the conversation cannot go on
 * @TB_LOOP_STATE_CANCELLED: the person stopped the loop
 *
 * Where a #TbDispatchLoop is in its run (#TbDispatchLoop:state).
 */
typedef enum
{
  TB_LOOP_STATE_READY,
  TB_LOOP_STATE_AWAITING_MODEL,
  TB_LOOP_STATE_CALLS_PENDING,
  TB_LOOP_STATE_RUNNING_TOOLS,
  TB_LOOP_STATE_FINISHED,
  TB_LOOP_STATE_LIMIT_REACHED,
  TB_LOOP_STATE_FAILED,
  TB_LOOP_STATE_CANCELLED,
} TbLoopState;

/**
 * TbCallDecision:
 * @TB_CALL_DECISION_UNDECIDED: nobody decided yet
 * @TB_CALL_DECISION_APPROVE: run the call as the model sent it
 * @TB_CALL_DECISION_EDIT: run the call with arguments a person wrote (validated)
 * @TB_CALL_DECISION_SKIP: do not run; answer with a result a person wrote
 * @TB_CALL_DECISION_REJECT: do not run; the model is told the call was refused
 *
 * What was decided about a #TbPendingCall.
 */
typedef enum
{
  TB_CALL_DECISION_UNDECIDED,
  TB_CALL_DECISION_APPROVE,
  TB_CALL_DECISION_EDIT,
  TB_CALL_DECISION_SKIP,
  TB_CALL_DECISION_REJECT,
} TbCallDecision;

/**
 * TbApprovalPolicy:
 * @TB_APPROVAL_POLICY_APPROVE_ALL: calls nobody decided run
 * @TB_APPROVAL_POLICY_REJECT_ALL: calls nobody decided are rejected
 * @TB_APPROVAL_POLICY_ASK: calls nobody decided keep the loop in
 *   %TB_LOOP_STATE_CALLS_PENDING until a person decides
 * @TB_APPROVAL_POLICY_READ_ONLY: calls to tools marked read-only run; the
 *   others wait for a person as with %TB_APPROVAL_POLICY_ASK
 *
 * What happens to a pending call that no #TbDispatchLoop::call-pending
 * handler decided. Whatever the policy but %TB_APPROVAL_POLICY_REJECT_ALL,
 * a call to a tool marked destructive waits for a person. The marks are
 * the tools' hints, or a person's (tb_tool_registry_get_hints()).
 */
typedef enum
{
  TB_APPROVAL_POLICY_APPROVE_ALL,
  TB_APPROVAL_POLICY_REJECT_ALL,
  TB_APPROVAL_POLICY_ASK,
  TB_APPROVAL_POLICY_READ_ONLY,
} TbApprovalPolicy;

#define TB_TYPE_MESSAGE_ROLE (tb_message_role_get_type ())
#define TB_TYPE_LOOP_STATE (tb_loop_state_get_type ())
#define TB_TYPE_CALL_DECISION (tb_call_decision_get_type ())
#define TB_TYPE_APPROVAL_POLICY (tb_approval_policy_get_type ())

GType       tb_message_role_get_type      (void) G_GNUC_CONST;
GType       tb_loop_state_get_type        (void) G_GNUC_CONST;
GType       tb_call_decision_get_type     (void) G_GNUC_CONST;
GType       tb_approval_policy_get_type   (void) G_GNUC_CONST;

const char *tb_message_role_to_string     (TbMessageRole     role);
gboolean    tb_message_role_from_string   (const char       *text,
                                           TbMessageRole    *role);
const char *tb_loop_state_to_string       (TbLoopState       state);
gboolean    tb_loop_state_is_end          (TbLoopState       state);
gboolean    tb_loop_state_from_string     (const char       *text,
                                           TbLoopState      *state);
const char *tb_call_decision_to_string    (TbCallDecision    decision);
const char *tb_approval_policy_to_string  (TbApprovalPolicy  policy);
gboolean    tb_approval_policy_from_string (const char       *text,
                                            TbApprovalPolicy *policy);

G_END_DECLS
