/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the files of replay share: a run read from a trace
 * (tb-replay-run.c), the report's steps (tb-replay-step.c,
 * tb-replay-report.c), the recorded tools (tb-recorded-tool.c) and the
 * provider of a fork (tb-fork-provider.c). */

#include "tb-replay.h"
#include "tb-scripted-provider.h"
#include "tb-tool-registry.h"

G_BEGIN_DECLS

typedef enum { ACTION_ADD_MESSAGE, ACTION_EXTEND, ACTION_RUN } ActionKind;

typedef struct
{
  ActionKind  kind;
  JsonNode   *message;
  guint       extend_by;
} Action;

typedef struct
{
  char       *call_id;
  char       *name;
  JsonNode   *arguments;
  JsonObject *result;
  char       *decision;
  JsonObject *decision_payload;
  guint       turn;
  gboolean    offered;
} Step;

typedef struct
{
  GPtrArray  *steps;     /* Step */
  GPtrArray  *turns;     /* JsonNode: assistant messages */
  GArray     *actions;   /* Action */
  char       *end_state;
  char       *answer;
  gint64      max_iterations;
  GError     *error;     /* the trace cannot be replayed */
  char       *incomplete;  /* why the trace cannot confirm the run */
} Run;


struct _TbReplayStep
{
  GObject         parent_instance;
  guint           index;
  TbReplayStatus  status;
  char           *kind;
  JsonObject     *recorded;
  JsonObject     *replayed;
  JsonArray      *diff;
};

struct _TbReplayReport
{
  GObject    parent_instance;
  GPtrArray *steps;
  char      *incomplete;
};

Run            *_tb_replay_run_read           (TbTrace            *trace);
void            _tb_replay_run_free           (Run                *run);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, _tb_replay_run_free)

TbReplayReport *_tb_replay_report_new_compare_run (Run             *recorded,
                                                  TbTrace         *replayed);
TbToolRegistry *_tb_replay_recorded_registry  (TbTrace            *trace,
                                               Run                *run);
TbProvider     *_tb_replay_fork_provider_new  (TbScriptedProvider *scripted,
                                               TbProvider         *live,
                                               guint               n_scripted);

G_END_DECLS
