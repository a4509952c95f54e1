/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-openai-responses"

#include "config.h"

#include <string.h>

#include "tb-test-http.h"

/* The Responses API against a SoupServer on 127.0.0.1, with bodies shaped
 * like the examples of its reference (tests/providers/data/openai-responses). */

typedef ProviderFixture Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  provider_fixture_setup (f, "openai-responses", "test-model", "sk-test-secret");
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  provider_fixture_teardown (f);
}

/* JSON written with ' for ", to keep the expected bodies readable. */
static char *
unquote (const char *text)
{
  char *copy = g_strdup (text);

  for (char *p = copy; *p != '\0'; p++)
    if (*p == '\'')
      *p = '"';
  return copy;
}

static void
assert_json (JsonNode   *actual,
             const char *quoted)
{
  g_autofree char *expected = unquote (quoted);

  test_assert_json_equal (actual, expected);
}

static char *
fixture_text (const char *name)
{
  g_autofree char *path = g_build_filename ("openai-responses", name, NULL);

  return test_load_text (path);
}

/* A documented response with one text replaced, e.g. its store flag. */
static char *
fixture_with (const char *name,
              const char *find,
              const char *replace)
{
  g_autofree char *text = fixture_text (name);
  GString *changed = g_string_new (text);

  g_assert_cmpuint (g_string_replace (changed, find, replace, 0), >, 0);
  return g_string_free (changed, FALSE);
}

static void
reply_fixture (Fixture    *f,
               const char *name)
{
  g_autofree char *body = fixture_text (name);

  test_server_reply (f->server, 200, "application/json", body);
}

static JsonObject *
tool_named (JsonArray  *tools,
            const char *name)
{
  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonObject *tool = json_array_get_object_element (tools, i);

      if (g_strcmp0 (json_object_get_string_member (tool, "name"), name) == 0)
        return tool;
    }
  return NULL;
}

static void
test_request_shape (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) notes = NULL;
  g_autofree char *body_text = NULL;
  JsonObject *sent;
  JsonArray *tools;
  TbToolCall *call;

  request->max_tokens = 300;
  reply_fixture (f, "function-call.json");

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/responses");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "Bearer sk-test-secret");

  sent = test_server_request (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "model"), ==, "test-model");
  /* System text travels as instructions, the rest as input items. */
  g_assert_cmpstr (json_object_get_string_member (sent, "instructions"), ==, "Be brief.");
  assert_json (json_object_get_member (sent, "input"),
               "[{'type':'message','role':'user','content':'Add a note.'}]");
  g_assert_false (json_object_has_member (sent, "messages"));
  /* Nothing is kept on the provider's side; reasoning comes back encrypted. */
  g_assert_false (json_object_get_boolean_member (sent, "store"));
  assert_json (json_object_get_member (sent, "include"), "['reasoning.encrypted_content']");
  g_assert_false (json_object_has_member (sent, "previous_response_id"));
  g_assert_cmpint (json_object_get_int_member (sent, "max_output_tokens"), ==, 300);
  g_assert_false (json_object_has_member (sent, "max_tokens"));
  g_assert_true (json_object_get_boolean_member (sent, "parallel_tool_calls"));
  g_assert_false (json_object_has_member (sent, "tool_choice"));
  g_assert_false (json_object_has_member (sent, "stream"));

  /* Flat function tools, wire names, strict off, never the USER_ONLY tool. */
  tools = json_object_get_array_member (sent, "tools");
  g_assert_cmpuint (json_array_get_length (tools), ==, 4);
  notes = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (notes, tool_named (tools, "notes_add"));
  assert_json (notes,
               "{'type':'function','name':'notes_add','description':'Adds a note.',"
               "'parameters':{'type':'object','properties':{'text':{'type':'string'}},"
               "'required':['text']},'strict':false}");
  g_assert_nonnull (tool_named (tools, "echo"));
  g_assert_null (tool_named (tools, "facts_commit"));
  g_assert_null (tool_named (tools, "facts.commit"));

  /* The key never appears in the body. */
  body_text = tb_json_to_string (g_ptr_array_index (f->server->bodies, 0), FALSE);
  g_assert_null (strstr (body_text, "sk-test-secret"));

  g_assert_null (tb_message_get_text (response->message));
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 1);
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_unLAR8MvFNptuiZK6K6HCy5k");
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "notes.add");
  g_assert_cmpstr (tb_tool_call_get_wire_name (call), ==, "notes_add");
  assert_json (tb_tool_call_get_arguments (call), "{'text':'milk'}");
  g_assert_cmpstr (response->finish_reason, ==, "completed");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (response->usage),
                                               "input_tokens"), ==, 291);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (response->usage),
                                               "output_tokens"), ==, 23);
  /* Nothing but the response's id to keep: no reasoning, no stored copy. */
  {
    g_autoptr(JsonNode) kept = json_node_new (JSON_NODE_OBJECT);

    json_node_set_object (kept, tb_message_get_provider_data (response->message));
    assert_json (kept,
                 "{'openai_response_id':'resp_67ca09c5efe0819096d0511c92b8c890096610f474011cc0'}");
  }
}

static void
test_tool_choice (Fixture       *f,
                  gconstpointer  data)
{
  static const struct { const char *choice; gboolean parallel; const char *sent; } cases[] = {
    { "auto", TRUE, "'auto'" },
    { "none", TRUE, "'none'" },
    { "required", FALSE, "'required'" },
    { "notes.add", FALSE, "{'type':'function','name':'notes_add'}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
      g_autoptr(TbProviderResponse) response = NULL;
      g_autoptr(GError) error = NULL;
      JsonObject *sent;

      request->tool_choice = g_strdup (cases[i].choice);
      request->parallel_tool_calls = cases[i].parallel;
      reply_fixture (f, "text.json");
      response = test_complete (f->provider, request, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (tb_message_get_text (response->message), ==, "Noted: milk.");

      sent = test_server_request (f->server, i);
      assert_json (json_object_get_member (sent, "tool_choice"), cases[i].sent);
      g_assert_cmpint (json_object_get_boolean_member (sent, "parallel_tool_calls"), ==,
                       cases[i].parallel);
    }
}

static TbToolCall *
raw_call (const char *id,
          const char *name,
          const char *wire_name,
          const char *raw)
{
  TbToolCall *call = tb_tool_call_new_raw (id, name, raw);

  if (wire_name != NULL)
    tb_tool_call_set_wire_name (call, wire_name);
  return call;
}

/* An earlier turn goes back as the model sent it: its text, then each call
 * with its call id, wire name and argument text, broken or empty. */
static void
test_history_items (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(TbMessage) turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "Let me see.");
  g_autoptr(TbMessage) empty = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(TbToolCall) note = raw_call ("c1", "notes.add", "notes_add", "{\"text\": \"milk\"}");
  g_autoptr(TbToolCall) broken = raw_call ("c2", "echo", NULL, "{\"text\": \"unterminated");
  g_autoptr(TbToolCall) none = raw_call ("c3", "echo", NULL, "");
  g_autoptr(TbMessage) r1 = tb_message_new_tool_result ("c1", "notes.add", "milk", FALSE);
  g_autoptr(TbMessage) r2 = tb_message_new_tool_result ("c2", "echo", "Error: not JSON", TRUE);
  g_autoptr(TbMessage) r3 = tb_message_new_tool_result ("c3", "echo", "", FALSE);
  g_autoptr(TbMessage) thanks = tb_message_new (TB_MESSAGE_ROLE_USER, "Thanks.");
  g_autoptr(TbMessage) later = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, "Answer in German.");
  g_autoptr(GError) error = NULL;
  JsonObject *sent;

  tb_message_add_tool_call (turn, note);
  tb_message_add_tool_call (turn, broken);
  tb_message_add_tool_call (turn, none);
  tb_provider_request_add_message (request, turn);
  tb_provider_request_add_message (request, r1);
  tb_provider_request_add_message (request, r2);
  tb_provider_request_add_message (request, r3);
  tb_provider_request_add_message (request, empty);
  tb_provider_request_add_message (request, later);
  tb_provider_request_add_message (request, thanks);
  reply_fixture (f, "text.json");

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  sent = test_server_request (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "instructions"), ==,
                   "Be brief.\n\nAnswer in German.");
  assert_json (json_object_get_member (sent, "input"),
               "[{'type':'message','role':'user','content':'Add a note.'},"
               "{'type':'message','role':'assistant','content':'Let me see.'},"
               "{'type':'function_call','call_id':'c1','name':'notes_add',"
               "'arguments':'{\\'text\\': \\'milk\\'}'},"
               "{'type':'function_call','call_id':'c2','name':'echo',"
               "'arguments':'{\\'text\\': \\'unterminated'},"
               "{'type':'function_call','call_id':'c3','name':'echo','arguments':''},"
               "{'type':'function_call_output','call_id':'c1','output':'milk'},"
               "{'type':'function_call_output','call_id':'c2','output':'Error: not JSON'},"
               "{'type':'function_call_output','call_id':'c3','output':''},"
               "{'type':'message','role':'user','content':'Thanks.'}]");
}

static JsonNode *
fixture_output (const char *name)
{
  g_autofree char *text = fixture_text (name);
  g_autoptr(JsonNode) root = test_parse (text);

  return json_node_copy (json_object_get_member (json_node_get_object (root), "output"));
}

/* Reasoning and an item of a type Toolbench does not know come back
 * exactly, each in its place among the calls; both calls ran and each
 * result answers its call_id. */
static void
test_reasoning_and_unknown_items_echoed (Fixture       *f,
                                         gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) output = fixture_output ("reasoning-calls.json");
  g_autoptr(TbMessage) turn = NULL;
  g_autoptr(TbMessage) answer = NULL;
  g_autoptr(JsonNode) expected = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonNode) kept = json_node_new (JSON_NODE_ARRAY);
  g_autofree char *first_input = unquote ("{'type':'message','role':'user',"
                                          "'content':'Note milk and add 2 and 3.'}");
  JsonArray *items = json_array_new ();
  JsonObject *data_object;
  JsonObject *second;
  TbTrace *trace;

  reply_fixture (f, "reasoning-calls.json");
  reply_fixture (f, "text.json");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Note milk and add 2 and 3.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);

  /* The assistant turn keeps the items its text and calls cannot hold. */
  turn = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 1);
  g_assert_cmpuint (tb_message_get_n_tool_calls (turn), ==, 2);
  data_object = tb_message_get_provider_data (turn);
  g_assert_nonnull (data_object);
  json_node_set_array (kept, json_object_get_array_member (data_object, "openai_responses_output"));
  g_assert_true (tb_json_equal (kept, output));
  g_assert_cmpstr (json_object_get_string_member (data_object, "reasoning_summary"), ==,
                   "**Planning two calls**\n\nThe user wants a note and a sum.\n\n"
                   "Both can run at once.");
  g_assert_cmpstr (json_object_get_string_member (data_object, "openai_response_id"), ==,
                   "resp_reasoning_1");
  /* The summaries are the turn's reasoning, shown under it in the Loop page. */
  g_assert_cmpstr (tb_message_get_reasoning (turn), ==,
                   "**Planning two calls**\n\nThe user wants a note and a sum.\n\n"
                   "Both can run at once.");

  /* Next request: the user's text, the four output items unchanged and in
   * their order, then one result per call_id. */
  json_array_add_element (items, test_parse (first_input));
  for (guint i = 0; i < json_array_get_length (json_node_get_array (output)); i++)
    json_array_add_element (items,
                            json_node_copy (json_array_get_element (json_node_get_array (output),
                                                                    i)));
  json_node_take_array (expected, items);
  second = test_server_request (f->server, 1);
  {
    g_autofree char *results = unquote ("[{'type':'function_call_output','call_id':'call_note',"
                                        "'output':'milk'},"
                                        "{'type':'function_call_output','call_id':'call_sum',"
                                        "'output':'5'}]");
    g_autoptr(JsonNode) tail = test_parse (results);

    for (guint i = 0; i < 2; i++)
      json_array_add_element (json_node_get_array (expected),
                              json_node_copy (json_array_get_element (json_node_get_array (tail),
                                                                      i)));
  }
  if (!tb_json_equal (json_object_get_member (second, "input"), expected))
    {
      g_autofree char *a = tb_json_to_string (json_object_get_member (second, "input"), FALSE);
      g_autofree char *b = tb_json_to_string (expected, FALSE);

      g_error ("input differs:\n  actual:   %s\n  expected: %s", a, b);
    }
  g_assert_false (json_object_get_boolean_member (second, "store"));

  answer = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 4);
  g_assert_cmpstr (tb_message_get_text (answer), ==, "Noted: milk.");

  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "tool-call"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "tool-result"), ==, 2);
}

/* A turn changed after the model sent it (a person edited it in a fork):
 * kept reasoning and unknown items stay in place, changed calls go in
 * their new form, dropped calls are not sent, added ones follow. */
static void
test_edited_turn (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(TbMessage) turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "Changed.");
  g_autoptr(TbToolCall) sum = raw_call ("call_sum", "add", NULL, "{\"a\":2,\"b\":4}");
  g_autoptr(TbToolCall) added = raw_call ("c9", "echo", NULL, "{\"text\":\"hi\"}");
  g_autoptr(JsonNode) output = fixture_output ("reasoning-calls.json");
  g_autoptr(JsonObject) stored = json_object_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *input;

  json_object_set_array_member (stored, "openai_responses_output",
                                json_array_ref (json_node_get_array (output)));
  tb_message_set_provider_data (turn, stored);
  tb_message_add_tool_call (turn, sum);
  tb_message_add_tool_call (turn, added);
  tb_provider_request_add_message (request, turn);
  reply_fixture (f, "text.json");

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  input = json_object_get_array_member (test_server_request (f->server, 0), "input");
  g_assert_cmpuint (json_array_get_length (input), ==, 6);
  g_assert_true (tb_json_equal (json_array_get_element (input, 1),
                                json_array_get_element (json_node_get_array (output), 0)));
  g_assert_true (tb_json_equal (json_array_get_element (input, 2),
                                json_array_get_element (json_node_get_array (output), 2)));
  assert_json (json_array_get_element (input, 3),
               "{'type':'function_call','call_id':'call_sum','name':'add',"
               "'arguments':'{\\'a\\':2,\\'b\\':4}'}");
  assert_json (json_array_get_element (input, 4),
               "{'type':'message','role':'assistant','content':'Changed.'}");
  assert_json (json_array_get_element (input, 5),
               "{'type':'function_call','call_id':'c9','name':'echo',"
               "'arguments':'{\\'text\\':\\'hi\\'}'}");
}

static void
collect_text (TbProvider *provider,
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
check_streamed (Fixture            *f,
                TbProviderResponse *response,
                const char         *body)
{
  TbToolCall *call;

  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Grüße — adding it.");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 1);
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_stream_1");
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "notes.add");
  assert_json (tb_tool_call_get_arguments (call), "{'text':'eggs'}");
  g_assert_cmpstr (response->finish_reason, ==, "completed");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (response->usage),
                                               "output_tokens"), ==, 11);
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
  g_autoptr(GString) calls = g_string_new (NULL);
  g_autofree char *body = fixture_text ("stream-text-call.txt");

  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE, 200, body, NULL);
  g_signal_connect (f->provider, "text-delta", G_CALLBACK (collect_text), deltas);
  g_signal_connect (f->provider, "tool-call-delta", G_CALLBACK (record_call_delta), calls);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);

  g_assert_true (json_object_get_boolean_member (test_server_request (f->server, 0), "stream"));
  g_assert_false (json_object_has_member (test_server_request (f->server, 0), "stream_options"));
  g_assert_cmpstr (deltas->str, ==, "Grüße — adding it.");
  /* id and name when the call's item is added, then the argument pieces. */
  g_assert_cmpstr (calls->str, ==,
                   "0:call_stream_1:notes_add:;0:::{\"te;0:::xt\":\"eggs\"};");
  check_streamed (f, response, body);
}

static void
test_stream_drip (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = fixture_text ("stream-text-call.txt");
  GString *crlf = g_string_new (text);
  g_autofree char *body = NULL;

  /* CRLF line ends, three bytes at a time: lines and UTF-8 get cut. */
  g_string_replace (crlf, "\n", "\r\n", 0);
  body = g_string_free (crlf, FALSE);
  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE_DRIP, 200, body, NULL);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  check_streamed (f, response, body);
}

/* A server whose last event leaves the output out: the items come from
 * the output_item events, and from the deltas of one never marked done. */
static void
test_stream_items_from_events (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body =
    unquote ("data: {'type':'response.output_item.added','output_index':0,"
             "'item':{'type':'reasoning','id':'rs_1','summary':[]}}\n\n"
             "data: {'type':'response.output_item.done','output_index':0,"
             "'item':{'type':'reasoning','id':'rs_1','summary':[],'encrypted_content':'e1'}}\n\n"
             "data: {'type':'response.output_item.added','output_index':1,"
             "'item':{'type':'message','id':'m1','role':'assistant','content':[]}}\n\n"
             "data: {'type':'response.output_text.delta','output_index':1,'delta':'Hel'}\n\n"
             "data: {'type':'response.output_text.delta','output_index':1,'delta':'lo'}\n\n"
             "data: {'type':'response.output_item.added','output_index':2,"
             "'item':{'type':'function_call','id':'fc_1','call_id':'k1','name':'echo',"
             "'arguments':''}}\n\n"
             "data: {'type':'response.function_call_arguments.delta','item_id':'fc_1',"
             "'delta':'{}'}\n\n"
             "data: {'type':'response.completed','response':{'id':'r1','status':'completed'}}\n\n");
  JsonArray *kept;

  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE, 200, body, NULL);
  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Hello");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 1);
  g_assert_cmpstr (tb_tool_call_get_id (tb_message_get_tool_call (response->message, 0)), ==,
                   "k1");
  kept = json_object_get_array_member (tb_message_get_provider_data (response->message),
                                       "openai_responses_output");
  g_assert_cmpuint (json_array_get_length (kept), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (kept, 0),
                                                  "encrypted_content"), ==, "e1");
}

/* With previous-response-id on, the provider keeps the conversation: the
 * second request names the first response and sends only what followed. */
static void
test_previous_response_id (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbMessage) system = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, "Be brief.");
  g_autoptr(GError) error = NULL;
  g_autofree char *stored = fixture_with ("function-call.json", "\"store\": false",
                                          "\"store\": true");
  JsonObject *first;
  JsonObject *second;

  tb_openai_responses_provider_set_use_previous_response_id (
    TB_OPENAI_RESPONSES_PROVIDER (f->provider), TRUE);
  g_assert_true (tb_openai_responses_provider_get_use_previous_response_id (
                   TB_OPENAI_RESPONSES_PROVIDER (f->provider)));
  test_server_reply (f->server, 200, "application/json", stored);
  reply_fixture (f, "text.json");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_message (loop, system, &error);
  g_assert_no_error (error);
  tb_dispatch_loop_add_user_message (loop, "Note milk.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  first = test_server_request (f->server, 0);
  g_assert_true (json_object_get_boolean_member (first, "store"));
  g_assert_false (json_object_has_member (first, "include"));
  g_assert_false (json_object_has_member (first, "previous_response_id"));
  assert_json (json_object_get_member (first, "input"),
               "[{'type':'message','role':'user','content':'Note milk.'}]");

  second = test_server_request (f->server, 1);
  g_assert_true (json_object_get_boolean_member (second, "store"));
  g_assert_cmpstr (json_object_get_string_member (second, "previous_response_id"), ==,
                   "resp_67ca09c5efe0819096d0511c92b8c890096610f474011cc0");
  /* Instructions are not carried over by the provider: sent again. */
  g_assert_cmpstr (json_object_get_string_member (second, "instructions"), ==, "Be brief.");
  assert_json (json_object_get_member (second, "input"),
               "[{'type':'function_call_output','call_id':'call_unLAR8MvFNptuiZK6K6HCy5k',"
               "'output':'milk'}]");
}

/* Empty, missing and broken argument text: the loop tells the model what
 * was wrong, and the turn goes back with the text exactly as sent. */
static void
test_malformed_and_empty_arguments (Fixture       *f,
                                    gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *calls =
    unquote ("{'id':'resp_args','status':'completed','output':["
             "{'type':'function_call','id':'fc_a','call_id':'c_empty','name':'notes_add',"
             "'arguments':''},"
             "{'type':'function_call','id':'fc_b','call_id':'c_bad','name':'echo',"
             "'arguments':'{\\'text\\': \\'unterminated'},"
             "{'type':'function_call','id':'fc_c','call_id':'c_missing','name':'echo'}]}");
  JsonArray *input;
  const char *refusal;

  test_server_reply (f->server, 200, "application/json", calls);
  reply_fixture (f, "text.json");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Go.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 0);

  input = json_object_get_array_member (test_server_request (f->server, 1), "input");
  g_assert_cmpuint (json_array_get_length (input), ==, 7);
  assert_json (json_array_get_element (input, 1),
               "{'type':'function_call','call_id':'c_empty','name':'notes_add','arguments':''}");
  assert_json (json_array_get_element (input, 2),
               "{'type':'function_call','call_id':'c_bad','name':'echo',"
               "'arguments':'{\\'text\\': \\'unterminated'}");
  assert_json (json_array_get_element (input, 3),
               "{'type':'function_call','call_id':'c_missing','name':'echo','arguments':''}");
  /* Empty arguments are {}: the schema's missing "text" is the complaint. */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (input, 4),
                                                  "call_id"), ==, "c_empty");
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (input,
                                                                                          4),
                                                           "output"), "text"));
  refusal = json_object_get_string_member (json_array_get_object_element (input, 5), "output");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (input, 5),
                                                  "call_id"), ==, "c_bad");
  if (strstr (refusal, "The arguments for “echo” are not valid JSON") == NULL)
    g_error ("“%s” does not explain the broken arguments", refusal);
}

static void
test_incomplete_max_tokens (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *body = fixture_with ("text.json", "\"status\": \"completed\",\n  \"error\"",
                                        "\"status\": \"incomplete\",\n  \"error\"");
  GString *cut = g_string_new (body);
  g_autofree char *incomplete = NULL;
  g_autofree char *event = NULL;

  g_string_replace (cut, "\"incomplete_details\": null",
                    "\"incomplete_details\": {\"reason\": \"max_output_tokens\"}", 0);
  incomplete = g_string_free (cut, FALSE);
  {
    g_autoptr(JsonNode) node = test_parse (incomplete);
    g_autofree char *compact = tb_json_to_string (node, FALSE);

    event = g_strdup_printf ("event: response.incomplete\ndata: {\"type\":\"response.incomplete\","
                             "\"response\":%s}\n\n", compact);
  }

  /* Out of tokens: the text so far is the turn, with finish reason "length". */
  for (guint stream = 0; stream < 2; stream++)
    {
      g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
      g_autoptr(TbProviderResponse) response = NULL;
      g_autoptr(GError) error = NULL;

      request->stream = stream;
      if (stream)
        test_server_reply_full (f->server, REPLY_SSE, 200, event, NULL);
      else
        test_server_reply (f->server, 200, "application/json", incomplete);
      response = test_complete (f->provider, request, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (response->finish_reason, ==, "length");
      g_assert_cmpstr (tb_message_get_text (response->message), ==, "Noted: milk.");
    }
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
  g_autofree char *body = unquote (c->body);

  if (c->mode == REPLY_SSE)
    request->stream = TRUE;
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (f->provider), 300);
  tb_http_provider_set_max_retries (TB_HTTP_PROVIDER (f->provider), 2);
  for (guint i = 0; i < MAX (c->repeat, 1); i++)
    test_server_reply_full (f->server, c->mode, c->status, body, c->retry_after);

  response = test_complete (f->provider, request, &error);
  g_assert_null (response);
  g_assert_error (error, TB_PROVIDER_ERROR, c->code);
  if (strstr (error->message, c->message_part) == NULL)
    g_error ("“%s” does not contain “%s”", error->message, c->message_part);
  g_assert_cmpuint (f->server->bodies->len, ==, c->requests);
}

/* The documented error body: {"error": {"message", "type", "param", "code"}}. */
#define ERROR_BODY(message, type, code) \
  "{'error':{'message':'" message "','type':'" type "','param':null,'code':" code "}}"

static const ErrorCase bad_request = {
  REPLY_NORMAL, 400,
  ERROR_BODY ("Invalid schema for function notes_add.", "invalid_request_error",
              "'invalid_function_parameters'"), NULL, 1,
  TB_PROVIDER_ERROR_BAD_REQUEST, "(HTTP 400): Invalid schema for function notes_add.", 1 };
static const ErrorCase unauthorized = {
  REPLY_NORMAL, 401,
  ERROR_BODY ("Incorrect API key provided: sk-test-secret.", "invalid_request_error",
              "'invalid_api_key'"), NULL, 1,
  TB_PROVIDER_ERROR_UNAUTHORIZED, "did not accept the API key (HTTP 401)", 1 };
static const ErrorCase not_found = {
  REPLY_NORMAL, 404,
  ERROR_BODY ("The model gpt-nope does not exist or you do not have access to it.",
              "invalid_request_error", "'model_not_found'"), NULL, 1,
  TB_PROVIDER_ERROR_BAD_REQUEST, "(HTTP 404): The model gpt-nope does not exist", 1 };
static const ErrorCase rate_limited = {
  REPLY_NORMAL, 429,
  ERROR_BODY ("Rate limit reached for requests", "requests", "'rate_limit_exceeded'"), "0", 3,
  TB_PROVIDER_ERROR_RATE_LIMITED, "after 2 retries: Rate limit reached for requests", 3 };
static const ErrorCase too_long_wait = {
  REPLY_NORMAL, 429, ERROR_BODY ("You exceeded your current quota.", "insufficient_quota",
                                 "'insufficient_quota'"), "3600", 1,
  TB_PROVIDER_ERROR_RATE_LIMITED, "You exceeded your current quota.", 1 };
static const ErrorCase server_error = {
  REPLY_NORMAL, 500, ERROR_BODY ("The server had an error while processing your request.",
                                 "server_error", "null"), NULL, 1,
  TB_PROVIDER_ERROR_SERVER, "failed (HTTP 500) after 0 retries: The server had an error", 1 };
static const ErrorCase html_page = {
  REPLY_NORMAL, 200, "<!DOCTYPE html><html><body>Welcome</body></html>", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, "HTML page", 1 };
static const ErrorCase no_output = {
  REPLY_NORMAL, 200, "{'id':'resp_1','object':'response','status':'completed'}", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE,
  "The response is not a Responses API response: it has no output array", 1 };
static const ErrorCase item_not_object = {
  REPLY_NORMAL, 200, "{'id':'resp_1','status':'completed','output':[7]}", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, "output item 1 is not an object", 1 };
static const ErrorCase chat_completions = {
  REPLY_NORMAL, 200,
  "{'id':'chatcmpl-1','object':'chat.completion','choices':[{'index':0,"
  "'message':{'role':'assistant','content':'Hi'},'finish_reason':'stop'}]}", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE,
  "The server answered in the Chat Completions format (“choices”) instead of the Responses "
  "format (“output”); it may not offer the Responses API. Use the provider kind “openai” "
  "for this server.", 1 };
static const ErrorCase chat_completions_stream = {
  REPLY_SSE, 200,
  "data: {'id':'chatcmpl-1','object':'chat.completion.chunk','choices':[{'index':0,"
  "'delta':{'content':'Hi'}}]}\n\ndata: [DONE]\n\n", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, "answered in the Chat Completions format", 1 };
static const ErrorCase missing_call_id = {
  REPLY_NORMAL, 200,
  "{'id':'resp_1','status':'completed','output':[{'type':'function_call','id':'fc_1',"
  "'name':'echo','arguments':'{}'}]}", NULL, 1, TB_PROVIDER_ERROR_INVALID_RESPONSE,
  "The model’s call of “echo” has no call_id, so its result could not be sent back; the "
  "response cannot be used.", 1 };
static const ErrorCase duplicate_call_ids = {
  REPLY_NORMAL, 200,
  "{'id':'resp_1','status':'completed','output':["
  "{'type':'function_call','id':'fc_1','call_id':'same','name':'echo','arguments':'{}'},"
  "{'type':'function_call','id':'fc_2','call_id':'same','name':'echo','arguments':'{}'}]}",
  NULL, 1, TB_PROVIDER_ERROR_INVALID_RESPONSE,
  "The model gave two tool calls the same id “same”", 1 };
static const ErrorCase failed_status = {
  REPLY_NORMAL, 200,
  "{'id':'resp_1','status':'failed','error':{'code':'server_error',"
  "'message':'The model failed to generate a response.'},'output':[]}", NULL, 1,
  TB_PROVIDER_ERROR_SERVER,
  "The provider reported that the response failed: The model failed to generate a response.",
  1 };
static const ErrorCase content_filter = {
  REPLY_NORMAL, 200,
  "{'id':'resp_1','status':'incomplete','incomplete_details':{'reason':'content_filter'},"
  "'output':[]}", NULL, 1, TB_PROVIDER_ERROR_TRUNCATED,
  "The provider stopped the response before it was complete (content_filter).", 1 };
static const ErrorCase truncated = {
  REPLY_SSE, 200,
  "event: response.created\ndata: {'type':'response.created','response':{'id':'r1',"
  "'status':'in_progress','output':[]}}\n\n"
  "event: response.output_text.delta\ndata: {'type':'response.output_text.delta',"
  "'output_index':0,'delta':'Hel'}\n\n", NULL, 1, TB_PROVIDER_ERROR_TRUNCATED,
  "The response stream ended before the model finished its turn (no response.completed "
  "event).", 1 };
static const ErrorCase stream_failed = {
  REPLY_SSE, 200,
  "event: response.failed\ndata: {'type':'response.failed','response':{'id':'r1',"
  "'status':'failed','error':{'code':'server_error','message':'The model failed to generate "
  "a response.'},'output':[]}}\n\n", NULL, 1, TB_PROVIDER_ERROR_SERVER,
  "The provider reported that the response failed: The model failed to generate a response.",
  1 };
static const ErrorCase stream_error_event = {
  REPLY_SSE, 200,
  "event: error\ndata: {'type':'error','code':'ERR_SOMETHING','message':'Something went "
  "wrong','param':null,'sequence_number':1}\n\n", NULL, 1, TB_PROVIDER_ERROR_SERVER,
  "The provider reported an error in the middle of the stream: Something went wrong", 1 };
static const ErrorCase stream_content_filter = {
  REPLY_SSE, 200,
  "event: response.incomplete\ndata: {'type':'response.incomplete','response':{'id':'r1',"
  "'status':'incomplete','incomplete_details':{'reason':'content_filter'},'output':[]}}\n\n",
  NULL, 1, TB_PROVIDER_ERROR_TRUNCATED, "before it was complete (content_filter)", 1 };
static const ErrorCase garbled_event = {
  REPLY_SSE, 200, "data: {'type':'response.output_text.delta',]]}\n\n", NULL, 1,
  TB_PROVIDER_ERROR_INVALID_RESPONSE, "not a JSON object", 1 };

static void
test_retry_after (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *limited = unquote (ERROR_BODY ("Rate limit reached for requests", "requests",
                                                  "'rate_limit_exceeded'"));
  g_autofree char *body = fixture_text ("text.json");
  gint64 start = g_get_monotonic_time ();

  test_server_reply_full (f->server, REPLY_NORMAL, 429, limited, "1");
  test_server_reply (f->server, 200, "application/json", body);

  response = test_complete (f->provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Noted: milk.");
  g_assert_cmpuint (f->server->bodies->len, ==, 2);
  /* Retry-After: 1 was honoured. */
  g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC);
}

static void
test_huge_response (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbProviderRequest) request = provider_fixture_request (f);
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = 10 * 1024 * 1024;
  const char *head = "{\"id\":\"r\",\"status\":\"completed\",\"output\":[{\"type\":\"message\","
                     "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"";
  g_autofree char *body = g_malloc (size + strlen (head) + 16);

  /* A 10 MiB, otherwise valid, response: refused at the documented limit. */
  strcpy (body, head);
  memset (body + strlen (head), 'x', size);
  strcpy (body + strlen (head) + size, "\"}]}]}");
  test_server_reply (f->server, 200, "application/json", body);

  response = test_complete (f->provider, request, &error);
  g_assert_null (response);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "larger than 8"));
}

static void
test_loop_over_http (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbMessage) answer = NULL;
  g_autoptr(GError) error = NULL;
  TbTrace *trace;

  reply_fixture (f, "function-call.json");
  reply_fixture (f, "text.json");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Note milk.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);

  /* The call goes back as the model sent it, then its result. */
  assert_json (json_object_get_member (test_server_request (f->server, 1), "input"),
               "[{'type':'message','role':'user','content':'Note milk.'},"
               "{'type':'function_call','call_id':'call_unLAR8MvFNptuiZK6K6HCy5k',"
               "'name':'notes_add','arguments':'{\\'text\\':\\'milk\\'}'},"
               "{'type':'function_call_output','call_id':'call_unLAR8MvFNptuiZK6K6HCy5k',"
               "'output':'milk'}]");
  answer = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 3);
  g_assert_cmpstr (tb_message_get_text (answer), ==, "Noted: milk.");

  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "response"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "tool-call"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "tool-result"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      g_autoptr(JsonNode) node = tb_trace_event_to_json (tb_trace_get_event (trace, i));
      g_autofree char *line = tb_json_to_string (node, FALSE);

      g_assert_null (strstr (line, "sk-test-secret"));
    }
}

/* What the model called goes back exactly as it called it: a name the
 * Responses format forbids ("facts.commit"), a name of no tool, two calls
 * of one tool, and argument text with its own spacing; each output answers
 * its own call_id. */
static void
test_echo_as_sent (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *input;
  const char *calls[][3] = {
    { "e1", "facts.commit", "{\"k\": \"v\"}" },
    { "e2", "no_such_tool", "{}" },
    { "e3", "notes_add", "{\"text\":\"a\"}" },
    { "e4", "notes_add", "{ \"text\" : \"b\" }" },
  };
  g_autoptr(GString) output = g_string_new ("{\"id\":\"resp_e\",\"object\":\"response\","
                                            "\"status\":\"completed\",\"output\":[");

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_autoptr(JsonNode) args = json_node_new (JSON_NODE_VALUE);
      g_autofree char *quoted = NULL;

      json_node_set_string (args, calls[i][2]);
      quoted = tb_json_to_string (args, FALSE);
      g_string_append_printf (output, "%s{\"type\":\"function_call\",\"id\":\"fc_%u\","
                              "\"call_id\":\"%s\",\"name\":\"%s\",\"arguments\":%s}",
                              i > 0 ? "," : "", i, calls[i][0], calls[i][1], quoted);
    }
  g_string_append (output, "]}");
  test_server_reply (f->server, 200, "application/json", output->str);
  reply_fixture (f, "text.json");

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_user_message (loop, "Note a and b.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 2);

  input = json_object_get_array_member (test_server_request (f->server, 1), "input");
  g_assert_cmpuint (json_array_get_length (input), ==, 9);
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (input, 1 + i);
      JsonObject *result = json_array_get_object_element (input, 5 + i);

      g_assert_cmpstr (json_object_get_string_member (call, "type"), ==, "function_call");
      g_assert_cmpstr (json_object_get_string_member (call, "call_id"), ==, calls[i][0]);
      g_assert_cmpstr (json_object_get_string_member (call, "name"), ==, calls[i][1]);
      g_assert_cmpstr (json_object_get_string_member (call, "arguments"), ==, calls[i][2]);
      g_assert_cmpstr (json_object_get_string_member (result, "type"), ==,
                       "function_call_output");
      g_assert_cmpstr (json_object_get_string_member (result, "call_id"), ==, calls[i][0]);
    }
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (input, 8),
                                                  "output"), ==, "b");
}

static void
test_loop_stream (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbMessage) result = NULL;
  g_autofree char *body = fixture_text ("stream-text-call.txt");

  test_server_reply_full (f->server, REPLY_SSE, 200, body, NULL);
  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "event: response.completed\ndata: {\"type\":\"response.completed\","
                          "\"response\":{\"id\":\"r2\",\"status\":\"completed\",\"output\":["
                          "{\"type\":\"message\",\"id\":\"m2\",\"role\":\"assistant\","
                          "\"content\":[{\"type\":\"output_text\",\"text\":\"ok\"}]}]}}\n\n",
                          NULL);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 3);
  tb_dispatch_loop_set_stream (loop, TRUE);
  tb_dispatch_loop_add_user_message (loop, "Hello", &error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->note_calls, ==, 1);
  result = g_list_model_get_item (tb_dispatch_loop_get_messages (loop), 2);
  g_assert_cmpstr (tb_message_get_text (result), ==, "eggs");
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "response"), ==, 2);
}

/* A bad second turn ends the loop FAILED with the sentence a person reads;
 * what the first turn recorded stays in the trace and the conversation. */
static void
test_loop_fails (Fixture       *f,
                 gconstpointer  data)
{
  const ErrorCase *c = data;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = unquote (c->body);
  const GError *failure;
  TbTrace *trace;

  reply_fixture (f, "function-call.json");
  test_server_reply_full (f->server, c->mode, c->status, body, NULL);

  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_set_stream (loop, c->mode == REPLY_SSE);
  tb_dispatch_loop_add_user_message (loop, "Note milk.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);

  failure = tb_dispatch_loop_get_error (loop);
  g_assert_nonnull (failure);
  if (strstr (failure->message, c->message_part) == NULL)
    g_error ("“%s” does not contain “%s”", failure->message, c->message_part);

  g_assert_cmpuint (g_list_model_get_n_items (tb_dispatch_loop_get_messages (loop)), ==, 3);
  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "response"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "tool-call"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "tool-result"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "error"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
}

/* The conversation exports as the input items Toolbench would send, with
 * the instructions and the Responses tool definitions beside them. */
static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbMessage) system = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, "Be brief.");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autoptr(JsonNode) expected = NULL;
  JsonObject *object;
  JsonObject *second;
  JsonArray *input;

  reply_fixture (f, "reasoning-calls.json");
  reply_fixture (f, "text.json");
  loop = tb_dispatch_loop_new (f->registry, f->provider, 5);
  tb_dispatch_loop_add_message (loop, system, &error);
  tb_dispatch_loop_add_user_message (loop, "Note milk and add 2 and 3.", &error);
  g_assert_no_error (error);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  exported = tb_trace_export_messages (tb_dispatch_loop_get_trace (loop),
                                       TB_DEFINITION_FORMAT_OPENAI_RESPONSES, &error);
  g_assert_no_error (error);
  object = json_node_get_object (exported);
  second = test_server_request (f->server, 1);

  g_assert_cmpstr (json_object_get_string_member (object, "instructions"), ==, "Be brief.");
  g_assert_true (tb_json_equal (json_object_get_member (object, "tools"),
                                json_object_get_member (second, "tools")));
  /* What the second request sent, then the final answer. */
  input = json_object_get_array_member (object, "input");
  g_assert_cmpuint (json_array_get_length (input), ==, 8);
  expected = json_node_copy (json_object_get_member (second, "input"));
  for (guint i = 0; i < 7; i++)
    if (!tb_json_equal (json_array_get_element (input, i),
                        json_array_get_element (json_node_get_array (expected), i)))
      {
        g_autofree char *a = tb_json_to_string (json_array_get_element (input, i), FALSE);
        g_autofree char *b =
          tb_json_to_string (json_array_get_element (json_node_get_array (expected), i), FALSE);

        g_error ("item %u differs:\n  exported: %s\n  sent:     %s", i, a, b);
      }
  assert_json (json_array_get_element (input, 7),
               "{'type':'message','role':'assistant','content':'Noted: milk.'}");
  g_assert_false (json_object_has_member (object, "messages"));
}

/* Bodies a broken or hostile server may send: each must end in an error
 * or a response, never a crash. */
static void
test_garbage_bodies (Fixture       *f,
                     gconstpointer  data)
{
  static const char *quoted[] = {
    "{'output':null}",
    "{'output':{}}",
    "{'output':[null,{},[]]}",
    "{'output':[{'type':7}]}",
    "{'output':[{'type':'message','content':'text'}]}",
    "{'output':[{'type':'message','content':[{'type':'output_text','text':5}]}]}",
    "{'output':[{'type':'function_call','call_id':7,'name':[],'arguments':{}}]}",
    "{'output':[{'type':'function_call','call_id':'c','name':'echo','arguments':7}]}",
    "{'output':[{'type':'reasoning','summary':'x'}]}",
    "{'output':[{'type':'reasoning','summary':[1,{'text':7}]}]}",
    "{'output':[],'status':7,'incomplete_details':'x'}",
    "{'output':[],'status':'incomplete','incomplete_details':null}",
    "{'output':[],'error':'text'}",
    "{'type':'response.completed','response':7}",
    "{'type':'response.completed','response':{'output':[1]}}",
    "{'type':'response.output_item.added','output_index':-4,'item':{}}",
    "{'type':'response.output_item.done','output_index':'x','item':7}",
    "{'type':'response.output_text.delta','output_index':99999999999,'delta':7}",
    "{'type':'response.function_call_arguments.delta','item_id':7,'delta':null}",
    "{'type':'response.failed','response':null}",
    "{'type':'error','error':'x'}",
    "{'type':null}",
  };
  g_autoptr(GPtrArray) bodies = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (quoted); i++)
    g_ptr_array_add (bodies, unquote (quoted[i]));
  g_ptr_array_add (bodies, NULL);
  test_garbage (f->server, f->provider, f->registry, (const char * const *) bodies->pdata);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func, data) \
  g_test_add ("/providers/openai-responses/" path, Fixture, data, setup, func, teardown)

  ADD ("request-shape", test_request_shape, NULL);
  ADD ("tool-choice", test_tool_choice, NULL);
  ADD ("history-items", test_history_items, NULL);
  ADD ("reasoning-and-unknown-items-echoed", test_reasoning_and_unknown_items_echoed, NULL);
  ADD ("edited-turn", test_edited_turn, NULL);
  ADD ("stream", test_stream, NULL);
  ADD ("stream-drip", test_stream_drip, NULL);
  ADD ("stream-items-from-events", test_stream_items_from_events, NULL);
  ADD ("previous-response-id", test_previous_response_id, NULL);
  ADD ("malformed-and-empty-arguments", test_malformed_and_empty_arguments, NULL);
  ADD ("incomplete-max-output-tokens", test_incomplete_max_tokens, NULL);
  ADD ("retry-after", test_retry_after, NULL);
  ADD ("huge-response", test_huge_response, NULL);
  ADD ("error/400", test_error, &bad_request);
  ADD ("error/401", test_error, &unauthorized);
  ADD ("error/404", test_error, &not_found);
  ADD ("error/429", test_error, &rate_limited);
  ADD ("error/429-long-wait", test_error, &too_long_wait);
  ADD ("error/500", test_error, &server_error);
  ADD ("error/html", test_error, &html_page);
  ADD ("error/no-output", test_error, &no_output);
  ADD ("error/item-not-object", test_error, &item_not_object);
  ADD ("error/chat-completions", test_error, &chat_completions);
  ADD ("error/chat-completions-stream", test_error, &chat_completions_stream);
  ADD ("error/missing-call-id", test_error, &missing_call_id);
  ADD ("error/duplicate-call-ids", test_error, &duplicate_call_ids);
  ADD ("error/failed", test_error, &failed_status);
  ADD ("error/content-filter", test_error, &content_filter);
  ADD ("error/truncated-stream", test_error, &truncated);
  ADD ("error/stream-failed", test_error, &stream_failed);
  ADD ("error/stream-error-event", test_error, &stream_error_event);
  ADD ("error/stream-content-filter", test_error, &stream_content_filter);
  ADD ("error/garbled-event", test_error, &garbled_event);
  ADD ("loop", test_loop_over_http, NULL);
  ADD ("echo-as-sent", test_echo_as_sent, NULL);
  ADD ("loop-stream", test_loop_stream, NULL);
  ADD ("loop-fails/truncated-stream", test_loop_fails, &truncated);
  ADD ("loop-fails/chat-completions", test_loop_fails, &chat_completions);
  ADD ("loop-fails/chat-completions-stream", test_loop_fails, &chat_completions_stream);
  ADD ("loop-fails/missing-call-id", test_loop_fails, &missing_call_id);
  ADD ("loop-fails/duplicate-call-ids", test_loop_fails, &duplicate_call_ids);
  ADD ("loop-fails/stream-failed", test_loop_fails, &stream_failed);
  ADD ("export", test_export, NULL);
  ADD ("garbage", test_garbage_bodies, NULL);

#undef ADD

  return g_test_run ();
}
