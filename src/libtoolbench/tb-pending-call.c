/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-pending-call"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-dispatch-loop.h"
#include "tb-json.h"
#include "tb-pending-call-private.h"
#include "tb-schema-error.h"
#include "tb-tool-result.h"
#include "tb-tool.h"

/**
 * TbPendingCall:
 *
 * A call the model asked for, waiting for a decision before it runs:
 * approve, edit the arguments (re-validated), skip with a hand-written
 * result, or reject. Handlers of #TbDispatchLoop::call-pending decide
 * here; in the app the person does, at any time before the next step.
 */

G_DEFINE_FINAL_TYPE (TbPendingCall, tb_pending_call, G_TYPE_OBJECT)

enum { PENDING_PROP_0, PENDING_PROP_DECISION, PENDING_PROP_RESULT, N_PENDING_PROPS };
static GParamSpec *pending_properties [N_PENDING_PROPS];

/* Every decision goes through here, so that views follow it. */
void
_tb_pending_call_set_decision (TbPendingCall  *self,
                               TbCallDecision  decision,
                               gboolean        by_person)
{
  self->by_person = by_person;
  if (self->decision == decision)
    return;
  self->decision = decision;
  g_object_notify_by_pspec (G_OBJECT (self), pending_properties [PENDING_PROP_DECISION]);
}

static void
tb_pending_call_finalize (GObject *object)
{
  TbPendingCall *self = (TbPendingCall *)object;

  g_clear_object (&self->call);
  g_clear_object (&self->tool);
  g_clear_pointer (&self->arguments, json_node_unref);
  g_clear_pointer (&self->output, json_node_unref);
  g_clear_pointer (&self->reason, g_free);
  g_clear_object (&self->answer);
  g_clear_object (&self->result);
  g_clear_pointer (&self->progress_message, g_free);

  G_OBJECT_CLASS (tb_pending_call_parent_class)->finalize (object);
}

static void
tb_pending_call_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbPendingCall *self = TB_PENDING_CALL (object);

  switch (prop_id)
    {
    case PENDING_PROP_DECISION:
      g_value_set_enum (value, self->decision);
      break;
    case PENDING_PROP_RESULT:
      g_value_set_object (value, self->result);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_pending_call_class_init (TbPendingCallClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_pending_call_finalize;
  object_class->get_property = tb_pending_call_get_property;

  /**
   * TbPendingCall:decision:
   *
   * What will happen to the call when the loop runs it.
   */
  pending_properties [PENDING_PROP_DECISION] =
    g_param_spec_enum ("decision", NULL, NULL, TB_TYPE_CALL_DECISION,
                       TB_CALL_DECISION_UNDECIDED,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbPendingCall:result:
   *
   * The call's result, once it has one: views stop showing it as running.
   */
  pending_properties [PENDING_PROP_RESULT] =
    g_param_spec_object ("result", NULL, NULL, TB_TYPE_TOOL_RESULT,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PENDING_PROPS, pending_properties);
}

static void
tb_pending_call_init (TbPendingCall *self)
{
}

/* The result the call gave, when it has run; views follow it. */
void
_tb_pending_call_set_result (TbPendingCall *self,
                             TbToolResult  *result)
{
  if (g_set_object (&self->result, result))
    g_object_notify_by_pspec (G_OBJECT (self), pending_properties [PENDING_PROP_RESULT]);
}

/**
 * tb_pending_call_get_call:
 * @self: a pending call
 *
 * Gives the call the model asked for, unchanged by any decision.
 *
 * Returns: (transfer none): the call as the model sent it
 */
TbToolCall *
tb_pending_call_get_call (TbPendingCall *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), NULL);
  return self->call;
}

/**
 * tb_pending_call_get_tool:
 * @self: a pending call
 *
 * Gives the registered tool the call names.
 *
 * Returns: (transfer none) (nullable): the tool, or %NULL when the call
 *   names no tool the model was offered
 */
TbTool *
tb_pending_call_get_tool (TbPendingCall *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), NULL);
  return self->tool;
}

/**
 * tb_pending_call_get_index:
 * @self: a pending call
 *
 * Gives the call's place among the calls of its turn, which is the order
 * their results are sent back to the model.
 *
 * Returns: the index, from 0
 */
guint
tb_pending_call_get_index (TbPendingCall *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), 0);
  return self->index;
}

/**
 * tb_pending_call_get_decision:
 * @self: a pending call
 *
 * Says what was decided about the call so far.
 *
 * Returns: the decision, %TB_CALL_DECISION_UNDECIDED until someone decides
 */
TbCallDecision
tb_pending_call_get_decision (TbPendingCall *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), TB_CALL_DECISION_UNDECIDED);
  return self->decision;
}

/**
 * tb_pending_call_get_arguments:
 * @self: a pending call
 *
 * Gives the arguments the call runs with if it is approved, which a person
 * may have edited.
 *
 * Returns: (transfer none) (nullable): the arguments the call will run
 *   with: the edited ones after an edit, else the model's (%NULL when the
 *   model's were not JSON)
 */
JsonNode *
tb_pending_call_get_arguments (TbPendingCall *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), NULL);
  return self->arguments != NULL ? self->arguments : tb_tool_call_get_arguments (self->call);
}

/* Whatever an earlier decision left behind must not run or be told. */
static void
clear_decision_data (TbPendingCall *self)
{
  g_clear_pointer (&self->arguments, json_node_unref);
  g_clear_pointer (&self->output, json_node_unref);
  g_clear_pointer (&self->reason, g_free);
  g_clear_object (&self->answer);
}

/**
 * tb_pending_call_approve:
 * @self: a pending call
 *
 * Runs the call with the model's arguments, whatever was decided before.
 */
void
tb_pending_call_approve (TbPendingCall *self)
{
  g_return_if_fail (TB_IS_PENDING_CALL (self));
  clear_decision_data (self);
  _tb_pending_call_set_decision (self, TB_CALL_DECISION_APPROVE, TRUE);
}

/**
 * tb_pending_call_undecide:
 * @self: a pending call
 *
 * Withdraws the decision (the person changed what they had approved):
 * the call is left to the loop's approval policy again.
 */
void
tb_pending_call_undecide (TbPendingCall *self)
{
  g_return_if_fail (TB_IS_PENDING_CALL (self));
  clear_decision_data (self);
  _tb_pending_call_set_decision (self, TB_CALL_DECISION_UNDECIDED, FALSE);
}

/**
 * tb_pending_call_get_result:
 * @self: a pending call
 *
 * Gives what the call answered: the tool's result, the skipped call's
 * result a person wrote, or a rejection.
 *
 * Returns: (transfer none) (nullable): the call's result, %NULL until it
 *   has one
 */
TbToolResult *
tb_pending_call_get_result (TbPendingCall *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), NULL);
  return self->result;
}

/**
 * tb_pending_call_get_model_arguments:
 * @self: a pending call
 *
 * Gives the arguments the model sent, even after a person edited them, for
 * showing what changed.
 *
 * Returns: (transfer none) (nullable): the arguments as the model sent
 *   them (%NULL when they were not JSON)
 */
JsonNode *
tb_pending_call_get_model_arguments (TbPendingCall *self)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), NULL);
  return tb_tool_call_get_arguments (self->call);
}

static gboolean
check_edit (TbPendingCall  *self,
            JsonNode       *arguments,
            GError        **error)
{
  if (self->tool == NULL)
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                   _("“%s” is not a tool the model may call, so there is nothing to edit; "
                     "skip or reject the call instead"), tb_tool_call_get_name (self->call));
      return FALSE;
    }
  if (!tb_json_node_depth_ok (arguments, TB_JSON_MAX_DEPTH) || !JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("The arguments must be a JSON object"));
      return FALSE;
    }
  return TRUE;
}

static void
take_edit (TbPendingCall *self,
           JsonNode      *arguments)
{
  clear_decision_data (self);
  self->arguments = json_node_copy (arguments);
  json_node_seal (self->arguments);
  _tb_pending_call_set_decision (self, TB_CALL_DECISION_EDIT, TRUE);
}

/**
 * tb_pending_call_edit_anyway:
 * @self: a pending call
 * @arguments: the arguments to run with instead of the model's
 * @error: return location for a %TB_LOOP_ERROR_INVALID
 *
 * Like tb_pending_call_edit() without the schema: a person who runs
 * arguments the schema refuses on purpose gets them run, and the tool
 * (or the registry's validation) answers them as it would the model.
 *
 * Returns: %TRUE when the edit was accepted (a JSON object)
 */
gboolean
tb_pending_call_edit_anyway (TbPendingCall  *self,
                             JsonNode       *arguments,
                             GError        **error)
{
  g_return_val_if_fail (TB_IS_PENDING_CALL (self), FALSE);
  g_return_val_if_fail (arguments != NULL, FALSE);

  if (!check_edit (self, arguments, error))
    return FALSE;
  take_edit (self, arguments);
  return TRUE;
}

/**
 * tb_pending_call_edit:
 * @self: a pending call
 * @arguments: the arguments to run with instead of the model's
 * @error: return location for a %TB_LOOP_ERROR_INVALID naming every problem
 *
 * Validates @arguments against the tool's schema; only valid arguments
 * are accepted, and the decision is left as it was otherwise.
 *
 * Returns: %TRUE when the edit was accepted
 */
gboolean
tb_pending_call_edit (TbPendingCall  *self,
                      JsonNode       *arguments,
                      GError        **error)
{
  g_autoptr(GPtrArray) errors = NULL;

  g_return_val_if_fail (TB_IS_PENDING_CALL (self), FALSE);
  g_return_val_if_fail (arguments != NULL, FALSE);

  if (!check_edit (self, arguments, error))
    return FALSE;
  if (!tb_tool_validate_arguments (self->tool, arguments, &errors))
    {
      GString *text = g_string_new (NULL);

      g_string_append_printf (text, _("The edited arguments for “%s” are not valid:"),
                              tb_tool_get_name (self->tool));
      for (guint i = 0; errors != NULL && i < errors->len; i++)
        {
          g_autofree char *line = tb_schema_error_to_string (g_ptr_array_index (errors, i));

          g_string_append_printf (text, "\n- %s", line);
        }
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID, text->str);
      g_string_free (text, TRUE);
      return FALSE;
    }

  take_edit (self, arguments);
  return TRUE;
}

/**
 * tb_pending_call_skip:
 * @self: a pending call
 * @output: (nullable): the result the model sees instead of running the tool
 *
 * Decides not to run the call and to answer it with @output instead, as if
 * the tool had returned it; a %NULL @output answers JSON `null`.
 */
void
tb_pending_call_skip (TbPendingCall *self,
                      JsonNode      *output)
{
  g_return_if_fail (TB_IS_PENDING_CALL (self));

  clear_decision_data (self);
  self->output = output != NULL ? json_node_copy (output) : json_node_new (JSON_NODE_NULL);
  _tb_pending_call_set_decision (self, TB_CALL_DECISION_SKIP, TRUE);
}

/**
 * tb_pending_call_answer:
 * @self: a pending call
 * @result: the complete result to give instead of running the tool,
 *   failures included (replay with recorded results uses this)
 *
 * Like tb_pending_call_skip(), with a whole #TbToolResult.
 */
void
tb_pending_call_answer (TbPendingCall *self,
                        TbToolResult  *result)
{
  g_return_if_fail (TB_IS_PENDING_CALL (self));
  g_return_if_fail (TB_IS_TOOL_RESULT (result));

  g_object_ref (result);
  clear_decision_data (self);
  self->answer = result;
  self->output = tb_tool_result_to_json (result);
  _tb_pending_call_set_decision (self, TB_CALL_DECISION_SKIP, TRUE);
}

/**
 * tb_pending_call_reject:
 * @self: a pending call
 * @reason: (nullable): why, shown to the model
 * @reason when there is one.
 *
 * Decides not to run the call; the model is told it was refused, with
 */
void
tb_pending_call_reject (TbPendingCall *self,
                        const char    *reason)
{
  g_return_if_fail (TB_IS_PENDING_CALL (self));

  clear_decision_data (self);
  self->reason = g_strdup (reason);
  _tb_pending_call_set_decision (self, TB_CALL_DECISION_REJECT, TRUE);
}
