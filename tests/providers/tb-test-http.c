/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-test"

#include "config.h"

#include <string.h>

#include "tb-test-http.h"
#include "../test-soup-util.h"

typedef struct
{
  ReplyMode  mode;
  guint      status;
  char      *body;
  char      *content_type;
  char      *retry_after;
} Reply;

static void
reply_free (Reply *reply)
{
  g_free (reply->body);
  g_free (reply->content_type);
  g_free (reply->retry_after);
  g_free (reply);
}

typedef struct
{
  SoupServerMessage *msg;
  char              *body;
  gsize              sent;
} Drip;

static gboolean
drip_cb (gpointer user_data)
{
  Drip *drip = user_data;
  SoupMessageBody *body = soup_server_message_get_response_body (drip->msg);
  gsize left = strlen (drip->body) - drip->sent;
  gsize n = MIN (left, 3);

  /* Three bytes at a time: lines, CRLFs and UTF-8 sequences get cut. */
  if (n > 0)
    soup_message_body_append (body, SOUP_MEMORY_COPY, drip->body + drip->sent, n);
  drip->sent += n;
  if (drip->sent == strlen (drip->body))
    soup_message_body_complete (body);
  soup_server_message_unpause (drip->msg);

  if (drip->sent < strlen (drip->body))
    return G_SOURCE_CONTINUE;

  g_object_unref (drip->msg);
  g_free (drip->body);
  g_free (drip);
  return G_SOURCE_REMOVE;
}

/* Starts a chunked response that stays open: the body so far, more later. */
static void
open_stream (SoupServerMessage *msg,
             const char        *content_type)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  soup_server_message_set_status (msg, 200, NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_set_content_type (headers, content_type, NULL);
}

static void
start_drip (SoupServerMessage *msg,
            const char        *content_type,
            const char        *body)
{
  Drip *drip = g_new0 (Drip, 1);

  open_stream (msg, content_type);
  drip->msg = g_object_ref (msg);
  drip->body = g_strdup (body);
  soup_server_message_pause (msg);
  g_timeout_add (1, drip_cb, drip);
}

static void
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  TestServer *self = user_data;
  SoupMessageBody *request_body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (request_body);
  GUri *uri = soup_server_message_get_uri (msg);
  const char *key = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                  self->key_header);
  Reply *reply = g_queue_pop_head (&self->replies);
  JsonNode *node;

  node = tb_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  g_ptr_array_add (self->bodies, node != NULL ? node : json_node_new (JSON_NODE_NULL));
  g_ptr_array_add (self->paths, g_uri_get_query (uri) != NULL
                                ? g_strconcat (path, "?", g_uri_get_query (uri), NULL)
                                : g_strdup (path));
  g_ptr_array_add (self->auth, g_strdup (key != NULL ? key : ""));

  if (reply == NULL)
    {
      soup_server_message_set_status (msg, 500, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                        "{\"error\":{\"message\":\"no reply queued\"}}", 39);
      return;
    }

  switch (reply->mode)
    {
    case REPLY_NORMAL:
      soup_server_message_set_status (msg, reply->status, NULL);
      if (reply->retry_after != NULL)
        soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                      "Retry-After", reply->retry_after);
      soup_server_message_set_response (msg, reply->content_type, SOUP_MEMORY_COPY,
                                        reply->body, strlen (reply->body));
      break;

    case REPLY_SSE:
    case REPLY_NDJSON:
      soup_server_message_set_status (msg, reply->status, NULL);
      soup_server_message_set_response (msg, reply->mode == REPLY_SSE ? "text/event-stream"
                                                                      : "application/x-ndjson",
                                        SOUP_MEMORY_COPY, reply->body, strlen (reply->body));
      break;

    case REPLY_SSE_HANG:
    case REPLY_NDJSON_HANG:
      open_stream (msg, reply->mode == REPLY_SSE_HANG ? "text/event-stream"
                                                      : "application/x-ndjson");
      soup_message_body_append (soup_server_message_get_response_body (msg),
                                SOUP_MEMORY_COPY, reply->body, strlen (reply->body));
      g_ptr_array_add (self->held, g_object_ref (msg));
      break;

    case REPLY_SSE_DRIP:
      start_drip (msg, "text/event-stream", reply->body);
      break;

    case REPLY_NDJSON_DRIP:
      start_drip (msg, "application/x-ndjson", reply->body);
      break;

    case REPLY_HANG:
      soup_server_message_pause (msg);
      g_ptr_array_add (self->held, g_object_ref (msg));
      break;

    case REPLY_CLOSE:
      {
        GIOStream *stream = soup_server_message_steal_connection (msg);

        g_io_stream_close (stream, NULL, NULL);
        g_object_unref (stream);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  reply_free (reply);
}

TestServer *
test_server_new (const char *key_header)
{
  TestServer *self = g_new0 (TestServer, 1);
  g_autoptr(GError) error = NULL;
  self->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->server, NULL, handler, self, NULL);
  soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  self->base_url = g_strdup_printf ("http://127.0.0.1:%u", test_server_port (self->server));
  g_queue_init (&self->replies);
  self->bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->auth = g_ptr_array_new_with_free_func (g_free);
  self->held = g_ptr_array_new_with_free_func (g_object_unref);
  self->key_header = g_strdup (key_header);
  return self;
}

void
test_server_free (TestServer *self)
{
  soup_server_disconnect (self->server);
  g_ptr_array_unref (self->held);
  /* Let the closed connections go before the server does. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_object_unref (self->server);
  g_free (self->base_url);
  g_queue_clear_full (&self->replies, (GDestroyNotify) reply_free);
  g_ptr_array_unref (self->bodies);
  g_ptr_array_unref (self->paths);
  g_ptr_array_unref (self->auth);
  g_free (self->key_header);
  g_free (self);
}

void
test_server_reply_full (TestServer *self,
                        ReplyMode   mode,
                        guint       status,
                        const char *body,
                        const char *retry_after)
{
  Reply *reply = g_new0 (Reply, 1);

  reply->mode = mode;
  reply->status = status;
  reply->body = g_strdup (body != NULL ? body : "");
  reply->content_type = g_strdup ("application/json");
  reply->retry_after = g_strdup (retry_after);
  g_queue_push_tail (&self->replies, reply);
}

void
test_server_reply (TestServer *self,
                   guint       status,
                   const char *content_type,
                   const char *body)
{
  Reply *reply = g_new0 (Reply, 1);

  reply->mode = REPLY_NORMAL;
  reply->status = status;
  reply->body = g_strdup (body);
  reply->content_type = g_strdup (content_type);
  g_queue_push_tail (&self->replies, reply);
}

JsonObject *
test_server_request (TestServer *self,
                     guint       index)
{
  JsonNode *node;

  g_assert_cmpuint (index, <, self->bodies->len);
  node = g_ptr_array_index (self->bodies, index);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_node_get_object (node);
}

/* A file of tests/providers/data, whole. */
char *
test_load_text (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "providers", "data", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

JsonNode *
test_parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (text, -1, &error);

  g_assert_no_error (error);
  return node;
}

/* Compares JSON values, printing both when they differ. */
void
test_assert_json_equal (JsonNode   *actual,
                        const char *expected)
{
  g_autoptr(JsonNode) want = test_parse (expected);

  if (!tb_json_equal (actual, want))
    {
      g_autofree char *a = tb_json_to_string (actual, FALSE);
      g_autofree char *b = tb_json_to_string (want, FALSE);

      g_error ("JSON differs:\n  actual:   %s\n  expected: %s", a, b);
    }
}

static JsonNode *
count_echo (TbTool        *tool,
            JsonObject    *arguments,
            JsonObject    *context,
            GCancellable  *cancellable,
            gpointer       user_data,
            GError       **error)
{
  guint *calls = user_data;

  (*calls)++;
  return tb_json_node_new_string (json_object_get_string_member (arguments, "text"));
}

static JsonNode *
commit_func (TbTool        *tool,
             JsonObject    *arguments,
             JsonObject    *context,
             GCancellable  *cancellable,
             gpointer       user_data,
             GError       **error)
{
  g_error ("facts.commit must never run from a model's call");
  return NULL;
}

/* echo, add, sleep, notes.add (a name the wire formats forbid) and the
 * USER_ONLY facts.commit. */
TbToolRegistry *
test_registry_new (guint *calls)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) schema = test_parse ("{\"type\":\"object\",\"properties\":{\"text\":"
                                           "{\"type\":\"string\"}},\"required\":[\"text\"]}");
  g_autoptr(TbTool) notes = NULL;
  g_autoptr(TbTool) commit = NULL;

  tb_demo_tools_register (registry, &error);
  g_assert_no_error (error);

  notes = tb_tool_new_simple ("notes.add", "Adds a note.", schema, TB_TOOL_SIMPLE_FLAGS_NONE,
                              count_echo, calls, NULL, &error);
  g_assert_no_error (error);
  tb_tool_registry_register (registry, notes, &error);
  g_assert_no_error (error);

  commit = tb_tool_new_simple_full ("facts.commit", "Commits a fact.", schema,
                                    TB_TOOL_VISIBILITY_USER_ONLY, "test", 0,
                                    TB_TOOL_SIMPLE_FLAGS_NONE, commit_func, NULL, NULL, &error);
  g_assert_no_error (error);
  tb_tool_registry_register (registry, commit, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&registry);
}

static void
complete_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

TbProviderResponse *
test_complete (TbProvider        *provider,
               TbProviderRequest *request,
               GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_provider_complete_async (provider, request, NULL, complete_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tb_provider_complete_finish (provider, result, error);
}

TbLoopState
test_run_loop (TbDispatchLoop *loop)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TbLoopState state;

  tb_dispatch_loop_run_async (loop, NULL, complete_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  state = tb_dispatch_loop_run_finish (loop, result, &error);
  g_assert_no_error (error);
  return state;
}

/* Sends each body, whole and as one streamed event, plus nesting far
 * beyond the limit: every exchange must end in an error or a response,
 * never a crash, and errors must be readable text. */
void
test_garbage (TestServer         *server,
              TbProvider         *provider,
              TbToolRegistry     *registry,
              const char * const *bodies)
{
  g_autoptr(TbToolRegistry) tools = tb_tool_registry_get_model_tools (registry);
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_free);
  GString *deep = g_string_new (NULL);
  static const char *common[] = {
    "", "null", "[]", "{}", "7", "\"text\"", "{\"error\":{\"message\":\"overloaded\"}}",
    "\xff\xfe{}", "{\"a\":\"\\ud800\"}", "<html><title>502</title></html>",
  };

  for (guint i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (all, g_strdup (common[i]));
  for (guint i = 0; bodies != NULL && bodies[i] != NULL; i++)
    g_ptr_array_add (all, g_strdup (bodies[i]));
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_ptr_array_add (all, g_string_free (deep, FALSE));

  for (guint i = 0; i < all->len; i++)
    for (guint stream = 0; stream < 2; stream++)
      {
        g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
        g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "Hi");
        g_autoptr(TbProviderResponse) response = NULL;
        g_autoptr(GError) error = NULL;
        const char *body = g_ptr_array_index (all, i);
        g_autofree char *event = g_strdup_printf ("data: %s\n\n", body);

        tb_provider_request_add_message (request, user);
        request->tools = g_object_ref (tools);
        request->stream = stream;
        if (stream)
          test_server_reply_full (server, REPLY_SSE, 200, event, NULL);
        else
          test_server_reply (server, 200, "application/json", body);

        response = test_complete (provider, request, &error);
        g_assert_true ((response == NULL) != (error == NULL));
        if (error != NULL)
          g_assert_true (g_utf8_validate (error->message, -1, NULL));
      }
}

/**
 * provider_fixture_setup:
 * @kind: a provider kind; its key goes in the "Authorization" header
 * @api_key: (nullable): the key
 *
 * Sets up a provider of @kind against a new TestServer, with short waits.
 */
void
provider_fixture_setup (ProviderFixture *f,
                        const char      *kind,
                        const char      *model,
                        const char      *api_key)
{
  g_autoptr(GError) error = NULL;

  f->server = test_server_new ("Authorization");
  f->provider = tb_provider_new_for_kind (kind, f->server->base_url, model, api_key, &error);
  g_assert_no_error (error);
  tb_http_provider_set_retry_base_ms (TB_HTTP_PROVIDER (f->provider), 10);
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (f->provider), 3000);
  f->registry = test_registry_new (&f->note_calls);
  f->model_tools = tb_tool_registry_get_model_tools (f->registry);
}

void
provider_fixture_teardown (ProviderFixture *f)
{
  g_clear_object (&f->model_tools);
  g_assert_finalize_object (f->provider);
  g_assert_finalize_object (f->registry);
  test_server_free (f->server);
}

/* A system message, a user's request and the model's tools. */
TbProviderRequest *
provider_fixture_request (ProviderFixture *f)
{
  TbProviderRequest *request = tb_provider_request_new ();
  g_autoptr(TbMessage) system = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, "Be brief.");
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, "Add a note.");

  tb_provider_request_add_message (request, system);
  tb_provider_request_add_message (request, user);
  request->tools = g_object_ref (f->model_tools);
  return request;
}
