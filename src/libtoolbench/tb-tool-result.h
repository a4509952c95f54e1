/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-types.h"

G_BEGIN_DECLS

#define TB_TYPE_TOOL_RESULT (tb_tool_result_get_type())

G_DECLARE_FINAL_TYPE (TbToolResult, tb_tool_result, TB, TOOL_RESULT, GObject)

/**
 * TB_TOOL_RESULT_UNVALIDATED:
 *
 * The metadata member that marks a call whose arguments were not validated.
 */
#define TB_TOOL_RESULT_UNVALIDATED "unvalidated"

#define TB_TOOL_RESULT_ERROR (tb_tool_result_error_quark ())

/**
 * TbToolResultError:
 * @TB_TOOL_RESULT_ERROR_INVALID: the JSON does not describe a tool result.
 *
 * Why tb_tool_result_from_json() refused its input.
 */
typedef enum
{
  TB_TOOL_RESULT_ERROR_INVALID,
} TbToolResultError;

GQuark             tb_tool_result_error_quark       (void);
TbToolResult      *tb_tool_result_new_success       (JsonNode           *output);
TbToolResult      *tb_tool_result_new_failure       (TbToolFailureKind   kind,
                                                     const char         *error_text);
TbToolResult      *tb_tool_result_new_full          (TbToolFailureKind   kind,
                                                     JsonNode           *output,
                                                     const char         *error_text,
                                                     JsonObject         *metadata,
                                                     const char * const *warnings,
                                                     gint64              duration_us);
TbToolResult      *tb_tool_result_copy_with_duration (TbToolResult      *self,
                                                      gint64             duration_us);
gboolean           tb_tool_result_get_ok            (TbToolResult       *self);
TbToolFailureKind  tb_tool_result_get_kind          (TbToolResult       *self);
JsonNode          *tb_tool_result_get_output        (TbToolResult       *self);
const char        *tb_tool_result_get_error         (TbToolResult       *self);
JsonObject        *tb_tool_result_get_metadata      (TbToolResult       *self);
const char * const *tb_tool_result_get_warnings     (TbToolResult       *self);
gint64             tb_tool_result_get_duration_us   (TbToolResult       *self);
gboolean           tb_tool_result_get_stop_loop     (TbToolResult       *self);
gboolean           tb_tool_result_get_unvalidated   (TbToolResult       *self);
char              *tb_tool_result_to_model_content  (TbToolResult       *self);
JsonNode          *tb_tool_result_to_envelope       (TbToolResult       *self);
JsonNode          *tb_tool_result_to_json           (TbToolResult       *self);
TbToolResult      *tb_tool_result_from_json         (JsonNode           *node,
                                                     GError            **error);
const char        *tb_tool_failure_kind_to_string   (TbToolFailureKind   kind);
gboolean           tb_tool_failure_kind_from_string (const char         *nick,
                                                     TbToolFailureKind  *kind);

G_END_DECLS
