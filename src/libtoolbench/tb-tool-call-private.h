/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-tool-call.h"

G_BEGIN_DECLS

void _tb_tool_call_append_json (TbToolCall *self,
                                GString    *out);

G_END_DECLS
