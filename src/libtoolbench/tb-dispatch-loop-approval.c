/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-dispatch-loop-private.h"
#include "tb-pending-call-private.h"
#include "tb-trace-line-private.h"

/* Who decides a call: the approval policy, the tools' hints, breakpoints
 * and a person; when a run stops for one, and the decisions recorded. */

static gboolean
is_breakpoint (TbDispatchLoop *self,
               const char     *name)
{
  return self->breakpoints != NULL && g_strv_contains ((const char * const *) self->breakpoints,
                                                       name);
}

/* Whether an undecided call waits for a person: every one when asking,
 * none when rejecting all, and otherwise those to destructive tools and,
 * under the read-only policy, to tools not marked read-only. */
gboolean
_tb_dispatch_loop_waits_for_person (TbDispatchLoop *self,
                                    TbPendingCall  *call)
{
  TbToolHints hints;

  if (call->decision != TB_CALL_DECISION_UNDECIDED)
    return FALSE;
  if (self->policy == TB_APPROVAL_POLICY_ASK)
    return TRUE;
  if (self->policy == TB_APPROVAL_POLICY_REJECT_ALL || call->tool == NULL)
    return FALSE;
  hints = tb_tool_registry_get_hints (self->registry, tb_tool_get_name (call->tool), NULL);
  if (hints & TB_TOOL_HINT_DESTRUCTIVE)
    return TRUE;
  return self->policy == TB_APPROVAL_POLICY_READ_ONLY && !(hints & TB_TOOL_HINT_READ_ONLY);
}

guint
_tb_dispatch_loop_count_waiting (TbDispatchLoop *self)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->pending)); i++)
    {
      g_autoptr(TbPendingCall) call = g_list_model_get_item (G_LIST_MODEL (self->pending), i);

      if (_tb_dispatch_loop_waits_for_person (self, call))
        n++;
    }
  return n;
}

/* Whether a run goes on from the current state, or pauses. */
gboolean
_tb_dispatch_loop_should_continue (TbDispatchLoop *self)
{
  if (self->state == TB_LOOP_STATE_READY)
    {
      gboolean pause = self->pause_requested;

      self->pause_requested = FALSE;
      return !pause;
    }
  if (self->state != TB_LOOP_STATE_CALLS_PENDING)
    return FALSE;

  if (self->paused_at_iteration != self->iteration)
    {
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->pending)); i++)
        {
          g_autoptr(TbPendingCall) call = g_list_model_get_item (G_LIST_MODEL (self->pending), i);

          if (is_breakpoint (self, tb_tool_call_get_name (call->call)))
            {
              self->paused_at_iteration = self->iteration;
              return FALSE;
            }
        }
    }

  return _tb_dispatch_loop_count_waiting (self) == 0;
}

void
_tb_dispatch_loop_record_decisions (TbDispatchLoop *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->pending));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbPendingCall) pending = g_list_model_get_item (G_LIST_MODEL (self->pending), i);
      GString *line = _tb_dispatch_loop_line_new (self);
      const char *by;

      if (pending->decision == TB_CALL_DECISION_UNDECIDED)
        {
          _tb_pending_call_set_decision (pending, self->policy == TB_APPROVAL_POLICY_REJECT_ALL
                                 ? TB_CALL_DECISION_REJECT : TB_CALL_DECISION_APPROVE, FALSE);
          if (pending->decision == TB_CALL_DECISION_REJECT)
            pending->reason = g_strdup (_("calls are not allowed in this run"));
          by = "policy";
        }
      else
        {
          by = pending->tool == NULL ? "loop" : pending->by_person ? "person" : "policy";
        }

      _tb_trace_line_add_string (line, "call_id", tb_tool_call_get_id (pending->call));
      _tb_trace_line_add_string (line, "decision",
                                 tb_call_decision_to_string (pending->decision));
      _tb_trace_line_add_string (line, "by", by);
      /* Both sides of an edit, so a reader sees what the person changed. */
      if (pending->decision == TB_CALL_DECISION_EDIT)
        {
          JsonNode *sent = tb_tool_call_get_arguments (pending->call);

          _tb_trace_line_add_node (line, "arguments", pending->arguments);
          if (sent != NULL)
            _tb_trace_line_add_node (line, "model_arguments", sent);
          else if (tb_tool_call_get_raw_arguments (pending->call) != NULL)
            _tb_trace_line_add_string (line, "model_raw_arguments",
                                       tb_tool_call_get_raw_arguments (pending->call));
        }
      if (pending->decision == TB_CALL_DECISION_SKIP)
        _tb_trace_line_add_node (line, "output", pending->output);
      if (pending->reason != NULL)
        _tb_trace_line_add_string (line, "reason", pending->reason);
      _tb_dispatch_loop_record_line (self, "decision", line);
    }
}

/**
 * tb_dispatch_loop_call_waits_for_person:
 * @self: a loop
 * @call: one of its pending calls
 *
 * Whether @call, undecided, keeps the loop waiting for a person under the
 * loop's approval policy and the tools' hints (a
 * #TbDispatchLoop::call-pending handler that asks people asks about these
 * and leaves the others to the policy).
 *
 * Returns: %TRUE when a person has to decide
 */
gboolean
tb_dispatch_loop_call_waits_for_person (TbDispatchLoop *self,
                                        TbPendingCall  *call)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (TB_IS_PENDING_CALL (call), FALSE);

  return _tb_dispatch_loop_waits_for_person (self, call);
}

/**
 * tb_dispatch_loop_get_approval_policy:
 * @self: a loop
 *
 * Says what happens to calls nobody decided.
 *
 * Returns: the approval policy
 */
TbApprovalPolicy
tb_dispatch_loop_get_approval_policy (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), TB_APPROVAL_POLICY_ASK);
  return self->policy;
}

/**
 * tb_dispatch_loop_set_approval_policy:
 * @self: a loop
 * @policy: the new policy
 *
 * Says what happens to calls nobody decided. Once the run has begun (its
 * trace has a header), the change is recorded as a `policy` event.
 */
void
tb_dispatch_loop_set_approval_policy (TbDispatchLoop   *self,
                                      TbApprovalPolicy  policy)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  if (self->policy == policy)
    return;
  self->policy = policy;
  /* The header names the policy the run started with; a later change is
   * an event of its own. */
  if (json_object_has_member (tb_trace_get_header (self->trace), "provider"))
    {
      JsonObject *payload = _tb_dispatch_loop_event_new (self);

      json_object_set_string_member (payload, "approval_policy",
                                     tb_approval_policy_to_string (policy));
      _tb_dispatch_loop_record (self, "policy", payload);
    }
  g_object_notify_by_pspec (G_OBJECT (self), _tb_dispatch_loop_properties [PROP_APPROVAL_POLICY]);
}

/**
 * tb_dispatch_loop_set_breakpoints:
 * @self: a loop
 * @tool_names: (nullable): real tool names at which a run pauses
 *
 * Makes a run pause for a person at every call of these tools, whatever
 * the approval policy.
 */
void
tb_dispatch_loop_set_breakpoints (TbDispatchLoop     *self,
                                  const char * const *tool_names)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  g_strfreev (self->breakpoints);
  self->breakpoints = g_strdupv ((char **) tool_names);
}

/**
 * tb_dispatch_loop_get_breakpoints:
 * @self: a loop
 *
 * Gives the tools at which a run pauses for a person, whatever the approval
 * policy.
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the tool names, or %NULL for none
 */
const char * const *
tb_dispatch_loop_get_breakpoints (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return (const char * const *) self->breakpoints;
}
