/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * TbReplayStatus:
 * @TB_REPLAY_SAME: the step happened the same way.
 * @TB_REPLAY_DIFFERENT_CALL: another tool was called at this step.
 * @TB_REPLAY_DIFFERENT_ARGUMENTS: the same tool, with other arguments.
 * @TB_REPLAY_DIFFERENT_RESULT: the same call gave another result (for the
 *   final step: the run ended another way or with another answer).
 * @TB_REPLAY_MISSING: the recorded run had this step; the replay did not.
 * @TB_REPLAY_EXTRA: the replay had this step; the recorded run did not.
 *
 * How one step of a replay compares with the recorded run.
 */
typedef enum
{
  TB_REPLAY_SAME,
  TB_REPLAY_DIFFERENT_CALL,
  TB_REPLAY_DIFFERENT_ARGUMENTS,
  TB_REPLAY_DIFFERENT_RESULT,
  TB_REPLAY_MISSING,
  TB_REPLAY_EXTRA,
} TbReplayStatus;

#define TB_TYPE_REPLAY_STEP (tb_replay_step_get_type())
G_DECLARE_FINAL_TYPE (TbReplayStep, tb_replay_step, TB, REPLAY_STEP, GObject)

const char     *tb_replay_status_to_string        (TbReplayStatus   status);
guint           tb_replay_step_get_index          (TbReplayStep    *self);
TbReplayStatus  tb_replay_step_get_status         (TbReplayStep    *self);
const char     *tb_replay_step_get_kind           (TbReplayStep    *self);
JsonObject     *tb_replay_step_get_recorded       (TbReplayStep    *self);
JsonObject     *tb_replay_step_get_replayed       (TbReplayStep    *self);
JsonArray      *tb_replay_step_get_diff           (TbReplayStep    *self);
char           *tb_replay_step_describe           (TbReplayStep    *self);

G_END_DECLS
