/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-trace.h"
#include "tb-types.h"

G_BEGIN_DECLS

#define TB_EXPORT_ERROR (tb_export_error_quark ())

/**
 * TbExportError:
 * @TB_EXPORT_ERROR_UNSUPPORTED: the format cannot be exported or imported.
 * @TB_EXPORT_ERROR_INVALID: the messages are not a conversation.
 *
 * Why a trace could not be exported as a conversation, or a conversation
 * imported.
 */
typedef enum
{
  TB_EXPORT_ERROR_UNSUPPORTED,
  TB_EXPORT_ERROR_INVALID,
} TbExportError;

GQuark    tb_export_error_quark       (void);
JsonNode *tb_trace_export_messages    (TbTrace             *trace,
                                       TbDefinitionFormat   format,
                                       GError             **error);
JsonNode *tb_script_from_messages     (JsonNode            *messages,
                                       GError             **error);

G_END_DECLS
