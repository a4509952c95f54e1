/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-export"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-message.h"
#include "tb-provider-private.h"
#include "tb-tool-registry.h"
#include "tb-trace-export.h"

/* A trace's conversation in the shapes other tools take: OpenAI-style
 * and Anthropic-style `messages` and Responses `input` items (with the
 * tool definitions, wire names and all), and the other way round, a
 * pasted `messages` array as a script for the scripted provider. The wire shapes come from the providers
 * themselves, so an export is exactly what Toolbench would send. */

/**
 * tb_export_error_quark:
 *
 * The error domain of #TbExportError.
 *
 * Returns: the quark of %TB_EXPORT_ERROR
 */
G_DEFINE_QUARK (tb-export-error-quark, tb_export_error)

static JsonNode *
definition_only (TbTool        *tool,
                 JsonObject    *arguments,
                 JsonObject    *context,
                 GCancellable  *cancellable,
                 gpointer       user_data,
                 GError       **error)
{
  g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
               _("“%s” is only a definition read from a trace"), tb_tool_get_name (tool));
  return NULL;
}

/* The trace's tools, to map their names to wire names as the run did. */
static TbToolRegistry *
header_tools (TbTrace *trace)
{
  TbToolRegistry *registry = tb_tool_registry_new ();
  JsonArray *tools = tb_json_object_get_array (tb_trace_get_header (trace), "tools");

  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonNode *element = json_array_get_element (tools, i);
      JsonObject *definition = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                                : NULL;
      JsonNode *parameters = definition != NULL ? json_object_get_member (definition, "parameters")
                                                : NULL;
      g_autoptr(TbTool) tool = NULL;

      tool = tb_tool_new_simple (tb_json_object_get_string (definition, "name"),
                                 tb_json_object_get_string (definition, "description"),
                                 parameters != NULL && JSON_NODE_HOLDS_OBJECT (parameters)
                                 ? parameters : NULL,
                                 TB_TOOL_SIMPLE_FLAGS_NONE, definition_only, NULL, NULL, NULL);
      if (tool != NULL)
        tb_tool_registry_register (registry, tool, NULL);
    }

  return registry;
}

/**
 * tb_trace_export_messages:
 * @trace: a trace
 * @format: %TB_DEFINITION_FORMAT_OPENAI, %TB_DEFINITION_FORMAT_ANTHROPIC or
 *   %TB_DEFINITION_FORMAT_OPENAI_RESPONSES
 * @error: return location for a #TbExportError
 *
 * Writes the conversation of a trace as the body of a request in a
 * provider's wire format, to send again elsewhere or to paste into
 * another tool.
 *
 * Returns: (transfer full) (nullable): `{"messages": […], "tools": […]}`,
 *   with `"system"` beside them for Anthropic; for Responses
 *   `{"instructions"?, "input": […], "tools": […]}`, the input items as
 *   a stateless request sends them (kept reasoning items included)
 */
JsonNode *
tb_trace_export_messages (TbTrace             *trace,
                          TbDefinitionFormat   format,
                          GError             **error)
{
  g_autoptr(TbProviderRequest) request = NULL;
  g_autoptr(GString) system = g_string_new (NULL);
  JsonObject *object;
  JsonNode *node;
  guint n;

  g_return_val_if_fail (TB_IS_TRACE (trace), NULL);

  if (format != TB_DEFINITION_FORMAT_OPENAI && format != TB_DEFINITION_FORMAT_ANTHROPIC &&
      format != TB_DEFINITION_FORMAT_OPENAI_RESPONSES)
    {
      g_set_error_literal (error, TB_EXPORT_ERROR, TB_EXPORT_ERROR_UNSUPPORTED,
                           _("A conversation exports as OpenAI or Anthropic messages or as "
                             "Responses input items"));
      return NULL;
    }

  request = tb_provider_request_new ();
  request->tools = header_tools (trace);

  n = tb_trace_get_n_events (trace);
  for (guint i = 0; i < n; i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      JsonNode *message_node;
      g_autoptr(TbMessage) message = NULL;

      if (!g_str_equal (tb_trace_event_get_event_type (event), "message"))
        continue;
      message_node = json_object_get_member (tb_trace_event_get_payload (event), "message");
      if (message_node == NULL || (message = tb_message_from_json (message_node, NULL)) == NULL)
        continue;
      tb_provider_request_add_message (request, message);
    }

  object = json_object_new ();
  if (format == TB_DEFINITION_FORMAT_OPENAI)
    {
      json_object_set_array_member (object, "messages", _tb_openai_messages_to_wire (request));
    }
  else if (format == TB_DEFINITION_FORMAT_OPENAI_RESPONSES)
    {
      JsonArray *input = _tb_openai_responses_input_to_wire (request, 0, system);

      if (system->len > 0)
        json_object_set_string_member (object, "instructions", system->str);
      json_object_set_array_member (object, "input", input);
    }
  else
    {
      JsonArray *messages = _tb_anthropic_messages_to_wire (request, system);

      if (system->len > 0)
        json_object_set_string_member (object, "system", system->str);
      json_object_set_array_member (object, "messages", messages);
    }
  json_object_set_member (object, "tools", tb_tool_registry_to_definitions (request->tools, format));

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

static gboolean
invalid (GError     **error,
         guint        index,
         const char  *why)
{
  /* Translators: %u is a message's position, counted from 1, then why */
  g_set_error (error, TB_EXPORT_ERROR, TB_EXPORT_ERROR_INVALID,
               _("Message %u cannot be read: %s"), index + 1, why);
  return FALSE;
}

/* OpenAI content may be a string or an array of {"type": "text"} parts;
 * Anthropic content is a string or an array of blocks. */
static void
collect_text (JsonNode *content,
              GString  *text)
{
  if (content == NULL)
    return;
  if (JSON_NODE_HOLDS_VALUE (content) && json_node_get_value_type (content) == G_TYPE_STRING)
    {
      g_string_append (text, json_node_get_string (content));
      return;
    }
  if (JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *parts = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (parts); i++)
        {
          JsonNode *part = json_array_get_element (parts, i);
          JsonObject *object = JSON_NODE_HOLDS_OBJECT (part) ? json_node_get_object (part) : NULL;

          if (g_strcmp0 (tb_json_object_get_string (object, "type"), "text") == 0 &&
              tb_json_object_get_string (object, "text") != NULL)
            g_string_append (text, tb_json_object_get_string (object, "text"));
        }
    }
}

static gboolean
assistant_to_response (JsonObject  *message,
                       guint        index,
                       JsonArray   *responses,
                       GError     **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  JsonObject *response = json_object_new ();
  JsonArray *calls = json_array_new ();
  JsonNode *content = json_object_get_member (message, "content");
  JsonArray *openai_calls = tb_json_object_get_array (message, "tool_calls");

  collect_text (content, text);

  /* OpenAI: "tool_calls": [{"id", "function": {"name", "arguments": "<JSON text>"}}] */
  for (guint i = 0; openai_calls != NULL && i < json_array_get_length (openai_calls); i++)
    {
      JsonNode *element = json_array_get_element (openai_calls, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      JsonObject *function = tb_json_object_get_object (entry, "function");
      const char *name = tb_json_object_get_string (function, "name");
      const char *arguments = tb_json_object_get_string (function, "arguments");
      JsonObject *call = json_object_new ();
      g_autoptr(JsonNode) parsed = NULL;
      g_autoptr(GError) parse_error = NULL;

      if (name == NULL)
        {
          json_object_unref (call);
          json_object_unref (response);
          json_array_unref (calls);
          return invalid (error, index, _("a tool call has no function name"));
        }

      json_object_set_string_member (call, "id", tb_json_object_get_string (entry, "id") ?: "");
      json_object_set_string_member (call, "name", name);
      /* "" means no arguments, as the API sends it. */
      if (arguments == NULL || *arguments == '\0')
        parsed = tb_json_node_new_object ();
      else
        parsed = tb_json_parse (arguments, -1, &parse_error);
      if (parsed != NULL)
        json_object_set_member (call, "arguments", tb_json_copy (parsed));
      else
        {
          json_object_set_string_member (call, "raw_arguments", arguments);
          json_object_set_string_member (call, "parse_error", parse_error->message);
        }
      json_array_add_object_element (calls, call);
    }

  /* Anthropic: content blocks {"type": "tool_use", "id", "name", "input"} */
  if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *blocks = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (blocks); i++)
        {
          JsonNode *element = json_array_get_element (blocks, i);
          JsonObject *block = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                               : NULL;
          JsonNode *input = block != NULL ? json_object_get_member (block, "input") : NULL;
          JsonObject *call;

          if (g_strcmp0 (tb_json_object_get_string (block, "type"), "tool_use") != 0)
            continue;
          call = json_object_new ();
          json_object_set_string_member (call, "id", tb_json_object_get_string (block, "id") ?: "");
          json_object_set_string_member (call, "name",
                                         tb_json_object_get_string (block, "name") ?: "");
          json_object_set_member (call, "arguments", input != NULL ? tb_json_copy (input)
                                                                   : tb_json_node_new_object ());
          json_array_add_object_element (calls, call);
        }
    }

  if (text->len > 0)
    json_object_set_string_member (response, "text", text->str);
  if (json_array_get_length (calls) > 0)
    json_object_set_array_member (response, "tool_calls", calls);
  else
    json_array_unref (calls);
  json_array_add_object_element (responses, response);
  return TRUE;
}

/**
 * tb_script_from_messages:
 * @messages: an OpenAI- or Anthropic-style `messages` array, or an object
 *   holding one (what tb_trace_export_messages() writes)
 * @error: return location for a #TbExportError
 *
 * Turns the assistant turns of a conversation into a script for
 * #TbScriptedProvider, so a conversation pasted from elsewhere can be
 * played against the tools.
 *
 * Returns: (transfer full) (nullable): `{"format": "toolbench-script",
 *   "version": 1, "responses": […]}`
 */
JsonNode *
tb_script_from_messages (JsonNode  *messages,
                         GError   **error)
{
  JsonArray *array = NULL;
  JsonArray *responses;
  JsonObject *script;
  JsonNode *node;

  g_return_val_if_fail (messages != NULL, NULL);

  if (JSON_NODE_HOLDS_ARRAY (messages))
    array = json_node_get_array (messages);
  else if (JSON_NODE_HOLDS_OBJECT (messages))
    array = tb_json_object_get_array (json_node_get_object (messages), "messages");

  if (array == NULL)
    {
      g_set_error_literal (error, TB_EXPORT_ERROR, TB_EXPORT_ERROR_INVALID,
                           _("Messages are a JSON array of {\"role\", \"content\"} objects"));
      return NULL;
    }

  responses = json_array_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                             : NULL;
      const char *role = tb_json_object_get_string (message, "role");

      if (role == NULL)
        {
          json_array_unref (responses);
          invalid (error, i, _("it has no “role”"));
          return NULL;
        }
      if (g_str_equal (role, "assistant") || g_str_equal (role, "model"))
        if (!assistant_to_response (message, i, responses, error))
          {
            json_array_unref (responses);
            return NULL;
          }
    }

  if (json_array_get_length (responses) == 0)
    {
      json_array_unref (responses);
      g_set_error_literal (error, TB_EXPORT_ERROR, TB_EXPORT_ERROR_INVALID,
                           _("The messages hold no assistant turn to play"));
      return NULL;
    }

  script = json_object_new ();
  json_object_set_string_member (script, "format", "toolbench-script");
  json_object_set_int_member (script, "version", 1);
  json_object_set_array_member (script, "responses", responses);
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, script);
  return node;
}
