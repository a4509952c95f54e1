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
  guint       message;     /* the trace position of its message event */
  guint       extend_by;
} Action;

#define NO_EVENT G_MAXUINT

typedef enum
{
  DECISION_NONE,
  DECISION_APPROVE,
  DECISION_EDIT,
  DECISION_SKIP,
  DECISION_REJECT,
  DECISION_OTHER,
} DecisionKind;

/* One tool call of a run, as where its events are in the trace: what it
 * says is read from there when it is needed, so a run of any length
 * takes a few bytes a step. */
typedef struct
{
  guint   call;        /* position of its tool-call event */
  guint   decision;    /* of its decision event, or NO_EVENT */
  guint   result;      /* of its tool-result event, or NO_EVENT */
  guint   turn;
  guint8  decision_kind;
  guint8  offered;
} Step;

typedef struct
{
  gint        ref_count;
  TbTrace    *trace;
  GArray     *steps;     /* Step, in the order the calls were made */
  GArray     *turns;     /* guint: positions of the model's messages */
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

typedef struct _RunReader RunReader;

Run            *_tb_replay_run_read           (TbTrace            *trace);
RunReader      *_tb_replay_run_reader_new     (TbTrace            *trace);
void            _tb_replay_run_reader_add     (RunReader          *reader,
                                               TbTraceEvent       *event);
guint           _tb_replay_run_reader_get_n_read (RunReader       *reader);
Run            *_tb_replay_run_reader_finish  (RunReader          *reader);
void            _tb_replay_run_reader_free    (RunReader          *reader);
Run            *_tb_replay_run_ref            (Run                *run);
void            _tb_replay_run_unref          (Run                *run);
guint           _tb_replay_run_n_steps        (Run                *run);
guint           _tb_replay_run_n_turns        (Run                *run);
const Step     *_tb_replay_run_get_step       (Run                *run,
                                               guint               index);
char           *_tb_replay_run_dup_call_id    (Run                *run,
                                               guint               index);
char           *_tb_replay_run_dup_name       (Run                *run,
                                               guint               index);
JsonNode       *_tb_replay_run_dup_arguments  (Run                *run,
                                               guint               index);
JsonObject     *_tb_replay_run_dup_result     (Run                *run,
                                               guint               index);
JsonObject     *_tb_replay_run_dup_decision   (Run                *run,
                                               guint               index);
JsonNode       *_tb_replay_run_dup_turn       (Run                *run,
                                               guint               index);
JsonNode       *_tb_replay_run_dup_message    (Run                *run,
                                               guint               position);
gint            _tb_replay_run_find_step      (Run                *run,
                                               guint               turn,
                                               const char         *call_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, _tb_replay_run_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RunReader, _tb_replay_run_reader_free)

/* The report keeps the two runs and makes a step's comparison when it is
 * asked for; what it keeps a step is its status. */
struct _TbReplayReport
{
  GObject       parent_instance;
  Run          *recorded;
  Run          *replayed;
  GByteArray   *statuses;     /* TbReplayStatus, one a step, the end's last */
  guint         n_divergences;
  gint          first_divergence;
  char         *incomplete;
  TbReplayStep *made[64];     /* the steps made last, for (transfer none) */
  guint         made_next;
};

TbReplayReport *_tb_replay_report_new_compare_runs (Run            *recorded,
                                                   Run            *replayed);
TbToolRegistry *_tb_replay_recorded_registry  (TbTrace            *trace,
                                               Run                *run);
TbProvider     *_tb_replay_fork_provider_new  (Run                *run,
                                               guint               fork_turn,
                                               JsonNode           *fork_value,
                                               TbProvider         *live,
                                               guint               n_scripted);
void            _tb_scripted_provider_forget_played (TbScriptedProvider *self);

G_END_DECLS
