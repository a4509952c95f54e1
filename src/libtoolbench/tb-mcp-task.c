/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-task"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-text.h"

/* Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28): a
 * server may answer `tools/call` with `resultType: "task"` and a task
 * handle instead of the result. The client then asks `tasks/get` as often
 * as the task's `pollIntervalMs` allows, reports each new status message
 * as the call's progress (so the app shows the call running with it),
 * hands the task's `inputRequests` to the usual handling of server requests
 * (the same dialogs and command-line answers) and sends each answer with
 * `tasks/update`, until the task is completed, failed or cancelled. The
 * caller's task waits through all of it. Cancelling the call, or its time
 * limit, sends `tasks/cancel`. */

/* Polling bounds, whatever the server suggests. */
#define POLL_DEFAULT_MS 1000
#define POLL_MIN_MS 20
#define POLL_MAX_MS 30000

typedef struct
{
  guint              ref_count;
  TbMcpClient       *client;        /* not a reference: the client ends its tasks */
  GTask             *task;          /* the caller's, until it is returned */
  char              *id;
  char              *tool;
  char              *status_message;
  guint              poll_ms;
  gint64             deadline;      /* monotonic µs of the call's time limit, or 0 */
  guint              timeout_ms;
  gint64             expires;       /* monotonic µs the server may forget it, or 0 */
  GSource           *timer;
  GCancellable      *cancellable;
  gulong             cancel_id;
  GHashTable        *asked;         /* inputRequests keys seen, never asked twice */
  TbMcpProgressFunc  progress;
  gpointer           progress_data;
} Follow;

static void poll_task (Follow *follow);

static Follow *
follow_ref (Follow *follow)
{
  follow->ref_count++;
  return follow;
}

static void
follow_unref (gpointer data)
{
  Follow *follow = data;

  if (--follow->ref_count > 0)
    return;
  g_assert (follow->task == NULL);
  g_free (follow->id);
  g_free (follow->tool);
  g_free (follow->status_message);
  g_clear_pointer (&follow->asked, g_hash_table_unref);
  g_free (follow);
}

/* Ends the follow: the caller hears @error, or @result when it is %NULL. */
static void
finish (Follow   *follow,
        JsonNode *result,
        GError   *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&follow->task);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }
  if (follow->timer != NULL)
    {
      g_source_destroy (follow->timer);
      g_clear_pointer (&follow->timer, g_source_unref);
    }
  if (follow->cancellable != NULL)
    {
      g_cancellable_disconnect (follow->cancellable, follow->cancel_id);
      g_clear_object (&follow->cancellable);
    }
  if (follow->client != NULL && follow->client->tasks != NULL)
    g_ptr_array_remove (follow->client->tasks, follow);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, json_node_ref (result), (GDestroyNotify) json_node_unref);
  follow_unref (follow);
}

static JsonNode *
task_params (Follow *follow)
{
  JsonObject *params = json_object_new ();

  json_object_set_string_member (params, "taskId", follow->id);
  return tb_json_node_take_object (params);
}

static void
cancel_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = tb_mcp_client_request_finish (TB_MCP_CLIENT (object), result,
                                                             &error);

  if (answer == NULL)
    _tb_mcp_client_log (TB_MCP_CLIENT (object), "client", "warning", error->message);
}

/* Asks the server to stop the task; its answer is only logged. */
static void
cancel_on_server (Follow *follow)
{
  g_autoptr(JsonNode) params = task_params (follow);
  g_autoptr(GTask) request = NULL;

  if (follow->client->state != TB_MCP_CLIENT_STATE_CONNECTED)
    return;
  request = g_task_new (follow->client, NULL, cancel_sent_cb, NULL);
  _tb_mcp_client_start_request (follow->client, "tasks/cancel", params,
                                follow->client->request_timeout_ms, FALSE, request);
}

static gboolean
cancelled_idle (gpointer data)
{
  Follow *follow = data;

  if (follow->task == NULL)
    return G_SOURCE_REMOVE;
  cancel_on_server (follow);
  finish (follow, NULL,
          g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                       _("The request to the MCP server “%s” was cancelled"),
                       follow->client->name));
  return G_SOURCE_REMOVE;
}

static void
cancelled_cb (GCancellable *cancellable,
              gpointer      data)
{
  Follow *follow = data;
  GSource *source = g_idle_source_new ();

  /* May come from another thread: finish on the client's context. */
  g_source_set_callback (source, cancelled_idle, follow_ref (follow), follow_unref);
  g_source_set_static_name (source, "[tb] MCP task cancelled");
  g_source_attach (source, g_task_get_context (follow->task));
  g_source_unref (source);
}

static gboolean
poll_due_cb (gpointer data)
{
  Follow *follow = data;

  g_clear_pointer (&follow->timer, g_source_unref);
  if (follow->task == NULL)
    return G_SOURCE_REMOVE;
  if (follow->deadline > 0 && g_get_monotonic_time () >= follow->deadline)
    {
      cancel_on_server (follow);
      finish (follow, NULL,
              g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_TIMEOUT,
                           /* Translators: a tool, a server name, then milliseconds */
                           _("The task of “%s” on the MCP server “%s” did not finish within "
                             "%u ms; the server was asked to cancel it"),
                           follow->tool, follow->client->name, follow->timeout_ms));
      return G_SOURCE_REMOVE;
    }
  if (follow->expires > 0 && g_get_monotonic_time () >= follow->expires)
    {
      finish (follow, NULL,
              g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_TIMEOUT,
                           _("The task of “%s” on the MCP server “%s” outlived the time the "
                             "server keeps it (ttlMs) without finishing"),
                           follow->tool, follow->client->name));
      return G_SOURCE_REMOVE;
    }
  poll_task (follow);
  return G_SOURCE_REMOVE;
}

static void
schedule_poll (Follow *follow)
{
  guint delay = follow->poll_ms;

  if (follow->deadline > 0)
    {
      gint64 left = (follow->deadline - g_get_monotonic_time ()) / 1000;

      delay = (guint) CLAMP (left, 0, (gint64) delay);
    }
  follow->timer = g_timeout_source_new (delay);
  g_source_set_callback (follow->timer, poll_due_cb, follow_ref (follow), follow_unref);
  g_source_set_static_name (follow->timer, "[tb] MCP task poll");
  g_source_attach (follow->timer, g_task_get_context (follow->task));
}

/* What a task state says of polling and time to live. */
static void
read_hints (Follow     *follow,
            JsonObject *state)
{
  gint64 value;

  if (tb_json_object_get_int_in_range (state, "pollIntervalMs", 0, G_MAXINT32, &value, NULL))
    follow->poll_ms = CLAMP ((guint) value, POLL_MIN_MS, POLL_MAX_MS);
  if (follow->expires == 0 &&
      tb_json_object_get_int_in_range (state, "ttlMs", 1, G_MAXINT32, &value, NULL))
    follow->expires = g_get_monotonic_time () + value * 1000;
}

/* A new status message is the call's progress: the app shows it on the
 * running call. */
static void
report_status (Follow     *follow,
               const char *status,
               JsonObject *state)
{
  const char *message = tb_json_object_get_string (state, "statusMessage");
  g_autofree char *text = NULL;

  if (message != NULL)
    text = tb_text_shorten (message, -1, 501);
  else if (g_str_equal (status, "input_required"))
    text = g_strdup (_("The task waits for input"));
  else
    text = g_strdup (_("Running on the server as a task"));
  if (g_strcmp0 (text, follow->status_message) == 0)
    return;
  g_free (follow->status_message);
  follow->status_message = g_steal_pointer (&text);
  if (follow->progress != NULL)
    follow->progress (0, -1, follow->status_message, follow->progress_data);
}

static void
update_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Follow *follow = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = tb_mcp_client_request_finish (TB_MCP_CLIENT (object), result,
                                                             &error);

  if (answer == NULL && follow->task != NULL &&
      !g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED))
    finish (follow, NULL,
            g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_REMOTE,
                         /* Translators: a tool, a server name, then the error */
                         _("The answer for the task of “%s” could not be given to the MCP "
                           "server “%s”: %s"), follow->tool, follow->client->name,
                         error->message));
  follow_unref (follow);
}

/* An input request answered: the answer goes to the server at once. */
static void
input_answered (gpointer      target,
                const char   *key,
                JsonNode     *result,
                const char   *refusal,
                const GError *lost)
{
  Follow *follow = target;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(GTask) request = NULL;
  JsonObject *responses;

  if (follow->task == NULL || lost != NULL)
    return;
  if (refusal != NULL)
    {
      cancel_on_server (follow);
      finish (follow, NULL,
              g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_REMOTE,
                           /* Translators: a tool, a server name, the input's key, then why */
                           _("The task of “%s” on the MCP server “%s” asked for input “%s”, "
                             "and it could not be given: %s; the server was asked to "
                             "cancel it"), follow->tool, follow->client->name, key, refusal));
      return;
    }
  params = task_params (follow);
  responses = json_object_new ();
  json_object_set_member (responses, key,
                          result != NULL ? json_node_copy (result) : tb_json_node_new_object ());
  json_object_set_object_member (json_node_get_object (params), "inputResponses", responses);
  request = g_task_new (follow->client, NULL, update_sent_cb, follow_ref (follow));
  _tb_mcp_client_start_request (follow->client, "tasks/update", params,
                                follow->client->request_timeout_ms, FALSE, request);
}

/* The task's input requests not seen before go to the person. */
static void
ask_inputs (Follow     *follow,
            JsonObject *requests)
{
  g_autoptr(GList) keys = json_object_get_members (requests);
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  for (GList *l = keys; l != NULL; l = l->next)
    {
      if (g_hash_table_contains (follow->asked, l->data))
        continue;
      g_hash_table_add (follow->asked, g_strdup (l->data));
      g_ptr_array_add (ids, _tb_mcp_input_wait (follow->client, l->data, input_answered,
                                                follow_ref (follow), follow_unref));
    }
  for (guint i = 0; i < ids->len && follow->task != NULL; i++)
    _tb_mcp_input_ask (follow->client, g_ptr_array_index (ids, i), requests);
}

static GError *
failed_error (Follow     *follow,
              JsonObject *state)
{
  JsonObject *error = tb_json_object_get_object (state, "error");
  const char *message = tb_json_object_get_string (error, "message");
  g_autofree char *shown = NULL;
  gint64 code = 0;

  if (message == NULL)
    message = tb_json_object_get_string (state, "statusMessage");
  shown = tb_text_shorten (message != NULL ? message : _("no reason given"), -1, 2001);
  if (!tb_json_object_get_int_in_range (error, "code", G_MININT32, G_MAXINT32, &code, NULL))
    code = 0;
  return g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_REMOTE,
                      /* Translators: a tool, a server name, an error code, the server's message */
                      _("The task of “%s” on the MCP server “%s” failed with error %d: %s"),
                      follow->tool, follow->client->name, (int) code, shown);
}

/* One state of the task, from the handle, `tasks/get` or a notification. */
static void
take_state (Follow     *follow,
            JsonObject *state)
{
  const char *status = tb_json_object_get_string (state, "status");

  if (status == NULL)
    {
      cancel_on_server (follow);
      finish (follow, NULL,
              g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                           _("The MCP server “%s” sent a task state without a status for “%s”; "
                             "the server was asked to cancel the task"),
                           follow->client->name, follow->tool));
      return;
    }
  read_hints (follow, state);

  if (g_str_equal (status, "completed"))
    {
      JsonNode *result = json_object_get_member (state, "result");

      if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
        finish (follow, NULL,
                g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                             _("The MCP server “%s” says the task of “%s” completed, "
                               "but sent no result object"),
                             follow->client->name, follow->tool));
      else
        finish (follow, result, NULL);
    }
  else if (g_str_equal (status, "failed"))
    finish (follow, NULL, failed_error (follow, state));
  else if (g_str_equal (status, "cancelled"))
    {
      const char *message = tb_json_object_get_string (state, "statusMessage");
      g_autofree char *shown = tb_text_shorten (message != NULL ? message
                                                                : _("no reason given"), -1, 501);

      finish (follow, NULL,
              g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_REMOTE,
                           /* Translators: a tool, a server name, then the server's reason */
                           _("The task of “%s” was cancelled on the MCP server “%s”: %s"),
                           follow->tool, follow->client->name, shown));
    }
  else if (g_str_equal (status, "working") || g_str_equal (status, "input_required"))
    {
      JsonObject *requests = tb_json_object_get_object (state, "inputRequests");

      report_status (follow, status, state);
      if (g_str_equal (status, "input_required") && requests != NULL)
        ask_inputs (follow, requests);
      if (follow->task != NULL && follow->timer == NULL)
        schedule_poll (follow);
    }
  else
    {
      g_autofree char *shown = tb_text_shorten (status, -1, 81);

      cancel_on_server (follow);
      finish (follow, NULL,
              g_error_new (TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                           /* Translators: a server name, a status, then a tool */
                           _("The MCP server “%s” sent the unknown task status “%s” for “%s”; "
                             "the server was asked to cancel the task"),
                           follow->client->name, shown, follow->tool));
    }
}

static void
polled_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Follow *follow = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = tb_mcp_client_request_finish (TB_MCP_CLIENT (object), result,
                                                             &error);

  if (follow->task == NULL)
    ;
  else if (answer == NULL)
    finish (follow, NULL,
            g_error_new (error->domain, error->code,
                         /* Translators: a tool, a server name, then the error */
                         _("The task of “%s” on the MCP server “%s” could not be followed: %s"),
                         follow->tool, follow->client->name, error->message));
  else
    take_state (follow, json_node_get_object (answer));
  follow_unref (follow);
}

static void
poll_task (Follow *follow)
{
  g_autoptr(JsonNode) params = task_params (follow);
  g_autoptr(GTask) request = g_task_new (follow->client, NULL, polled_cb, follow_ref (follow));

  _tb_mcp_client_start_request (follow->client, "tasks/get", params,
                                follow->client->request_timeout_ms, FALSE, request);
}

/**
 * _tb_mcp_task_follow:
 * @self: a client
 * @task: (transfer full): the caller's task of a `tools/call`
 * @tool: (nullable): the tool's name, for messages
 * @timeout_ms: the call's time limit from now, or 0 for none
 * @progress: (nullable): the call's progress function, told each new
 *   status message
 * @progress_data: closure data
 * @handle: the server's `CreateTaskResult`
 *
 * Follows the task until it ends; @task gets its result or the reason
 * there is none.
 */
void
_tb_mcp_task_follow (TbMcpClient       *self,
                     GTask             *task,
                     const char        *tool,
                     guint              timeout_ms,
                     TbMcpProgressFunc  progress,
                     gpointer           progress_data,
                     JsonObject        *handle)
{
  const char *id = tb_json_object_get_string (handle, "taskId");
  Follow *follow;

  if (id == NULL || *id == '\0')
    {
      g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                               _("The MCP server “%s” answered with a task without a taskId"),
                               self->name);
      g_object_unref (task);
      return;
    }

  follow = g_new0 (Follow, 1);
  follow->ref_count = 1;            /* held while the caller waits */
  follow->client = self;
  follow->task = task;
  follow->id = g_strdup (id);
  follow->tool = g_strdup (tool != NULL ? tool : "?");
  follow->poll_ms = POLL_DEFAULT_MS;
  follow->timeout_ms = timeout_ms;
  if (timeout_ms > 0)
    follow->deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  follow->asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  follow->progress = progress;
  follow->progress_data = progress_data;
  g_ptr_array_add (self->tasks, follow);
  if (g_task_get_cancellable (task) != NULL)
    {
      follow->cancellable = g_object_ref (g_task_get_cancellable (task));
      follow->cancel_id = g_cancellable_connect (follow->cancellable, G_CALLBACK (cancelled_cb),
                                                 follow, NULL);
      if (follow->cancel_id == 0)
        return;                     /* cancelled already: the idle finishes */
    }
  take_state (follow, handle);
}

/**
 * _tb_mcp_task_fail_all:
 * @self: a client whose connection is gone
 * @error: why
 *
 * Every task being followed ends with @error.
 */
void
_tb_mcp_task_fail_all (TbMcpClient  *self,
                       const GError *error)
{
  while (self->tasks != NULL && self->tasks->len > 0)
    finish (g_ptr_array_index (self->tasks, 0), NULL, g_error_copy (error));
}
