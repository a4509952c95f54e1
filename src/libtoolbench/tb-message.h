/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-loop-types.h"
#include "tb-tool-call.h"

G_BEGIN_DECLS

#define TB_TYPE_MESSAGE (tb_message_get_type())

G_DECLARE_FINAL_TYPE (TbMessage, tb_message, TB, MESSAGE, GObject)

#define TB_MESSAGE_ERROR (tb_message_error_quark ())

/**
 * TbMessageError:
 * @TB_MESSAGE_ERROR_INVALID: the JSON does not describe a message or a tool call.
 *
 * Why a message or a tool call could not be read back from JSON, as a trace
 * or a script holds them.
 */
typedef enum
{
  TB_MESSAGE_ERROR_INVALID,
} TbMessageError;

GQuark         tb_message_error_quark         (void);
TbMessage     *tb_message_new                 (TbMessageRole  role,
                                               const char    *text);
TbMessage     *tb_message_new_tool_result     (const char    *tool_call_id,
                                               const char    *tool_name,
                                               const char    *content,
                                               gboolean       is_error);
TbMessageRole  tb_message_get_role            (TbMessage     *self);
const char    *tb_message_get_text            (TbMessage     *self);
void           tb_message_set_text            (TbMessage     *self,
                                               const char    *text);
void           tb_message_add_tool_call       (TbMessage     *self,
                                               TbToolCall    *call);
guint          tb_message_get_n_tool_calls    (TbMessage     *self);
TbToolCall    *tb_message_get_tool_call       (TbMessage     *self,
                                               guint          position);
const char    *tb_message_get_tool_call_id    (TbMessage     *self);
const char    *tb_message_get_tool_name       (TbMessage     *self);
gboolean       tb_message_get_is_error        (TbMessage     *self);
JsonObject    *tb_message_get_provider_data   (TbMessage     *self);
const char    *tb_message_get_reasoning       (TbMessage     *self);
void           tb_message_set_reasoning       (TbMessage     *self,
                                               const char    *reasoning);
void           tb_message_set_provider_data   (TbMessage     *self,
                                               JsonObject    *data);
JsonNode      *tb_message_to_json             (TbMessage     *self);
TbMessage     *tb_message_from_json           (JsonNode      *node,
                                               GError       **error);

G_END_DECLS
