/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-dispatch-loop-private.h"
#include "tb-pending-call-private.h"
#include "tb-provider-private.h"
#include "tb-tool-call-private.h"
#include "tb-tool-registry-private.h"
#include "tb-trace-line-private.h"

/* A step or a run: one phase after another (the model asked, its turn
 * taken, the decided calls run), the cap on iterations, cancelling and
 * failing from outside. */

static void start_phase (TbDispatchLoop *self);

/* Ends the phase under way: a run goes on with the next one unless it
 * stops here, and the caller's task returns. */
void
_tb_dispatch_loop_phase_finished (TbDispatchLoop *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  self->busy = FALSE;
  g_clear_object (&self->phase_cancellable);

  /* cancel() called from a handler while the phase was ending. */
  if (self->cancel_requested && !tb_loop_state_is_end (self->state))
    _tb_dispatch_loop_end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  self->cancel_requested = FALSE;

  if (self->run && !g_cancellable_is_cancelled (g_task_get_cancellable (task)) &&
      _tb_dispatch_loop_should_continue (self))
    {
      self->task = g_steal_pointer (&task);
      start_phase (self);
      return;
    }

  if (self->outer_cancellable != NULL)
    {
      g_cancellable_disconnect (self->outer_cancellable, self->outer_cancel_id);
      self->outer_cancel_id = 0;
      g_clear_object (&self->outer_cancellable);
    }

  if (self->run)
    g_task_return_int (task, self->state);
  else
    g_task_return_boolean (task, TRUE);
}

/* Takes a model turn (from the provider or a person) into the conversation. */
void
_tb_dispatch_loop_accept_model_turn (TbDispatchLoop *self,
                                     TbMessage      *message,
                                     const char     *origin)
{
  g_autoptr(GError) error = NULL;
  guint n = tb_message_get_n_tool_calls (message);

  /* Every result must answer an id: give one to a call that came without. */
  for (guint i = 0; i < n; i++)
    {
      TbToolCall *call = tb_message_get_tool_call (message, i);
      const char *id = tb_tool_call_get_id (call);

      if (id == NULL || *id == '\0')
        {
          g_autofree char *made = g_strdup_printf ("call_%u_%u", self->iteration, i);

          tb_tool_call_set_id (call, made);
        }
    }

  _tb_dispatch_loop_append_message (self, message, origin);

  if (n == 0)
    {
      _tb_dispatch_loop_end (self, TB_LOOP_STATE_FINISHED, "answer");
      return;
    }

  if (!_tb_provider_check_call_ids (message, &error))
    {
      _tb_dispatch_loop_end_with_error (self, g_steal_pointer (&error));
      return;
    }

  g_list_store_remove_all (self->pending);
  /* A server's messages about a call come while it runs or soon after:
   * the ids of the latest few thousand calls are enough, and a long run
   * does not keep every id it ever saw. */
  if (g_hash_table_size (self->call_ids) >= 4096)
    g_hash_table_remove_all (self->call_ids);
  for (guint i = 0; i < n; i++)
    {
      TbToolCall *call = tb_message_get_tool_call (message, i);
      g_autoptr(TbPendingCall) pending = g_object_new (TB_TYPE_PENDING_CALL, NULL);
      GString *line = _tb_dispatch_loop_line_new (self);

      pending->call = g_object_ref (call);
      g_hash_table_add (self->call_ids, g_strdup (tb_tool_call_get_id (call)));
      pending->index = i;
      pending->tool = tb_tool_registry_lookup (self->model_tools, tb_tool_call_get_name (call));
      /* A call to a tool that was not offered is never a question: it
       * cannot run, and the model is told so. */
      if (pending->tool == NULL)
        pending->decision = TB_CALL_DECISION_APPROVE;

      _tb_trace_line_add_int (line, "index", i);
      _tb_trace_line_add_boolean (line, "offered", pending->tool != NULL);
      _tb_trace_line_add_name (line, "call");
      _tb_tool_call_append_json (call, line);
      _tb_dispatch_loop_record_line (self, "tool-call", line);

      g_list_store_append (self->pending, pending);
    }

  _tb_dispatch_loop_set_state (self, TB_LOOP_STATE_CALLS_PENDING);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbPendingCall) pending = g_list_model_get_item (G_LIST_MODEL (self->pending), i);

      if (pending->tool != NULL)
        g_signal_emit (self, _tb_dispatch_loop_signals [CALL_PENDING], 0, pending);
    }
}

static void
model_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TbDispatchLoop) self = user_data;
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = tb_provider_complete_finish (TB_PROVIDER (object), result, &error);
  self->awaiting = FALSE;

  if (self->state == TB_LOOP_STATE_CANCELLED)
    ;
  else if (response == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _tb_dispatch_loop_end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  else if (response == NULL)
    _tb_dispatch_loop_end_with_error (self, g_error_new (TB_LOOP_ERROR, TB_LOOP_ERROR_MODEL, "%s",
                                                         error->message));
  else if (self->phase_cancellable != NULL && g_cancellable_is_cancelled (self->phase_cancellable))
    _tb_dispatch_loop_end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  else
    {
      GString *line = _tb_dispatch_loop_line_new (self);

      if (response->finish_reason != NULL)
        _tb_trace_line_add_string (line, "finish_reason", response->finish_reason);
      if (response->usage != NULL)
        _tb_trace_line_add_node (line, "usage", response->usage);
      _tb_dispatch_loop_record_line (self, "model-turn", line);
      _tb_dispatch_loop_accept_model_turn (self, response->message, "model");
    }

  _tb_dispatch_loop_phase_finished (self);
}

/* Counts the iteration; false when the cap is already reached. */
gboolean
_tb_dispatch_loop_begin_iteration (TbDispatchLoop *self)
{
  _tb_dispatch_loop_ensure_header (self);

  if (self->iteration >= self->max_iterations)
    {
      _tb_dispatch_loop_end (self, TB_LOOP_STATE_LIMIT_REACHED, "max-iterations");
      return FALSE;
    }

  self->iteration++;
  g_object_notify_by_pspec (G_OBJECT (self), _tb_dispatch_loop_properties [PROP_ITERATION]);

  if (self->iteration == TB_DISPATCH_LOOP_WARN_ITERATION)
    {
      g_autofree char *message =
        g_strdup_printf (_("The loop reached iteration %u of %u; a model that keeps calling "
                           "tools this long may be going in circles."),
                         self->iteration, self->max_iterations);

      _tb_dispatch_loop_warn (self, message);
    }

  /* A snapshot of the model's tools each turn, so that a tool that came
   * or went since shows in the next request; the same one while nothing
   * changed, with its definitions and wire names already built: remaking
   * it cost every turn time in proportion to the number of tools. */
  {
    guint generation = _tb_tool_registry_get_generation (self->registry);

    if (self->model_tools == NULL || self->model_tools_generation != generation)
      {
        _tb_dispatch_loop_set_model_tools (self, tb_tool_registry_get_model_tools (self->registry));
        self->model_tools_generation = generation;
      }
  }
  return TRUE;
}

static void
ask_model (TbDispatchLoop *self)
{
  g_autoptr(TbProviderRequest) request = NULL;

  if (!_tb_dispatch_loop_begin_iteration (self))
    {
      _tb_dispatch_loop_phase_finished (self);
      return;
    }

  /* The request shares the history rather than copying it: nothing is
   * appended while the model is asked, and a copy per turn would make long
   * runs quadratic. */
  request = tb_provider_request_new ();
  g_ptr_array_unref (request->messages);
  request->messages = g_ptr_array_ref (self->history);
  request->n_earlier_messages = self->n_earlier;
  request->tools = g_object_ref (self->model_tools);
  request->tool_choice = g_strdup (self->tool_choice);
  request->parallel_tool_calls = self->parallel_tool_calls;
  request->stream = self->stream;

  _tb_dispatch_loop_set_state (self, TB_LOOP_STATE_AWAITING_MODEL);
  self->awaiting = TRUE;
  tb_provider_complete_async (self->provider, request, self->phase_cancellable,
                              model_done_cb, g_object_ref (self));
}

static void
start_phase (TbDispatchLoop *self)
{
  g_assert (self->task != NULL);

  self->busy = TRUE;
  g_clear_object (&self->phase_cancellable);
  self->phase_cancellable = g_cancellable_new ();

  /* Cancelled before the phase began (an already cancelled cancellable). */
  if (tb_loop_state_is_end (self->state))
    {
      _tb_dispatch_loop_phase_finished (self);
      return;
    }

  switch (self->state)
    {
    case TB_LOOP_STATE_READY:
      ask_model (self);
      break;

    case TB_LOOP_STATE_CALLS_PENDING:
      _tb_dispatch_loop_run_tools (self);
      break;

    case TB_LOOP_STATE_AWAITING_MODEL:
    case TB_LOOP_STATE_RUNNING_TOOLS:
    case TB_LOOP_STATE_FINISHED:
    case TB_LOOP_STATE_LIMIT_REACHED:
    case TB_LOOP_STATE_FAILED:
    case TB_LOOP_STATE_CANCELLED:
    default:
      g_assert_not_reached ();
    }
}

static void
outer_cancelled_cb (GCancellable   *cancellable,
                    TbDispatchLoop *self)
{
  tb_dispatch_loop_cancel (self);
}

static gboolean
check_can_start (TbDispatchLoop  *self,
                 gboolean         stepping,
                 GError         **error)
{
  if (self->busy)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_BUSY,
                           _("The loop is already running a step; wait for it or stop it."));
      return FALSE;
    }
  if (tb_loop_state_is_end (self->state))
    {
      if (self->state == TB_LOOP_STATE_LIMIT_REACHED)
        g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                     _("The loop reached its cap of %u iterations; extend it to go on."),
                     self->max_iterations);
      else
        g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                     _("The loop has ended (%s); start a new one or add a message."),
                     tb_loop_state_to_string (self->state));
      return FALSE;
    }
  if (_tb_dispatch_loop_conversation_length (self) == 0)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                           _("The conversation is empty; add a user message first."));
      return FALSE;
    }
  if (stepping && self->state == TB_LOOP_STATE_CALLS_PENDING &&
      _tb_dispatch_loop_count_waiting (self) > 0)
    {
      guint n = _tb_dispatch_loop_count_waiting (self);

      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_UNDECIDED,
                   g_dngettext (GETTEXT_PACKAGE,
                                "%u call waits for a decision: approve, edit, skip or reject it.",
                                "%u calls wait for a decision: approve, edit, skip or reject each.",
                                n), n);
      return FALSE;
    }
  return TRUE;
}

/* Takes @task as the step's or the run's, and starts its first phase. */
static void
start_task (TbDispatchLoop *self,
            GTask          *task,
            gboolean        run,
            GCancellable   *cancellable)
{
  self->task = g_object_ref (task);
  self->run = run;
  if (cancellable != NULL)
    {
      self->outer_cancellable = g_object_ref (cancellable);
      self->outer_cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (outer_cancelled_cb),
                                                     self, NULL);
    }
  start_phase (self);
}

/* The task of a step or a run; %NULL when the loop cannot start one, the
 * reason then already given to @callback. */
static GTask *
new_task (TbDispatchLoop      *self,
          gboolean             one_phase,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data,
          gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, source_tag);
  g_task_set_check_cancellable (task, FALSE);
  if (!check_can_start (self, one_phase, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return NULL;
    }
  return task;
}

/**
 * tb_dispatch_loop_step_async:
 * @self: a loop
 * @cancellable: (nullable): cancels the phase; the loop ends as cancelled
 * @callback: called when the phase ended
 * @user_data: closure for @callback
 *
 * Advances exactly one phase: from %TB_LOOP_STATE_READY it asks the model
 * (ending in %TB_LOOP_STATE_CALLS_PENDING or an end state); from
 * %TB_LOOP_STATE_CALLS_PENDING it runs the decided calls and appends
 * their results (ending in %TB_LOOP_STATE_READY or an end state).
 */
void
tb_dispatch_loop_step_async (TbDispatchLoop      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = new_task (self, TRUE, cancellable, callback, user_data, tb_dispatch_loop_step_async);
  if (task == NULL)
    return;

  start_task (self, task, FALSE, cancellable);
}

/**
 * tb_dispatch_loop_step_finish:
 * @self: a loop
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbLoopError
 *
 * Ends tb_dispatch_loop_step_async().
 *
 * Returns: %TRUE when a phase ran (look at the state for its outcome),
 *   %FALSE with a %TB_LOOP_ERROR when none could start
 */
gboolean
tb_dispatch_loop_step_finish (TbDispatchLoop  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tb_dispatch_loop_run_async:
 * @self: a loop
 * @cancellable: (nullable): cancels the run; the loop ends as cancelled
 * @callback: called when the run stopped
 * @user_data: closure for @callback
 *
 * Runs phases until an end state, a call to a breakpoint tool (the loop
 * stops in %TB_LOOP_STATE_CALLS_PENDING once per turn; running again goes
 * on), a tool result whose metadata has `"pause_loop": true` (the loop
 * stops in %TB_LOOP_STATE_READY), or, with %TB_APPROVAL_POLICY_ASK, calls
 * nobody decided.
 */
void
tb_dispatch_loop_run_async (TbDispatchLoop      *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = new_task (self, FALSE, cancellable, callback, user_data, tb_dispatch_loop_run_async);
  if (task == NULL)
    return;

  /* Running again after a pause at a breakpoint goes past it. */
  if (self->state == TB_LOOP_STATE_CALLS_PENDING)
    self->paused_at_iteration = self->iteration;

  if (!_tb_dispatch_loop_should_continue (self))
    {
      g_task_return_int (task, self->state);
      return;
    }

  start_task (self, task, TRUE, cancellable);
}

/**
 * tb_dispatch_loop_run_finish:
 * @self: a loop
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #TbLoopError
 *
 * Ends tb_dispatch_loop_run_async(). A run that stops for a decision or at
 * a breakpoint ends in %TB_LOOP_STATE_CALLS_PENDING, one paused by a tool in
 * %TB_LOOP_STATE_READY; run it again to go on.
 *
 * Returns: the state the run stopped in, or %TB_LOOP_STATE_FAILED with a
 *   %TB_LOOP_ERROR when it could not start
 */
TbLoopState
tb_dispatch_loop_run_finish (TbDispatchLoop  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  gssize state;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), TB_LOOP_STATE_FAILED);
  g_return_val_if_fail (g_task_is_valid (result, self), TB_LOOP_STATE_FAILED);

  state = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return TB_LOOP_STATE_FAILED;
    }
  return (TbLoopState) state;
}

/* Abandons the phase under way: its request and calls are cancelled and
 * the loop ends when the phase does. %FALSE when no phase is under way. */
static gboolean
abandon_phase (TbDispatchLoop *self)
{
  if (!self->busy)
    return FALSE;
  self->cancel_requested = TRUE;
  if (self->phase_cancellable != NULL)
    g_cancellable_cancel (self->phase_cancellable);
  return TRUE;
}

/**
 * tb_dispatch_loop_cancel:
 * @self: a loop
 *
 * Stops the loop: a request on its way is abandoned, running calls are
 * cancelled (their results still answer their call ids), and the loop
 * ends as %TB_LOOP_STATE_CANCELLED. Nothing recorded is lost.
 */
void
tb_dispatch_loop_cancel (TbDispatchLoop *self)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  if (tb_loop_state_is_end (self->state) || abandon_phase (self))
    return;

  _tb_dispatch_loop_end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
}

/**
 * tb_dispatch_loop_fail:
 * @self: a loop
 * @error: why the run cannot go on
 *
 * Ends the loop as %TB_LOOP_STATE_FAILED with @error, the way
 * tb_dispatch_loop_cancel() stops it: a request on its way is abandoned
 * and running calls are cancelled. For reasons outside the loop, such as
 * a trace that can no longer be written (#TbTraceRecorder::failed). Does
 * nothing once the loop has ended.
 */
void
tb_dispatch_loop_fail (TbDispatchLoop *self,
                       const GError   *error)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));
  g_return_if_fail (error != NULL);

  if (tb_loop_state_is_end (self->state))
    return;

  if (self->busy && self->failure == NULL)
    self->failure = g_error_copy (error);
  if (abandon_phase (self))
    return;

  _tb_dispatch_loop_end_with_error (self, g_error_copy (error));
}

/**
 * tb_dispatch_loop_extend:
 * @self: a loop
 * @n: how many more iterations to allow
 * @error: return location for a %TB_LOOP_ERROR
 *
 * Raises the cap by @n. A loop that ended as %TB_LOOP_STATE_LIMIT_REACHED
 * becomes %TB_LOOP_STATE_READY and may run on. The cap only ever grows
 * by a person's explicit choice.
 *
 * Returns: %TRUE when the cap was raised
 */
gboolean
tb_dispatch_loop_extend (TbDispatchLoop  *self,
                         guint            n,
                         GError         **error)
{
  JsonObject *payload;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);

  if (n == 0 || n > G_MAXUINT - self->max_iterations)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("Extend the cap by at least one iteration."));
      return FALSE;
    }
  if (self->state == TB_LOOP_STATE_FINISHED || self->state == TB_LOOP_STATE_FAILED ||
      self->state == TB_LOOP_STATE_CANCELLED)
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                   _("The loop has ended (%s); extending its cap would change nothing."),
                   tb_loop_state_to_string (self->state));
      return FALSE;
    }

  self->max_iterations += n;
  g_object_notify_by_pspec (G_OBJECT (self), _tb_dispatch_loop_properties [PROP_MAX_ITERATIONS]);

  payload = _tb_dispatch_loop_event_new (self);
  json_object_set_string_member (payload, "decision", "extend");
  json_object_set_string_member (payload, "by", "person");
  json_object_set_int_member (payload, "added", n);
  json_object_set_int_member (payload, "max_iterations", self->max_iterations);
  _tb_dispatch_loop_record (self, "decision", payload);

  if (self->state == TB_LOOP_STATE_LIMIT_REACHED)
    _tb_dispatch_loop_set_state (self, TB_LOOP_STATE_READY);
  return TRUE;
}
