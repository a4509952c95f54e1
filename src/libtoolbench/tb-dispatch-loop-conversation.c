/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-dispatch-loop-private.h"
#include "tb-provider-private.h"

/* What a person puts into the conversation: system and user messages, an
 * earlier conversation to go on from (a fork), the model's turn written by
 * hand. */

/**
 * tb_dispatch_loop_add_message:
 * @self: a loop
 * @message: a system or user message
 * @error: return location for a %TB_LOOP_ERROR
 *
 * Adds to the conversation. Allowed when the loop is ready, or after it
 * finished (the new user turn makes it ready again).
 *
 * Returns: %TRUE when the message was added
 */
gboolean
tb_dispatch_loop_add_message (TbDispatchLoop  *self,
                              TbMessage       *message,
                              GError         **error)
{
  TbMessageRole role;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (TB_IS_MESSAGE (message), FALSE);

  role = tb_message_get_role (message);
  if (role != TB_MESSAGE_ROLE_SYSTEM && role != TB_MESSAGE_ROLE_USER)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("Only system and user messages can be added; the model's turns "
                             "come from the provider or tb_dispatch_loop_submit_model_turn()."));
      return FALSE;
    }
  if (self->busy || (self->state != TB_LOOP_STATE_READY && self->state != TB_LOOP_STATE_FINISHED))
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                   _("A message can only be added when the loop is ready or finished, "
                     "not while it is %s."), tb_loop_state_to_string (self->state));
      return FALSE;
    }

  _tb_dispatch_loop_ensure_header (self);
  _tb_dispatch_loop_append_message (self, message, "person");
  if (self->state == TB_LOOP_STATE_FINISHED)
    _tb_dispatch_loop_set_state (self, TB_LOOP_STATE_READY);
  return TRUE;
}

/**
 * tb_dispatch_loop_add_user_message:
 * @self: a loop
 * @text: what the person says
 * @error: return location for a %TB_LOOP_ERROR_WRONG_STATE or %TB_LOOP_ERROR_INVALID error
 *
 * Adds what the person says to the conversation, to be sent with the next
 * request; a finished loop becomes ready again. Only possible when the loop
 * is ready or finished.
 *
 * Returns: %TRUE when the message was added, %FALSE with @error set otherwise
 */
gboolean
tb_dispatch_loop_add_user_message (TbDispatchLoop  *self,
                                   const char      *text,
                                   GError         **error)
{
  g_autoptr(TbMessage) message = NULL;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  message = tb_message_new (TB_MESSAGE_ROLE_USER, text);
  return tb_dispatch_loop_add_message (self, message, error);
}

static gboolean
restore_invalid (GError     **error,
                 guint        position,
                 const char  *reason)
{
  g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
               _("Message %u of the history cannot be restored: %s"), position + 1, reason);
  return FALSE;
}

/**
 * tb_dispatch_loop_restore:
 * @self: a new loop: ready, with an empty conversation
 * @messages: (element-type TbMessage): a whole conversation, e.g. a
 *   trace's messages up to a step, possibly edited
 * @iterations_used: how many iterations that conversation used
 * @error: return location for a %TB_LOOP_ERROR
 *
 * Starts the loop from an earlier conversation (a fork). Every call in it
 * must be answered by tool messages right after its assistant turn; to
 * continue from an edited call or model turn, restore the history before
 * that turn and give the turn with tb_dispatch_loop_submit_model_turn().
 * A history that ends in the model's text answer leaves the loop
 * %TB_LOOP_STATE_FINISHED (add a user message to go on).
 *
 * Returns: %TRUE when the history was taken
 */
gboolean
tb_dispatch_loop_restore (TbDispatchLoop  *self,
                          GPtrArray       *messages,
                          guint            iterations_used,
                          GError         **error)
{
  g_autoptr(GHashTable) open = g_hash_table_new (g_str_hash, g_str_equal);
  TbMessage *last = NULL;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (messages != NULL, FALSE);

  if (self->busy || self->state != TB_LOOP_STATE_READY ||
      _tb_dispatch_loop_conversation_length (self) > 0)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                           _("A history can only be restored into a new, empty loop."));
      return FALSE;
    }

  /* Check everything before taking anything. */
  for (guint i = 0; i < messages->len; i++)
    {
      TbMessage *message = g_ptr_array_index (messages, i);
      TbMessageRole role;

      if (!TB_IS_MESSAGE (message))
        return restore_invalid (error, i, _("it is not a message"));
      role = tb_message_get_role (message);

      if (role == TB_MESSAGE_ROLE_TOOL)
        {
          if (!g_hash_table_remove (open, tb_message_get_tool_call_id (message)))
            return restore_invalid (error, i, _("it answers a call that is not open"));
          continue;
        }
      if (g_hash_table_size (open) > 0)
        return restore_invalid (error, i, _("a call before it has no result"));
      if (role == TB_MESSAGE_ROLE_ASSISTANT)
        {
          g_autoptr(GError) local_error = NULL;

          if (!_tb_provider_check_call_ids (message, &local_error))
            return restore_invalid (error, i, local_error->message);
          for (guint j = 0; j < tb_message_get_n_tool_calls (message); j++)
            g_hash_table_add (open,
                              (gpointer) tb_tool_call_get_id (tb_message_get_tool_call (message,
                                                                                         j)));
        }
    }
  if (g_hash_table_size (open) > 0)
    return restore_invalid (error, messages->len - 1, _("the last calls have no results"));
  if (iterations_used > self->max_iterations)
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                   _("The history used %u iterations, more than this loop's cap of %u."),
                   iterations_used, self->max_iterations);
      return FALSE;
    }

  _tb_dispatch_loop_ensure_header (self);
  for (guint i = 0; i < messages->len; i++)
    _tb_dispatch_loop_append_message (self, g_ptr_array_index (messages, i), "restored");
  self->iteration = iterations_used;
  g_object_notify_by_pspec (G_OBJECT (self), _tb_dispatch_loop_properties [PROP_ITERATION]);

  last = messages->len > 0 ? g_ptr_array_index (messages, messages->len - 1) : NULL;
  if (last != NULL && tb_message_get_role (last) == TB_MESSAGE_ROLE_ASSISTANT)
    _tb_dispatch_loop_end (self, TB_LOOP_STATE_FINISHED, "answer");
  return TRUE;
}

/**
 * tb_dispatch_loop_submit_model_turn:
 * @self: a loop in %TB_LOOP_STATE_READY
 * @message: the model's next turn, written by a person: text and/or calls
 *   (tool names may be real or wire names)
 * @error: return location for a %TB_LOOP_ERROR
 *
 * Takes @message as the model's answer for this iteration instead of
 * asking the provider. It counts as an iteration and is recorded as a
 * `manual-turn` decision.
 *
 * Returns: %TRUE when the turn was taken
 */
gboolean
tb_dispatch_loop_submit_model_turn (TbDispatchLoop  *self,
                                    TbMessage       *message,
                                    GError         **error)
{
  g_autoptr(TbMessage) turn = NULL;
  JsonObject *payload;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (TB_IS_MESSAGE (message), FALSE);

  if (tb_message_get_role (message) != TB_MESSAGE_ROLE_ASSISTANT)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("A model turn must be an assistant message."));
      return FALSE;
    }
  if (self->busy || self->state != TB_LOOP_STATE_READY)
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                   _("The model's turn can only be written when the loop is ready, "
                     "not while it is %s."), tb_loop_state_to_string (self->state));
      return FALSE;
    }

  if (!_tb_dispatch_loop_begin_iteration (self))
    return TRUE;

  turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, tb_message_get_text (message));
  for (guint i = 0; i < tb_message_get_n_tool_calls (message); i++)
    {
      TbToolCall *written = tb_message_get_tool_call (message, i);
      g_autofree char *id = tb_tool_call_get_id (written) != NULL
                            ? g_strdup (tb_tool_call_get_id (written))
                            : g_strdup_printf ("manual_%u_%u", self->iteration, i);
      g_autoptr(TbToolCall) call =
        _tb_provider_make_call (self->model_tools, id, tb_tool_call_get_name (written),
                                tb_tool_call_get_parse_error (written) == NULL
                                ? tb_tool_call_get_arguments (written) : NULL,
                                tb_tool_call_get_raw_arguments (written));

      tb_message_add_tool_call (turn, call);
    }

  payload = _tb_dispatch_loop_event_new (self);
  json_object_set_string_member (payload, "decision", "manual-turn");
  json_object_set_string_member (payload, "by", "person");
  _tb_dispatch_loop_record (self, "decision", payload);

  _tb_dispatch_loop_accept_model_turn (self, turn, "person");
  return TRUE;
}
