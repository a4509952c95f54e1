/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "attack-util.h"
#include "tb-test-http.h"

/* Promise: a streamed turn ends when the server says it does. A server
 * sends the format's last event ([DONE], response.completed, message_stop,
 * the chunk with a finishReason, Ollama's line with "done": true) and then
 * keeps the connection open, as proxies and some
 * local servers do. The turn finishes at once with the right answer,
 * through the engine and through toolbench-cli run --stream, with a
 * 30 s idle timeout that must not be what ends it. */

#define IDLE_TIMEOUT_MS 30000
#define FAST_US (5 * G_USEC_PER_SEC)

typedef struct
{
  const char *kind;
  const char *key_header;
  const char *key_variable;
  const char *stream;       /* the whole turn, last event included */
  ReplyMode   mode;         /* how it is framed, held open after it */
  const char *trailing;     /* junk after the last event, in that framing */
} Format;

static const Format openai = {
  "openai", "Authorization", "OPENAI_API_KEY",
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello\"}}]}"
  "\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there.\"}}]}\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
  "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}\n\n"
  "data: [DONE]\n\n",
  REPLY_SSE_HANG, "data: {\"not\": json]]\n\n"
};

static const Format openai_responses = {
  "openai-responses", "Authorization", "OPENAI_API_KEY",
  "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\","
  "\"status\":\"in_progress\",\"output\":[]}}\n\n"
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"item_id\":\"m1\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hello\"}\n\n"
  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
  "\"item_id\":\"m1\",\"output_index\":0,\"content_index\":0,\"delta\":\" there.\"}\n\n"
  "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{"
  "\"id\":\"r1\",\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"id\":\"m1\","
  "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Hello there.\"}]}],"
  "\"usage\":{\"input_tokens\":3,\"output_tokens\":2}}}\n\n",
  REPLY_SSE_HANG, "data: {\"not\": json]]\n\n"
};

static const Format anthropic = {
  "anthropic", "x-api-key", "ANTHROPIC_API_KEY",
  "event: message_start\ndata: {\"type\":\"message_start\","
  "\"message\":{\"usage\":{\"input_tokens\":3}}}\n\n"
  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
  "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n"
  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
  "\"delta\":{\"type\":\"text_delta\",\"text\":\" there.\"}}\n\n"
  "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
  "event: message_delta\ndata: {\"type\":\"message_delta\","
  "\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\n"
  "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
  REPLY_SSE_HANG, "data: {\"not\": json]]\n\n"
};

static const Format gemini = {
  "gemini", "x-goog-api-key", "GEMINI_API_KEY",
  "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hello\"}]}}]}"
  "\n\n"
  "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\" there.\"}]},"
  "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":3,"
  "\"candidatesTokenCount\":2}}\n\n",
  REPLY_SSE_HANG, "data: {\"not\": json]]\n\n"
};

static const Format ollama = {
  "ollama", "Authorization", "OLLAMA_API_KEY",
  "{\"model\":\"model-x\",\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},"
  "\"done\":false}\n"
  "{\"model\":\"model-x\",\"message\":{\"role\":\"assistant\",\"content\":\" there.\"},"
  "\"done\":false}\n"
  "{\"model\":\"model-x\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},"
  "\"done_reason\":\"stop\",\"done\":true,\"prompt_eval_count\":3,\"eval_count\":2}\n",
  REPLY_NDJSON_HANG, "{\"not\": json]]\n"
};

typedef struct
{
  TestServer *server;
  char       *dir;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  const Format *format = data;
  g_autoptr(GError) error = NULL;

  f->server = test_server_new (format->key_header);
  f->dir = g_dir_make_tmp ("tb-stream-end-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  test_server_free (f->server);
}

static TbProvider *
provider_new (const Format *format,
              const char   *base_url)
{
  g_autoptr(GError) error = NULL;
  TbProvider *provider = tb_provider_new_for_kind (format->kind, base_url, "model-x", "key-1234",
                                                   &error);

  g_assert_no_error (error);
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (provider), IDLE_TIMEOUT_MS);
  return provider;
}

/* The engine: the response comes back as soon as the last event is in. */
static void
test_engine (Fixture       *f,
             gconstpointer  data)
{
  const Format *format = data;
  g_autoptr(TbProvider) provider = provider_new (format, f->server->base_url);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "Say hello");
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;
  gint64 elapsed;

  tb_provider_request_add_message (request, user);
  request->stream = TRUE;
  test_server_reply_full (f->server, format->mode, 200, format->stream, NULL);

  start = g_get_monotonic_time ();
  response = test_complete (provider, request, &error);
  elapsed = g_get_monotonic_time () - start;

  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Hello there.");
  g_assert_cmpuint (tb_message_get_n_tool_calls (response->message), ==, 0);
  g_assert_nonnull (response->usage);
  g_assert_cmpint (elapsed, <, FAST_US);
  g_test_message ("%s: the turn ended %" G_GINT64_FORMAT " ms after the request",
                  format->kind, elapsed / 1000);
  /* What was received is what observers saw. */
  g_assert_cmpstr (tb_provider_get_last_response_body (provider), ==, format->stream);
}

/* Bytes after the last event (a proxy's padding, the next response of a
 * confused server) are not read as part of the turn. */
static void
test_engine_trailing_bytes (Fixture       *f,
                            gconstpointer  data)
{
  const Format *format = data;
  g_autoptr(TbProvider) provider = provider_new (format, f->server->base_url);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "Say hello");
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = g_strconcat (format->stream, format->trailing, NULL);
  gint64 start;

  tb_provider_request_add_message (request, user);
  request->stream = TRUE;
  test_server_reply_full (f->server, format->mode, 200, body, NULL);

  start = g_get_monotonic_time ();
  response = test_complete (provider, request, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "Hello there.");
  g_assert_cmpint (g_get_monotonic_time () - start, <, FAST_US);
}

/* The same through the dispatch loop, twice in a row: the held
 * connection is given up, and the next request gets a new one. */
static void
test_engine_loop (Fixture       *f,
                  gconstpointer  data)
{
  const Format *format = data;
  g_autoptr(TbProvider) provider = provider_new (format, f->server->base_url);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbDispatchLoop) loop = NULL;
  gint64 start;

  test_server_reply_full (f->server, format->mode, 200, format->stream, NULL);
  test_server_reply_full (f->server, format->mode, 200, format->stream, NULL);

  loop = tb_dispatch_loop_new (registry, provider, 4);
  tb_dispatch_loop_set_stream (loop, TRUE);
  start = g_get_monotonic_time ();
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(TbMessage) last = NULL;
      GListModel *messages = tb_dispatch_loop_get_messages (loop);

      tb_dispatch_loop_add_user_message (loop, "Say hello", NULL);
      g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
      last = g_list_model_get_item (messages, g_list_model_get_n_items (messages) - 1);
      g_assert_cmpstr (tb_message_get_text (last), ==, "Hello there.");
    }
  g_assert_cmpint (g_get_monotonic_time () - start, <, FAST_US);
  g_assert_cmpuint (f->server->bodies->len, ==, 2);
}

/* toolbench-cli run --stream prints the answer and exits 0 at once. */
static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  const Format *format = data;
  g_autofree char *trace = g_build_filename (f->dir, "run.jsonl", NULL);
  g_autofree char *key_env = g_strdup_printf ("%s=key-1234", format->key_variable);
  g_autofree char *timeout = g_strdup_printf ("%u", IDLE_TIMEOUT_MS);
  g_autofree char *contents = NULL;
  const char *env[] = { key_env, NULL };
  AttackRun run = { 0 };

  if (g_getenv ("TOOLBENCH_CLI") == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set; run through meson test");
      return;
    }
  test_server_reply_full (f->server, format->mode, 200, format->stream, NULL);

  attack_cli (&run, NULL, env, "run", "--provider", format->kind, "--base-url",
              f->server->base_url, "--model", "model-x", "--prompt", "Say hello",
              "--max-iterations", "2", "--stream", "--timeout-ms", timeout, "--trace", trace);

  g_test_message ("%s: toolbench-cli took %" G_GINT64_FORMAT " ms", format->kind,
                  run.elapsed_us / 1000);
  g_assert_cmpstr (run.err, ==, "The loop finished after 1 iteration.\n");
  g_assert_cmpstr (run.out, ==, "user: Say hello\nassistant: Hello there.\n");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpint (run.elapsed_us, <, FAST_US);

  contents = attack_read_file (trace);
  g_assert_nonnull (contents);
  g_assert_nonnull (strstr (contents, "\"type\":\"end\""));
  g_assert_nonnull (strstr (contents, "\"state\":\"finished\""));
  attack_run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  static const Format *formats[] = { &openai, &openai_responses, &anthropic, &gemini, &ollama };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *engine = g_strdup_printf ("/attack/stream-end/%s/engine",
                                                 formats[i]->kind);
      g_autofree char *trailing = g_strdup_printf ("/attack/stream-end/%s/trailing-bytes",
                                                   formats[i]->kind);
      g_autofree char *loop = g_strdup_printf ("/attack/stream-end/%s/loop", formats[i]->kind);
      g_autofree char *cli = g_strdup_printf ("/attack/stream-end/%s/cli", formats[i]->kind);

      g_test_add (engine, Fixture, formats[i], setup, test_engine, teardown);
      g_test_add (trailing, Fixture, formats[i], setup, test_engine_trailing_bytes, teardown);
      g_test_add (loop, Fixture, formats[i], setup, test_engine_loop, teardown);
      g_test_add (cli, Fixture, formats[i], setup, test_cli, teardown);
    }

  return g_test_run ();
}
