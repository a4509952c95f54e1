/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TB_TYPE_TOOL_CALL (tb_tool_call_get_type())

G_DECLARE_FINAL_TYPE (TbToolCall, tb_tool_call, TB, TOOL_CALL, GObject)

TbToolCall *tb_tool_call_new               (const char  *id,
                                            const char  *name,
                                            JsonNode    *arguments);
TbToolCall *tb_tool_call_new_raw           (const char  *id,
                                            const char  *name,
                                            const char  *raw_arguments);
const char *tb_tool_call_get_id            (TbToolCall  *self);
void        tb_tool_call_set_id            (TbToolCall  *self,
                                            const char  *id);
const char *tb_tool_call_get_name          (TbToolCall  *self);
const char *tb_tool_call_get_wire_name     (TbToolCall  *self);
const char *tb_tool_call_get_received_name (TbToolCall  *self);
void        tb_tool_call_set_wire_name     (TbToolCall  *self,
                                            const char  *wire_name);
JsonNode   *tb_tool_call_get_arguments     (TbToolCall  *self);
const char *tb_tool_call_get_raw_arguments (TbToolCall  *self);
const char *tb_tool_call_get_parse_error   (TbToolCall  *self);
JsonObject *tb_tool_call_get_provider_data (TbToolCall  *self);
void        tb_tool_call_set_provider_data (TbToolCall  *self,
                                            JsonObject  *data);
JsonNode   *tb_tool_call_to_json           (TbToolCall  *self);
TbToolCall *tb_tool_call_from_json         (JsonNode    *node,
                                            GError     **error);

G_END_DECLS
