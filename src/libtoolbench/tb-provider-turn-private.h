/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <json-glib/json-glib.h>

#include "tb-message.h"
#include "tb-provider.h"
#include "tb-provider-request.h"

G_BEGIN_DECLS

/* What one turn of a model said so far, as the providers read it: the
 * whole response, or the events of a stream one by one. A provider's own
 * reading state starts with one. */
typedef struct
{
  TbProviderRequest *request;
  GString           *text;
  gboolean           has_text;
  GString           *reasoning;
  GPtrArray         *calls;          /* TbToolCall, in the order they came */
  char              *finish_reason;
  JsonNode          *usage;
  gboolean           done;
} TbProviderTurn;

void        _tb_provider_turn_init              (TbProviderTurn     *turn,
                                                 TbProviderRequest  *request);
void        _tb_provider_turn_clear             (TbProviderTurn     *turn);
void        _tb_provider_turn_add_text          (TbProviderTurn     *turn,
                                                 TbProvider         *streaming,
                                                 const char         *piece);
void        _tb_provider_turn_add_call          (TbProviderTurn     *turn,
                                                 TbProvider         *streaming,
                                                 TbToolCall         *call);
void        _tb_provider_turn_set_finish_reason (TbProviderTurn     *turn,
                                                 const char         *reason);
void        _tb_provider_turn_set_usage         (TbProviderTurn     *turn,
                                                 JsonNode           *usage);
TbMessage  *_tb_provider_turn_to_message        (TbProviderTurn     *turn);

JsonNode   *_tb_provider_parse_event            (const char         *data,
                                                 GError            **error);
void        _tb_provider_set_stream_error       (GError            **error,
                                                 const char         *said);

G_END_DECLS
