/* SPDX-License-Identifier: GPL-3.0-or-later */

/* MCP 2026-07-28 against a stateless server written with SoupServer on
 * 127.0.0.1: discovery instead of initialize, _meta on every request, the
 * Mcp-Method, Mcp-Name and Mcp-Param-* headers, no session, the log level
 * in _meta, results with and without resultType. Bad input: a tool whose
 * x-mcp-header the transport forbids (left out with a warning), a server
 * that lists no revision in common, a result type the client does not
 * know, a server that needs input first, the stateless revision forced on
 * a server of the handshake, the handshake forced on a stateless server,
 * and toolbench-cli's --mcp-protocol and ping. */

#include "config.h"

#include <libsoup/soup.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  SoupServer     *server;
  char           *url;
  TbMcpClient    *client;
  TbToolRegistry *registry;
  const char     *mode;        /* "stateless", "versions", "handshake" */
  GPtrArray      *requests;    /* JsonNode of each POST body */
  GPtrArray      *headers;     /* "Name: value" lines of each POST, joined by \n */
  guint           gets;
  SoupServerMessage *listening;  /* the open subscriptions/listen stream */
  gint64          listen_id;
  guint           listens;
  guint           ended;       /* listen streams the client closed */
  gboolean        more_tools;
  guint           flaky_calls;
  GPtrArray      *invalid;     /* what the specification's schema says of bad messages */
} Fixture;

/* An event on the open subscription stream. */
static void
push_on (Fixture           *f,
         SoupServerMessage *msg,
         const char        *method,
         const char        *params_members);

static void
push (Fixture    *f,
      const char *method,
      const char *params_members)
{
  g_assert_nonnull (f->listening);
  push_on (f, f->listening, method, params_members);
}

static void
push_on (Fixture           *f,
         SoupServerMessage *msg,
         const char        *method,
         const char        *params_members)
{
  g_autofree char *event =
    g_strdup_printf ("event: message\ndata: {\"jsonrpc\": \"2.0\", \"method\": \"%s\", "
                     "\"params\": {\"_meta\": {\"io.modelcontextprotocol/subscriptionId\": "
                     "%" G_GINT64_FORMAT "}%s}}\n\n", method, f->listen_id, params_members);

  soup_message_body_append (soup_server_message_get_response_body (msg),
                            SOUP_MEMORY_COPY, event, strlen (event));
  soup_server_message_unpause (msg);
}

static void
listening_finished (SoupServerMessage *msg,
                    Fixture           *f)
{
  if (g_object_get_data (G_OBJECT (msg), "tb-ended") == NULL)
    {
      g_object_set_data (G_OBJECT (msg), "tb-ended", GINT_TO_POINTER (1));
      f->ended++;
    }
  if (f->listening == msg)
    f->listening = NULL;
}

/* The specification's JSON Schema of 2026-07-28, as two validators: one
 * for the client's requests, one for its notifications. */
static TbSchema *client_request_schema;
static TbSchema *client_notification_schema;

static TbSchema *
spec_schema (JsonNode   *document,
             const char *definition)
{
  g_autoptr(JsonNode) copy = tb_json_copy (document);
  g_autofree char *ref = g_strconcat ("#/$defs/", definition, NULL);
  g_autoptr(GError) error = NULL;
  TbSchema *schema;

  json_object_set_string_member (json_node_get_object (copy), "$ref", ref);
  schema = tb_schema_new (copy, TB_SCHEMA_DRAFT_AUTO, &error);
  g_assert_no_error (error);
  return schema;
}

static gboolean
load_spec_schemas (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) document = NULL;
  g_autoptr(GError) error = NULL;

  if (client_request_schema != NULL)
    return TRUE;
  if (root == NULL)
    return FALSE;
  path = g_build_filename (root, "..", "shared", "mcp-spec", "2026-07-28", "schema",
                           "schema.json", NULL);
  document = tb_json_parse_file (path, TB_JSON_MAX_SIZE, &error);
  if (document == NULL)
    return FALSE;
  client_request_schema = spec_schema (document, "ClientRequest");
  client_notification_schema = spec_schema (document, "ClientNotification");
  return TRUE;
}

/* Every message the client sends is checked against the specification's
 * schema, not against this test's reading of it. */
static void
check_against_spec (Fixture  *f,
                    JsonNode *message)
{
  g_autoptr(GPtrArray) errors = NULL;
  JsonObject *object = json_node_get_object (message);
  TbSchema *schema = json_object_has_member (object, "id") ? client_request_schema
                                                           : client_notification_schema;

  if (!tb_schema_validate (schema, message, &errors))
    {
      g_autofree char *text = tb_json_to_string (message, FALSE);
      g_autoptr(GString) why = g_string_new (NULL);

      for (guint i = 0; i < errors->len && i < 5; i++)
        {
          g_autofree char *one = tb_schema_error_to_string (g_ptr_array_index (errors, i));

          g_string_append_printf (why, "\n  %s", one);
        }
      g_ptr_array_add (f->invalid, g_strdup_printf ("%s%s", text, why->str));
    }
}

static const char *tools_json =
  "{\"tools\": ["
  "{\"name\": \"echo\", \"inputSchema\": {\"type\": \"object\", \"properties\": "
  "{\"message\": {\"type\": \"string\"}, \"region\": {\"type\": \"string\", "
  "\"x-mcp-header\": \"Region\"}, \"count\": {\"type\": \"integer\", "
  "\"x-mcp-header\": \"Count\"}}}},"
  "{\"name\": \"broken\", \"inputSchema\": {\"type\": \"object\", \"properties\": "
  "{\"score\": {\"type\": \"number\", \"x-mcp-header\": \"Score\"}}}},"
  "{\"name\": \"odd\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"asks\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"flaky_read\", \"inputSchema\": {\"type\": \"object\"}, "
  "\"annotations\": {\"readOnlyHint\": true}},"
  "{\"name\": \"flaky_write\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"forever\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"unknown_kind\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"huge_state\", \"inputSchema\": {\"type\": \"object\"}}"
  "], \"resultType\": \"complete\", \"ttlMs\": 0, \"cacheScope\": \"private\"}";

static void
reply (SoupServerMessage *msg,
       guint              status,
       JsonNode          *id,
       const char        *member,
       const char        *json)
{
  g_autofree char *id_text = id != NULL ? tb_json_to_string (id, FALSE) : g_strdup ("null");
  g_autofree char *body = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": %s, \"%s\": %s}",
                                           id_text, member, json);

  soup_server_message_set_status (msg, status, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Mcp-Session-Id", "should-be-ignored");
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, body,
                                    strlen (body));
}

static void
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Fixture *f = user_data;
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (msg);
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(JsonNode) request = NULL;
  SoupMessageHeadersIter iter;
  const char *name, *value;
  GString *lines = g_string_new (NULL);
  JsonObject *object;
  const char *method;
  JsonNode *id;

  if (soup_server_message_get_method (msg) != SOUP_METHOD_POST)
    {
      f->gets++;
      g_string_free (lines, TRUE);
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }
  soup_message_headers_iter_init (&iter, request_headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    g_string_append_printf (lines, "%s: %s\n", name, value);
  g_ptr_array_add (f->headers, g_string_free (lines, FALSE));
  request = tb_json_parse (body->data, body->length, NULL);
  g_assert_nonnull (request);
  g_ptr_array_add (f->requests, json_node_ref (request));
  object = json_node_get_object (request);
  /* The handshake's initialize is not of this revision; the server refuses
   * it below. */
  if (!g_str_equal (f->mode, "handshake") &&
      g_strcmp0 (tb_json_object_get_string (object, "method"), "initialize") != 0 &&
      (!g_str_equal (f->mode, "dual") ||
       g_strcmp0 (soup_message_headers_get_one (request_headers, "MCP-Protocol-Version"),
                  "2026-07-28") == 0))
    check_against_spec (f, request);
  method = tb_json_object_get_string (object, "method");
  id = json_object_get_member (object, "id");

  if (g_str_equal (f->mode, "handshake"))
    {
      /* A server of the handshake revisions, as the SDKs refuse a request
       * before initialize: HTTP 400 with a JSON-RPC error of their own. */
      if (g_strcmp0 (method, "initialize") == 0)
        reply (msg, 200, id, "result", "{\"protocolVersion\": \"2025-11-25\", "
               "\"capabilities\": {\"tools\": {}}, \"serverInfo\": {\"name\": \"old\", "
               "\"version\": \"1\"}}");
      else if (id == NULL)
        soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      else if (g_strcmp0 (method, "tools/list") == 0)
        reply (msg, 200, id, "result", "{\"tools\": []}");
      else
        reply (msg, 400, NULL, "error",
               "{\"code\": -32000, \"message\": \"Bad Request: Server not initialized\"}");
      return;
    }

  if (g_strcmp0 (method, "initialize") == 0 && g_str_equal (f->mode, "dual"))
    {
      reply (msg, 200, id, "result", "{\"protocolVersion\": \"2025-11-25\", "
             "\"capabilities\": {\"tools\": {}}, \"serverInfo\": {\"name\": \"dual\", "
             "\"version\": \"1\"}}");
      return;
    }
  if (id == NULL && g_str_equal (f->mode, "dual"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      return;
    }
  if (g_strcmp0 (method, "initialize") == 0)
    {
      reply (msg, 400, id, "error", "{\"code\": -32601, \"message\": \"initialize is not a "
             "method of 2026-07-28; this server speaks 2026-07-28\"}");
      return;
    }
  if (g_strcmp0 (method, "server/discover") == 0)
    {
      if (g_str_equal (f->mode, "versions"))
        reply (msg, 400, id, "error", "{\"code\": -32022, \"message\": \"Unsupported protocol "
               "version\", \"data\": {\"supported\": [\"1999-01-01\"], \"requested\": "
               "\"2026-07-28\"}}");
      else
        reply (msg, 200, id, "result", "{\"resultType\": \"complete\", \"supportedVersions\": "
               "[\"2026-07-28\"], \"capabilities\": {\"tools\": {\"listChanged\": true}, "
               "\"resources\": {\"subscribe\": true, \"listChanged\": true}, "
               "\"prompts\": {}}, \"_meta\": "
               "{\"io.modelcontextprotocol/serverInfo\": {\"name\": \"stateless\", "
               "\"version\": \"7\", \"icons\": [{\"src\": \"data:image/png;base64,AA==\", "
               "\"mimeType\": \"image/png\"}]}}, \"ttlMs\": 0, \"cacheScope\": \"private\"}");
      return;
    }
  if (g_str_equal (f->mode, "claims"))
    {
      /* Discovery says 2026-07-28, everything else wants initialize. */
      reply (msg, 400, id, "error",
             "{\"code\": -32000, \"message\": \"Bad Request: Server not initialized\"}");
      return;
    }
  if (g_strcmp0 (method, "subscriptions/listen") == 0 && g_str_equal (f->mode, "listen-closes"))
    {
      /* Ended at once, gracefully. */
      f->listens++;
      reply (msg, 200, id, "result", "{\"resultType\": \"complete\"}");
      return;
    }
  if (g_strcmp0 (method, "tools/list") == 0)
    {
      if (f->more_tools)
        reply (msg, 200, id, "result", "{\"tools\": [{\"name\": \"later\", \"inputSchema\": "
               "{\"type\": \"object\"}}]}");
      else
        reply (msg, 200, id, "result", tools_json);
      return;
    }
  if (g_strcmp0 (method, "subscriptions/listen") == 0)
    {
      JsonObject *notifications = json_object_get_object_member (
        json_object_get_object_member (object, "params"), "notifications");
      g_autofree char *agreed = NULL;
      g_autofree char *filter = NULL;
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), notifications);

      /* An event stream that stays open, acknowledged first. */
      f->listens++;
      f->listening = msg;
      f->listen_id = json_node_get_int (id);
      g_signal_connect (msg, "finished", G_CALLBACK (listening_finished), f);
      g_signal_connect (msg, "disconnected", G_CALLBACK (listening_finished), f);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_content_type (soup_server_message_get_response_headers (msg),
                                             "text/event-stream", NULL);
      soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                         SOUP_ENCODING_CHUNKED);
      filter = tb_json_to_string (node, FALSE);
      agreed = g_strdup_printf (", \"notifications\": %s", filter);
      push (f, "notifications/subscriptions/acknowledged", agreed);
      return;
    }
  if (g_strcmp0 (method, "resources/list") == 0)
    {
      /* May be kept a minute. */
      reply (msg, 200, id, "result", "{\"resources\": [{\"uri\": \"file:///a.txt\", "
             "\"name\": \"a\"}], \"resultType\": \"complete\", \"ttlMs\": 60000, "
             "\"cacheScope\": \"private\"}");
      return;
    }
  if (g_strcmp0 (method, "prompts/list") == 0)
    {
      /* Not to be kept. */
      reply (msg, 200, id, "result", "{\"prompts\": [{\"name\": \"p\"}], \"resultType\": "
             "\"complete\", \"ttlMs\": 0, \"cacheScope\": \"private\"}");
      return;
    }
  if (g_strcmp0 (method, "tools/call") == 0)
    {
      const char *tool = tb_json_object_get_string (
        json_object_get_object_member (object, "params"), "name");

      if (g_str_has_prefix (tool, "flaky_") && f->flaky_calls++ % 2 == 0)
        {
          /* An event stream that ends before the answer. */
          static const char *events = ": working\n\n";

          soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
          soup_server_message_set_response (msg, "text/event-stream", SOUP_MEMORY_STATIC,
                                            events, strlen (events));
        }
      else if (g_strcmp0 (tool, "forever") == 0)
        reply (msg, 200, id, "result", "{\"resultType\": \"input_required\", "
               "\"requestState\": \"again\"}");
      else if (g_strcmp0 (tool, "unknown_kind") == 0)
        reply (msg, 200, id, "result", "{\"resultType\": \"input_required\", "
               "\"inputRequests\": {\"q\": {\"method\": \"tasks/frobnicate\", \"params\": {}}}}");
      else if (g_strcmp0 (tool, "huge_state") == 0)
        {
          JsonObject *params = json_object_get_object_member (object, "params");
          const char *state = tb_json_object_get_string (params, "requestState");

          if (state == NULL)
            {
              g_autoptr(GString) big = g_string_sized_new (10 * 1024 * 1024 + 64);

              g_string_append (big, "{\"resultType\": \"input_required\", \"requestState\": \"");
              for (guint i = 0; i < 10 * 1024 * 1024 / 8; i++)
                g_string_append (big, "abcdefgh");
              g_string_append (big, "\"}");
              reply (msg, 200, id, "result", big->str);
            }
          else
            {
              g_autofree char *text =
                g_strdup_printf ("{\"content\": [{\"type\": \"text\", \"text\": \"state of %"
                                 G_GSIZE_FORMAT " bytes\"}]}", strlen (state));

              reply (msg, 200, id, "result", text);
            }
        }
      else if (g_strcmp0 (tool, "odd") == 0)
        reply (msg, 200, id, "result", "{\"resultType\": \"later\", \"content\": []}");
      else if (g_strcmp0 (tool, "asks") == 0)
        {
          JsonObject *params = json_object_get_object_member (object, "params");
          JsonNode *responses = json_object_get_member (params, "inputResponses");
          const char *state = tb_json_object_get_string (params, "requestState");

          if (responses == NULL)
            reply (msg, 200, id, "result", "{\"resultType\": \"input_required\", "
                   "\"requestState\": \"opaque-1\", \"inputRequests\": {\"q\": {\"method\": "
                   "\"elicitation/create\", \"params\": {\"message\": \"Sure?\", "
                   "\"requestedSchema\": {\"type\": \"object\", \"properties\": "
                   "{\"answer\": {\"type\": \"string\"}}}}}}}");
          else
            {
              JsonObject *q = json_object_get_object_member (json_node_get_object (responses),
                                                             "q");
              JsonObject *content = json_object_get_object_member (q, "content");
              g_autofree char *text =
                g_strdup_printf ("{\"content\": [{\"type\": \"text\", \"text\": "
                                 "\"answered %s with %s\"}]}",
                                 state != NULL ? state : "without state",
                                 tb_json_object_get_string (content, "answer"));

              reply (msg, 200, id, "result", text);
            }
        }
      else
        /* No resultType: complete. */
        reply (msg, 200, id, "result",
               "{\"content\": [{\"type\": \"text\", \"text\": \"stateless echo\"}]}");
      return;
    }
  reply (msg, 404, id, "error", "{\"code\": -32601, \"message\": \"Method not found\"}");
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) listeners = NULL;
  g_autoptr(GSocketAddress) address = NULL;

  f->mode = data != NULL ? data : "stateless";
  f->invalid = g_ptr_array_new_with_free_func (g_free);
  g_assert_true (load_spec_schemas ());
  f->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  f->headers = g_ptr_array_new_with_free_func (g_free);
  f->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (f->server, "/mcp", handler, f, NULL);
  g_assert_true (soup_server_listen_local (f->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  listeners = soup_server_get_listeners (f->server);
  address = g_socket_get_local_address (listeners->data, &error);
  g_assert_no_error (error);
  f->url = g_strdup_printf ("http://127.0.0.1:%u/mcp",
                            g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address)));
  f->registry = tb_tool_registry_new ();
  f->client = tb_mcp_client_new_http ("stateless", f->url, NULL);
  tb_mcp_client_attach (f->client, f->registry);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  for (guint i = 0; i < f->invalid->len; i++)
    g_printerr ("Not a message of 2026-07-28: %s\n", (char *) g_ptr_array_index (f->invalid, i));
  g_assert_cmpuint (f->invalid->len, ==, 0);
  g_clear_pointer (&f->invalid, g_ptr_array_unref);
  if (f->listening != NULL)
    {
      g_signal_handlers_disconnect_by_data (f->listening, f);
      f->listening = NULL;
    }
  tb_mcp_client_detach (f->client);
  tb_mcp_client_disconnect (f->client);
  g_clear_object (&f->client);
  g_clear_object (&f->registry);
  g_clear_object (&f->server);
  g_clear_pointer (&f->url, g_free);
  g_clear_pointer (&f->requests, g_ptr_array_unref);
  g_clear_pointer (&f->headers, g_ptr_array_unref);
}

static JsonObject *
meta_of (JsonNode *request)
{
  JsonNode *params = json_object_get_member (json_node_get_object (request), "params");
  JsonNode *meta = params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                   ? json_object_get_member (json_node_get_object (params), "_meta") : NULL;

  return meta != NULL && JSON_NODE_HOLDS_OBJECT (meta) ? json_node_get_object (meta) : NULL;
}

/* The value of a header of the @index-th request, or NULL. */
static char *
header_of (Fixture    *f,
           guint       index,
           const char *name)
{
  g_auto(GStrv) lines = g_strsplit (g_ptr_array_index (f->headers, index), "\n", -1);
  g_autofree char *prefix = g_strconcat (name, ": ", NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_ascii_strncasecmp (lines[i], prefix, strlen (prefix)) == 0)
      return g_strdup (lines[i] + strlen (prefix));
  return NULL;
}

static const char *
method_of (Fixture *f,
           guint    index)
{
  return tb_json_object_get_string (json_node_get_object (g_ptr_array_index (f->requests, index)),
                                    "method");
}

/* The index of the last request of @method, counting back @skip of them. */
static guint
last_of (Fixture    *f,
         const char *method,
         guint       skip)
{
  for (guint i = f->requests->len; i > 0; i--)
    if (g_strcmp0 (method_of (f, i - 1), method) == 0 && skip-- == 0)
      return i - 1;
  g_assert_not_reached ();
  return 0;
}

static TbToolResult *
call (Fixture    *f,
      const char *name,
      const char *arguments)
{
  return mcp_test_call (f->registry, name, arguments, NULL);
}

static void
test_stateless (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *region = NULL;
  g_autofree char *count = NULL;
  g_autofree char *name = NULL;
  g_auto(GStrv) log = NULL;
  JsonNode *info;
  gboolean warned = FALSE;

  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==, "2026-07-28");
  info = tb_mcp_client_get_server_info (f->client);
  g_assert_cmpstr (tb_json_object_get_string (json_node_get_object (info), "name"), ==,
                   "stateless");

  /* The tool with a header on a number is left out, with why. */
  g_assert_true (tb_tool_registry_contains (f->registry, "echo"));
  g_assert_false (tb_tool_registry_contains (f->registry, "broken"));
  log = tb_mcp_client_get_log (f->client);
  for (guint i = 0; log[i] != NULL; i++)
    warned |= g_str_has_suffix (log[i], "The server's tool “broken” was left out: the parameter "
                                        "“score” is mirrored into a header but is not of type "
                                        "string, integer or boolean");
  g_assert_true (warned);

  result = call (f, "echo", "{\"message\": \"hi\", \"region\": \"Zürich\", \"count\": 3}");
  g_assert_true (tb_tool_result_get_ok (result));
  {
    g_autofree char *text = mcp_test_output_text (result);

    g_assert_cmpstr (text, ==, "stateless echo");
  }

  /* Never initialize, never a GET stream; every request declares itself. */
  g_assert_cmpuint (f->gets, ==, 0);
  for (guint i = 0; i < f->requests->len; i++)
    {
      JsonObject *meta = meta_of (g_ptr_array_index (f->requests, i));
      g_autofree char *version = header_of (f, i, "MCP-Protocol-Version");
      g_autofree char *method = header_of (f, i, "Mcp-Method");
      g_autofree char *session = header_of (f, i, "Mcp-Session-Id");

      g_assert_cmpstr (method_of (f, i), !=, "initialize");
      g_assert_nonnull (meta);
      g_assert_cmpstr (tb_json_object_get_string (meta, "io.modelcontextprotocol/protocolVersion"),
                       ==, "2026-07-28");
      g_assert_true (json_object_has_member (meta, "io.modelcontextprotocol/clientInfo"));
      g_assert_true (json_object_has_member (meta,
                                             "io.modelcontextprotocol/clientCapabilities"));
      g_assert_cmpstr (version, ==, "2026-07-28");
      g_assert_cmpstr (method, ==, method_of (f, i));
      g_assert_null (session);
    }

  /* The call names its tool and mirrors its parameters: a value that is
   * not plain ASCII in Base64. */
  name = header_of (f, last_of (f, "tools/call", 0), "Mcp-Name");
  region = header_of (f, last_of (f, "tools/call", 0), "Mcp-Param-Region");
  count = header_of (f, last_of (f, "tools/call", 0), "Mcp-Param-Count");
  g_assert_cmpstr (name, ==, "echo");

  /* The protocol view names the revision of every message. */
  {
    GListModel *history = tb_mcp_client_get_wire_history (f->client);

    for (guint i = 0; i < g_list_model_get_n_items (history); i++)
      {
        g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);
        g_autofree char *line = tb_mcp_wire_record_to_line (record);

        g_assert_cmpstr (tb_mcp_wire_record_get_protocol (record), ==, "2026-07-28");
        g_assert_nonnull (strstr (line, "\"protocol\":\"2026-07-28\""));
      }
  }
  g_assert_cmpstr (region, ==, "=?base64?WsO8cmljaA==?=");
  g_assert_cmpstr (count, ==, "3");
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_log_level_and_ping (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) level = NULL;
  g_autoptr(GAsyncResult) ping = NULL;
  g_autoptr(TbToolResult) result = NULL;
  JsonObject *meta;
  guint before;

  g_assert_true (mcp_test_connect (f->client, &error));
  before = f->requests->len;
  tb_mcp_client_set_log_level_async (f->client, "debug", NULL, done_cb, &level);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &level, 5000));
  g_assert_true (tb_mcp_client_set_log_level_finish (f->client, level, &error));
  g_assert_no_error (error);
  /* No logging/setLevel: the level goes with each request. */
  for (guint i = before; i < f->requests->len; i++)
    g_assert_cmpstr (method_of (f, i), !=, "logging/setLevel");
  result = call (f, "echo", "{}");
  g_assert_true (tb_tool_result_get_ok (result));
  meta = meta_of (g_ptr_array_index (f->requests, last_of (f, "tools/call", 0)));
  g_assert_cmpstr (tb_json_object_get_string (meta, "io.modelcontextprotocol/logLevel"), ==,
                   "debug");

  /* No ping in 2026-07-28: discovery answers instead. */
  tb_mcp_client_ping_async (f->client, NULL, done_cb, &ping);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &ping, 5000));
  g_assert_true (tb_mcp_client_ping_finish (f->client, ping, &error));
  g_assert_cmpuint (last_of (f, "server/discover", 0), >, last_of (f, "tools/call", 0));
}

static void
test_result_types (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) odd = NULL;
  g_autoptr(TbToolResult) asks = NULL;
  const char *odd_text;
  const char *asks_text;

  g_assert_true (mcp_test_connect (f->client, &error));
  odd = call (f, "odd", "{}");
  g_assert_false (tb_tool_result_get_ok (odd));
  odd_text = tb_tool_result_get_error (odd);
  g_assert_nonnull (strstr (odd_text, "The MCP server “stateless” sent a result of unknown "
                                      "type “later”"));
  /* Without a way to ask the person, the input cannot be given. */
  asks = call (f, "asks", "{}");
  g_assert_false (tb_tool_result_get_ok (asks));
  asks_text = tb_tool_result_get_error (asks);
  g_assert_nonnull (strstr (asks_text, "The MCP server “stateless” asked for input “q” before "
                                       "answering, and it could not be given: The client does "
                                       "not support “elicitation/create”"));
  /* The client stays connected. */
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
}

static gboolean
answer_cb (TbMcpClient        *client,
           TbMcpServerRequest *request,
           gpointer            user_data)
{
  g_autoptr(JsonNode) content = tb_json_parse ("{\"answer\": \"yes\"}", -1, NULL);

  (*(guint *) user_data)++;
  tb_mcp_server_request_accept (request, content);
  return TRUE;
}

/* The server needs an answer first: the elicitation handler gives it, and
 * the call goes again with a new id, the answer and the state as they
 * were. */
static void
test_input_required (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;
  guint asked = 0;
  JsonObject *first, *second, *retry_params;

  tb_mcp_client_set_capabilities (f->client, TB_MCP_CAPABILITY_ELICITATION);
  g_signal_connect (f->client, "elicitation-requested", G_CALLBACK (answer_cb), &asked);
  g_assert_true (mcp_test_connect (f->client, &error));
  result = call (f, "asks", "{\"x\": 1}");
  g_assert_true (tb_tool_result_get_ok (result));
  {
    g_autofree char *text = mcp_test_output_text (result);

    g_assert_cmpstr (text, ==, "answered opaque-1 with yes");
  }
  g_assert_cmpuint (asked, ==, 1);

  first = json_node_get_object (g_ptr_array_index (f->requests, last_of (f, "tools/call", 1)));
  second = json_node_get_object (g_ptr_array_index (f->requests, last_of (f, "tools/call", 0)));
  g_assert_cmpint (json_object_get_int_member (first, "id"), !=,
                   json_object_get_int_member (second, "id"));
  retry_params = json_object_get_object_member (second, "params");
  g_assert_cmpstr (tb_json_object_get_string (retry_params, "requestState"), ==, "opaque-1");
  g_assert_cmpint (json_object_get_int_member (
                     json_object_get_object_member (retry_params, "arguments"), "x"), ==, 1);
  g_assert_true (json_object_has_member (meta_of (g_ptr_array_index (
                                                   f->requests, last_of (f, "tools/call", 0))),
                                         "io.modelcontextprotocol/protocolVersion"));
}

static gboolean
listening (gpointer data)
{
  Fixture *f = data;

  return f->listening != NULL;
}

static gboolean
one_ended (gpointer data)
{
  return ((Fixture *) data)->ended == 1;
}

static gboolean
listening_again (gpointer data)
{
  Fixture *f = data;

  return f->listens == 2 && f->listening != NULL;
}

static gboolean
has_later (gpointer data)
{
  Fixture *f = data;

  return tb_tool_registry_contains (f->registry, "later");
}

static void
updated_cb (TbMcpClient *client,
            const char  *uri,
            char       **seen)
{
  g_free (*seen);
  *seen = g_strdup (uri);
}

static gboolean
string_set (gpointer data)
{
  return *(char **) data != NULL;
}

/* The subscription of 2026-07-28: opened once connected, acknowledged; a
 * list change on it lists the tools again; subscribing to a resource opens
 * it again with the resource, and its updates arrive. */
static void
test_subscriptions (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) subscribed = NULL;
  g_autofree char *updated = NULL;
  g_autoptr(SoupServerMessage) old = NULL;
  g_auto(GStrv) log = NULL;
  JsonObject *listen;
  gboolean acknowledged = FALSE;

  g_signal_connect (f->client, "resource-updated", G_CALLBACK (updated_cb), &updated);
  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_true (mcp_test_wait (listening, f, 5000));
  g_assert_cmpuint (f->listens, ==, 1);
  listen = json_object_get_object_member (
    json_object_get_object_member (json_node_get_object (g_ptr_array_index (
                                     f->requests, last_of (f, "subscriptions/listen", 0))),
                                   "params"), "notifications");
  g_assert_true (json_object_get_boolean_member (listen, "toolsListChanged"));
  g_assert_false (json_object_has_member (listen, "resourceSubscriptions"));

  f->more_tools = TRUE;
  push (f, "notifications/tools/list_changed", "");
  g_assert_true (mcp_test_wait (has_later, f, 5000));
  log = tb_mcp_client_get_log (f->client);
  for (guint i = 0; log[i] != NULL; i++)
    acknowledged |= strstr (log[i], "The server sends its changes: {\"toolsListChanged\":true")
                    != NULL;
  g_assert_true (acknowledged);

  old = g_object_ref (f->listening);
  tb_mcp_client_subscribe_resource_async (f->client, "file:///watched.txt", TRUE, NULL, done_cb,
                                          &subscribed);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &subscribed, 5000));
  g_assert_true (tb_mcp_client_subscribe_resource_finish (f->client, subscribed, &error));
  g_assert_true (mcp_test_wait (listening_again, f, 5000));
  listen = json_object_get_object_member (
    json_object_get_object_member (json_node_get_object (g_ptr_array_index (
                                     f->requests, last_of (f, "subscriptions/listen", 0))),
                                   "params"), "notifications");
  g_assert_cmpstr (json_array_get_string_element (
                     json_object_get_array_member (listen, "resourceSubscriptions"), 0), ==,
                   "file:///watched.txt");
  /* The first stream is closed: one subscription at a time. The server
   * sees it when it writes there next. */
  push_on (f, old, "notifications/tools/list_changed", "");
  g_assert_true (mcp_test_wait (one_ended, f, 5000));
  push (f, "notifications/resources/updated", ", \"uri\": \"file:///watched.txt\"");
  g_assert_true (mcp_test_wait (string_set, &updated, 5000));
  g_assert_cmpstr (updated, ==, "file:///watched.txt");
  g_signal_handlers_disconnect_by_func (f->client, updated_cb, &updated);
}

/* An answer stream that breaks: a call of a read-only tool goes again as a
 * new request; any other call fails, saying it may have run. */
static void
test_broken_stream (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) read = NULL;
  g_autoptr(TbToolResult) write = NULL;

  g_assert_true (mcp_test_connect (f->client, &error));
  read = call (f, "flaky_read", "{}");
  g_assert_true (tb_tool_result_get_ok (read));
  g_assert_cmpuint (f->flaky_calls, ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (
                     g_ptr_array_index (f->requests, last_of (f, "tools/call", 1))), "id"), !=,
                   json_object_get_int_member (json_node_get_object (
                     g_ptr_array_index (f->requests, last_of (f, "tools/call", 0))), "id"));

  write = call (f, "flaky_write", "{}");
  g_assert_false (tb_tool_result_get_ok (write));
  g_assert_cmpuint (f->flaky_calls, ==, 3);
  g_assert_nonnull (strstr (tb_tool_result_get_error (write),
                            "The MCP server “stateless” closed the answer stream before "
                            "answering; the request may have been carried out, so it is not "
                            "sent again"));
}

/* Input rounds that go wrong: a server that always asks again, one that
 * asks for something no client answers, one whose state is 10 MiB. */
static void
test_input_bad (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) forever = NULL;
  g_autoptr(TbToolResult) unknown = NULL;
  g_autoptr(TbToolResult) huge = NULL;

  g_assert_true (mcp_test_connect (f->client, &error));
  forever = call (f, "forever", "{}");
  g_assert_false (tb_tool_result_get_ok (forever));
  g_assert_nonnull (strstr (tb_tool_result_get_error (forever),
                            "The MCP server “stateless” asked for input 10 times for one "
                            "request; the client stopped asking the person"));

  unknown = call (f, "unknown_kind", "{}");
  g_assert_false (tb_tool_result_get_ok (unknown));
  g_assert_nonnull (strstr (tb_tool_result_get_error (unknown),
                            "The MCP server “stateless” asked for input “q” before answering, "
                            "and it could not be given: The client does not support "
                            "“tasks/frobnicate”"));

  huge = call (f, "huge_state", "{}");
  g_assert_true (tb_tool_result_get_ok (huge));
  {
    g_autofree char *text = mcp_test_output_text (huge);

    g_assert_cmpstr (text, ==, "state of 10485760 bytes");
  }
  g_assert_cmpint (tb_mcp_client_get_state (f->client), ==, TB_MCP_CLIENT_STATE_CONNECTED);
}

/* Discovery says 2026-07-28, then every request wants initialize: the
 * connection fails with what the server said. */
static void
test_claims_stateless (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (mcp_test_connect (f->client, &error));
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==,
                   "The MCP server “stateless” could not list its tools: The MCP server "
                   "“stateless” answered with error -32000: Bad Request: Server not "
                   "initialized");
}

static gboolean
gave_up_listening (gpointer data)
{
  Fixture *f = data;
  g_auto(GStrv) log = tb_mcp_client_get_log (f->client);

  for (guint i = 0; log[i] != NULL; i++)
    if (g_str_has_suffix (log[i], "The server ended the subscription to its changes too often; "
                                  "it is not opened again until the server restarts"))
      return TRUE;
  return FALSE;
}

/* A subscription the server ends at once opens again later each time,
 * five times, then stays closed; the tools still work. */
static void
test_listen_closes (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) result = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_true (mcp_test_wait (gave_up_listening, f, 15000));
  g_assert_cmpuint (f->listens, ==, 6);
  /* 0.2 + 0.4 + 0.8 + 1.6 + 3.2 s of waiting. */
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 6 * G_USEC_PER_SEC);
  result = call (f, "echo", "{}");
  g_assert_true (tb_tool_result_get_ok (result));
}

/* A server of both eras is spoken to in 2026-07-28 unless the handshake
 * is asked for. */
static void
test_dual (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==, "2026-07-28");
  tb_mcp_client_set_protocol (f->client, TB_MCP_PROTOCOL_HANDSHAKE);
  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==, "2025-11-25");
}

static guint
count_of (Fixture    *f,
          const char *method)
{
  guint n = 0;

  for (guint i = 0; i < f->requests->len; i++)
    n += g_strcmp0 (method_of (f, i), method) == 0;
  return n;
}

static GPtrArray *
list_resources (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *items;

  tb_mcp_client_list_resources_async (f->client, NULL, done_cb, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 5000));
  items = tb_mcp_client_list_resources_finish (f->client, result, &error);
  g_assert_no_error (error);
  return items;
}

static void
changed_cb (TbMcpClient *client,
            gboolean    *changed)
{
  *changed = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* A list the server says may be kept (ttlMs) is not asked again until
 * then, or until the server says it changed; one that may not is asked
 * each time. */
static void
test_list_ttl (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GPtrArray) second = NULL;
  g_autoptr(GPtrArray) third = NULL;
  gboolean changed = FALSE;

  g_signal_connect (f->client, "resources-changed", G_CALLBACK (changed_cb), &changed);
  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_true (mcp_test_wait (listening, f, 5000));
  first = list_resources (f);
  second = list_resources (f);
  g_assert_cmpuint (first->len, ==, 1);
  g_assert_cmpuint (second->len, ==, 1);
  g_assert_cmpuint (count_of (f, "resources/list"), ==, 1);

  push (f, "notifications/resources/list_changed", "");
  g_assert_true (mcp_test_wait (flag_set, &changed, 5000));
  g_signal_handlers_disconnect_by_func (f->client, changed_cb, &changed);
  third = list_resources (f);
  g_assert_cmpuint (third->len, ==, 1);
  g_assert_cmpuint (count_of (f, "resources/list"), ==, 2);

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GPtrArray) prompts = NULL;

      tb_mcp_client_list_prompts_async (f->client, NULL, done_cb, &result);
      g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 5000));
      prompts = tb_mcp_client_list_prompts_finish (f->client, result, &error);
      g_assert_no_error (error);
    }
  g_assert_cmpuint (count_of (f, "prompts/list"), ==, 2);
}

static void
test_no_common_version (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (mcp_test_connect (f->client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_VERSION);
  g_assert_cmpstr (error->message, ==,
                   "The MCP server “stateless” speaks the protocol revisions 1999-01-01; this "
                   "client speaks 2026-07-28, and 2025-11-25 with the initialize handshake");
  /* A stateless server that refused the revision is never sent initialize. */
  for (guint i = 0; i < f->requests->len; i++)
    g_assert_cmpstr (method_of (f, i), ==, "server/discover");
}

static void
test_handshake_server (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  /* auto: the probe is refused without a stateless error; the handshake. */
  g_assert_true (mcp_test_connect (f->client, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (f->client), ==, "2025-11-25");
  g_assert_cmpstr (method_of (f, 0), ==, "server/discover");
  g_assert_cmpstr (method_of (f, 1), ==, "initialize");
  g_assert_null (meta_of (g_ptr_array_index (f->requests, 1)));

  /* Forced, the stateless revision is a failure that says what to do. */
  tb_mcp_client_set_protocol (f->client, TB_MCP_PROTOCOL_STATELESS);
  g_assert_false (mcp_test_connect (f->client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_VERSION);
  g_assert_cmpstr (error->message, ==,
                   "The MCP server “stateless” does not speak protocol revision 2026-07-28 (its "
                   "answer to server/discover: error -32000: Bad Request: Server not "
                   "initialized); choose “auto” or 2025-11-25 to use it");
}

static void
test_forced_handshake (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  tb_mcp_client_set_protocol (f->client, TB_MCP_PROTOCOL_HANDSHAKE);
  g_assert_cmpint (tb_mcp_client_get_protocol (f->client), ==, TB_MCP_PROTOCOL_HANDSHAKE);
  g_assert_false (mcp_test_connect (f->client, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "The MCP server “stateless” did not complete "
                                                   "the initialization: "));
  g_assert_cmpstr (method_of (f, 0), ==, "initialize");
}

static void
test_protocol_names (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TbMcpProtocol protocol;

  g_assert_true (tb_mcp_protocol_from_string ("auto", &protocol, NULL));
  g_assert_cmpint (protocol, ==, TB_MCP_PROTOCOL_AUTO);
  g_assert_true (tb_mcp_protocol_from_string ("2026-07-28", &protocol, NULL));
  g_assert_cmpint (protocol, ==, TB_MCP_PROTOCOL_STATELESS);
  g_assert_true (tb_mcp_protocol_from_string ("2025-11-25", &protocol, NULL));
  g_assert_cmpint (protocol, ==, TB_MCP_PROTOCOL_HANDSHAKE);
  /* The schema check itself: a request without the required _meta fails. */
  {
    g_autoptr(JsonNode) bare = tb_json_parse ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
                                              "\"tools/list\", \"params\": {}}", -1, NULL);

    check_against_spec (f, bare);
    g_assert_cmpuint (f->invalid->len, ==, 1);
    g_ptr_array_set_size (f->invalid, 0);
  }
  g_assert_false (tb_mcp_protocol_from_string ("2024-01-01", &protocol, &error));
  g_assert_cmpstr (error->message, ==, "“2024-01-01” is not a choice of MCP protocol; use auto, "
                                       "2026-07-28 or 2025-11-25");
}

typedef McpTestRun Run;

/* toolbench-cli while the server answers in this process. */
static gboolean
run_cli (Run        *run,
         const char *first,
         ...)
{
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  va_list args;

  if (cli == NULL)
    {
      g_test_skip ("needs TOOLBENCH_CLI");
      return FALSE;
    }
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  mcp_test_run (run, (const char * const *) argv->pdata);
  return TRUE;
}

static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  Run ping = { 0 }, forced = { 0 }, bad = { 0 }, json = { 0 };

  if (!run_cli (&ping, "mcp", "ping", f->url, NULL))
    return;
  g_assert_cmpint (ping.status, ==, 0);
  g_assert_nonnull (strstr (ping.out, "(protocol 2026-07-28, stateless 7)"));

  run_cli (&forced, "mcp", "ping", "--mcp-protocol=2025-11-25", f->url, NULL);
  g_assert_cmpint (forced.status, !=, 0);
  g_assert_nonnull (strstr (forced.out, "did not complete the initialization"));

  run_cli (&bad, "mcp", "ping", "--mcp-protocol=1.0", f->url, NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "--mcp-protocol: “1.0” is not a choice of MCP protocol; "
                                     "use auto, 2026-07-28 or 2025-11-25"));
  /* The same as JSON: the revision, the server's identity with its icons. */
  run_cli (&json, "mcp", "ping", "--json", f->url, NULL);
  g_assert_cmpint (json.status, ==, 0);
  {
    g_autoptr(JsonNode) node = tb_json_parse (json.out, -1, NULL);
    JsonObject *server;

    g_assert_nonnull (node);
    server = json_object_get_object_member (json_node_get_object (node), "127.0.0.1");
    g_assert_nonnull (server);
    g_assert_true (json_object_get_boolean_member (server, "ok"));
    g_assert_cmpstr (tb_json_object_get_string (server, "protocol"), ==, "2026-07-28");
    g_assert_cmpstr (json_object_get_string_member (
                       json_array_get_object_element (
                         json_object_get_array_member (
                           json_object_get_object_member (server, "serverInfo"), "icons"), 0),
                       "src"), ==, "data:image/png;base64,AA==");
  }
  g_free (json.out); g_free (json.err);
  g_free (ping.out); g_free (ping.err);
  g_free (forced.out); g_free (forced.err);
  g_free (bad.out); g_free (bad.err);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp/stateless/requests", Fixture, "stateless", fixture_setup, test_stateless,
              fixture_teardown);
  g_test_add ("/mcp/stateless/log-level-and-ping", Fixture, "stateless", fixture_setup,
              test_log_level_and_ping, fixture_teardown);
  g_test_add ("/mcp/stateless/result-types", Fixture, "stateless", fixture_setup,
              test_result_types, fixture_teardown);
  g_test_add ("/mcp/stateless/subscriptions", Fixture, "stateless", fixture_setup,
              test_subscriptions, fixture_teardown);
  g_test_add ("/mcp/stateless/broken-stream", Fixture, "stateless", fixture_setup,
              test_broken_stream, fixture_teardown);
  g_test_add ("/mcp/stateless/list-ttl", Fixture, "stateless", fixture_setup, test_list_ttl,
              fixture_teardown);
  g_test_add ("/mcp/stateless/dual", Fixture, "dual", fixture_setup, test_dual,
              fixture_teardown);
  g_test_add ("/mcp/stateless/input-bad", Fixture, "stateless", fixture_setup, test_input_bad,
              fixture_teardown);
  g_test_add ("/mcp/stateless/claims-stateless", Fixture, "claims", fixture_setup,
              test_claims_stateless, fixture_teardown);
  g_test_add ("/mcp/stateless/listen-closes", Fixture, "listen-closes", fixture_setup,
              test_listen_closes, fixture_teardown);
  g_test_add ("/mcp/stateless/input-required", Fixture, "stateless", fixture_setup,
              test_input_required, fixture_teardown);
  g_test_add ("/mcp/stateless/no-common-version", Fixture, "versions", fixture_setup,
              test_no_common_version, fixture_teardown);
  g_test_add ("/mcp/stateless/handshake-server", Fixture, "handshake", fixture_setup,
              test_handshake_server, fixture_teardown);
  g_test_add ("/mcp/stateless/forced-handshake", Fixture, "stateless", fixture_setup,
              test_forced_handshake, fixture_teardown);
  g_test_add ("/mcp/stateless/protocol-names", Fixture, "stateless", fixture_setup,
              test_protocol_names, fixture_teardown);
  g_test_add ("/mcp/stateless/cli", Fixture, "stateless", fixture_setup, test_cli,
              fixture_teardown);
  return g_test_run ();
}
