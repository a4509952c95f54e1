/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-text.h"

/* What the client sends, and the answers it waits for: requests with
 * their ids, time limits, cancellation and progress tokens; notifications;
 * responses to the server's requests; a ping when a server may hang. */

/* Pending requests. */

static void
pending_stop_timeout (Pending *p)
{
  if (p->timeout != NULL)
    {
      g_source_destroy (p->timeout);
      g_clear_pointer (&p->timeout, g_source_unref);
    }
}

static void
pending_free (Pending *p)
{
  pending_stop_timeout (p);
  if (p->cancel_id != 0)
    g_cancellable_disconnect (p->cancellable, p->cancel_id);
  g_clear_object (&p->cancellable);
  g_clear_object (&p->task);
  g_free (p->method);
  g_free (p->progress_token);
  g_clear_pointer (&p->params, json_node_unref);
  g_free (p);
}

/* The requests waiting for an answer, by id. */
GHashTable *
_tb_mcp_client_pending_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                (GDestroyNotify) pending_free);
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

void
_tb_mcp_client_send (TbMcpClient *self,
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
  _tb_mcp_client_send (self, node, -1);
}

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
  _tb_mcp_client_send (self, node, -1);
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

/* The request's time limit runs from now. */
static void
pending_start_timeout (Pending *p)
{
  p->timeout = g_timeout_source_new (p->timeout_ms);
  g_source_set_callback (p->timeout, request_timeout_cb, p, NULL);
  g_source_set_static_name (p->timeout, "[tb] MCP request timeout");
  g_source_attach (p->timeout, g_task_get_context (p->task));
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
    pending_start_timeout (p);

  if (g_task_get_cancellable (task) != NULL)
    {
      p->cancellable = g_object_ref (g_task_get_cancellable (task));
      p->cancel_id = g_cancellable_connect (p->cancellable, G_CALLBACK (request_cancelled_cb),
                                            task, NULL);
    }

  node = tb_json_node_take_object (object);
  _tb_mcp_client_send (self, node, p->id);
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

      _tb_mcp_client_fail (self, TB_MCP_ERROR_TIMEOUT, cause);
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

/* Answers. */

void
_tb_mcp_client_handle_response (TbMcpClient *self,
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
      _tb_mcp_client_log (self, "client", "warning",
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
  pending_stop_timeout (p);
  if (!hold && p->timeout_ms > 0 && p->task != NULL)
    pending_start_timeout (p);
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
