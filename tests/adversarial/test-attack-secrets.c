/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "attack-util.h"
#include "tb-test-http.h"

/* Promise: an API key never reaches a trace, a printed line or the wire
 * view, in any form. A provider repeats the key in its refusal (plainly,
 * JSON-escaped, in a non-JSON body); a streaming model sends it in pieces
 * in its text and in a call's arguments; the base URL carries a user name,
 * a password and credential parameters; a trace from elsewhere holds it
 * and a tool prints it while the trace is replayed and saved. Every file
 * written and everything printed is searched for the key plainly, with
 * JSON escapes undone (at any depth), with percent escapes undone, and
 * with the pieces of every stream joined. */

#define KEY "TOPSECRET-4a7f19c2e8"
#define KEY_ESCAPED "\\u0054\\u004f\\u0050\\u0053\\u0045\\u0043\\u0052\\u0045\\u0054" \
                    "-4a7f19c2e8"
#define KEY_PERCENT "%54%4F%50SECRET-4a7f19c2e8"
#define OTHER_KEY "custom-key-77d0c3b1f5"

typedef struct
{
  TestServer *server;
  char       *dir;
} Fixture;

static void
setup_with_header (Fixture    *f,
                   const char *key_header)
{
  g_autoptr(GError) error = NULL;

  f->server = test_server_new (key_header);
  f->dir = g_dir_make_tmp ("tb-secrets-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  setup_with_header (f, "Authorization");
}

static void
setup_anthropic (Fixture       *f,
                 gconstpointer  data)
{
  setup_with_header (f, "x-api-key");
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  attack_remove_tree (f->dir);
  g_free (f->dir);
  test_server_free (f->server);
}

/* ---- looking for the key in every form ----------------------------------- */

/* Undoes one level of JSON string escapes (\uXXXX for ASCII, \\, \", \/). */
static char *
json_unescape_once (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (p[0] == '\\' && p[1] == 'u' && g_ascii_isxdigit (p[2]) && g_ascii_isxdigit (p[3]) &&
          g_ascii_isxdigit (p[4]) && g_ascii_isxdigit (p[5]))
        {
          guint value = g_ascii_xdigit_value (p[2]) << 12 | g_ascii_xdigit_value (p[3]) << 8 |
                        g_ascii_xdigit_value (p[4]) << 4 | g_ascii_xdigit_value (p[5]);

          if (value > 0 && value < 0x80)
            {
              g_string_append_c (out, (char) value);
              p += 5;
              continue;
            }
        }
      if (p[0] == '\\' && (p[1] == '\\' || p[1] == '"' || p[1] == '/'))
        {
          g_string_append_c (out, p[1]);
          p++;
          continue;
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static char *
percent_unescape_once (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (p[0] == '%' && g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
        {
          char c = (char) (g_ascii_xdigit_value (p[1]) << 4 | g_ascii_xdigit_value (p[2]));

          if (c != '\0')
            {
              g_string_append_c (out, c);
              p += 2;
              continue;
            }
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* Appends the string values of every delta of an event stream, in order:
 * what a reader of the stream would put together. */
static void
join_stream (const char *text,
             GString    *joined)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      static const char *paths[] = {
        "$.choices[0].delta.content", "$.choices[0].delta.tool_calls[*].function.arguments",
        "$.delta.text", "$.delta.partial_json", "$.candidates[0].content.parts[*].text",
      };
      g_autoptr(JsonNode) node = NULL;

      if (!g_str_has_prefix (lines[i], "data:"))
        continue;
      node = tb_json_parse (lines[i] + 5, -1, NULL);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;

      for (guint j = 0; j < G_N_ELEMENTS (paths); j++)
        {
          g_autoptr(JsonNode) found = json_path_query (paths[j], node, NULL);
          JsonArray *values = found != NULL ? json_node_get_array (found) : NULL;

          for (guint k = 0; values != NULL && k < json_array_get_length (values); k++)
            if (JSON_NODE_HOLDS_VALUE (json_array_get_element (values, k)))
              g_string_append (joined, json_array_get_string_element (values, k));
        }
    }
}

/* Every string of a JSON document; event streams among them joined. */
static void
collect_streams (JsonNode *node,
                 GString  *joined)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, NULL, &member))
        collect_streams (member, joined);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        collect_streams (json_array_get_element (array, i), joined);
    }
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
           strstr (json_node_get_string (node), "data:") != NULL)
    {
      join_stream (json_node_get_string (node), joined);
    }
}

static void
assert_absent_in (const char *where,
                  const char *form,
                  const char *text,
                  const char *key)
{
  if (strstr (text, key) != NULL)
    g_error ("The key is in %s (%s):\n%s", where, form, text);
}

/* Fails when @text holds @key in any form. */
static void
assert_no_key (const char *where,
               const char *text,
               const char *key)
{
  g_autofree char *decoded = g_strdup (text);
  g_autoptr(GString) joined = g_string_new (NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_assert_nonnull (text);
  assert_absent_in (where, "as it stands", text, key);

  /* Escapes within escapes: a JSON string holding JSON holding the key. */
  for (guint level = 0; level < 4; level++)
    {
      g_autofree char *json = json_unescape_once (decoded);
      g_autofree char *percent = percent_unescape_once (json);

      g_free (decoded);
      decoded = g_steal_pointer (&percent);
      assert_absent_in (where, "with escapes undone", decoded, key);
    }

  /* The pieces of streamed responses, in a trace line or a stream. */
  join_stream (text, joined);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (lines[i], -1, NULL);

      if (node != NULL)
        collect_streams (node, joined);
    }
  {
    g_autofree char *joined_decoded = json_unescape_once (joined->str);
    g_autofree char *twice = json_unescape_once (joined_decoded);

    assert_absent_in (where, "with stream pieces joined", joined->str, key);
    assert_absent_in (where, "with stream pieces joined and unescaped", twice, key);
  }
}

static void
assert_run_clean (AttackRun  *run,
                  const char *key)
{
  assert_no_key ("standard output", run->out, key);
  assert_no_key ("standard error", run->err, key);
}

static char *
read_trace (const char *path,
            const char *key)
{
  char *contents = attack_read_file (path);

  g_assert_nonnull (contents);
  assert_no_key (path, contents, key);
  return contents;
}

/* ---- (a) a refusal that repeats the key ----------------------------------- */

typedef struct
{
  const char *name;
  const char *content_type;
  const char *body;
  const char *said;       /* what stderr says the provider said */
} Refusal;

static const Refusal refusals[] = {
  { "plain", "application/json",
    "{\"error\":{\"message\":\"Incorrect API key provided: " KEY ". You can find your key "
    "in your account.\",\"type\":\"invalid_request_error\"}}",
    "Incorrect API key provided: [redacted]. You can find your key in your account" },
  { "json-escaped", "application/json",
    "{\"error\":{\"message\":\"Incorrect API key provided: " KEY_ESCAPED ".\"}}",
    "Incorrect API key provided: [redacted]" },
  { "text", "text/plain", "401 Unauthorized: key '" KEY "' is not valid",
    "401 Unauthorized: key '[redacted]' is not valid" },
  /* Filled in by the test: the key straddles the 200 characters shown of
   * a body that is not JSON, so shortening before redacting would leave
   * its start. */
  { "cut-at-the-key", "text/plain", NULL, NULL },
};

static void
test_refusal_repeats_key (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "refused.jsonl", NULL);
  g_autofree char *base = g_strconcat (f->server->base_url, "/v1", NULL);
  g_autofree char *url = g_strconcat (base, "/chat/completions", NULL);
  const char *env[] = { "OPENAI_API_KEY=" KEY, NULL };

  g_autofree char *padding = g_strnfill (170, 'x');
  g_autofree char *long_body = g_strconcat ("Unauthorized. ", padding, " " KEY, NULL);
  g_autofree char *long_said = g_strconcat ("Unauthorized. ", padding, " [redacted]", NULL);

  g_assert_cmpuint (strlen (long_body), >, 200);
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      const char *body = refusals[i].body != NULL ? refusals[i].body : long_body;
      const char *said = refusals[i].said != NULL ? refusals[i].said : long_said;
      g_autofree char *expected = NULL;
      g_autofree char *contents = NULL;
      AttackRun run = { 0 };

      test_server_reply (f->server, 401, refusals[i].content_type, body);
      attack_cli (&run, NULL, env, "run", "--provider", "openai", "--base-url", base,
                  "--model", "gpt-x", "--prompt", "Hi", "-n", "2", "--trace", trace);

      expected = g_strdup_printf ("toolbench-cli: the loop failed: The provider did not accept "
                                  "the API key (HTTP 401): %s. Check the key and its "
                                  "permissions.\n", said);
      g_test_message ("%s: %s", refusals[i].name, run.err);
      g_assert_cmpstr (run.err, ==, expected);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_cmpstr (g_ptr_array_index (f->server->auth, i), ==, "Bearer " KEY);
      assert_run_clean (&run, KEY);

      /* The trace is whole, and the refusal is in it, without the key. */
      contents = read_trace (trace, KEY);
      g_assert_nonnull (strstr (contents, "\"type\":\"response\",\"iteration\":1,\"status\":401"));
      g_assert_nonnull (strstr (contents, "[redacted]"));
      g_assert_nonnull (strstr (contents, "\"state\":\"failed\""));
      attack_run_clear (&run);
    }
}

/* The same refusal through the engine: the error and the wire view. */
static void
test_refusal_engine (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbProvider) provider = tb_anthropic_provider_new (f->server->base_url, "claude-x",
                                                              KEY);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "Hi");
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  tb_provider_request_add_message (request, user);
  test_server_reply (f->server, 403, "application/json",
                     "{\"type\":\"error\",\"error\":{\"type\":\"permission_error\","
                     "\"message\":\"key " KEY_ESCAPED " may not use claude-x\"}}");
  response = test_complete (provider, request, &error);
  g_assert_null (response);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_UNAUTHORIZED);
  g_assert_cmpstr (error->message, ==,
                   "The provider did not accept the API key (HTTP 403): key [redacted] may not "
                   "use claude-x. Check the key and its permissions.");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, KEY);
  assert_no_key ("the wire view", tb_provider_get_last_response_body (provider), KEY);
  g_assert_nonnull (strstr (tb_provider_get_last_response_body (provider), "[redacted]"));
}

/* ---- (b, c) a streaming model that repeats the key in pieces -------------- */

/* The text says the key in four pieces; the call's arguments carry it
 * JSON-escaped, in pieces too. */
static const char openai_stream[] =
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
  "\"content\":\"Your key is TOP\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"SEC\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"RET-4a7f\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"19c2e8, I will echo it.\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\","
  "\"type\":\"function\",\"function\":{\"name\":\"echo\",\"arguments\":\"{\\\"text\\\":"
  "\\\"\\\\u0054\\\\u004f\"}}]}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
  "\"function\":{\"arguments\":\"PSECRET-4a7f19c2e8\\\"}\"}}]}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
  "data: [DONE]\n\n";

static const char openai_answer[] =
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Echoed \"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"TOPSECRET-4a\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"7f19c2e8.\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
  "data: [DONE]\n\n";

static const char anthropic_stream[] =
  "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{}}}\n\n"
  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
  "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\"Your key is TO\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\"PSECRET-4a7f19c\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\"2e8, I will echo it.\"}}\n\n"
  "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,"
  "\"content_block\":{\"type\":\"tool_use\",\"id\":\"tu1\",\"name\":\"echo\",\"input\":{}}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,"
  "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"text\\\": \\\"TOPS\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,"
  "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"ECRET-4a7f19c2e8\\\"}\"}}\n\n"
  "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
  "event: message_delta\ndata: {\"type\":\"message_delta\","
  "\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n"
  "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

static const char anthropic_answer[] =
  "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{}}}\n\n"
  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
  "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\"Echoed \"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\"TOPSECRET-4a\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\"7f19c2e8.\"}}\n\n"
  "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
  "event: message_delta\ndata: {\"type\":\"message_delta\","
  "\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n"
  "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

static const char responses_stream[] =
  "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\","
  "\"output_index\":0,\"item\":{\"type\":\"message\",\"id\":\"m1\",\"role\":\"assistant\","
  "\"content\":[]}}\n\n"
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"output_index\":0,\"delta\":\"Your key is TO\"}\n\n"
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"output_index\":0,\"delta\":\"PSECRET-4a7f19c\"}\n\n"
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"output_index\":0,\"delta\":\"2e8, I will echo it.\"}\n\n"
  "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\","
  "\"output_index\":1,\"item\":{\"type\":\"function_call\",\"id\":\"fc1\",\"call_id\":\"c1\","
  "\"name\":\"echo\",\"arguments\":\"\"}}\n\n"
  "event: response.function_call_arguments.delta\ndata: {\"type\":"
  "\"response.function_call_arguments.delta\",\"output_index\":1,"
  "\"delta\":\"{\\\"text\\\": \\\"TOPS\"}\n\n"
  "event: response.function_call_arguments.delta\ndata: {\"type\":"
  "\"response.function_call_arguments.delta\",\"output_index\":1,"
  "\"delta\":\"ECRET-4a7f19c2e8\\\"}\"}\n\n"
  "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{"
  "\"id\":\"r1\",\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"id\":\"m1\","
  "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
  "\"text\":\"Your key is TOPSECRET-4a7f19c2e8, I will echo it.\"}]},"
  "{\"type\":\"function_call\",\"id\":\"fc1\",\"call_id\":\"c1\",\"name\":\"echo\","
  "\"arguments\":\"{\\\"text\\\": \\\"TOPSECRET-4a7f19c2e8\\\"}\"}]}}\n\n";

static const char responses_answer[] =
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"output_index\":0,\"delta\":\"Echoed \"}\n\n"
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"output_index\":0,\"delta\":\"TOPSECRET-4a\"}\n\n"
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"output_index\":0,\"delta\":\"7f19c2e8.\"}\n\n"
  "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{"
  "\"id\":\"r2\",\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"id\":\"m2\","
  "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
  "\"text\":\"Echoed TOPSECRET-4a7f19c2e8.\"}]}]}}\n\n";

typedef struct
{
  const char *kind;
  const char *key_header;
  const char *key_variable;
  const char *first;
  const char *second;
  const char *call_line;
  const char *framing;      /* what only this format's stream has */
} Streamed;

static const Streamed streamed_openai = {
  "openai", "Authorization", "OPENAI_API_KEY", openai_stream, openai_answer,
  "assistant calls echo {\"text\":\"[redacted]\"} [c1]\n", "[DONE]"
};

static const Streamed streamed_responses = {
  "openai-responses", "Authorization", "OPENAI_API_KEY", responses_stream, responses_answer,
  "assistant calls echo {\"text\":\"[redacted]\"} [c1]\n", "response.function_call_arguments.delta"
};

static const Streamed streamed_anthropic = {
  "anthropic", "x-api-key", "ANTHROPIC_API_KEY", anthropic_stream, anthropic_answer,
  "assistant calls echo {\"text\":\"[redacted]\"} [tu1]\n", "input_json_delta"
};

static void
setup_streamed (Fixture       *f,
                gconstpointer  data)
{
  const Streamed *s = data;

  setup_with_header (f, s->key_header);
}

static void
test_stream_pieces (Fixture       *f,
                    gconstpointer  data)
{
  const Streamed *s = data;
  g_autofree char *trace = g_build_filename (f->dir, "streamed.jsonl", NULL);
  g_autofree char *saved = g_build_filename (f->dir, "replayed.jsonl", NULL);
  g_autofree char *base = g_str_equal (s->kind, "openai")
                          ? g_strconcat (f->server->base_url, "/v1", NULL)
                          : g_strdup (f->server->base_url);
  g_autofree char *key_env = g_strconcat (s->key_variable, "=" KEY, NULL);
  g_autofree char *expected = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *replayed = NULL;
  const char *env[] = { key_env, NULL };
  AttackRun run = { 0 };

  test_server_reply_full (f->server, REPLY_SSE, 200, s->first, NULL);
  test_server_reply_full (f->server, REPLY_SSE, 200, s->second, NULL);
  attack_cli (&run, NULL, env, "run", "--provider", s->kind, "--base-url", base,
              "--model", "model-x", "--prompt", "What is my key?", "-n", "3", "--stream",
              "--trace", trace);

  g_assert_cmpstr (run.err, ==, "The loop finished after 2 iterations.\n");
  expected = g_strconcat ("user: What is my key?\n"
                          "assistant: Your key is [redacted], I will echo it.\n",
                          s->call_line,
                          strstr (s->call_line, "[c1]") != NULL ? "tool echo [c1]: [redacted]\n"
                                                               : "tool echo [tu1]: [redacted]\n",
                          "assistant: Echoed [redacted].\n", NULL);
  g_assert_cmpstr (run.out, ==, expected);
  g_assert_cmpint (run.status, ==, 0);
  assert_run_clean (&run, KEY);
  attack_run_clear (&run);

  /* The echo tool got the real key: redaction is for what is kept, not
   * for what the loop does. The second request carried its result. */
  g_assert_cmpuint (f->server->bodies->len, ==, 2);

  /* The trace keeps the stream's framing and replays to the same run. */
  contents = read_trace (trace, KEY);
  g_assert_nonnull (strstr (contents, s->framing));
  g_assert_nonnull (strstr (contents, "Your key is [redacted], I will echo it."));

  attack_cli (&run, NULL, env, "replay", trace, "--mock-tools", "--check", "--save", saved);
  g_assert_cmpint (run.status, ==, 0);
  assert_run_clean (&run, KEY);
  replayed = read_trace (saved, KEY);
  g_assert_nonnull (strstr (replayed, "Echoed [redacted]."));
  attack_run_clear (&run);
}

/* The wire view of a streamed turn joins the pieces too. */
static void
test_stream_pieces_engine (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *base = g_strconcat (f->server->base_url, "/v1", NULL);
  g_autoptr(TbProvider) provider = tb_openai_provider_new (base, "gpt-x", KEY);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "Hi");
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) deltas = g_string_new (NULL);
  const char *wire;

  tb_provider_request_add_message (request, user);
  request->stream = TRUE;
  test_server_reply_full (f->server, REPLY_SSE, 200, openai_answer, NULL);
  response = test_complete (provider, request, &error);
  g_assert_no_error (error);

  /* What the loop gets is what the model said; what is shown is not. */
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Echoed " KEY ".");
  wire = tb_provider_get_last_response_body (provider);
  assert_no_key ("the wire view", wire, KEY);
  join_stream (wire, deltas);
  g_assert_cmpstr (deltas->str, ==, "Echoed [redacted].");
  g_assert_nonnull (strstr (wire, "data: [DONE]\n\n"));
}

/* ---- (d) credentials in the base URL -------------------------------------- */

static void
test_base_url_credentials (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "url.jsonl", NULL);
  g_autoptr(GUri) uri = g_uri_parse (f->server->base_url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *base = g_strdup_printf ("http://alice:pa55-w0rd-9c1e@127.0.0.1:%d/v1"
                                           "?Token=tok-3e4f5a6b7c&api-key=QK-0a1b2c3d4e",
                                           g_uri_get_port (uri));
  /* The base URL's query follows the endpoint's path. */
  g_autofree char *shown = g_strdup_printf ("from http://127.0.0.1:%d/v1/chat/completions"
                                            "?Token=[redacted]&api-key=[redacted]: ",
                                            g_uri_get_port (uri));
  g_autofree char *header = g_strdup_printf ("\"base_url\":\"http://127.0.0.1:%d/v1"
                                             "?Token=[redacted]&api-key=[redacted]\"",
                                             g_uri_get_port (uri));
  g_autofree char *request = g_strdup_printf ("\"url\":\"http://127.0.0.1:%d/v1/"
                                              "chat/completions?Token=[redacted]"
                                              "&api-key=[redacted]\"", g_uri_get_port (uri));
  g_autofree char *contents = NULL;
  const char *secrets[] = { "pa55-w0rd-9c1e", "alice", "tok-3e4f5a6b7c", "QK-0a1b2c3d4e" };
  const char *env[] = { "OPENAI_API_KEY=" KEY, NULL };
  AttackRun run = { 0 };

  /* A server that goes away: the message names the URL. */
  test_server_reply_full (f->server, REPLY_CLOSE, 200, "", NULL);
  attack_cli (&run, NULL, env, "run", "--provider", "openai", "--base-url", base,
              "--model", "gpt-x", "--prompt", "Hi", "-n", "2", "--trace", trace);

  g_test_message ("%s", run.err);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (g_str_has_prefix (run.err, "toolbench-cli: the loop failed: "));
  g_assert_nonnull (strstr (run.err, shown));
  contents = read_trace (trace, KEY);
  /* The header and each request give the URL without the credentials. */
  g_assert_nonnull (strstr (contents, header));
  g_assert_nonnull (strstr (contents, request));
  for (guint i = 0; i < G_N_ELEMENTS (secrets); i++)
    {
      assert_no_key ("standard error", run.err, secrets[i]);
      assert_no_key ("standard output", run.out, secrets[i]);
      assert_no_key (trace, contents, secrets[i]);
    }
  attack_run_clear (&run);
}

/* ---- (e) replay --save ---------------------------------------------------- */

/* A trace from elsewhere (another tool, an older version) with the key in
 * the clear: in a message, JSON-escaped in a call's arguments, and
 * percent-encoded in a URL a tool returned. */
static const char foreign_trace[] =
  "{\"format\":\"toolbench-trace\",\"version\":1,\"created\":\"2026-01-01T00:00:00Z\","
  "\"provider\":{\"kind\":\"openai\",\"base_url\":\"http://bob:" KEY "@example.org/v1\","
  "\"model\":\"gpt-x\"},\"max_iterations\":4,\"tools\":[{\"name\":\"echo\","
  "\"description\":\"Returns the text it is given.\",\"parameters\":{\"type\":\"object\","
  "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}}]}\n"
  "{\"seq\":1,\"t\":1,\"type\":\"message\",\"iteration\":0,\"origin\":\"person\","
  "\"message\":{\"role\":\"user\",\"text\":\"My key is " KEY "\"}}\n"
  "{\"seq\":2,\"t\":2,\"type\":\"message\",\"iteration\":1,\"origin\":\"model\","
  "\"message\":{\"role\":\"assistant\",\"text\":\"Noted: " KEY ".\",\"tool_calls\":["
  "{\"id\":\"c1\",\"name\":\"echo\",\"raw_arguments\":\"{\\\"text\\\":\\\"" KEY_ESCAPED
  "\\\"}\"}]}}\n"
  "{\"seq\":3,\"t\":3,\"type\":\"tool-call\",\"iteration\":1,\"index\":0,\"offered\":true,"
  "\"call\":{\"id\":\"c1\",\"name\":\"echo\",\"arguments\":{\"text\":\"" KEY_ESCAPED "\"}}}\n"
  "{\"seq\":4,\"t\":4,\"type\":\"decision\",\"iteration\":1,\"call_id\":\"c1\","
  "\"decision\":\"approve\",\"by\":\"policy\"}\n"
  "{\"seq\":5,\"t\":5,\"type\":\"tool-result\",\"iteration\":1,\"call_id\":\"c1\","
  "\"name\":\"echo\",\"result\":{\"ok\":true,\"kind\":\"none\",\"output\":"
  "\"https://example.org/?q=" KEY_PERCENT "\",\"metadata\":{},\"warnings\":[],"
  "\"duration_us\":40},\"content\":\"https://example.org/?q=" KEY_PERCENT "\"}\n"
  "{\"seq\":6,\"t\":6,\"type\":\"message\",\"iteration\":1,\"origin\":\"tool\","
  "\"message\":{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"name\":\"echo\","
  "\"text\":\"https://example.org/?q=" KEY_PERCENT "\"}}\n"
  "{\"seq\":7,\"t\":7,\"type\":\"message\",\"iteration\":2,\"origin\":\"model\","
  "\"message\":{\"role\":\"assistant\",\"text\":\"Done with " KEY ".\"}}\n"
  "{\"seq\":8,\"t\":8,\"type\":\"end\",\"iteration\":2,\"state\":\"finished\","
  "\"reason\":\"answer\",\"max_iterations\":4}\n";

static void
test_replay_foreign_trace (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "foreign.jsonl", NULL);
  g_autofree char *saved = g_build_filename (f->dir, "saved.jsonl", NULL);
  g_autofree char *contents = NULL;
  const char *env[] = { "OPENAI_API_KEY=" KEY, NULL };
  AttackRun run = { 0 };

  attack_write_file (trace, foreign_trace);

  for (guint json = 0; json < 2; json++)
    {
      attack_cli (&run, NULL, env, "replay", trace, "--mock-tools", json ? "--json" : "--check",
                  "--save", saved);
      g_test_message ("%s%s", run.out, run.err);
      g_assert_cmpint (run.status, ==, 0);
      assert_run_clean (&run, KEY);
      g_clear_pointer (&contents, g_free);
      contents = read_trace (saved, KEY);
      g_assert_nonnull (strstr (contents, "Done with [redacted]."));
      g_assert_nonnull (strstr (contents, "\"state\":\"finished\""));
      attack_run_clear (&run);
    }
}

/* Showing or exporting someone else's trace prints what it holds, except
 * a key that is in this environment, in any of its forms. */
static void
test_show_foreign_trace (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "foreign.jsonl", NULL);
  const char *env[] = { "OPENAI_API_KEY=" KEY, NULL };
  const char *commands[][4] = {
    { "trace", "show", NULL, NULL },
    { "trace", "show", "--json", NULL },
    { "trace", "export", "--format", "openai" },
  };
  AttackRun run = { 0 };

  attack_write_file (trace, foreign_trace);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *argv[6] = { commands[i][0], commands[i][1], trace, commands[i][2],
                              commands[i][3], NULL };

      attack_cli_argv (&run, NULL, env, argv);
      g_test_message ("%s %s: %s%s", commands[i][0], commands[i][1], run.out, run.err);
      g_assert_cmpint (run.status, ==, 0);
      assert_run_clean (&run, KEY);
      g_assert_nonnull (strstr (run.out, "[redacted]"));
      attack_run_clear (&run);
    }
}

/* A command tool that prints a key from its environment, given to the
 * replay of a recorded run (recorded where the tool was not loaded): the
 * tool runs during the replay and its output reaches the report and the
 * saved trace, which keep the key out, for the default variable and for
 * one named with --api-key-env. */
static void
test_replay_tool_prints_key (Fixture       *f,
                             gconstpointer  data)
{
  static const struct { const char *variable; const char *key; } cases[] = {
    { "OPENAI_API_KEY", KEY }, { "MY_MODEL_KEY", OTHER_KEY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *tools = g_build_filename (f->dir, "tools", NULL);
      g_autofree char *manifest = g_build_filename (tools, "show-key.json", NULL);
      g_autofree char *script = g_build_filename (f->dir, "script.json", NULL);
      g_autofree char *trace = g_build_filename (f->dir, "run.jsonl", NULL);
      g_autofree char *saved = g_build_filename (f->dir, "saved.jsonl", NULL);
      g_autofree char *manifest_text = NULL;
      g_autofree char *env_entry = g_strdup_printf ("%s=%s", cases[i].variable, cases[i].key);
      g_autofree char *run_text = NULL;
      g_autofree char *saved_text = NULL;
      const char *env[] = { env_entry, NULL };
      AttackRun run = { 0 };

      g_mkdir_with_parents (tools, 0700);
      manifest_text = g_strdup_printf ("{\"name\":\"show_key\",\"description\":\"Shows it\","
                                       "\"parameters\":{\"type\":\"object\"},"
                                       "\"command\":[\"/bin/sh\",\"-c\","
                                       "\"printf '{\\\"k\\\":\\\"%%s\\\"}' \\\"$%s\\\"\"]}",
                                       cases[i].variable);
      attack_write_file (manifest, manifest_text);
      attack_write_file (script, "[{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"show_key\","
                                 "\"arguments\":{}}]},{\"text\":\"Seen.\"}]");

      attack_cli (&run, NULL, env, "run", "--script", script, "--api-key-env",
                  cases[i].variable, "-n", "3", "--prompt", "Show the key", "--trace", trace);
      g_assert_cmpint (run.status, ==, 0);
      assert_run_clean (&run, cases[i].key);
      run_text = read_trace (trace, cases[i].key);
      attack_run_clear (&run);

      attack_cli (&run, NULL, env, "replay", trace, "--tools-dir", tools, "--api-key-env",
                  cases[i].variable, "--json", "--save", saved);
      g_test_message ("%s%s", run.out, run.err);
      g_assert_cmpint (run.status, ==, 0);
      /* The tool ran and said the key; the report's diff shows it redacted. */
      g_assert_nonnull (strstr (run.out, "[redacted]"));
      assert_run_clean (&run, cases[i].key);
      saved_text = read_trace (saved, cases[i].key);
      g_assert_nonnull (strstr (saved_text, "[redacted]"));
      attack_run_clear (&run);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/attack/secrets/refusal-engine", Fixture, NULL, setup_anthropic,
              test_refusal_engine, teardown);
  g_test_add ("/attack/secrets/stream-pieces-engine", Fixture, NULL, setup,
              test_stream_pieces_engine, teardown);

  if (g_getenv ("TOOLBENCH_CLI") == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set; run through meson test");
      return g_test_run ();
    }

  g_test_add ("/attack/secrets/refusal-repeats-key", Fixture, NULL, setup,
              test_refusal_repeats_key, teardown);
  g_test_add ("/attack/secrets/stream-pieces/openai", Fixture, &streamed_openai,
              setup_streamed, test_stream_pieces, teardown);
  g_test_add ("/attack/secrets/stream-pieces/anthropic", Fixture, &streamed_anthropic,
              setup_streamed, test_stream_pieces, teardown);
  g_test_add ("/attack/secrets/stream-pieces/openai-responses", Fixture, &streamed_responses,
              setup_streamed, test_stream_pieces, teardown);
  g_test_add ("/attack/secrets/base-url-credentials", Fixture, NULL, setup,
              test_base_url_credentials, teardown);
  g_test_add ("/attack/secrets/replay-foreign-trace", Fixture, NULL, setup,
              test_replay_foreign_trace, teardown);
  g_test_add ("/attack/secrets/show-foreign-trace", Fixture, NULL, setup,
              test_show_foreign_trace, teardown);
  g_test_add ("/attack/secrets/replay-tool-prints-key", Fixture, NULL, setup,
              test_replay_tool_prints_key, teardown);

  return g_test_run ();
}
