/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A request from the server to the person: elicitation or sampling,
 * answered once, or withdrawn by the server. */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"

/**
 * TbMcpServerRequest:
 *
 * A question an MCP server asks the person through the client: an
 * elicitation (`elicitation/create`, a form to fill) or a sampling request
 * (`sampling/createMessage`, a model turn to allow). It is answered once;
 * later answers are ignored. The server may withdraw it
 * (#TbMcpServerRequest::withdrawn).
 */
G_DEFINE_FINAL_TYPE (TbMcpServerRequest, tb_mcp_server_request, G_TYPE_OBJECT)

static guint request_withdrawn_signal;

static void
forget_request (TbMcpServerRequest *self)
{
  g_autoptr(TbMcpClient) client = g_weak_ref_get (&self->client);

  if (client != NULL && self->key != NULL &&
      g_hash_table_lookup (client->server_requests, self->key) == self)
    g_hash_table_remove (client->server_requests, self->key);
}

/* The server sent notifications/cancelled for it: no answer is wanted. */
void
_tb_mcp_server_request_withdraw (TbMcpServerRequest *self)
{
  g_autoptr(GObject) hold = g_object_ref (G_OBJECT (self));

  if (self->answered)
    return;
  self->answered = TRUE;
  forget_request (self);
  g_signal_emit (self, request_withdrawn_signal, 0);
}

static void
tb_mcp_server_request_dispose (GObject *object)
{
  TbMcpServerRequest *self = (TbMcpServerRequest *)object;

  /* Dropped without an answer: say so rather than leave the server waiting. */
  if (!self->answered && self->id != NULL)
    tb_mcp_server_request_respond_error (self, -32603,
                                         _("The application dropped the request without "
                                           "answering it"));
  forget_request (self);

  G_OBJECT_CLASS (tb_mcp_server_request_parent_class)->dispose (object);
}

static void
tb_mcp_server_request_finalize (GObject *object)
{
  TbMcpServerRequest *self = (TbMcpServerRequest *)object;

  g_weak_ref_clear (&self->client);
  g_clear_pointer (&self->id, json_node_unref);
  g_clear_pointer (&self->params, json_node_unref);
  g_free (self->method);
  g_free (self->key);

  G_OBJECT_CLASS (tb_mcp_server_request_parent_class)->finalize (object);
}

static void
tb_mcp_server_request_class_init (TbMcpServerRequestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_mcp_server_request_dispose;
  object_class->finalize = tb_mcp_server_request_finalize;

  /**
   * TbMcpServerRequest::withdrawn:
   *
   * The server cancelled the request (`notifications/cancelled`): close
   * whatever asks the person; an answer is no longer sent.
   */
  request_withdrawn_signal =
    g_signal_new ("withdrawn", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tb_mcp_server_request_init (TbMcpServerRequest *self)
{
  g_weak_ref_init (&self->client, NULL);
}

/**
 * tb_mcp_server_request_get_method:
 * @self: a request
 *
 * Tells what the server asks for.
 *
 * Returns: the method, `elicitation/create` or `sampling/createMessage`
 */
const char *
tb_mcp_server_request_get_method (TbMcpServerRequest *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_REQUEST (self), NULL);
  return self->method;
}

/**
 * tb_mcp_server_request_get_params:
 * @self: a request
 *
 * Gives what the server sent with its request: the message and the schema
 * of an elicitation, the messages of a sampling request.
 *
 * Returns: (transfer none): the request's params (an object)
 */
JsonNode *
tb_mcp_server_request_get_params (TbMcpServerRequest *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_REQUEST (self), NULL);
  return self->params;
}

/**
 * tb_mcp_server_request_get_client:
 * @self: a request
 *
 * Gives the client whose server asked.
 *
 * Returns: (transfer full) (nullable): the client, while it exists
 */
TbMcpClient *
tb_mcp_server_request_get_client (TbMcpServerRequest *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_REQUEST (self), NULL);
  return g_weak_ref_get (&self->client);
}

/**
 * tb_mcp_server_request_is_answered:
 * @self: a request
 *
 * Tells whether the request was answered, by the person, the client or the
 * server withdrawing it.
 *
 * Returns: %TRUE when no answer is wanted any more
 */
gboolean
tb_mcp_server_request_is_answered (TbMcpServerRequest *self)
{
  g_return_val_if_fail (TB_IS_MCP_SERVER_REQUEST (self), TRUE);
  return self->answered;
}

static void
answer (TbMcpServerRequest *self,
        JsonNode           *result,
        int                 code,
        const char         *message)
{
  g_autoptr(TbMcpClient) client = g_weak_ref_get (&self->client);

  if (self->answered)
    return;
  self->answered = TRUE;
  forget_request (self);
  if (client == NULL || client->generation != self->generation)
    return;
  _tb_mcp_client_respond (client, self->id, result, code, message);
}

/**
 * tb_mcp_server_request_respond:
 * @self: a request
 * @result: the result object
 *
 * Answers the request; later answers are ignored.
 */
void
tb_mcp_server_request_respond (TbMcpServerRequest *self,
                               JsonNode           *result)
{
  g_return_if_fail (TB_IS_MCP_SERVER_REQUEST (self));
  answer (self, result, 0, NULL);
}

/**
 * tb_mcp_server_request_respond_error:
 * @self: a request
 * @code: a JSON-RPC error code
 * @message: the error message the server receives
 *
 * Answers the request with a JSON-RPC error; later answers are ignored.
 */
void
tb_mcp_server_request_respond_error (TbMcpServerRequest *self,
                                     int                 code,
                                     const char         *message)
{
  g_return_if_fail (TB_IS_MCP_SERVER_REQUEST (self));
  answer (self, NULL, code, message != NULL ? message : "");
}

static void
answer_action (TbMcpServerRequest *self,
               const char         *action,
               JsonNode           *content)
{
  JsonObject *result = json_object_new ();
  g_autoptr(JsonNode) node = NULL;

  json_object_set_string_member (result, "action", action);
  if (content != NULL)
    json_object_set_member (result, "content", json_node_copy (content));
  node = tb_json_node_take_object (result);
  answer (self, node, 0, NULL);
}

/**
 * tb_mcp_server_request_accept:
 * @self: an `elicitation/create` request
 * @content: (nullable): the values the person entered, an object
 *
 * Answers an elicitation with what the person entered.
 */
void
tb_mcp_server_request_accept (TbMcpServerRequest *self,
                              JsonNode           *content)
{
  g_return_if_fail (TB_IS_MCP_SERVER_REQUEST (self));
  answer_action (self, "accept", content);
}

/**
 * tb_mcp_server_request_decline:
 * @self: a request
 *
 * The person said no. For sampling, which has no "decline" answer, the
 * server gets an error saying the person declined.
 */
void
tb_mcp_server_request_decline (TbMcpServerRequest *self)
{
  g_return_if_fail (TB_IS_MCP_SERVER_REQUEST (self));
  if (g_strcmp0 (self->method, "elicitation/create") == 0)
    answer_action (self, "decline", NULL);
  else
    answer (self, NULL, -1, _("The person declined the request"));
}

/**
 * tb_mcp_server_request_cancel:
 * @self: a request
 *
 * The person dismissed the request without choosing.
 */
void
tb_mcp_server_request_cancel (TbMcpServerRequest *self)
{
  g_return_if_fail (TB_IS_MCP_SERVER_REQUEST (self));
  if (g_strcmp0 (self->method, "elicitation/create") == 0)
    answer_action (self, "cancel", NULL);
  else
    answer (self, NULL, -1, _("The person dismissed the request"));
}

/**
 * tb_mcp_elicitation_defaults:
 * @requested_schema: (nullable): an elicitation's `requestedSchema`
 *
 * Makes the answer a form would give if the person accepted it unchanged,
 * as `--elicitation accept-defaults` does.
 *
 * Returns: (transfer full): an object with the `default` of every property
 *   that has one, what a form shows before a person changes anything
 */
JsonNode *
tb_mcp_elicitation_defaults (JsonNode *requested_schema)
{
  JsonObject *content = json_object_new ();
  JsonNode *properties_node = NULL;

  if (requested_schema != NULL && JSON_NODE_HOLDS_OBJECT (requested_schema))
    properties_node = json_object_get_member (json_node_get_object (requested_schema),
                                              "properties");
  if (properties_node != NULL && JSON_NODE_HOLDS_OBJECT (properties_node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *property;

      json_object_iter_init (&iter, json_node_get_object (properties_node));
      while (json_object_iter_next (&iter, &name, &property))
        {
          JsonNode *value;

          if (!JSON_NODE_HOLDS_OBJECT (property))
            continue;
          value = json_object_get_member (json_node_get_object (property), "default");
          if (value != NULL)
            json_object_set_member (content, name, json_node_copy (value));
        }
    }
  return tb_json_node_take_object (content);
}
