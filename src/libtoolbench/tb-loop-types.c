/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-loop-types"

#include "config.h"

#include "tb-loop-types.h"

/* Written by hand rather than with mkenums: the nicks are the words used
 * on the wire, in traces and in scenario files, so they are spelled out. */

static const GEnumValue role_values[] = {
  { TB_MESSAGE_ROLE_SYSTEM, "TB_MESSAGE_ROLE_SYSTEM", "system" },
  { TB_MESSAGE_ROLE_USER, "TB_MESSAGE_ROLE_USER", "user" },
  { TB_MESSAGE_ROLE_ASSISTANT, "TB_MESSAGE_ROLE_ASSISTANT", "assistant" },
  { TB_MESSAGE_ROLE_TOOL, "TB_MESSAGE_ROLE_TOOL", "tool" },
  { 0, NULL, NULL }
};

static const GEnumValue state_values[] = {
  { TB_LOOP_STATE_READY, "TB_LOOP_STATE_READY", "ready" },
  { TB_LOOP_STATE_AWAITING_MODEL, "TB_LOOP_STATE_AWAITING_MODEL", "awaiting-model" },
  { TB_LOOP_STATE_CALLS_PENDING, "TB_LOOP_STATE_CALLS_PENDING", "calls-pending" },
  { TB_LOOP_STATE_RUNNING_TOOLS, "TB_LOOP_STATE_RUNNING_TOOLS", "running-tools" },
  { TB_LOOP_STATE_FINISHED, "TB_LOOP_STATE_FINISHED", "finished" },
  { TB_LOOP_STATE_LIMIT_REACHED, "TB_LOOP_STATE_LIMIT_REACHED", "limit-reached" },
  { TB_LOOP_STATE_FAILED, "TB_LOOP_STATE_FAILED", "failed" },
  { TB_LOOP_STATE_CANCELLED, "TB_LOOP_STATE_CANCELLED", "cancelled" },
  { 0, NULL, NULL }
};

static const GEnumValue decision_values[] = {
  { TB_CALL_DECISION_UNDECIDED, "TB_CALL_DECISION_UNDECIDED", "undecided" },
  { TB_CALL_DECISION_APPROVE, "TB_CALL_DECISION_APPROVE", "approve" },
  { TB_CALL_DECISION_EDIT, "TB_CALL_DECISION_EDIT", "edit" },
  { TB_CALL_DECISION_SKIP, "TB_CALL_DECISION_SKIP", "skip" },
  { TB_CALL_DECISION_REJECT, "TB_CALL_DECISION_REJECT", "reject" },
  { 0, NULL, NULL }
};

static const GEnumValue policy_values[] = {
  { TB_APPROVAL_POLICY_APPROVE_ALL, "TB_APPROVAL_POLICY_APPROVE_ALL", "approve-all" },
  { TB_APPROVAL_POLICY_REJECT_ALL, "TB_APPROVAL_POLICY_REJECT_ALL", "reject-all" },
  { TB_APPROVAL_POLICY_ASK, "TB_APPROVAL_POLICY_ASK", "ask" },
  { TB_APPROVAL_POLICY_READ_ONLY, "TB_APPROVAL_POLICY_READ_ONLY", "read-only" },
  { 0, NULL, NULL }
};

#define DEFINE_ENUM_TYPE(func, Name, values)                              \
GType                                                                     \
func (void)                                                               \
{                                                                         \
  static gsize type_id;                                                   \
                                                                          \
  if (g_once_init_enter (&type_id))                                       \
    g_once_init_leave (&type_id, g_enum_register_static (Name, values));  \
  return type_id;                                                         \
}

DEFINE_ENUM_TYPE (tb_message_role_get_type, "TbMessageRole", role_values)
DEFINE_ENUM_TYPE (tb_loop_state_get_type, "TbLoopState", state_values)
DEFINE_ENUM_TYPE (tb_call_decision_get_type, "TbCallDecision", decision_values)
DEFINE_ENUM_TYPE (tb_approval_policy_get_type, "TbApprovalPolicy", policy_values)

static const char *
nick_of (const GEnumValue *values,
         int               value)
{
  for (guint i = 0; values[i].value_nick != NULL; i++)
    if (values[i].value == value)
      return values[i].value_nick;
  return "unknown";
}

static gboolean
value_of (const GEnumValue *values,
          const char       *nick,
          int              *value)
{
  for (guint i = 0; nick != NULL && values[i].value_nick != NULL; i++)
    {
      if (g_str_equal (values[i].value_nick, nick))
        {
          *value = values[i].value;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * tb_message_role_to_string:
 * @role: a role
 *
 * Names a message role in the words traces use.
 *
 * Returns: "system", "user", "assistant" or "tool"
 */
const char *
tb_message_role_to_string (TbMessageRole role)
{
  return nick_of (role_values, role);
}

/**
 * tb_message_role_from_string:
 * @text: (nullable): a role's name, as tb_message_role_to_string() gives it
 * @role: where to store the role; untouched when @text names none
 *
 * Reads a message role by its name, as traces write it.
 *
 * Returns: %TRUE when @text names a role
 */
gboolean
tb_message_role_from_string (const char    *text,
                             TbMessageRole *role)
{
  int value;

  if (!value_of (role_values, text, &value))
    return FALSE;
  *role = value;
  return TRUE;
}

/**
 * tb_loop_state_to_string:
 * @state: a state
 *
 * Names a loop state in the words traces and the CLI use.
 *
 * Returns: the state's name, such as "calls-pending"
 */
const char *
tb_loop_state_to_string (TbLoopState state)
{
  return nick_of (state_values, state);
}

/**
 * tb_loop_state_from_string:
 * @text: (nullable): a state's name, as tb_loop_state_to_string() gives it
 * @state: where to store the state; untouched when @text names none
 *
 * Reads a loop state by its name, as traces write it.
 *
 * Returns: %TRUE when @text names a state
 */
gboolean
tb_loop_state_from_string (const char  *text,
                           TbLoopState *state)
{
  int value;

  if (!value_of (state_values, text, &value))
    return FALSE;
  *state = value;
  return TRUE;
}

/**
 * tb_loop_state_is_end:
 * @state: a state
 *
 * Tells whether a run is over in @state, for a program waiting for it to end.
 *
 * Returns: %TRUE for the states in which a loop does nothing more by
 *   itself (%TB_LOOP_STATE_LIMIT_REACHED may still be extended)
 */
gboolean
tb_loop_state_is_end (TbLoopState state)
{
  return state == TB_LOOP_STATE_FINISHED || state == TB_LOOP_STATE_LIMIT_REACHED ||
         state == TB_LOOP_STATE_FAILED || state == TB_LOOP_STATE_CANCELLED;
}

/**
 * tb_call_decision_to_string:
 * @decision: a decision
 *
 * Names a decision in the words `decision` events of a trace use.
 *
 * Returns: "undecided", "approve", "edit", "skip" or "reject"
 */
const char *
tb_call_decision_to_string (TbCallDecision decision)
{
  return nick_of (decision_values, decision);
}

/**
 * tb_approval_policy_to_string:
 * @policy: a policy
 *
 * Names a policy in the words traces, the preferences and the CLI use.
 *
 * Returns: "approve-all", "reject-all", "ask" or "read-only", as traces
 *   and the preferences name them
 */
const char *
tb_approval_policy_to_string (TbApprovalPolicy policy)
{
  return nick_of (policy_values, policy);
}

/**
 * tb_approval_policy_from_string:
 * @text: a policy's name
 * @policy: (out): the policy
 *
 * Reads a policy by the name tb_approval_policy_to_string() gives it, as the
 * CLI's `--approve` and traces write it.
 *
 * Returns: whether @text names a policy
 */
gboolean
tb_approval_policy_from_string (const char       *text,
                                TbApprovalPolicy *policy)
{
  int value;

  if (!value_of (policy_values, text, &value))
    return FALSE;
  *policy = value;
  return TRUE;
}
