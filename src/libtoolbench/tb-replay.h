/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-dispatch-loop.h"
#include "tb-provider.h"
#include "tb-redact.h"
#include "tb-replay-report.h"
#include "tb-tool-registry.h"
#include "tb-trace.h"

G_BEGIN_DECLS

/**
 * TbReplayEdit:
 * @TB_REPLAY_EDIT_NONE: no edit: a plain replay.
 * @TB_REPLAY_EDIT_ARGUMENTS: the call at the fork step runs with other arguments.
 * @TB_REPLAY_EDIT_RESULT: the call at the fork step is skipped with a given output.
 * @TB_REPLAY_EDIT_MODEL_TURN: the model turn at the fork step (a turn index) is replaced.
 *
 * What a fork changes at its step (tb_replay_set_fork()).
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
 *
 * Why a trace could not be replayed or forked.
 */
typedef enum
{
  TB_REPLAY_ERROR_INVALID_TRACE,
  TB_REPLAY_ERROR_INVALID_FORK,
} TbReplayError;

#define TB_TYPE_REPLAY (tb_replay_get_type())
G_DECLARE_FINAL_TYPE (TbReplay, tb_replay, TB, REPLAY, GObject)

GQuark          tb_replay_error_quark             (void);

TbReplay       *tb_replay_new                     (TbTrace         *recorded);
void            tb_replay_set_registry            (TbReplay        *self,
                                                   TbToolRegistry  *registry);
void            tb_replay_set_live_provider       (TbReplay        *self,
                                                   TbProvider      *provider);
void            tb_replay_set_output              (TbReplay        *self,
                                                   GFile           *file,
                                                   TbRedactor      *redactor);
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


G_END_DECLS
