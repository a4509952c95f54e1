/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-provider.h"

G_BEGIN_DECLS

char       *_tb_provider_wire_name_for_call (TbToolRegistry  *tools,
                                             TbToolCall      *call);
TbToolCall *_tb_provider_make_call          (TbToolRegistry  *tools,
                                             const char      *id,
                                             const char      *wire_name,
                                             JsonNode        *arguments,
                                             const char      *raw_arguments);
gboolean    _tb_provider_check_call_ids     (TbMessage       *message,
                                             GError         **error);
const char *_tb_json_get_string             (JsonObject      *object,
                                             const char      *member);
JsonObject *_tb_json_get_object             (JsonObject      *object,
                                             const char      *member);
JsonArray  *_tb_json_get_array              (JsonObject      *object,
                                             const char      *member);
JsonObject *_tb_json_array_get_object       (JsonArray       *array,
                                             guint            index);

G_END_DECLS
