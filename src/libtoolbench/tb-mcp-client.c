/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-mcp-tool.h"
#include "tb-mcp-wire-private.h"
#include "tb-text.h"
#include "tb-tool-private.h"

/**
 * TbMcpClient:
 *
 * A Model Context Protocol client for one server, over stdio (a child
 * process speaking newline-delimited JSON-RPC) or streamable HTTP.
 *
 * tb_mcp_client_connect_async() starts the server, negotiates the protocol
 * revision, sends `notifications/initialized` and lists the tools (every
 * page). With tb_mcp_client_attach() the tools are kept registered in a
 * #TbToolRegistry as #TbMcpTool, source `mcp:<name>`, and follow
 * `notifications/tools/list_changed`.
 *
 * Tool names: a tool keeps its own name (characters outside
 * `[A-Za-z0-9_.-]` become `_`, cut at 64 bytes) when that name is free in
 * the registry. When another tool already has it, the tool is registered as
 * `<server>.<name>`, and when that is taken too, under the registry's
 * suggestion (`<server>.<name>_2`). The server always sees its own name.
 *
 * Faults: when the server exits, is killed, closes its output, prints
 * something that is not JSON-RPC, sends a message larger than
 * %TB_MCP_MAX_MESSAGE_SIZE, or stops answering (a request times out and a
 * ping gets no answer either), every pending request fails with an error
 * naming the server and the cause, the state becomes
 * %TB_MCP_CLIENT_STATE_FAILED, and calls of its tools fail at once until
 * tb_mcp_client_connect_async() restarts it.
 *
 * The server log (#TbMcpClient::log-message, tb_mcp_client_get_log()) holds
 * the server's standard error, line by line (made valid UTF-8, long lines
 * cut), and its `notifications/message`; the last 1,000 entries are kept.
 *
 * The protocol view (tb_mcp_client_get_wire_history(),
 * #TbMcpClient::wire-record) holds every JSON-RPC message in both
 * directions and, over HTTP, every exchange with its credentials masked,
 * within the bounds docs/protocol-view.md gives.
 *
 * Server requests: `ping` and `roots/list` are answered by the client.
 * `elicitation/create` and `sampling/createMessage` are emitted as
 * #TbMcpClient::elicitation-requested and
 * #TbMcpClient::sampling-requested; a handler that takes the request
 * returns %TRUE and answers it, now or later, through the
 * #TbMcpServerRequest. When no handler takes it, the server gets a
 * "method not found" error saying that nobody can answer.
 *
 * Everything happens on the thread-default main context of the thread that
 * created the client.
 */

G_DEFINE_FINAL_TYPE (TbMcpClient, tb_mcp_client, G_TYPE_OBJECT)
/**
 * tb_mcp_error_quark:
 *
 * The error domain of #TbMcpError.
 *
 * Returns: the quark of %TB_MCP_ERROR
 */
G_DEFINE_QUARK (tb-mcp-error-quark, tb_mcp_error)

enum {
  PROP_0,
  PROP_NAME,
  PROP_STATE,
  PROP_ERROR,
  N_PROPS
};

enum {
  LOG_MESSAGE,
  PROGRESS,
  TOOLS_CHANGED,
  RESOURCES_CHANGED,
  PROMPTS_CHANGED,
  RESOURCE_UPDATED,
  ELICITATION_REQUESTED,
  SAMPLING_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void send_message   (TbMcpClient *self,
                            JsonNode    *message,
                            gint64       request_id);
static void fail_all       (TbMcpClient *self,
                            GError      *error);
static void start_listing  (TbMcpClient *self);

GType
tb_mcp_client_state_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { TB_MCP_CLIENT_STATE_DISCONNECTED, "TB_MCP_CLIENT_STATE_DISCONNECTED", "disconnected" },
        { TB_MCP_CLIENT_STATE_CONNECTING, "TB_MCP_CLIENT_STATE_CONNECTING", "connecting" },
        { TB_MCP_CLIENT_STATE_CONNECTED, "TB_MCP_CLIENT_STATE_CONNECTED", "connected" },
        { TB_MCP_CLIENT_STATE_FAILED, "TB_MCP_CLIENT_STATE_FAILED", "failed" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("TbMcpClientState"), values);

      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

/* Helpers. */

static gboolean
node_get_number (JsonNode *node,
                 double   *value)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *value = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;
  return TRUE;
}

JsonNode *
_tb_mcp_parse_message (const char  *text,
                       gsize        length,
                       GError     **error)
{
  return tb_json_parse_full (text, length, TB_MCP_MAX_MESSAGE_SIZE, TB_JSON_MAX_DEPTH, error);
}

/* Pending requests. */

static void
pending_free (Pending *p)
{
  if (p->timeout != NULL)
    {
      g_source_destroy (p->timeout);
      g_source_unref (p->timeout);
    }
  if (p->cancel_id != 0)
    g_cancellable_disconnect (p->cancellable, p->cancel_id);
  g_clear_object (&p->cancellable);
  g_clear_object (&p->task);
  g_free (p->method);
  g_free (p->progress_token);
  g_clear_pointer (&p->params, json_node_unref);
  g_free (p);
}

/* Removes the request and returns its task (transfer full). */
static GTask *
pending_take (TbMcpClient *self,
              gint64       id)
{
  Pending *p = g_hash_table_lookup (self->pending, &id);
  GTask *task;

  if (p == NULL)
    return NULL;
  task = g_steal_pointer (&p->task);
  g_hash_table_remove (self->pending, &id);
  return task;
}

GTask *
_tb_mcp_client_take_request (TbMcpClient *self,
                             gint64       id)
{
  return pending_take (self, id);
}

static void
log_append (TbMcpClient *self,
            const char  *origin,
            const char  *level,
            const char  *text)
{
  g_queue_push_tail (&self->log, g_strdup_printf ("[%s] %s: %s", origin, level, text));
  while (self->log.length > LOG_KEEP)
    g_free (g_queue_pop_head (&self->log));
  g_signal_emit (self, signals [LOG_MESSAGE], 0, origin, level, text);
}

void
_tb_mcp_client_log (TbMcpClient *self,
                    const char  *origin,
                    const char  *level,
                    const char  *text)
{
  log_append (self, origin, level, text);
}

static void
set_state (TbMcpClient      *self,
           TbMcpClientState  state,
           const char       *error)
{
  if (g_strcmp0 (self->error, error) != 0)
    {
      g_free (self->error);
      self->error = g_strdup (error);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ERROR]);
    }
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
    }
}

/* Teardown of one connection. */

static void
stop_transport (TbMcpClient *self)
{
  self->generation++;

  _tb_mcp_listen_stop (self);
  _tb_mcp_catalog_forget (self, NULL);
  _tb_mcp_stdio_stop (self);
  g_clear_pointer (&self->http, _tb_mcp_http_free);
  self->listing = FALSE;
  self->list_again = FALSE;
}

static void
fail_all (TbMcpClient *self,
          GError      *error)
{
  g_autoptr(GList) ids = g_hash_table_get_keys (self->pending);
  g_autoptr(GArray) numbers = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* Taken first: a callback below may start a new connection. */
  g_autoptr(GTask) connect_task = g_steal_pointer (&self->connect_task);

  for (GList *l = ids; l != NULL; l = l->next)
    g_array_append_val (numbers, *(gint64 *) l->data);

  /* Ids are never reused, so a new connection's requests are not touched. */
  for (guint i = 0; i < numbers->len; i++)
    {
      g_autoptr(GTask) task = pending_take (self, g_array_index (numbers, gint64, i));

      if (task != NULL)
        g_task_return_error (task, g_error_copy (error));
    }

  _tb_mcp_input_fail_all (self, error);
  _tb_mcp_task_fail_all (self, error);
  if (connect_task != NULL)
    g_task_return_error (connect_task, g_error_copy (error));
}

static void
connection_failed (TbMcpClient *self,
                   int          code,
                   const char  *cause)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) hold = g_object_ref (G_OBJECT (self));

  error = g_error_new (TB_MCP_ERROR, code,
                       /* Translators: a server name, then what went wrong */
                       _("The MCP server “%s” %s"), self->name, cause);
  log_append (self, "client", "error", error->message);
  stop_transport (self);
  set_state (self, TB_MCP_CLIENT_STATE_FAILED, error->message);
  fail_all (self, error);
}

void
_tb_mcp_client_fail (TbMcpClient *self,
                     int          code,
                     const char  *cause)
{
  connection_failed (self, code, cause);
}

void
_tb_mcp_client_lost (TbMcpClient *self,
                     guint        generation,
                     const char  *cause)
{
  if (generation != self->generation)
    return;
  connection_failed (self, TB_MCP_ERROR_DISCONNECTED, cause);
}

void
_tb_mcp_client_request_failed (TbMcpClient  *self,
                               guint         generation,
                               gint64        id,
                               const GError *error)
{
  g_autoptr(GTask) task = NULL;

  if (generation != self->generation)
    return;
  task = pending_take (self, id);
  if (task != NULL)
    g_task_return_error (task, g_error_copy (error));
}

/* Sending. */

static void
send_message (TbMcpClient *self,
              JsonNode    *message,
              gint64       request_id)
{
  if (self->kind == TRANSPORT_HTTP)
    {
      if (self->http != NULL)
        _tb_mcp_http_send (self->http, message, request_id);
      return;
    }

  _tb_mcp_stdio_send (self, message);
}

static JsonObject *
new_envelope (void)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "jsonrpc", "2.0");
  return object;
}

void
_tb_mcp_client_send_notification (TbMcpClient *self,
                                  const char  *method,
                                  JsonNode    *params)
{
  JsonObject *object = new_envelope ();
  g_autoptr(JsonNode) node = NULL;

  json_object_set_string_member (object, "method", method);
  if (params != NULL)
    json_object_set_member (object, "params", json_node_copy (params));
  node = tb_json_node_take_object (object);
  send_message (self, node, -1);
}

static gboolean
request_timeout_cb (gpointer user_data)
{
  Pending *p = user_data;
  TbMcpClient *self = p->client;
  g_autoptr(GTask) task = NULL;
  g_autofree char *method = g_strdup (p->method);
  gint64 id = p->id;

  g_clear_pointer (&p->timeout, g_source_unref);
  task = pending_take (self, id);
  if (task != NULL)
    g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_TIMEOUT,
                             /* Translators: a server name, a method, a number of ms */
                             _("The MCP server “%s” did not answer “%s” within %u ms"),
                             self->name, method, self->request_timeout_ms);
  return G_SOURCE_REMOVE;
}

static void liveness_check (TbMcpClient *self);

static gboolean
request_cancelled_idle (gpointer user_data)
{
  g_autoptr(GTask) task = user_data;
  TbMcpClient *self = g_task_get_source_object (task);
  gint64 id = GPOINTER_TO_SIZE (g_task_get_task_data (task));
  g_autoptr(GTask) taken = pending_take (self, id);

  if (taken == NULL)
    return G_SOURCE_REMOVE;

  {
    JsonObject *params = json_object_new ();
    g_autoptr(JsonNode) node = NULL;

    json_object_set_int_member (params, "requestId", id);
    json_object_set_string_member (params, "reason", "The caller cancelled the request");
    node = tb_json_node_take_object (params);
    _tb_mcp_client_send_notification (self, "notifications/cancelled", node);
  }

  g_task_return_new_error (taken, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The request to the MCP server “%s” was cancelled"), self->name);

  /* A call that is given up on may mean a server that hangs. */
  liveness_check (self);
  return G_SOURCE_REMOVE;
}

static void
request_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  /* Cancellation may come from another thread and inside the cancellable's
   * lock: finish on the client's context. */
  GTask *task = user_data;
  GSource *source = g_idle_source_new ();

  g_source_set_callback (source, request_cancelled_idle, g_object_ref (task), NULL);
  g_source_set_static_name (source, "[tb] MCP request cancelled");
  g_source_attach (source, g_task_get_context (task));
  g_source_unref (source);
}

static gint64
start_request (TbMcpClient       *self,
               const char        *method,
               JsonNode          *params,
               guint              timeout_ms,
               TbMcpProgressFunc  progress,
               gpointer           progress_data,
               GTask             *task)
{
  Pending *p = g_new0 (Pending, 1);
  JsonObject *object = new_envelope ();
  g_autoptr(JsonNode) node = NULL;
  JsonObject *params_object;

  p->client = self;
  p->id = ++self->next_id;
  p->method = g_strdup (method);
  p->params = params != NULL ? json_node_ref (params) : NULL;
  p->task = g_object_ref (task);
  g_task_set_task_data (task, GSIZE_TO_POINTER (p->id), NULL);
  g_hash_table_insert (self->pending, &p->id, p);

  json_object_set_int_member (object, "id", p->id);
  json_object_set_string_member (object, "method", method);
  if (progress != NULL)
    {
      p->progress_token = g_strdup_printf ("tb-%s-%" G_GINT64_FORMAT, self->name, p->id);
      p->progress = progress;
      p->progress_data = progress_data;
    }
  params_object = _tb_mcp_client_build_params (self, params, p->progress_token);
  if (params_object != NULL)
    json_object_set_object_member (object, "params", params_object);

  p->timeout_ms = timeout_ms;
  if (timeout_ms > 0)
    {
      p->timeout = g_timeout_source_new (timeout_ms);
      g_source_set_callback (p->timeout, request_timeout_cb, p, NULL);
      g_source_set_static_name (p->timeout, "[tb] MCP request timeout");
      g_source_attach (p->timeout, g_task_get_context (task));
    }

  if (g_task_get_cancellable (task) != NULL)
    {
      p->cancellable = g_object_ref (g_task_get_cancellable (task));
      p->cancel_id = g_cancellable_connect (p->cancellable, G_CALLBACK (request_cancelled_cb),
                                            task, NULL);
    }

  node = tb_json_node_take_object (object);
  send_message (self, node, p->id);
  return p->id;
}

/* A request again, after the server asked for input (tb-mcp-input.c): a
 * new id, the caller's task. */
gint64
_tb_mcp_client_retry_request (TbMcpClient       *self,
                              const char        *method,
                              JsonNode          *params,
                              guint              timeout_ms,
                              TbMcpProgressFunc  progress,
                              gpointer           progress_data,
                              guint              rounds,
                              GTask             *task)
{
  gint64 id = start_request (self, method, params, timeout_ms, progress, progress_data, task);
  Pending *p = g_hash_table_lookup (self->pending, &id);

  if (p != NULL)
    p->rounds = rounds;
  return id;
}

/* A request while connecting. A @raw one's task gets the whole answer,
 * result or error, as a JSON object: for the revision probe, which reads
 * the error's code and data; the others' finish with
 * tb_mcp_client_request_finish(). */
gint64
_tb_mcp_client_start_request (TbMcpClient *self,
                              const char  *method,
                              JsonNode    *params,
                              guint        timeout_ms,
                              gboolean     raw,
                              GTask       *task)
{
  g_task_set_source_tag (task, raw ? (gpointer) _tb_mcp_client_start_request
                                   : (gpointer) tb_mcp_client_request_async);
  return start_request (self, method, params, timeout_ms, NULL, NULL, task);
}

static gboolean
check_connected (TbMcpClient *self,
                 GTask       *task)
{
  if (self->state == TB_MCP_CLIENT_STATE_CONNECTED)
    return TRUE;

  if (self->state == TB_MCP_CLIENT_STATE_FAILED && self->error != NULL)
    g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED,
                             /* Translators: the cause, a sentence */
                             _("%s. Restart the server to use it again"), self->error);
  else
    g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED,
                             _("The MCP server “%s” is not connected"), self->name);
  return FALSE;
}

/* Liveness: after a request is given up on, ping; no answer means a hang. */

static void
liveness_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);
  guint generation = GPOINTER_TO_UINT (user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = tb_mcp_client_request_finish (self, result, &error);

  if (answer != NULL || generation != self->generation)
    return;
  if (g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_TIMEOUT))
    {
      g_autofree char *cause =
        g_strdup_printf (_("stopped answering (no reply to a ping within %u ms)"),
                         MIN ((guint) LIVENESS_TIMEOUT_MS, self->request_timeout_ms));

      connection_failed (self, TB_MCP_ERROR_TIMEOUT, cause);
    }
}

static void
liveness_check (TbMcpClient *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->state != TB_MCP_CLIENT_STATE_CONNECTED)
    return;
  task = g_task_new (self, NULL, liveness_cb, GUINT_TO_POINTER (self->generation));
  g_task_set_source_tag (task, tb_mcp_client_request_async);
  start_request (self, self->stateless ? "server/discover" : "ping", NULL,
                 MIN (LIVENESS_TIMEOUT_MS, self->request_timeout_ms), NULL, NULL, task);
}

/* Server requests. */

void
_tb_mcp_client_respond (TbMcpClient *self,
                        JsonNode    *id,
                        JsonNode    *result,
                        int          code,
                        const char  *message)
{
  JsonObject *object;
  g_autoptr(JsonNode) node = NULL;

  /* Asked inside a result of the stateless revision: answered there. */
  if (_tb_mcp_input_respond (self, id, result, code, message))
    return;
  object = new_envelope ();
  json_object_set_member (object, "id", json_node_copy (id));
  if (message == NULL)
    {
      json_object_set_member (object, "result",
                              result != NULL ? json_node_copy (result)
                                             : tb_json_node_new_object ());
    }
  else
    {
      JsonObject *error = json_object_new ();

      json_object_set_int_member (error, "code", code);
      json_object_set_string_member (error, "message", message);
      json_object_set_object_member (object, "error", error);
    }
  node = tb_json_node_take_object (object);
  send_message (self, node, -1);
}

void
_tb_mcp_client_handle_server_request (TbMcpClient *self,
                                      const char  *method,
                                      JsonNode    *id,
                                      JsonNode    *params)
{
  if (g_str_equal (method, "ping"))
    {
      _tb_mcp_client_respond (self, id, NULL, 0, NULL);
      return;
    }

  if (g_str_equal (method, "roots/list") && (self->capabilities & TB_MCP_CAPABILITY_ROOTS))
    {
      JsonObject *result = json_object_new ();
      JsonArray *roots = json_array_new ();
      g_autoptr(JsonNode) node = NULL;

      for (guint i = 0; self->roots != NULL && self->roots[i] != NULL; i++)
        {
          JsonObject *root = json_object_new ();

          json_object_set_string_member (root, "uri", self->roots[i]);
          json_array_add_object_element (roots, root);
        }
      json_object_set_array_member (result, "roots", roots);
      node = tb_json_node_take_object (result);
      _tb_mcp_client_respond (self, id, node, 0, NULL);
      return;
    }

  if ((g_str_equal (method, "elicitation/create") &&
       (self->capabilities & TB_MCP_CAPABILITY_ELICITATION)) ||
      (g_str_equal (method, "sampling/createMessage") &&
       (self->capabilities & TB_MCP_CAPABILITY_SAMPLING)))
    {
      g_autoptr(TbMcpServerRequest) request = g_object_new (TB_TYPE_MCP_SERVER_REQUEST, NULL);
      gboolean taken = FALSE;
      g_autofree char *line = NULL;

      g_weak_ref_set (&request->client, self);
      request->generation = self->generation;
      request->id = json_node_copy (id);
      request->method = g_strdup (method);
      request->params = params != NULL ? json_node_copy (params) : tb_json_node_new_object ();
      request->key = tb_json_to_string (id, FALSE);
      /* Until it is answered or gone, so that the server can withdraw it. */
      g_hash_table_replace (self->server_requests, g_strdup (request->key), request);

      line = g_strdup_printf (_("The server asks the person: %s"), method);
      log_append (self, "client", "info", line);

      g_signal_emit (self,
                     signals [method[0] == 'e' ? ELICITATION_REQUESTED : SAMPLING_REQUESTED],
                     0, request, &taken);
      if (!taken && !request->answered)
        {
          request->answered = TRUE;
          _tb_mcp_client_respond (self, id, NULL, -32601,
                   _("Nobody can answer this request here: the application has no handler "
                     "for it"));
          log_append (self, "client", "warning",
                      _("No handler answered the request; the server was told so"));
        }
      return;
    }

  {
    g_autofree char *text = g_strdup_printf (_("The client does not support “%s”"), method);

    _tb_mcp_client_respond (self, id, NULL, -32601, text);
  }
}

static void
handle_progress (TbMcpClient *self,
                 JsonObject  *params)
{
  JsonNode *token_node = params ? json_object_get_member (params, "progressToken") : NULL;
  g_autofree char *token = NULL;
  GHashTableIter iter;
  Pending *p;
  double progress = 0, total = -1;

  if (token_node == NULL || !JSON_NODE_HOLDS_VALUE (token_node))
    return;
  if (json_node_get_value_type (token_node) == G_TYPE_STRING)
    token = g_strdup (json_node_get_string (token_node));
  else
    token = tb_json_to_string (token_node, FALSE);

  node_get_number (json_object_get_member (params, "progress"), &progress);
  node_get_number (json_object_get_member (params, "total"), &total);

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &p))
    {
      if (g_strcmp0 (p->progress_token, token) == 0)
        {
          const char *message = tb_json_object_get_string (params, "message");

          g_signal_emit (self, signals [PROGRESS], 0, token, progress, total, message);
          if (p->progress != NULL)
            p->progress (progress, total, message, p->progress_data);
          return;
        }
    }
}

static void
handle_log_notification (TbMcpClient *self,
                         JsonObject  *params)
{
  const char *level = tb_json_object_get_string (params, "level");
  const char *logger = tb_json_object_get_string (params, "logger");
  JsonNode *data = params ? json_object_get_member (params, "data") : NULL;
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) &&
      json_node_get_value_type (data) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (data));
  else if (data != NULL)
    text = tb_json_to_string (data, FALSE);
  else
    text = g_strdup ("");

  shown = tb_text_shorten (text, -1, STDERR_LINE_MAX + 1);
  if (logger != NULL)
    {
      g_autofree char *with_logger = g_strdup_printf ("%s: %s", logger, shown);

      log_append (self, "server", level ? level : "info", with_logger);
    }
  else
    {
      log_append (self, "server", level ? level : "info", shown);
    }
}

static void
handle_response (TbMcpClient *self,
                 JsonObject  *object)
{
  JsonNode *id_node = json_object_get_member (object, "id");
  JsonNode *result = json_object_get_member (object, "result");
  JsonNode *error_node = json_object_get_member (object, "error");
  g_autoptr(GTask) task = NULL;
  g_autofree char *method = NULL;
  g_autoptr(JsonNode) params = NULL;
  guint timeout_ms = 0;
  TbMcpProgressFunc progress = NULL;
  gpointer progress_data = NULL;
  guint rounds = 0;
  gint64 id;

  if (!JSON_NODE_HOLDS_VALUE (id_node) || json_node_get_value_type (id_node) != G_TYPE_INT64)
    {
      log_append (self, "client", "warning",
                  _("The server answered a request the client never sent; it was ignored"));
      return;
    }
  id = json_node_get_int (id_node);
  {
    Pending *p = g_hash_table_lookup (self->pending, &id);

    if (p != NULL)
      {
        method = g_strdup (p->method);
        params = p->params != NULL ? json_node_ref (p->params) : NULL;
        timeout_ms = p->timeout_ms;
        progress = p->progress;
        progress_data = p->progress_data;
        rounds = p->rounds;
      }
  }
  task = pending_take (self, id);
  if (task == NULL)
    return;

  if (g_task_get_source_tag (task) == _tb_mcp_client_start_request)
    {
      g_task_return_pointer (task, json_node_init_object (json_node_alloc (), object),
                             (GDestroyNotify) json_node_unref);
      return;
    }

  if (error_node != NULL && JSON_NODE_HOLDS_OBJECT (error_node))
    {
      JsonObject *error = json_node_get_object (error_node);
      const char *message = tb_json_object_get_string (error, "message");
      gint64 code = 0;
      g_autofree char *shown = tb_text_shorten (message, -1, 2001);

      /* JSON-RPC codes are integers; anything else is shown as 0 rather than
       * converted (a double beyond int range has no int value). */
      if (!tb_json_object_get_int_in_range (error, "code", G_MININT32, G_MAXINT32, &code, NULL))
        code = 0;
      g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_REMOTE,
                               /* Translators: server name, error code, server's message */
                               _("The MCP server “%s” answered with error %d: %s"),
                               self->name, (int) code, shown);
      return;
    }

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    {
      g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                               _("The MCP server “%s” sent an answer without a result object"),
                               self->name);
      return;
    }

  /* 2026-07-28: a result says whether it is complete; absent means it is. */
  {
    const char *type = tb_json_object_get_string (json_node_get_object (result), "resultType");

    if (type != NULL && !g_str_equal (type, "complete"))
      {
        g_autofree char *shown = tb_text_shorten (type, -1, 81);

        if (g_str_equal (type, "input_required"))
          _tb_mcp_input_required (self, g_steal_pointer (&task), method, params, timeout_ms,
                                  progress, progress_data, rounds,
                                  json_node_get_object (result));
        else if (g_str_equal (type, "task") && self->stateless &&
                 g_strcmp0 (method, "tools/call") == 0)
          _tb_mcp_task_follow (self, g_steal_pointer (&task),
                               tb_json_object_get_string (json_node_get_object (params), "name"),
                               timeout_ms, progress, progress_data, json_node_get_object (result));
        else if (g_str_equal (type, "task") && g_strcmp0 (method, "tasks/get") == 0)
          g_task_return_pointer (task, json_node_ref (result), (GDestroyNotify) json_node_unref);
        else
          g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                                   /* Translators: a server name, then the result type it sent */
                                   _("The MCP server “%s” sent a result of unknown type “%s”"),
                                   self->name, shown);
        return;
      }
  }

  g_task_return_pointer (task, json_node_ref (result), (GDestroyNotify) json_node_unref);
}

void
_tb_mcp_client_receive (TbMcpClient *self,
                        guint        generation,
                        JsonNode    *message)
{
  g_autoptr(GObject) hold = g_object_ref (G_OBJECT (self));
  JsonObject *object;
  const char *method;
  JsonNode *params;
  JsonNode *id;

  if (generation != self->generation)
    return;

  if (JSON_NODE_HOLDS_ARRAY (message))
    {
      JsonArray *batch = json_node_get_array (message);

      for (guint i = 0; i < json_array_get_length (batch) && generation == self->generation; i++)
        _tb_mcp_client_receive (self, generation, json_array_get_element (batch, i));
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (message))
    {
      connection_failed (self, TB_MCP_ERROR_PROTOCOL,
                         _("sent a JSON value that is not a JSON-RPC message"));
      return;
    }

  object = json_node_get_object (message);
  method = tb_json_object_get_string (object, "method");
  params = json_object_get_member (object, "params");
  id = json_object_get_member (object, "id");

  if (method != NULL && id != NULL)
    {
      _tb_mcp_client_handle_server_request (self, method, id, params);
    }
  else if (method != NULL)
    {
      JsonObject *p = params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                        ? json_node_get_object (params) : NULL;

      if (g_str_equal (method, "notifications/tools/list_changed"))
        start_listing (self);
      else if (g_str_equal (method, "notifications/resources/list_changed"))
        {
          _tb_mcp_catalog_forget (self, "resources/list");
          _tb_mcp_catalog_forget (self, "resources/templates/list");
          g_signal_emit (self, signals [RESOURCES_CHANGED], 0);
        }
      else if (g_str_equal (method, "notifications/prompts/list_changed"))
        {
          _tb_mcp_catalog_forget (self, "prompts/list");
          g_signal_emit (self, signals [PROMPTS_CHANGED], 0);
        }
      else if (g_str_equal (method, "notifications/resources/updated") &&
               tb_json_object_get_string (p, "uri") != NULL)
        g_signal_emit (self, signals [RESOURCE_UPDATED], 0, tb_json_object_get_string (p, "uri"));
      else if (g_str_equal (method, "notifications/progress"))
        handle_progress (self, p);
      else if (g_str_equal (method, "notifications/subscriptions/acknowledged"))
        _tb_mcp_listen_acknowledged (self, p);
      else if (g_str_equal (method, "notifications/message"))
        handle_log_notification (self, p);
      else if (g_str_equal (method, "notifications/cancelled") && p != NULL &&
               json_object_get_member (p, "requestId") != NULL)
        {
          g_autofree char *key = tb_json_to_string (json_object_get_member (p, "requestId"),
                                                    FALSE);
          TbMcpServerRequest *request = g_hash_table_lookup (self->server_requests, key);

          if (request != NULL)
            _tb_mcp_server_request_withdraw (request);
        }
    }
  else if (id != NULL)
    {
      handle_response (self, object);
    }
  else if (json_object_has_member (object, "result") || json_object_has_member (object, "error"))
    {
      /* An answer to a notification: wrong, but harmless. */
      log_append (self, "client", "warning",
                  _("The server answered a message that needs no answer; the answer was "
                    "ignored"));
    }
  else
    {
      connection_failed (self, TB_MCP_ERROR_PROTOCOL,
                         _("sent a JSON object that is neither a request, a notification "
                           "nor a response"));
    }
}

/* stdio transport. */

/* Tools. */

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);
  g_autoptr(GPtrArray) collected = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  JsonObject *page;
  JsonNode *tools;
  const char *cursor;

  answer = tb_mcp_client_request_finish (self, result, &error);
  if (answer == NULL)
    {
      g_autofree char *cause = g_strdup_printf (_("could not list its tools: %s"), error->message);

      if (!self->listing)
        return;
      self->listing = FALSE;
      if (self->connect_task != NULL || self->state == TB_MCP_CLIENT_STATE_CONNECTED)
        {
          if (g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED))
            return;
          log_append (self, "client", "error", cause);
          if (self->connect_task != NULL)
            connection_failed (self, TB_MCP_ERROR_PROTOCOL, cause);
        }
      return;
    }

  page = json_node_get_object (answer);
  tools = json_object_get_member (page, "tools");
  if (tools != NULL && JSON_NODE_HOLDS_ARRAY (tools))
    {
      JsonArray *array = json_node_get_array (tools);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *tool = json_array_get_element (array, i);
          const char *name;

          if (!JSON_NODE_HOLDS_OBJECT (tool))
            continue;
          name = tb_json_object_get_string (json_node_get_object (tool), "name");
          if (name == NULL || *name == '\0')
            {
              log_append (self, "client", "warning",
                          _("The server listed a tool without a name; it was left out"));
              continue;
            }
          if (collected->len >= TB_MCP_MAX_TOOLS)
            break;
          if (!_tb_mcp_client_tool_headers_valid (self, json_node_get_object (tool), name))
            continue;
          g_ptr_array_add (collected, json_node_ref (tool));
        }
    }

  cursor = tb_json_object_get_string (page, "nextCursor");
  if (cursor != NULL && *cursor != '\0' && collected->len < TB_MCP_MAX_TOOLS &&
      self->pages < MAX_PAGES)
    {
      JsonObject *params = json_object_new ();
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GTask) task = g_task_new (self, NULL, list_page_cb, g_steal_pointer (&collected));

      self->pages++;
      g_task_set_source_tag (task, tb_mcp_client_request_async);
      json_object_set_string_member (params, "cursor", cursor);
      node = tb_json_node_take_object (params);
      start_request (self, "tools/list", node, self->request_timeout_ms, NULL, NULL, task);
      return;
    }

  if (collected->len >= TB_MCP_MAX_TOOLS)
    {
      g_autofree char *text =
        g_strdup_printf (_("The server offers more than %d tools; only the first %d are used"),
                         TB_MCP_MAX_TOOLS, TB_MCP_MAX_TOOLS);

      log_append (self, "client", "warning", text);
    }

  self->listing = FALSE;
  g_clear_pointer (&self->tools, g_ptr_array_unref);
  self->tools = g_steal_pointer (&collected);

  if (self->connect_task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

      set_state (self, TB_MCP_CLIENT_STATE_CONNECTED, NULL);
      _tb_mcp_client_sync_registry (self);
      g_signal_emit (self, signals [TOOLS_CHANGED], 0);
      _tb_mcp_listen_start (self);
      g_task_return_boolean (task, TRUE);
    }
  else
    {
      _tb_mcp_client_sync_registry (self);
      g_signal_emit (self, signals [TOOLS_CHANGED], 0);
    }

  if (self->list_again)
    {
      self->list_again = FALSE;
      start_listing (self);
    }
}

void
_tb_mcp_client_start_listing (TbMcpClient *self)
{
  start_listing (self);
}

static void
start_listing (TbMcpClient *self)
{
  g_autoptr(GTask) task = NULL;

  /* Before `initialized` the list is fetched by the connection itself. */
  if (self->state != TB_MCP_CLIENT_STATE_CONNECTED && self->connect_task == NULL)
    return;
  if (self->connect_task != NULL && !self->listing && self->protocol_version == NULL)
    return;
  if (self->listing)
    {
      self->list_again = TRUE;
      return;
    }

  self->listing = TRUE;
  self->pages = 1;
  task = g_task_new (self, NULL, list_page_cb,
                     g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref));
  g_task_set_source_tag (task, tb_mcp_client_request_async);
  start_request (self, "tools/list", NULL, self->request_timeout_ms, NULL, NULL, task);
}

/* Connecting. */

/**
 * tb_mcp_client_connect_async:
 * @self: a client
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the server is ready or failed
 * @user_data: closure
 *
 * Starts the server (stopping a running one first), initializes the
 * session and lists the tools. This is also how a failed server restarts.
 */
void
tb_mcp_client_connect_async (TbMcpClient         *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_client_connect_async);

  if (self->state != TB_MCP_CLIENT_STATE_DISCONNECTED)
    tb_mcp_client_disconnect (self);

  g_clear_pointer (&self->protocol_version, g_free);
  g_clear_pointer (&self->server_info, json_node_unref);
  g_clear_pointer (&self->server_capabilities, json_node_unref);
  g_clear_pointer (&self->instructions, g_free);
  self->stateless = FALSE;
  set_state (self, TB_MCP_CLIENT_STATE_CONNECTING, NULL);

  if (self->kind == TRANSPORT_STDIO)
    {
      if (!_tb_mcp_stdio_start (self, &error))
        {
          stop_transport (self);
          set_state (self, TB_MCP_CLIENT_STATE_FAILED, error->message);
          log_append (self, "client", "error", error->message);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  else
    {
      self->http = _tb_mcp_http_new (self, self->generation, self->url,
                                     (const char * const *) self->headers);
    }

  self->connect_task = g_steal_pointer (&task);
  _tb_mcp_revision_start (self, cancellable);
}

/**
 * tb_mcp_client_connect_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_connect_async(). A server that did not start, or
 * answered something that is not MCP, fails with the reason and the last
 * lines it printed.
 *
 * Returns: %TRUE when the client is connected and has listed the server's tools
 */
gboolean
tb_mcp_client_connect_finish (TbMcpClient   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tb_mcp_client_disconnect:
 * @self: a client
 *
 * Stops the server. Pending requests fail; the tools stay registered and
 * their calls fail until the next connection.
 */
void
tb_mcp_client_disconnect (TbMcpClient *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) hold = NULL;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  hold = g_object_ref (G_OBJECT (self));
  stop_transport (self);
  set_state (self, TB_MCP_CLIENT_STATE_DISCONNECTED, NULL);
  error = g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED,
                       _("The MCP server “%s” was stopped"), self->name);
  fail_all (self, error);
}

/* Requests. */

/**
 * tb_mcp_client_request_async:
 * @self: a connected client
 * @method: a JSON-RPC method
 * @params: (nullable): its params, a JSON object
 * @cancellable: (nullable): cancelling sends `notifications/cancelled`
 * @callback: called with the answer
 * @user_data: closure
 *
 * Sends any request, with the client's request time limit.
 */
void
tb_mcp_client_request_async (TbMcpClient         *self,
                             const char          *method,
                             JsonNode            *params,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (method != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_client_request_async);
  if (!check_connected (self, task))
    return;
  start_request (self, method, params, self->request_timeout_ms, NULL, NULL, task);
}

/**
 * tb_mcp_client_request_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError; %TB_MCP_ERROR_REMOTE carries the server's JSON-RPC error
 *
 * Ends tb_mcp_client_request_async().
 *
 * Returns: (transfer full): the result object, or %NULL with @error set
 */
JsonNode *
tb_mcp_client_request_finish (TbMcpClient   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
boolean_request_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;

  answer = tb_mcp_client_request_finish (TB_MCP_CLIENT (object), result, &error);
  if (answer == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * tb_mcp_client_ping_async:
 * @self: a connected client
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * Checks that the server still answers, with `ping` (or `server/discover`
 * in the stateless revision).
 */
void
tb_mcp_client_ping_async (TbMcpClient         *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_client_ping_async);
  /* The stateless revision has no ping; discovery is as cheap. */
  tb_mcp_client_request_async (self, self->stateless ? "server/discover" : "ping", NULL,
                               cancellable, boolean_request_cb, task);
}

/**
 * tb_mcp_client_ping_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_ping_async().
 *
 * Returns: %TRUE when the server answered
 */
gboolean
tb_mcp_client_ping_finish (TbMcpClient   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tb_mcp_client_set_log_level_async:
 * @self: a connected client
 * @level: a syslog level name ("debug", "info", … "emergency")
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the server accepted the level
 * @user_data: data for @callback
 *
 * Sends `logging/setLevel`; the server's `notifications/message` then
 * reach the server log. In the stateless revision the level travels in the
 * `_meta` of every request from now on instead.
 */
void
tb_mcp_client_set_log_level_async (TbMcpClient         *self,
                                   const char          *level,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GTask *task;
  JsonObject *params = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (level != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_client_set_log_level_async);
  if (self->stateless)
    {
      g_free (self->log_level);
      self->log_level = g_strdup (level);
      json_object_unref (params);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  json_object_set_string_member (params, "level", level);
  node = tb_json_node_take_object (params);
  tb_mcp_client_request_async (self, "logging/setLevel", node, cancellable,
                               boolean_request_cb, task);
}

/**
 * tb_mcp_client_set_log_level_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_set_log_level_async().
 *
 * Returns: %TRUE when the server accepted the level
 */
gboolean
tb_mcp_client_set_log_level_finish (TbMcpClient   *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tb_mcp_client_call_tool_async:
 * @self: a connected client
 * @name: the tool's name on the server
 * @arguments: (nullable): a JSON object
 * @progress: (nullable) (scope notified): called for each progress notification
 * @progress_data: closure for @progress, alive until @callback runs
 * @cancellable: (nullable): cancelling sends `notifications/cancelled`
 * @callback: called with the result
 * @user_data: closure
 *
 * Sends `tools/call` with a progress token. The call has the tool time
 * limit set with tb_mcp_client_set_tool_timeout_ms() (none by default:
 * the registry sets the limit of calls it runs).
 */
void
tb_mcp_client_call_tool_async (TbMcpClient         *self,
                               const char          *name,
                               JsonNode            *arguments,
                               TbMcpProgressFunc    progress,
                               gpointer             progress_data,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  _tb_mcp_client_call_tool (self, name, arguments, NULL, progress, progress_data, cancellable,
                            callback, user_data);
}

/* The call with a W3C `traceparent` in `_meta` when given. */
void
_tb_mcp_client_call_tool (TbMcpClient         *self,
                          const char          *name,
                          JsonNode            *arguments,
                          const char          *traceparent,
                          TbMcpProgressFunc    progress,
                          gpointer             progress_data,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  JsonObject *params = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_client_call_tool_async);
  json_object_set_string_member (params, "name", name);
  json_object_set_member (params, "arguments",
                          arguments != NULL ? json_node_copy (arguments)
                                            : tb_json_node_new_object ());
  if (traceparent != NULL)
    {
      JsonObject *meta = json_object_new ();

      json_object_set_string_member (meta, "traceparent", traceparent);
      json_object_set_object_member (params, "_meta", meta);
    }
  node = tb_json_node_take_object (params);
  if (!check_connected (self, task))
    return;
  start_request (self, "tools/call", node, self->tool_timeout_ms, progress, progress_data, task);
}

/**
 * tb_mcp_client_call_tool_finish:
 * @self: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbMcpError
 *
 * Ends tb_mcp_client_call_tool_async(). A tool that failed is not an error
 * here: its result says `isError`; tb_mcp_result_to_tool_result() turns it
 * into a #TbToolResult.
 *
 * Returns: (transfer full): the `tools/call` result object (with `content`,
 *   `isError`, `structuredContent`), or %NULL with @error set
 */
JsonNode *
tb_mcp_client_call_tool_finish (TbMcpClient   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Construction. */

static void
tb_mcp_client_dispose (GObject *object)
{
  TbMcpClient *self = (TbMcpClient *)object;

  stop_transport (self);
  if (self->auth != NULL)
    tb_mcp_auth_cancel (self->auth);
  if (self->pending != NULL &&
      (g_hash_table_size (self->pending) > 0 || self->tasks->len > 0))
    {
      g_autoptr(GError) error = g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED,
                                             _("The MCP server “%s” was closed"), self->name);

      fail_all (self, error);
    }
  if (self->registry != NULL)
    tb_mcp_client_detach (self);

  G_OBJECT_CLASS (tb_mcp_client_parent_class)->dispose (object);
}

static void
tb_mcp_client_finalize (GObject *object)
{
  TbMcpClient *self = (TbMcpClient *)object;

  g_clear_object (&self->auth);
  g_free (self->name);
  g_strfreev (self->argv);
  g_strfreev (self->env);
  g_free (self->cwd);
  g_free (self->url);
  g_strfreev (self->headers);
  g_strfreev (self->roots);
  g_free (self->error);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->input_waits, g_hash_table_unref);
  g_clear_pointer (&self->tasks, g_ptr_array_unref);
  g_clear_pointer (&self->subscribed, g_ptr_array_unref);
  g_clear_pointer (&self->kept_lists, g_hash_table_unref);
  g_free (self->log_level);
  g_free (self->protocol_version);
  g_clear_pointer (&self->server_info, json_node_unref);
  g_clear_pointer (&self->server_capabilities, json_node_unref);
  g_free (self->instructions);
  g_clear_pointer (&self->tools, g_ptr_array_unref);
  g_clear_pointer (&self->registered, g_hash_table_unref);
  g_clear_pointer (&self->server_requests, g_hash_table_unref);
  g_queue_clear_full (&self->log, g_free);
  g_clear_pointer (&self->wire, _tb_mcp_wire_free);

  G_OBJECT_CLASS (tb_mcp_client_parent_class)->finalize (object);
}

static void
tb_mcp_client_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_client_class_init (TbMcpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_mcp_client_dispose;
  object_class->finalize = tb_mcp_client_finalize;
  object_class->get_property = tb_mcp_client_get_property;

  /* A server that exits while we write to it must not kill the process. */
  signal (SIGPIPE, SIG_IGN);

  /**
   * TbMcpClient:name:
   *
   * The server's name, as the configuration named it. It names the server in
   * every message, makes the source of its tools (`mcp:NAME`) and prefixes a
   * tool's name when another tool already has it. Set at construction.
   */
  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpClient:state:
   *
   * Where the client is in its connection: disconnected, connecting,
   * connected or failed.
   */
  properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TB_TYPE_MCP_CLIENT_STATE,
                       TB_MCP_CLIENT_STATE_DISCONNECTED,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbMcpClient:error:
   *
   * Why the connection failed, a sentence naming the server; %NULL while
   * all is well.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbMcpClient::log-message:
   * @self: the client
   * @origin: "stderr", "server" (`notifications/message`) or "client"
   * @level: a syslog level name
   * @text: the line, valid UTF-8
   *
   * Emitted for every line of the server log: what the server printed on
   * stderr, the `notifications/message` it sent, and what the client noted
   * about it. The client keeps the last lines too (tb_mcp_client_get_log()).
   */
  signals [LOG_MESSAGE] =
    g_signal_new ("log-message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * TbMcpClient::progress:
   * @self: the client
   * @token: the request's progress token
   * @progress: progress so far
   * @total: the total, negative when unknown
   * @message: (nullable): the server's message
   *
   * Emitted for every `notifications/progress` of a request the client sent.
   */
  signals [PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_STRING);

  /**
   * TbMcpClient::tools-changed:
   *
   * The tool list was fetched again (after connecting or a list change).
   */
  signals [TOOLS_CHANGED] =
    g_signal_new ("tools-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * TbMcpClient::resources-changed:
   *
   * The server said its resources or resource templates changed
   * (`notifications/resources/list_changed`); list them again.
   */
  signals [RESOURCES_CHANGED] =
    g_signal_new ("resources-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * TbMcpClient::prompts-changed:
   *
   * The server said its prompts changed
   * (`notifications/prompts/list_changed`); list them again.
   */
  signals [PROMPTS_CHANGED] =
    g_signal_new ("prompts-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * TbMcpClient::resource-updated:
   * @self: the client
   * @uri: the resource
   *
   * A resource subscribed to with tb_mcp_client_subscribe_resource_async()
   * changed (`notifications/resources/updated`); read it again.
   */
  signals [RESOURCE_UPDATED] =
    g_signal_new ("resource-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TbMcpClient::elicitation-requested:
   * @self: the client
   * @request: the server's `elicitation/create` request
   *
   * Return %TRUE to take the request and answer it with
   * tb_mcp_server_request_accept(), _decline() or _cancel().
   *
   * Returns: %TRUE when a handler took the request; when none does, the
   *   server gets an error saying that nobody can answer
   */
  signals [ELICITATION_REQUESTED] =
    g_signal_new ("elicitation-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 1,
                  TB_TYPE_MCP_SERVER_REQUEST);

  /**
   * TbMcpClient::sampling-requested:
   * @self: the client
   * @request: the server's `sampling/createMessage` request
   *
   * Return %TRUE to take the request and answer it with
   * tb_mcp_server_request_respond() (a `CreateMessageResult`) or refuse it
   * with tb_mcp_server_request_decline().
   *
   * Returns: %TRUE when a handler took the request; when none does, the
   *   server gets an error saying that nobody can answer
   */
  signals [SAMPLING_REQUESTED] =
    g_signal_new ("sampling-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 1,
                  TB_TYPE_MCP_SERVER_REQUEST);

  _tb_mcp_wire_class_init (object_class);
}

static void
tb_mcp_client_init (TbMcpClient *self)
{
  self->input_waits = _tb_mcp_input_waits_new ();
  self->tasks = g_ptr_array_new ();
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                         (GDestroyNotify) pending_free);
  self->registered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->server_requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->request_timeout_ms = DEFAULT_REQUEST_TIMEOUT_MS;
  g_queue_init (&self->log);
  g_queue_init (&self->write_queue);
}

static char *
valid_name (const char *name)
{
  if (name == NULL || *name == '\0')
    return g_strdup ("server");
  return _tb_mcp_sanitize_name (name);
}

/**
 * tb_mcp_client_new_stdio:
 * @name: the server's name (used in messages, tool sources and prefixes)
 * @argv: (array zero-terminated=1): the command, run without a shell
 * @env: (nullable) (array zero-terminated=1): `KEY=VALUE` entries added to
 *   the environment
 * @cwd: (nullable): the working directory
 *
 * Makes a client of a server that runs as a program and speaks on its
 * standard input and output; tb_mcp_client_connect_async() starts it, and
 * the client stops it when it disconnects or is freed.
 *
 * Returns: (transfer full): a disconnected client
 */
TbMcpClient *
tb_mcp_client_new_stdio (const char         *name,
                         const char * const *argv,
                         const char * const *env,
                         const char         *cwd)
{
  TbMcpClient *self;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  self = g_object_new (TB_TYPE_MCP_CLIENT, NULL);
  self->name = valid_name (name);
  self->kind = TRANSPORT_STDIO;
  self->argv = g_strdupv ((char **) argv);
  self->env = g_strdupv ((char **) env);
  self->cwd = g_strdup (cwd);
  return self;
}

/* A server given its own Authorization header is not signed in to: the
 * person chose how it authenticates. */
static TbMcpAuth *
new_auth (TbMcpClient *self)
{
  for (guint i = 0; self->headers != NULL && self->headers[i] != NULL; i++)
    if (g_ascii_strncasecmp (self->headers[i], "Authorization:", strlen ("Authorization:")) == 0)
      return NULL;
  return tb_mcp_auth_new (self->name, self->url);
}

/**
 * tb_mcp_client_new_http:
 * @name: the server's name
 * @url: the MCP endpoint (http:// or https://)
 * @headers: (nullable) (array zero-terminated=1): `Name: value` headers
 *   sent with every request
 *
 * Makes a client of a server reached over streamable HTTP; connect it with
 * tb_mcp_client_connect_async(). Sign-in, when the server wants one, is set
 * up with a #TbMcpAuth.
 *
 * Returns: (transfer full): a disconnected client using streamable HTTP
 */
TbMcpClient *
tb_mcp_client_new_http (const char         *name,
                        const char         *url,
                        const char * const *headers)
{
  TbMcpClient *self;

  g_return_val_if_fail (url != NULL, NULL);

  self = g_object_new (TB_TYPE_MCP_CLIENT, NULL);
  self->name = valid_name (name);
  self->kind = TRANSPORT_HTTP;
  self->url = g_strdup (url);
  self->headers = g_strdupv ((char **) headers);
  self->auth = new_auth (self);
  return self;
}


/* Accessors. */

/**
 * tb_mcp_client_get_auth:
 * @self: a client
 *
 * The OAuth authorization of an HTTP server: set its mode and client
 * before connecting, ask it who is signed in, sign out. Stdio servers,
 * and HTTP servers given their own `Authorization` header, have none.
 *
 * Returns: (transfer none) (nullable): the server's authorization
 */
TbMcpAuth *
tb_mcp_client_get_auth (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);

  return self->auth;
}

/**
 * _tb_mcp_client_hold_request:
 * @hold: %TRUE while the request waits for a sign-in, %FALSE when it goes
 *   again
 *
 * A person signing in takes longer than a request may: its time limit
 * stops while it waits, and starts over when it goes again.
 */
void
_tb_mcp_client_hold_request (TbMcpClient *self,
                             guint        generation,
                             gint64       id,
                             gboolean     hold)
{
  Pending *p;

  if (generation != self->generation || (p = g_hash_table_lookup (self->pending, &id)) == NULL)
    return;
  if (p->timeout != NULL)
    {
      g_source_destroy (p->timeout);
      g_clear_pointer (&p->timeout, g_source_unref);
    }
  if (!hold && p->timeout_ms > 0 && p->task != NULL)
    {
      p->timeout = g_timeout_source_new (p->timeout_ms);
      g_source_set_callback (p->timeout, request_timeout_cb, p, NULL);
      g_source_set_static_name (p->timeout, "[tb] MCP request timeout");
      g_source_attach (p->timeout, g_task_get_context (p->task));
    }
}

/**
 * tb_mcp_client_get_name:
 * @self: a client
 *
 * Gives the server's name (#TbMcpClient:name).
 *
 * Returns: the name
 */
const char *
tb_mcp_client_get_name (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->name;
}

/**
 * tb_mcp_client_get_state:
 * @self: a client
 *
 * Tells where the client is in its connection (#TbMcpClient:state).
 *
 * Returns: the state
 */
TbMcpClientState
tb_mcp_client_get_state (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), TB_MCP_CLIENT_STATE_DISCONNECTED);
  return self->state;
}

/**
 * tb_mcp_client_get_error:
 * @self: a client
 *
 * Tells why the connection failed (#TbMcpClient:error).
 *
 * Returns: (nullable): a sentence naming the server, or %NULL while all is well
 */
const char *
tb_mcp_client_get_error (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->error;
}

/**
 * tb_mcp_client_get_protocol_version:
 * @self: a client
 *
 * Gives the revision of the protocol the client and the server agreed on.
 *
 * Returns: (nullable): the revision, such as "2025-06-18", or %NULL before connecting
 */
const char *
tb_mcp_client_get_protocol_version (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->protocol_version;
}

/**
 * tb_mcp_client_get_server_capabilities:
 * @self: a client
 *
 * Gives what the server said it can do: tools, resources, prompts,
 * completions, logging.
 *
 * Returns: (transfer none) (nullable): the `capabilities` the server
 *   declared when it initialized
 */
JsonNode *
tb_mcp_client_get_server_capabilities (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->server_capabilities;
}

/**
 * tb_mcp_client_get_server_info:
 * @self: a client
 *
 * Gives the server's name and version as it introduced itself.
 *
 * Returns: (transfer none) (nullable): the server's `serverInfo`
 */
JsonNode *
tb_mcp_client_get_server_info (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->server_info;
}

/**
 * tb_mcp_client_get_instructions:
 * @self: a client
 *
 * Gives the `instructions` the server sent when it initialized, which a
 * person may show a model.
 *
 * Returns: (nullable): the instructions, or %NULL when the server sent none
 */
const char *
tb_mcp_client_get_instructions (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);
  return self->instructions;
}

/**
 * tb_mcp_client_get_tools:
 * @self: a client
 *
 * Gives the tools the server listed at the last listing, each as the JSON
 * definition it sent.
 *
 * Returns: (transfer container) (element-type JsonNode): the tool
 *   definitions as the server listed them
 */
GPtrArray *
tb_mcp_client_get_tools (TbMcpClient *self)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), copy);

  for (guint i = 0; self->tools != NULL && i < self->tools->len; i++)
    g_ptr_array_add (copy, json_node_ref (g_ptr_array_index (self->tools, i)));
  return copy;
}

/**
 * tb_mcp_client_get_log:
 * @self: a client
 *
 * Gives the last lines of the server log (what #TbMcpClient::log-message
 * reported), for a person looking into a failure.
 *
 * Returns: (transfer full): the last entries of the server log, oldest first
 */
char **
tb_mcp_client_get_log (TbMcpClient *self)
{
  GStrvBuilder *builder;
  char **ret;

  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), NULL);

  builder = g_strv_builder_new ();
  for (GList *l = self->log.head; l != NULL; l = l->next)
    g_strv_builder_add (builder, l->data);
  ret = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return ret;
}

/**
 * tb_mcp_client_set_capabilities:
 * @self: a client
 * @capabilities: what the client declares
 *
 * Takes effect at the next connection.
 */
void
tb_mcp_client_set_capabilities (TbMcpClient       *self,
                                TbMcpCapabilities  capabilities)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  self->capabilities = capabilities;
}

/**
 * tb_mcp_protocol_from_string:
 * @text: "auto", "2026-07-28" (or "stateless") or "2025-11-25" (or
 *   "handshake")
 * @protocol: (out): the choice
 * @error: the error naming what is accepted
 *
 * Reads a choice of protocol revisions as the command line and the
 * preferences write it.
 *
 * Returns: whether @text names one
 */
gboolean
tb_mcp_protocol_from_string (const char     *text,
                             TbMcpProtocol  *protocol,
                             GError        **error)
{
  if (g_strcmp0 (text, "auto") == 0)
    *protocol = TB_MCP_PROTOCOL_AUTO;
  else if (g_strcmp0 (text, TB_MCP_PROTOCOL_VERSION_STATELESS) == 0 ||
           g_strcmp0 (text, "stateless") == 0)
    *protocol = TB_MCP_PROTOCOL_STATELESS;
  else if (g_strcmp0 (text, TB_MCP_PROTOCOL_VERSION) == 0 ||
           g_strcmp0 (text, "handshake") == 0)
    *protocol = TB_MCP_PROTOCOL_HANDSHAKE;
  else
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   /* Translators: what was given, then the two revisions */
                   _("“%s” is not a choice of MCP protocol; use auto, %s or %s"),
                   text != NULL ? text : "", TB_MCP_PROTOCOL_VERSION_STATELESS,
                   TB_MCP_PROTOCOL_VERSION);
      return FALSE;
    }
  return TRUE;
}

/**
 * tb_mcp_client_set_protocol:
 * @self: a client
 * @protocol: which revisions it may speak
 *
 * Takes effect at the next connection; the default is
 * %TB_MCP_PROTOCOL_AUTO.
 */
void
tb_mcp_client_set_protocol (TbMcpClient   *self,
                            TbMcpProtocol  protocol)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (protocol <= TB_MCP_PROTOCOL_HANDSHAKE);

  self->protocol_choice = protocol;
}

/**
 * tb_mcp_client_get_protocol:
 * @self: a client
 *
 * Tells which revisions of the protocol the client may speak, as set with
 * tb_mcp_client_set_protocol().
 *
 * Returns: which revisions it may speak
 */
TbMcpProtocol
tb_mcp_client_get_protocol (TbMcpClient *self)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (self), TB_MCP_PROTOCOL_AUTO);

  return self->protocol_choice;
}

/**
 * tb_mcp_client_set_roots:
 * @self: a client
 * @uris: (nullable): `file://` URIs of the folders the server may work in
 *
 * Gives the folders the client answers `roots/list` with, when it declares
 * %TB_MCP_CAPABILITY_ROOTS.
 */
void
tb_mcp_client_set_roots (TbMcpClient        *self,
                         const char * const *uris)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_strfreev (self->roots);
  self->roots = g_strdupv ((char **) uris);
}

/**
 * tb_mcp_client_set_request_timeout_ms:
 * @self: a client
 * @timeout_ms: the time limit in milliseconds
 *
 * The time limit of requests other than `tools/call` (initialize, list,
 * ping); 30 s by default.
 */
void
tb_mcp_client_set_request_timeout_ms (TbMcpClient *self,
                                      guint        timeout_ms)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  self->request_timeout_ms = timeout_ms;
}

/**
 * tb_mcp_client_set_tool_timeout_ms:
 * @self: a client
 * @timeout_ms: the time limit in milliseconds, or 0
 *
 * The `timeout-ms` of the #TbMcpTool made from now on, and the limit of
 * tb_mcp_client_call_tool_async(); 0 (the default) leaves it to the
 * registry.
 */
void
tb_mcp_client_set_tool_timeout_ms (TbMcpClient *self,
                                   guint        timeout_ms)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  self->tool_timeout_ms = timeout_ms;
}

guint _tb_mcp_client_get_tool_timeout_ms (TbMcpClient *self);

guint
_tb_mcp_client_get_tool_timeout_ms (TbMcpClient *self)
{
  return self->tool_timeout_ms;
}

