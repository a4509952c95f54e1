/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-eval.h"
#include "tb-tool.h"

G_BEGIN_DECLS

TbEvalResult *_tb_eval_result_new (void);

TbTool       *_tb_eval_tool_new  (const char       *name,
                                  const char       *description,
                                  JsonNode         *parameters,
                                  TbToolVisibility  visibility,
                                  guint             timeout_ms,
                                  JsonNode         *output,
                                  const char       *fail,
                                  gboolean          stop_loop,
                                  guint             sleep_ms);

G_END_DECLS
