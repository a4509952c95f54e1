/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-schema.h"
#include "tb-tool.h"

G_BEGIN_DECLS

typedef struct
{
  TbSchema *schema;
  GError   *error;
} TbToolCompiled;

TbToolCompiled *_tb_tool_get_compiled    (TbTool     *self);
TbToolHints _tb_tool_hints_from_annotations (JsonNode    *annotations);
void        _tb_tool_set_hints              (TbTool      *self,
                                             TbToolHints  hints);

gboolean _tb_tool_check                   (TbTool     *self,
                                           GError    **error);
gboolean _tb_tool_real_validate_arguments (TbTool     *self,
                                           JsonNode   *arguments,
                                           GPtrArray  *errors);

gboolean _tb_tool_call_extend_deadline    (GCancellable *cancellable);
void     _tb_tool_call_report_progress    (GCancellable *cancellable,
                                           double        progress,
                                           double        total,
                                           const char   *message);
char    *_tb_tool_call_dup_id             (GCancellable *cancellable);

G_END_DECLS
