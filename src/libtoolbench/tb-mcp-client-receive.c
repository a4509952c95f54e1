/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-text.h"

/* What comes from the server: each message read and handed on, a
 * response to the request it answers, a notification to what it changes
 * (the lists, progress, the server log, a withdrawn request), a request
 * answered by the client or handed to the person. */

JsonNode *
_tb_mcp_parse_message (const char  *text,
                       gsize        length,
                       GError     **error)
{
  return tb_json_parse_full (text, length, TB_MCP_MAX_MESSAGE_SIZE, TB_JSON_MAX_DEPTH, error);
}

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

          g_signal_emit (self, _tb_mcp_client_signals [TB_MCP_CLIENT_PROGRESS], 0, token,
                         progress, total, message);
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

      _tb_mcp_client_log (self, "server", level ? level : "info", with_logger);
    }
  else
    {
      _tb_mcp_client_log (self, "server", level ? level : "info", shown);
    }
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
      _tb_mcp_client_log (self, "client", "info", line);

      g_signal_emit (self,
                     _tb_mcp_client_signals [method[0] == 'e'
                                             ? TB_MCP_CLIENT_ELICITATION_REQUESTED
                                             : TB_MCP_CLIENT_SAMPLING_REQUESTED],
                     0, request, &taken);
      if (!taken && !request->answered)
        {
          request->answered = TRUE;
          _tb_mcp_client_respond (self, id, NULL, -32601,
                   _("Nobody can answer this request here: the application has no handler "
                     "for it"));
          _tb_mcp_client_log (self, "client", "warning",
                              _("No handler answered the request; the server was told so"));
        }
      return;
    }

  {
    g_autofree char *text = g_strdup_printf (_("The client does not support “%s”"), method);

    _tb_mcp_client_respond (self, id, NULL, -32601, text);
  }
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
      _tb_mcp_client_fail (self, TB_MCP_ERROR_PROTOCOL,
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
        _tb_mcp_client_start_listing (self);
      else if (g_str_equal (method, "notifications/resources/list_changed"))
        {
          _tb_mcp_catalog_forget (self, "resources/list");
          _tb_mcp_catalog_forget (self, "resources/templates/list");
          g_signal_emit (self, _tb_mcp_client_signals [TB_MCP_CLIENT_RESOURCES_CHANGED], 0);
        }
      else if (g_str_equal (method, "notifications/prompts/list_changed"))
        {
          _tb_mcp_catalog_forget (self, "prompts/list");
          g_signal_emit (self, _tb_mcp_client_signals [TB_MCP_CLIENT_PROMPTS_CHANGED], 0);
        }
      else if (g_str_equal (method, "notifications/resources/updated") &&
               tb_json_object_get_string (p, "uri") != NULL)
        g_signal_emit (self, _tb_mcp_client_signals [TB_MCP_CLIENT_RESOURCE_UPDATED], 0,
                       tb_json_object_get_string (p, "uri"));
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
      _tb_mcp_client_handle_response (self, object);
    }
  else if (json_object_has_member (object, "result") || json_object_has_member (object, "error"))
    {
      /* An answer to a notification: wrong, but harmless. */
      _tb_mcp_client_log (self, "client", "warning",
                          _("The server answered a message that needs no answer; the answer was "
                            "ignored"));
    }
  else
    {
      _tb_mcp_client_fail (self, TB_MCP_ERROR_PROTOCOL,
                           _("sent a JSON object that is neither a request, a notification "
                             "nor a response"));
    }
}
