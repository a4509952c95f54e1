/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-reissue"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"

/* A request of the stateless revision whose event stream ended before its
 * answer: streams of 2026-07-28 do not resume, so the client decides
 * whether asking again is safe. */

/* Whether asking again cannot do a thing twice: anything but a tool call,
 * and a call of a tool the server marks read-only or idempotent. */
static gboolean
safe_to_repeat (TbMcpClient *self,
                Pending     *p)
{
  JsonObject *params;
  const char *name;

  if (g_strcmp0 (p->method, "subscriptions/listen") == 0)
    return FALSE;
  if (g_strcmp0 (p->method, "tools/call") != 0)
    return TRUE;
  params = p->params != NULL && JSON_NODE_HOLDS_OBJECT (p->params)
           ? json_node_get_object (p->params) : NULL;
  name = tb_json_object_get_string (params, "name");
  for (guint i = 0; name != NULL && self->tools != NULL && i < self->tools->len; i++)
    {
      JsonObject *tool = json_node_get_object (g_ptr_array_index (self->tools, i));
      JsonNode *annotations = json_object_get_member (tool, "annotations");
      JsonObject *hints;

      if (g_strcmp0 (tb_json_object_get_string (tool, "name"), name) != 0)
        continue;
      if (annotations == NULL || !JSON_NODE_HOLDS_OBJECT (annotations))
        return FALSE;
      hints = json_node_get_object (annotations);
      return tb_json_object_get_boolean (hints, "readOnlyHint", FALSE) ||
             tb_json_object_get_boolean (hints, "idempotentHint", FALSE);
    }
  return FALSE;
}

/**
 * _tb_mcp_client_stream_broke:
 * @self: a client
 * @generation: the connection the stream belonged to
 * @request_id: the request whose response stream ended before the answer
 *
 * The stateless revision has no resumption: a request that is safe to
 * repeat goes again as a new request (twice at most); the others fail,
 * saying that they may have run.
 */
void
_tb_mcp_client_stream_broke (TbMcpClient *self,
                             guint        generation,
                             gint64       request_id)
{
  Pending *p = g_hash_table_lookup (self->pending, &request_id);
  g_autoptr(GTask) task = NULL;

  if (generation != self->generation || p == NULL)
    return;
  if (safe_to_repeat (self, p) && p->reissues < 2)
    {
      g_autofree char *method = g_strdup (p->method);
      g_autoptr(JsonNode) params = p->params != NULL ? json_node_ref (p->params) : NULL;
      guint timeout_ms = p->timeout_ms;
      TbMcpProgressFunc progress = p->progress;
      gpointer progress_data = p->progress_data;
      guint rounds = p->rounds;
      guint reissues = p->reissues + 1;
      gint64 id;
      Pending *again;

      task = _tb_mcp_client_take_request (self, request_id);
      id = _tb_mcp_client_retry_request (self, method, params, timeout_ms, progress,
                                         progress_data, rounds, task);
      if ((again = g_hash_table_lookup (self->pending, &id)) != NULL)
        again->reissues = reissues;
      _tb_mcp_client_log (self, "client", "info",
                  _("The server's answer stream broke before the answer; the request went "
                    "again"));
      return;
    }
  task = _tb_mcp_client_take_request (self, request_id);
  g_task_return_new_error (task, TB_MCP_ERROR, TB_MCP_ERROR_DISCONNECTED,
                           _("The MCP server “%s” closed the answer stream before answering; "
                             "the request may have been carried out, so it is not sent again"),
                           self->name);
}
