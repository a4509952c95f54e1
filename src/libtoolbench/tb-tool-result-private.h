/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-tool-result.h"

G_BEGIN_DECLS

void _tb_tool_result_append_json (TbToolResult *self,
                                  GString      *out);

G_END_DECLS
