/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-listen"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-text.h"

/* The stateless revision's one way for a server to tell the client
 * something unasked (2026-07-28, "basic/patterns/subscriptions"): a
 * long-lived `subscriptions/listen` request whose stream carries list
 * changes of tools, prompts and resources and updates of subscribed
 * resources, each notification then handled as the handshake revisions'
 * are. It opens when a stateless connection is ready and opens again —
 * replacing the old one — when a resource is subscribed, when the server
 * ends it, or when its stream breaks: after 0.2 s, then twice as long each
 * time, five times in a row at most. */

#define MAX_REOPENS 5
#define FIRST_REOPEN_DELAY_MS 200   /* doubled at each reopen in a row */

static void listen_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data);

static JsonNode *
filter_params (TbMcpClient *self)
{
  JsonObject *params = json_object_new ();
  JsonObject *notifications = json_object_new ();

  json_object_set_boolean_member (notifications, "toolsListChanged", TRUE);
  json_object_set_boolean_member (notifications, "promptsListChanged", TRUE);
  json_object_set_boolean_member (notifications, "resourcesListChanged", TRUE);
  if (self->subscribed != NULL && self->subscribed->len > 0)
    {
      JsonArray *uris = json_array_new ();

      for (guint i = 0; i < self->subscribed->len; i++)
        json_array_add_string_element (uris, g_ptr_array_index (self->subscribed, i));
      json_object_set_array_member (notifications, "resourceSubscriptions", uris);
    }
  json_object_set_object_member (params, "notifications", notifications);
  return tb_json_node_take_object (params);
}

/* Ends the subscription in place: its request is answered here, and the
 * server hears of it (the stream closes over HTTP, a cancellation goes over
 * stdio). */
static void
end_current (TbMcpClient *self)
{
  g_autoptr(GTask) task = NULL;
  gint64 id = self->listen_id;

  if (id == 0)
    return;
  self->listen_id = 0;
  task = _tb_mcp_client_take_request (self, id);
  if (task != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "The subscription was replaced");
  if (self->http != NULL)
    _tb_mcp_http_end_listening (self->http);
  else
    {
      JsonObject *params = json_object_new ();
      g_autoptr(JsonNode) node = NULL;

      json_object_set_int_member (params, "requestId", id);
      node = tb_json_node_take_object (params);
      _tb_mcp_client_send_notification (self, "notifications/cancelled", node);
    }
}

/**
 * _tb_mcp_listen_start:
 * @self: a client connected in the stateless revision
 *
 * Opens the subscription, replacing the one in place.
 */
void
_tb_mcp_listen_start (TbMcpClient *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) params = NULL;

  if (!self->stateless || self->state != TB_MCP_CLIENT_STATE_CONNECTED)
    return;
  g_clear_handle_id (&self->listen_reopen, g_source_remove);
  end_current (self);
  task = g_task_new (self, NULL, listen_cb, GUINT_TO_POINTER (self->generation));
  params = filter_params (self);
  /* No time limit: it lasts as long as the connection. */
  self->listen_id = _tb_mcp_client_start_request (self, "subscriptions/listen", params, 0,
                                                  FALSE, task);
}

static gboolean
reopen_cb (gpointer user_data)
{
  TbMcpClient *self = user_data;

  self->listen_reopen = 0;
  _tb_mcp_listen_start (self);
  return G_SOURCE_REMOVE;
}

static void
listen_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  TbMcpClient *self = TB_MCP_CLIENT (object);
  guint generation = GPOINTER_TO_UINT (user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = tb_mcp_client_request_finish (self, result, &error);
  g_autofree char *text = NULL;

  /* Replaced, or the connection is gone: nothing to do. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      generation != self->generation || self->state != TB_MCP_CLIENT_STATE_CONNECTED)
    return;
  self->listen_id = 0;
  if (self->listen_failures >= MAX_REOPENS)
    {
      _tb_mcp_client_log (self, "client", "warning",
                          _("The server ended the subscription to its changes too often; "
                            "it is not opened again until the server restarts"));
      return;
    }
  self->listen_failures++;
  if (answer != NULL)
    text = g_strdup (_("The server ended the subscription to its changes; it opens again"));
  else
    text = g_strdup_printf (_("The subscription to the server's changes broke (%s); it opens "
                              "again"), error->message);
  _tb_mcp_client_log (self, "client", "info", text);
  self->listen_reopen = g_timeout_add_full (G_PRIORITY_DEFAULT,
                                            FIRST_REOPEN_DELAY_MS << (self->listen_failures - 1),
                                            reopen_cb, self, NULL);
}

/**
 * _tb_mcp_listen_acknowledged:
 * @self: a client
 * @params: (nullable): the acknowledgement's params
 *
 * The server took the subscription: what it agreed to go into the log.
 */
void
_tb_mcp_listen_acknowledged (TbMcpClient *self,
                             JsonObject  *params)
{
  JsonNode *notifications = params != NULL ? json_object_get_member (params, "notifications")
                                           : NULL;
  g_autofree char *agreed = notifications != NULL ? tb_json_to_string (notifications, FALSE)
                                                  : g_strdup ("{}");
  g_autofree char *shown = tb_text_shorten (agreed, -1, 1001);
  g_autofree char *text =
    /* Translators: the notifications the server agreed to send, as JSON */
    g_strdup_printf (_("The server sends its changes: %s"), shown);

  self->listen_failures = 0;
  _tb_mcp_client_log (self, "client", "info", text);
}

/**
 * _tb_mcp_listen_add_resource:
 * @self: a client connected in the stateless revision
 * @uri: a resource
 *
 * Subscribes to updates of @uri by opening the subscription again with it.
 */
void
_tb_mcp_listen_add_resource (TbMcpClient *self,
                             const char  *uri)
{
  if (self->subscribed == NULL)
    self->subscribed = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->subscribed->len; i++)
    if (g_str_equal (g_ptr_array_index (self->subscribed, i), uri))
      return;
  g_ptr_array_add (self->subscribed, g_strdup (uri));
  _tb_mcp_listen_start (self);
}

/**
 * _tb_mcp_listen_remove_resource:
 * @self: a client connected in the stateless revision
 * @uri: a resource
 *
 * Ends the updates of @uri by opening the subscription again without it.
 */
void
_tb_mcp_listen_remove_resource (TbMcpClient *self,
                                const char  *uri)
{
  for (guint i = 0; self->subscribed != NULL && i < self->subscribed->len; i++)
    if (g_str_equal (g_ptr_array_index (self->subscribed, i), uri))
      {
        g_ptr_array_remove_index (self->subscribed, i);
        _tb_mcp_listen_start (self);
        return;
      }
}

/**
 * _tb_mcp_listen_stop:
 * @self: a client whose connection ends
 *
 * Forgets the subscription; a new connection opens its own.
 */
void
_tb_mcp_listen_stop (TbMcpClient *self)
{
  g_clear_handle_id (&self->listen_reopen, g_source_remove);
  self->listen_id = 0;
  self->listen_failures = 0;
}
