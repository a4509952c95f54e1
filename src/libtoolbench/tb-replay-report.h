/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "tb-replay-step.h"
#include "tb-trace.h"

G_BEGIN_DECLS

#define TB_TYPE_REPLAY_REPORT (tb_replay_report_get_type())
G_DECLARE_FINAL_TYPE (TbReplayReport, tb_replay_report, TB, REPLAY_REPORT, GObject)

TbReplayReport *tb_replay_report_new_compare      (TbTrace         *recorded,
                                                   TbTrace         *replayed);
const char     *tb_replay_report_get_incomplete (TbReplayReport  *self);
guint           tb_replay_report_get_n_steps      (TbReplayReport  *self);
TbReplayStep   *tb_replay_report_get_step         (TbReplayReport  *self,
                                                   guint            index);
gint            tb_replay_report_get_first_divergence (TbReplayReport *self);
guint           tb_replay_report_get_n_divergences (TbReplayReport *self);
JsonNode       *tb_replay_report_to_json          (TbReplayReport  *self);
char           *tb_replay_report_to_text          (TbReplayReport  *self);

G_END_DECLS
