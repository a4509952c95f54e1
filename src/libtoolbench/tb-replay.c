/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-replay-private.h"
#include "tb-trace-io.h"

/*
 * Replay re-runs a recorded loop offline: the model's recorded turns come
 * back from a scripted provider, the person's recorded decisions (edit,
 * skip, reject, extend the cap) are made again, and the tools either run
 * again (live) or give back their recorded results. The new run is a trace
 * of its own, and the two are compared step by step: a step is one tool
 * call with its result, plus a last step for how the run ended.
 *
 * A fork is a replay with one edit at one step — other arguments, another
 * result, or another model turn — that continues either with the rest of
 * the recorded turns or with a live provider from the fork on.
 */

/**
 * tb_replay_error_quark:
 *
 * The error domain of #TbReplayError.
 *
 * Returns: the quark of %TB_REPLAY_ERROR
 */
G_DEFINE_QUARK (tb-replay-error-quark, tb_replay_error)

struct _TbReplay
{
  GObject          parent_instance;

  TbTrace         *recorded;
  TbToolRegistry  *registry;
  TbProvider      *live;
  char            *parent;

  guint            fork_step;
  TbReplayEdit     fork_edit;
  JsonNode        *fork_value;

  GFile           *output;
  TbRedactor      *redactor;
  TbTraceRecorder *recorder;

  Run             *run;
  RunReader       *replayed;   /* the new run, read as its events come */
  TbDispatchLoop  *loop;
  GTask           *task;
  guint            next_action;
  gulong           pending_id;
  gulong           replayed_id;
};

/**
 * TbReplay:
 *
 * Runs a recorded loop again offline: the model's recorded turns come back
 * from a scripted provider, the person's recorded decisions are made again,
 * and the tools either run again (tb_replay_set_registry()) or give back
 * their recorded results. The new run is a trace of its own, and the two are
 * compared step by step in a #TbReplayReport. A fork is a replay with one
 * edit at one step (other arguments, another result or another model turn)
 * that goes on with the recorded turns or with a live provider.
 */
G_DEFINE_FINAL_TYPE (TbReplay, tb_replay, G_TYPE_OBJECT)

static void
tb_replay_dispose (GObject *object)
{
  TbReplay *self = (TbReplay *)object;

  if (self->loop != NULL)
    {
      g_clear_signal_handler (&self->pending_id, self->loop);
      g_clear_signal_handler (&self->replayed_id, tb_dispatch_loop_get_trace (self->loop));
    }

  G_OBJECT_CLASS (tb_replay_parent_class)->dispose (object);
}

static void
tb_replay_finalize (GObject *object)
{
  TbReplay *self = (TbReplay *)object;

  g_clear_object (&self->recorded);
  g_clear_object (&self->registry);
  g_clear_object (&self->live);
  g_clear_object (&self->loop);
  g_clear_object (&self->recorder);
  g_clear_object (&self->output);
  g_clear_object (&self->redactor);
  g_clear_pointer (&self->parent, g_free);
  g_clear_pointer (&self->fork_value, json_node_unref);
  g_clear_pointer (&self->run, _tb_replay_run_unref);
  g_clear_pointer (&self->replayed, _tb_replay_run_reader_free);

  G_OBJECT_CLASS (tb_replay_parent_class)->finalize (object);
}

static void
tb_replay_class_init (TbReplayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_replay_dispose;
  object_class->finalize = tb_replay_finalize;
}

static void
tb_replay_init (TbReplay *self)
{
}

/**
 * tb_replay_new:
 * @recorded: the trace to replay
 *
 * Makes a replay of a recorded trace; run it with tb_replay_run_async().
 *
 * Returns: (transfer full): a replay that re-executes tools with the
 *   results recorded in @recorded, until tb_replay_set_registry() gives
 *   it live tools
 */
TbReplay *
tb_replay_new (TbTrace *recorded)
{
  TbReplay *self;

  g_return_val_if_fail (TB_IS_TRACE (recorded), NULL);

  self = g_object_new (TB_TYPE_REPLAY, NULL);
  self->recorded = g_object_ref (recorded);
  self->run = _tb_replay_run_read (recorded);
  return self;
}

/**
 * tb_replay_set_registry:
 * @registry: (nullable): tools to run for real; %NULL gives back the
 *   recorded results instead
 * @self: a replay
 *
 * Runs the tools of @registry again instead of giving back recorded
 * results, to see whether they still answer the same.
 */
void
tb_replay_set_registry (TbReplay       *self,
                        TbToolRegistry *registry)
{
  g_return_if_fail (TB_IS_REPLAY (self));
  g_return_if_fail (self->loop == NULL);

  g_set_object (&self->registry, registry);
}

/**
 * tb_replay_set_live_provider:
 * @provider: (nullable): the model to ask after the fork step; without
 *   one every turn is the recorded one
 * @self: a replay
 *
 * Asks a model instead of playing the recorded turns from the fork step on.
 */
void
tb_replay_set_live_provider (TbReplay   *self,
                             TbProvider *provider)
{
  g_return_if_fail (TB_IS_REPLAY (self));
  g_return_if_fail (self->loop == NULL);

  g_set_object (&self->live, provider);
}

/**
 * tb_replay_set_output:
 * @self: a replay
 * @file: (nullable): where to record the new run as it happens
 * @redactor: (nullable): removes secrets from what is recorded
 *
 * Records the new run to @file with a #TbTraceRecorder, so that its trace
 * keeps only its latest events in memory and a replay of any length
 * needs about the same memory. A recording that fails ends the run as
 * failed.
 */
void
tb_replay_set_output (TbReplay   *self,
                      GFile      *file,
                      TbRedactor *redactor)
{
  g_return_if_fail (TB_IS_REPLAY (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));
  g_return_if_fail (self->loop == NULL);

  g_set_object (&self->output, file);
  g_set_object (&self->redactor, redactor);
}

/**
 * tb_replay_set_parent:
 * @trace_name: (nullable): how the recorded trace is known (its file name),
 *   written into the new trace's header
 * @self: a replay
 *
 * Names the recorded trace in the new trace's header, so that the new run
 * says where it came from.
 */
void
tb_replay_set_parent (TbReplay   *self,
                      const char *trace_name)
{
  g_return_if_fail (TB_IS_REPLAY (self));

  g_free (self->parent);
  self->parent = g_strdup (trace_name);
}

/**
 * tb_replay_set_fork:
 * @self: a replay
 * @step: the step to change: a call's index (0 for the first tool call of
 *   the run) for %TB_REPLAY_EDIT_ARGUMENTS and %TB_REPLAY_EDIT_RESULT, a
 *   model turn's index for %TB_REPLAY_EDIT_MODEL_TURN
 * @edit: what to change
 * @value: the new arguments (an object), the output the call gives instead
 *   of running, or the model's turn (a message as tb_message_to_json() writes)
 * @error: return location for %TB_REPLAY_ERROR_INVALID_FORK
 *
 * Makes this replay a fork: everything before @step happens as recorded.
 *
 * Returns: %TRUE when the step and the value fit the trace
 */
gboolean
tb_replay_set_fork (TbReplay      *self,
                    guint          step,
                    TbReplayEdit   edit,
                    JsonNode      *value,
                    GError       **error)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), FALSE);
  g_return_val_if_fail (self->loop == NULL, FALSE);

  if (edit == TB_REPLAY_EDIT_MODEL_TURN)
    {
      g_autoptr(TbMessage) message = NULL;

      if (step >= _tb_replay_run_n_turns (self->run))
        {
          g_set_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                       _("The trace has %u model turns; there is no turn %u to change"),
                       _tb_replay_run_n_turns (self->run), step + 1);
          return FALSE;
        }
      message = value != NULL ? tb_message_from_json (value, NULL) : NULL;
      if (message == NULL || tb_message_get_role (message) != TB_MESSAGE_ROLE_ASSISTANT)
        {
          g_set_error_literal (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                               _("A model turn must be an assistant message"));
          return FALSE;
        }
    }
  else if (edit != TB_REPLAY_EDIT_NONE)
    {
      if (step >= _tb_replay_run_n_steps (self->run))
        {
          g_set_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                       _("The trace has %u tool calls; there is no step %u to change"),
                       _tb_replay_run_n_steps (self->run), step + 1);
          return FALSE;
        }
      if (edit == TB_REPLAY_EDIT_ARGUMENTS && (value == NULL || !JSON_NODE_HOLDS_OBJECT (value)))
        {
          g_set_error_literal (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                               _("The edited arguments must be a JSON object"));
          return FALSE;
        }
    }

  self->fork_step = step;
  self->fork_edit = edit;
  g_clear_pointer (&self->fork_value, json_node_unref);
  self->fork_value = value != NULL ? tb_json_copy (value) : json_node_new (JSON_NODE_NULL);
  return TRUE;
}

/**
 * tb_replay_get_trace:
 * @self: a replay
 *
 * Gives the trace the new run records.
 *
 * Returns: (transfer none) (nullable): the new run's trace, once running
 */
TbTrace *
tb_replay_get_trace (TbReplay *self)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), NULL);
  return self->loop != NULL ? tb_dispatch_loop_get_trace (self->loop) : NULL;
}

/**
 * tb_replay_get_loop:
 * @self: a replay
 *
 * Gives the loop the replay drives, to watch the new run as it goes.
 *
 * Returns: (transfer none) (nullable): the loop of the new run, once running
 */
TbDispatchLoop *
tb_replay_get_loop (TbReplay *self)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), NULL);
  return self->loop;
}

static void
call_pending_cb (TbDispatchLoop *loop,
                 TbPendingCall  *pending,
                 TbReplay       *self)
{
  TbToolCall *call = tb_pending_call_get_call (pending);
  guint turn = tb_dispatch_loop_get_iteration (loop) - 1;
  /* Which recorded step a pending call is: the same id in the same turn. */
  gint index = _tb_replay_run_find_step (self->run, turn, tb_tool_call_get_id (call));
  g_autoptr(JsonObject) decision = NULL;
  const Step *step;

  if (index < 0)
    return;   /* Past the recording (a live fork): the policy decides. */

  if ((guint) index == self->fork_step)
    {
      if (self->fork_edit == TB_REPLAY_EDIT_ARGUMENTS)
        {
          g_autoptr(GError) error = NULL;

          /* Arguments the schema refuses still run: the fork is the experiment. */
          if (!tb_pending_call_edit (pending, self->fork_value, &error))
            g_debug ("Fork arguments refused: %s", error->message);
          return;
        }
      if (self->fork_edit == TB_REPLAY_EDIT_RESULT)
        {
          tb_pending_call_skip (pending, self->fork_value);
          return;
        }
    }

  step = _tb_replay_run_get_step (self->run, index);
  if (step->decision_kind == DECISION_EDIT || step->decision_kind == DECISION_SKIP ||
      step->decision_kind == DECISION_REJECT)
    decision = _tb_replay_run_dup_decision (self->run, index);
  /* The recorded edit is what ran, even one a person ran against the
   * schema's advice. */
  if (step->decision_kind == DECISION_EDIT && decision != NULL)
    tb_pending_call_edit_anyway (pending, json_object_get_member (decision, "arguments"), NULL);
  else if (step->decision_kind == DECISION_SKIP && decision != NULL)
    tb_pending_call_skip (pending, json_object_get_member (decision, "output"));
  else if (step->decision_kind == DECISION_REJECT && decision != NULL)
    tb_pending_call_reject (pending, tb_json_object_get_string (decision, "reason"));
  else
    tb_pending_call_approve (pending);
}

static void next_action (TbReplay *self);

/* The new run's events are read as the loop appends them, while they are
 * still in memory, instead of from its file once it has ended. */
static void
replayed_items_cb (GListModel *trace,
                   guint       position,
                   guint       removed,
                   guint       added,
                   TbReplay   *self)
{
  guint n = tb_trace_get_n_events (TB_TRACE (trace));

  for (guint i = _tb_replay_run_reader_get_n_read (self->replayed); i < n; i++)
    {
      g_autoptr(TbTraceEvent) event = g_object_ref (tb_trace_get_event (TB_TRACE (trace), i));

      _tb_replay_run_reader_add (self->replayed, event);
    }
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(TbReplay) self = user_data;
  g_autoptr(GError) error = NULL;

  tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->task);

      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A run that failed is still a run to compare: the report says so. */
  next_action (self);
}

static void
next_action (TbReplay *self)
{
  while (self->next_action < self->run->actions->len)
    {
      Action *action = &g_array_index (self->run->actions, Action, self->next_action++);
      g_autoptr(GError) error = NULL;

      switch (action->kind)
        {
        case ACTION_ADD_MESSAGE:
          {
            g_autoptr(JsonNode) json = _tb_replay_run_dup_message (self->run, action->message);
            g_autoptr(TbMessage) message = json != NULL ? tb_message_from_json (json, NULL)
                                                        : NULL;

            if (message != NULL && !tb_dispatch_loop_add_message (self->loop, message, &error))
              g_debug ("Replay could not add a message: %s", error->message);
          }
          break;

        case ACTION_EXTEND:
          tb_dispatch_loop_extend (self->loop, action->extend_by, NULL);
          break;

        case ACTION_RUN:
          if (tb_loop_state_is_end (tb_dispatch_loop_get_state (self->loop)) &&
              tb_dispatch_loop_get_state (self->loop) != TB_LOOP_STATE_FINISHED)
            continue;   /* The replay ended earlier than the recording. */
          tb_dispatch_loop_run_async (self->loop, g_task_get_cancellable (self->task),
                                      run_cb, g_object_ref (self));
          return;

        default:
          g_assert_not_reached ();
        }
    }

  {
    g_autoptr(GTask) task = g_steal_pointer (&self->task);
    TbTrace *trace = tb_dispatch_loop_get_trace (self->loop);
    g_autoptr(Run) replayed = NULL;
    TbReplayReport *report;

    /* Everything written and synced before the two runs are compared. */
    if (self->recorder != NULL)
      tb_trace_recorder_close (self->recorder, NULL);
    replayed_items_cb (G_LIST_MODEL (trace), 0, 0, 0, self);
    g_clear_signal_handler (&self->replayed_id, trace);
    replayed = _tb_replay_run_reader_finish (g_steal_pointer (&self->replayed));
    report = _tb_replay_report_new_compare_runs (self->run, replayed);

    g_task_return_pointer (task, report, g_object_unref);
  }
}

/**
 * tb_replay_run_async:
 * @self: a replay
 * @cancellable: (nullable): stops the replay
 * @callback: called with the report
 * @user_data: closure
 *
 * Runs the replay (or fork) to its end and compares it with the recording.
 * A replay runs once.
 */
void
tb_replay_run_async (TbReplay            *self,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  guint n_scripted;
  JsonObject *header;

  g_return_if_fail (TB_IS_REPLAY (self));
  g_return_if_fail (self->loop == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_replay_run_async);

  if (self->run->error != NULL)
    {
      g_task_return_error (task, g_error_copy (self->run->error));
      return;
    }

  if (_tb_replay_run_n_turns (self->run) == 0 && self->run->actions->len == 0)
    {
      g_task_return_new_error (task, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_TRACE,
                               _("The trace holds no run to replay: it has no messages and no "
                                 "model turns"));
      return;
    }

  /* With a live model, the recording plays up to the fork step's turn.
   * The recorded turns are read from the trace as the run reaches them. */
  n_scripted = _tb_replay_run_n_turns (self->run);
  if (self->live != NULL)
    {
      if (self->fork_edit == TB_REPLAY_EDIT_MODEL_TURN)
        n_scripted = self->fork_step + 1;
      else if (self->fork_edit != TB_REPLAY_EDIT_NONE)
        n_scripted = _tb_replay_run_get_step (self->run, self->fork_step)->turn + 1;
    }
  provider = _tb_replay_fork_provider_new (self->run,
                                           self->fork_edit == TB_REPLAY_EDIT_MODEL_TURN
                                           ? self->fork_step : G_MAXUINT,
                                           self->fork_value, self->live, n_scripted);

  registry = self->registry != NULL ? g_object_ref (self->registry)
                                    : _tb_replay_recorded_registry (self->recorded, self->run);

  self->loop = tb_dispatch_loop_new (registry, provider, self->run->max_iterations);
  tb_dispatch_loop_set_approval_policy (self->loop, TB_APPROVAL_POLICY_APPROVE_ALL);
  self->pending_id = g_signal_connect (self->loop, "call-pending",
                                       G_CALLBACK (call_pending_cb), self);
  self->replayed = _tb_replay_run_reader_new (tb_dispatch_loop_get_trace (self->loop));
  self->replayed_id = g_signal_connect (tb_dispatch_loop_get_trace (self->loop), "items-changed",
                                        G_CALLBACK (replayed_items_cb), self);

  header = tb_trace_get_header (tb_dispatch_loop_get_trace (self->loop));
  if (self->fork_edit != TB_REPLAY_EDIT_NONE)
    {
      static const char *edits[] = { "none", "arguments", "result", "model-turn" };
      JsonObject *parent = json_object_new ();

      json_object_set_string_member (parent, "trace", self->parent ?: "");
      /* Counted from 1, as the report and the command line count steps. */
      json_object_set_int_member (parent, "step", self->fork_step + 1);
      json_object_set_string_member (parent, "edit", edits[self->fork_edit]);
      json_object_set_object_member (header, "parent", parent);
    }
  else if (self->parent != NULL)
    {
      json_object_set_string_member (header, "replay_of", self->parent);
    }

  if (self->output != NULL)
    {
      self->recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (self->loop),
                                              self->output, self->redactor);
      g_signal_connect_object (self->recorder, "failed", G_CALLBACK (tb_dispatch_loop_fail),
                               self->loop, G_CONNECT_SWAPPED);
    }

  self->task = g_steal_pointer (&task);
  self->next_action = 0;
  next_action (self);
}

/**
 * tb_replay_run_finish:
 * @self: a replay
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbReplayError, or an error of the new run
 *
 * Ends tb_replay_run_async().
 *
 * Returns: (transfer full) (nullable): the step-by-step comparison
 */
TbReplayReport *
tb_replay_run_finish (TbReplay      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
