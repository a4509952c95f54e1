/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The MCP messages of a run. The loop follows the client of every MCP
 * tool in its registry (also those that join it later, after a list
 * change) and hands each JSON-RPC message to the loop, which decides
 * whether the run caused it and records it as an `mcp-message` event.
 * HTTP exchanges stay in the protocol view: a trace keeps messages. */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include <string.h>

#include "tb-json.h"
#include "tb-loop-mcp-private.h"
#include "tb-mcp-tool.h"
#include "tb-trace-file.h"

struct _TbLoopMcp
{
  TbToolRegistry *registry;
  gulong          registered_id;
  GHashTable     *clients;      /* TbMcpClient (not owned) → its handler id */
  TbLoopMcpFunc   func;
  gpointer        user_data;
};

static void
on_record (TbMcpClient     *client,
           TbMcpWireRecord *record,
           TbLoopMcp       *self)
{
  if (tb_mcp_wire_record_get_kind (record) != TB_MCP_WIRE_KIND_HTTP)
    self->func (record, self->user_data);
}

static void
client_gone (gpointer  data,
             GObject  *where_the_client_was)
{
  TbLoopMcp *self = data;

  g_hash_table_remove (self->clients, where_the_client_was);
}

static void
follow (TbLoopMcp *self,
        TbTool    *tool)
{
  g_autoptr(TbMcpClient) client = NULL;
  gulong id;

  if (!TB_IS_MCP_TOOL (tool))
    return;
  client = tb_mcp_tool_get_client (TB_MCP_TOOL (tool));
  if (client == NULL || g_hash_table_contains (self->clients, client))
    return;
  id = g_signal_connect (client, "wire-record", G_CALLBACK (on_record), self);
  g_hash_table_insert (self->clients, client, GSIZE_TO_POINTER (id));
  g_object_weak_ref (G_OBJECT (client), client_gone, self);
}

static void
on_tool_registered (TbToolRegistry *registry,
                    TbTool         *tool,
                    TbLoopMcp      *self)
{
  follow (self, tool);
}

TbLoopMcp *
_tb_loop_mcp_new (TbToolRegistry *registry,
                  TbLoopMcpFunc   func,
                  gpointer        user_data)
{
  TbLoopMcp *self = g_new0 (TbLoopMcp, 1);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (registry));

  self->registry = g_object_ref (registry);
  self->clients = g_hash_table_new (NULL, NULL);
  self->func = func;
  self->user_data = user_data;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (registry), i);

      follow (self, tool);
    }
  self->registered_id = g_signal_connect (registry, "tool-registered",
                                          G_CALLBACK (on_tool_registered), self);
  return self;
}

void
_tb_loop_mcp_free (TbLoopMcp *self)
{
  GHashTableIter iter;
  gpointer client, id;

  if (self == NULL)
    return;
  g_hash_table_iter_init (&iter, self->clients);
  while (g_hash_table_iter_next (&iter, &client, &id))
    {
      g_signal_handler_disconnect (client, GPOINTER_TO_SIZE (id));
      g_object_weak_unref (G_OBJECT (client), client_gone, self);
    }
  g_hash_table_unref (self->clients);
  g_clear_signal_handler (&self->registered_id, self->registry);
  g_object_unref (self->registry);
  g_free (self);
}

/* The message as JSON when a trace reader would take it back: not too
 * deep, not too many values for the length it has written compactly. */
static JsonNode *
message_for_trace (TbMcpWireRecord *record)
{
  g_autoptr(JsonNode) message = tb_mcp_wire_record_dup_message (record);
  g_autofree char *compact = NULL;

  if (message == NULL)
    return NULL;
  compact = tb_json_to_string (message, FALSE);
  if (!tb_json_check_text (compact, strlen (compact), TB_TRACE_MAX_DEPTH - 4, NULL))
    return NULL;
  return g_steal_pointer (&message);
}

/**
 * _tb_loop_mcp_payload:
 * @record: a message of the protocol view
 * @payload: an event's payload, to fill
 *
 * Adds what an `mcp-message` event says (docs/trace-format.md): `server`,
 * `protocol`, `direction`, `kind`, `method`, `id`, `size`, `call_id`, `truncated`,
 * `problem`, and `message` or `text`. The text is bounded by
 * %TB_MCP_WIRE_MAX_TEXT, so the event stays far below a trace line's limit.
 */
void
_tb_loop_mcp_payload (TbMcpWireRecord *record,
                      JsonObject      *payload)
{
  static const char * const copied[] = {
    "server", "protocol", "direction", "kind", "method", "id", "size", "call_id", "truncated",
    "problem",
  };
  g_autoptr(JsonNode) json = tb_mcp_wire_record_to_json (record);
  JsonObject *object = json_node_get_object (json);
  g_autoptr(JsonNode) message = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (copied); i++)
    {
      JsonNode *value = json_object_get_member (object, copied[i]);

      if (value != NULL)
        json_object_set_member (payload, copied[i], json_node_copy (value));
    }

  message = message_for_trace (record);
  if (message != NULL)
    json_object_set_member (payload, "message", g_steal_pointer (&message));
  else if (tb_mcp_wire_record_get_text (record) != NULL)
    json_object_set_string_member (payload, "text", tb_mcp_wire_record_get_text (record));
}
