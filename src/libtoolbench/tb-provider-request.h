/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-message.h"
#include "tb-tool-registry.h"

G_BEGIN_DECLS

#define TB_TYPE_PROVIDER_REQUEST (tb_provider_request_get_type ())

/**
 * TbProviderRequest:
 * @messages: (element-type TbMessage): the conversation, oldest first
 * @tools: (nullable): the tools offered; only ever a registry from
 *   tb_tool_registry_get_model_tools()
 * @tool_choice: (nullable): "auto", "none", "required", or a real tool name
 * @parallel_tool_calls: whether the model may ask for several calls at once
 * @stream: ask for a streamed response and emit the delta signals
 * @max_tokens: the output limit, 0 for the provider's default
 * @n_earlier_messages: how many messages of the conversation came before
 *   @messages and were left out, because the provider needs only the
 *   latest turn (tb_provider_get_history())
 *
 * What one turn sends, independent of the wire format.
 */
typedef struct
{
  GPtrArray      *messages;
  TbToolRegistry *tools;
  char           *tool_choice;
  gboolean        parallel_tool_calls;
  gboolean        stream;
  guint           max_tokens;
  guint           n_earlier_messages;

  /*< private >*/
  gint            ref_count;
} TbProviderRequest;

GType               tb_provider_request_get_type  (void) G_GNUC_CONST;
TbProviderRequest  *tb_provider_request_new       (void);
TbProviderRequest  *tb_provider_request_ref       (TbProviderRequest  *self);
void                tb_provider_request_unref     (TbProviderRequest  *self);
void                tb_provider_request_add_message (TbProviderRequest *self,
                                                     TbMessage         *message);
JsonNode           *tb_provider_request_to_json   (TbProviderRequest  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbProviderRequest, tb_provider_request_unref)

G_END_DECLS
