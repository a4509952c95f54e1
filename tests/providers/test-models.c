/* SPDX-License-Identifier: GPL-3.0-or-later */

/* "Test connection" and the model list against a SoupServer on 127.0.0.1:
 * the path and key header of each provider kind, and the sentences a person
 * sees when the endpoint refuses the key or is not an endpoint at all. */

#include "config.h"

#include <libsoup/soup.h>
#include <string.h>
#include <toolbench.h>
#include "../test-soup-util.h"

typedef struct
{
  SoupServer *server;
  char       *base_url;
  guint       status;
  char       *body;
  char       *path;
  char       *auth;
  char       *api_key;
  char       *goog_key;
  char       *version;
  gboolean    hang;
  GPtrArray  *held;
} Fixture;

static void
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Fixture *f = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  g_free (f->path);
  f->path = g_strdup (path);
  g_free (f->auth);
  f->auth = g_strdup (soup_message_headers_get_one (headers, "Authorization"));
  g_free (f->api_key);
  f->api_key = g_strdup (soup_message_headers_get_one (headers, "x-api-key"));
  g_free (f->goog_key);
  f->goog_key = g_strdup (soup_message_headers_get_one (headers, "x-goog-api-key"));
  g_free (f->version);
  f->version = g_strdup (soup_message_headers_get_one (headers, "anthropic-version"));
  if (f->hang)
    {
      soup_server_message_pause (msg);
      g_ptr_array_add (f->held, g_object_ref (msg));
      return;
    }
  soup_server_message_set_status (msg, f->status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, f->body,
                                    strlen (f->body));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (f->server, NULL, handler, f, NULL);
  soup_server_listen_local (f->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  /* A base URL with a path, as people type it. */
  f->base_url = g_strdup_printf ("http://127.0.0.1:%u/v1", test_server_port (f->server));
  f->status = 200;
  f->body = g_strdup ("{}");
  f->held = g_ptr_array_new_with_free_func (g_object_unref);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_pointer (&f->held, g_ptr_array_unref);
  g_assert_finalize_object (f->server);
  g_free (f->base_url);
  g_free (f->body);
  g_free (f->path);
  g_free (f->auth);
  g_free (f->api_key);
  g_free (f->goog_key);
  g_free (f->version);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GStrv
fetch_with (TbProvider   *provider,
            GCancellable *cancellable,
            char        **report,
            GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_http_provider_list_models_async (TB_HTTP_PROVIDER (provider), cancellable, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tb_http_provider_list_models_finish (TB_HTTP_PROVIDER (provider), result, report, error);
}

static GStrv
fetch (Fixture     *f,
       const char  *kind,
       const char  *base_url,
       const char  *key,
       char       **report,
       GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(TbProvider) provider = tb_provider_new_for_kind (kind, base_url, NULL, key,
                                                             &local_error);

  g_assert_no_error (local_error);
  return fetch_with (provider, NULL, report, error);
}

static void
test_openai (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;
  g_auto(GStrv) models = NULL;
  g_autofree char *expected = NULL;

  g_free (f->body);
  f->body = g_strdup ("{\"object\": \"list\", \"data\": [{\"id\": \"gpt-4o\"}, "
                      "{\"id\": \"llama3\"}, {\"nope\": 1}]}");
  models = fetch (f, "openai", f->base_url, "sk-test", &report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (models), ==, 2);
  g_assert_cmpstr (models[0], ==, "gpt-4o");
  g_assert_cmpstr (models[1], ==, "llama3");
  g_assert_cmpstr (f->path, ==, "/v1/models");
  g_assert_cmpstr (f->auth, ==, "Bearer sk-test");
  expected = g_strdup_printf ("Connected: %s/models answered HTTP 200 with 2 models.",
                              f->base_url);
  g_assert_cmpstr (report, ==, expected);
}

static void
test_anthropic_gemini (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;
  g_auto(GStrv) gemini = NULL;
  g_autofree char *base = g_strconcat (f->base_url, "/", NULL);

  g_free (f->body);
  f->body = g_strdup ("{\"data\": [{\"id\": \"claude-x\", \"type\": \"model\"}]}");
  models = fetch (f, "anthropic", base, "ak", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (f->path, ==, "/v1/v1/models");
  g_assert_cmpstr (f->api_key, ==, "ak");
  g_assert_null (f->auth);
  g_assert_cmpstr (f->version, ==, "2023-06-01");
  g_assert_cmpuint (g_strv_length (models), ==, 1);

  g_free (f->body);
  f->body = g_strdup ("{\"models\": [{\"name\": \"models/gemini-2.0-flash\"}]}");
  gemini = fetch (f, "gemini", f->base_url, "gk", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (f->goog_key, ==, "gk");
  g_assert_cmpstr (gemini[0], ==, "gemini-2.0-flash");
}

/* Ollama's GET /api/tags, from its documented example, on the server's
 * root: no key, no header; nothing listening says to start Ollama. */
static void
test_ollama (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;
  g_autofree char *root = g_strndup (f->base_url, strlen (f->base_url) - strlen ("/v1"));
  g_autofree char *expected = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autofree char *closed = NULL;
  g_auto(GStrv) models = NULL;
  GStrv none;

  g_free (f->body);
  f->body = g_strdup ("{\"models\": [{\"name\": \"deepseek-r1:latest\", "
                      "\"model\": \"deepseek-r1:latest\", "
                      "\"modified_at\": \"2025-05-10T08:06:48.639712648-07:00\", "
                      "\"size\": 4683075271, \"details\": {\"family\": \"qwen2\"}}, "
                      "{\"name\": \"llama3.2:latest\", \"model\": \"llama3.2:latest\"}]}");
  models = fetch (f, "ollama", root, NULL, &report, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (f->path, ==, "/api/tags");
  g_assert_null (f->auth);
  g_assert_cmpuint (g_strv_length (models), ==, 2);
  g_assert_cmpstr (models[0], ==, "deepseek-r1:latest");
  g_assert_cmpstr (models[1], ==, "llama3.2:latest");
  expected = g_strdup_printf ("Connected: %s/api/tags answered HTTP 200 with 2 models.", root);
  g_assert_cmpstr (report, ==, expected);

  /* A port that was free a moment ago and is closed now. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  closed = g_strdup_printf ("http://127.0.0.1:%u",
                            g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_socket_close (socket, NULL);
  none = fetch (f, "ollama", closed, NULL, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONNECTION);
  g_free (expected);
  expected = g_strdup_printf ("Ollama is not running at %s: nothing accepted the connection. "
                              "Start it with “ollama serve” (or open the Ollama app) and try "
                              "again.", closed);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_errors (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;
  g_autofree char *expected = NULL;
  GStrv models;

  f->status = 401;
  g_free (f->body);
  f->body = g_strdup ("{\"error\": {\"message\": \"Incorrect API key provided.\"}}");
  models = fetch (f, "openai", f->base_url, "sk-wrong", &report, &error);
  g_assert_null (models);
  g_assert_null (report);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_UNAUTHORIZED);
  expected = g_strdup_printf ("%s/models answered HTTP 401 Unauthorized: Incorrect API key "
                              "provided. Check the API key.", f->base_url);
  g_assert_cmpstr (error->message, ==, expected);
  /* The key itself never appears in what a person sees. */
  g_assert_null (strstr (error->message, "sk-wrong"));
  g_clear_error (&error);

  f->status = 200;
  g_free (f->body);
  f->body = g_strdup ("<html>hello</html>");
  models = fetch (f, "openai", f->base_url, NULL, NULL, &error);
  g_assert_null (models);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_INVALID_RESPONSE);
  g_assert_true (g_str_has_prefix (error->message, "The endpoint answered, but not with JSON"));
  g_clear_error (&error);

  g_free (f->body);
  f->body = g_strdup ("{\"result\": []}");
  models = fetch (f, "openai", f->base_url, NULL, NULL, &error);
  g_assert_null (models);
  g_assert_cmpstr (error->message, ==,
                   "The endpoint answered, but its answer has no “data” list of models; "
                   "check the base URL and the kind.");
  g_clear_error (&error);

  models = fetch (f, "openai", "localhost:8080", NULL, NULL, &error);
  g_assert_null (models);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONFIG);
  g_assert_cmpstr (error->message, ==,
                   "“localhost:8080” is not an http:// or https:// URL; nothing was sent.");
  g_clear_error (&error);

  /* Nobody listens on port 9 of 127.0.0.1. */
  models = fetch (f, "openai", "http://127.0.0.1:9/v1", NULL, NULL, &error);
  g_assert_null (models);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONNECTION);
  g_assert_true (g_str_has_prefix (error->message,
                                   "No answer from http://127.0.0.1:9/v1/models: "));
}

/* A server that repeats the key in its refusal, one that never answers,
 * and a person who gives up: the key stays out of the message, the wait
 * ends after the provider's timeout, and cancelling is quiet. */
static void
test_hostile (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autofree char *expected = NULL;
  GStrv models;

  f->status = 403;
  g_free (f->body);
  f->body = g_strdup ("{\"error\": \"key sk-secret-123 is revoked\"}");
  models = fetch (f, "openai", f->base_url, "sk-secret-123", NULL, &error);
  g_assert_null (models);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_UNAUTHORIZED);
  g_assert_null (strstr (error->message, "sk-secret-123"));
  g_assert_nonnull (strstr (error->message, "Check the API key."));
  g_clear_error (&error);

  f->hang = TRUE;
  provider = tb_provider_new_for_kind ("openai", f->base_url, NULL, NULL, NULL);
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (provider), 200);
  models = fetch_with (provider, NULL, NULL, &error);
  g_assert_null (models);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_TIMEOUT);
  expected = g_strdup_printf ("No answer from %s/models within 1 s; check that the server "
                              "is running.", f->base_url);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  models = fetch_with (provider, cancellable, NULL, &error);
  g_assert_null (models);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/model-list/openai", Fixture, NULL, fixture_setup, test_openai,
              fixture_teardown);
  g_test_add ("/model-list/anthropic-gemini", Fixture, NULL, fixture_setup,
              test_anthropic_gemini, fixture_teardown);
  g_test_add ("/model-list/ollama", Fixture, NULL, fixture_setup, test_ollama,
              fixture_teardown);
  g_test_add ("/model-list/errors", Fixture, NULL, fixture_setup, test_errors,
              fixture_teardown);
  g_test_add ("/model-list/hostile", Fixture, NULL, fixture_setup, test_hostile,
              fixture_teardown);

  return g_test_run ();
}
