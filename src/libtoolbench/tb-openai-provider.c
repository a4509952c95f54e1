/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-openai-provider"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-openai-provider.h"
#include "tb-provider-kind.h"
#include "tb-provider-private.h"
#include "tb-provider-turn-private.h"

/**
 * TbOpenaiProvider:
 *
 * OpenAI-compatible Chat Completions (`POST {base-url}/chat/completions`):
 * api.openai.com, OpenRouter, Ollama's `/v1`, llama.cpp server, vLLM. The
 * base URL includes the version path (`https://api.openai.com/v1`). The
 * key goes in an `Authorization: Bearer` header, never in the body.
 */
struct _TbOpenaiProvider
{
  TbHttpProvider parent_instance;
};

G_DEFINE_FINAL_TYPE (TbOpenaiProvider, tb_openai_provider, TB_TYPE_HTTP_PROVIDER)

static JsonNode *
message_to_wire (TbProviderRequest *request,
                 TbMessage         *message)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  const char *text = tb_message_get_text (message);

  json_node_take_object (node, object);

  switch (tb_message_get_role (message))
    {
    case TB_MESSAGE_ROLE_SYSTEM:
    case TB_MESSAGE_ROLE_USER:
      json_object_set_string_member (object, "role",
                                     tb_message_role_to_string (tb_message_get_role (message)));
      json_object_set_string_member (object, "content", text != NULL ? text : "");
      break;

    case TB_MESSAGE_ROLE_ASSISTANT:
      json_object_set_string_member (object, "role", "assistant");
      if (text != NULL && *text != '\0')
        json_object_set_string_member (object, "content", text);
      else
        json_object_set_null_member (object, "content");
      if (tb_message_get_n_tool_calls (message) > 0)
        {
          JsonArray *calls = json_array_new ();

          for (guint i = 0; i < tb_message_get_n_tool_calls (message); i++)
            {
              TbToolCall *call = tb_message_get_tool_call (message, i);
              g_autofree char *wire = _tb_provider_wire_name_for_call (request->tools, call);
              JsonObject *entry = json_object_new ();
              JsonObject *function = json_object_new ();

              json_object_set_string_member (entry, "id", tb_tool_call_get_id (call));
              json_object_set_string_member (entry, "type", "function");
              json_object_set_string_member (function, "name", wire);
              /* The text the model sent, even when it was not JSON. */
              json_object_set_string_member (function, "arguments",
                                             tb_tool_call_get_raw_arguments (call));
              json_object_set_object_member (entry, "function", function);
              json_array_add_object_element (calls, entry);
            }
          json_object_set_array_member (object, "tool_calls", calls);
          /* DeepSeek's thinking mode wants the reasoning of a turn that
           * called tools back in every later request, or it answers 400;
           * servers that do not know the member ignore it. */
          if (tb_json_object_get_string (tb_message_get_provider_data (message),
                                         "reasoning_content") != NULL)
            json_object_set_string_member (object, "reasoning_content",
                                           tb_json_object_get_string (
                                             tb_message_get_provider_data (message),
                                             "reasoning_content"));
        }
      break;

    case TB_MESSAGE_ROLE_TOOL:
      json_object_set_string_member (object, "role", "tool");
      json_object_set_string_member (object, "tool_call_id", tb_message_get_tool_call_id (message));
      json_object_set_string_member (object, "content", text != NULL ? text : "");
      break;

    default:
      g_assert_not_reached ();
    }

  return node;
}

/* The conversation as Chat Completions `messages`; also what a trace
 * exports for pasting into other tools. */
JsonArray *
_tb_openai_messages_to_wire (TbProviderRequest *request)
{
  JsonArray *messages = json_array_new ();

  for (guint i = 0; i < request->messages->len; i++)
    json_array_add_element (messages,
                            message_to_wire (request, g_ptr_array_index (request->messages, i)));
  return messages;
}

static SoupMessage *
tb_openai_provider_build_message (TbHttpProvider     *provider,
                                  TbProviderRequest  *request,
                                  GBytes            **body,
                                  GError            **error)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();
  JsonArray *messages;
  SoupMessage *msg;

  msg = _tb_http_provider_new_post (provider, "/chat/completions", error);
  if (msg == NULL)
    return NULL;

  json_node_take_object (root, object);
  json_object_set_string_member (object, "model", tb_http_provider_get_model (provider));
  messages = _tb_openai_messages_to_wire (request);
  json_object_set_array_member (object, "messages", messages);

  if (request->tools != NULL && tb_tool_registry_get_size (request->tools) > 0)
    {
      json_object_set_member (object, "tools",
                              tb_tool_registry_to_definitions (request->tools,
                                                               TB_DEFINITION_FORMAT_OPENAI));
      if (request->tool_choice != NULL)
        {
          if (g_str_equal (request->tool_choice, "auto") ||
              g_str_equal (request->tool_choice, "none") ||
              g_str_equal (request->tool_choice, "required"))
            {
              json_object_set_string_member (object, "tool_choice", request->tool_choice);
            }
          else
            {
              g_autofree char *wire = tb_tool_registry_to_wire_name (request->tools,
                                                                     request->tool_choice);
              JsonObject *choice = json_object_new ();
              JsonObject *function = json_object_new ();

              json_object_set_string_member (choice, "type", "function");
              json_object_set_string_member (function, "name",
                                             wire != NULL ? wire : request->tool_choice);
              json_object_set_object_member (choice, "function", function);
              json_object_set_object_member (object, "tool_choice", choice);
            }
        }
      json_object_set_boolean_member (object, "parallel_tool_calls",
                                      request->parallel_tool_calls);
    }

  if (request->max_tokens > 0)
    json_object_set_int_member (object, "max_tokens", request->max_tokens);

  if (request->stream)
    {
      JsonObject *options = json_object_new ();

      json_object_set_boolean_member (object, "stream", TRUE);
      json_object_set_boolean_member (options, "include_usage", TRUE);
      json_object_set_object_member (object, "stream_options", options);
      soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept",
                                    "text/event-stream");
    }
  else
    {
      soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept",
                                    "application/json");
    }

  *body = _tb_json_to_bytes (root);
  return msg;
}

static GError *
shape_error (const char *what)
{
  return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                      _("The response is not a Chat Completions response: %s"), what);
}

/* Reasoning, by the member each server uses: `reasoning_content` (DeepSeek,
 * vLLM, llama.cpp), which is also sent back with a turn that called tools;
 * `reasoning` (OpenRouter, Ollama's /v1), shown only. */
static void
set_reasoning (TbMessage  *message,
               const char *text,
               gboolean    send_back)
{
  if (text == NULL || *text == '\0')
    return;
  tb_message_set_reasoning (message, text);
  if (send_back)
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, "reasoning_content", text);
      tb_message_set_provider_data (message, data);
    }
}

static TbProviderResponse *
tb_openai_provider_parse_response (TbHttpProvider     *provider,
                                   TbProviderRequest  *request,
                                   JsonNode           *body,
                                   GError            **error)
{
  JsonObject *root = JSON_NODE_HOLDS_OBJECT (body) ? json_node_get_object (body) : NULL;
  JsonObject *choice = _tb_json_array_get_object (tb_json_object_get_array (root, "choices"), 0);
  JsonObject *message = tb_json_object_get_object (choice, "message");
  JsonArray *calls;
  g_autoptr(TbMessage) result = NULL;

  if (root != NULL && tb_json_object_get_object (root, "error") != NULL)
    {
      const char *said = tb_json_object_get_string (tb_json_object_get_object (root, "error"), "message");

      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("The provider reported an error: %s"), said != NULL ? said : "?");
      return NULL;
    }
  if (message == NULL)
    {
      g_propagate_error (error, shape_error (_("it has no choices[0].message object")));
      return NULL;
    }

  result = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, tb_json_object_get_string (message, "content"));
  if (tb_json_object_get_string (message, "reasoning_content") != NULL)
    set_reasoning (result, tb_json_object_get_string (message, "reasoning_content"), TRUE);
  else
    set_reasoning (result, tb_json_object_get_string (message, "reasoning"), FALSE);

  calls = tb_json_object_get_array (message, "tool_calls");
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonObject *entry = _tb_json_array_get_object (calls, i);
      JsonObject *function = tb_json_object_get_object (entry, "function");
      JsonNode *args = function != NULL ? json_object_get_member (function, "arguments") : NULL;
      g_autoptr(TbToolCall) call = NULL;
      g_autofree char *fallback_id = NULL;
      const char *id = tb_json_object_get_string (entry, "id");

      if (function == NULL)
        {
          g_propagate_error (error, shape_error (_("a tool call has no function object")));
          return NULL;
        }
      /* Some local servers send no id, or an empty one. */
      if (id == NULL || *id == '\0')
        id = fallback_id = g_strdup_printf ("call_%u", i);

      /* arguments is documented as a JSON string; a few servers send an object. */
      if (args != NULL && JSON_NODE_HOLDS_OBJECT (args))
        call = _tb_provider_make_call (request->tools, id,
                                       tb_json_object_get_string (function, "name"), args, NULL);
      else
        call = _tb_provider_make_call (request->tools, id,
                                       tb_json_object_get_string (function, "name"), NULL,
                                       tb_json_object_get_string (function, "arguments"));
      tb_message_add_tool_call (result, call);
    }

  return tb_provider_response_new (result, tb_json_object_get_string (choice, "finish_reason"),
                                   json_object_get_member (root, "usage"));
}

/* ---- streaming ------------------------------------------------------------ */

typedef struct
{
  gint64   index;
  char    *id;
  char    *name;
  GString *arguments;
} PartialCall;

typedef struct
{
  TbProviderTurn     turn;               /* done: [DONE] came */
  gboolean           reasoning_content;  /* came as reasoning_content */
  GPtrArray         *partials;           /* PartialCall, until the turn ends */
} Stream;

static void
partial_call_free (gpointer data)
{
  PartialCall *call = data;

  g_free (call->id);
  g_free (call->name);
  g_string_free (call->arguments, TRUE);
  g_free (call);
}

static gpointer
tb_openai_provider_stream_new (TbHttpProvider    *provider,
                               TbProviderRequest *request)
{
  Stream *stream = g_new0 (Stream, 1);

  _tb_provider_turn_init (&stream->turn, request);
  stream->partials = g_ptr_array_new_with_free_func (partial_call_free);
  return stream;
}

static void
tb_openai_provider_stream_free (gpointer data)
{
  Stream *stream = data;

  _tb_provider_turn_clear (&stream->turn);
  g_ptr_array_unref (stream->partials);
  g_free (stream);
}

static PartialCall *
find_call (Stream *stream,
           gint64  index)
{
  PartialCall *call;

  for (guint i = 0; i < stream->partials->len; i++)
    {
      call = g_ptr_array_index (stream->partials, i);
      if (call->index == index)
        return call;
    }

  call = g_new0 (PartialCall, 1);
  call->index = index;
  call->arguments = g_string_new (NULL);
  g_ptr_array_add (stream->partials, call);
  return call;
}

static gboolean
tb_openai_provider_stream_event (TbHttpProvider  *provider,
                                 gpointer         state,
                                 const char      *event,
                                 const char      *data,
                                 GError         **error)
{
  Stream *stream = state;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root;
  JsonObject *problem;
  JsonObject *choice;
  JsonObject *delta;
  JsonArray *calls;
  const char *content;
  const char *reason;

  if (g_strcmp0 (g_strstrip ((char *) data), "[DONE]") == 0)
    {
      stream->turn.done = TRUE;
      return TRUE;
    }

  node = _tb_provider_parse_event (data, error);
  if (node == NULL)
    return FALSE;
  root = json_node_get_object (node);

  problem = tb_json_object_get_object (root, "error");
  if (problem != NULL)
    {
      _tb_provider_set_stream_error (error, tb_json_object_get_string (problem, "message"));
      return FALSE;
    }

  if (json_object_has_member (root, "usage") &&
      !JSON_NODE_HOLDS_NULL (json_object_get_member (root, "usage")))
    _tb_provider_turn_set_usage (&stream->turn, json_object_get_member (root, "usage"));

  choice = _tb_json_array_get_object (tb_json_object_get_array (root, "choices"), 0);
  delta = tb_json_object_get_object (choice, "delta");

  content = tb_json_object_get_string (delta, "content");
  if (content != NULL && *content != '\0')
    _tb_provider_turn_add_text (&stream->turn, TB_PROVIDER (provider), content);
  if (tb_json_object_get_string (delta, "reasoning_content") != NULL)
    {
      g_string_append (stream->turn.reasoning,
                       tb_json_object_get_string (delta, "reasoning_content"));
      stream->reasoning_content = TRUE;
    }
  else if (tb_json_object_get_string (delta, "reasoning") != NULL)
    g_string_append (stream->turn.reasoning, tb_json_object_get_string (delta, "reasoning"));

  calls = tb_json_object_get_array (delta, "tool_calls");
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonObject *entry = _tb_json_array_get_object (calls, i);
      JsonObject *function = tb_json_object_get_object (entry, "function");
      JsonNode *index_node = entry != NULL ? json_object_get_member (entry, "index") : NULL;
      const char *id = tb_json_object_get_string (entry, "id");
      const char *name = tb_json_object_get_string (function, "name");
      const char *args = tb_json_object_get_string (function, "arguments");
      gint64 index = i;
      PartialCall *call;

      if (index_node != NULL && JSON_NODE_HOLDS_VALUE (index_node) &&
          json_node_get_value_type (index_node) == G_TYPE_INT64)
        index = json_node_get_int (index_node);

      call = find_call (stream, index);
      /* id and name come with the first fragment only; later ones are ignored
       * rather than appended, since some servers repeat them. */
      if (id != NULL && *id != '\0' && call->id == NULL)
        call->id = g_strdup (id);
      if (name != NULL && *name != '\0' && call->name == NULL)
        call->name = g_strdup (name);
      if (args != NULL)
        g_string_append (call->arguments, args);

      tb_provider_emit_tool_call_delta (TB_PROVIDER (provider), (guint) index, id, name, args);
    }

  reason = tb_json_object_get_string (choice, "finish_reason");
  if (reason != NULL)
    _tb_provider_turn_set_finish_reason (&stream->turn, reason);

  return TRUE;
}

static int
compare_calls (gconstpointer a,
               gconstpointer b)
{
  const PartialCall *ca = *(PartialCall * const *) a;
  const PartialCall *cb = *(PartialCall * const *) b;

  return ca->index < cb->index ? -1 : ca->index > cb->index;
}

static TbProviderResponse *
tb_openai_provider_stream_finish (TbHttpProvider  *provider,
                                  gpointer         state,
                                  GError         **error)
{
  Stream *stream = state;
  g_autoptr(TbMessage) message = NULL;

  if (!stream->turn.done && stream->turn.finish_reason == NULL)
    /* Translators: completes "…ended before the model finished its turn (no %s)." */
    return _tb_http_provider_stream_ended_early (_("finish_reason and no [DONE]"), error);

  /* The calls were told of fragment by fragment, as they came. */
  g_ptr_array_sort (stream->partials, compare_calls);
  for (guint i = 0; i < stream->partials->len; i++)
    {
      PartialCall *partial = g_ptr_array_index (stream->partials, i);
      g_autofree char *fallback_id = NULL;
      g_autoptr(TbToolCall) call = NULL;

      if (partial->id == NULL)
        fallback_id = g_strdup_printf ("call_%u", i);
      call = _tb_provider_make_call (stream->turn.request->tools,
                                     partial->id != NULL ? partial->id : fallback_id,
                                     partial->name, NULL, partial->arguments->str);
      _tb_provider_turn_add_call (&stream->turn, NULL, call);
    }

  message = _tb_provider_turn_to_message (&stream->turn);
  set_reasoning (message, stream->turn.reasoning->str, stream->reasoning_content);
  return tb_provider_response_new (message, stream->turn.finish_reason, stream->turn.usage);
}

/* [DONE] ends the stream; finish_reason does not, since the usage chunk
 * asked for with include_usage follows it. */
static gboolean
tb_openai_provider_stream_done (TbHttpProvider *provider,
                                gpointer        state)
{
  Stream *stream = state;

  return stream->turn.done;
}

static void
tb_openai_provider_class_init (TbOpenaiProviderClass *klass)
{
  TbHttpProviderClass *http_class = TB_HTTP_PROVIDER_CLASS (klass);

  http_class->kind = "openai";
  http_class->build_message = tb_openai_provider_build_message;
  http_class->parse_response = tb_openai_provider_parse_response;
  http_class->stream_new = tb_openai_provider_stream_new;
  http_class->stream_free = tb_openai_provider_stream_free;
  http_class->stream_event = tb_openai_provider_stream_event;
  http_class->stream_finish = tb_openai_provider_stream_finish;
  http_class->stream_done = tb_openai_provider_stream_done;
  /* The key as a bearer token and GET /models: the base class's defaults. */
}

static void
tb_openai_provider_init (TbOpenaiProvider *self)
{
}

/**
 * tb_openai_provider_new:
 * @base_url: (nullable): e.g. `http://localhost:11434/v1`; %NULL for
 *   %TB_OPENAI_DEFAULT_BASE_URL
 * @model: the model name
 * @api_key: (nullable): the key; local servers need none
 *
 * Makes a provider for OpenAI's Chat Completions API (`POST
 * /chat/completions`), which most local servers speak too.
 *
 * Returns: (transfer full): a new provider
 */
TbProvider *
tb_openai_provider_new (const char *base_url,
                        const char *model,
                        const char *api_key)
{
  return tb_provider_new_for_kind ("openai", base_url, model, api_key, NULL);
}
