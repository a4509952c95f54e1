/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-cli-live"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "tb-test-http.h"

/* toolbench-cli run and eval against live-provider wire formats, served by
 * a local SoupServer: the live code paths without any network. */

typedef struct
{
  TestServer *server;
  char       *dir;
} Fixture;

typedef struct
{
  char    *out;
  char    *err;
  int      status;
  gboolean done;
} Output;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->server = test_server_new (data != NULL ? data : "Authorization");
  f->dir = g_dir_make_tmp ("tb-live-XXXXXX", NULL);
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

static void
communicate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Output *output = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &output->out,
                                        &output->err, &error);
  g_assert_no_error (error);
  output->status = g_subprocess_get_exit_status (G_SUBPROCESS (object));
  output->done = TRUE;
}

/* Runs the CLI while this process keeps serving; @env holds pairs, a
 * %NULL value unsets the variable. */
static void
cli (Output             *output,
     const char * const *env,
     const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; env != NULL && env[i] != NULL; i += 2)
    if (env[i + 1] != NULL)
      g_subprocess_launcher_setenv (launcher, env[i], env[i + 1], TRUE);
    else
      g_subprocess_launcher_unsetenv (launcher, env[i]);
  g_ptr_array_add (argv, (char *) g_getenv ("TOOLBENCH_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, "", NULL, communicate_cb, output);
  while (!output->done)
    g_main_context_iteration (NULL, TRUE);
}

static const char scenario[] =
  "{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"live-add\","
  "\"prompt\":\"What is 2 + 3?\",\"tools\":[\"add\"],\"max_iterations\":3,"
  "\"expect\":{\"state\":\"finished\","
  "\"calls\":[{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}],"
  "\"text_contains\":\"5\"}}";

static const char call_add[] =
  "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
  "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"add\","
  "\"arguments\":\"{\\\"a\\\":2,\\\"b\\\":3}\"}}]},\"finish_reason\":\"tool_calls\"}]}";

static void
test_eval_live (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "live-add.json", NULL);
  g_autofree char *base = g_strconcat (f->server->base_url, "/v1", NULL);
  const char *env[] = { "TB_TEST_LIVE_KEY", "sk-live-secret", NULL };
  const char *args[] = { "eval", "--scenarios", f->dir, "--provider", "openai", "--base-url",
                         base, "--models", "model-a,model-b,no-such-model", "--api-key-env",
                         "TB_TEST_LIVE_KEY", "--json", "--jobs", "1", NULL };
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  Output output = { 0 };
  JsonArray *rows;

  g_assert_true (g_file_set_contents (path, scenario, -1, NULL));
  /* model-a answers right; model-b sums wrong. */
  test_server_reply (f->server, 200, "application/json", call_add);
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"content\":\"It is 5.\"},"
                     "\"finish_reason\":\"stop\"}]}");
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":["
                     "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"add\","
                     "\"arguments\":\"{\\\"a\\\":2}\"}}]},\"finish_reason\":\"tool_calls\"}]}");
  test_server_reply (f->server, 200, "application/json",
                     "{\"choices\":[{\"message\":{\"content\":\"I could not add.\"},"
                     "\"finish_reason\":\"stop\"}]}");
  /* An unknown model: its column fails with the provider's words, the rest ran. */
  test_server_reply (f->server, 404, "application/json",
                     "{\"error\":{\"message\":\"The model no-such-model does not exist\"}}");

  cli (&output, env, args);
  g_assert_cmpint (output.status, ==, 1);
  node = tb_json_parse (output.out, -1, &error);
  g_assert_no_error (error);
  rows = json_object_get_array_member (json_node_get_object (node), "results");
  g_assert_cmpuint (json_array_get_length (rows), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (rows, 2),
                                                  "status"), ==, "failed");
  g_assert_nonnull (strstr (json_array_get_string_element (
                      json_object_get_array_member (json_array_get_object_element (rows, 2),
                                                    "failures"), 0),
                    "The model no-such-model does not exist"));
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (rows, 0),
                                                 "passed"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (rows, 1),
                                                  "model"), ==, "model-b");
  g_assert_false (json_object_get_boolean_member (json_array_get_object_element (rows, 1),
                                                  "passed"));
  /* One invalid call out of one. */
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (rows, 1),
                                                    "invalid_argument_rate"), ==, 1.0);

  g_assert_cmpuint (f->server->bodies->len, ==, 5);
  g_assert_cmpstr (json_object_get_string_member (test_server_request (f->server, 0), "model"),
                   ==, "model-a");
  g_assert_cmpstr (json_object_get_string_member (test_server_request (f->server, 2), "model"),
                   ==, "model-b");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "Bearer sk-live-secret");
  g_free (output.out);
  g_free (output.err);
}

static void
test_run_anthropic_stream (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "run.jsonl", NULL);
  g_autofree char *contents = NULL;
  const char *env[] = { "ANTHROPIC_API_KEY", "sk-ant-live-secret", NULL };
  const char *args[] = { "run", "--provider", "anthropic", "--base-url", f->server->base_url,
                         "--model", "claude-x", "--prompt", "Echo hi", "--max-iterations", "3",
                         "--stream", "--trace", trace, NULL };
  Output output = { 0 };

  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "event: message_start\ndata: {\"type\":\"message_start\","
                          "\"message\":{\"usage\":{\"input_tokens\":5}}}\n\n"
                          "event: content_block_start\ndata: {\"type\":\"content_block_start\","
                          "\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"tu1\","
                          "\"name\":\"echo\",\"input\":{}}}\n\n"
                          "event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
                          "\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
                          "\"partial_json\":\"{\\\"text\\\":\\\"hi\\\"}\"}}\n\n"
                          "event: content_block_stop\ndata: {\"type\":\"content_block_stop\","
                          "\"index\":0}\n\n"
                          "event: message_delta\ndata: {\"type\":\"message_delta\","
                          "\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n"
                          "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", NULL);
  test_server_reply_full (f->server, REPLY_SSE, 200,
                          "event: message_start\ndata: {\"type\":\"message_start\","
                          "\"message\":{\"usage\":{}}}\n\n"
                          "event: content_block_start\ndata: {\"type\":\"content_block_start\","
                          "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
                          "event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
                          "\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Said \"}}\n\n"
                          "event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
                          "\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi.\"}}\n\n"
                          "event: content_block_stop\ndata: {\"type\":\"content_block_stop\","
                          "\"index\":0}\n\n"
                          "event: message_delta\ndata: {\"type\":\"message_delta\","
                          "\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n"
                          "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", NULL);

  cli (&output, env, args);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_cmpstr (output.out, ==,
                   "user: Echo hi\n"
                   "assistant calls echo {\"text\":\"hi\"} [tu1]\n"
                   "tool echo [tu1]: hi\n"
                   "assistant: Said hi.\n");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "sk-ant-live-secret");

  /* The key reached the server, and never the trace. */
  g_assert_true (g_file_get_contents (trace, &contents, NULL, NULL));
  g_assert_null (strstr (contents, "sk-ant-live-secret"));
  g_assert_nonnull (strstr (contents, "\"type\":\"request\""));
  g_assert_nonnull (strstr (contents, "input_json_delta"));
  g_free (output.out);
  g_free (output.err);
}

/* toolbench-cli models: "Test connection" without the app. The key comes
 * from the kind's variable and never reaches the output, names with control
 * characters are escaped, and a refusal exits 1 with the endpoint's words. */
/* eval with Ollama's default local endpoint replaced by the fake, no key:
 * it runs, a model not pulled fails its column with what to do, and the
 * tokens Ollama counts are the row's. */
static void
test_eval_ollama (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "live-add.json", NULL);
  const char *env[] = { "OLLAMA_API_KEY", NULL, NULL };
  const char *args[] = { "eval", "--scenarios", f->dir, "--provider", "ollama", "--base-url",
                         f->server->base_url, "--models", "qwen2.5,llama9", "--json",
                         "--jobs", "1", NULL };
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  Output output = { 0 };
  JsonArray *rows;
  JsonObject *row;

  g_assert_true (g_file_set_contents (path, scenario, -1, NULL));
  test_server_reply (f->server, 200, "application/json",
                     "{\"model\":\"qwen2.5\",\"message\":{\"role\":\"assistant\","
                     "\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"add\","
                     "\"arguments\":{\"a\":2,\"b\":3}}}]},\"done_reason\":\"stop\","
                     "\"done\":true,\"prompt_eval_count\":40,\"eval_count\":9}");
  test_server_reply (f->server, 200, "application/json",
                     "{\"model\":\"qwen2.5\",\"message\":{\"role\":\"assistant\","
                     "\"content\":\"It is 5.\"},\"done_reason\":\"stop\",\"done\":true,"
                     "\"prompt_eval_count\":60,\"eval_count\":4}");
  test_server_reply (f->server, 404, "application/json",
                     "{\"error\":\"model \\\"llama9\\\" not found, try pulling it first\"}");

  cli (&output, env, args);
  g_assert_cmpint (output.status, ==, 1);
  node = tb_json_parse (output.out, -1, &error);
  g_assert_no_error (error);
  rows = json_object_get_array_member (json_node_get_object (node), "results");
  g_assert_cmpuint (json_array_get_length (rows), ==, 2);
  row = json_array_get_object_element (rows, 0);
  g_assert_true (json_object_get_boolean_member (row, "passed"));
  g_assert_cmpint (json_object_get_int_member (row, "input_tokens"), ==, 100);
  g_assert_cmpint (json_object_get_int_member (row, "output_tokens"), ==, 13);
  row = json_array_get_object_element (rows, 1);
  g_assert_cmpstr (json_object_get_string_member (row, "status"), ==, "failed");
  g_assert_nonnull (strstr (json_array_get_string_element (
                      json_object_get_array_member (row, "failures"), 0),
                    "Ollama has no model “llama9”; run “ollama pull llama9” or choose "
                    "another model."));
  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/api/chat");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "");
  g_free (output.out);
  g_free (output.err);
}

/* Ollama's own API on a local URL: no key variable is set, and none is
 * asked for; a call, its result under the tool's name, the answer. */
static void
test_run_ollama_stream (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "run.jsonl", NULL);
  g_autofree char *contents = NULL;
  const char *env[] = { "OLLAMA_API_KEY", NULL, "OPENAI_API_KEY", NULL, NULL };
  const char *args[] = { "run", "--provider", "ollama", "--base-url", f->server->base_url,
                         "--model", "llama3.2", "--prompt", "Echo hi", "--max-iterations", "3",
                         "--stream", "--trace", trace, NULL };
  Output output = { 0 };
  JsonArray *messages;

  test_server_reply_full (f->server, REPLY_NDJSON, 200,
                          "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\","
                          "\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"echo\","
                          "\"arguments\":{\"text\":\"hi\"}}}]},\"done\":false}\n"
                          "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\","
                          "\"content\":\"\"},\"done_reason\":\"stop\",\"done\":true,"
                          "\"prompt_eval_count\":12,\"eval_count\":5}\n", NULL);
  test_server_reply_full (f->server, REPLY_NDJSON, 200,
                          "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\","
                          "\"content\":\"Said \"},\"done\":false}\n"
                          "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\","
                          "\"content\":\"hi.\"},\"done\":false}\n"
                          "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\","
                          "\"content\":\"\"},\"done_reason\":\"stop\",\"done\":true}\n", NULL);

  cli (&output, env, args);
  g_assert_cmpstr (output.err, ==, "The loop finished after 2 iterations.\n");
  g_assert_cmpint (output.status, ==, 0);
  g_assert_cmpstr (output.out, ==,
                   "user: Echo hi\n"
                   "assistant calls echo {\"text\":\"hi\"} [call_0]\n"
                   "tool echo [call_0]: hi\n"
                   "assistant: Said hi.\n");
  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/api/chat");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "");
  messages = json_object_get_array_member (test_server_request (f->server, 1), "messages");
  test_assert_json_equal (json_array_get_element (messages, 2),
                          "{\"role\":\"tool\",\"tool_name\":\"echo\",\"content\":\"hi\"}");

  g_assert_true (g_file_get_contents (trace, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"kind\":\"ollama\""));
  g_assert_nonnull (strstr (contents, "\\\"done\\\":true"));
  g_free (output.out);
  g_free (output.err);
}

static void
test_models (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *base = g_strconcat (f->server->base_url, "/v1", NULL);
  const char *env[] = { "GEMINI_API_KEY", "gk-secret", NULL };
  const char *args[] = { "models", "--provider", "gemini", "--base-url", base, NULL };
  const char *json_args[] = { "models", "--provider", "gemini", "--base-url", base, "--json",
                              NULL };
  const char *bad_args[] = { "models", "--provider", "nope", NULL };
  const char *missing_args[] = { "models", NULL };
  Output output = { 0 };
  Output json_output = { 0 };
  Output refused = { 0 };
  Output bad = { 0 };
  Output missing = { 0 };
  g_autofree char *report = NULL;
  g_autoptr(JsonNode) listed = NULL;
  Output *outputs[] = { &output, &json_output, &refused, &bad, &missing };

  test_server_reply (f->server, 200, "application/json",
                     "{\"models\":[{\"name\":\"models/gemini-2.5-pro\"},"
                     "{\"name\":\"models/evil\\u001b[31m\"}]}");
  cli (&output, env, args);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_cmpstr (output.out, ==, "gemini-2.5-pro\nevil\\u001b[31m\n");
  report = g_strdup_printf ("Connected: %s/models answered HTTP 200 with 2 models.\n", base);
  g_assert_cmpstr (output.err, ==, report);
  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/v1/models");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "gk-secret");

  test_server_reply (f->server, 200, "application/json",
                     "{\"models\":[{\"name\":\"models/gemini-2.5-pro\"}]}");
  cli (&json_output, env, json_args);
  g_assert_cmpint (json_output.status, ==, 0);
  listed = test_parse (json_output.out);
  test_assert_json_equal (listed, "[\"gemini-2.5-pro\"]");

  test_server_reply (f->server, 400, "application/json",
                     "{\"error\":{\"message\":\"API key gk-secret not valid.\"}}");
  cli (&refused, env, args);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_cmpstr (refused.out, ==, "");
  g_assert_nonnull (strstr (refused.err, "answered HTTP 400 Bad Request: API key"));
  g_assert_null (strstr (refused.err, "gk-secret"));

  cli (&bad, NULL, bad_args);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "Unknown provider “nope”: use one of openai, "
                                     "openai-responses, anthropic, gemini, ollama"));
  cli (&missing, NULL, missing_args);
  g_assert_cmpint (missing.status, ==, 2);
  g_assert_nonnull (strstr (missing.err, "Name the provider kind with --provider"));

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_free (outputs[i]->out);
      g_free (outputs[i]->err);
    }
}

/* The Responses format through the kind registration: run --provider
 * openai-responses, a tool call, its result sent back as an input item,
 * the answer. */
static void
test_run_openai_responses (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "run.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *input = NULL;
  const char *env[] = { "OPENAI_API_KEY", "sk-resp-live-secret", NULL };
  const char *args[] = { "run", "--provider", "openai-responses", "--base-url",
                         f->server->base_url, "--model", "gpt-x", "--prompt", "Echo hi",
                         "--max-iterations", "3", "--trace", trace, NULL };
  Output output = { 0 };
  JsonObject *second;

  test_server_reply (f->server, 200, "application/json",
                     "{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\","
                     "\"output\":[{\"type\":\"function_call\",\"id\":\"fc_1\","
                     "\"call_id\":\"call_1\",\"name\":\"echo\","
                     "\"arguments\":\"{\\\"text\\\":\\\"hi\\\"}\",\"status\":\"completed\"}],"
                     "\"usage\":{\"input_tokens\":20,\"output_tokens\":5}}");
  test_server_reply (f->server, 200, "application/json",
                     "{\"id\":\"resp_2\",\"object\":\"response\",\"status\":\"completed\","
                     "\"output\":[{\"type\":\"message\",\"id\":\"msg_2\",\"role\":\"assistant\","
                     "\"content\":[{\"type\":\"output_text\",\"text\":\"Said hi.\","
                     "\"annotations\":[]}]}]}");

  cli (&output, env, args);
  g_assert_cmpint (output.status, ==, 0);
  g_assert_cmpstr (output.out, ==,
                   "user: Echo hi\n"
                   "assistant calls echo {\"text\":\"hi\"} [call_1]\n"
                   "tool echo [call_1]: hi\n"
                   "assistant: Said hi.\n");
  g_assert_cmpstr (g_ptr_array_index (f->server->paths, 0), ==, "/responses");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "Bearer sk-resp-live-secret");

  second = test_server_request (f->server, 1);
  input = tb_json_to_string (json_object_get_member (second, "input"), FALSE);
  g_assert_cmpstr (input, ==,
                   "[{\"type\":\"message\",\"role\":\"user\",\"content\":\"Echo hi\"},"
                   "{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"echo\","
                   "\"arguments\":\"{\\\"text\\\":\\\"hi\\\"}\"},"
                   "{\"type\":\"function_call_output\",\"call_id\":\"call_1\","
                   "\"output\":\"hi\"}]");

  /* The key reached the server, and never the trace, whose header names the kind. */
  g_assert_true (g_file_get_contents (trace, &contents, NULL, NULL));
  g_assert_null (strstr (contents, "sk-resp-live-secret"));
  g_assert_nonnull (strstr (contents, "\"kind\":\"openai-responses\""));
  g_free (output.out);
  g_free (output.err);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("TOOLBENCH_CLI") == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set; run through meson test");
      return g_test_run ();
    }

  g_test_add ("/cli-live/eval-openai", Fixture, NULL, setup, test_eval_live, teardown);
  g_test_add ("/cli-live/models", Fixture, "x-goog-api-key", setup, test_models, teardown);
  g_test_add ("/cli-live/run-ollama-stream", Fixture, NULL, setup, test_run_ollama_stream,
              teardown);
  g_test_add ("/cli-live/eval-ollama", Fixture, NULL, setup, test_eval_ollama, teardown);
  g_test_add ("/cli-live/run-anthropic-stream", Fixture, "x-api-key", setup,
              test_run_anthropic_stream, teardown);
  g_test_add ("/cli-live/run-openai-responses", Fixture, NULL, setup,
              test_run_openai_responses, teardown);

  return g_test_run ();
}
