/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-provider-turn-private.h"

/* The parts of reading a turn that every wire format shares: text that
 * grows piece by piece and is shown as it comes, tool calls that are
 * announced as they are read, the finish reason and usage of the last
 * chunk that named them, and the events of a stream as JSON objects. */

void
_tb_provider_turn_init (TbProviderTurn    *turn,
                        TbProviderRequest *request)
{
  turn->request = tb_provider_request_ref (request);
  turn->text = g_string_new (NULL);
  turn->reasoning = g_string_new (NULL);
  turn->calls = g_ptr_array_new_with_free_func (g_object_unref);
}

void
_tb_provider_turn_clear (TbProviderTurn *turn)
{
  g_clear_pointer (&turn->request, tb_provider_request_unref);
  if (turn->text != NULL)
    g_string_free (g_steal_pointer (&turn->text), TRUE);
  if (turn->reasoning != NULL)
    g_string_free (g_steal_pointer (&turn->reasoning), TRUE);
  g_clear_pointer (&turn->calls, g_ptr_array_unref);
  g_clear_pointer (&turn->finish_reason, g_free);
  g_clear_pointer (&turn->usage, json_node_unref);
}

/**
 * _tb_provider_turn_add_text:
 * @streaming: (nullable): the provider, which tells of a piece that is not
 *   empty, while streaming; %NULL for a whole response
 * @piece: text the model wrote; even an empty one means the turn has text
 */
void
_tb_provider_turn_add_text (TbProviderTurn *turn,
                            TbProvider     *streaming,
                            const char     *piece)
{
  g_string_append (turn->text, piece);
  turn->has_text = TRUE;
  if (streaming != NULL && *piece != '\0')
    tb_provider_emit_text_delta (streaming, piece);
}

/**
 * _tb_provider_turn_add_call:
 * @streaming: (nullable): the provider, which tells of the call while
 *   streaming
 * @call: (transfer none): a call the model asked for, whole
 */
void
_tb_provider_turn_add_call (TbProviderTurn *turn,
                            TbProvider     *streaming,
                            TbToolCall     *call)
{
  g_ptr_array_add (turn->calls, g_object_ref (call));
  if (streaming != NULL)
    tb_provider_emit_tool_call_delta (streaming, turn->calls->len - 1,
                                      tb_tool_call_get_id (call),
                                      tb_tool_call_get_wire_name (call),
                                      tb_tool_call_get_raw_arguments (call));
}

void
_tb_provider_turn_set_finish_reason (TbProviderTurn *turn,
                                     const char     *reason)
{
  char *copy = g_strdup (reason);

  g_free (turn->finish_reason);
  turn->finish_reason = copy;
}

/* @usage: (transfer none): the last one counts */
void
_tb_provider_turn_set_usage (TbProviderTurn *turn,
                             JsonNode       *usage)
{
  JsonNode *copy = json_node_copy (usage);

  g_clear_pointer (&turn->usage, json_node_unref);
  turn->usage = copy;
}

/**
 * _tb_provider_turn_to_message:
 *
 * Returns: (transfer full): the assistant's message: its text, if it had
 *   any, and its calls
 */
TbMessage *
_tb_provider_turn_to_message (TbProviderTurn *turn)
{
  TbMessage *message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT,
                                       turn->has_text ? turn->text->str : NULL);

  for (guint i = 0; i < turn->calls->len; i++)
    tb_message_add_tool_call (message, g_ptr_array_index (turn->calls, i));
  return message;
}

/**
 * _tb_provider_parse_event:
 * @data: the data of one event of a response stream
 *
 * Returns: (transfer full) (nullable): the event, a JSON object
 */
JsonNode *
_tb_provider_parse_event (const char  *data,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (data, -1, &local_error);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("An event in the response stream is not a JSON object: %s"),
                   local_error != NULL ? local_error->message : _("wrong type"));
      return NULL;
    }
  return g_steal_pointer (&node);
}

/**
 * _tb_provider_set_stream_error:
 * @said: (nullable): the message of the error event
 *
 * For an error the provider sent as an event, after its stream began.
 */
void
_tb_provider_set_stream_error (GError     **error,
                               const char  *said)
{
  g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SERVER,
               _("The provider reported an error in the middle of the stream: %s"),
               said != NULL ? said : "?");
}
