/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"

/* The server's tools, listed page by page when the client connects and
 * again when the server says they changed. */

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
          _tb_mcp_client_log (self, "client", "error", cause);
          if (self->connect_task != NULL)
            _tb_mcp_client_fail (self, TB_MCP_ERROR_PROTOCOL, cause);
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
              _tb_mcp_client_log (self, "client", "warning",
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
      json_object_set_string_member (params, "cursor", cursor);
      node = tb_json_node_take_object (params);
      _tb_mcp_client_start_request (self, "tools/list", node, self->request_timeout_ms, FALSE,
                                    task);
      return;
    }

  if (collected->len >= TB_MCP_MAX_TOOLS)
    {
      g_autofree char *text =
        g_strdup_printf (_("The server offers more than %d tools; only the first %d are used"),
                         TB_MCP_MAX_TOOLS, TB_MCP_MAX_TOOLS);

      _tb_mcp_client_log (self, "client", "warning", text);
    }

  self->listing = FALSE;
  g_clear_pointer (&self->tools, g_ptr_array_unref);
  self->tools = g_steal_pointer (&collected);

  if (self->connect_task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

      _tb_mcp_client_set_state (self, TB_MCP_CLIENT_STATE_CONNECTED, NULL);
      _tb_mcp_client_sync_registry (self);
      g_signal_emit (self, _tb_mcp_client_signals [TB_MCP_CLIENT_TOOLS_CHANGED], 0);
      _tb_mcp_listen_start (self);
      g_task_return_boolean (task, TRUE);
    }
  else
    {
      _tb_mcp_client_sync_registry (self);
      g_signal_emit (self, _tb_mcp_client_signals [TB_MCP_CLIENT_TOOLS_CHANGED], 0);
    }

  if (self->list_again)
    {
      self->list_again = FALSE;
      _tb_mcp_client_start_listing (self);
    }
}

void
_tb_mcp_client_start_listing (TbMcpClient *self)
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
  _tb_mcp_client_start_request (self, "tools/list", NULL, self->request_timeout_ms, FALSE, task);
}
