/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-message"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-message-private.h"
#include "tb-tool-call-private.h"
#include "tb-trace-line-private.h"

/**
 * TbMessage:
 *
 * One turn of a provider-neutral conversation. An assistant message holds
 * its text and tool calls; a tool message answers exactly one call id.
 * Providers translate these to and from their wire formats.
 */
struct _TbMessage
{
  GObject        parent_instance;

  TbMessageRole  role;
  char          *text;
  GPtrArray     *tool_calls;
  char          *tool_call_id;
  char          *tool_name;
  gboolean       is_error;
  JsonObject    *provider_data;
  char          *reasoning;
};

G_DEFINE_FINAL_TYPE (TbMessage, tb_message, G_TYPE_OBJECT)
/**
 * tb_message_error_quark:
 *
 * The error domain of #TbMessageError.
 *
 * Returns: the quark of %TB_MESSAGE_ERROR
 */
G_DEFINE_QUARK (tb-message-error-quark, tb_message_error)

static void
tb_message_finalize (GObject *object)
{
  TbMessage *self = (TbMessage *)object;

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->tool_calls, g_ptr_array_unref);
  g_clear_pointer (&self->tool_call_id, g_free);
  g_clear_pointer (&self->tool_name, g_free);
  g_clear_pointer (&self->provider_data, json_object_unref);
  g_clear_pointer (&self->reasoning, g_free);

  G_OBJECT_CLASS (tb_message_parent_class)->finalize (object);
}

static void
tb_message_class_init (TbMessageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_message_finalize;
}

static void
tb_message_init (TbMessage *self)
{
  self->tool_calls = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * tb_message_new:
 * @role: who speaks
 * @text: (nullable): what they say
 *
 * Makes a message with no calls; add calls to an assistant message with
 * tb_message_add_tool_call().
 *
 * Returns: (transfer full): a new message
 */
TbMessage *
tb_message_new (TbMessageRole  role,
                const char    *text)
{
  TbMessage *self = g_object_new (TB_TYPE_MESSAGE, NULL);

  self->role = role;
  self->text = g_strdup (text);
  return self;
}

/**
 * tb_message_new_tool_result:
 * @tool_call_id: the id of the call this answers
 * @tool_name: the real name of the tool that was called
 * @content: what the model sees
 * @is_error: whether the call failed
 *
 * Makes the message that answers one tool call, as the loop does with each
 * result's tb_tool_result_to_model_content().
 *
 * Returns: (transfer full): a new %TB_MESSAGE_ROLE_TOOL message
 */
TbMessage *
tb_message_new_tool_result (const char *tool_call_id,
                            const char *tool_name,
                            const char *content,
                            gboolean    is_error)
{
  TbMessage *self = tb_message_new (TB_MESSAGE_ROLE_TOOL, content);

  self->tool_call_id = g_strdup (tool_call_id);
  self->tool_name = g_strdup (tool_name);
  self->is_error = !!is_error;
  return self;
}

/**
 * tb_message_get_role:
 * @self: a message
 *
 * Says who the message comes from.
 *
 * Returns: the message's role
 */
TbMessageRole
tb_message_get_role (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), TB_MESSAGE_ROLE_USER);
  return self->role;
}

/**
 * tb_message_get_text:
 * @self: a message
 *
 * Gives what the message says: the person's words, the model's text or the
 * content a tool message sends to the model.
 *
 * Returns: (nullable): the text, or %NULL when the message has none (an assistant turn of calls only)
 */
const char *
tb_message_get_text (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), NULL);
  return self->text;
}

/**
 * tb_message_set_text:
 * @self: a message
 * @text: (nullable): the new text
 *
 * Replaces what the message says, as providers do while a streamed turn
 * arrives.
 */
void
tb_message_set_text (TbMessage  *self,
                     const char *text)
{
  g_return_if_fail (TB_IS_MESSAGE (self));
  g_free (self->text);
  self->text = g_strdup (text);
}

/**
 * tb_message_add_tool_call:
 * @self: an assistant message
 * @call: a call the model asked for
 *
 * Adds a call to the end of an assistant message; the message keeps a
 * reference to it.
 */
void
tb_message_add_tool_call (TbMessage  *self,
                           TbToolCall *call)
{
  g_return_if_fail (TB_IS_MESSAGE (self));
  g_return_if_fail (TB_IS_TOOL_CALL (call));
  g_ptr_array_add (self->tool_calls, g_object_ref (call));
}

/**
 * tb_message_get_n_tool_calls:
 * @self: a message
 *
 * Counts the calls an assistant message asks for.
 *
 * Returns: the number of tool calls, 0 for other messages
 */
guint
tb_message_get_n_tool_calls (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), 0);
  return self->tool_calls->len;
}

/**
 * tb_message_get_tool_call:
 * @self: an assistant message
 * @position: the call's index, less than tb_message_get_n_tool_calls()
 *
 * Gives one of the calls an assistant message asks for.
 *
 * Returns: (transfer none): the call at @position
 */
TbToolCall *
tb_message_get_tool_call (TbMessage *self,
                          guint      position)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), NULL);
  g_return_val_if_fail (position < self->tool_calls->len, NULL);
  return g_ptr_array_index (self->tool_calls, position);
}

/**
 * tb_message_get_tool_call_id:
 * @self: a tool message
 *
 * Gives the id of the call a tool message answers.
 *
 * Returns: (nullable): the call id, or %NULL for other messages
 */
const char *
tb_message_get_tool_call_id (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), NULL);
  return self->tool_call_id;
}

/**
 * tb_message_get_tool_name:
 * @self: a tool message
 *
 * Gives the real name of the tool whose result a tool message carries;
 * Gemini's wire format needs it.
 *
 * Returns: (nullable): the tool's name, or %NULL for other messages
 */
const char *
tb_message_get_tool_name (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), NULL);
  return self->tool_name;
}

/**
 * tb_message_get_is_error:
 * @self: a tool message
 *
 * Says whether the call this tool message answers failed; providers that
 * can mark a failed result (Anthropic's `is_error`) send it.
 *
 * Returns: %TRUE when the call failed
 */
gboolean
tb_message_get_is_error (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), FALSE);
  return self->is_error;
}

/**
 * tb_message_get_provider_data:
 * @self: a message
 *
 * Parts of an assistant turn that a provider must send back unchanged
 * (Anthropic thinking blocks, Gemini thought signatures on text).
 *
 * Returns: (transfer none) (nullable): an object
 */
JsonObject *
tb_message_get_provider_data (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), NULL);
  return self->provider_data;
}

/**
 * tb_message_set_provider_data:
 * @self: a message
 * @data: (nullable): an object, or %NULL for none
 *
 * Keeps what a provider must send back unchanged with this turn; the
 * message keeps a reference to @data.
 */
void
tb_message_set_provider_data (TbMessage  *self,
                              JsonObject *data)
{
  g_return_if_fail (TB_IS_MESSAGE (self));
  if (data != NULL)
    json_object_ref (data);
  g_clear_pointer (&self->provider_data, json_object_unref);
  self->provider_data = data;
}

/**
 * tb_message_get_reasoning:
 * @self: a message
 *
 * What a model thought before its turn, as its provider showed it
 * (Anthropic thinking, Gemini thought summaries, OpenAI Responses
 * reasoning summaries, `reasoning_content` of OpenAI-compatible servers).
 * For people and the trace; what a provider must send back stays in the
 * provider data.
 *
 * Returns: (nullable): the text
 */
const char *
tb_message_get_reasoning (TbMessage *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE (self), NULL);
  return self->reasoning;
}

/**
 * tb_message_set_reasoning:
 * @reasoning: (nullable): the text, %NULL or empty for none
 * @self: a message
 *
 * Keeps what a model thought before its turn, for people and the trace.
 */
void
tb_message_set_reasoning (TbMessage  *self,
                          const char *reasoning)
{
  g_return_if_fail (TB_IS_MESSAGE (self));
  g_free (self->reasoning);
  self->reasoning = reasoning != NULL && *reasoning != '\0' ? g_strdup (reasoning) : NULL;
}

/**
 * tb_message_to_json:
 * @self: a message
 *
 * Writes the message in Toolbench's own neutral shape, which traces and
 * scripts hold and tb_message_from_json() reads back.
 *
 * Returns: (transfer full): `{"role", "text"?, "reasoning"?, "tool_calls"?,
 *   "tool_call_id"?, "name"?, "is_error"?, "provider_data"?}`
 */
JsonNode *
tb_message_to_json (TbMessage *self)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  g_return_val_if_fail (TB_IS_MESSAGE (self), NULL);

  json_object_set_string_member (object, "role", tb_message_role_to_string (self->role));
  if (self->text != NULL)
    json_object_set_string_member (object, "text", self->text);
  if (self->reasoning != NULL)
    json_object_set_string_member (object, "reasoning", self->reasoning);
  if (self->tool_calls->len > 0)
    {
      JsonArray *calls = json_array_new ();

      for (guint i = 0; i < self->tool_calls->len; i++)
        json_array_add_element (calls, tb_tool_call_to_json (g_ptr_array_index (self->tool_calls,
                                                                                 i)));
      json_object_set_array_member (object, "tool_calls", calls);
    }
  if (self->tool_call_id != NULL)
    json_object_set_string_member (object, "tool_call_id", self->tool_call_id);
  if (self->tool_name != NULL)
    json_object_set_string_member (object, "name", self->tool_name);
  if (self->role == TB_MESSAGE_ROLE_TOOL)
    json_object_set_boolean_member (object, "is_error", self->is_error);
  if (self->provider_data != NULL)
    {
      JsonNode *data = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (data, self->provider_data);
      json_object_set_member (object, "provider_data", data);
    }

  json_node_take_object (node, object);
  return node;
}

/*
 * _tb_message_append_json:
 * @self: a message
 * @out: where the text goes
 *
 * Appends tb_message_to_json() as JSON text, byte for byte what
 * tb_json_to_string() writes for that tree, without building it: the
 * dispatch loop records every message of a run.
 */
void
_tb_message_append_json (TbMessage *self,
                         GString   *out)
{
  g_return_if_fail (TB_IS_MESSAGE (self));

  g_string_append_c (out, '{');
  _tb_trace_line_add_string (out, "role", tb_message_role_to_string (self->role));
  if (self->text != NULL)
    _tb_trace_line_add_string (out, "text", self->text);
  if (self->reasoning != NULL)
    _tb_trace_line_add_string (out, "reasoning", self->reasoning);
  if (self->tool_calls->len > 0)
    {
      _tb_trace_line_add_name (out, "tool_calls");
      g_string_append_c (out, '[');
      for (guint i = 0; i < self->tool_calls->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          _tb_tool_call_append_json (g_ptr_array_index (self->tool_calls, i), out);
        }
      g_string_append_c (out, ']');
    }
  if (self->tool_call_id != NULL)
    _tb_trace_line_add_string (out, "tool_call_id", self->tool_call_id);
  if (self->tool_name != NULL)
    _tb_trace_line_add_string (out, "name", self->tool_name);
  if (self->role == TB_MESSAGE_ROLE_TOOL)
    _tb_trace_line_add_boolean (out, "is_error", self->is_error);
  if (self->provider_data != NULL)
    _tb_trace_line_add_object (out, "provider_data", self->provider_data);
  g_string_append_c (out, '}');
}

static const char *
optional_string (JsonObject *object,
                 const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

/**
 * tb_message_from_json:
 * @node: an object as made by tb_message_to_json()
 * @error: return location for a %TB_MESSAGE_ERROR
 *
 * Reads a message back from its neutral shape, refusing JSON of another
 * shape with a sentence that names the member that is wrong.
 *
 * Returns: (transfer full) (nullable): the message
 */
TbMessage *
tb_message_from_json (JsonNode  *node,
                      GError   **error)
{
  g_autoptr(TbMessage) self = NULL;
  JsonObject *object;
  JsonNode *calls;
  JsonNode *data;
  TbMessageRole role;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, TB_MESSAGE_ERROR, TB_MESSAGE_ERROR_INVALID,
                           _("A message must be a JSON object"));
      return NULL;
    }

  object = json_node_get_object (node);
  if (!tb_message_role_from_string (optional_string (object, "role"), &role))
    {
      g_set_error_literal (error, TB_MESSAGE_ERROR, TB_MESSAGE_ERROR_INVALID,
                           _("A message needs a “role”: system, user, assistant or tool"));
      return NULL;
    }

  self = tb_message_new (role, optional_string (object, "text"));
  self->tool_call_id = g_strdup (optional_string (object, "tool_call_id"));
  self->tool_name = g_strdup (optional_string (object, "name"));
  self->is_error = tb_json_object_get_boolean (object, "is_error", FALSE);
  tb_message_set_reasoning (self, optional_string (object, "reasoning"));

  if (role == TB_MESSAGE_ROLE_TOOL && self->tool_call_id == NULL)
    {
      g_set_error_literal (error, TB_MESSAGE_ERROR, TB_MESSAGE_ERROR_INVALID,
                           _("A tool message needs the “tool_call_id” it answers"));
      return NULL;
    }

  calls = json_object_get_member (object, "tool_calls");
  if (calls != NULL && !JSON_NODE_HOLDS_NULL (calls))
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (calls))
        {
          g_set_error_literal (error, TB_MESSAGE_ERROR, TB_MESSAGE_ERROR_INVALID,
                               _("“tool_calls” must be an array"));
          return NULL;
        }
      array = json_node_get_array (calls);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autoptr(TbToolCall) call = tb_tool_call_from_json (json_array_get_element (array, i),
                                                               error);

          if (call == NULL)
            return NULL;
          tb_message_add_tool_call (self, call);
        }
    }

  data = json_object_get_member (object, "provider_data");
  if (data != NULL && JSON_NODE_HOLDS_OBJECT (data))
    tb_message_set_provider_data (self, json_node_get_object (data));

  return g_steal_pointer (&self);
}
