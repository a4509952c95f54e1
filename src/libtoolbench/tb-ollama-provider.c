/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-ollama-provider"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-ollama-provider.h"
#include "tb-provider-kind.h"
#include "tb-provider-private.h"
#include "tb-provider-turn-private.h"

/**
 * TbOllamaProvider:
 *
 * Ollama's own chat API (`POST {base-url}/api/chat`, documented in
 * https://github.com/ollama/ollama/blob/main/docs/api.md). The base URL
 * has no version path (`http://localhost:11434`); Ollama's
 * OpenAI-compatible `/v1` is #TbOpenaiProvider's.
 *
 * Streamed responses are JSON lines ending with the line that says
 * `"done": true`. A tool call's arguments are an object, and older servers
 * give calls no id: such a call gets `call_N`, N its position in the turn,
 * and its result names the tool (`tool_name`) in the order of the calls.
 * The model's thinking is the message's reasoning; it is also kept in the
 * message's provider data under `ollama_thinking` and sent back from there
 * as `thinking`. A local server needs no
 * key; one that is set goes in an `Authorization: Bearer` header, as
 * proxies in front of Ollama expect.
 */
struct _TbOllamaProvider
{
  TbHttpProvider parent_instance;
};

G_DEFINE_FINAL_TYPE (TbOllamaProvider, tb_ollama_provider, TB_TYPE_HTTP_PROVIDER)

/* Where an assistant message keeps the model's thinking. */
#define THINKING_KEY "ollama_thinking"

/* ---- the request ---------------------------------------------------------- */

static JsonNode *
call_arguments (TbToolCall *call)
{
  JsonNode *args = tb_tool_call_get_arguments (call);

  /* Ollama reads arguments as an object only. Arguments that were not one
   * were already answered with an error, so {} keeps the history valid. */
  if (args != NULL && JSON_NODE_HOLDS_OBJECT (args))
    return json_node_copy (args);
  return tb_json_node_new_object ();
}

/* The id the server gave a call, if it gave one. */
static const char *
given_id (TbToolCall *call)
{
  return tb_json_object_get_string (tb_tool_call_get_provider_data (call), "id");
}

static JsonObject *
assistant_to_wire (TbProviderRequest *request,
                   TbMessage         *message,
                   GHashTable        *calls)
{
  JsonObject *object = json_object_new ();
  const char *text = tb_message_get_text (message);
  const char *thinking = tb_json_object_get_string (tb_message_get_provider_data (message),
                                                    THINKING_KEY);
  guint n = tb_message_get_n_tool_calls (message);

  json_object_set_string_member (object, "role", "assistant");
  json_object_set_string_member (object, "content", text != NULL ? text : "");
  /* Thinking goes back with the turn it belongs to. */
  if (thinking != NULL && *thinking != '\0')
    json_object_set_string_member (object, "thinking", thinking);

  if (n > 0)
    {
      JsonArray *wire_calls = json_array_new ();

      for (guint i = 0; i < n; i++)
        {
          TbToolCall *call = tb_message_get_tool_call (message, i);
          g_autofree char *wire = _tb_provider_wire_name_for_call (request->tools, call);
          JsonObject *entry = json_object_new ();
          JsonObject *function = json_object_new ();

          if (given_id (call) != NULL)
            json_object_set_string_member (entry, "id", given_id (call));
          json_object_set_string_member (function, "name", wire);
          json_object_set_member (function, "arguments", call_arguments (call));
          json_object_set_object_member (entry, "function", function);
          json_array_add_object_element (wire_calls, entry);
          /* Ids made per turn repeat in later turns: the latest call wins. */
          g_hash_table_insert (calls, (gpointer) tb_tool_call_get_id (call), call);
        }
      json_object_set_array_member (object, "tool_calls", wire_calls);
    }

  return object;
}

static JsonObject *
result_to_wire (TbProviderRequest *request,
                TbMessage         *message,
                GHashTable        *calls)
{
  JsonObject *object = json_object_new ();
  const char *text = tb_message_get_text (message);
  const char *id = tb_message_get_tool_call_id (message);
  TbToolCall *call = id != NULL ? g_hash_table_lookup (calls, id) : NULL;
  const char *name = tb_message_get_tool_name (message);
  g_autofree char *wire = NULL;

  /* Ollama matches a result to its call by the tool's name, as the model
   * wrote it, and by order. */
  if (call != NULL)
    wire = _tb_provider_wire_name_for_call (request->tools, call);
  else if (request->tools != NULL && name != NULL)
    wire = tb_tool_registry_to_wire_name (request->tools, name);
  if (wire == NULL)
    wire = g_strdup (name != NULL ? name : "unknown");

  json_object_set_string_member (object, "role", "tool");
  json_object_set_string_member (object, "tool_name", wire);
  json_object_set_string_member (object, "content", text != NULL ? text : "");
  if (call != NULL && given_id (call) != NULL)
    json_object_set_string_member (object, "tool_call_id", given_id (call));

  return object;
}

static JsonArray *
messages_to_wire (TbProviderRequest *request)
{
  g_autoptr(GHashTable) calls = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *messages = json_array_new ();

  for (guint i = 0; i < request->messages->len; i++)
    {
      TbMessage *message = g_ptr_array_index (request->messages, i);
      TbMessageRole role = tb_message_get_role (message);
      const char *text = tb_message_get_text (message);
      JsonObject *object;

      switch (role)
        {
        case TB_MESSAGE_ROLE_SYSTEM:
        case TB_MESSAGE_ROLE_USER:
          object = json_object_new ();
          json_object_set_string_member (object, "role", tb_message_role_to_string (role));
          json_object_set_string_member (object, "content", text != NULL ? text : "");
          break;

        case TB_MESSAGE_ROLE_ASSISTANT:
          object = assistant_to_wire (request, message, calls);
          break;

        case TB_MESSAGE_ROLE_TOOL:
          object = result_to_wire (request, message, calls);
          break;

        default:
          g_assert_not_reached ();
        }

      json_array_add_object_element (messages, object);
    }

  return messages;
}

static SoupMessage *
tb_ollama_provider_build_message (TbHttpProvider     *provider,
                                  TbProviderRequest  *request,
                                  GBytes            **body,
                                  GError            **error)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();
  SoupMessage *msg;

  msg = _tb_http_provider_new_post (provider, "/api/chat", error);
  if (msg == NULL)
    return NULL;

  json_node_take_object (root, object);
  json_object_set_string_member (object, "model", tb_http_provider_get_model (provider));
  json_object_set_array_member (object, "messages", messages_to_wire (request));

  /* Ollama has no tool_choice. "none" is kept by offering no tools;
   * "required" and a tool's name cannot be, so the tools are offered as
   * for "auto" and the model decides. parallel_tool_calls has no
   * counterpart either. The definitions have Chat Completions' shape. */
  if (request->tools != NULL && tb_tool_registry_get_size (request->tools) > 0 &&
      g_strcmp0 (request->tool_choice, "none") != 0)
    json_object_set_member (object, "tools",
                            tb_tool_registry_to_definitions (request->tools,
                                                             TB_DEFINITION_FORMAT_OPENAI));

  /* Ollama streams unless told not to. */
  json_object_set_boolean_member (object, "stream", request->stream);

  if (request->max_tokens > 0)
    {
      JsonObject *options = json_object_new ();

      json_object_set_int_member (options, "num_predict", request->max_tokens);
      json_object_set_object_member (object, "options", options);
    }

  /* The key, if any, is the base class's bearer token (add_headers). */
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept",
                                request->stream ? "application/x-ndjson" : "application/json");

  *body = _tb_json_to_bytes (root);
  return msg;
}

/* ---- the response --------------------------------------------------------- */

/* What one turn said so far: the whole response, or the lines of a stream. */
/* Its reasoning is Ollama's thinking, its finish reason the done_reason. */
typedef TbProviderTurn Turn;

static Turn *
turn_new (TbProviderRequest *request)
{
  Turn *turn = g_new0 (Turn, 1);

  _tb_provider_turn_init (turn, request);
  return turn;
}

static void
turn_free (gpointer data)
{
  _tb_provider_turn_clear (data);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Turn, turn_free)

static GError *
shape_error (const char *what)
{
  return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                      _("The response is not an Ollama chat response: %s"), what);
}

/* Ollama reports the token counts beside the message; the usage object
 * keeps them under Ollama's own names. */
static JsonNode *
read_usage (JsonObject *root)
{
  static const char * const counts[] = { "prompt_eval_count", "eval_count" };
  g_autoptr(JsonObject) usage = json_object_new ();
  JsonNode *node;

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      JsonNode *count = json_object_get_member (root, counts[i]);

      if (count != NULL && JSON_NODE_HOLDS_VALUE (count) &&
          json_node_get_value_type (count) == G_TYPE_INT64)
        json_object_set_int_member (usage, counts[i], json_node_get_int (count));
    }
  if (json_object_get_size (usage) == 0)
    return NULL;
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, usage);
  return node;
}

static gboolean
read_call (TbOllamaProvider  *self,
           Turn              *turn,
           JsonObject        *entry,
           gboolean           streaming,
           GError           **error)
{
  JsonObject *function = tb_json_object_get_object (entry, "function");
  JsonNode *args = function != NULL ? json_object_get_member (function, "arguments") : NULL;
  const char *name = tb_json_object_get_string (function, "name");
  const char *id = tb_json_object_get_string (entry, "id");
  g_autofree char *made = NULL;
  g_autofree char *raw = NULL;
  g_autoptr(TbToolCall) call = NULL;

  if (function == NULL)
    {
      g_propagate_error (error, shape_error (_("a tool call has no function object")));
      return FALSE;
    }

  /* Older servers give calls no id: the position in the turn is one. */
  if (id == NULL || *id == '\0')
    id = made = g_strdup_printf ("call_%u", turn->calls->len);

  /* Documented as an object; a string is read as Chat Completions'
   * arguments are, so text that is not JSON reaches the model as an
   * error instead of failing the turn. */
  if (args != NULL && JSON_NODE_HOLDS_OBJECT (args))
    call = _tb_provider_make_call (turn->request->tools, id, name, args, NULL);
  else if (args != NULL && JSON_NODE_HOLDS_VALUE (args) &&
           json_node_get_value_type (args) == G_TYPE_STRING)
    call = _tb_provider_make_call (turn->request->tools, id, name, NULL,
                                   json_node_get_string (args));
  else
    call = _tb_provider_make_call (turn->request->tools, id, name, NULL,
                                   args != NULL ? (raw = tb_json_to_string (args, FALSE)) : "");

  if (made == NULL)
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, "id", id);
      tb_tool_call_set_provider_data (call, data);
    }

  /* Ollama sends each call whole, in one line. */
  _tb_provider_turn_add_call (turn, streaming ? TB_PROVIDER (self) : NULL, call);
  return TRUE;
}

/* Reads one chunk: the whole response, or one line of a stream. */
static gboolean
turn_read (TbOllamaProvider  *self,
           Turn              *turn,
           JsonNode          *node,
           gboolean           streaming,
           GError           **error)
{
  JsonObject *root = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  JsonObject *message = tb_json_object_get_object (root, "message");
  JsonNode *error_node = root != NULL ? json_object_get_member (root, "error") : NULL;
  JsonArray *calls;
  const char *piece;
  gboolean done;

  if (root == NULL)
    {
      g_propagate_error (error, shape_error (_("it is not a JSON object")));
      return FALSE;
    }

  if (error_node != NULL)
    {
      const char *said = JSON_NODE_HOLDS_VALUE (error_node) &&
                         json_node_get_value_type (error_node) == G_TYPE_STRING
                         ? json_node_get_string (error_node)
                         : tb_json_object_get_string (tb_json_object_get_object (root, "error"),
                                                      "message");

      if (streaming)
        g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SERVER,
                     _("Ollama reported an error in the middle of the response: %s"),
                     said != NULL ? said : "?");
      else
        g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SERVER,
                     _("Ollama reported an error: %s"), said != NULL ? said : "?");
      return FALSE;
    }

  if (json_object_has_member (root, "choices"))
    {
      g_set_error_literal (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                           _("The server answered in OpenAI's Chat Completions format, not "
                             "Ollama's; remove “/v1” from the base URL, or choose the "
                             "OpenAI-compatible kind for this server."));
      return FALSE;
    }

  done = tb_json_object_get_boolean (root, "done", FALSE);
  /* The last line of older servers' streams carries only the counts. */
  if (message == NULL && !(streaming && done))
    {
      g_propagate_error (error, shape_error (_("it has no “message” object")));
      return FALSE;
    }

  piece = tb_json_object_get_string (message, "thinking");
  if (piece != NULL)
    g_string_append (turn->reasoning, piece);

  piece = tb_json_object_get_string (message, "content");
  if (piece != NULL && *piece != '\0')
    _tb_provider_turn_add_text (turn, streaming ? TB_PROVIDER (self) : NULL, piece);

  calls = tb_json_object_get_array (message, "tool_calls");
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    if (!read_call (self, turn, _tb_json_array_get_object (calls, i), streaming, error))
      return FALSE;

  if (done)
    {
      g_autoptr(JsonNode) usage = read_usage (root);

      turn->done = TRUE;
      _tb_provider_turn_set_finish_reason (turn, tb_json_object_get_string (root, "done_reason"));
      if (usage != NULL)
        _tb_provider_turn_set_usage (turn, usage);
    }

  return TRUE;
}

static TbProviderResponse *
turn_finish (Turn *turn)
{
  g_autoptr(TbMessage) message = NULL;

  /* Ollama sends "" for no text, which is not taken as text. */
  message = _tb_provider_turn_to_message (turn);
  /* Shown as the turn's reasoning, and sent back with it. */
  tb_message_set_reasoning (message, turn->reasoning->str);
  if (turn->reasoning->len > 0)
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, THINKING_KEY, turn->reasoning->str);
      tb_message_set_provider_data (message, data);
    }

  return tb_provider_response_new (message, turn->finish_reason, turn->usage);
}

static TbProviderResponse *
tb_ollama_provider_parse_response (TbHttpProvider     *provider,
                                   TbProviderRequest  *request,
                                   JsonNode           *body,
                                   GError            **error)
{
  g_autoptr(Turn) turn = turn_new (request);

  if (!turn_read (TB_OLLAMA_PROVIDER (provider), turn, body, FALSE, error))
    return NULL;
  return turn_finish (turn);
}

/* ---- streaming ------------------------------------------------------------ */

static gpointer
tb_ollama_provider_stream_new (TbHttpProvider    *provider,
                               TbProviderRequest *request)
{
  return turn_new (request);
}

static gboolean
tb_ollama_provider_stream_event (TbHttpProvider  *provider,
                                 gpointer         state,
                                 const char      *event,
                                 const char      *data,
                                 GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (data, -1, &local_error);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("A line in the response stream is not a JSON object: %s"),
                   local_error != NULL ? local_error->message : _("wrong type"));
      return FALSE;
    }
  return turn_read (TB_OLLAMA_PROVIDER (provider), state, node, TRUE, error);
}

static TbProviderResponse *
tb_ollama_provider_stream_finish (TbHttpProvider  *provider,
                                  gpointer         state,
                                  GError         **error)
{
  Turn *turn = state;

  if (!turn->done)
    /* Translators: completes "…ended before the model finished its turn (no %s)." */
    return _tb_http_provider_stream_ended_early (_("line with “done”: true"), error);
  return turn_finish (turn);
}

/* The line with "done": true is the last of the turn. */
static gboolean
tb_ollama_provider_stream_done (TbHttpProvider *provider,
                                gpointer        state)
{
  Turn *turn = state;

  return turn->done;
}

/* ---- errors --------------------------------------------------------------- */

/* Ollama's own words: {"error": "…"}. */
static char *
ollama_said (const char *body)
{
  g_autoptr(JsonNode) node = body != NULL ? tb_json_parse (body, -1, NULL) : NULL;
  JsonObject *root = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node)
                                                                    : NULL;

  return g_strdup (tb_json_object_get_string (root, "error"));
}

static GError *
tb_ollama_provider_explain_failure (TbHttpProvider *provider,
                                    guint           status,
                                    const char     *body,
                                    const GError   *cause)
{
  const char *model = tb_http_provider_get_model (provider);
  const char *base_url = tb_http_provider_get_base_url (provider);
  g_autofree char *said = NULL;

  if (status == 0)
    {
      g_autofree char *url = NULL;

      if (!g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
          !_tb_url_is_loopback (base_url))
        return NULL;
      url = tb_redactor_redact_url (tb_http_provider_get_redactor (provider), base_url);
      return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONNECTION,
                          /* Translators: %s is a URL such as http://localhost:11434 */
                          _("Ollama is not running at %s: nothing accepted the connection. "
                            "Start it with “ollama serve” (or open the Ollama app) and "
                            "try again."), url);
    }

  said = ollama_said (body);
  if (said == NULL || model == NULL)
    return NULL;

  /* "model \"x\" not found, try pulling it first" */
  if (status == 404 && g_str_has_prefix (said, "model ") && strstr (said, "not found") != NULL)
    return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_BAD_REQUEST,
                        /* Translators: the model's name, twice */
                        _("Ollama has no model “%s”; run “ollama pull %s” or choose another "
                          "model."), model, model);

  /* "registry.ollama.ai/library/x:latest does not support tools" */
  if (status == 400 && strstr (said, "does not support tools") != NULL)
    return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_BAD_REQUEST,
                        /* Translators: %s is the model's name */
                        _("The model “%s” does not support tools in Ollama; choose a model "
                          "with tool support, such as llama3.1 or qwen2.5."), model);

  return NULL;
}

/* ---- the type ------------------------------------------------------------- */

static void
tb_ollama_provider_class_init (TbOllamaProviderClass *klass)
{
  TbHttpProviderClass *http_class = TB_HTTP_PROVIDER_CLASS (klass);

  http_class->kind = "ollama";
  http_class->stream_framing = TB_STREAM_FRAMING_NDJSON;
  http_class->build_message = tb_ollama_provider_build_message;
  http_class->parse_response = tb_ollama_provider_parse_response;
  http_class->stream_new = tb_ollama_provider_stream_new;
  http_class->stream_free = turn_free;
  http_class->stream_event = tb_ollama_provider_stream_event;
  http_class->stream_finish = tb_ollama_provider_stream_finish;
  http_class->stream_done = tb_ollama_provider_stream_done;
  http_class->explain_failure = tb_ollama_provider_explain_failure;
  /* GET /api/tags → {"models": [{"name": "llama3.1:latest", "model": …}]} */
  http_class->models_path = "/api/tags";
  http_class->models_member = "models";
  http_class->model_id_member = "name";
}

static void
tb_ollama_provider_init (TbOllamaProvider *self)
{
}

/**
 * tb_ollama_provider_new:
 * @base_url: (nullable): e.g. `http://localhost:11434`, without `/v1`;
 *   %NULL for %TB_OLLAMA_DEFAULT_BASE_URL
 * @model: the model name, such as `llama3.1` or `qwen2.5:7b`
 * @api_key: (nullable): a key for a proxy in front of Ollama; a local
 *   server needs none
 *
 * Makes a provider for Ollama's own API (`POST /api/chat`), which streams
 * JSON lines.
 *
 * Returns: (transfer full): a new provider
 */
TbProvider *
tb_ollama_provider_new (const char *base_url,
                        const char *model,
                        const char *api_key)
{
  return tb_provider_new_for_kind ("ollama", base_url, model, api_key, NULL);
}
