/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-dispatch-loop-private.h"
#include "tb-json.h"
#include "tb-pending-call-private.h"
#include "tb-tool-result-private.h"
#include "tb-trace-context-private.h"
#include "tb-trace-line-private.h"

/* Running the decided calls of a turn, one after another or side by side,
 * their progress, and their results taken into the conversation in call
 * order. */

/* A tool may report progress thousands of times; the trace keeps what a
 * person reading it later needs: the first report, every new message, the
 * end, and otherwise at most one report per interval. */
#define PROGRESS_RECORD_INTERVAL_US (250 * G_TIME_SPAN_MILLISECOND)

static void
record_progress (TbDispatchLoop *self,
                 TbPendingCall  *pending,
                 double          progress,
                 double          total,
                 const char     *message)
{
  gint64 now = g_get_monotonic_time ();
  JsonObject *payload;

  if (pending->progress_at != 0
      && g_strcmp0 (message, pending->progress_message) == 0
      && !(total > 0 && progress >= total)
      && now - pending->progress_at < PROGRESS_RECORD_INTERVAL_US)
    return;

  pending->progress_at = now;
  g_free (pending->progress_message);
  pending->progress_message = g_strdup (message);

  payload = _tb_dispatch_loop_event_new (self);
  json_object_set_string_member (payload, "call_id", tb_tool_call_get_id (pending->call));
  json_object_set_string_member (payload, "name", tb_tool_call_get_name (pending->call));
  json_object_set_double_member (payload, "progress", progress);
  if (total >= 0)
    json_object_set_double_member (payload, "total", total);
  if (message != NULL)
    json_object_set_string_member (payload, "message", message);
  _tb_dispatch_loop_record (self, "tool-progress", payload);
}

/* The calls run through this copy, so its progress reaches the loop's
 * listeners as the loop's own call-progress, naming the pending call, and
 * goes into the trace. */
static void
on_call_progress (TbToolRegistry *registry,
                  const char     *call_id,
                  double          progress,
                  double          total,
                  const char     *message,
                  TbDispatchLoop *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->pending));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbPendingCall) pending = g_list_model_get_item (G_LIST_MODEL (self->pending), i);

      if (g_strcmp0 (tb_tool_call_get_id (pending->call), call_id) == 0)
        {
          if (pending->result == NULL)
            record_progress (self, pending, progress, total, message);
          g_signal_emit (self, _tb_dispatch_loop_signals [CALL_PROGRESS], 0, pending, progress,
                         total, message);
          return;
        }
    }
}

void
_tb_dispatch_loop_set_model_tools (TbDispatchLoop *self,
                                   TbToolRegistry *model_tools)
{
  if (self->model_tools != NULL)
    g_clear_signal_handler (&self->progress_id, self->model_tools);
  g_clear_object (&self->model_tools);
  self->model_tools = model_tools;
  if (model_tools != NULL)
    self->progress_id = g_signal_connect (model_tools, "call-progress",
                                          G_CALLBACK (on_call_progress), self);
}

static void
finish_tools (TbDispatchLoop *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->pending));
  gboolean stop = FALSE;
  gboolean pause = FALSE;

  /* Results go in call order, whatever order they finished in. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbPendingCall) pending = g_list_model_get_item (G_LIST_MODEL (self->pending), i);
      g_autofree char *content = tb_tool_result_to_model_content (pending->result);
      g_autoptr(TbMessage) message = NULL;
      GString *line = _tb_dispatch_loop_line_new (self);
      JsonObject *metadata;

      _tb_trace_line_add_string (line, "call_id", tb_tool_call_get_id (pending->call));
      _tb_trace_line_add_string (line, "name", tb_tool_call_get_name (pending->call));
      _tb_trace_line_add_name (line, "result");
      _tb_tool_result_append_json (pending->result, line);
      _tb_trace_line_add_string (line, "content", content);
      _tb_dispatch_loop_record_line (self, "tool-result", line);

      message = tb_message_new_tool_result (tb_tool_call_get_id (pending->call),
                                            tb_tool_call_get_name (pending->call), content,
                                            !tb_tool_result_get_ok (pending->result));
      _tb_dispatch_loop_append_message (self, message, "tool");

      if (tb_tool_result_get_stop_loop (pending->result))
        stop = TRUE;
      metadata = tb_tool_result_get_metadata (pending->result);
      if (metadata != NULL &&
          tb_json_object_get_boolean (metadata, "pause_loop", FALSE))
        pause = TRUE;
    }

  g_list_store_remove_all (self->pending);

  if (self->state == TB_LOOP_STATE_CANCELLED)
    ;
  else if (self->phase_cancellable != NULL && g_cancellable_is_cancelled (self->phase_cancellable))
    _tb_dispatch_loop_end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  else if (stop)
    _tb_dispatch_loop_end (self, TB_LOOP_STATE_FINISHED, "stop_loop");
  else if (self->iteration >= self->max_iterations)
    _tb_dispatch_loop_end (self, TB_LOOP_STATE_LIMIT_REACHED, "max-iterations");
  else
    {
      /* A tool may ask a run to wait for the person (pause_loop), e.g.
       * until a proposal is resolved; running again goes on. */
      self->pause_requested = pause;
      _tb_dispatch_loop_set_state (self, TB_LOOP_STATE_READY);
    }

  _tb_dispatch_loop_phase_finished (self);
}

static void start_next_call (TbDispatchLoop *self);

static void
call_done (TbDispatchLoop *self,
           TbPendingCall  *pending,
           TbToolResult   *result)
{
  _tb_pending_call_set_result (pending, result);
  g_assert (self->calls_left > 0);
  self->calls_left--;

  if (self->calls_left == 0)
    finish_tools (self);
  else if (!self->parallel_tool_calls)
    start_next_call (self);
}

static void
tool_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TbPendingCall) pending = user_data;
  TbDispatchLoop *self = g_object_get_data (G_OBJECT (pending), "tb-loop");
  g_autoptr(TbToolResult) tool_result = NULL;

  tool_result = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object), result);
  call_done (self, pending, tool_result);
  g_object_unref (self);
}

/* Starts one call; the ones that cannot run are answered at once. */
static void
start_call (TbDispatchLoop *self,
            TbPendingCall  *pending)
{
  g_autoptr(TbToolResult) result = NULL;
  const char *name = tb_tool_call_get_name (pending->call);

  switch (pending->decision)
    {
    case TB_CALL_DECISION_REJECT:
      {
        g_autofree char *message =
          pending->reason != NULL
          ? g_strdup_printf (_("The person declined the call of “%s”: %s"), name,
                             pending->reason)
          : g_strdup_printf (_("The person declined the call of “%s”."), name);

        result = tb_tool_result_new_failure (TB_TOOL_FAILURE_PERMISSION_DENIED, message);
      }
      break;

    case TB_CALL_DECISION_SKIP:
      result = pending->answer != NULL ? g_object_ref (pending->answer)
                                       : tb_tool_result_new_success (pending->output);
      break;

    case TB_CALL_DECISION_APPROVE:
    case TB_CALL_DECISION_EDIT:
      if (pending->tool != NULL && pending->decision == TB_CALL_DECISION_APPROVE &&
          tb_tool_call_get_parse_error (pending->call) != NULL)
        {
          g_autofree char *message =
            g_strdup_printf (_("The arguments for “%s” are not valid JSON (%s). Send the "
                               "arguments as one JSON object."),
                             name, tb_tool_call_get_parse_error (pending->call));

          result = tb_tool_result_new_failure (TB_TOOL_FAILURE_INVALID_ARGUMENTS, message);
        }
      else
        {
          JsonObject *context = json_object_new ();
          g_autofree char *traceparent = NULL;

          json_object_set_string_member (context, "call_id", tb_tool_call_get_id (pending->call));
          json_object_set_int_member (context, "iteration", self->iteration);
          traceparent = _tb_trace_context_traceparent (
            tb_json_object_get_string (tb_trace_get_header (self->trace), "trace_id"),
            self->iteration, tb_tool_call_get_id (pending->call));
          if (traceparent != NULL)
            json_object_set_string_member (context, "traceparent", traceparent);
          g_object_set_data (G_OBJECT (pending), "tb-loop", self);
          /* Only the offered tools: a hidden or unknown name gets the
           * registry's not-registered answer and nothing runs. */
          tb_tool_registry_call_async (self->model_tools, name,
                                       tb_tool_call_get_id (pending->call),
                                       tb_pending_call_get_arguments (pending), context,
                                       self->phase_cancellable, tool_done_cb,
                                       g_object_ref (pending));
          g_object_ref (self);
          json_object_unref (context);
          return;
        }
      break;

    case TB_CALL_DECISION_UNDECIDED:
    default:
      g_assert_not_reached ();
    }

  call_done (self, pending, result);
}

static void
start_next_call (TbDispatchLoop *self)
{
  g_autoptr(TbPendingCall) pending = g_list_model_get_item (G_LIST_MODEL (self->pending),
                                                            self->next_call++);

  start_call (self, pending);
}

void
_tb_dispatch_loop_run_tools (TbDispatchLoop *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->pending));

  _tb_dispatch_loop_record_decisions (self);
  _tb_dispatch_loop_set_state (self, TB_LOOP_STATE_RUNNING_TOOLS);

  self->calls_left = n;
  self->next_call = 0;

  if (self->parallel_tool_calls)
    {
      /* Hold the calls: an instant result must not end the phase early. */
      self->calls_left++;
      for (self->next_call = 0; self->next_call < n; self->next_call++)
        {
          g_autoptr(TbPendingCall) pending =
            g_list_model_get_item (G_LIST_MODEL (self->pending), self->next_call);

          start_call (self, pending);
        }
      self->calls_left--;
      if (self->calls_left == 0)
        finish_tools (self);
    }
  else
    {
      start_next_call (self);
    }
}
