/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider"

#include "config.h"

#include "tb-provider-response.h"

G_DEFINE_BOXED_TYPE (TbProviderResponse, tb_provider_response,
                     tb_provider_response_ref, tb_provider_response_unref)

/**
 * tb_provider_response_new:
 * @message: the assistant message
 * @finish_reason: (nullable): the provider's stop reason
 * @usage: (nullable): the usage object
 *
 * Makes the response of a provider, as providers and scripts do; @usage is
 * copied and the response keeps a reference to @message.
 *
 * Returns: (transfer full): a response
 */
TbProviderResponse *
tb_provider_response_new (TbMessage  *message,
                          const char *finish_reason,
                          JsonNode   *usage)
{
  TbProviderResponse *self;

  g_return_val_if_fail (TB_IS_MESSAGE (message), NULL);

  self = g_new0 (TbProviderResponse, 1);
  self->ref_count = 1;
  self->message = g_object_ref (message);
  self->finish_reason = g_strdup (finish_reason);
  self->usage = usage != NULL ? json_node_copy (usage) : NULL;
  return self;
}

/**
 * tb_provider_response_ref:
 * @self: a response
 *
 * Takes a reference to a response.
 *
 * Returns: (transfer full): @self
 */
TbProviderResponse *
tb_provider_response_ref (TbProviderResponse *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

/**
 * tb_provider_response_unref:
 * @self: a response
 *
 * Drops a reference to a response, freeing it with the last one.
 */
void
tb_provider_response_unref (TbProviderResponse *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;

  g_clear_object (&self->message);
  g_clear_pointer (&self->finish_reason, g_free);
  g_clear_pointer (&self->usage, json_node_unref);
  g_free (self);
}
