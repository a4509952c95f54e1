/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-message.h"

G_BEGIN_DECLS

#define TB_TYPE_PROVIDER_RESPONSE (tb_provider_response_get_type ())

/**
 * TbProviderResponse:
 * @message: the assistant message, tool calls with real names
 * @finish_reason: (nullable): the provider's own word (`tool_calls`,
 *   `end_turn`, `STOP`, …)
 * @usage: (nullable): the provider's usage object as sent
 *
 * What a provider answered to one request: the model's turn and what the
 * provider said about it. Reference-counted; the fields are read-only.
 */
typedef struct
{
  TbMessage *message;
  char      *finish_reason;
  JsonNode  *usage;

  /*< private >*/
  gint       ref_count;
} TbProviderResponse;

GType               tb_provider_response_get_type (void) G_GNUC_CONST;
TbProviderResponse *tb_provider_response_new      (TbMessage          *message,
                                                   const char         *finish_reason,
                                                   JsonNode           *usage);
TbProviderResponse *tb_provider_response_ref      (TbProviderResponse *self);
void                tb_provider_response_unref    (TbProviderResponse *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbProviderResponse, tb_provider_response_unref)

G_END_DECLS
