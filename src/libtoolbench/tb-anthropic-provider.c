/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-anthropic-provider"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-anthropic-provider.h"
#include "tb-provider-kind.h"
#include "tb-json.h"
#include "tb-provider-private.h"
#include "tb-provider-turn-private.h"

/**
 * TbAnthropicProvider:
 *
 * Anthropic Messages (`POST {base-url}/v1/messages`). System messages go
 * to the top-level `system`; tool results become `tool_result` blocks
 * placed first in the next user turn; thinking blocks a model returned
 * are sent back unchanged before its tool calls. The key travels in the
 * `x-api-key` header only.
 */
struct _TbAnthropicProvider
{
  TbHttpProvider parent_instance;
};

G_DEFINE_FINAL_TYPE (TbAnthropicProvider, tb_anthropic_provider, TB_TYPE_HTTP_PROVIDER)

static JsonObject *
text_block (const char *text)
{
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  return block;
}

static JsonNode *
call_input (TbToolCall *call)
{
  JsonNode *args = tb_tool_call_get_arguments (call);

  /* input must be an object; arguments that were not one were already
   * answered with an error, so {} keeps the history acceptable. */
  if (args != NULL && JSON_NODE_HOLDS_OBJECT (args))
    return json_node_copy (args);
  return tb_json_node_new_object ();
}

/* The last wire message if it is a user turn we may add blocks to. */
static JsonArray *
open_user_content (JsonArray *messages)
{
  guint n = json_array_get_length (messages);
  JsonObject *last = n > 0 ? json_array_get_object_element (messages, n - 1) : NULL;

  if (last != NULL && g_strcmp0 (json_object_get_string_member (last, "role"), "user") == 0)
    return json_object_get_array_member (last, "content");
  return NULL;
}

static JsonArray *
new_turn (JsonArray  *messages,
          const char *role)
{
  JsonObject *turn = json_object_new ();
  JsonArray *content = json_array_new ();

  json_object_set_string_member (turn, "role", role);
  json_object_set_array_member (turn, "content", content);
  json_array_add_object_element (messages, turn);
  return content;
}

/* A user turn of one text block is sent as a plain string. */
static void
simplify (JsonArray *messages)
{
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *turn = json_array_get_object_element (messages, i);
      JsonArray *content = json_object_get_array_member (turn, "content");
      JsonObject *first;

      if (json_array_get_length (content) != 1)
        continue;
      first = json_array_get_object_element (content, 0);
      if (g_strcmp0 (json_object_get_string_member (first, "type"), "text") == 0 &&
          g_strcmp0 (json_object_get_string_member (turn, "role"), "user") == 0)
        json_object_set_string_member (turn, "content",
                                       json_object_get_string_member (first, "text"));
    }
}

/* The conversation as Messages API `messages`, the system messages joined
 * into @system; also what a trace exports for pasting into other tools. */
JsonArray *
_tb_anthropic_messages_to_wire (TbProviderRequest *request,
                                GString           *system)
{
  JsonArray *messages = json_array_new ();

  for (guint i = 0; i < request->messages->len; i++)
    {
      TbMessage *message = g_ptr_array_index (request->messages, i);
      const char *content = tb_message_get_text (message);
      JsonArray *blocks;

      switch (tb_message_get_role (message))
        {
        case TB_MESSAGE_ROLE_SYSTEM:
          if (system->len > 0)
            g_string_append (system, "\n\n");
          g_string_append (system, content != NULL ? content : "");
          break;

        case TB_MESSAGE_ROLE_USER:
          if ((blocks = open_user_content (messages)) == NULL)
            blocks = new_turn (messages, "user");
          json_array_add_object_element (blocks, text_block (content != NULL ? content : ""));
          break;

        case TB_MESSAGE_ROLE_TOOL:
          {
            JsonObject *block = json_object_new ();
            JsonArray *tool_blocks = open_user_content (messages);

            /* tool_result blocks come first in their user turn. */
            if (tool_blocks == NULL)
              tool_blocks = new_turn (messages, "user");
            json_object_set_string_member (block, "type", "tool_result");
            json_object_set_string_member (block, "tool_use_id",
                                           tb_message_get_tool_call_id (message));
            json_object_set_string_member (block, "content", content != NULL ? content : "");
            if (tb_message_get_is_error (message))
              json_object_set_boolean_member (block, "is_error", TRUE);
            json_array_add_object_element (tool_blocks, block);
          }
          break;

        case TB_MESSAGE_ROLE_ASSISTANT:
          {
            JsonObject *data = tb_message_get_provider_data (message);
            JsonArray *thinking = tb_json_object_get_array (data, "anthropic_thinking");

            blocks = new_turn (messages, "assistant");
            for (guint j = 0; thinking != NULL && j < json_array_get_length (thinking); j++)
              json_array_add_element (blocks, json_node_copy (json_array_get_element (thinking,
                                                                                      j)));
            if (content != NULL && *content != '\0')
              json_array_add_object_element (blocks, text_block (content));
            for (guint j = 0; j < tb_message_get_n_tool_calls (message); j++)
              {
                TbToolCall *call = tb_message_get_tool_call (message, j);
                g_autofree char *wire = _tb_provider_wire_name_for_call (request->tools, call);
                JsonObject *block = json_object_new ();

                json_object_set_string_member (block, "type", "tool_use");
                json_object_set_string_member (block, "id", tb_tool_call_get_id (call));
                json_object_set_string_member (block, "name", wire);
                json_object_set_member (block, "input", call_input (call));
                json_array_add_object_element (blocks, block);
              }
            if (json_array_get_length (blocks) == 0)
              json_array_add_object_element (blocks, text_block (""));
          }
          break;

        default:
          g_assert_not_reached ();
        }
    }
  simplify (messages);

  return messages;
}

static SoupMessage *
tb_anthropic_provider_build_message (TbHttpProvider     *provider,
                                     TbProviderRequest  *request,
                                     GBytes            **body,
                                     GError            **error)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GString) system = g_string_new (NULL);
  JsonObject *object = json_object_new ();
  JsonArray *messages;
  SoupMessageHeaders *headers;
  SoupMessage *msg;
  gboolean has_tools;

  msg = _tb_http_provider_new_post (provider, "/v1/messages", error);
  if (msg == NULL)
    return NULL;

  messages = _tb_anthropic_messages_to_wire (request, system);

  json_node_take_object (root, object);
  json_object_set_string_member (object, "model", tb_http_provider_get_model (provider));
  json_object_set_int_member (object, "max_tokens", request->max_tokens > 0
                                                    ? request->max_tokens
                                                    : TB_ANTHROPIC_DEFAULT_MAX_TOKENS);
  if (system->len > 0)
    json_object_set_string_member (object, "system", system->str);
  json_object_set_array_member (object, "messages", messages);

  has_tools = request->tools != NULL && tb_tool_registry_get_size (request->tools) > 0;
  if (has_tools)
    {
      json_object_set_member (object, "tools",
                              tb_tool_registry_to_definitions (request->tools,
                                                               TB_DEFINITION_FORMAT_ANTHROPIC));
      if (request->tool_choice != NULL || !request->parallel_tool_calls)
        {
          JsonObject *choice = json_object_new ();
          const char *wanted = request->tool_choice != NULL ? request->tool_choice : "auto";

          if (g_str_equal (wanted, "auto") || g_str_equal (wanted, "none"))
            {
              json_object_set_string_member (choice, "type", wanted);
            }
          else if (g_str_equal (wanted, "required"))
            {
              json_object_set_string_member (choice, "type", "any");
            }
          else
            {
              g_autofree char *wire = tb_tool_registry_to_wire_name (request->tools, wanted);

              json_object_set_string_member (choice, "type", "tool");
              json_object_set_string_member (choice, "name", wire != NULL ? wire : wanted);
            }
          if (!request->parallel_tool_calls && !g_str_equal (wanted, "none"))
            json_object_set_boolean_member (choice, "disable_parallel_tool_use", TRUE);
          json_object_set_object_member (object, "tool_choice", choice);
        }
    }

  if (request->stream)
    json_object_set_boolean_member (object, "stream", TRUE);

  headers = soup_message_get_request_headers (msg);
  soup_message_headers_replace (headers, "Accept",
                                request->stream ? "text/event-stream" : "application/json");

  *body = _tb_json_to_bytes (root);
  return msg;
}

/* Reads content blocks into a message; shared by both reading modes. */
static TbMessage *
message_from_blocks (TbProviderRequest  *request,
                     JsonArray          *content,
                     GError            **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) reasoning = g_string_new (NULL);
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func (g_object_unref);
  JsonArray *thinking = json_array_new ();
  gboolean has_text = FALSE;
  TbMessage *message;

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonObject *block = _tb_json_array_get_object (content, i);
      const char *type = tb_json_object_get_string (block, "type");

      if (g_strcmp0 (type, "text") == 0)
        {
          g_string_append (text, tb_json_object_get_string (block, "text") != NULL
                                 ? tb_json_object_get_string (block, "text") : "");
          has_text = TRUE;
        }
      else if (g_strcmp0 (type, "tool_use") == 0)
        {
          JsonNode *input = json_object_get_member (block, "input");
          const char *id = tb_json_object_get_string (block, "id");
          g_autofree char *made = NULL;

          if (id == NULL || *id == '\0')
            id = made = g_strdup_printf ("toolu_%u", i);
          if (input != NULL && JSON_NODE_HOLDS_OBJECT (input))
            g_ptr_array_add (calls, _tb_provider_make_call (request->tools, id,
                                                            tb_json_object_get_string (block, "name"),
                                                            input, NULL));
          else
            g_ptr_array_add (calls, _tb_provider_make_call (request->tools, id,
                                                            tb_json_object_get_string (block, "name"),
                                                            NULL,
                                                            tb_json_object_get_string (block,
                                                                                 "partial_json")));
        }
      else if (g_strcmp0 (type, "thinking") == 0 || g_strcmp0 (type, "redacted_thinking") == 0)
        {
          /* Sent back unchanged; its text is shown, redacted thinking
           * said to be there. */
          json_array_add_element (thinking, json_node_copy (json_array_get_element (content, i)));
          if (reasoning->len > 0)
            g_string_append (reasoning, "\n\n");
          if (g_str_equal (type, "thinking"))
            g_string_append (reasoning, tb_json_object_get_string (block, "thinking") ?: "");
          else
            g_string_append (reasoning, _("(Anthropic withheld this thinking; it is sent back "
                                          "as it came.)"));
        }
    }

  message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, has_text ? text->str : NULL);
  tb_message_set_reasoning (message, reasoning->str);
  for (guint i = 0; i < calls->len; i++)
    tb_message_add_tool_call (message, g_ptr_array_index (calls, i));

  if (json_array_get_length (thinking) > 0)
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_array_member (data, "anthropic_thinking", thinking);
      tb_message_set_provider_data (message, data);
    }
  else
    {
      json_array_unref (thinking);
    }

  return message;
}

static TbProviderResponse *
tb_anthropic_provider_parse_response (TbHttpProvider     *provider,
                                      TbProviderRequest  *request,
                                      JsonNode           *body,
                                      GError            **error)
{
  JsonObject *root = JSON_NODE_HOLDS_OBJECT (body) ? json_node_get_object (body) : NULL;
  JsonArray *content = tb_json_object_get_array (root, "content");
  g_autoptr(TbMessage) message = NULL;

  if (g_strcmp0 (tb_json_object_get_string (root, "type"), "error") == 0)
    {
      const char *said = tb_json_object_get_string (tb_json_object_get_object (root, "error"), "message");

      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("The provider reported an error: %s"), said != NULL ? said : "?");
      return NULL;
    }
  if (content == NULL)
    {
      g_set_error_literal (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                           _("The response is not a Messages response: it has no content "
                             "array"));
      return NULL;
    }

  message = message_from_blocks (request, content, error);
  return tb_provider_response_new (message, tb_json_object_get_string (root, "stop_reason"),
                                   json_object_get_member (root, "usage"));
}

/* ---- streaming ------------------------------------------------------------ */

typedef struct
{
  TbProviderRequest *request;
  JsonArray         *blocks;     /* content blocks as they build up */
  GPtrArray         *partials;   /* GString of partial_json per block */
  char              *stop_reason;
  JsonObject        *usage;
  gboolean           stopped;
} Stream;

static void
free_partial (gpointer data)
{
  g_string_free (data, TRUE);
}

static gpointer
tb_anthropic_provider_stream_new (TbHttpProvider    *provider,
                                  TbProviderRequest *request)
{
  Stream *stream = g_new0 (Stream, 1);

  stream->request = tb_provider_request_ref (request);
  stream->blocks = json_array_new ();
  stream->partials = g_ptr_array_new_with_free_func (free_partial);
  stream->usage = json_object_new ();
  return stream;
}

static void
tb_anthropic_provider_stream_free (gpointer data)
{
  Stream *stream = data;

  tb_provider_request_unref (stream->request);
  json_array_unref (stream->blocks);
  g_ptr_array_unref (stream->partials);
  g_free (stream->stop_reason);
  json_object_unref (stream->usage);
  g_free (stream);
}

static void
merge_usage (Stream     *stream,
             JsonObject *usage)
{
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  if (usage == NULL)
    return;
  json_object_iter_init (&iter, usage);
  while (json_object_iter_next (&iter, &member, &value))
    json_object_set_member (stream->usage, member, json_node_copy (value));
}

/* The block an event refers to: by its index, which counts the blocks
 * started so far. */
static guint
block_position (Stream     *stream,
                JsonObject *root)
{
  JsonNode *index = json_object_get_member (root, "index");
  guint n = json_array_get_length (stream->blocks);

  if (index != NULL && JSON_NODE_HOLDS_VALUE (index) &&
      json_node_get_value_type (index) == G_TYPE_INT64 &&
      json_node_get_int (index) >= 0 && json_node_get_int (index) < n)
    return (guint) json_node_get_int (index);
  return n - 1;
}

static gboolean
stream_shape_error (GError     **error,
                    const char  *event)
{
  g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
               _("The “%s” event in the response stream does not have the documented shape"),
               event);
  return FALSE;
}

static gboolean
tb_anthropic_provider_stream_event (TbHttpProvider  *provider,
                                    gpointer         state,
                                    const char      *event,
                                    const char      *data,
                                    GError         **error)
{
  Stream *stream = state;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root;
  const char *type;

  node = _tb_provider_parse_event (data, error);
  if (node == NULL)
    return FALSE;
  root = json_node_get_object (node);
  type = tb_json_object_get_string (root, "type");
  if (type == NULL)
    type = event;

  if (g_str_equal (type, "message_start"))
    {
      merge_usage (stream, tb_json_object_get_object (tb_json_object_get_object (root, "message"), "usage"));
    }
  else if (g_str_equal (type, "content_block_start"))
    {
      JsonObject *block = tb_json_object_get_object (root, "content_block");
      JsonObject *copy;

      if (block == NULL)
        return stream_shape_error (error, type);
      copy = json_object_new ();
      {
        JsonObjectIter iter;
        const char *member;
        JsonNode *value;

        json_object_iter_init (&iter, block);
        while (json_object_iter_next (&iter, &member, &value))
          json_object_set_member (copy, member, json_node_copy (value));
      }
      json_array_add_object_element (stream->blocks, copy);
      g_ptr_array_add (stream->partials, g_string_new (NULL));
      if (g_strcmp0 (tb_json_object_get_string (block, "type"), "tool_use") == 0)
        tb_provider_emit_tool_call_delta (TB_PROVIDER (provider),
                                          json_array_get_length (stream->blocks) - 1,
                                          tb_json_object_get_string (block, "id"),
                                          tb_json_object_get_string (block, "name"), NULL);
    }
  else if (g_str_equal (type, "content_block_delta"))
    {
      JsonObject *delta = tb_json_object_get_object (root, "delta");
      guint n = json_array_get_length (stream->blocks);
      const char *delta_type = tb_json_object_get_string (delta, "type");
      JsonObject *block;
      GString *partial;

      if (delta == NULL || n == 0)
        return stream_shape_error (error, type);
      n = block_position (stream, root) + 1;
      block = json_array_get_object_element (stream->blocks, n - 1);
      partial = g_ptr_array_index (stream->partials, n - 1);

      if (g_strcmp0 (delta_type, "text_delta") == 0)
        {
          const char *piece = tb_json_object_get_string (delta, "text");
          g_autofree char *joined = g_strconcat (tb_json_object_get_string (block, "text") != NULL
                                                 ? tb_json_object_get_string (block, "text") : "",
                                                 piece != NULL ? piece : "", NULL);

          json_object_set_string_member (block, "text", joined);
          if (piece != NULL)
            tb_provider_emit_text_delta (TB_PROVIDER (provider), piece);
        }
      else if (g_strcmp0 (delta_type, "input_json_delta") == 0)
        {
          const char *piece = tb_json_object_get_string (delta, "partial_json");

          if (piece != NULL)
            {
              g_string_append (partial, piece);
              tb_provider_emit_tool_call_delta (TB_PROVIDER (provider), n - 1, NULL, NULL, piece);
            }
        }
      else if (g_strcmp0 (delta_type, "thinking_delta") == 0 ||
               g_strcmp0 (delta_type, "signature_delta") == 0)
        {
          const char *field = g_str_equal (delta_type, "thinking_delta") ? "thinking"
                                                                         : "signature";
          const char *piece = tb_json_object_get_string (delta, field);
          g_autofree char *joined = g_strconcat (tb_json_object_get_string (block, field) != NULL
                                                 ? tb_json_object_get_string (block, field) : "",
                                                 piece != NULL ? piece : "", NULL);

          json_object_set_string_member (block, field, joined);
        }
    }
  else if (g_str_equal (type, "content_block_stop"))
    {
      guint n = json_array_get_length (stream->blocks);
      JsonObject *block;
      GString *partial;

      if (n == 0)
        return stream_shape_error (error, type);
      n = block_position (stream, root) + 1;
      block = json_array_get_object_element (stream->blocks, n - 1);
      partial = g_ptr_array_index (stream->partials, n - 1);
      if (g_strcmp0 (tb_json_object_get_string (block, "type"), "tool_use") == 0)
        {
          g_autoptr(JsonNode) input = NULL;
          const char *p = partial->str;

          while (g_ascii_isspace (*p))
            p++;
          /* A tool without parameters streams no pieces at all. */
          input = *p == '\0' ? tb_json_node_new_object () : tb_json_parse (partial->str, -1, NULL);
          if (input != NULL && JSON_NODE_HOLDS_OBJECT (input))
            {
              json_object_set_member (block, "input", g_steal_pointer (&input));
            }
          else
            {
              json_object_remove_member (block, "input");
              json_object_set_string_member (block, "partial_json", partial->str);
            }
        }
    }
  else if (g_str_equal (type, "message_delta"))
    {
      const char *reason = tb_json_object_get_string (tb_json_object_get_object (root, "delta"),
                                                "stop_reason");

      if (reason != NULL)
        {
          g_free (stream->stop_reason);
          stream->stop_reason = g_strdup (reason);
        }
      merge_usage (stream, tb_json_object_get_object (root, "usage"));
    }
  else if (g_str_equal (type, "message_stop"))
    {
      stream->stopped = TRUE;
    }
  else if (g_str_equal (type, "error"))
    {
      const char *said = tb_json_object_get_string (tb_json_object_get_object (root, "error"), "message");

      _tb_provider_set_stream_error (error, said);
      return FALSE;
    }
  /* ping and event types added later are ignored, as documented. */

  return TRUE;
}

static TbProviderResponse *
tb_anthropic_provider_stream_finish (TbHttpProvider  *provider,
                                     gpointer         state,
                                     GError         **error)
{
  Stream *stream = state;
  g_autoptr(TbMessage) message = NULL;
  g_autoptr(JsonNode) usage = json_node_new (JSON_NODE_OBJECT);

  if (!stream->stopped)
    /* Translators: completes "…ended before the model finished its turn (no %s)." */
    return _tb_http_provider_stream_ended_early (_("message_stop event"), error);

  message = message_from_blocks (stream->request, stream->blocks, error);
  json_node_set_object (usage, stream->usage);
  return tb_provider_response_new (message, stream->stop_reason, usage);
}

static gboolean
tb_anthropic_provider_stream_done (TbHttpProvider *provider,
                                   gpointer        state)
{
  Stream *stream = state;

  return stream->stopped;
}

static void
tb_anthropic_provider_add_headers (TbHttpProvider     *provider,
                                   SoupMessageHeaders *headers)
{
  const char *key = tb_http_provider_get_api_key (provider);

  soup_message_headers_replace (headers, "anthropic-version", TB_ANTHROPIC_API_VERSION);
  if (key != NULL && *key != '\0')
    soup_message_headers_replace (headers, "x-api-key", key);
}

static void
tb_anthropic_provider_class_init (TbAnthropicProviderClass *klass)
{
  TbHttpProviderClass *http_class = TB_HTTP_PROVIDER_CLASS (klass);

  http_class->kind = "anthropic";
  http_class->build_message = tb_anthropic_provider_build_message;
  http_class->parse_response = tb_anthropic_provider_parse_response;
  http_class->stream_new = tb_anthropic_provider_stream_new;
  http_class->stream_free = tb_anthropic_provider_stream_free;
  http_class->stream_event = tb_anthropic_provider_stream_event;
  http_class->stream_finish = tb_anthropic_provider_stream_finish;
  http_class->stream_done = tb_anthropic_provider_stream_done;
  http_class->add_headers = tb_anthropic_provider_add_headers;
  http_class->models_path = "/v1/models";
}

static void
tb_anthropic_provider_init (TbAnthropicProvider *self)
{
}

/**
 * tb_anthropic_provider_new:
 * @base_url: (nullable): %NULL for %TB_ANTHROPIC_DEFAULT_BASE_URL
 * @model: the model name
 * @api_key: (nullable): the key
 *
 * Makes a provider for Anthropic's Messages API (`POST /v1/messages`), with
 * the key in the `x-api-key` header.
 *
 * Returns: (transfer full): a new provider
 */
TbProvider *
tb_anthropic_provider_new (const char *base_url,
                           const char *model,
                           const char *api_key)
{
  return tb_provider_new_for_kind ("anthropic", base_url, model, api_key, NULL);
}
