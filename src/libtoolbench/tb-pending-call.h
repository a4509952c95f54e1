/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-loop-types.h"
#include "tb-tool-call.h"
#include "tb-tool-result.h"
#include "tb-tool.h"

G_BEGIN_DECLS

#define TB_TYPE_PENDING_CALL (tb_pending_call_get_type())

G_DECLARE_FINAL_TYPE (TbPendingCall, tb_pending_call, TB, PENDING_CALL, GObject)

TbToolCall       *tb_pending_call_get_call           (TbPendingCall    *self);
TbTool           *tb_pending_call_get_tool           (TbPendingCall    *self);
guint             tb_pending_call_get_index          (TbPendingCall    *self);
TbCallDecision    tb_pending_call_get_decision       (TbPendingCall    *self);
JsonNode         *tb_pending_call_get_arguments      (TbPendingCall    *self);
JsonNode         *tb_pending_call_get_model_arguments (TbPendingCall   *self);
TbToolResult     *tb_pending_call_get_result         (TbPendingCall    *self);
void              tb_pending_call_approve            (TbPendingCall    *self);
gboolean          tb_pending_call_edit               (TbPendingCall    *self,
                                                      JsonNode         *arguments,
                                                      GError          **error);
gboolean          tb_pending_call_edit_anyway        (TbPendingCall    *self,
                                                      JsonNode         *arguments,
                                                      GError          **error);
void              tb_pending_call_undecide           (TbPendingCall    *self);
void              tb_pending_call_skip               (TbPendingCall    *self,
                                                      JsonNode         *output);
void              tb_pending_call_reject             (TbPendingCall    *self,
                                                      const char       *reason);
void              tb_pending_call_answer             (TbPendingCall    *self,
                                                      TbToolResult     *result);

G_END_DECLS
