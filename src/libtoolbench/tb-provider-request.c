/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider"

#include "config.h"

#include "tb-json.h"
#include "tb-provider-request.h"

G_DEFINE_BOXED_TYPE (TbProviderRequest, tb_provider_request,
                     tb_provider_request_ref, tb_provider_request_unref)

/**
 * tb_provider_request_new:
 *
 * Makes an empty request to fill with messages and tools before giving it
 * to tb_provider_complete_async(). Requests are reference-counted.
 *
 * Returns: (transfer full): an empty request: no tools, parallel calls
 *   allowed, not streamed
 */
TbProviderRequest *
tb_provider_request_new (void)
{
  TbProviderRequest *self = g_new0 (TbProviderRequest, 1);

  self->ref_count = 1;
  self->messages = g_ptr_array_new_with_free_func (g_object_unref);
  self->parallel_tool_calls = TRUE;
  return self;
}

/**
 * tb_provider_request_ref:
 * @self: a request
 *
 * Takes a reference to a request.
 *
 * Returns: (transfer full): @self
 */
TbProviderRequest *
tb_provider_request_ref (TbProviderRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

/**
 * tb_provider_request_unref:
 * @self: a request
 *
 * Drops a reference to a request, freeing it and its messages with the last
 * one.
 */
void
tb_provider_request_unref (TbProviderRequest *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;

  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_object (&self->tools);
  g_clear_pointer (&self->tool_choice, g_free);
  g_free (self);
}

/**
 * tb_provider_request_add_message:
 * @self: a request
 * @message: the next message of the conversation
 *
 * Adds a message to the end of the conversation sent; the request keeps a
 * reference to it.
 */
void
tb_provider_request_add_message (TbProviderRequest *self,
                                 TbMessage         *message)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (TB_IS_MESSAGE (message));
  g_ptr_array_add (self->messages, g_object_ref (message));
}

/**
 * tb_provider_request_to_json:
 * @self: a request
 *
 * The request in Toolbench's own neutral shape: `{"messages": […],
 * "tools": [native definitions], "tool_choice"?, "parallel_tool_calls"}`.
 * The scripted provider records this as its wire request.
 *
 * Returns: (transfer full): an object node
 */
JsonNode *
tb_provider_request_to_json (TbProviderRequest *self)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonArray *messages = json_array_new ();

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->messages->len; i++)
    json_array_add_element (messages, tb_message_to_json (g_ptr_array_index (self->messages, i)));
  json_object_set_array_member (object, "messages", messages);
  if (self->tools != NULL)
    json_object_set_member (object, "tools",
                            tb_tool_registry_to_definitions (self->tools,
                                                             TB_DEFINITION_FORMAT_NATIVE));
  if (self->tool_choice != NULL)
    json_object_set_string_member (object, "tool_choice", self->tool_choice);
  json_object_set_boolean_member (object, "parallel_tool_calls", self->parallel_tool_calls);

  json_node_take_object (node, object);
  return node;
}
