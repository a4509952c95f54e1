/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-anthropic"

#include "config.h"

#include <string.h>

#include "tb-test-http.h"

typedef struct
{
  TestServer     *server;
  TbProvider     *provider;
  TbToolRegistry *registry;
  guint           note_calls;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->server = test_server_new ("x-api-key");
  f->provider = tb_anthropic_provider_new (f->server->base_url, "claude-test", "sk-ant-secret");
  tb_http_provider_set_retry_base_ms (TB_HTTP_PROVIDER (f->provider), 10);
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (f->provider), 3000);
  f->registry = test_registry_new (&f->note_calls);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_assert_finalize_object (f->provider);
  g_assert_finalize_object (f->registry);
  test_server_free (f->server);
}

static TbDispatchLoop *
make_loop (Fixture *f)
{
  TbDispatchLoop *loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  g_autoptr(TbMessage) system = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, "Be brief.");
  g_autoptr(GError) error = NULL;

  tb_dispatch_loop_add_message (loop, system, &error);
  tb_dispatch_loop_add_user_message (loop, "Note milk, then add 2 and 3.", &error);
  g_assert_no_error (error);
  return loop;
}

static const char first_turn[] =
  "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
  "\"content\":["
  "{\"type\":\"thinking\",\"thinking\":\"Two tools.\",\"signature\":\"sig-1\"},"
  "{\"type\":\"text\",\"text\":\"On it.\"},"
  "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"notes_add\",\"input\":{\"text\":\"milk\"}},"
  "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"add\",\"input\":{\"a\":2,\"b\":3}}],"
  "\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":20,\"output_tokens\":9}}";

static const char final_turn[] =
  "{\"id\":\"msg_2\",\"type\":\"message\",\"role\":\"assistant\",\"content\":["
  "{\"type\":\"text\",\"text\":\"Noted; the sum is 5.\"}],\"stop_reason\":\"end_turn\","
  "\"usage\":{\"input_tokens\":40,\"output_tokens\":7}}";

static void
test_loop_shape (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);
  JsonObject *sent;

  test_server_reply (f->server, 200, "application/json", first_turn);
  test_server_reply (f->server, 200, "application/json", final_turn);

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/v1/messages");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "sk-ant-secret");

  sent = test_server_request (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "model"), ==, "claude-test");
  g_assert_cmpint (json_object_get_int_member (sent, "max_tokens"), ==, 4096);
  g_assert_cmpstr (json_object_get_string_member (sent, "system"), ==, "Be brief.");
  test_assert_json_equal (json_object_get_member (sent, "messages"),
                          "[{\"role\":\"user\",\"content\":\"Note milk, then add 2 and 3.\"}]");
  {
    JsonArray *tools = json_object_get_array_member (sent, "tools");
    g_autofree char *text = tb_json_to_string (json_object_get_member (sent, "tools"), FALSE);

    g_assert_cmpuint (json_array_get_length (tools), ==, 4);
    g_assert_nonnull (strstr (text, "\"name\":\"notes_add\""));
    g_assert_nonnull (strstr (text, "\"input_schema\""));
    g_assert_null (strstr (text, "facts"));
  }
  g_assert_false (json_object_has_member (sent, "tool_choice"));

  /* Second request: the assistant turn as sent (thinking kept first), then
   * one user turn that starts with a tool_result for every tool_use. */
  sent = test_server_request (f->server, 1);
  test_assert_json_equal (json_object_get_member (sent, "messages"),
                          "[{\"role\":\"user\",\"content\":\"Note milk, then add 2 and 3.\"},"
                          "{\"role\":\"assistant\",\"content\":["
                          "{\"type\":\"thinking\",\"thinking\":\"Two tools.\","
                          "\"signature\":\"sig-1\"},"
                          "{\"type\":\"text\",\"text\":\"On it.\"},"
                          "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"notes_add\","
                          "\"input\":{\"text\":\"milk\"}},"
                          "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"add\","
                          "\"input\":{\"a\":2,\"b\":3}}]},"
                          "{\"role\":\"user\",\"content\":["
                          "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\","
                          "\"content\":\"milk\"},"
                          "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_2\","
                          "\"content\":\"5\"}]}]");

  /* The thinking is shown and recorded as the turn's reasoning. */
  {
    g_autoptr(TbMessage) turn = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 2);

    g_assert_cmpint (tb_message_get_role (turn), ==, TB_MESSAGE_ROLE_ASSISTANT);
    g_assert_cmpstr (tb_message_get_reasoning (turn), ==, "Two tools.");
  }
}

/* What the model called is echoed as it called it: a name Anthropic forbids
 * ("facts.commit"), a name of no tool, two calls of one tool; each result
 * answers its own tool_use id. */
static void
test_echo_as_sent (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);
  const char *blocks =
    "[{\"type\":\"tool_use\",\"id\":\"u1\",\"name\":\"facts.commit\",\"input\":{\"k\":\"v\"}},"
    "{\"type\":\"tool_use\",\"id\":\"u2\",\"name\":\"no_such_tool\",\"input\":{}},"
    "{\"type\":\"tool_use\",\"id\":\"u3\",\"name\":\"notes_add\",\"input\":{\"text\":\"a\"}},"
    "{\"type\":\"tool_use\",\"id\":\"u4\",\"name\":\"notes_add\",\"input\":{\"text\":\"b\"}}]";
  g_autofree char *first = g_strdup_printf ("{\"id\":\"msg_e\",\"type\":\"message\","
                                            "\"role\":\"assistant\",\"content\":%s,"
                                            "\"stop_reason\":\"tool_use\"}", blocks);
  g_autofree char *echo = g_strdup_printf ("{\"role\":\"assistant\",\"content\":%s}", blocks);
  JsonArray *messages;
  JsonArray *results;
  const char *ids[] = { "u1", "u2", "u3", "u4" };

  test_server_reply (f->server, 200, "application/json", first);
  test_server_reply (f->server, 200, "application/json", final_turn);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 2);

  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  test_assert_json_equal (json_array_get_element (messages, 1), echo);
  results = json_object_get_array_member (json_array_get_object_element (messages, 2),
                                          "content");
  g_assert_cmpuint (json_array_get_length (results), ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (results, i),
                                                    "tool_use_id"), ==, ids[i]);
}

static void
test_errors_as_results (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);
  JsonArray *messages;
  JsonObject *results;
  JsonObject *block;

  tb_dispatch_loop_set_parallel_tool_calls (loop, FALSE);
  tb_dispatch_loop_set_tool_choice (loop, "required");
  test_server_reply (f->server, 200, "application/json",
                     "{\"type\":\"message\",\"role\":\"assistant\",\"content\":["
                     "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"facts_commit\","
                     "\"input\":{\"text\":\"x\"}}],\"stop_reason\":\"tool_use\"}");
  test_server_reply (f->server, 200, "application/json", final_turn);

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  test_assert_json_equal (json_object_get_member (test_server_request (f->server, 0),
                                                  "tool_choice"),
                          "{\"type\":\"any\",\"disable_parallel_tool_use\":true}");

  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  results = json_array_get_object_element (messages, 2);
  block = json_array_get_object_element (json_object_get_array_member (results, "content"), 0);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "tool_result");
  g_assert_true (json_object_get_boolean_member (block, "is_error"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (block, "content"),
                                   "Error: There is no tool named “facts_commit”"));
}

static const char stream_body[] =
  "event: message_start\n"
  "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\","
  "\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\n\n"
  "event: content_block_start\n"
  "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\","
  "\"text\":\"\"}}\n\n"
  "event: ping\ndata: {\"type\":\"ping\"}\n\n"
  "event: content_block_delta\n"
  "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
  "\"text\":\"Adding\"}}\n\n"
  "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
  "event: content_block_start\n"
  "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\","
  "\"id\":\"toolu_s\",\"name\":\"add\",\"input\":{}}}\n\n"
  "event: content_block_delta\n"
  "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
  "\"partial_json\":\"{\\\"a\\\": 4\"}}\n\n"
  "event: content_block_delta\n"
  "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
  "\"partial_json\":\", \\\"b\\\": 6}\"}}\n\n"
  "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
  "event: content_block_start\n"
  "data: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\","
  "\"id\":\"toolu_e\",\"name\":\"echo\",\"input\":{}}}\n\n"
  "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n"
  "event: message_delta\n"
  "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
  "\"usage\":{\"output_tokens\":30}}\n\n"
  "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

static void
test_stream (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TbToolRegistry) tools = tb_tool_registry_get_model_tools (f->registry);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "4 + 6?");
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  TbToolCall *call;

  tb_provider_request_add_message (request, user);
  request->tools = g_object_ref (tools);
  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE, 200, stream_body, NULL);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (test_server_request (f->server, 0), "stream"));
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Adding");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 2);
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "toolu_s");
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{\"a\":4,\"b\":6}");
  /* A tool_use with no input pieces has empty arguments. */
  call = tb_message_get_tool_call (response->message, 1);
  test_assert_json_equal (tb_tool_call_get_arguments (call), "{}");
  g_assert_cmpstr (response->finish_reason, ==, "tool_use");
  test_assert_json_equal (response->usage, "{\"input_tokens\":12,\"output_tokens\":30}");
}

typedef struct
{
  ReplyMode   mode;
  guint       status;
  const char *body;
  guint       repeat;
  int         code;
  const char *message_part;
} ErrorCase;

static void
test_error (Fixture       *f,
            gconstpointer  data)
{
  const ErrorCase *c = data;
  g_autoptr(TbDispatchLoop) loop = make_loop (f);

  tb_dispatch_loop_set_stream (loop, c->mode == REPLY_SSE);
  tb_http_provider_set_max_retries (TB_HTTP_PROVIDER (f->provider), 1);
  for (guint i = 0; i < MAX (c->repeat, 1); i++)
    test_server_reply_full (f->server, c->mode, c->status, c->body, "0");

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  if (strstr (tb_dispatch_loop_get_error (loop)->message, c->message_part) == NULL)
    g_error ("“%s” does not contain “%s”", tb_dispatch_loop_get_error (loop)->message,
             c->message_part);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "end"), ==, 1);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "request"), ==,
                    MAX (c->repeat, 1));
}

static void
test_stream_malformed_input (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);
  JsonArray *messages;
  JsonObject *tool_use;
  JsonObject *result;

  tb_dispatch_loop_set_stream (loop, TRUE);
  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "event: message_start\ndata: {\"type\":\"message_start\","
                          "\"message\":{\"usage\":{}}}\n\n"
                          "event: content_block_start\ndata: {\"type\":\"content_block_start\","
                          "\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"bad\","
                          "\"name\":\"echo\",\"input\":{}}}\n\n"
                          "event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
                          "\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
                          "\"partial_json\":\"{\\\"text\\\": \"}}\n\n"
                          "event: content_block_stop\ndata: {\"type\":\"content_block_stop\","
                          "\"index\":0}\n\n"
                          "event: message_delta\ndata: {\"type\":\"message_delta\","
                          "\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n"
                          "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", NULL);
  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "event: message_start\ndata: {\"type\":\"message_start\","
                          "\"message\":{\"usage\":{}}}\n\n"
                          "event: message_delta\ndata: {\"type\":\"message_delta\","
                          "\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n"
                          "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", NULL);

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  /* The broken input goes back as {} and the model reads why it failed. */
  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  tool_use = json_array_get_object_element (
    json_object_get_array_member (json_array_get_object_element (messages, 1), "content"), 0);
  test_assert_json_equal (json_object_get_member (tool_use, "input"), "{}");
  result = json_array_get_object_element (
    json_object_get_array_member (json_array_get_object_element (messages, 2), "content"), 0);
  g_assert_cmpstr (json_object_get_string_member (result, "tool_use_id"), ==, "bad");
  g_assert_true (json_object_get_boolean_member (result, "is_error"));
  g_assert_nonnull (strstr (json_object_get_string_member (result, "content"),
                            "are not valid JSON"));
}

static const ErrorCase rate_limited = {
  REPLY_NORMAL, 429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
  "\"message\":\"Number of request tokens has exceeded your rate limit\"}}", 2, 0,
  "(HTTP 429) and still was after 1 retries: Number of request tokens" };

static const ErrorCase unauthorized = {
  REPLY_NORMAL, 401,
  "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
  "\"message\":\"invalid x-api-key\"}}", 1, 0, "(HTTP 401): invalid x-api-key" };
static const ErrorCase bad_request = {
  REPLY_NORMAL, 400,
  "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
  "\"message\":\"messages: tool_result block(s) missing\"}}", 1, 0,
  "refused the request (HTTP 400): messages: tool_result block(s) missing" };
static const ErrorCase overloaded = {
  REPLY_NORMAL, 503, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
  "\"message\":\"Overloaded\"}}", 2, 0, "(HTTP 503) after 1 retries: Overloaded" };
static const ErrorCase server_error = {
  REPLY_NORMAL, 500, "{\"type\":\"error\",\"error\":{\"type\":\"api_error\","
  "\"message\":\"Internal\"}}", 1, 0, "HTTP 500" };
static const ErrorCase stream_error = {
  REPLY_SSE, 200,
  "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{}}}\n\n"
  "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
  "\"message\":\"Overloaded\"}}\n\n", 1, 0, "in the middle of the stream: Overloaded" };
static const ErrorCase truncated = {
  REPLY_SSE, 200,
  "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{}}}\n\n"
  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
  "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", 1, 0, "no message_stop" };

static void
test_garbage_bodies (Fixture       *f,
                     gconstpointer  data)
{
  const char *bodies[] = {
    "{\"type\":\"message\",\"content\":null}",
    "{\"type\":\"message\",\"content\":[1,null,{\"type\":7}]}",
    "{\"type\":\"message\",\"content\":[{\"type\":\"tool_use\",\"id\":5,\"input\":[]}]}",
    "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\"}}",
    "{\"type\":\"content_block_stop\"}",
    "{\"type\":\"message_delta\",\"delta\":null,\"usage\":7}",
    NULL
  };

  test_garbage (f->server, f->provider, f->registry, bodies);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/providers/anthropic/loop-shape", Fixture, NULL, setup, test_loop_shape,
              teardown);
  g_test_add ("/providers/anthropic/errors-as-results", Fixture, NULL, setup,
              test_errors_as_results, teardown);
  g_test_add ("/providers/anthropic/stream", Fixture, NULL, setup, test_stream, teardown);
  g_test_add ("/providers/anthropic/echo-as-sent", Fixture, NULL, setup, test_echo_as_sent,
              teardown);
  g_test_add ("/providers/anthropic/garbage", Fixture, NULL, setup, test_garbage_bodies,
              teardown);
  g_test_add ("/providers/anthropic/error/401", Fixture, &unauthorized, setup, test_error,
              teardown);
  g_test_add ("/providers/anthropic/error/400", Fixture, &bad_request, setup, test_error,
              teardown);
  g_test_add ("/providers/anthropic/error/503", Fixture, &overloaded, setup, test_error,
              teardown);
  g_test_add ("/providers/anthropic/error/429", Fixture, &rate_limited, setup, test_error,
              teardown);
  g_test_add ("/providers/anthropic/stream-malformed-input", Fixture, NULL, setup,
              test_stream_malformed_input, teardown);
  g_test_add ("/providers/anthropic/error/500", Fixture, &server_error, setup, test_error,
              teardown);
  g_test_add ("/providers/anthropic/error/stream-error-event", Fixture, &stream_error, setup,
              test_error, teardown);
  g_test_add ("/providers/anthropic/error/truncated-stream", Fixture, &truncated, setup,
              test_error, teardown);

  return g_test_run ();
}
