/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-ollama"

#include "config.h"

#include <string.h>

#include "tb-test-http.h"

/* Ollama's native chat API against a SoupServer on 127.0.0.1. The replies
 * follow the examples of https://github.com/ollama/ollama/blob/main/docs/api.md
 * ("Generate a chat completion") and docs/api/errors.mdx. */

typedef ProviderFixture Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  /* A local server: no key. */
  provider_fixture_setup (f, "ollama", "llama3.2", NULL);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  provider_fixture_teardown (f);
}

static void
assert_contains (const char *text,
                 const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("“%s” does not contain “%s”", text, part);
}

/* The docs' "Chat request (No streaming, with tools)" answer. */
static const char call_response[] =
  "{\"model\":\"llama3.2\",\"created_at\":\"2025-07-07T20:32:53.844124Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
  "{\"function\":{\"name\":\"notes_add\",\"arguments\":{\"text\":\"milk\"}}}]},"
  "\"done_reason\":\"stop\",\"done\":true,\"total_duration\":3244883583,"
  "\"load_duration\":2969184542,\"prompt_eval_count\":169,"
  "\"prompt_eval_duration\":141656333,\"eval_count\":18,\"eval_duration\":133293625}";

static const char final_response[] =
  "{\"model\":\"llama3.2\",\"created_at\":\"2025-07-07T20:43:37.688511Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"Noted: milk.\"},"
  "\"done_reason\":\"stop\",\"done\":true,\"prompt_eval_count\":94,\"eval_count\":11}";

static void
test_request_shape (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) tools = tb_tool_registry_to_definitions (f->model_tools,
                                                               TB_DEFINITION_FORMAT_OPENAI);
  g_autofree char *tools_text = tb_json_to_string (tools, FALSE);
  g_autofree char *expected = NULL;
  TbToolCall *call;

  request->max_tokens = 200;
  test_server_reply (f->server, 200, "application/json", call_response);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/api/chat");
  /* No key, no header. */
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "");

  /* Exactly: stream false said outright, since Ollama streams by default;
   * max_tokens as options.num_predict; no tool_choice, which Ollama lacks. */
  expected = g_strdup_printf ("{\"model\":\"llama3.2\",\"messages\":["
                              "{\"role\":\"system\",\"content\":\"Be brief.\"},"
                              "{\"role\":\"user\",\"content\":\"Add a note.\"}],"
                              "\"tools\":%s,\"stream\":false,"
                              "\"options\":{\"num_predict\":200}}", tools_text);
  test_assert_json_equal (g_ptr_array_index (f->server->bodies, 0), expected);

  /* The tool definitions have the documented shape, with wire names only
   * and never the USER_ONLY tool. */
  {
    JsonArray *sent = json_object_get_array_member (test_server_request (f->server, 0), "tools");

    g_assert_cmpuint (json_array_get_length (sent), ==, 4);
    for (guint i = 0; i < json_array_get_length (sent); i++)
      {
        JsonObject *entry = json_array_get_object_element (sent, i);
        JsonObject *function = json_object_get_object_member (entry, "function");

        g_assert_cmpstr (json_object_get_string_member (entry, "type"), ==, "function");
        g_assert_true (g_regex_match_simple ("^[a-zA-Z0-9_-]{1,64}$",
                                             json_object_get_string_member (function, "name"),
                                             0, 0));
        g_assert_true (json_object_has_member (function, "description"));
        g_assert_true (json_object_has_member (function, "parameters"));
        g_assert_cmpstr (json_object_get_string_member (function, "name"), !=, "facts_commit");
      }
  }

  g_assert_null (tb_message_get_text (response->message));
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 1);
  call = tb_message_get_tool_call (response->message, 0);
  /* Ollama gave no id: the position in the turn is one. */
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_0");
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "notes.add");
  g_assert_cmpstr (tb_tool_call_get_wire_name (call), ==, "notes_add");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"text\":\"milk\"}");
  g_assert_cmpstr (response->finish_reason, ==, "stop");
  test_assert_json_equal (response->usage, "{\"prompt_eval_count\":169,\"eval_count\":18}");
  g_assert_cmpstr (tb_provider_get_kind (f->provider), ==, "ollama");
}

static void
test_key_as_bearer (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbProvider) proxied = tb_ollama_provider_new (f->server->base_url, "llama3.2",
                                                          "proxy-secret");
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = NULL;

  test_server_reply (f->server, 200, "application/json", final_response);
  response = test_complete (proxied, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "Bearer proxy-secret");
  body = tb_json_to_string (g_ptr_array_index (f->server->bodies, 0), FALSE);
  g_assert_null (strstr (body, "proxy-secret"));
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Noted: milk.");
}

/* Ollama has no tool_choice: "none" offers no tools; "required" and a
 * tool's name offer them all, and nothing can force a call. */
static void
test_tool_choice (Fixture       *f,
                  gconstpointer  data)
{
  static const char *const choices[] = { "none", "auto", "required", "notes.add" };

  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    {
      g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
      g_autoptr(TbProviderResponse) response = NULL;
      g_autoptr(GError) error = NULL;
      JsonObject *sent;

      request->tool_choice = g_strdup (choices[i]);
      test_server_reply (f->server, 200, "application/json", final_response);
      response = test_complete (f->provider, request, &error);
      g_assert_no_error (error);

      sent = test_server_request (f->server, i);
      g_assert_false (json_object_has_member (sent, "tool_choice"));
      g_assert_false (json_object_has_member (sent, "parallel_tool_calls"));
      g_assert_false (json_object_has_member (sent, "options"));
      g_assert_cmpint (json_object_has_member (sent, "tools"), ==, i > 0);
      g_assert_false (json_object_get_boolean_member (sent, "stream"));
    }
}

/* Two calls in one message (the docs' parallel example): each gets its
 * position as id; arguments given as a string are read as JSON. Newer
 * servers give ids, which are kept and sent back. */
static void
test_parallel_calls (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(TbProviderResponse) with_ids = NULL;
  g_autoptr(GError) error = NULL;
  TbToolCall *call;

  test_server_reply (f->server, 200, "application/json",
                     "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"\","
                     "\"tool_calls\":["
                     "{\"function\":{\"index\":0,\"name\":\"add\","
                     "\"arguments\":{\"a\":2,\"b\":3}}},"
                     "{\"function\":{\"index\":1,\"name\":\"echo\","
                     "\"arguments\":\"{\\\"text\\\":\\\"hi\\\"}\"}}]},"
                     "\"done_reason\":\"stop\",\"done\":true}");
  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 2);
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_0");
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "add");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"a\":2,\"b\":3}");
  call = tb_message_get_tool_call (response->message, 1);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_1");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"text\":\"hi\"}");
  g_assert_null (tb_tool_call_get_parse_error (call));

  test_server_reply (f->server, 200, "application/json",
                     "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
                     "{\"id\":\"call_k2x\",\"function\":{\"index\":0,\"name\":\"echo\","
                     "\"arguments\":{\"text\":\"a\"}}},"
                     "{\"id\":\"call_9qz\",\"function\":{\"index\":1,\"name\":\"echo\","
                     "\"arguments\":{\"text\":\"b\"}}}]},\"done\":true}");
  with_ids = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_tool_call_get_id (tb_message_get_tool_call (with_ids->message, 0)), ==,
                   "call_k2x");
  g_assert_cmpstr (tb_tool_call_get_id (tb_message_get_tool_call (with_ids->message, 1)), ==,
                   "call_9qz");
}

/* The docs' thinking example: the trace is kept beside the answer, not in
 * it, and goes back with its turn. */
static void
test_thinking (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderRequest) next = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(TbProviderResponse) second = NULL;
  g_autoptr(TbMessage) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *data_object;

  test_server_reply (f->server, 200, "application/json",
                     "{\"model\":\"qwen3\",\"message\":{\"role\":\"assistant\",\"content\":\"\","
                     "\"thinking\":\"The user wants a note. I should call notes_add.\","
                     "\"tool_calls\":[{\"function\":{\"name\":\"notes_add\","
                     "\"arguments\":{\"text\":\"milk\"}}}]},\"done_reason\":\"stop\","
                     "\"done\":true}");
  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_null (tb_message_get_text (response->message));
  data_object = tb_message_get_provider_data (response->message);
  g_assert_nonnull (data_object);
  g_assert_cmpstr (json_object_get_string_member (data_object, "ollama_thinking"), ==,
                   "The user wants a note. I should call notes_add.");
  g_assert_cmpstr (tb_message_get_reasoning (response->message), ==,
                   "The user wants a note. I should call notes_add.");

  tb_provider_request_add_message (next, response->message);
  result = tb_message_new_tool_result ("call_0", "notes.add", "milk", FALSE);
  tb_provider_request_add_message (next, result);
  test_server_reply (f->server, 200, "application/json", final_response);
  second = test_complete (f->provider, next, &error);
  g_assert_no_error (error);
  test_assert_json_equal (json_object_get_member (test_server_request (f->server, 1), "messages"),
                          "[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                          "{\"role\":\"user\",\"content\":\"Add a note.\"},"
                          "{\"role\":\"assistant\",\"content\":\"\","
                          "\"thinking\":\"The user wants a note. I should call notes_add.\","
                          "\"tool_calls\":[{\"function\":{\"name\":\"notes_add\","
                          "\"arguments\":{\"text\":\"milk\"}}}]},"
                          "{\"role\":\"tool\",\"tool_name\":\"notes_add\",\"content\":\"milk\"}]");
}

/* The docs' "Chat request (Streaming with tools)", with text, thinking and
 * a cut-up UTF-8 line before the call. */
static const char stream_body[] =
  "{\"model\":\"qwen3\",\"created_at\":\"2025-07-07T20:22:19.1Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"\",\"thinking\":\"Note \"},\"done\":false}\n"
  "{\"model\":\"qwen3\",\"created_at\":\"2025-07-07T20:22:19.1Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"\",\"thinking\":\"it.\"},\"done\":false}\n"
  "{\"model\":\"qwen3\",\"created_at\":\"2025-07-07T20:22:19.1Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"Grüße \u2014 \"},\"done\":false}\r\n"
  "\n"
  "{\"model\":\"qwen3\",\"created_at\":\"2025-07-07T20:22:19.1Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"adding.\"},\"done\":false}\n"
  "{\"model\":\"qwen3\",\"created_at\":\"2025-07-07T20:22:19.184789Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
  "{\"function\":{\"name\":\"notes_add\",\"arguments\":{\"text\":\"eggs\"}}},"
  "{\"function\":{\"name\":\"add\",\"arguments\":{\"a\":4,\"b\":5}}}]},\"done\":false}\n"
  "{\"model\":\"qwen3\",\"created_at\":\"2025-07-07T20:22:19.19314Z\","
  "\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done_reason\":\"stop\",\"done\":true,"
  "\"total_duration\":182242375,\"load_duration\":41295167,\"prompt_eval_count\":169,"
  "\"prompt_eval_duration\":24573166,\"eval_count\":15,\"eval_duration\":115959084}\n";

static void
record_text (TbProvider *provider,
             const char *text,
             GString    *out)
{
  g_string_append (out, text);
}

static void
record_call (TbProvider *provider,
             guint       index,
             const char *id,
             const char *name,
             const char *arguments,
             GString    *out)
{
  g_string_append_printf (out, "%u:%s:%s:%s;", index, id != NULL ? id : "",
                          name != NULL ? name : "", arguments != NULL ? arguments : "");
}

static void
check_streamed (Fixture            *f,
                TbProviderResponse *response)
{
  TbToolCall *call;

  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Grüße — adding.");
  g_assert_cmpstr (json_object_get_string_member (tb_message_get_provider_data (response->message),
                                                  "ollama_thinking"), ==, "Note it.");
  g_assert_cmpstr (tb_message_get_reasoning (response->message), ==, "Note it.");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 2);
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_0");
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "notes.add");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"text\":\"eggs\"}");
  call = tb_message_get_tool_call (response->message, 1);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_1");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"a\":4,\"b\":5}");
  g_assert_cmpstr (response->finish_reason, ==, "stop");
  test_assert_json_equal (response->usage, "{\"prompt_eval_count\":169,\"eval_count\":15}");
  g_assert_cmpstr (tb_provider_get_last_response_body (f->provider), ==, stream_body);
}

static void
test_stream (Fixture       *f,
             gconstpointer  data)
{
  ReplyMode mode = GPOINTER_TO_INT (data);
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) calls = g_string_new (NULL);

  request->stream = TRUE;
  test_server_reply_full (f->server, mode, 200, stream_body, NULL);
  g_signal_connect (f->provider, "text-delta", G_CALLBACK (record_text), text);
  g_signal_connect (f->provider, "tool-call-delta", G_CALLBACK (record_call), calls);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (test_server_request (f->server, 0), "stream"));

  /* Thinking is not text; each call arrives whole. */
  g_assert_cmpstr (text->str, ==, "Grüße — adding.");
  g_assert_cmpstr (calls->str, ==,
                   "0:call_0:notes_add:{\"text\":\"eggs\"};1:call_1:add:{\"a\":4,\"b\":5};");
  check_streamed (f, response);
}

/* A server that keeps the connection open after "done": true: the turn
 * ends there, without waiting for the timeout. */
static void
test_stream_done_ends_turn (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  request->stream = TRUE;
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (f->provider), 2000);
  test_server_reply_full (f->server, REPLY_NDJSON_HANG, 200, stream_body, NULL);
  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  check_streamed (f, response);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
}

static void
test_retry_then_success (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  /* Ollama's cloud models answer 429 when a limit is reached. */
  test_server_reply_full (f->server, REPLY_NORMAL, 429,
                          "{\"error\":\"too many requests\"}", "1");
  test_server_reply (f->server, 200, "application/json", final_response);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Noted: milk.");
  g_assert_cmpuint (f->server->bodies->len, ==, 2);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC);
}

/* Arguments sent as text that is not JSON: the turn goes on, the model
 * is told, and the raw text is kept. */
static void
test_broken_arguments (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbMessage) turn = NULL;
  g_autoptr(TbMessage) answer = NULL;
  TbToolCall *call;
  JsonArray *messages;
  JsonObject *result;

  test_server_reply (f->server, 200, "application/json",
                     "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
                     "{\"function\":{\"name\":\"echo\","
                     "\"arguments\":\"{\\\"text\\\": \\\"unterminated\"}}]},"
                     "\"done_reason\":\"stop\",\"done\":true}");
  test_server_reply (f->server, 200, "application/json", final_response);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_add_user_message (loop, "Echo it.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  turn = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 1);
  call = tb_message_get_tool_call (turn, 0);
  g_assert_null (tb_tool_call_get_arguments (call));
  g_assert_nonnull (tb_tool_call_get_parse_error (call));
  g_assert_cmpstr (tb_tool_call_get_raw_arguments (call), ==, "{\"text\": \"unterminated");

  /* The model is told what was wrong, under the tool's name; its call is
   * sent back with arguments Ollama accepts. */
  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  test_assert_json_equal (json_array_get_element (messages, 1),
                          "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
                          "{\"function\":{\"name\":\"echo\",\"arguments\":{}}}]}");
  result = json_array_get_object_element (messages, 2);
  g_assert_cmpstr (json_object_get_string_member (result, "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (result, "tool_name"), ==, "echo");
  assert_contains (json_object_get_string_member (result, "content"), "not valid JSON");
  answer = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 3);
  g_assert_cmpstr (tb_message_get_text (answer), ==, "Noted: milk.");
}

/* The loop over HTTP: two calls in one turn, then the answer. Results
 * name the tool as the model wrote it and keep the order of the calls;
 * the hidden tool is refused under its own name. */
static void
test_loop_over_http (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *messages;
  JsonObject *refused;
  TbTrace *trace;

  test_server_reply (f->server, 200, "application/json",
                     "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"\","
                     "\"tool_calls\":["
                     "{\"function\":{\"name\":\"notes_add\",\"arguments\":{\"text\":\"milk\"}}},"
                     "{\"function\":{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3.5}}},"
                     "{\"function\":{\"name\":\"facts_commit\",\"arguments\":{\"text\":\"x\"}}}]},"
                     "\"done_reason\":\"stop\",\"done\":true}");
  test_server_reply (f->server, 200, "application/json", final_response);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Note milk.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);

  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 5);
  test_assert_json_equal (json_array_get_element (messages, 1),
                          "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
                          "{\"function\":{\"name\":\"notes_add\","
                          "\"arguments\":{\"text\":\"milk\"}}},"
                          "{\"function\":{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3.5}}},"
                          "{\"function\":{\"name\":\"facts_commit\","
                          "\"arguments\":{\"text\":\"x\"}}}]}");
  test_assert_json_equal (json_array_get_element (messages, 2),
                          "{\"role\":\"tool\",\"tool_name\":\"notes_add\",\"content\":\"milk\"}");
  test_assert_json_equal (json_array_get_element (messages, 3),
                          "{\"role\":\"tool\",\"tool_name\":\"add\",\"content\":\"5.5\"}");
  refused = json_array_get_object_element (messages, 4);
  g_assert_cmpstr (json_object_get_string_member (refused, "tool_name"), ==, "facts_commit");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (refused, "content"),
                                   "Error: There is no tool named “facts_commit”"));
  /* The history goes back as it was, tools and all. */
  g_assert_true (json_object_has_member (test_server_request (f->server, 1), "tools"));

  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "response"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "tool-call"), ==, 3);
  g_assert_cmpuint (tb_trace_count (trace, "tool-result"), ==, 3);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
}

/* What the model called goes back exactly as it called it: a name of no
 * tool with a dot ("facts.commit"), a name of no tool, and two calls of one
 * tool; the results follow in order, each with its call's name. */
static void
test_echo_as_sent (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *messages;
  const char *calls =
    "[{\"function\":{\"name\":\"facts.commit\",\"arguments\":{\"k\":\"v\"}}},"
    "{\"function\":{\"name\":\"no_such_tool\",\"arguments\":{}}},"
    "{\"function\":{\"name\":\"notes_add\",\"arguments\":{\"text\":\"a\"}}},"
    "{\"function\":{\"name\":\"notes_add\",\"arguments\":{\"text\":\"b\"}}}]";
  g_autofree char *first = g_strdup_printf ("{\"model\":\"llama3.2\",\"message\":{\"role\":"
                                            "\"assistant\",\"content\":\"\",\"tool_calls\":%s},"
                                            "\"done_reason\":\"stop\",\"done\":true}", calls);
  g_autofree char *echo = g_strdup_printf ("{\"role\":\"assistant\",\"content\":\"\","
                                           "\"tool_calls\":%s}", calls);
  const char *names[] = { "facts.commit", "no_such_tool", "notes_add", "notes_add" };

  test_server_reply (f->server, 200, "application/json", first);
  test_server_reply (f->server, 200, "application/json", final_response);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Note a and b.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 2);

  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 6);
  test_assert_json_equal (json_array_get_element (messages, 1), echo);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages,
                                                                                   2 + i),
                                                    "tool_name"), ==, names[i]);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 5),
                                                  "content"), ==, "b");
}

static void
test_loop_stream (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbMessage) answer = NULL;
  JsonArray *messages;

  test_server_reply_full (f->server, REPLY_NDJSON, 200, stream_body, NULL);
  test_server_reply_full (f->server, REPLY_NDJSON, 200,
                          "{\"message\":{\"role\":\"assistant\",\"content\":\"Done.\"},"
                          "\"done\":false}\n"
                          "{\"message\":{\"role\":\"assistant\",\"content\":\"\"},"
                          "\"done_reason\":\"stop\",\"done\":true}\n", NULL);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_set_stream (loop, TRUE);
  tb_dispatch_loop_add_user_message (loop, "Hello", &error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);

  /* The streamed turn goes back whole: its text, thinking and calls. */
  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  test_assert_json_equal (json_array_get_element (messages, 1),
                          "{\"role\":\"assistant\",\"content\":\"Grüße — adding.\","
                          "\"thinking\":\"Note it.\",\"tool_calls\":["
                          "{\"function\":{\"name\":\"notes_add\","
                          "\"arguments\":{\"text\":\"eggs\"}}},"
                          "{\"function\":{\"name\":\"add\",\"arguments\":{\"a\":4,\"b\":5}}}]}");
  test_assert_json_equal (json_array_get_element (messages, 2),
                          "{\"role\":\"tool\",\"tool_name\":\"notes_add\",\"content\":\"eggs\"}");
  test_assert_json_equal (json_array_get_element (messages, 3),
                          "{\"role\":\"tool\",\"tool_name\":\"add\",\"content\":\"9\"}");
  answer = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 4);
  g_assert_cmpstr (tb_message_get_text (answer), ==, "Done.");
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "response"), ==, 2);
}

/* Newer servers give calls ids: they go back on the calls and results. */
static void
test_given_ids_echoed (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *messages;

  test_server_reply (f->server, 200, "application/json",
                     "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
                     "{\"id\":\"call_k2x\",\"function\":{\"index\":0,\"name\":\"echo\","
                     "\"arguments\":{\"text\":\"a\"}}}]},\"done\":true}");
  test_server_reply (f->server, 200, "application/json", final_response);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_add_user_message (loop, "Echo a.", &error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  test_assert_json_equal (json_array_get_element (messages, 1),
                          "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
                          "{\"id\":\"call_k2x\",\"function\":{\"name\":\"echo\","
                          "\"arguments\":{\"text\":\"a\"}}}]}");
  test_assert_json_equal (json_array_get_element (messages, 2),
                          "{\"role\":\"tool\",\"tool_name\":\"echo\",\"content\":\"a\","
                          "\"tool_call_id\":\"call_k2x\"}");
}

/* ---- bad input, each run through the loop --------------------------------- */

typedef struct
{
  ReplyMode   mode;
  guint       status;
  const char *body;
  const char *retry_after;
  guint       repeat;
  gboolean    stream;
  const char *model;
  int         code;
  const char *message;        /* the whole sentence, or … */
  const char *message_part;   /* … a part of it */
  const char *kept;           /* (nullable) what the recorded response must hold */
} ErrorCase;

static void
test_error (Fixture       *f,
            gconstpointer  data)
{
  const ErrorCase *c = data;
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  const GError *failure;
  TbTrace *trace;
  guint requests = MAX (c->repeat, 1);

  if (c->model != NULL)
    tb_http_provider_set_model (TB_HTTP_PROVIDER (f->provider), c->model);
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (f->provider), 300);
  tb_http_provider_set_max_retries (TB_HTTP_PROVIDER (f->provider), 2);

  /* The provider's own error … */
  for (guint i = 0; i < requests; i++)
    test_server_reply_full (f->server, c->mode, c->status, c->body, c->retry_after);
  request->stream = c->stream;
  response = test_complete (f->provider, request, &error);
  g_assert_null (response);
  g_assert_error (error, TB_PROVIDER_ERROR, c->code);
  if (c->message != NULL)
    g_assert_cmpstr (error->message, ==, c->message);
  else
    assert_contains (error->message, c->message_part);
  g_assert_cmpuint (f->server->bodies->len, ==, requests);

  /* … is the sentence a person sees when the loop fails on it. */
  for (guint i = 0; i < requests; i++)
    test_server_reply_full (f->server, c->mode, c->status, c->body, c->retry_after);
  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_set_stream (loop, c->stream);
  tb_dispatch_loop_add_user_message (loop, "Hello", NULL);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  failure = tb_dispatch_loop_get_error (loop);
  g_assert_error ((GError *) failure, TB_LOOP_ERROR, TB_LOOP_ERROR_MODEL);
  g_assert_cmpstr (failure->message, ==, error->message);

  /* What happened before the failure stays in the trace. */
  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, requests);
  g_assert_cmpuint (tb_trace_count (trace, "error"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
  if (c->kept != NULL)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
        {
          TbTraceEvent *event = tb_trace_get_event (trace, i);

          if (g_str_equal (tb_trace_event_get_event_type (event), "response"))
            found |= strstr (json_object_get_string_member (tb_trace_event_get_payload (event),
                                                            "body"), c->kept) != NULL;
        }
      g_assert_true (found);
    }
}

static const char openai_stream[] =
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
  "data: [DONE]\n\n";

static const ErrorCase no_tools = {
  REPLY_NORMAL, 400, "{\"error\":\"registry.ollama.ai/library/gemma2:latest does not support "
  "tools\"}", NULL, 1, FALSE, "gemma2", TB_PROVIDER_ERROR_BAD_REQUEST,
  "The model “gemma2” does not support tools in Ollama; choose a model with tool support, "
  "such as llama3.1 or qwen2.5.", NULL, "does not support tools" };
static const ErrorCase no_tools_short = {
  REPLY_NORMAL, 400, "{\"error\":\"\\\"phi\\\" does not support tools\"}", NULL, 1, TRUE, "phi",
  TB_PROVIDER_ERROR_BAD_REQUEST,
  "The model “phi” does not support tools in Ollama; choose a model with tool support, "
  "such as llama3.1 or qwen2.5.", NULL, NULL };
static const ErrorCase not_found = {
  REPLY_NORMAL, 404, "{\"error\":\"model \\\"llama9\\\" not found, try pulling it first\"}",
  NULL, 1, FALSE, "llama9", TB_PROVIDER_ERROR_BAD_REQUEST,
  "Ollama has no model “llama9”; run “ollama pull llama9” or choose another model.", NULL,
  "try pulling it first" };
static const ErrorCase bad_request = {
  REPLY_NORMAL, 400, "{\"error\":\"invalid message format\"}", NULL, 1, FALSE, NULL,
  TB_PROVIDER_ERROR_BAD_REQUEST,
  "The provider refused the request (HTTP 400): invalid message format", NULL, NULL };
static const ErrorCase server_error = {
  REPLY_NORMAL, 500, "{\"error\":\"llama runner process has terminated: exit status 2\"}", NULL,
  1, FALSE, NULL, TB_PROVIDER_ERROR_SERVER, NULL,
  "(HTTP 500) after 0 retries: llama runner process has terminated", NULL };
static const ErrorCase rate_limited = {
  REPLY_NORMAL, 429, "{\"error\":\"too many requests\"}", "0", 3, FALSE, NULL,
  TB_PROVIDER_ERROR_RATE_LIMITED, NULL, "after 2 retries: too many requests", NULL };
static const ErrorCase error_line = {
  REPLY_NDJSON, 200,
  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"Yes\"},"
  "\"done\":false}\n"
  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\".\"},"
  "\"done\":false}\n"
  "{\"error\":\"an error was encountered while running the model\"}\n", NULL, 1, TRUE, NULL,
  TB_PROVIDER_ERROR_SERVER,
  "Ollama reported an error in the middle of the response: an error was encountered while "
  "running the model", NULL, "\"content\":\"Yes\"" };
static const ErrorCase cut_line = {
  REPLY_NDJSON, 200,
  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"Hel\"},"
  "\"done\":false}\n"
  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"cont", NULL, 1, TRUE, NULL,
  TB_PROVIDER_ERROR_TRUNCATED, NULL,
  "ended in the middle of a line; the model's turn is incomplete. Try again.", "\"cont" };
static const ErrorCase no_done = {
  REPLY_NDJSON, 200,
  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"Hel\"},"
  "\"done\":false}\n"
  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"lo\"},"
  "\"done\":false}\n", NULL, 1, TRUE, NULL, TB_PROVIDER_ERROR_TRUNCATED,
  "The response stream ended before the model finished its turn (no line with “done”: true).",
  NULL, "\"content\":\"lo\"" };
static const ErrorCase garbled_line = {
  REPLY_NDJSON, 200, "{\"model\":\"llama3.2\",\"message\":{]]\n", NULL, 1, TRUE, NULL,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, NULL, "A line in the response stream is not a JSON object",
  NULL };
static const ErrorCase sse_instead = {
  REPLY_SSE, 200, openai_stream, NULL, 1, TRUE, NULL, TB_PROVIDER_ERROR_INVALID_RESPONSE, NULL,
  "sent server-sent events (text/event-stream), not the stream of JSON lines this provider "
  "reads; check that the base URL and the provider kind match the server.", "[DONE]" };
static const ErrorCase openai_json = {
  REPLY_NORMAL, 200,
  "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
  "{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}", NULL, 1, FALSE,
  NULL, TB_PROVIDER_ERROR_INVALID_RESPONSE,
  "The server answered in OpenAI's Chat Completions format, not Ollama's; remove “/v1” from "
  "the base URL, or choose the OpenAI-compatible kind for this server.", NULL,
  "chat.completion" };
static const ErrorCase openai_json_streamed = {
  REPLY_NORMAL, 200, "{\"choices\":[{\"message\":{\"content\":\"Hi\"}}]}", NULL, 1, TRUE, NULL,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, NULL, "OpenAI's Chat Completions format", NULL };
static const ErrorCase no_message = {
  REPLY_NORMAL, 200, "{\"model\":\"llama3.2\",\"done\":true}", NULL, 1, FALSE, NULL,
  TB_PROVIDER_ERROR_INVALID_RESPONSE,
  "The response is not an Ollama chat response: it has no “message” object", NULL, NULL };
static const ErrorCase html_page = {
  REPLY_NORMAL, 200, "<!DOCTYPE html><html><body>Ollama is running</body></html>", NULL, 1,
  FALSE, NULL, TB_PROVIDER_ERROR_INVALID_RESPONSE, NULL, "HTML page", NULL };
static const ErrorCase never_ends = {
  REPLY_NDJSON_HANG, 200,
  "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
  "\"done\":false}\n", NULL, 1, TRUE, NULL, TB_PROVIDER_ERROR_TIMEOUT, NULL,
  "sent nothing for 300 ms", NULL };
static const ErrorCase duplicate_ids = {
  REPLY_NORMAL, 200,
  "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":["
  "{\"id\":\"same\",\"function\":{\"name\":\"echo\",\"arguments\":{}}},"
  "{\"id\":\"same\",\"function\":{\"name\":\"echo\",\"arguments\":{}}}]},\"done\":true}", NULL, 1,
  FALSE, NULL, TB_PROVIDER_ERROR_INVALID_RESPONSE, NULL, "same id “same”", NULL };

/* A 10 MiB body, otherwise valid, whole or as lines: refused at the base
 * class's limit, with the requests kept in the trace. */
static void
test_huge_response (Fixture       *f,
                    gconstpointer  data)
{
  gboolean stream = GPOINTER_TO_INT (data);
  gsize size = 10 * 1024 * 1024;
  g_autoptr(GString) body = g_string_sized_new (size + 128);
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  const GError *failure;

  g_string_append (body, "{\"message\":{\"role\":\"assistant\",\"content\":\"");
  for (gsize i = 0; i < size; i++)
    g_string_append_c (body, 'x');
  g_string_append (body, "\"},\"done\":true}\n");
  test_server_reply_full (f->server, stream ? REPLY_NDJSON : REPLY_NORMAL, 200, body->str, NULL);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_set_stream (loop, stream);
  tb_dispatch_loop_add_user_message (loop, "Hello", &error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  failure = tb_dispatch_loop_get_error (loop);
  g_assert_error ((GError *) failure, TB_LOOP_ERROR, TB_LOOP_ERROR_MODEL);
  assert_contains (failure->message, "is larger than 8.0\u00a0MiB, the most Toolbench accepts; "
                                     "it was abandoned.");
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "request"), ==, 1);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "error"), ==, 1);
}

/* Nothing listens on a local port: the sentence says to start Ollama. */
static void
test_not_running (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *expected = NULL;
  TbTrace *trace;

  /* A port that was free a moment ago and is closed now. */
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("http://127.0.0.1:%u",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_socket_close (socket, NULL);

  provider = tb_ollama_provider_new (url, "llama3.2", NULL);
  tb_http_provider_set_max_retries (TB_HTTP_PROVIDER (provider), 0);
  loop = tb_dispatch_loop_new (f->registry, provider, 3);
  tb_dispatch_loop_add_user_message (loop, "Hello", &error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);

  expected = g_strdup_printf ("Ollama is not running at %s: nothing accepted the connection. "
                              "Start it with “ollama serve” (or open the Ollama app) and try "
                              "again.", url);
  g_assert_error ((GError *) tb_dispatch_loop_get_error (loop), TB_LOOP_ERROR,
                  TB_LOOP_ERROR_MODEL);
  g_assert_cmpstr (tb_dispatch_loop_get_error (loop)->message, ==, expected);
  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "error"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
}

/* Lines a broken or hostile server may send, whole or streamed: each
 * exchange ends in an error or a response, never a crash. */
static void
test_garbage_lines (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GString) deep = g_string_new ("{\"message\":");
  g_autoptr(GString) deep_args = g_string_new (NULL);
  const char *bodies[] = {
    "", "null", "[]", "{}", "7", "\"text\"", "{\"error\":7}", "{\"error\":{\"message\":\"x\"}}",
    "{\"message\":null}", "{\"message\":[]}", "{\"message\":{\"content\":5}}",
    "{\"message\":{\"tool_calls\":\"x\"},\"done\":true}",
    "{\"message\":{\"tool_calls\":[1,null,{}]},\"done\":true}",
    "{\"message\":{\"tool_calls\":[{\"function\":{\"name\":7,\"arguments\":[]}}]},\"done\":true}",
    "{\"message\":{\"tool_calls\":[{\"function\":{\"arguments\":null}}]},\"done\":true}",
    "{\"message\":{\"thinking\":[\"x\"],\"content\":\"\\ud800\"},\"done\":\"yes\"}",
    "{\"message\":{\"content\":\"a\\u0000b\"},\"done\":true}",
    "{\"done\":true,\"prompt_eval_count\":\"many\",\"eval_count\":-1}",
    "\xff\xfe{\"message\":{}}", "\n\n\n", "{\"done\":true}\n{\"done\":true}",
    "{\"message\":{},\"done\":[]}", "{\"message\":{},\"done\":{}}", "{\"done\":null}",
    "{\"message\":{},\"done\":true,\"done_reason\":[1]}",
    NULL, NULL,
  };

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  bodies[G_N_ELEMENTS (bodies) - 2] = deep->str;
  g_string_append (deep_args, "{\"message\":{\"tool_calls\":[{\"function\":{\"name\":\"echo\","
                              "\"arguments\":\"");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep_args, '[');
  g_string_append (deep_args, "\"}}]},\"done\":true}");

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      const char *body = bodies[i] != NULL ? bodies[i] : deep_args->str;

      for (guint stream = 0; stream < 2; stream++)
        {
          g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
          g_autoptr(TbProviderResponse) response = NULL;
          g_autoptr(GError) error = NULL;

          request->stream = stream;
          test_server_reply_full (f->server, stream ? REPLY_NDJSON : REPLY_NORMAL, 200, body,
                                  NULL);
          response = test_complete (f->provider, request, &error);
          g_assert_true ((response == NULL) != (error == NULL));
          if (error != NULL)
            g_assert_true (g_utf8_validate (error->message, -1, NULL));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/providers/ollama/request-shape", Fixture, NULL, setup, test_request_shape,
              teardown);
  g_test_add ("/providers/ollama/key-as-bearer", Fixture, NULL, setup, test_key_as_bearer,
              teardown);
  g_test_add ("/providers/ollama/tool-choice", Fixture, NULL, setup, test_tool_choice, teardown);
  g_test_add ("/providers/ollama/parallel-calls", Fixture, NULL, setup, test_parallel_calls,
              teardown);
  g_test_add ("/providers/ollama/thinking", Fixture, NULL, setup, test_thinking, teardown);
  g_test_add ("/providers/ollama/stream", Fixture, GINT_TO_POINTER (REPLY_NDJSON), setup,
              test_stream, teardown);
  g_test_add ("/providers/ollama/stream-drip", Fixture, GINT_TO_POINTER (REPLY_NDJSON_DRIP),
              setup, test_stream, teardown);
  g_test_add ("/providers/ollama/stream-done-ends-turn", Fixture, NULL, setup,
              test_stream_done_ends_turn, teardown);
  g_test_add ("/providers/ollama/retry-then-success", Fixture, NULL, setup,
              test_retry_then_success, teardown);
  g_test_add ("/providers/ollama/broken-arguments", Fixture, NULL, setup, test_broken_arguments,
              teardown);
  g_test_add ("/providers/ollama/loop", Fixture, NULL, setup, test_loop_over_http, teardown);
  g_test_add ("/providers/ollama/echo-as-sent", Fixture, NULL, setup, test_echo_as_sent,
              teardown);
  g_test_add ("/providers/ollama/loop-stream", Fixture, NULL, setup, test_loop_stream, teardown);
  g_test_add ("/providers/ollama/given-ids-echoed", Fixture, NULL, setup, test_given_ids_echoed,
              teardown);
  g_test_add ("/providers/ollama/error/no-tools", Fixture, &no_tools, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/no-tools-short", Fixture, &no_tools_short, setup,
              test_error, teardown);
  g_test_add ("/providers/ollama/error/model-not-found", Fixture, &not_found, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/400", Fixture, &bad_request, setup, test_error, teardown);
  g_test_add ("/providers/ollama/error/500", Fixture, &server_error, setup, test_error, teardown);
  g_test_add ("/providers/ollama/error/429", Fixture, &rate_limited, setup, test_error, teardown);
  g_test_add ("/providers/ollama/error/error-line", Fixture, &error_line, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/cut-line", Fixture, &cut_line, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/no-done", Fixture, &no_done, setup, test_error, teardown);
  g_test_add ("/providers/ollama/error/garbled-line", Fixture, &garbled_line, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/sse-instead", Fixture, &sse_instead, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/openai-json", Fixture, &openai_json, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/openai-json-streamed", Fixture, &openai_json_streamed,
              setup, test_error, teardown);
  g_test_add ("/providers/ollama/error/no-message", Fixture, &no_message, setup, test_error,
              teardown);
  g_test_add ("/providers/ollama/error/html", Fixture, &html_page, setup, test_error, teardown);
  g_test_add ("/providers/ollama/error/stream-never-ends", Fixture, &never_ends, setup,
              test_error, teardown);
  g_test_add ("/providers/ollama/error/duplicate-ids", Fixture, &duplicate_ids, setup,
              test_error, teardown);
  g_test_add ("/providers/ollama/error/huge-response", Fixture, GINT_TO_POINTER (FALSE), setup,
              test_huge_response, teardown);
  g_test_add ("/providers/ollama/error/huge-stream", Fixture, GINT_TO_POINTER (TRUE), setup,
              test_huge_response, teardown);
  g_test_add ("/providers/ollama/error/not-running", Fixture, NULL, setup, test_not_running,
              teardown);
  g_test_add ("/providers/ollama/garbage", Fixture, NULL, setup, test_garbage_lines,
              teardown);

  return g_test_run ();
}
