/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-gemini-provider"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-gemini-provider.h"
#include "tb-provider-kind.h"
#include "tb-json.h"
#include "tb-provider-private.h"
#include "tb-provider-turn-private.h"

/**
 * TbGeminiProvider:
 *
 * Gemini generateContent (`POST {base-url}/models/{model}:generateContent`,
 * or `:streamGenerateContent?alt=sse`); the base URL includes the version
 * (`…/v1beta`). Calls are found in the parts, since Gemini reports
 * `finishReason: STOP` when it calls functions; a call's `id` is echoed
 * only when the model gave one; `thoughtSignature` values are sent back
 * unchanged; schemas are translated by the registry (no
 * `additionalProperties`, no `$schema`). The key goes in the
 * `x-goog-api-key` header, never in the URL.
 */
struct _TbGeminiProvider
{
  TbHttpProvider parent_instance;

  guint          next_call;
};

G_DEFINE_FINAL_TYPE (TbGeminiProvider, tb_gemini_provider, TB_TYPE_HTTP_PROVIDER)

static JsonArray *
new_content (JsonArray  *contents,
             const char *role)
{
  JsonObject *content = json_object_new ();
  JsonArray *parts = json_array_new ();

  json_object_set_string_member (content, "role", role);
  json_object_set_array_member (content, "parts", parts);
  json_array_add_object_element (contents, content);
  return parts;
}

static JsonArray *
open_parts (JsonArray  *contents,
            const char *role)
{
  guint n = json_array_get_length (contents);
  JsonObject *last = n > 0 ? json_array_get_object_element (contents, n - 1) : NULL;

  if (last != NULL && g_strcmp0 (json_object_get_string_member (last, "role"), role) == 0)
    return json_object_get_array_member (last, "parts");
  return new_content (contents, role);
}

static void
copy_signature (JsonObject *part,
                JsonObject *data)
{
  const char *signature = tb_json_object_get_string (data, "thoughtSignature");

  if (signature != NULL)
    json_object_set_string_member (part, "thoughtSignature", signature);
}

static SoupMessage *
tb_gemini_provider_build_message (TbHttpProvider     *provider,
                                  TbProviderRequest  *request,
                                  GBytes            **body,
                                  GError            **error)
{
  const char *model = tb_http_provider_get_model (provider);
  g_autofree char *escaped = g_uri_escape_string (model, NULL, FALSE);
  g_autofree char *path = g_strdup_printf ("/models/%s:%s", escaped,
                                           request->stream ? "streamGenerateContent?alt=sse"
                                                           : "generateContent");
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GString) system = g_string_new (NULL);
  g_autoptr(GHashTable) calls = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *object = json_object_new ();
  JsonArray *contents = json_array_new ();
  SoupMessageHeaders *headers;
  SoupMessage *msg;

  msg = _tb_http_provider_new_post (provider, path, error);
  if (msg == NULL)
    return NULL;

  for (guint i = 0; i < request->messages->len; i++)
    {
      TbMessage *message = g_ptr_array_index (request->messages, i);
      const char *content = tb_message_get_text (message);

      switch (tb_message_get_role (message))
        {
        case TB_MESSAGE_ROLE_SYSTEM:
          if (system->len > 0)
            g_string_append (system, "\n\n");
          g_string_append (system, content != NULL ? content : "");
          break;

        case TB_MESSAGE_ROLE_USER:
          {
            JsonObject *part = json_object_new ();

            json_object_set_string_member (part, "text", content != NULL ? content : "");
            json_array_add_object_element (open_parts (contents, "user"), part);
          }
          break;

        case TB_MESSAGE_ROLE_ASSISTANT:
          {
            JsonArray *parts = new_content (contents, "model");

            if (content != NULL && *content != '\0')
              {
                JsonObject *part = json_object_new ();

                json_object_set_string_member (part, "text", content);
                copy_signature (part, tb_message_get_provider_data (message));
                json_array_add_object_element (parts, part);
              }
            for (guint j = 0; j < tb_message_get_n_tool_calls (message); j++)
              {
                TbToolCall *call = tb_message_get_tool_call (message, j);
                JsonObject *data = tb_tool_call_get_provider_data (call);
                JsonNode *args = tb_tool_call_get_arguments (call);
                g_autofree char *wire =
                  _tb_provider_wire_name_for_call_for (request->tools, TB_DEFINITION_FORMAT_GEMINI,
                                                       call);
                JsonObject *part = json_object_new ();
                JsonObject *function = json_object_new ();

                json_object_set_string_member (function, "name", wire);
                json_object_set_member (function, "args",
                                        args != NULL && JSON_NODE_HOLDS_OBJECT (args)
                                        ? json_node_copy (args) : tb_json_node_new_object ());
                /* The id is echoed only when the model gave one. */
                if (tb_json_object_get_string (data, "id") != NULL)
                  json_object_set_string_member (function, "id", tb_json_object_get_string (data, "id"));
                json_object_set_object_member (part, "functionCall", function);
                copy_signature (part, data);
                json_array_add_object_element (parts, part);
                g_hash_table_insert (calls, (gpointer) tb_tool_call_get_id (call), call);
              }
            if (json_array_get_length (parts) == 0)
              {
                JsonObject *part = json_object_new ();

                json_object_set_string_member (part, "text", "");
                json_array_add_object_element (parts, part);
              }
          }
          break;

        case TB_MESSAGE_ROLE_TOOL:
          {
            TbToolCall *call = g_hash_table_lookup (calls, tb_message_get_tool_call_id (message));
            JsonObject *part = json_object_new ();
            JsonObject *function = json_object_new ();
            JsonObject *response = json_object_new ();
            g_autofree char *wire = NULL;

            if (call != NULL)
              wire = _tb_provider_wire_name_for_call_for (request->tools,
                                                          TB_DEFINITION_FORMAT_GEMINI, call);
            else if (request->tools != NULL && tb_message_get_tool_name (message) != NULL)
              wire = tb_tool_registry_to_wire_name_for (request->tools,
                                                        TB_DEFINITION_FORMAT_GEMINI,
                                                        tb_message_get_tool_name (message));
            if (wire == NULL)
              wire = g_strdup (tb_message_get_tool_name (message) != NULL
                               ? tb_message_get_tool_name (message) : "unknown");

            json_object_set_string_member (function, "name", wire);
            if (call != NULL &&
                tb_json_object_get_string (tb_tool_call_get_provider_data (call), "id") != NULL)
              json_object_set_string_member (function, "id", tb_message_get_tool_call_id (message));
            /* Documented keys: "output" for a result, "error" for a failure. */
            json_object_set_string_member (response,
                                           tb_message_get_is_error (message) ? "error" : "output",
                                           content != NULL ? content : "");
            json_object_set_object_member (function, "response", response);
            json_object_set_object_member (part, "functionResponse", function);
            json_array_add_object_element (open_parts (contents, "user"), part);
          }
          break;

        default:
          g_assert_not_reached ();
        }
    }

  json_node_take_object (root, object);
  json_object_set_array_member (object, "contents", contents);
  if (system->len > 0)
    {
      JsonObject *instruction = json_object_new ();
      JsonArray *parts = json_array_new ();
      JsonObject *part = json_object_new ();

      json_object_set_string_member (part, "text", system->str);
      json_array_add_object_element (parts, part);
      json_object_set_array_member (instruction, "parts", parts);
      json_object_set_object_member (object, "systemInstruction", instruction);
    }

  if (request->tools != NULL && tb_tool_registry_get_size (request->tools) > 0)
    {
      json_object_set_member (object, "tools",
                              tb_tool_registry_to_definitions (request->tools,
                                                               TB_DEFINITION_FORMAT_GEMINI));
      if (request->tool_choice != NULL)
        {
          JsonObject *config = json_object_new ();
          JsonObject *calling = json_object_new ();
          const char *choice = request->tool_choice;

          if (g_str_equal (choice, "auto"))
            json_object_set_string_member (calling, "mode", "AUTO");
          else if (g_str_equal (choice, "none"))
            json_object_set_string_member (calling, "mode", "NONE");
          else if (g_str_equal (choice, "required"))
            json_object_set_string_member (calling, "mode", "ANY");
          else
            {
              g_autofree char *wire = tb_tool_registry_to_wire_name_for (request->tools,
                                                                         TB_DEFINITION_FORMAT_GEMINI,
                                                                         choice);
              JsonArray *allowed = json_array_new ();

              json_object_set_string_member (calling, "mode", "ANY");
              json_array_add_string_element (allowed, wire != NULL ? wire : choice);
              json_object_set_array_member (calling, "allowedFunctionNames", allowed);
            }
          json_object_set_object_member (config, "functionCallingConfig", calling);
          json_object_set_object_member (object, "toolConfig", config);
        }
    }

  if (request->max_tokens > 0)
    {
      JsonObject *generation = json_object_new ();

      json_object_set_int_member (generation, "maxOutputTokens", request->max_tokens);
      json_object_set_object_member (object, "generationConfig", generation);
    }

  headers = soup_message_get_request_headers (msg);
  soup_message_headers_replace (headers, "Accept",
                                request->stream ? "text/event-stream" : "application/json");

  *body = _tb_json_to_bytes (root);
  return msg;
}

/* ---- reading -------------------------------------------------------------- */

typedef struct
{
  TbProviderTurn     turn;         /* reasoning: thought summaries, for people only */
  char              *text_signature;
  char              *block_reason;
  gboolean           saw_candidate;
} Reader;

static Reader *
reader_new (TbProviderRequest *request)
{
  Reader *reader = g_new0 (Reader, 1);

  _tb_provider_turn_init (&reader->turn, request);
  return reader;
}

static void
reader_free (gpointer data)
{
  Reader *reader = data;

  _tb_provider_turn_clear (&reader->turn);
  g_free (reader->text_signature);
  g_free (reader->block_reason);
  g_free (reader);
}

/* Takes one GenerateContentResponse (the whole answer, or one chunk). */
static void
reader_take (TbGeminiProvider *self,
             Reader           *reader,
             JsonObject       *root,
             gboolean          streaming)
{
  JsonObject *candidate = _tb_json_array_get_object (tb_json_object_get_array (root, "candidates"), 0);
  JsonArray *parts = tb_json_object_get_array (tb_json_object_get_object (candidate, "content"), "parts");
  JsonNode *usage = json_object_get_member (root, "usageMetadata");
  const char *reason = tb_json_object_get_string (candidate, "finishReason");
  const char *blocked = tb_json_object_get_string (tb_json_object_get_object (root, "promptFeedback"),
                                             "blockReason");

  if (candidate != NULL)
    reader->saw_candidate = TRUE;
  if (usage != NULL && JSON_NODE_HOLDS_OBJECT (usage))
    _tb_provider_turn_set_usage (&reader->turn, usage);
  if (reason != NULL)
    _tb_provider_turn_set_finish_reason (&reader->turn, reason);
  if (blocked != NULL)
    {
      g_free (reader->block_reason);
      reader->block_reason = g_strdup (blocked);
    }

  for (guint i = 0; parts != NULL && i < json_array_get_length (parts); i++)
    {
      JsonObject *part = _tb_json_array_get_object (parts, i);
      JsonObject *function = tb_json_object_get_object (part, "functionCall");
      const char *signature = tb_json_object_get_string (part, "thoughtSignature");

      if (part == NULL)
        continue;
      /* A thought summary (includeThoughts) is shown, not answered or sent
       * back: Gemini wants only the signatures. */
      if (tb_json_object_get_boolean (part, "thought", FALSE))
        {
          g_string_append (reader->turn.reasoning, tb_json_object_get_string (part, "text") ?: "");
          continue;
        }

      if (function != NULL)
        {
          const char *given = tb_json_object_get_string (function, "id");
          g_autofree char *made = NULL;
          JsonNode *args = json_object_get_member (function, "args");
          g_autoptr(JsonObject) data = json_object_new ();
          g_autoptr(TbToolCall) call = NULL;

          if (given != NULL && *given == '\0')
            given = NULL;
          if (given == NULL)
            made = g_strdup_printf ("gemini_call_%u", ++self->next_call);
          call = _tb_provider_make_call_for (reader->turn.request->tools,
                                             TB_DEFINITION_FORMAT_GEMINI,
                                             given != NULL ? given : made,
                                             tb_json_object_get_string (function, "name"),
                                             args != NULL ? args : NULL, args != NULL ? NULL : "");
          if (given != NULL)
            json_object_set_string_member (data, "id", given);
          if (signature != NULL)
            json_object_set_string_member (data, "thoughtSignature", signature);
          if (json_object_get_size (data) > 0)
            tb_tool_call_set_provider_data (call, data);
          _tb_provider_turn_add_call (&reader->turn, streaming ? TB_PROVIDER (self) : NULL,
                                      call);
        }
      else if (tb_json_object_get_string (part, "text") != NULL)
        {
          const char *piece = tb_json_object_get_string (part, "text");

          _tb_provider_turn_add_text (&reader->turn, streaming ? TB_PROVIDER (self) : NULL,
                                      piece);
          if (signature != NULL)
            {
              g_free (reader->text_signature);
              reader->text_signature = g_strdup (signature);
            }
        }
    }
}

static TbProviderResponse *
reader_finish (Reader  *reader,
               GError **error)
{
  g_autoptr(TbMessage) message = NULL;

  if (reader->block_reason != NULL && reader->turn.calls->len == 0 && !reader->turn.has_text)
    {
      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_BAD_REQUEST,
                   _("Gemini blocked the prompt (%s)"), reader->block_reason);
      return NULL;
    }
  if (!reader->saw_candidate)
    {
      g_set_error_literal (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                           _("The response is not a generateContent response: it has no "
                             "candidates"));
      return NULL;
    }
  if (reader->turn.calls->len == 0 && !reader->turn.has_text &&
      reader->turn.finish_reason != NULL && !g_str_equal (reader->turn.finish_reason, "STOP"))
    {
      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("Gemini ended its turn without an answer (finishReason %s)"),
                   reader->turn.finish_reason);
      return NULL;
    }

  message = _tb_provider_turn_to_message (&reader->turn);
  tb_message_set_reasoning (message, reader->turn.reasoning->str);
  if (reader->text_signature != NULL)
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, "thoughtSignature", reader->text_signature);
      tb_message_set_provider_data (message, data);
    }

  return tb_provider_response_new (message, reader->turn.finish_reason, reader->turn.usage);
}

static TbProviderResponse *
tb_gemini_provider_parse_response (TbHttpProvider     *provider,
                                   TbProviderRequest  *request,
                                   JsonNode           *body,
                                   GError            **error)
{
  Reader *reader = reader_new (request);
  TbProviderResponse *response;

  if (!JSON_NODE_HOLDS_OBJECT (body))
    {
      reader_free (reader);
      g_set_error_literal (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                           _("The response is not a generateContent response: it is not an "
                             "object"));
      return NULL;
    }
  reader_take (TB_GEMINI_PROVIDER (provider), reader, json_node_get_object (body), FALSE);
  response = reader_finish (reader, error);
  reader_free (reader);
  return response;
}

static gpointer
tb_gemini_provider_stream_new (TbHttpProvider    *provider,
                               TbProviderRequest *request)
{
  return reader_new (request);
}

static gboolean
tb_gemini_provider_stream_event (TbHttpProvider  *provider,
                                 gpointer         state,
                                 const char      *event,
                                 const char      *data,
                                 GError         **error)
{
  g_autoptr(JsonNode) node = _tb_provider_parse_event (data, error);
  JsonObject *root;
  JsonObject *problem;

  if (node == NULL)
    return FALSE;
  root = json_node_get_object (node);
  problem = tb_json_object_get_object (root, "error");
  if (problem != NULL)
    {
      _tb_provider_set_stream_error (error, tb_json_object_get_string (problem, "message"));
      return FALSE;
    }

  reader_take (TB_GEMINI_PROVIDER (provider), state, root, TRUE);
  return TRUE;
}

static TbProviderResponse *
tb_gemini_provider_stream_finish (TbHttpProvider  *provider,
                                  gpointer         state,
                                  GError         **error)
{
  Reader *reader = state;

  if (reader->turn.finish_reason == NULL && reader->block_reason == NULL)
    return _tb_http_provider_stream_ended_early ("finishReason", error);
  return reader_finish (reader, error);
}

/* The last chunk is the one with a finishReason (or a blocked prompt's
 * blockReason); it also carries the final usageMetadata. */
static gboolean
tb_gemini_provider_stream_done (TbHttpProvider *provider,
                                gpointer        state)
{
  Reader *reader = state;

  return reader->turn.finish_reason != NULL || reader->block_reason != NULL;
}

static void
tb_gemini_provider_add_headers (TbHttpProvider     *provider,
                                SoupMessageHeaders *headers)
{
  const char *key = tb_http_provider_get_api_key (provider);

  if (key != NULL && *key != '\0')
    soup_message_headers_replace (headers, "x-goog-api-key", key);
}

static void
tb_gemini_provider_class_init (TbGeminiProviderClass *klass)
{
  TbHttpProviderClass *http_class = TB_HTTP_PROVIDER_CLASS (klass);

  http_class->kind = "gemini";
  http_class->build_message = tb_gemini_provider_build_message;
  http_class->parse_response = tb_gemini_provider_parse_response;
  http_class->stream_new = tb_gemini_provider_stream_new;
  http_class->stream_free = reader_free;
  http_class->stream_event = tb_gemini_provider_stream_event;
  http_class->stream_finish = tb_gemini_provider_stream_finish;
  http_class->stream_done = tb_gemini_provider_stream_done;
  http_class->add_headers = tb_gemini_provider_add_headers;
  /* GET /models → {"models": [{"name": "models/gemini-…"}]} */
  http_class->models_member = "models";
  http_class->model_id_member = "name";
  http_class->model_id_prefix = "models/";
}

static void
tb_gemini_provider_init (TbGeminiProvider *self)
{
}

/**
 * tb_gemini_provider_new:
 * @base_url: (nullable): %NULL for %TB_GEMINI_DEFAULT_BASE_URL
 * @model: the model name, e.g. `gemini-2.5-flash`
 * @api_key: (nullable): the key
 *
 * Makes a provider for Google's Gemini API (`generateContent`), with the key
 * in the `x-goog-api-key` header.
 *
 * Returns: (transfer full): a new provider
 */
TbProvider *
tb_gemini_provider_new (const char *base_url,
                        const char *model,
                        const char *api_key)
{
  return tb_provider_new_for_kind ("gemini", base_url, model, api_key, NULL);
}
