/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-gemini"

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
  g_autofree char *base = NULL;

  f->server = test_server_new ("x-goog-api-key");
  base = g_strconcat (f->server->base_url, "/v1beta", NULL);
  f->provider = tb_gemini_provider_new (base, "gemini-test", "AIza-secret");
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
  tb_dispatch_loop_add_user_message (loop, "Note milk and add 2 and 3.", &error);
  g_assert_no_error (error);
  return loop;
}

/* Calls with and without ids, a thought signature, and STOP as the reason. */
static const char first_turn[] =
  "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
  "{\"text\":\"Two calls are needed.\",\"thought\":true},"
  "{\"functionCall\":{\"name\":\"notes.add\",\"args\":{\"text\":\"milk\"}},"
  "\"thoughtSignature\":\"c2lnLTE=\"},"
  "{\"functionCall\":{\"id\":\"fc-2\",\"name\":\"add\",\"args\":{\"a\":2,\"b\":3}}}]},"
  "\"finishReason\":\"STOP\",\"index\":0}],"
  "\"usageMetadata\":{\"promptTokenCount\":30,\"candidatesTokenCount\":8}}";

static const char final_turn[] =
  "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Done: 5.\"}]},"
  "\"finishReason\":\"STOP\"}]}";

static void
test_loop_shape (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);
  JsonObject *sent;
  g_autofree char *tools = NULL;

  test_server_reply (f->server, 200, "application/json", first_turn);
  test_server_reply (f->server, 200, "application/json", final_turn);

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);

  /* The key is a header, never in the URL. */
  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==,
                   "/v1beta/models/gemini-test:generateContent");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "AIza-secret");

  sent = test_server_request (f->server, 0);
  test_assert_json_equal (json_object_get_member (sent, "systemInstruction"),
                          "{\"parts\":[{\"text\":\"Be brief.\"}]}");
  test_assert_json_equal (json_object_get_member (sent, "contents"),
                          "[{\"role\":\"user\",\"parts\":[{\"text\":\"Note milk and add 2 and "
                          "3.\"}]}]");
  tools = tb_json_to_string (json_object_get_member (sent, "tools"), FALSE);
  g_assert_true (g_str_has_prefix (tools, "[{\"functionDeclarations\":["));
  g_assert_nonnull (strstr (tools, "\"name\":\"notes.add\""));
  g_assert_null (strstr (tools, "additionalProperties"));
  g_assert_null (strstr (tools, "$schema"));
  g_assert_null (strstr (tools, "facts"));

  /* The model turn comes back as sent: no invented id, the signature kept;
   * the responses answer in one user turn, with the id only where given. */
  sent = test_server_request (f->server, 1);
  test_assert_json_equal (json_object_get_member (sent, "contents"),
                          "[{\"role\":\"user\",\"parts\":[{\"text\":\"Note milk and add 2 and "
                          "3.\"}]},"
                          "{\"role\":\"model\",\"parts\":["
                          "{\"functionCall\":{\"name\":\"notes.add\",\"args\":{\"text\":\"milk\"}},"
                          "\"thoughtSignature\":\"c2lnLTE=\"},"
                          "{\"functionCall\":{\"name\":\"add\",\"args\":{\"a\":2,\"b\":3},"
                          "\"id\":\"fc-2\"}}]},"
                          "{\"role\":\"user\",\"parts\":["
                          "{\"functionResponse\":{\"name\":\"notes.add\","
                          "\"response\":{\"output\":\"milk\"}}},"
                          "{\"functionResponse\":{\"name\":\"add\",\"id\":\"fc-2\","
                          "\"response\":{\"output\":\"5\"}}}]}]");

  /* The thought summary was not sent back, but it is the turn's reasoning. */
  {
    g_autoptr(TbMessage) turn = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 2);

    g_assert_cmpstr (tb_message_get_reasoning (turn), ==, "Two calls are needed.");
  }
}

static const char stream_body[] =
  "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Let me \"}]}}]}"
  "\r\n\r\n"
  "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"check.\"},"
  "{\"functionCall\":{\"name\":\"echo\",\"args\":{\"text\":\"hi\"}}}]},"
  "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"totalTokenCount\":9}}\r\n\r\n";

static void
test_stream (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TbToolRegistry) tools = tb_tool_registry_get_model_tools (f->registry);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "Say hi");
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  tb_provider_request_add_message (request, user);
  request->tools = g_object_ref (tools);
  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE, 200, stream_body, NULL);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==,
                   "/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Let me check.");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 1);
  test_assert_json_equal (tb_tool_call_get_arguments (tb_message_get_tool_call (response->message,
                                                                                0)),
                          "{\"text\":\"hi\"}");
  g_assert_cmpstr (response->finish_reason, ==, "STOP");
}

static void
test_invalid_key (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);

  test_server_reply (f->server, 400, "application/json",
                     "{\"error\":{\"code\":400,\"message\":\"API key not valid. Please pass a "
                     "valid API key.\",\"status\":\"INVALID_ARGUMENT\",\"details\":[{\"@type\":"
                     "\"type.googleapis.com/google.rpc.ErrorInfo\","
                     "\"reason\":\"API_KEY_INVALID\"}]}}");

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  g_assert_error ((GError *) tb_dispatch_loop_get_error (loop), TB_LOOP_ERROR,
                  TB_LOOP_ERROR_MODEL);
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (loop)->message,
                            "did not accept the API key (HTTP 400): API key not valid"));
}

static void
test_truncated_stream (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);

  tb_dispatch_loop_set_stream (loop, TRUE);
  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}]}"
                          "\n\n", NULL);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (loop)->message, "no finishReason"));
}

static void
test_blocked (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);

  test_server_reply (f->server, 200, "application/json",
                     "{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}");
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (loop)->message,
                            "blocked the prompt (SAFETY)"));
}

static void
test_retry_and_server_error (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);
  g_autoptr(TbDispatchLoop) failing = NULL;

  /* 429 with Retry-After, then an answer. */
  test_server_reply_full (f->server, REPLY_NORMAL, 429,
                          "{\"error\":{\"code\":429,\"message\":\"Resource has been "
                          "exhausted\",\"status\":\"RESOURCE_EXHAUSTED\"}}", "0");
  test_server_reply (f->server, 200, "application/json", final_turn);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "request"), ==, 2);

  failing = make_loop (f);
  test_server_reply (f->server, 500, "application/json",
                     "{\"error\":{\"code\":500,\"message\":\"An internal error has "
                     "occurred.\",\"status\":\"INTERNAL\"}}");
  g_assert_cmpint (test_run_loop (failing), ==, TB_LOOP_STATE_FAILED);
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (failing)->message,
                            "(HTTP 500) after 0 retries: An internal error has occurred."));
}

static void
test_garbage_bodies (Fixture       *f,
                     gconstpointer  data)
{
  const char *bodies[] = {
    "{\"candidates\":null}",
    "{\"candidates\":[null,1]}",
    "{\"candidates\":[{\"content\":{\"parts\":[1,null,{\"functionCall\":7}]}}]}",
    "{\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":5,"
    "\"args\":[]}}]},\"finishReason\":\"STOP\"}]}",
    "{\"candidates\":[{\"finishReason\":\"MALFORMED_FUNCTION_CALL\"}]}",
    "{\"promptFeedback\":{\"blockReason\":7}}",
    "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"x\",\"thought\":[]},"
    "{\"text\":{},\"thought\":{}}]},\"finishReason\":\"STOP\"}]}",
    NULL
  };

  test_garbage (f->server, f->provider, f->registry, bodies);
}

/* What the model called is echoed as it called it: a name Gemini allows but
 * no tool has ("facts.commit"), a name of no tool, and two calls of one
 * tool without ids, whose results answer them in order, each with its
 * call's name. */
static void
test_echo_as_sent (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = make_loop (f);
  JsonObject *sent;

  test_server_reply (f->server, 200, "application/json",
                     "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
                     "{\"functionCall\":{\"name\":\"facts.commit\",\"args\":{\"k\":\"v\"}}},"
                     "{\"functionCall\":{\"name\":\"no_such_tool\",\"args\":{}}},"
                     "{\"functionCall\":{\"name\":\"notes.add\",\"args\":{\"text\":\"a\"}}},"
                     "{\"functionCall\":{\"name\":\"notes.add\",\"args\":{\"text\":\"b\"}}}]},"
                     "\"finishReason\":\"STOP\"}]}");
  test_server_reply (f->server, 200, "application/json", final_turn);

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 2);

  sent = test_server_request (f->server, 1);
  test_assert_json_equal (json_array_get_element (json_object_get_array_member (sent,
                                                                                "contents"), 1),
                          "{\"role\":\"model\",\"parts\":["
                          "{\"functionCall\":{\"name\":\"facts.commit\",\"args\":{\"k\":\"v\"}}},"
                          "{\"functionCall\":{\"name\":\"no_such_tool\",\"args\":{}}},"
                          "{\"functionCall\":{\"name\":\"notes.add\",\"args\":{\"text\":\"a\"}}},"
                          "{\"functionCall\":{\"name\":\"notes.add\",\"args\":{\"text\":\"b\"}}}"
                          "]}");
  {
    JsonArray *parts = json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (sent, "contents"), 2),
      "parts");
    const char *names[] = { "facts.commit", "no_such_tool", "notes.add", "notes.add" };

    g_assert_cmpuint (json_array_get_length (parts), ==, 4);
    for (guint i = 0; i < 4; i++)
      {
        JsonObject *response = json_object_get_object_member (
          json_array_get_object_element (parts, i), "functionResponse");

        g_assert_cmpstr (json_object_get_string_member (response, "name"), ==, names[i]);
      }
    test_assert_json_equal (json_object_get_member (json_object_get_object_member (
                              json_array_get_object_element (parts, 3), "functionResponse"),
                              "response"), "{\"output\":\"b\"}");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/providers/gemini/loop-shape", Fixture, NULL, setup, test_loop_shape, teardown);
  g_test_add ("/providers/gemini/stream", Fixture, NULL, setup, test_stream, teardown);
  g_test_add ("/providers/gemini/echo-as-sent", Fixture, NULL, setup, test_echo_as_sent,
              teardown);
  g_test_add ("/providers/gemini/garbage", Fixture, NULL, setup, test_garbage_bodies, teardown);
  g_test_add ("/providers/gemini/invalid-key", Fixture, NULL, setup, test_invalid_key,
              teardown);
  g_test_add ("/providers/gemini/truncated-stream", Fixture, NULL, setup, test_truncated_stream,
              teardown);
  g_test_add ("/providers/gemini/blocked", Fixture, NULL, setup, test_blocked, teardown);
  g_test_add ("/providers/gemini/retry-and-server-error", Fixture, NULL, setup,
              test_retry_and_server_error, teardown);

  return g_test_run ();
}
