/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-openai"

#include "config.h"

#include <string.h>

#include "tb-test-http.h"

typedef ProviderFixture Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  provider_fixture_setup (f, "openai", "test-model", "sk-test-secret");
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  provider_fixture_teardown (f);
}

static void
test_request_shape (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *sent;
  JsonArray *tools;
  TbToolCall *call;
  g_autofree char *body_text = NULL;

  test_server_reply (f->server, 200, "application/json",
                     "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                     "\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                     "{\"id\":\"call_a\",\"type\":\"function\","
                     "\"function\":{\"name\":\"notes_add\","
                     "\"arguments\":\"{\\\"text\\\":\\\"milk\\\"}\"}}]},"
                     "\"finish_reason\":\"tool_calls\"}],"
                     "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,"
                     "\"total_tokens\":15}}");

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/chat/completions");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "Bearer sk-test-secret");

  sent = test_server_request (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "model"), ==, "test-model");
  test_assert_json_equal (json_object_get_member (sent, "messages"),
                          "[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                          "{\"role\":\"user\",\"content\":\"Add a note.\"}]");
  g_assert_true (json_object_get_boolean_member (sent, "parallel_tool_calls"));
  g_assert_false (json_object_has_member (sent, "stream"));
  g_assert_false (json_object_has_member (sent, "tool_choice"));

  /* Wire names only, and never the USER_ONLY tool. */
  tools = json_object_get_array_member (sent, "tools");
  g_assert_cmpuint (json_array_get_length (tools), ==, 4);
  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonObject *entry = json_array_get_object_element (tools, i);
      JsonObject *function = json_object_get_object_member (entry, "function");
      const char *name = json_object_get_string_member (function, "name");

      g_assert_true (g_regex_match_simple ("^[a-zA-Z0-9_-]{1,64}$", name, 0, 0));
      g_assert_cmpstr (name, !=, "facts_commit");
    }

  /* The key never appears in the body. */
  body_text = tb_json_to_string (g_ptr_array_index (f->server->bodies, 0), FALSE);
  g_assert_null (strstr (body_text, "sk-test-secret"));
  g_assert_null (strstr (tb_provider_get_last_request_body (f->provider), "sk-test-secret"));

  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 1);
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_a");
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "notes.add");
  g_assert_cmpstr (tb_tool_call_get_wire_name (call), ==, "notes_add");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"text\":\"milk\"}");
  g_assert_cmpstr (response->finish_reason, ==, "tool_calls");
  g_assert_nonnull (response->usage);
  g_assert_nonnull (strstr (tb_provider_get_last_response_body (f->provider), "call_a"));
}

static void
test_parallel_empty_malformed (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbProviderResponse) no_ids = NULL;
  TbToolCall *call;

  /* Servers that give calls no id, or an empty one, still work. */
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"tool_calls\":["
                     "{\"id\":\"\",\"function\":{\"name\":\"echo\",\"arguments\":\"{}\"}},"
                     "{\"function\":{\"name\":\"echo\",\"arguments\":\"{}\"}}]}}]}");
  no_ids = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_tool_call_get_id (tb_message_get_tool_call (no_ids->message, 0)), ==,
                   "call_0");
  g_assert_cmpstr (tb_tool_call_get_id (tb_message_get_tool_call (no_ids->message, 1)), ==,
                   "call_1");

  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Working.\","
                     "\"tool_calls\":["
                     "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"add\","
                     "\"arguments\":\"{\\\"a\\\":1,\\\"b\\\":2}\"}},"
                     "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"echo\","
                     "\"arguments\":\"\"}},"
                     "{\"id\":\"c3\",\"type\":\"function\",\"function\":{\"name\":\"echo\","
                     "\"arguments\":\"{\\\"text\\\": \\\"unterminated\"}}]},"
                     "\"finish_reason\":\"tool_calls\"}]}");

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Working.");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 3);

  call = tb_message_get_tool_call (response->message, 1);
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{}");
  g_assert_null (tb_tool_call_get_parse_error (call));

  call = tb_message_get_tool_call (response->message, 2);
  g_assert_null (tb_tool_call_get_arguments (call));
  g_assert_nonnull (tb_tool_call_get_parse_error (call));
  g_assert_cmpstr (tb_tool_call_get_raw_arguments (call), ==, "{\"text\": \"unterminated");
}

static const char stream_body[] =
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Sure\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\", adding.\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"s1\","
  "\"type\":\"function\",\"function\":{\"name\":\"notes_add\",\"arguments\":\"\"}}]}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"s2\","
  "\"type\":\"function\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"a\\\":\"}}]}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
  "\"function\":{\"arguments\":\"{\\\"te\"}}]}}]}\n\n"
  ": a comment line\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,"
  "\"function\":{\"arguments\":\"4,\\\"b\\\":5}\"}}]}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
  "\"function\":{\"arguments\":\"xt\\\":\\\"eggs\\\"}\"}}]}}]}\r\n\r\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
  "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}\n\n"
  "data: [DONE]\n\n";

static void
count_delta (TbProvider *provider,
             const char *text,
             GString    *out)
{
  g_string_append (out, text);
}

static void
record_call_delta (TbProvider *provider,
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
test_stream_drip (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = g_strconcat ("data: {\"choices\":[{\"index\":0,\"delta\":"
                                       "{\"content\":\"Grüße \u2014 \"}}]}\r\n\r\n",
                                       stream_body, NULL);

  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE_DRIP, 200, body, NULL);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Grüße — Sure, adding.");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 2);
  test_assert_json_equal (tb_tool_call_get_arguments (tb_message_get_tool_call (response->message,
                                                                                1)),
                          "{\"a\":4,\"b\":5}");
  g_assert_cmpstr (tb_provider_get_last_response_body (f->provider), ==, body);
}

static void
test_stream (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) deltas = g_string_new (NULL);
  JsonObject *sent;
  TbToolCall *call;

  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE, 200, stream_body, NULL);
  g_signal_connect (f->provider, "text-delta", G_CALLBACK (count_delta), deltas);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  sent = test_server_request (f->server, 0);
  g_assert_true (json_object_get_boolean_member (sent, "stream"));
  test_assert_json_equal (json_object_get_member (sent, "stream_options"),
                          "{\"include_usage\":true}");

  g_assert_cmpstr (deltas->str, ==, "Sure, adding.");
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Sure, adding.");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 2);
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "s1");
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "notes.add");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"text\":\"eggs\"}");
  call = tb_message_get_tool_call (response->message, 1);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "s2");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"a\":4,\"b\":5}");
  g_assert_cmpstr (response->finish_reason, ==, "tool_calls");
  test_assert_json_equal (response->usage, "{\"prompt_tokens\":3,\"completion_tokens\":4}");
  g_assert_cmpstr (tb_provider_get_last_response_body (f->provider), ==, stream_body);
}

typedef struct
{
  ReplyMode   mode;
  guint       status;
  const char *body;
  const char *retry_after;
  guint       repeat;
  int         code;
  const char *message_part;
  guint       requests;
} ErrorCase;

static void
test_error (Fixture       *f,
            gconstpointer  data)
{
  const ErrorCase *c = data;
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  if (c->mode == REPLY_SSE || c->mode == REPLY_SSE_HANG)
    request->stream = TRUE;
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (f->provider), 300);
  tb_http_provider_set_max_retries (TB_HTTP_PROVIDER (f->provider), 2);
  for (guint i = 0; i < MAX (c->repeat, 1); i++)
    test_server_reply_full (f->server, c->mode, c->status, c->body, c->retry_after);

  response = test_complete (f->provider, request, &error);
  g_assert_null (response);
  g_assert_error (error, TB_PROVIDER_ERROR, c->code);
  if (strstr (error->message, c->message_part) == NULL)
    g_error ("“%s” does not contain “%s”", error->message, c->message_part);
  g_assert_cmpuint (f->server->bodies->len, ==, c->requests);
}

static void
test_huge_response (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = 10 * 1024 * 1024;
  g_autofree char *body = g_malloc (size + 64);

  /* A 10 MiB, otherwise valid, response: refused at the documented limit. */
  strcpy (body, "{\"choices\":[{\"message\":{\"content\":\"");
  memset (body + strlen (body), 'x', size);
  strcpy (body + size, "\"}}]}");
  test_server_reply (f->server, 200, "application/json", body);

  response = test_complete (f->provider, request, &error);
  g_assert_null (response);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "larger than 8"));
}

static void
test_retry_then_success (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  test_server_reply_full (f->server, REPLY_NORMAL, 429,
                          "{\"error\":{\"message\":\"slow down\"}}", "1");
  test_server_reply_full (f->server, REPLY_NORMAL, 503, "{\"error\":{\"message\":\"busy\"}}",
                          NULL);
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Done\"},"
                     "\"finish_reason\":\"stop\"}]}");

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Done");
  g_assert_cmpuint (f->server->bodies->len, ==, 3);
  /* Retry-After: 1 was honoured. */
  g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC);
}

static void
test_loop_over_http (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *second;
  JsonArray *messages;
  TbTrace *trace;

  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
                     "\"tool_calls\":["
                     "{\"id\":\"t1\",\"type\":\"function\",\"function\":{\"name\":\"notes_add\","
                     "\"arguments\":\"{\\\"text\\\":\\\"milk\\\"}\"}},"
                     "{\"id\":\"t2\",\"type\":\"function\",\"function\":{\"name\":\"facts_commit\","
                     "\"arguments\":\"{\\\"text\\\":\\\"x\\\"}\"}}]},"
                     "\"finish_reason\":\"tool_calls\"}]}");
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Noted.\"},"
                     "\"finish_reason\":\"stop\"}]}");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Note milk.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);

  /* The assistant turn precedes its results; each result answers its id;
   * the hidden tool got a not-registered error. */
  second = test_server_request (f->server, 1);
  messages = json_object_get_array_member (second, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  test_assert_json_equal (json_array_get_element (messages, 1),
                          "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                          "{\"id\":\"t1\",\"type\":\"function\","
                          "\"function\":{\"name\":\"notes_add\","
                          "\"arguments\":\"{\\\"text\\\":\\\"milk\\\"}\"}},"
                          "{\"id\":\"t2\",\"type\":\"function\","
                          "\"function\":{\"name\":\"facts_commit\","
                          "\"arguments\":\"{\\\"text\\\":\\\"x\\\"}\"}}]}");
  test_assert_json_equal (json_array_get_element (messages, 2),
                          "{\"role\":\"tool\",\"tool_call_id\":\"t1\",\"content\":\"milk\"}");
  {
    JsonObject *refused = json_array_get_object_element (messages, 3);

    g_assert_cmpstr (json_object_get_string_member (refused, "tool_call_id"), ==, "t2");
    g_assert_true (g_str_has_prefix (json_object_get_string_member (refused, "content"),
                                     "Error: There is no tool named “facts_commit”"));
  }

  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "response"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "tool-call"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "tool-result"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      g_autoptr(JsonNode) node = tb_trace_event_to_json (tb_trace_get_event (trace, i));
      g_autofree char *line = tb_json_to_string (node, FALSE);

      g_assert_null (strstr (line, "sk-test-secret"));
    }
}

/* What the model called is echoed exactly as it called it, whatever the
 * registry made of it: a name OpenAI forbids ("facts.commit"), a name of
 * no tool, and two calls of one tool, each result answering its own id. */
static void
test_echo_as_sent (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *messages;
  const char *calls =
    "[{\"id\":\"a1\",\"type\":\"function\",\"function\":{\"name\":\"facts.commit\","
    "\"arguments\":\"{\\\"k\\\": \\\"v\\\"}\"}},"
    "{\"id\":\"a2\",\"type\":\"function\",\"function\":{\"name\":\"no_such_tool\","
    "\"arguments\":\"\"}},"
    "{\"id\":\"a3\",\"type\":\"function\",\"function\":{\"name\":\"notes_add\","
    "\"arguments\":\"{\\\"text\\\":\\\"a\\\"}\"}},"
    "{\"id\":\"a4\",\"type\":\"function\",\"function\":{\"name\":\"notes_add\","
    "\"arguments\":\"{ \\\"text\\\" : \\\"b\\\" }\"}}]";
  g_autofree char *first = g_strdup_printf ("{\"choices\":[{\"message\":{\"role\":\"assistant\","
                                            "\"content\":null,\"tool_calls\":%s},"
                                            "\"finish_reason\":\"tool_calls\"}]}", calls);
  g_autofree char *echo = g_strdup_printf ("{\"role\":\"assistant\",\"content\":null,"
                                           "\"tool_calls\":%s}", calls);
  const char *ids[] = { "a1", "a2", "a3", "a4" };

  test_server_reply (f->server, 200, "application/json", first);
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Ok.\"},"
                     "\"finish_reason\":\"stop\"}]}");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Note a and b.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 2);

  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 6);
  test_assert_json_equal (json_array_get_element (messages, 1), echo);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages,
                                                                                   2 + i),
                                                    "tool_call_id"), ==, ids[i]);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 5),
                                                  "content"), ==, "b");
}

/* Reasoning as OpenAI-compatible servers send it: `reasoning_content`
 * (DeepSeek, vLLM) is shown, recorded, and sent back with the turn that
 * called tools, as DeepSeek's thinking mode requires; `reasoning`
 * (OpenRouter) is shown and recorded only. Streamed deltas of both join. */
static void
test_reasoning (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *messages;
  GListModel *conversation;
  g_autoptr(TbMessage) first = NULL;
  g_autoptr(TbMessage) last = NULL;
  TbTrace *trace;
  gboolean recorded = FALSE;

  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\","
                          "\"reasoning_content\":\"The person wants \"}}]}\n\n"
                          "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"milk noted.\"}}]}"
                          "\n\n"
                          "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
                          "\"id\":\"r1\",\"type\":\"function\",\"function\":{\"name\":\"notes_add\","
                          "\"arguments\":\"{\\\"text\\\":\\\"milk\\\"}\"}}]},"
                          "\"finish_reason\":\"tool_calls\"}]}\n\n"
                          "data: [DONE]\n\n", NULL);
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Noted.\","
                     "\"reasoning\":\"Done, say so.\"},\"finish_reason\":\"stop\"}]}");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_set_stream (loop, TRUE);
  tb_dispatch_loop_add_user_message (loop, "Note milk.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  test_assert_json_equal (json_array_get_element (messages, 1),
                          "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                          "{\"id\":\"r1\",\"type\":\"function\","
                          "\"function\":{\"name\":\"notes_add\","
                          "\"arguments\":\"{\\\"text\\\":\\\"milk\\\"}\"}}],"
                          "\"reasoning_content\":\"The person wants milk noted.\"}");

  conversation = tb_dispatch_loop_get_messages (loop);
  first = g_list_model_get_item (conversation, 1);
  last = g_list_model_get_item (conversation, g_list_model_get_n_items (conversation) - 1);
  g_assert_cmpstr (tb_message_get_reasoning (first), ==, "The person wants milk noted.");
  g_assert_cmpstr (tb_message_get_reasoning (last), ==, "Done, say so.");
  g_assert_null (tb_message_get_provider_data (last));

  trace = tb_dispatch_loop_get_trace (loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      g_autoptr(JsonNode) node = tb_trace_event_to_json (tb_trace_get_event (trace, i));
      g_autofree char *line = tb_json_to_string (node, FALSE);

      recorded |= strstr (line, "\"reasoning\":\"Done, say so.\"") != NULL;
    }
  g_assert_true (recorded);
}

static void
test_loop_fails_cleanly (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  TbTrace *trace;

  test_server_reply (f->server, 502, "text/html",
                     "<html><head><title>502 Bad Gateway</title></head></html>");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_add_user_message (loop, "Hello", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (loop)->message, "HTML page"));

  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "response"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "error"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
}

static gboolean
cancel_loop (gpointer user_data)
{
  tb_dispatch_loop_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_loop_cancel_mid_request (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;

  test_server_reply_full (f->server, REPLY_HANG, 200, "", NULL);
  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_add_user_message (loop, "Hello", &error);
  g_timeout_add (100, cancel_loop, loop);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_CANCELLED);
  g_assert_null (tb_dispatch_loop_get_error (loop));
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "request"), ==, 1);
}

static void
test_loop_stream (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) calls = g_string_new (NULL);
  g_autoptr(TbMessage) result = NULL;

  test_server_reply_full (f->server, REPLY_SSE, 200, stream_body, NULL);
  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},"
                          "\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n", NULL);
  g_signal_connect (f->provider, "tool-call-delta", G_CALLBACK (record_call_delta), calls);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_set_stream (loop, TRUE);
  tb_dispatch_loop_add_user_message (loop, "Hello", &error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  /* Fragments as they came: id and name in the first of each index. */
  g_assert_cmpstr (calls->str, ==,
                   "0:s1:notes_add:;1:s2:add:{\"a\":;0:::{\"te;1:::4,\"b\":5};"
                   "0:::xt\":\"eggs\"};");
  g_assert_cmpuint (f->note_calls, ==, 1);
  result = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 2);
  g_assert_cmpstr (tb_message_get_text (result), ==, "eggs");
  /* The trace keeps the raw event stream as the response body. */
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "response"), ==, 2);
}

/* Bodies a broken or hostile server may send: each must end in an error
 * or a response, never a crash. */
static void
test_garbage_bodies (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GString) deep = g_string_new ("{\"choices\":");
  g_autoptr(GString) deep_args = g_string_new (NULL);
  const char *bodies[] = {
    "",
    "null",
    "[]",
    "{\"choices\":null}",
    "{\"choices\":[null]}",
    "{\"choices\":[{\"message\":[]}]}",
    "{\"choices\":[{\"message\":{\"content\":5}}]}",
    "{\"choices\":[{\"message\":{\"tool_calls\":\"x\"}}]}",
    "{\"choices\":[{\"message\":{\"tool_calls\":[1,null,{}]}}]}",
    "{\"choices\":[{\"message\":{\"tool_calls\":[{\"function\":{\"name\":7,"
    "\"arguments\":[]}}]}}]}",
    "{\"choices\":[{\"message\":{\"content\":\"\\ud800\"}}]}",
    "{\"choices\":[{\"message\":{\"content\":\"a\\u0000b\"}}]}",
    "\xff\xfe{\"choices\":[]}",
    "{\"error\":{\"message\":\"model overloaded\"}}",
    NULL, NULL,
  };

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  bodies[G_N_ELEMENTS (bodies) - 2] = deep->str;
  g_string_append (deep_args, "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"d\","
                              "\"function\":{\"name\":\"echo\",\"arguments\":\"");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep_args, '[');
  g_string_append (deep_args, "\"}}]}}]}");

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      const char *body = bodies[i] != NULL ? bodies[i] : deep_args->str;

      for (guint stream = 0; stream < 2; stream++)
        {
          g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
          g_autoptr(TbProviderResponse) response = NULL;
          g_autoptr(GError) error = NULL;
          g_autofree char *event = g_strdup_printf ("data: %s\n\n", body);

          request->stream = stream;
          if (stream)
            test_server_reply_full (f->server, REPLY_SSE, 200, event, NULL);
          else
            test_server_reply (f->server, 200, "application/json", body);

          response = test_complete (f->provider, request, &error);
          g_assert_true ((response == NULL) != (error == NULL));
          if (error != NULL)
            g_assert_true (g_utf8_validate (error->message, -1, NULL));
        }
    }
}

static const ErrorCase bad_request = {
  REPLY_NORMAL, 400, "{\"error\":{\"message\":\"Invalid schema for function\"}}", NULL, 1,
  TB_PROVIDER_ERROR_BAD_REQUEST, "(HTTP 400): Invalid schema for function", 1 };
static const ErrorCase unauthorized = {
  REPLY_NORMAL, 401, "{\"error\":{\"message\":\"Incorrect API key provided\"}}", NULL, 1,
  TB_PROVIDER_ERROR_UNAUTHORIZED, "did not accept the API key (HTTP 401)", 1 };
static const ErrorCase rate_limited = {
  REPLY_NORMAL, 429, "{\"error\":{\"message\":\"Rate limit reached\"}}", "0", 3,
  TB_PROVIDER_ERROR_RATE_LIMITED, "after 2 retries: Rate limit reached", 3 };
static const ErrorCase too_long_wait = {
  REPLY_NORMAL, 429, "{\"error\":{\"message\":\"quota\"}}", "3600", 1,
  TB_PROVIDER_ERROR_RATE_LIMITED, "quota", 1 };
static const ErrorCase server_error = {
  REPLY_NORMAL, 500, "{\"error\":{\"message\":\"The server had an error\"}}", NULL, 1,
  TB_PROVIDER_ERROR_SERVER, "HTTP 500", 1 };
static const ErrorCase html_page = {
  REPLY_NORMAL, 200, "<!DOCTYPE html><html><body>Welcome</body></html>", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, "HTML page", 1 };
static const ErrorCase not_json = {
  REPLY_NORMAL, 200, "ok then", NULL, 1, TB_PROVIDER_ERROR_INVALID_RESPONSE, "is not JSON", 1 };
static const ErrorCase wrong_shape = {
  REPLY_NORMAL, 200, "{\"choices\":[]}", NULL, 1, TB_PROVIDER_ERROR_INVALID_RESPONSE,
  "choices[0].message", 1 };
static const ErrorCase duplicate_ids = {
  REPLY_NORMAL, 200,
  "{\"choices\":[{\"message\":{\"tool_calls\":["
  "{\"id\":\"same\",\"function\":{\"name\":\"echo\",\"arguments\":\"{}\"}},"
  "{\"id\":\"same\",\"function\":{\"name\":\"echo\",\"arguments\":\"{}\"}}]}}]}", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, "same id “same”", 1 };
static const ErrorCase truncated = {
  REPLY_SSE, 200,
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"cont", NULL, 1,
  TB_PROVIDER_ERROR_TRUNCATED, "ended before the model finished", 1 };
static const ErrorCase garbled_event = {
  REPLY_SSE, 200, "data: {\"choices\":[{\"index\":0,\"delta\":{]]}\n\n", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, "not a JSON object", 1 };
static const ErrorCase never_ends = {
  REPLY_SSE_HANG, 200, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n",
  NULL, 1, TB_PROVIDER_ERROR_TIMEOUT, "sent nothing for 300 ms", 1 };
static const ErrorCase no_answer = {
  REPLY_HANG, 200, "", NULL, 1, TB_PROVIDER_ERROR_TIMEOUT, "sent nothing for 300 ms", 1 };
static const ErrorCase closed = {
  REPLY_CLOSE, 200, "", NULL, 1, TB_PROVIDER_ERROR_CONNECTION, "", 1 };

/* Numbers go to the model as the person or the model wrote them: the
 * arguments 3.14 and 0.1 are "3.14" and "0.1" in the request body. */
static void
test_numbers_as_written (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(TbMessage) turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(TbMessage) result = tb_message_new_tool_result ("call_n", "notes.add", "0.1", FALSE);
  g_autoptr(JsonNode) arguments = tb_json_parse ("{\"text\":\"pi\",\"at\":3.14,\"of\":[0.1,2.0]}",
                                                 -1, NULL);
  g_autoptr(TbToolCall) call = tb_tool_call_new ("call_n", "notes.add", arguments);
  g_autoptr(GError) error = NULL;
  const char *body;

  tb_message_add_tool_call (turn, call);
  tb_provider_request_add_message (request, turn);
  tb_provider_request_add_message (request, result);
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                     "\"content\":\"Done.\"},\"finish_reason\":\"stop\"}]}");
  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  body = tb_provider_get_last_request_body (f->provider);
  g_assert_nonnull (strstr (body, "3.14"));
  g_assert_null (strstr (body, "3.1400000000000001"));
  g_assert_null (strstr (body, "0.10000000000000001"));
}

/* One function makes every kind of HTTP provider; an unknown kind is a
 * clear error naming the known ones. */
static void
test_new_for_kind (void)
{
  static const char *const kinds[] = { "openai", "openai-responses", "anthropic", "gemini",
                                       "ollama" };
  g_autoptr(GError) error = NULL;
  g_autoptr(TbProvider) unknown = NULL;

  g_assert_cmpuint (g_strv_length ((char **) tb_provider_kinds ()), ==, G_N_ELEMENTS (kinds));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(TbProvider) provider = tb_provider_new_for_kind (kinds[i], "http://127.0.0.1:1",
                                                                 NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (tb_provider_get_kind (provider), ==, kinds[i]);
    }
  unknown = tb_provider_new_for_kind ("ollama-native", NULL, "m", NULL, &error);
  g_assert_null (unknown);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONFIG);
  g_assert_cmpstr (error->message, ==,
                   "Unknown provider “ollama-native”: use one of openai, openai-responses, "
                   "anthropic, gemini, ollama");
  /* The Responses format: its label, its public endpoint, OpenAI's key. */
  g_assert_cmpstr (tb_provider_kind_get_label ("openai-responses"), ==, "OpenAI Responses");
  g_assert_cmpstr (tb_provider_kind_get_default_base_url ("openai-responses"), ==,
                   "https://api.openai.com/v1");
  g_assert_cmpstr (tb_provider_kind_get_key_variable ("openai-responses"), ==, "OPENAI_API_KEY");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/providers/openai/request-shape", Fixture, NULL, setup, test_request_shape,
              teardown);
  g_test_add_func ("/providers/new-for-kind", test_new_for_kind);
  g_test_add ("/providers/openai/numbers-as-written", Fixture, NULL, setup,
              test_numbers_as_written, teardown);
  g_test_add ("/providers/openai/parallel-empty-malformed", Fixture, NULL, setup,
              test_parallel_empty_malformed, teardown);
  g_test_add ("/providers/openai/stream", Fixture, NULL, setup, test_stream, teardown);
  g_test_add ("/providers/openai/stream-drip", Fixture, NULL, setup, test_stream_drip,
              teardown);
  g_test_add ("/providers/openai/retry-then-success", Fixture, NULL, setup,
              test_retry_then_success, teardown);
  g_test_add ("/providers/openai/huge-response", Fixture, NULL, setup, test_huge_response,
              teardown);
  g_test_add ("/providers/openai/error/400", Fixture, &bad_request, setup, test_error, teardown);
  g_test_add ("/providers/openai/error/401", Fixture, &unauthorized, setup, test_error, teardown);
  g_test_add ("/providers/openai/error/429", Fixture, &rate_limited, setup, test_error, teardown);
  g_test_add ("/providers/openai/error/429-long-wait", Fixture, &too_long_wait, setup, test_error,
              teardown);
  g_test_add ("/providers/openai/error/500", Fixture, &server_error, setup, test_error, teardown);
  g_test_add ("/providers/openai/error/html", Fixture, &html_page, setup, test_error, teardown);
  g_test_add ("/providers/openai/error/not-json", Fixture, &not_json, setup, test_error,
              teardown);
  g_test_add ("/providers/openai/error/wrong-shape", Fixture, &wrong_shape, setup, test_error,
              teardown);
  g_test_add ("/providers/openai/error/duplicate-ids", Fixture, &duplicate_ids, setup,
              test_error, teardown);
  g_test_add ("/providers/openai/error/truncated-stream", Fixture, &truncated, setup, test_error,
              teardown);
  g_test_add ("/providers/openai/error/garbled-event", Fixture, &garbled_event, setup,
              test_error, teardown);
  g_test_add ("/providers/openai/error/stream-never-ends", Fixture, &never_ends, setup,
              test_error, teardown);
  g_test_add ("/providers/openai/error/no-answer", Fixture, &no_answer, setup, test_error,
              teardown);
  g_test_add ("/providers/openai/error/connection-closed", Fixture, &closed, setup, test_error,
              teardown);
  g_test_add ("/providers/openai/loop", Fixture, NULL, setup, test_loop_over_http, teardown);
  g_test_add ("/providers/openai/echo-as-sent", Fixture, NULL, setup, test_echo_as_sent,
              teardown);
  g_test_add ("/providers/openai/reasoning", Fixture, NULL, setup, test_reasoning, teardown);
  g_test_add ("/providers/openai/loop-fails-cleanly", Fixture, NULL, setup,
              test_loop_fails_cleanly, teardown);
  g_test_add ("/providers/openai/loop-cancel-mid-request", Fixture, NULL, setup,
              test_loop_cancel_mid_request, teardown);
  g_test_add ("/providers/openai/loop-stream", Fixture, NULL, setup, test_loop_stream, teardown);
  g_test_add ("/providers/openai/garbage", Fixture, NULL, setup, test_garbage_bodies,
              teardown);

  return g_test_run ();
}
