/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Streamable HTTP: against server-everything in its streamableHttp mode
 * (listening on 127.0.0.1 only), and against an in-test SoupServer for
 * what that server does not do on demand: resuming a broken event stream,
 * an expired session, a body that is not JSON. */

#include "config.h"

#include <libsoup/soup.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"
#include "../test-soup-util.h"

typedef struct
{
  TbToolRegistry *registry;
  TbMcpClient    *client;
  GSubprocess    *server_process;
  SoupServer     *server;
  char           *url;

  /* What the SoupServer saw and how it behaves. */
  const char     *mode;
  guint           requests_with_session;
  guint           requests_with_version;
  guint           requests_after_init;
  gboolean        deleted;
  gint64          stream_closed_at;
  gint64          resumed_at;
  char           *last_event_id;
  gint64          pending_id;
} Fixture;

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  if (f->client != NULL)
    {
      TbMcpClient *client = f->client;

      tb_mcp_client_detach (client);
      tb_mcp_client_disconnect (client);
      g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
      g_clear_object (&f->client);
      g_assert_true (mcp_test_wait (pointer_is_null, &client, 5000));
    }
  if (f->server_process != NULL)
    {
      g_subprocess_force_exit (f->server_process);
      g_subprocess_wait (f->server_process, NULL, NULL);
      g_clear_object (&f->server_process);
    }
  if (f->server != NULL)
    {
      soup_server_disconnect (f->server);
      g_clear_object (&f->server);
    }
  g_free (f->url);
  g_free (f->last_event_id);
  g_assert_finalize_object (f->registry);
}

/* server-everything, streamable HTTP. */

static guint16
free_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_true (g_socket_bind (socket, any, FALSE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static gboolean
port_open (guint16 port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;

  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);
  return connection != NULL;
}

static void
setup_everything (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js",
                                             "streamableHttp", &reason);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *preload = NULL;
  g_autofree char *node_options = NULL;
  g_autofree char *port_text = NULL;
  guint16 port;

  f->registry = tb_tool_registry_new ();
  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }

  port = free_port ();
  port_text = g_strdup_printf ("%u", port);
  preload = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "mcp", "loopback-only.cjs", NULL);
  node_options = g_strdup_printf ("--require %s", preload);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "PORT", port_text, TRUE);
  g_subprocess_launcher_setenv (launcher, "NODE_OPTIONS", node_options, TRUE);
  f->server_process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv,
                                                    &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 100 && !port_open (port); i++)
    g_usleep (100000);
  g_assert_true (port_open (port));

  f->url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  f->client = tb_mcp_client_new_http ("everything-http", f->url, NULL);
  tb_mcp_client_set_capabilities (f->client, TB_MCP_CAPABILITY_ELICITATION);
  tb_mcp_client_attach (f->client, f->registry);
  if (!mcp_test_connect (f->client, &error))
    g_error ("could not connect over HTTP: %s", error->message);
}

static gboolean
has_elicitation_tool (gpointer data)
{
  return tb_tool_registry_contains (data, "trigger-elicitation-request");
}

static gboolean
accept_cb (TbMcpClient        *client,
           TbMcpServerRequest *request,
           gpointer            data)
{
  g_autoptr(JsonNode) content = tb_json_parse ("{\"name\":\"Over HTTP\"}", -1, NULL);

  tb_mcp_server_request_accept (request, content);
  return TRUE;
}

static void
test_everything (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TbToolResult) elicited = NULL;
  g_autofree char *text = NULL;

  g_autoptr(TbToolResult) echo = NULL;
  g_autoptr(TbToolResult) structured = NULL;
  g_autoptr(TbToolResult) progress = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(GAsyncResult) ping = NULL;
  g_autoptr(GError) error = NULL;

  if (f->client == NULL)
    return;

  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==, TB_MCP_PROTOCOL_VERSION);
  tool = tb_tool_registry_lookup (f->registry, "echo");
  g_assert_cmpstr (tb_tool_get_source (tool), ==, "mcp:everything-http");

  echo = mcp_test_call (f->registry, "echo", "{\"message\":\"over http\"}", NULL);
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (echo)), ==,
                   "Echo: over http");

  structured = mcp_test_call (f->registry, "get-structured-content",
                              "{\"location\":\"New York\"}", NULL);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (
                     tb_tool_result_get_output (structured)), "temperature"), ==, 33);

  /* Progress arrives on the call's event stream and extends its limit. */
  tb_tool_registry_set_default_timeout_ms (f->registry, 1500);
  progress = mcp_test_call (f->registry, "trigger-long-running-operation",
                            "{\"duration\":2.5,\"steps\":5}", NULL);
  g_assert_true (tb_tool_result_get_ok (progress));
  g_assert_cmpint (json_object_get_int_member (tb_tool_result_get_metadata (progress),
                                               "progress-notifications"), ==, 5);

  /* The elicitation tool is announced with list_changed on the standalone
   * event stream; its request to the person comes on the call's stream and
   * the answer goes back in a POST of its own. */
  g_assert_true (mcp_test_wait (has_elicitation_tool, f->registry, 10000));
  g_signal_connect (f->client, "elicitation-requested", G_CALLBACK (accept_cb), NULL);
  elicited = mcp_test_call (f->registry, "trigger-elicitation-request", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (elicited));
  text = mcp_test_output_text (elicited);
  g_assert_nonnull (strstr (text, "Name: Over HTTP"));

  tb_mcp_client_ping_async (f->client, NULL, mcp_test_store_result, &ping);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &ping, 10000));
  g_assert_true (tb_mcp_client_ping_finish (f->client, ping, &error));
}

static TbMcpWireRecord *find_record (GListModel    *history,
                                     TbMcpWireKind  kind,
                                     const char    *method,
                                     guint          exchange);

/* The in-test SoupServer. */

static void
respond_json (SoupServerMessage *msg,
              const char        *body)
{
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Mcp-Session-Id", "sess-1");
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Set-Cookie", "visit=cookie-secret-789; HttpOnly");
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY,
                                    body, strlen (body));
}

static void
respond_sse (SoupServerMessage *msg,
             const char        *body)
{
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/event-stream", SOUP_MEMORY_COPY,
                                    body, strlen (body));
}

static void
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Fixture *f = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *method = soup_server_message_get_method (msg);
  SoupMessageBody *request_body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) request = NULL;
  JsonObject *object;
  const char *rpc_method;
  gint64 id;

  if (g_str_equal (method, "DELETE"))
    {
      f->deleted = TRUE;
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      return;
    }

  if (g_str_equal (method, "GET") &&
      soup_message_headers_get_one (headers, "Last-Event-ID") == NULL)
    {
      /* No stream of its own for server-initiated messages. */
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  if (g_str_equal (method, "GET"))
    {
      g_autofree char *body = NULL;

      f->resumed_at = g_get_monotonic_time ();
      g_free (f->last_event_id);
      f->last_event_id = g_strdup (soup_message_headers_get_one (headers, "Last-Event-ID"));
      body = g_strdup_printf ("id: ev-2\ndata: \n\n"
                              "event: message\nid: ev-3\n"
                              "data: {\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ","
                              "\"result\":{\"content\":[{\"type\":\"text\","
                              "\"text\":\"resumed\"}]}}\n\n", f->pending_id);
      respond_sse (msg, body);
      return;
    }

  bytes = soup_message_body_flatten (request_body);
  request = tb_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  g_assert_nonnull (request);
  object = json_node_get_object (request);
  rpc_method = json_object_get_string_member_with_default (object, "method", "");
  id = json_object_get_int_member_with_default (object, "id", -1);

  if (!g_str_equal (rpc_method, "initialize") && !g_str_equal (rpc_method, "server/discover"))
    {
      f->requests_after_init++;
      if (g_strcmp0 (soup_message_headers_get_one (headers, "Mcp-Session-Id"), "sess-1") == 0)
        f->requests_with_session++;
      if (soup_message_headers_get_one (headers, "MCP-Protocol-Version") != NULL)
        f->requests_with_version++;
      if (g_str_equal (f->mode, "expire"))
        {
          soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
          return;
        }
    }

  if (g_str_equal (rpc_method, "initialize"))
    {
      g_autofree char *body =
        g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                         "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                         "\"serverInfo\":{\"name\":\"soup\",\"version\":\"1\"}}}", id);

      respond_json (msg, body);
    }
  else if (id < 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
    }
  else if (g_str_equal (rpc_method, "tools/list"))
    {
      g_autofree char *body =
        g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                         "\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}},"
                         "{\"name\":\"resume\",\"inputSchema\":{\"type\":\"object\"}}]}}", id);

      respond_json (msg, body);
    }
  else if (g_str_equal (rpc_method, "tools/call") && g_str_equal (f->mode, "garbage"))
    {
      respond_json (msg, "<html>this is not JSON</html>");
    }
  else if (g_str_equal (rpc_method, "tools/call") &&
           g_str_equal (json_object_get_string_member (json_object_get_object_member (object,
                                                                                      "params"),
                                                       "name"), "resume"))
    {
      /* A priming event with an id and a retry delay, then the stream ends
       * before the answer: the client must come back with GET. */
      f->pending_id = id;
      f->stream_closed_at = g_get_monotonic_time ();
      respond_sse (msg, "id: ev-1\nretry: 300\ndata: \n\n");
    }
  else if (g_str_equal (rpc_method, "tools/call"))
    {
      JsonObject *params = json_object_get_object_member (object, "params");
      const char *token = json_object_get_string_member (json_object_get_object_member (params,
                                                                                        "_meta"),
                                                         "progressToken");
      g_autofree char *body =
        g_strdup_printf (": a comment line\n"
                         "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                         "\"params\":{\"progressToken\":\"%s\",\"progress\":1,\"total\":2}}\n\n"
                         "event: message\n"
                         "data: {\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\r\n"
                         "data: \"result\":{\"content\":[{\"type\":\"text\","
                         "\"text\":\"sse\"}]}}\n\n",
                         token, id);

      respond_sse (msg, body);
    }
  else
    {
      g_autofree char *body =
        g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{}}", id);

      respond_json (msg, body);
    }
}

static void
setup_soup_with (Fixture            *f,
                 gconstpointer       data,
                 const char * const *headers)
{
  g_autoptr(GError) error = NULL;

  f->registry = tb_tool_registry_new ();
  f->mode = data != NULL ? data : "normal";
  f->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (f->server, "/mcp", handler, f, NULL);
  g_assert_true (soup_server_listen_local (f->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  f->url = g_strdup_printf ("http://127.0.0.1:%u/mcp", test_server_port (f->server));
  f->client = tb_mcp_client_new_http ("soup", f->url, headers);
  tb_mcp_client_attach (f->client, f->registry);
}

static void
setup_soup (Fixture       *f,
            gconstpointer  data)
{
  setup_soup_with (f, data, NULL);
}

/* Credentials in the configuration: a bearer token and a header of the
 * server's own. */
static void
setup_soup_keys (Fixture       *f,
                 gconstpointer  data)
{
  const char *headers[] = {
    "Authorization: Bearer wire-token-123", "X-Team-Key: team-secret-456", NULL
  };

  setup_soup_with (f, data, headers);
}

static gboolean
deleted_seen (gpointer data)
{
  return ((Fixture *) data)->deleted;
}

static void
test_soup_session (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;

  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==, "2025-06-18");
  g_assert_true (tb_tool_registry_contains (f->registry, "echo"));

  /* An SSE answer: a comment, a progress notification, and a message whose
   * data spans two lines (one ending in CR LF). */
  result = mcp_test_call (f->registry, "echo", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (result)), ==, "sse");
  g_assert_cmpint (json_object_get_int_member (tb_tool_result_get_metadata (result),
                                               "progress-notifications"), ==, 1);

  /* Every request after initialize carried the session and the revision. */
  g_assert_cmpuint (f->requests_after_init, >=, 3);
  g_assert_cmpuint (f->requests_with_session, ==, f->requests_after_init);
  g_assert_cmpuint (f->requests_with_version, ==, f->requests_after_init);

  tb_mcp_client_disconnect (f->client);
  g_assert_true (mcp_test_wait (deleted_seen, f, 5000));
}

static void
test_soup_resume (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;
  gint64 waited_ms;

  g_assert_true (mcp_test_connect (f->client, &error));
  result = mcp_test_call (f->registry, "resume", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (result)), ==, "resumed");
  g_assert_cmpstr (f->last_event_id, ==, "ev-1");
  /* It waited the server's retry delay (300 ms) before coming back. */
  waited_ms = (f->resumed_at - f->stream_closed_at) / 1000;
  g_assert_cmpint (waited_ms, >=, 290);
  g_assert_cmpint (waited_ms, <, 2000);

  tb_mcp_client_disconnect (f->client);
  g_assert_true (mcp_test_wait (deleted_seen, f, 5000));
}

static void
test_soup_expired (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (mcp_test_connect (f->client, &error));
  g_assert_nonnull (strstr (error->message, "The MCP server “soup” ended the session "
                                            "(HTTP 404)"));
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_FAILED);
}

static void
test_soup_garbage (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;

  g_assert_true (mcp_test_connect (f->client, &error));
  result = mcp_test_call (f->registry, "echo", NULL, NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_nonnull (strstr (tb_tool_result_get_error (result),
                            "The MCP server “soup” sent something that is not a JSON-RPC "
                            "message over HTTP"));
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_FAILED);

  /* The protocol view has the body as it came, marked as not a message. */
  {
    GListModel *history = tb_mcp_client_get_wire_history (f->client);
    g_autoptr(TbMcpWireRecord) body = find_record (history, TB_MCP_WIRE_KIND_INVALID, NULL, 0);

    g_assert_nonnull (body);
    g_assert_cmpint (tb_mcp_wire_record_get_direction (body), ==,
                     TB_MCP_WIRE_DIRECTION_RECEIVED);
    g_assert_cmpstr (tb_mcp_wire_record_get_text (body), ==, "<html>this is not JSON</html>");
    g_assert_nonnull (tb_mcp_wire_record_get_problem (body));
    g_assert_cmpuint (tb_mcp_wire_record_get_exchange (body), >, 0);
  }
}

/* The value of a header named @name in a record's [[name, value], …]. */
static const char *
header_value (JsonObject *http,
              const char *member,
              const char *name)
{
  JsonArray *headers = json_object_get_array_member (http, member);

  for (guint i = 0; i < json_array_get_length (headers); i++)
    {
      JsonArray *pair = json_array_get_array_element (headers, i);

      if (g_ascii_strcasecmp (json_array_get_string_element (pair, 0), name) == 0)
        return json_array_get_string_element (pair, 1);
    }
  return NULL;
}

static TbMcpWireRecord *
find_record (GListModel    *history,
             TbMcpWireKind  kind,
             const char    *method,
             guint          exchange)
{
  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      if (tb_mcp_wire_record_get_kind (record) == kind &&
          g_strcmp0 (tb_mcp_wire_record_get_method (record), method) == 0 &&
          (exchange == 0 || tb_mcp_wire_record_get_exchange (record) == exchange))
        return g_steal_pointer (&record);
    }
  return NULL;
}

/* The protocol view over HTTP: each exchange's request line, status line
 * and headers, the credentials masked wherever they would show, and the
 * messages naming the exchange that carried them. */
static void
test_soup_wire (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(TbToolResult) echo = NULL;
  g_autoptr(TbMcpWireRecord) init = NULL;
  g_autoptr(TbMcpWireRecord) init_http = NULL;
  g_autoptr(TbMcpWireRecord) initialized_http = NULL;
  g_autoptr(TbMcpWireRecord) call = NULL;
  g_autoptr(TbMcpWireRecord) call_http = NULL;
  g_autoptr(TbMcpWireRecord) progress = NULL;
  g_autoptr(TbMcpWireRecord) answer = NULL;
  GListModel *history;
  JsonObject *http;

  g_assert_true (mcp_test_connect (f->client, &error));
  tb_tool_registry_call_async (f->registry, "echo", "call-http", NULL, NULL, NULL,
                               mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 10000));
  echo = tb_tool_registry_call_finish (f->registry, result);
  g_assert_true (tb_tool_result_get_ok (echo));
  history = tb_mcp_client_get_wire_history (f->client);

  init = find_record (history, TB_MCP_WIRE_KIND_REQUEST, "initialize", 0);
  g_assert_nonnull (init);
  g_assert_cmpuint (tb_mcp_wire_record_get_exchange (init), >, 0);
  init_http = find_record (history, TB_MCP_WIRE_KIND_HTTP, "initialize",
                           tb_mcp_wire_record_get_exchange (init));
  g_assert_nonnull (init_http);
  g_assert_cmpint (tb_mcp_wire_record_get_direction (init_http), ==, TB_MCP_WIRE_DIRECTION_NONE);
  /* Id 1 went to the probe for the stateless revision. */
  g_assert_cmpstr (tb_mcp_wire_record_get_id (init_http), ==, "2");
  http = tb_mcp_wire_record_get_http (init_http);
  g_assert_cmpstr (json_object_get_string_member (http, "request_line"), ==,
                   "POST /mcp HTTP/1.1");
  g_assert_cmpstr (json_object_get_string_member (http, "url"), ==, f->url);
  g_assert_cmpint (json_object_get_int_member (http, "status"), ==, 200);
  g_assert_cmpstr (json_object_get_string_member (http, "status_line"), ==, "HTTP/1.1 200 OK");
  g_assert_cmpstr (header_value (http, "request_headers", "Authorization"), ==, "[redacted]");
  g_assert_cmpstr (header_value (http, "request_headers", "X-Team-Key"), ==, "[redacted]");
  g_assert_cmpstr (header_value (http, "request_headers", "Accept"), ==,
                   "application/json, text/event-stream");
  g_assert_cmpstr (header_value (http, "response_headers", "Set-Cookie"), ==, "[redacted]");
  g_assert_cmpstr (header_value (http, "response_headers", "Mcp-Session-Id"), ==, "sess-1");

  /* A notification's POST is answered 202 Accepted. */
  initialized_http = find_record (history, TB_MCP_WIRE_KIND_HTTP, "notifications/initialized",
                                  0);
  g_assert_nonnull (initialized_http);
  g_assert_cmpstr (json_object_get_string_member (tb_mcp_wire_record_get_http (initialized_http),
                                                  "status_line"), ==, "HTTP/1.1 202 Accepted");

  /* The call's request, the progress and the answer on its event stream:
   * one exchange, one tool call. */
  call = find_record (history, TB_MCP_WIRE_KIND_REQUEST, "tools/call", 0);
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (call), ==, "call-http");
  call_http = find_record (history, TB_MCP_WIRE_KIND_HTTP, "tools/call",
                           tb_mcp_wire_record_get_exchange (call));
  g_assert_cmpstr (header_value (tb_mcp_wire_record_get_http (call_http), "response_headers",
                                 "Content-Type"), ==, "text/event-stream");
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (call_http), ==, "call-http");
  progress = find_record (history, TB_MCP_WIRE_KIND_NOTIFICATION, "notifications/progress",
                          tb_mcp_wire_record_get_exchange (call));
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (progress), ==, "call-http");
  answer = find_record (history, TB_MCP_WIRE_KIND_RESULT, "tools/call",
                        tb_mcp_wire_record_get_exchange (call));
  g_assert_cmpstr (tb_mcp_wire_record_get_call_id (answer), ==, "call-http");
  g_assert_cmpstr (tb_mcp_wire_record_get_id (answer), ==, tb_mcp_wire_record_get_id (call));

  /* No credential anywhere in the JSON Lines form. */
  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);
      g_autofree char *line = tb_mcp_wire_record_to_line (record);

      g_assert_null (strstr (line, "wire-token-123"));
      g_assert_null (strstr (line, "team-secret-456"));
      g_assert_null (strstr (line, "cookie-secret-789"));
    }
}

static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", free_port ());
  TbMcpClient *client;

  f->registry = tb_tool_registry_new ();
  client = f->client = tb_mcp_client_new_http ("nobody", url, NULL);
  g_assert_false (mcp_test_connect (client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED);
  g_assert_true (g_str_has_prefix (error->message, "The MCP server “nobody” cannot be reached "
                                                   "at http://127.0.0.1:"));

  /* The protocol view has the request that went nowhere, and why. */
  {
    GListModel *history = tb_mcp_client_get_wire_history (client);
    g_autoptr(TbMcpWireRecord) exchange = find_record (history, TB_MCP_WIRE_KIND_HTTP,
                                                       "server/discover", 0);
    JsonObject *http = tb_mcp_wire_record_get_http (exchange);

    g_assert_false (json_object_has_member (http, "status"));
    g_assert_nonnull (tb_mcp_wire_record_get_problem (exchange));
    g_assert_cmpstr (json_object_get_string_member (http, "error"), ==,
                     tb_mcp_wire_record_get_problem (exchange));
    g_assert_cmpstr (json_object_get_string_member (http, "request_line"), ==,
                     "POST /mcp HTTP/1.1");
  }
}

static void
setup_nothing (Fixture       *f,
               gconstpointer  data)
{
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp/http/everything", Fixture, NULL, setup_everything, test_everything,
              teardown);
  g_test_add ("/mcp/http/session", Fixture, "normal", setup_soup, test_soup_session, teardown);
  g_test_add ("/mcp/http/resume", Fixture, "normal", setup_soup, test_soup_resume, teardown);
  g_test_add ("/mcp/http/expired", Fixture, "expire", setup_soup, test_soup_expired, teardown);
  g_test_add ("/mcp/http/garbage", Fixture, "garbage", setup_soup, test_soup_garbage, teardown);
  g_test_add ("/mcp/http/wire", Fixture, "normal", setup_soup_keys, test_soup_wire, teardown);
  g_test_add ("/mcp/http/refused", Fixture, NULL, setup_nothing, test_refused, teardown);

  return g_test_run ();
}
