/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-dispatch-loop.h"
#include "tb-provider.h"
#include "tb-tool-registry.h"
#include "tb-trace.h"

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

/**
 * TbReplayEdit:
 * @TB_REPLAY_EDIT_NONE: no edit: a plain replay.
 * @TB_REPLAY_EDIT_ARGUMENTS: the call at the fork step runs with other arguments.
 * @TB_REPLAY_EDIT_RESULT: the call at the fork step is skipped with a given output.
 * @TB_REPLAY_EDIT_MODEL_TURN: the model turn at the fork step (a turn index) is replaced.
 */
typedef enum
{
  TB_REPLAY_EDIT_NONE,
  TB_REPLAY_EDIT_ARGUMENTS,
  TB_REPLAY_EDIT_RESULT,
  TB_REPLAY_EDIT_MODEL_TURN,
} TbReplayEdit;

#define TB_REPLAY_ERROR (tb_replay_error_quark ())

/**
 * TbReplayError:
 * @TB_REPLAY_ERROR_INVALID_TRACE: the trace cannot be replayed (no run in it).
 * @TB_REPLAY_ERROR_INVALID_FORK: the fork step or edit does not fit the trace.
 */
typedef enum
{
  TB_REPLAY_ERROR_INVALID_TRACE,
  TB_REPLAY_ERROR_INVALID_FORK,
} TbReplayError;

#define TB_TYPE_REPLAY_STEP (tb_replay_step_get_type())
G_DECLARE_FINAL_TYPE (TbReplayStep, tb_replay_step, TB, REPLAY_STEP, GObject)

#define TB_TYPE_REPLAY_REPORT (tb_replay_report_get_type())
G_DECLARE_FINAL_TYPE (TbReplayReport, tb_replay_report, TB, REPLAY_REPORT, GObject)

#define TB_TYPE_REPLAY (tb_replay_get_type())
G_DECLARE_FINAL_TYPE (TbReplay, tb_replay, TB, REPLAY, GObject)

GQuark          tb_replay_error_quark             (void);
const char     *tb_replay_status_to_string        (TbReplayStatus   status);

guint           tb_replay_step_get_index          (TbReplayStep    *self);
TbReplayStatus  tb_replay_step_get_status         (TbReplayStep    *self);
const char     *tb_replay_step_get_kind           (TbReplayStep    *self);
JsonObject     *tb_replay_step_get_recorded       (TbReplayStep    *self);
JsonObject     *tb_replay_step_get_replayed       (TbReplayStep    *self);
JsonArray      *tb_replay_step_get_diff           (TbReplayStep    *self);
char           *tb_replay_step_describe           (TbReplayStep    *self);

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

TbReplay       *tb_replay_new                     (TbTrace         *recorded);
void            tb_replay_set_registry            (TbReplay        *self,
                                                   TbToolRegistry  *registry);
void            tb_replay_set_live_provider       (TbReplay        *self,
                                                   TbProvider      *provider);
void            tb_replay_set_parent              (TbReplay        *self,
                                                   const char      *trace_name);
gboolean        tb_replay_set_fork                (TbReplay        *self,
                                                   guint            step,
                                                   TbReplayEdit     edit,
                                                   JsonNode        *value,
                                                   GError         **error);
TbTrace        *tb_replay_get_trace               (TbReplay        *self);
TbDispatchLoop *tb_replay_get_loop                (TbReplay        *self);
void            tb_replay_run_async               (TbReplay        *self,
                                                   GCancellable    *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer         user_data);
TbReplayReport *tb_replay_run_finish              (TbReplay        *self,
                                                   GAsyncResult    *result,
                                                   GError         **error);

JsonArray      *tb_json_diff                      (JsonNode        *recorded,
                                                   JsonNode        *replayed);

G_END_DECLS
