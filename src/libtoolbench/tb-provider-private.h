/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-http-provider.h"
#include "tb-provider.h"
#include "tb-redact.h"

G_BEGIN_DECLS

char       *_tb_provider_wire_name_for_call (TbToolRegistry  *tools,
                                             TbToolCall      *call);
TbToolCall *_tb_provider_make_call          (TbToolRegistry  *tools,
                                             const char      *id,
                                             const char      *wire_name,
                                             JsonNode        *arguments,
                                             const char      *raw_arguments);
char       *_tb_provider_wire_name_for_call_for (TbToolRegistry     *tools,
                                                 TbDefinitionFormat  format,
                                                 TbToolCall         *call);
TbToolCall *_tb_provider_make_call_for          (TbToolRegistry     *tools,
                                                 TbDefinitionFormat  format,
                                                 const char         *id,
                                                 const char         *wire_name,
                                                 JsonNode           *arguments,
                                                 const char         *raw_arguments);
gboolean    _tb_provider_check_call_ids     (TbMessage       *message,
                                             GError         **error);
JsonObject *_tb_json_array_get_object       (JsonArray       *array,
                                             guint            index);
gboolean    _tb_url_is_loopback             (const char      *url);

JsonArray  *_tb_openai_messages_to_wire     (TbProviderRequest *request);
JsonArray  *_tb_anthropic_messages_to_wire  (TbProviderRequest *request,
                                             GString           *system);
JsonArray  *_tb_openai_responses_input_to_wire (TbProviderRequest *request,
                                                guint              first,
                                                GString           *instructions);

char       *_tb_http_provider_said          (TbRedactor      *redactor,
                                             const char      *body);
TbProviderResponse *_tb_http_provider_stream_ended_early (const char  *missing,
                                                         GError     **error);
SoupMessage *_tb_http_provider_new_post     (TbHttpProvider  *self,
                                             const char      *path,
                                             GError         **error);
GBytes     *_tb_json_to_bytes               (JsonNode        *node);

G_END_DECLS
