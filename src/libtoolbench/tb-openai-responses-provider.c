/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-openai-responses-provider"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-openai-responses-provider.h"
#include "tb-provider-kind.h"
#include "tb-provider-private.h"
#include "tb-provider-turn-private.h"

/**
 * TbOpenaiResponsesProvider:
 *
 * OpenAI Responses (`POST {base-url}/responses`). System messages become
 * `instructions`; the rest of the conversation travels as `input` items:
 * `message` items for text, `function_call` items for the calls a model
 * made (its call id, wire name and argument text as it sent them) and
 * `function_call_output` items for their results.
 *
 * By default nothing is kept on the provider's side (`store: false`) and
 * reasoning comes back encrypted (`include: ["reasoning.encrypted_content"]`):
 * every `reasoning` item, and every output item of a type Toolbench does
 * not know, stays on the assistant message's provider data and goes back
 * unchanged, in its place among the turn's items, in the next request.
 * With #TbOpenaiResponsesProvider:use-previous-response-id the provider
 * keeps the conversation instead (`store: true`), and a request names the
 * last stored response and sends only what came after it.
 *
 * The key goes in an `Authorization: Bearer` header, never in the body.
 */
struct _TbOpenaiResponsesProvider
{
  TbHttpProvider parent_instance;

  gboolean       use_previous_response_id;
};

G_DEFINE_FINAL_TYPE (TbOpenaiResponsesProvider, tb_openai_responses_provider,
                     TB_TYPE_HTTP_PROVIDER)

enum {
  PROP_0,
  PROP_USE_PREVIOUS_RESPONSE_ID,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* What an assistant message keeps of the response it came from. */
#define DATA_RESPONSE_ID "openai_response_id"
#define DATA_STORED "openai_response_stored"
#define DATA_OUTPUT "openai_responses_output"
#define DATA_SUMMARY "reasoning_summary"

/* ---- the conversation as input items ------------------------------------- */

static JsonObject *
text_message (const char *role,
              const char *text)
{
  JsonObject *item = json_object_new ();

  json_object_set_string_member (item, "type", "message");
  json_object_set_string_member (item, "role", role);
  json_object_set_string_member (item, "content", text != NULL ? text : "");
  return item;
}

static JsonObject *
call_to_item (TbProviderRequest *request,
              TbToolCall        *call)
{
  g_autofree char *wire = _tb_provider_wire_name_for_call (request->tools, call);
  JsonObject *item = json_object_new ();
  const char *id = tb_tool_call_get_id (call);

  json_object_set_string_member (item, "type", "function_call");
  json_object_set_string_member (item, "call_id", id != NULL ? id : "");
  json_object_set_string_member (item, "name", wire);
  /* The text the model sent, even when it was not JSON. */
  json_object_set_string_member (item, "arguments", tb_tool_call_get_raw_arguments (call));
  return item;
}

/* Appends the text of a `message` output item; whether it had any part
 * with text. A refusal is the model's answer too. */
static gboolean
append_message_text (JsonObject *item,
                     GString    *text)
{
  JsonArray *content = tb_json_object_get_array (item, "content");
  gboolean any = FALSE;

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonObject *part = _tb_json_array_get_object (content, i);
      const char *type = tb_json_object_get_string (part, "type");
      const char *piece = NULL;

      if (g_strcmp0 (type, "output_text") == 0)
        piece = tb_json_object_get_string (part, "text");
      else if (g_strcmp0 (type, "refusal") == 0)
        piece = tb_json_object_get_string (part, "refusal");
      if (piece != NULL)
        {
          g_string_append (text, piece);
          any = TRUE;
        }
    }
  return any;
}

/* Whether @sent, the argument text of a kept function_call item, still
 * says what @call's arguments say. A trace keeps arguments as parsed
 * JSON, so a conversation read back from one has lost the model's
 * spacing; the kept item has it. */
static gboolean
same_arguments (const char *sent,
                TbToolCall *call)
{
  g_autoptr(TbToolCall) parsed = NULL;
  JsonNode *a;
  JsonNode *b;

  if (sent == NULL)
    return FALSE;
  if (g_str_equal (sent, tb_tool_call_get_raw_arguments (call)))
    return TRUE;
  parsed = tb_tool_call_new_raw (NULL, NULL, sent);
  a = tb_tool_call_get_arguments (parsed);
  b = tb_tool_call_get_arguments (call);
  return a != NULL && b != NULL && tb_json_equal (a, b);
}

static TbToolCall *
find_call (TbMessage  *message,
           const char *call_id,
           gboolean   *sent,
           guint      *position)
{
  for (guint i = 0; call_id != NULL && i < tb_message_get_n_tool_calls (message); i++)
    {
      TbToolCall *call = tb_message_get_tool_call (message, i);

      if (!sent[i] && g_strcmp0 (tb_tool_call_get_id (call), call_id) == 0)
        {
          *position = i;
          return call;
        }
    }
  return NULL;
}

/* An assistant turn as input items. When the turn kept its output items
 * (it had reasoning, or items of unknown types), they go back in their
 * order: those unchanged since the model sent them exactly as it sent
 * them, a text or call changed since (a fork's edit) as the message now
 * has it; calls no longer in the message are left out, new ones follow. */
static void
assistant_to_items (TbProviderRequest *request,
                    TbMessage         *message,
                    JsonArray         *items)
{
  JsonArray *output = tb_json_object_get_array (tb_message_get_provider_data (message),
                                                DATA_OUTPUT);
  const char *text = tb_message_get_text (message);
  guint n_calls = tb_message_get_n_tool_calls (message);
  g_autofree gboolean *sent = g_new0 (gboolean, n_calls + 1);
  g_autoptr(GString) kept_text = g_string_new (NULL);
  gboolean text_unchanged;
  gboolean text_sent = FALSE;

  for (guint i = 0; output != NULL && i < json_array_get_length (output); i++)
    {
      JsonObject *item = _tb_json_array_get_object (output, i);

      if (g_strcmp0 (tb_json_object_get_string (item, "type"), "message") == 0)
        append_message_text (item, kept_text);
    }
  text_unchanged = g_str_equal (kept_text->str, text != NULL ? text : "");

  for (guint i = 0; output != NULL && i < json_array_get_length (output); i++)
    {
      JsonNode *element = json_array_get_element (output, i);
      JsonObject *item = _tb_json_array_get_object (output, i);
      const char *type = tb_json_object_get_string (item, "type");

      if (g_strcmp0 (type, "message") == 0)
        {
          if (text_unchanged)
            json_array_add_element (items, json_node_copy (element));
          else if (!text_sent && text != NULL && *text != '\0')
            json_array_add_object_element (items, text_message ("assistant", text));
          text_sent = TRUE;
        }
      else if (g_strcmp0 (type, "function_call") == 0)
        {
          guint position = 0;
          TbToolCall *call = find_call (message, tb_json_object_get_string (item, "call_id"),
                                        sent, &position);
          g_autofree char *wire = NULL;

          /* A call taken out of the turn since is not sent. */
          if (call == NULL)
            continue;
          sent[position] = TRUE;
          wire = _tb_provider_wire_name_for_call (request->tools, call);
          if (g_strcmp0 (tb_json_object_get_string (item, "name"), wire) == 0 &&
              same_arguments (tb_json_object_get_string (item, "arguments"), call))
            json_array_add_element (items, json_node_copy (element));
          else
            json_array_add_object_element (items, call_to_item (request, call));
        }
      else
        {
          json_array_add_element (items, json_node_copy (element));
        }
    }

  if (!text_sent && text != NULL && *text != '\0')
    json_array_add_object_element (items, text_message ("assistant", text));
  for (guint i = 0; i < n_calls; i++)
    if (!sent[i])
      json_array_add_object_element (items,
                                     call_to_item (request, tb_message_get_tool_call (message, i)));
}

/* The conversation from message @first on as Responses `input` items, and
 * the text of every system message, in order, in @instructions (the
 * instructions of an earlier response are not carried over, so they are
 * sent each time); also what a trace exports for pasting into other tools. */
JsonArray *
_tb_openai_responses_input_to_wire (TbProviderRequest *request,
                                    guint              first,
                                    GString           *instructions)
{
  JsonArray *items = json_array_new ();

  for (guint i = 0; i < request->messages->len; i++)
    {
      TbMessage *message = g_ptr_array_index (request->messages, i);
      const char *text = tb_message_get_text (message);

      if (tb_message_get_role (message) == TB_MESSAGE_ROLE_SYSTEM)
        {
          if (instructions->len > 0)
            g_string_append (instructions, "\n\n");
          g_string_append (instructions, text != NULL ? text : "");
          continue;
        }
      if (i < first)
        continue;

      switch (tb_message_get_role (message))
        {
        case TB_MESSAGE_ROLE_USER:
          json_array_add_object_element (items, text_message ("user", text));
          break;

        case TB_MESSAGE_ROLE_ASSISTANT:
          assistant_to_items (request, message, items);
          break;

        case TB_MESSAGE_ROLE_TOOL:
          {
            JsonObject *item = json_object_new ();
            const char *id = tb_message_get_tool_call_id (message);

            json_object_set_string_member (item, "type", "function_call_output");
            json_object_set_string_member (item, "call_id", id != NULL ? id : "");
            json_object_set_string_member (item, "output", text != NULL ? text : "");
            json_array_add_object_element (items, item);
          }
          break;

        case TB_MESSAGE_ROLE_SYSTEM:
        default:
          g_assert_not_reached ();
        }
    }

  return items;
}

/* The position after the last assistant turn whose response the provider
 * stored, and that response's id; 0 and %NULL when there is none. */
static guint
after_stored_response (TbProviderRequest  *request,
                       const char        **response_id)
{
  for (guint i = request->messages->len; i > 0; i--)
    {
      TbMessage *message = g_ptr_array_index (request->messages, i - 1);
      JsonObject *data = tb_message_get_provider_data (message);
      const char *id = tb_json_object_get_string (data, DATA_RESPONSE_ID);

      if (tb_message_get_role (message) != TB_MESSAGE_ROLE_ASSISTANT)
        continue;
      if (id != NULL && *id != '\0' && tb_json_object_get_boolean (data, DATA_STORED, FALSE))
        {
          *response_id = id;
          return i;
        }
    }

  *response_id = NULL;
  return 0;
}

static SoupMessage *
tb_openai_responses_provider_build_message (TbHttpProvider     *provider,
                                            TbProviderRequest  *request,
                                            GBytes            **body,
                                            GError            **error)
{
  TbOpenaiResponsesProvider *self = TB_OPENAI_RESPONSES_PROVIDER (provider);
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GString) instructions = g_string_new (NULL);
  JsonObject *object = json_object_new ();
  const char *previous = NULL;
  SoupMessage *msg;
  JsonArray *input;
  guint first = 0;

  msg = _tb_http_provider_new_post (provider, "/responses", error);
  if (msg == NULL)
    return NULL;

  if (self->use_previous_response_id)
    first = after_stored_response (request, &previous);
  input = _tb_openai_responses_input_to_wire (request, first, instructions);

  json_node_take_object (root, object);
  json_object_set_string_member (object, "model", tb_http_provider_get_model (provider));
  if (instructions->len > 0)
    json_object_set_string_member (object, "instructions", instructions->str);
  json_object_set_array_member (object, "input", input);

  if (request->tools != NULL && tb_tool_registry_get_size (request->tools) > 0)
    {
      TbDefinitionFormat format = TB_DEFINITION_FORMAT_OPENAI_RESPONSES;

      json_object_set_member (object, "tools",
                              tb_tool_registry_to_definitions (request->tools, format));
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

              json_object_set_string_member (choice, "type", "function");
              json_object_set_string_member (choice, "name",
                                             wire != NULL ? wire : request->tool_choice);
              json_object_set_object_member (object, "tool_choice", choice);
            }
        }
      json_object_set_boolean_member (object, "parallel_tool_calls",
                                      request->parallel_tool_calls);
    }

  if (request->max_tokens > 0)
    json_object_set_int_member (object, "max_output_tokens", request->max_tokens);

  json_object_set_boolean_member (object, "store", self->use_previous_response_id);
  if (self->use_previous_response_id)
    {
      if (previous != NULL)
        json_object_set_string_member (object, "previous_response_id", previous);
    }
  else
    {
      JsonArray *include = json_array_new ();

      /* Without a stored copy, reasoning can only go back encrypted. */
      json_array_add_string_element (include, "reasoning.encrypted_content");
      json_object_set_array_member (object, "include", include);
    }

  if (request->stream)
    json_object_set_boolean_member (object, "stream", TRUE);

  /* The key goes on as a bearer token, by TbHttpProvider's add_headers. */
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept",
                                request->stream ? "text/event-stream" : "application/json");

  *body = _tb_json_to_bytes (root);
  return msg;
}

/* ---- reading a response ---------------------------------------------------- */

static GError *
shape_error (const char *what)
{
  return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                      _("The response is not a Responses API response: %s"), what);
}

static GError *
chat_completions_error (void)
{
  return g_error_new_literal (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                              _("The server answered in the Chat Completions format "
                                "(“choices”) instead of the Responses format (“output”); "
                                "it may not offer the Responses API. Use the provider kind "
                                "“openai” for this server."));
}

static GError *
failed_error (JsonObject *response)
{
  JsonObject *failure = tb_json_object_get_object (response, "error");
  const char *said = tb_json_object_get_string (failure, "message");

  if (said == NULL)
    said = tb_json_object_get_string (failure, "code");
  return g_error_new (TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SERVER,
                      _("The provider reported that the response failed: %s"),
                      said != NULL ? said : _("it gave no reason"));
}

/* Reads the output items into an assistant message, and what the message
 * must keep of them into @data. */
static TbMessage *
message_from_output (TbProviderRequest  *request,
                     JsonArray          *output,
                     JsonObject         *data,
                     GError            **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean has_text = FALSE;
  gboolean keep_output = FALSE;
  TbMessage *message;

  for (guint i = 0; i < json_array_get_length (output); i++)
    {
      JsonObject *item = _tb_json_array_get_object (output, i);
      const char *type = tb_json_object_get_string (item, "type");

      if (item == NULL)
        {
          g_autofree char *what = g_strdup_printf (_("output item %u is not an object"), i + 1);

          g_propagate_error (error, shape_error (what));
          return NULL;
        }

      if (g_strcmp0 (type, "message") == 0)
        {
          has_text |= append_message_text (item, text);
        }
      else if (g_strcmp0 (type, "function_call") == 0)
        {
          const char *call_id = tb_json_object_get_string (item, "call_id");
          const char *name = tb_json_object_get_string (item, "name");
          JsonNode *args = json_object_get_member (item, "arguments");

          /* Without it the result cannot be matched to the call. */
          if (call_id == NULL || *call_id == '\0')
            {
              g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                           _("The model’s call of “%s” has no call_id, so its result could "
                             "not be sent back; the response cannot be used."),
                           name != NULL ? name : "?");
              return NULL;
            }
          /* arguments is documented as a JSON string; a few servers send an object. */
          if (args != NULL && JSON_NODE_HOLDS_OBJECT (args))
            g_ptr_array_add (calls, _tb_provider_make_call (request->tools, call_id, name, args,
                                                            NULL));
          else
            g_ptr_array_add (calls, _tb_provider_make_call (request->tools, call_id, name, NULL,
                                                            tb_json_object_get_string (item,
                                                                                  "arguments")));
        }
      else
        {
          JsonArray *parts = tb_json_object_get_array (item, "summary");

          keep_output = TRUE;
          for (guint j = 0; g_strcmp0 (type, "reasoning") == 0 && parts != NULL &&
                            j < json_array_get_length (parts); j++)
            {
              const char *piece = tb_json_object_get_string (_tb_json_array_get_object (parts, j),
                                                             "text");

              if (piece == NULL || *piece == '\0')
                continue;
              if (summary->len > 0)
                g_string_append (summary, "\n\n");
              g_string_append (summary, piece);
            }
        }
    }

  message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, has_text ? text->str : NULL);
  for (guint i = 0; i < calls->len; i++)
    tb_message_add_tool_call (message, g_ptr_array_index (calls, i));

  if (keep_output)
    json_object_set_array_member (data, DATA_OUTPUT, json_array_ref (output));
  if (summary->len > 0)
    json_object_set_string_member (data, DATA_SUMMARY, summary->str);
  /* The summaries are what a person can read of the reasoning; the items
   * themselves go back unchanged from the provider data. */
  tb_message_set_reasoning (message, summary->str);

  return message;
}

/* A whole response object, as a non-streamed body or the last event of a
 * stream brings it. @streamed: (nullable): the output items the stream
 * delivered one by one, for a server whose last event leaves them out. */
static TbProviderResponse *
response_from_object (TbOpenaiResponsesProvider  *self,
                      TbProviderRequest          *request,
                      JsonObject                 *root,
                      JsonArray                  *streamed,
                      GError                    **error)
{
  JsonArray *output = tb_json_object_get_array (root, "output");
  const char *status = tb_json_object_get_string (root, "status");
  const char *id = tb_json_object_get_string (root, "id");
  const char *finish_reason = status;
  g_autoptr(JsonObject) data = json_object_new ();
  g_autoptr(TbMessage) message = NULL;
  gboolean stored;

  if (root == NULL)
    {
      g_propagate_error (error, shape_error (_("it is not a JSON object")));
      return NULL;
    }
  if (output == NULL && json_object_has_member (root, "choices"))
    {
      g_propagate_error (error, chat_completions_error ());
      return NULL;
    }
  if (g_strcmp0 (status, "failed") == 0 || tb_json_object_get_object (root, "error") != NULL)
    {
      g_propagate_error (error, failed_error (root));
      return NULL;
    }
  if (g_strcmp0 (status, "incomplete") == 0)
    {
      JsonObject *details = tb_json_object_get_object (root, "incomplete_details");
      const char *reason = tb_json_object_get_string (details, "reason");

      /* Out of tokens: what came so far is the turn, cut short as with
       * Chat Completions' "length". Anything else (content_filter) is not
       * an answer to go on from. */
      if (g_strcmp0 (reason, "max_output_tokens") != 0)
        {
          g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TRUNCATED,
                       _("The provider stopped the response before it was complete (%s)."),
                       reason != NULL ? reason : _("it gave no reason"));
          return NULL;
        }
      finish_reason = "length";
    }
  if ((output == NULL || json_array_get_length (output) == 0) && streamed != NULL)
    output = streamed;
  if (output == NULL)
    {
      g_propagate_error (error, shape_error (_("it has no output array")));
      return NULL;
    }

  message = message_from_output (request, output, data, error);
  if (message == NULL)
    return NULL;

  /* The response says whether it was kept; a server that does not say is
   * taken to have done as asked. */
  stored = tb_json_object_get_boolean (root, "store", self->use_previous_response_id);
  if (id != NULL && *id != '\0')
    {
      json_object_set_string_member (data, DATA_RESPONSE_ID, id);
      if (stored)
        json_object_set_boolean_member (data, DATA_STORED, TRUE);
    }
  if (json_object_get_size (data) > 0)
    tb_message_set_provider_data (message, data);

  return tb_provider_response_new (message, finish_reason, json_object_get_member (root, "usage"));
}

static TbProviderResponse *
tb_openai_responses_provider_parse_response (TbHttpProvider     *provider,
                                             TbProviderRequest  *request,
                                             JsonNode           *body,
                                             GError            **error)
{
  return response_from_object (TB_OPENAI_RESPONSES_PROVIDER (provider), request,
                               JSON_NODE_HOLDS_OBJECT (body) ? json_node_get_object (body) : NULL,
                               NULL, error);
}

/* ---- streaming ------------------------------------------------------------ */

/* One output item as its events build it up. */
typedef struct
{
  gint64      index;       /* output_index */
  char       *item_id;
  JsonObject *item;        /* as added, then as done */
  gboolean    done;
  GString    *text;
  GString    *arguments;
  gint        call;        /* its position among the turn's calls, or -1 */
} Entry;

typedef struct
{
  TbProviderRequest *request;
  GPtrArray         *entries;
  guint              n_calls;
  JsonObject        *final;   /* the response of response.completed or .incomplete */
} Stream;

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->item_id);
  g_clear_pointer (&entry->item, json_object_unref);
  g_string_free (entry->text, TRUE);
  g_string_free (entry->arguments, TRUE);
  g_free (entry);
}

static gpointer
tb_openai_responses_provider_stream_new (TbHttpProvider    *provider,
                                         TbProviderRequest *request)
{
  Stream *stream = g_new0 (Stream, 1);

  stream->request = tb_provider_request_ref (request);
  stream->entries = g_ptr_array_new_with_free_func (entry_free);
  return stream;
}

static void
tb_openai_responses_provider_stream_free (gpointer data)
{
  Stream *stream = data;

  tb_provider_request_unref (stream->request);
  g_ptr_array_unref (stream->entries);
  g_clear_pointer (&stream->final, json_object_unref);
  g_free (stream);
}

/* The item an event is about: by output_index, else by item_id; a new one
 * when the item is not known yet. */
static Entry *
find_entry (Stream     *stream,
            JsonObject *root)
{
  JsonNode *index_node = json_object_get_member (root, "output_index");
  const char *item_id = tb_json_object_get_string (root, "item_id");
  gint64 index = -1;
  Entry *entry;

  if (index_node != NULL && JSON_NODE_HOLDS_VALUE (index_node) &&
      json_node_get_value_type (index_node) == G_TYPE_INT64)
    index = json_node_get_int (index_node);

  for (guint i = 0; i < stream->entries->len; i++)
    {
      entry = g_ptr_array_index (stream->entries, i);
      if ((index >= 0 && entry->index == index) ||
          (index < 0 && item_id != NULL && g_strcmp0 (entry->item_id, item_id) == 0))
        return entry;
    }
  /* An event that names neither is about the item being built. */
  if (index < 0 && item_id == NULL && stream->entries->len > 0)
    return g_ptr_array_index (stream->entries, stream->entries->len - 1);

  entry = g_new0 (Entry, 1);
  entry->index = index >= 0 ? index : (gint64) stream->entries->len;
  entry->item_id = g_strdup (item_id);
  entry->text = g_string_new (NULL);
  entry->arguments = g_string_new (NULL);
  entry->call = -1;
  g_ptr_array_add (stream->entries, entry);
  return entry;
}

static void
set_entry_item (Stream     *stream,
                Entry      *entry,
                JsonObject *item,
                TbProvider *provider)
{
  const char *type = tb_json_object_get_string (item, "type");

  g_clear_pointer (&entry->item, json_object_unref);
  entry->item = json_object_ref (item);
  if (entry->item_id == NULL)
    entry->item_id = g_strdup (tb_json_object_get_string (item, "id"));
  if (g_strcmp0 (type, "function_call") == 0 && entry->call < 0)
    {
      entry->call = stream->n_calls++;
      tb_provider_emit_tool_call_delta (provider, entry->call,
                                        tb_json_object_get_string (item, "call_id"),
                                        tb_json_object_get_string (item, "name"), NULL);
    }
}

static gint
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *ea = *(Entry * const *) a;
  const Entry *eb = *(Entry * const *) b;

  return ea->index < eb->index ? -1 : ea->index > eb->index;
}

/* The output items as the events delivered them: each as done, or as
 * added with the text and arguments streamed since. */
static JsonArray *
streamed_output (Stream *stream)
{
  JsonArray *output = json_array_new ();

  g_ptr_array_sort (stream->entries, compare_entries);
  for (guint i = 0; i < stream->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (stream->entries, i);
      const char *type = tb_json_object_get_string (entry->item, "type");
      JsonObject *item;

      if (entry->item == NULL)
        continue;
      if (entry->done)
        {
          json_array_add_object_element (output, json_object_ref (entry->item));
          continue;
        }

      item = json_object_new ();
      {
        JsonObjectIter iter;
        const char *member;
        JsonNode *value;

        json_object_iter_init (&iter, entry->item);
        while (json_object_iter_next (&iter, &member, &value))
          json_object_set_member (item, member, json_node_copy (value));
      }
      if (g_strcmp0 (type, "function_call") == 0)
        {
          json_object_set_string_member (item, "arguments", entry->arguments->str);
        }
      else if (g_strcmp0 (type, "message") == 0)
        {
          JsonArray *content = json_array_new ();
          JsonObject *part = json_object_new ();

          json_object_set_string_member (part, "type", "output_text");
          json_object_set_string_member (part, "text", entry->text->str);
          json_array_add_object_element (content, part);
          json_object_set_array_member (item, "content", content);
        }
      json_array_add_object_element (output, item);
    }

  return output;
}

static gboolean
tb_openai_responses_provider_stream_event (TbHttpProvider  *provider,
                                           gpointer         state,
                                           const char      *event,
                                           const char      *data,
                                           GError         **error)
{
  Stream *stream = state;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *root;
  const char *type;

  /* Some servers end every stream so; the turn still needs response.completed. */
  if (g_strcmp0 (g_strstrip ((char *) data), "[DONE]") == 0)
    return TRUE;

  node = _tb_provider_parse_event (data, error);
  if (node == NULL)
    return FALSE;
  root = json_node_get_object (node);
  type = tb_json_object_get_string (root, "type");
  if (type == NULL)
    type = event;

  if (json_object_has_member (root, "choices"))
    {
      g_propagate_error (error, chat_completions_error ());
      return FALSE;
    }

  if (g_str_equal (type, "response.output_item.added") ||
      g_str_equal (type, "response.output_item.done"))
    {
      JsonObject *item = tb_json_object_get_object (root, "item");
      Entry *entry;

      if (item == NULL)
        {
          g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                       _("The “%s” event in the response stream has no item"), type);
          return FALSE;
        }
      entry = find_entry (stream, root);
      set_entry_item (stream, entry, item, TB_PROVIDER (provider));
      entry->done = g_str_equal (type, "response.output_item.done");
    }
  else if (g_str_equal (type, "response.output_text.delta") ||
           g_str_equal (type, "response.refusal.delta"))
    {
      const char *piece = tb_json_object_get_string (root, "delta");

      if (piece != NULL && *piece != '\0')
        {
          g_string_append (find_entry (stream, root)->text, piece);
          tb_provider_emit_text_delta (TB_PROVIDER (provider), piece);
        }
    }
  else if (g_str_equal (type, "response.function_call_arguments.delta"))
    {
      const char *piece = tb_json_object_get_string (root, "delta");
      Entry *entry = find_entry (stream, root);

      if (entry->call < 0)
        entry->call = stream->n_calls++;
      if (piece != NULL)
        {
          g_string_append (entry->arguments, piece);
          tb_provider_emit_tool_call_delta (TB_PROVIDER (provider), entry->call, NULL, NULL,
                                            piece);
        }
    }
  else if (g_str_equal (type, "response.function_call_arguments.done"))
    {
      const char *arguments = tb_json_object_get_string (root, "arguments");

      if (arguments != NULL)
        g_string_assign (find_entry (stream, root)->arguments, arguments);
    }
  else if (g_str_equal (type, "response.completed") ||
           g_str_equal (type, "response.incomplete"))
    {
      JsonObject *response = tb_json_object_get_object (root, "response");

      if (response == NULL)
        {
          g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE,
                       _("The “%s” event in the response stream has no response"), type);
          return FALSE;
        }
      g_clear_pointer (&stream->final, json_object_unref);
      stream->final = json_object_ref (response);
    }
  else if (g_str_equal (type, "response.failed"))
    {
      g_propagate_error (error, failed_error (tb_json_object_get_object (root, "response")));
      return FALSE;
    }
  else if (g_str_equal (type, "error"))
    {
      const char *said = tb_json_object_get_string (root, "message");

      if (said == NULL)
        said = tb_json_object_get_string (tb_json_object_get_object (root, "error"), "message");
      _tb_provider_set_stream_error (error, said);
      return FALSE;
    }
  /* response.created, response.in_progress, content parts, reasoning
   * summaries as they grow and event types added later: the last event
   * brings what they built. */

  return TRUE;
}

static TbProviderResponse *
tb_openai_responses_provider_stream_finish (TbHttpProvider  *provider,
                                            gpointer         state,
                                            GError         **error)
{
  Stream *stream = state;
  g_autoptr(JsonArray) streamed = NULL;

  if (stream->final == NULL)
    /* Translators: completes "…ended before the model finished its turn (no %s)." */
    return _tb_http_provider_stream_ended_early (_("response.completed event"), error);

  streamed = streamed_output (stream);
  return response_from_object (TB_OPENAI_RESPONSES_PROVIDER (provider), stream->request,
                               stream->final, streamed, error);
}

/* response.completed (or .incomplete) carries the whole response and ends
 * the turn. */
static gboolean
tb_openai_responses_provider_stream_done (TbHttpProvider *provider,
                                          gpointer        state)
{
  Stream *stream = state;

  return stream->final != NULL;
}

/* ---- the object ----------------------------------------------------------- */

static void
tb_openai_responses_provider_get_property (GObject    *object,
                                           guint       prop_id,
                                           GValue     *value,
                                           GParamSpec *pspec)
{
  TbOpenaiResponsesProvider *self = TB_OPENAI_RESPONSES_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_USE_PREVIOUS_RESPONSE_ID:
      g_value_set_boolean (value, self->use_previous_response_id);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_openai_responses_provider_set_property (GObject      *object,
                                           guint         prop_id,
                                           const GValue *value,
                                           GParamSpec   *pspec)
{
  TbOpenaiResponsesProvider *self = TB_OPENAI_RESPONSES_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_USE_PREVIOUS_RESPONSE_ID:
      tb_openai_responses_provider_set_use_previous_response_id (self,
                                                                 g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_openai_responses_provider_class_init (TbOpenaiResponsesProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TbHttpProviderClass *http_class = TB_HTTP_PROVIDER_CLASS (klass);

  object_class->get_property = tb_openai_responses_provider_get_property;
  object_class->set_property = tb_openai_responses_provider_set_property;

  http_class->kind = "openai-responses";
  http_class->build_message = tb_openai_responses_provider_build_message;
  http_class->parse_response = tb_openai_responses_provider_parse_response;
  http_class->stream_new = tb_openai_responses_provider_stream_new;
  http_class->stream_free = tb_openai_responses_provider_stream_free;
  http_class->stream_event = tb_openai_responses_provider_stream_event;
  http_class->stream_finish = tb_openai_responses_provider_stream_finish;
  http_class->stream_done = tb_openai_responses_provider_stream_done;

  /**
   * TbOpenaiResponsesProvider:use-previous-response-id:
   *
   * Whether the provider keeps the conversation: requests say
   * `store: true`, and each names the last stored response of the
   * conversation as `previous_response_id` and sends only the items that
   * came after it (system messages still go as `instructions` every time).
   * Off by default: every request carries the whole conversation and
   * nothing is stored.
   */
  properties [PROP_USE_PREVIOUS_RESPONSE_ID] =
    g_param_spec_boolean ("use-previous-response-id", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_openai_responses_provider_init (TbOpenaiResponsesProvider *self)
{
}

/**
 * tb_openai_responses_provider_new:
 * @base_url: (nullable): e.g. `https://api.openai.com/v1`; %NULL for
 *   %TB_OPENAI_RESPONSES_DEFAULT_BASE_URL
 * @model: the model name
 * @api_key: (nullable): the key
 *
 * Makes a provider for OpenAI's Responses API (`POST /responses`).
 *
 * Returns: (transfer full): a new provider
 */
TbProvider *
tb_openai_responses_provider_new (const char *base_url,
                                  const char *model,
                                  const char *api_key)
{
  return tb_provider_new_for_kind ("openai-responses", base_url, model, api_key, NULL);
}

/**
 * tb_openai_responses_provider_get_use_previous_response_id:
 * @self: a provider
 *
 * Tells whether the provider sends only the new part of the conversation
 * with the id of the previous response, letting the server keep the rest.
 *
 * Returns: whether the provider keeps the conversation, see
 *   #TbOpenaiResponsesProvider:use-previous-response-id
 */
gboolean
tb_openai_responses_provider_get_use_previous_response_id (TbOpenaiResponsesProvider *self)
{
  g_return_val_if_fail (TB_IS_OPENAI_RESPONSES_PROVIDER (self), FALSE);
  return self->use_previous_response_id;
}

/**
 * tb_openai_responses_provider_set_use_previous_response_id:
 * @self: a provider
 * @use: whether the provider keeps the conversation
 *
 * See #TbOpenaiResponsesProvider:use-previous-response-id.
 */
void
tb_openai_responses_provider_set_use_previous_response_id (TbOpenaiResponsesProvider *self,
                                                           gboolean                   use)
{
  g_return_if_fail (TB_IS_OPENAI_RESPONSES_PROVIDER (self));

  use = !!use;
  if (self->use_previous_response_id == use)
    return;
  self->use_previous_response_id = use;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_USE_PREVIOUS_RESPONSE_ID]);
}
