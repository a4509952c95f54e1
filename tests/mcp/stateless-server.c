/* SPDX-License-Identifier: GPL-3.0-or-later */

/* An MCP server of 2026-07-28 for the tests, over stdio (the default) or
 * Streamable HTTP (`--http`: it prints its port on the first line of
 * stdout). It speaks the stateless revision only: server/discover, tools,
 * a multi round-trip elicitation, subscriptions/listen and tasks of the
 * tasks extension. Every message it receives is checked with TbSchema
 * against the specification's JSON Schema (and the tasks extension's
 * requests against tasks-extension.schema.json); what fails is answered
 * with an error and written to the report file, as is every method
 * received ("METHOD <json>", "INVALID <json> <why>", "HEADER <name>:
 * <value>"), so that the tests check the client against the
 * specification rather than against their own reading of it.
 *
 * Environment: TOOLBENCH_SOURCE_ROOT (to find the schemas),
 * TB_TEST_SERVER_REPORT (the report file). */

#include "config.h"

#include <glib-unix.h>
#include <libsoup/soup.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <toolbench.h>

#define TASK_POLL_MS 20

typedef struct _Peer Peer;
struct _Peer
{
  void (*send) (Peer *peer, const char *text);
  SoupServerMessage *msg;          /* HTTP: the POST being answered */
  gboolean           stream;       /* HTTP: an open event stream */
};

typedef struct
{
  char    *id;
  char    *tool;
  char    *status;
  guint    polls;
  char    *answer;                 /* task_asks: the name given */
  gboolean cancel_asked;
} Task;

static TbSchema *request_schema;
static TbSchema *notification_schema;
static TbSchema *input_response_schema;
static TbSchema *tasks_schema;
static FILE *report;
static GHashTable *tasks;          /* id → Task */
static guint next_task;
static Peer *listener;             /* the open subscriptions/listen */
static gint64 listen_id;
static gboolean changed;           /* tools/list offers "later" too */

static void
note (const char *format,
      ...) G_GNUC_PRINTF (1, 2);

static void
note (const char *format,
      ...)
{
  va_list args;

  if (report == NULL)
    return;
  va_start (args, format);
  vfprintf (report, format, args);
  va_end (args);
  fputc ('\n', report);
  fflush (report);
}

static TbSchema *
load_schema (const char *path,
             const char *definition)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) document = tb_json_parse_file (path, TB_JSON_MAX_SIZE, &error);
  TbSchema *schema;

  if (document == NULL)
    g_error ("%s", error->message);
  if (definition != NULL)
    {
      g_autofree char *ref = g_strconcat ("#/$defs/", definition, NULL);

      json_object_set_string_member (json_node_get_object (document), "$ref", ref);
    }
  schema = tb_schema_new (document, TB_SCHEMA_DRAFT_AUTO, &error);
  if (schema == NULL)
    g_error ("%s", error->message);
  return schema;
}

static void
load_schemas (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");
  g_autofree char *spec = NULL;
  g_autofree char *ext = NULL;

  if (root == NULL)
    g_error ("TOOLBENCH_SOURCE_ROOT is not set");
  spec = g_build_filename (root, "..", "shared", "mcp-spec", "2026-07-28", "schema",
                           "schema.json", NULL);
  ext = g_build_filename (root, "tests", "mcp", "tasks-extension.schema.json", NULL);
  request_schema = load_schema (spec, "ClientRequest");
  notification_schema = load_schema (spec, "ClientNotification");
  input_response_schema = load_schema (spec, "InputResponse");
  tasks_schema = load_schema (ext, NULL);
}

/* NULL when @node is valid, else why not. */
static char *
invalid (TbSchema *schema,
         JsonNode *node)
{
  g_autoptr(GPtrArray) errors = NULL;
  GString *why;

  if (tb_schema_validate (schema, node, &errors))
    return NULL;
  why = g_string_new (NULL);
  for (guint i = 0; i < errors->len && i < 3; i++)
    {
      g_autofree char *one = tb_schema_error_to_string (g_ptr_array_index (errors, i));

      g_string_append_printf (why, "%s%s", i > 0 ? "; " : "", one);
    }
  return g_string_free (why, FALSE);
}

static char *
check (JsonObject *object,
       JsonNode   *message)
{
  const char *method = tb_json_object_get_string (object, "method");
  JsonObject *params = tb_json_object_get_object (object, "params");
  char *why;

  if (method != NULL && g_str_has_prefix (method, "tasks/"))
    {
      JsonObject *responses = tb_json_object_get_object (params, "inputResponses");
      g_autoptr(GList) keys = responses != NULL ? json_object_get_members (responses) : NULL;

      if ((why = invalid (tasks_schema, message)) != NULL)
        return why;
      for (GList *l = keys; l != NULL; l = l->next)
        if ((why = invalid (input_response_schema,
                            json_object_get_member (responses, l->data))) != NULL)
          return why;
      return NULL;
    }
  return invalid (json_object_has_member (object, "id") ? request_schema : notification_schema,
                  message);
}

static void
send_message (Peer       *peer,
              JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = tb_json_to_string (node, FALSE);

  peer->send (peer, text);
}

static void
answer (Peer       *peer,
        JsonNode   *id,
        const char *result_json)
{
  g_autoptr(JsonNode) result = tb_json_parse (result_json, -1, NULL);
  JsonObject *object = json_object_new ();

  g_assert (result != NULL);
  json_object_set_string_member (object, "jsonrpc", "2.0");
  json_object_set_member (object, "id", json_node_copy (id));
  json_object_set_member (object, "result", json_node_ref (result));
  send_message (peer, object);
  json_object_unref (object);
}

static void
refuse (Peer       *peer,
        JsonNode   *id,
        int         code,
        const char *message)
{
  JsonObject *object = json_object_new ();
  JsonObject *error = json_object_new ();

  json_object_set_string_member (object, "jsonrpc", "2.0");
  json_object_set_member (object, "id", id != NULL ? json_node_copy (id) : json_node_new (JSON_NODE_NULL));
  json_object_set_int_member (error, "code", code);
  json_object_set_string_member (error, "message", message);
  json_object_set_object_member (object, "error", error);
  send_message (peer, object);
  json_object_unref (object);
}

static void
notify_listener (const char *method)
{
  JsonObject *object;
  JsonObject *params;
  JsonObject *meta;

  if (listener == NULL)
    return;
  object = json_object_new ();
  params = json_object_new ();
  meta = json_object_new ();
  json_object_set_string_member (object, "jsonrpc", "2.0");
  json_object_set_string_member (object, "method", method);
  json_object_set_int_member (meta, "io.modelcontextprotocol/subscriptionId", listen_id);
  json_object_set_object_member (params, "_meta", meta);
  json_object_set_object_member (object, "params", params);
  send_message (listener, object);
  json_object_unref (object);
}

static gboolean
declares_tasks (JsonObject *params)
{
  JsonObject *meta = tb_json_object_get_object (params, "_meta");
  JsonObject *capabilities =
    tb_json_object_get_object (meta, "io.modelcontextprotocol/clientCapabilities");
  JsonObject *extensions = tb_json_object_get_object (capabilities, "extensions");

  return tb_json_object_get_object (extensions, "io.modelcontextprotocol/tasks") != NULL;
}

static void
set_text (char       **field,
          const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
task_free (gpointer data)
{
  Task *task = data;

  g_free (task->id);
  g_free (task->tool);
  g_free (task->status);
  g_free (task->answer);
  g_free (task);
}

/* A task's state, as tasks/get and the handle show it. */
static char *
task_state (Task       *task,
            const char *result_type)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_append_printf (text, "{\"resultType\": \"%s\", \"taskId\": \"%s\", \"status\": "
                          "\"%s\", \"createdAt\": \"2026-11-27T10:00:00Z\", "
                          "\"lastUpdatedAt\": \"2026-11-27T10:00:01Z\", \"ttlMs\": 600000, "
                          "\"pollIntervalMs\": %d", result_type, task->id, task->status,
                          TASK_POLL_MS);
  if (g_str_equal (task->status, "working") && g_str_equal (task->tool, "slow"))
    g_string_append_printf (text, ", \"statusMessage\": \"step %u of 3\"", task->polls + 1);
  else if (g_str_equal (task->status, "working"))
    g_string_append_printf (text, ", \"statusMessage\": \"working (poll %u)\"", task->polls);
  else if (g_str_equal (task->status, "input_required"))
    g_string_append (text, ", \"statusMessage\": \"waiting for a name\", \"inputRequests\": "
                     "{\"name\": {\"method\": \"elicitation/create\", \"params\": {\"mode\": "
                     "\"form\", \"message\": \"Please enter your name.\", \"requestedSchema\": "
                     "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": "
                     "\"string\"}}, \"required\": [\"name\"]}}}}");
  else if (g_str_equal (task->status, "completed") && task->answer != NULL)
    g_string_append_printf (text, ", \"result\": {\"content\": [{\"type\": \"text\", \"text\": "
                            "\"Hello, %s!\"}], \"isError\": false}", task->answer);
  else if (g_str_equal (task->status, "completed"))
    g_string_append (text, ", \"result\": {\"content\": [{\"type\": \"text\", \"text\": "
                     "\"done after 3 polls\"}], \"isError\": false}");
  else if (g_str_equal (task->status, "failed"))
    g_string_append (text, ", \"statusMessage\": \"Tool execution failed: API rate limit "
                     "exceeded\", \"error\": {\"code\": -32603, \"message\": \"API rate limit "
                     "exceeded\"}");
  else if (g_str_equal (task->status, "cancelled"))
    g_string_append (text, ", \"statusMessage\": \"stopped by the operator\"");
  g_string_append_c (text, '}');
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* What a poll does to a task of each tool. */
static void
advance (Task *task)
{
  task->polls++;
  if (g_str_equal (task->tool, "slow") && task->polls >= 3)
    set_text (&task->status, "completed");
  else if (g_str_equal (task->tool, "task_asks") && task->answer == NULL && task->polls >= 1)
    set_text (&task->status, "input_required");
  else if (g_str_equal (task->tool, "task_asks") && task->answer != NULL)
    set_text (&task->status, "completed");
  else if (g_str_equal (task->tool, "task_fails"))
    set_text (&task->status, "failed");
  else if (g_str_equal (task->tool, "task_dropped"))
    set_text (&task->status, "cancelled");
  else if (g_str_equal (task->tool, "task_odd"))
    set_text (&task->status, "paused");
}

static const char *tools_json =
  "{\"resultType\": \"complete\", \"ttlMs\": 0, \"tools\": ["
  "{\"name\": \"echo\", \"inputSchema\": {\"type\": \"object\", \"properties\": "
  "{\"message\": {\"type\": \"string\"}}}},"
  "{\"name\": \"asks\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"slow\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"task_asks\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"task_forever\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"task_fails\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"task_dropped\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"task_odd\", \"inputSchema\": {\"type\": \"object\"}},"
  "{\"name\": \"change\", \"inputSchema\": {\"type\": \"object\"}}";

static void
call_tool (Peer       *peer,
           JsonNode   *id,
           JsonObject *params)
{
  const char *tool = tb_json_object_get_string (params, "name");

  if (g_strcmp0 (tool, "asks") == 0)
    {
      JsonObject *responses = tb_json_object_get_object (params, "inputResponses");
      JsonObject *q = tb_json_object_get_object (responses, "q");
      const char *state = tb_json_object_get_string (params, "requestState");

      if (q == NULL)
        answer (peer, id, "{\"resultType\": \"input_required\", \"requestState\": \"s-1\", "
                "\"inputRequests\": {\"q\": {\"method\": \"elicitation/create\", \"params\": "
                "{\"mode\": \"form\", \"message\": \"Sure?\", \"requestedSchema\": {\"type\": "
                "\"object\", \"properties\": {\"answer\": {\"type\": \"string\"}}}}}}}");
      else
        {
          JsonObject *content = tb_json_object_get_object (q, "content");
          g_autofree char *text =
            g_strdup_printf ("{\"resultType\": \"complete\", \"content\": [{\"type\": \"text\", "
                             "\"text\": \"%s: %s with %s\"}]}",
                             state != NULL ? state : "no state",
                             tb_json_object_get_string (q, "action"),
                             content != NULL && tb_json_object_get_string (content, "answer")
                             ? tb_json_object_get_string (content, "answer") : "nothing");

          answer (peer, id, text);
        }
    }
  else if (tool != NULL && (g_str_equal (tool, "slow") || g_str_has_prefix (tool, "task_")))
    {
      Task *task;
      g_autofree char *state = NULL;

      if (!declares_tasks (params))
        {
          refuse (peer, id, -32021, "Missing required client capability");
          return;
        }
      task = g_new0 (Task, 1);
      task->id = g_strdup_printf ("task-%u-%s", ++next_task, tool);
      task->tool = g_strdup (tool);
      task->status = g_strdup ("working");
      g_hash_table_insert (tasks, task->id, task);
      state = task_state (task, "task");
      answer (peer, id, state);
    }
  else if (g_strcmp0 (tool, "change") == 0)
    {
      changed = TRUE;
      answer (peer, id, "{\"content\": [{\"type\": \"text\", \"text\": \"changed\"}]}");
      notify_listener ("notifications/tools/list_changed");
    }
  else
    answer (peer, id, "{\"content\": [{\"type\": \"text\", \"text\": \"echo\"}]}");
}

static void
handle (Peer     *peer,
        JsonNode *message)
{
  JsonObject *object;
  const char *method;
  JsonObject *params;
  JsonNode *id;
  g_autofree char *text = tb_json_to_string (message, FALSE);
  g_autofree char *why = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (message))
    {
      note ("INVALID %s not an object", text);
      return;
    }
  object = json_node_get_object (message);
  method = tb_json_object_get_string (object, "method");
  params = tb_json_object_get_object (object, "params");
  id = json_object_get_member (object, "id");
  if (method == NULL)
    {
      /* A response of the client: this server never asks one. */
      note ("INVALID %s a response to nothing", text);
      return;
    }
  note ("METHOD %s %s", method, text);
  /* A client of the handshake revisions (or one that thought this server
   * was, because it started slowly): refused, naming what is spoken, as
   * the specification asks of a server of 2026-07-28. */
  if (g_str_equal (method, "initialize") && id != NULL)
    {
      refuse (peer, id, -32601, "initialize is not a method of this server; it speaks "
              "protocol revision 2026-07-28 (send server/discover)");
      return;
    }
  if ((why = check (object, message)) != NULL)
    {
      note ("INVALID %s %s", text, why);
      if (id != NULL)
        refuse (peer, id, -32600, why);
      return;
    }
  if (id == NULL)
    return;                         /* a notification */

  if (g_str_equal (method, "server/discover"))
    answer (peer, id, "{\"resultType\": \"complete\", \"supportedVersions\": [\"2026-07-28\"], "
            "\"capabilities\": {\"tools\": {\"listChanged\": true}, \"extensions\": "
            "{\"io.modelcontextprotocol/tasks\": {}}}, \"_meta\": "
            "{\"io.modelcontextprotocol/serverInfo\": {\"name\": \"stateless-test\", "
            "\"version\": \"1\"}}}");
  else if (g_str_equal (method, "tools/list"))
    {
      g_autofree char *list =
        g_strconcat (tools_json, changed ? ",{\"name\": \"later\", \"inputSchema\": "
                                           "{\"type\": \"object\"}}]}" : "]}", NULL);

      answer (peer, id, list);
    }
  else if (g_str_equal (method, "tools/call"))
    call_tool (peer, id, params);
  else if (g_str_equal (method, "subscriptions/listen"))
    {
      JsonObject *ack = json_object_new ();
      JsonObject *ack_params = json_object_new ();
      JsonObject *meta = json_object_new ();
      JsonNode *notifications = json_object_get_member (params, "notifications");

      listener = peer;
      peer->stream = TRUE;
      listen_id = json_node_get_int (id);
      json_object_set_string_member (ack, "jsonrpc", "2.0");
      json_object_set_string_member (ack, "method", "notifications/subscriptions/acknowledged");
      json_object_set_int_member (meta, "io.modelcontextprotocol/subscriptionId", listen_id);
      json_object_set_object_member (ack_params, "_meta", meta);
      json_object_set_member (ack_params, "notifications",
                              notifications != NULL ? json_node_copy (notifications)
                                                    : tb_json_node_new_object ());
      json_object_set_object_member (ack, "params", ack_params);
      send_message (peer, ack);
      json_object_unref (ack);
    }
  else if (g_str_has_prefix (method, "tasks/"))
    {
      const char *task_id = tb_json_object_get_string (params, "taskId");
      Task *task = task_id != NULL ? g_hash_table_lookup (tasks, task_id) : NULL;

      if (!declares_tasks (params))
        refuse (peer, id, -32021, "Missing required client capability");
      else if (task == NULL)
        refuse (peer, id, -32602, "Failed to retrieve task: Task not found");
      else if (g_str_equal (method, "tasks/get"))
        {
          g_autofree char *state = NULL;

          advance (task);
          state = task_state (task, "complete");
          answer (peer, id, state);
        }
      else if (g_str_equal (method, "tasks/update"))
        {
          JsonObject *responses = tb_json_object_get_object (params, "inputResponses");
          JsonObject *name = tb_json_object_get_object (responses, "name");
          JsonObject *content = tb_json_object_get_object (name, "content");

          /* A declined or empty answer is "nobody". */
          if (name != NULL)
            {
              const char *given = tb_json_object_get_string (content, "name");

              set_text (&task->answer, given != NULL ? given : "nobody");
              set_text (&task->status, "working");
            }
          answer (peer, id, "{\"resultType\": \"complete\"}");
        }
      else if (g_str_equal (method, "tasks/cancel"))
        {
          task->cancel_asked = TRUE;
          set_text (&task->status, "cancelled");
          answer (peer, id, "{\"resultType\": \"complete\"}");
        }
      else
        refuse (peer, id, -32601, "Method not found");
    }
  else
    refuse (peer, id, -32601, "Method not found");
}

/* stdio: one message per line. */

static void
stdio_send (Peer       *peer,
            const char *text)
{
  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

static int
serve_stdio (void)
{
  Peer peer = { stdio_send, NULL, FALSE };
  char *line = NULL;
  size_t size = 0;
  ssize_t length;

  while ((length = getline (&line, &size, stdin)) > 0)
    {
      g_autoptr(JsonNode) message = tb_json_parse (line, length, NULL);

      if (message == NULL)
        {
          note ("INVALID %s not JSON", line);
          continue;
        }
      handle (&peer, message);
    }
  free (line);
  return 0;
}

/* Streamable HTTP: a POST gets its answer as JSON; subscriptions/listen
 * gets an event stream that stays open. */

static void
http_send (Peer       *peer,
           const char *text)
{
  SoupMessageBody *body = soup_server_message_get_response_body (peer->msg);

  if (peer->stream)
    {
      g_autofree char *event = g_strdup_printf ("event: message\ndata: %s\n\n", text);

      soup_message_body_append (body, SOUP_MEMORY_COPY, event, strlen (event));
      soup_server_message_unpause (peer->msg);
      return;
    }
  soup_server_message_set_status (peer->msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (peer->msg, "application/json", SOUP_MEMORY_COPY, text,
                                    strlen (text));
}

static void
stream_gone (SoupServerMessage *msg,
             Peer              *peer)
{
  if (listener == peer)
    listener = NULL;
}

static void
http_handler (SoupServer        *server,
              SoupServerMessage *msg,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(JsonNode) message = NULL;
  Peer *peer;
  const char *name;

  if (soup_server_message_get_method (msg) != SOUP_METHOD_POST)
    {
      note ("INVALID %s request: only POST is of 2026-07-28", soup_server_message_get_method (msg));
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }
  if (soup_message_headers_get_one (headers, "Mcp-Session-Id") != NULL)
    note ("INVALID session id sent: %s", soup_message_headers_get_one (headers, "Mcp-Session-Id"));
  note ("HEADER Mcp-Method: %s", soup_message_headers_get_one (headers, "Mcp-Method"));
  name = soup_message_headers_get_one (headers, "Mcp-Name");
  if (name != NULL)
    note ("HEADER Mcp-Name: %s", name);
  message = tb_json_parse (body->data, body->length, NULL);
  if (message == NULL)
    {
      note ("INVALID body is not JSON");
      soup_server_message_set_status (msg, SOUP_STATUS_BAD_REQUEST, NULL);
      return;
    }
  peer = g_new0 (Peer, 1);
  peer->send = http_send;
  peer->msg = msg;
  g_object_set_data_full (G_OBJECT (msg), "tb-peer", peer, g_free);
  if (g_strcmp0 (tb_json_object_get_string (json_node_get_object (message), "method"),
                 "subscriptions/listen") == 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_content_type (soup_server_message_get_response_headers (msg),
                                             "text/event-stream", NULL);
      soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                         SOUP_ENCODING_CHUNKED);
      peer->stream = TRUE;
      g_signal_connect (msg, "finished", G_CALLBACK (stream_gone), peer);
      g_signal_connect (msg, "disconnected", G_CALLBACK (stream_gone), peer);
    }
  handle (peer, message);
  if (!peer->stream && soup_server_message_get_status (msg) == 0)
    soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
}

/* The test holds stdin open: its end, however the test ends, ends this. */
static gboolean
stdin_cb (int          fd,
          GIOCondition condition,
          gpointer     loop)
{
  char buffer[256];

  if (read (fd, buffer, sizeof buffer) > 0)
    return G_SOURCE_CONTINUE;
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static int
serve_http (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  GSList *listeners;
  g_autoptr(GSocketAddress) address = NULL;

  soup_server_add_handler (server, "/mcp", http_handler, NULL, NULL);
  if (!soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    g_error ("%s", error->message);
  listeners = soup_server_get_listeners (server);
  address = g_socket_get_local_address (listeners->data, &error);
  g_print ("%u\n", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address)));
  fflush (stdout);
  g_unix_fd_add (0, G_IO_IN | G_IO_HUP | G_IO_ERR, stdin_cb, loop);
  g_main_loop_run (loop);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  const char *report_path = g_getenv ("TB_TEST_SERVER_REPORT");

  if (report_path != NULL)
    report = fopen (report_path, "a");
  tasks = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, task_free);
  load_schemas ();
  if (argc > 1 && g_str_equal (argv[1], "--http"))
    return serve_http ();
  /* A server slow to start, as one fetched by npx may be. */
  if (argc > 2 && g_str_equal (argv[1], "--slow-start"))
    g_usleep (g_ascii_strtoull (argv[2], NULL, 10) * 1000);
  return serve_stdio ();
}
