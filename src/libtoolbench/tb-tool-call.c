/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-call"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-message.h"
#include "tb-tool-call-private.h"
#include "tb-trace-line-private.h"

/**
 * TbToolCall:
 *
 * One call a model asked for: its id, the tool's real name (the wire name
 * it used is kept beside it), and its arguments. When the model sent text
 * that is not JSON, the arguments are %NULL and the raw text and the parse
 * error are kept so the model can be told what was wrong.
 */
struct _TbToolCall
{
  GObject     parent_instance;

  char       *id;
  char       *name;
  char       *wire_name;
  JsonNode   *arguments;
  char       *raw_arguments;
  char       *parse_error;
  JsonObject *provider_data;
};

G_DEFINE_FINAL_TYPE (TbToolCall, tb_tool_call, G_TYPE_OBJECT)

static void
tb_tool_call_finalize (GObject *object)
{
  TbToolCall *self = (TbToolCall *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->wire_name, g_free);
  g_clear_pointer (&self->arguments, json_node_unref);
  g_clear_pointer (&self->raw_arguments, g_free);
  g_clear_pointer (&self->parse_error, g_free);
  g_clear_pointer (&self->provider_data, json_object_unref);

  G_OBJECT_CLASS (tb_tool_call_parent_class)->finalize (object);
}

static void
tb_tool_call_class_init (TbToolCallClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_tool_call_finalize;
}

static void
tb_tool_call_init (TbToolCall *self)
{
}

static JsonNode *
sealed_copy (JsonNode *node)
{
  JsonNode *copy;

  if (json_node_is_immutable (node))
    return json_node_ref (node);
  copy = json_node_copy (node);
  json_node_seal (copy);
  return copy;
}

/**
 * tb_tool_call_new:
 * @id: (nullable): the call id the model gave
 * @name: the tool name (a real name when it maps to one)
 * @arguments: (nullable): the arguments; %NULL means `{}`
 *
 * Makes a call with parsed arguments, as a script or a person makes it;
 * providers parse the model's text into one.
 *
 * Returns: (transfer full): a new call
 */
TbToolCall *
tb_tool_call_new (const char *id,
                  const char *name,
                  JsonNode   *arguments)
{
  TbToolCall *self = g_object_new (TB_TYPE_TOOL_CALL, NULL);

  self->id = g_strdup (id);
  self->name = g_strdup (name != NULL ? name : "");
  self->arguments = arguments != NULL ? sealed_copy (arguments) : tb_json_node_new_object ();
  if (!json_node_is_immutable (self->arguments))
    json_node_seal (self->arguments);
  self->raw_arguments = tb_json_to_string (self->arguments, FALSE);

  return self;
}

/**
 * tb_tool_call_new_raw:
 * @id: (nullable): the call id the model gave
 * @name: the tool name
 * @raw_arguments: (nullable): the arguments as the model wrote them
 *
 * Parses @raw_arguments with the bounded parser. An empty text means no
 * arguments (OpenAI sends `""` for a tool without parameters); text that
 * is not JSON leaves the arguments %NULL and keeps the parse error.
 *
 * Returns: (transfer full): a new call
 */
TbToolCall *
tb_tool_call_new_raw (const char *id,
                      const char *name,
                      const char *raw_arguments)
{
  TbToolCall *self = g_object_new (TB_TYPE_TOOL_CALL, NULL);
  g_autoptr(GError) error = NULL;
  const char *p = raw_arguments != NULL ? raw_arguments : "";

  self->id = g_strdup (id);
  self->name = g_strdup (name != NULL ? name : "");
  self->raw_arguments = g_strdup (p);

  while (g_ascii_isspace (*p))
    p++;
  if (*p == '\0')
    self->arguments = tb_json_node_new_object ();
  else
    self->arguments = tb_json_parse (raw_arguments, -1, &error);

  if (self->arguments == NULL)
    self->parse_error = g_strdup (error->message);
  else if (!json_node_is_immutable (self->arguments))
    json_node_seal (self->arguments);

  return self;
}

/**
 * tb_tool_call_get_id:
 * @self: a call
 *
 * Gives the id that links the call to the tool message answering it.
 *
 * Returns: (nullable): the call id, or %NULL when the model gave none
 */
const char *
tb_tool_call_get_id (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->id;
}

/**
 * tb_tool_call_set_id:
 * @self: a call
 * @id: (nullable): the new id
 *
 * Gives the call an id, as the loop does for a model that sent none, so
 * that its result can answer it.
 */
void
tb_tool_call_set_id (TbToolCall *self,
                     const char *id)
{
  g_return_if_fail (TB_IS_TOOL_CALL (self));
  g_free (self->id);
  self->id = g_strdup (id);
}

/**
 * tb_tool_call_get_name:
 * @self: a call
 *
 * Gives the name of the tool to call: the real name when the model's name
 * maps to a registered tool, otherwise the name as sent.
 *
 * Returns: the tool's name
 */
const char *
tb_tool_call_get_name (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->name;
}

/**
 * tb_tool_call_get_wire_name:
 * @self: a call
 *
 * Gives the name the model used, which may differ from the real name when
 * the provider refuses some characters (tb_tool_registry_to_wire_name_for()).
 *
 * Returns: the name the model used on the wire; the real name when no
 *   wire name was recorded
 */
const char *
tb_tool_call_get_wire_name (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->wire_name != NULL ? self->wire_name : self->name;
}

/**
 * tb_tool_call_get_received_name:
 * @self: a call
 *
 * Gives the name as it came from the model, whether or not the registry
 * mapped it to another.
 *
 * Returns: (nullable): the name exactly as the model sent it, which the
 *   next request echoes whatever the registry made of it; %NULL for a call
 *   made on this side (a script, a person)
 */
const char *
tb_tool_call_get_received_name (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->wire_name;
}

/**
 * tb_tool_call_set_wire_name:
 * @wire_name: (nullable): the name as the model sent it, %NULL for a call
 *   made on this side
 * @self: a call
 *
 * Records the name the model used, when the registry mapped it to another
 * real name.
 */
void
tb_tool_call_set_wire_name (TbToolCall *self,
                            const char *wire_name)
{
  g_return_if_fail (TB_IS_TOOL_CALL (self));
  g_free (self->wire_name);
  self->wire_name = g_strdup (wire_name);
}

/**
 * tb_tool_call_get_arguments:
 * @self: a call
 *
 * Gives the arguments parsed from what the model wrote.
 *
 * Returns: (transfer none) (nullable): the sealed arguments, or %NULL when
 *   the model sent text that is not JSON
 */
JsonNode *
tb_tool_call_get_arguments (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->arguments;
}

/**
 * tb_tool_call_get_raw_arguments:
 * @self: a call
 *
 * Gives the arguments exactly as the model wrote them, before parsing.
 *
 * Returns: (nullable): the text, or %NULL when the call was made with parsed arguments
 */
const char *
tb_tool_call_get_raw_arguments (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->raw_arguments;
}

/**
 * tb_tool_call_get_parse_error:
 * @self: a call
 *
 * Tells why the model's arguments could not be read as JSON; such a call
 * is answered with an invalid-arguments result that says so.
 *
 * Returns: (nullable): why the raw arguments are not JSON, or %NULL
 */
const char *
tb_tool_call_get_parse_error (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->parse_error;
}

/**
 * tb_tool_call_get_provider_data:
 * @self: a call
 *
 * Values a provider must send back unchanged with this call (Gemini's
 * `thoughtSignature`, whether the model gave the id). Opaque to the loop.
 *
 * Returns: (transfer none) (nullable): an object
 */
JsonObject *
tb_tool_call_get_provider_data (TbToolCall *self)
{
  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);
  return self->provider_data;
}

/**
 * tb_tool_call_set_provider_data:
 * @self: a call
 * @data: (nullable): an object, or %NULL for none
 *
 * Keeps what a provider must send back unchanged with this call; the call
 * keeps a reference to @data.
 */
void
tb_tool_call_set_provider_data (TbToolCall *self,
                                JsonObject *data)
{
  g_return_if_fail (TB_IS_TOOL_CALL (self));
  if (data != NULL)
    json_object_ref (data);
  g_clear_pointer (&self->provider_data, json_object_unref);
  self->provider_data = data;
}

/**
 * tb_tool_call_to_json:
 * @self: a call
 *
 * Writes the call in Toolbench's own neutral shape, for traces and scripts.
 *
 * Returns: (transfer full): `{"id", "name", "wire_name"?, "arguments"}`, or
 *   with `"raw_arguments"` and `"parse_error"` instead of `"arguments"`;
 *   `"arguments_text"` is the text the model wrote when it was not the
 *   compact form of `"arguments"`;
 *   `"wire_name"` is the name as the model sent it, when it came from one
 */
JsonNode *
tb_tool_call_to_json (TbToolCall *self)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  g_return_val_if_fail (TB_IS_TOOL_CALL (self), NULL);

  if (self->id != NULL)
    json_object_set_string_member (object, "id", self->id);
  json_object_set_string_member (object, "name", self->name);
  if (self->wire_name != NULL)
    json_object_set_string_member (object, "wire_name", self->wire_name);
  if (self->arguments != NULL)
    {
      g_autofree char *compact = tb_json_to_string (self->arguments, FALSE);

      json_object_set_member (object, "arguments", json_node_copy (self->arguments));
      /* The text as the model wrote it, when it was not the compact form:
       * a replay or fork sends it back exactly. */
      if (self->raw_arguments != NULL && g_strcmp0 (compact, self->raw_arguments) != 0)
        json_object_set_string_member (object, "arguments_text", self->raw_arguments);
    }
  else
    {
      json_object_set_string_member (object, "raw_arguments", self->raw_arguments);
      json_object_set_string_member (object, "parse_error", self->parse_error);
    }
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
 * _tb_tool_call_append_json:
 * @self: a call
 * @out: where the text goes
 *
 * Appends tb_tool_call_to_json() as JSON text, byte for byte what
 * tb_json_to_string() writes for that tree, without building it: the
 * dispatch loop records every call it receives.
 */
void
_tb_tool_call_append_json (TbToolCall *self,
                           GString    *out)
{
  g_return_if_fail (TB_IS_TOOL_CALL (self));

  g_string_append_c (out, '{');
  if (self->id != NULL)
    _tb_trace_line_add_string (out, "id", self->id);
  _tb_trace_line_add_string (out, "name", self->name);
  if (self->wire_name != NULL)
    _tb_trace_line_add_string (out, "wire_name", self->wire_name);
  if (self->arguments != NULL)
    {
      gsize start;

      _tb_trace_line_add_name (out, "arguments");
      start = out->len;
      _tb_trace_line_add_node_value (out, self->arguments);
      /* As tb_tool_call_to_json(): the model's own text when it was not
       * the compact form. */
      if (self->raw_arguments != NULL &&
          (strlen (self->raw_arguments) != out->len - start ||
           memcmp (self->raw_arguments, out->str + start, out->len - start) != 0))
        _tb_trace_line_add_string (out, "arguments_text", self->raw_arguments);
    }
  else
    {
      _tb_trace_line_add_string (out, "raw_arguments", self->raw_arguments);
      _tb_trace_line_add_string (out, "parse_error", self->parse_error);
    }
  if (self->provider_data != NULL)
    _tb_trace_line_add_object (out, "provider_data", self->provider_data);
  g_string_append_c (out, '}');
}

/**
 * tb_tool_call_from_json:
 * @node: an object as made by tb_tool_call_to_json(); `"arguments"` may
 *   also be a string, which is then parsed as the raw arguments
 * @error: return location for a %TB_MESSAGE_ERROR
 *
 * Reads a call back from its neutral shape.
 *
 * Returns: (transfer full) (nullable): the call
 */
TbToolCall *
tb_tool_call_from_json (JsonNode  *node,
                        GError   **error)
{
  JsonObject *object;
  JsonNode *args;
  JsonNode *id_node;
  JsonNode *data;
  const char *name;
  const char *id = NULL;
  TbToolCall *self;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, TB_MESSAGE_ERROR, TB_MESSAGE_ERROR_INVALID,
                           _("A tool call must be a JSON object"));
      return NULL;
    }

  object = json_node_get_object (node);
  name = tb_json_object_get_string (object, "name");
  if (name == NULL)
    {
      g_set_error_literal (error, TB_MESSAGE_ERROR, TB_MESSAGE_ERROR_INVALID,
                           _("A tool call needs a “name” string"));
      return NULL;
    }

  id_node = json_object_get_member (object, "id");
  if (id_node != NULL && JSON_NODE_HOLDS_VALUE (id_node) &&
      json_node_get_value_type (id_node) == G_TYPE_STRING)
    id = json_node_get_string (id_node);

  args = json_object_get_member (object, "arguments");
  if (json_object_has_member (object, "raw_arguments"))
    self = tb_tool_call_new_raw (id, name,
                                 (tb_json_object_get_string (object, "raw_arguments") ?: ""));
  else if (args != NULL && JSON_NODE_HOLDS_VALUE (args) &&
           json_node_get_value_type (args) == G_TYPE_STRING)
    self = tb_tool_call_new_raw (id, name, json_node_get_string (args));
  else
    self = tb_tool_call_new (id, name, args);

  /* The model's own text is kept only when it says what "arguments" says. */
  if (self->arguments != NULL && tb_json_object_get_string (object, "arguments_text") != NULL)
    {
      const char *text = tb_json_object_get_string (object, "arguments_text");
      g_autoptr(JsonNode) parsed = tb_json_parse (text, -1, NULL);

      if (parsed != NULL && tb_json_equal (parsed, self->arguments))
        {
          g_free (self->raw_arguments);
          self->raw_arguments = g_strdup (text);
        }
    }

  if (json_object_has_member (object, "wire_name"))
    tb_tool_call_set_wire_name (self,
                                tb_json_object_get_string (object, "wire_name"));

  data = json_object_get_member (object, "provider_data");
  if (data != NULL && JSON_NODE_HOLDS_OBJECT (data))
    tb_tool_call_set_provider_data (self, json_node_get_object (data));

  return self;
}
