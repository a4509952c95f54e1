/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-dispatch-loop.h"
#include "tb-json.h"
#include "tb-loop-mcp-private.h"
#include "tb-loop-messages-private.h"
#include "tb-pending-call-private.h"
#include "tb-provider-private.h"
#include "tb-schema-error.h"
#include "tb-tool-result.h"
#include "tb-tool.h"
#include "tb-trace-context-private.h"
#include "tb-trace-line-private.h"

/* ---- the loop ------------------------------------------------------------- */

/**
 * TbDispatchLoop:
 *
 * The bounded state machine that drives a model through tools. See
 * DESIGN.md and docs/loop.md. One phase runs at a time: asking the model
 * (READY → AWAITING_MODEL → CALLS_PENDING or FINISHED) and running the
 * decided calls (CALLS_PENDING → RUNNING_TOOLS → READY, FINISHED or
 * LIMIT_REACHED). Every request, response, call, decision, result,
 * warning, error and end is appended to the trace.
 */
struct _TbDispatchLoop
{
  GObject           parent_instance;

  TbToolRegistry   *registry;
  TbToolRegistry   *model_tools;
  TbProvider       *provider;
  TbTrace          *trace;
  TbLoopMessages   *messages;
  GPtrArray        *history;      /* what the provider needs of the conversation */
  guint             n_earlier;    /* messages before those, left out of requests */
  GListStore       *pending;
  GError           *error;
  char            **breakpoints;
  char             *tool_choice;

  guint             max_iterations;
  guint             iteration;
  TbLoopState       state;
  TbApprovalPolicy  policy;
  gboolean          parallel_tool_calls;
  gboolean          stream;

  /* The phase in progress. */
  GTask            *task;
  gboolean          run;
  gboolean          busy;
  gboolean          awaiting;
  GCancellable     *phase_cancellable;
  gulong            outer_cancel_id;
  GCancellable     *outer_cancellable;
  guint             paused_at_iteration;
  gboolean          cancel_requested;
  GError           *failure;      /* tb_dispatch_loop_fail() while busy */
  gboolean          pause_requested;
  guint             calls_left;
  guint             next_call;

  gulong            progress_id;
  gulong            wire_request_id;
  gulong            wire_response_id;

  TbLoopMcp        *mcp;
  GHashTable       *call_ids;     /* of the latest calls the model asked for in this run */
};

G_DEFINE_FINAL_TYPE (TbDispatchLoop, tb_dispatch_loop, G_TYPE_OBJECT)
/**
 * tb_loop_error_quark:
 *
 * The error domain of #TbLoopError.
 *
 * Returns: the quark of %TB_LOOP_ERROR
 */
G_DEFINE_QUARK (tb-loop-error-quark, tb_loop_error)

enum {
  PROP_0,
  PROP_REGISTRY,
  PROP_PROVIDER,
  PROP_TRACE,
  PROP_MAX_ITERATIONS,
  PROP_ITERATION,
  PROP_STATE,
  PROP_APPROVAL_POLICY,
  PROP_PARALLEL_TOOL_CALLS,
  PROP_STREAM,
  N_PROPS
};

enum { CALL_PENDING, CALL_PROGRESS, WARNING, N_SIGNALS };

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void start_phase (TbDispatchLoop *self);

/* ---- trace helpers -------------------------------------------------------- */

static JsonObject *
event_new (TbDispatchLoop *self)
{
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "iteration", self->iteration);
  return object;
}

static void
record (TbDispatchLoop *self,
        const char     *type,
        JsonObject     *payload)
{
  tb_trace_append (self->trace, type, payload);
  json_object_unref (payload);
}

/* The events of every iteration are written as text from their fields
 * (tb-trace-line.c), without a tree; the rare ones are built as trees. */
static GString *
line_new (TbDispatchLoop *self)
{
  return _tb_trace_line_new (self->iteration);
}

static void
record_line (TbDispatchLoop *self,
             const char     *type,
             GString        *line)
{
  _tb_trace_line_append_to (line, self->trace, type);
}

static void
record_message (TbDispatchLoop *self,
                TbMessage      *message,
                const char     *origin)
{
  GString *line = line_new (self);
  g_autoptr(JsonNode) json = tb_message_to_json (message);

  _tb_trace_line_add_string (line, "origin", origin);
  _tb_trace_line_add_node (line, "message", json);
  record_line (self, "message", line);
}

/* How many messages the conversation holds, those left out of requests too. */
static guint
conversation_length (TbDispatchLoop *self)
{
  return self->n_earlier + self->history->len;
}

static void
append_message (TbDispatchLoop *self,
                TbMessage      *message,
                const char     *origin)
{
  /* Listeners see the message before its event, as they always did: the
   * event after the turn's request and response. */
  _tb_loop_messages_append (self->messages, message, tb_trace_get_n_events (self->trace));
  record_message (self, message, origin);

  /* A provider that needs only the latest turn gets the model's last
   * turn and what came after it; the rest is in the trace. A new array:
   * a request on its way may still hold the old one. */
  if (self->provider != NULL &&
      tb_message_get_role (message) == TB_MESSAGE_ROLE_ASSISTANT &&
      tb_provider_get_history (self->provider) == TB_PROVIDER_HISTORY_LATEST_TURN)
    {
      self->n_earlier += self->history->len;
      g_ptr_array_unref (self->history);
      self->history = g_ptr_array_new_with_free_func (g_object_unref);
    }
  g_ptr_array_add (self->history, g_object_ref (message));
}

static void
ensure_header (TbDispatchLoop *self)
{
  JsonObject *header = tb_trace_get_header (self->trace);

  if (json_object_has_member (header, "provider"))
    return;

  {
    g_autoptr(TbToolRegistry) tools = tb_tool_registry_get_model_tools (self->registry);
    JsonObject *provider = tb_provider_describe (self->provider);
    g_autofree char *trace_id = _tb_trace_context_new_trace_id ();

    json_object_set_string_member (header, "format", "toolbench-trace");
    json_object_set_int_member (header, "version", 1);
    json_object_set_member (header, "tools",
                            tb_tool_registry_to_definitions (tools, TB_DEFINITION_FORMAT_NATIVE));
    json_object_set_object_member (header, "provider", provider);
    json_object_set_int_member (header, "max_iterations", self->max_iterations);
    json_object_set_string_member (header, "approval_policy",
                                   tb_approval_policy_to_string (self->policy));
    json_object_set_string_member (header, "trace_id", trace_id);
  }
}

static void
set_state (TbDispatchLoop *self,
           TbLoopState     state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

static void fail (TbDispatchLoop *self,
                  GError         *error);

/* Moves to an end state and records why. */
static void
end (TbDispatchLoop *self,
     TbLoopState     state,
     const char     *reason)
{
  JsonObject *payload;

  g_assert (tb_loop_state_is_end (state));

  /* A phase abandoned for tb_dispatch_loop_fail() ends as failed. */
  if (state == TB_LOOP_STATE_CANCELLED && self->failure != NULL)
    {
      fail (self, g_steal_pointer (&self->failure));
      return;
    }

  payload = event_new (self);

  json_object_set_string_member (payload, "state", tb_loop_state_to_string (state));
  json_object_set_int_member (payload, "max_iterations", self->max_iterations);
  if (reason != NULL)
    json_object_set_string_member (payload, "reason", reason);
  if (state == TB_LOOP_STATE_FAILED && self->error != NULL)
    json_object_set_string_member (payload, "error", self->error->message);
  record (self, "end", payload);

  g_list_store_remove_all (self->pending);
  set_state (self, state);
}

static void
fail (TbDispatchLoop *self,
      GError         *error)
{
  JsonObject *payload = event_new (self);

  g_clear_error (&self->error);
  self->error = error;

  json_object_set_string_member (payload, "message", error->message);
  json_object_set_string_member (payload, "domain", g_quark_to_string (error->domain));
  json_object_set_int_member (payload, "code", error->code);
  record (self, "error", payload);
  end (self, TB_LOOP_STATE_FAILED, NULL);
}

static void
warn (TbDispatchLoop *self,
      const char     *message)
{
  JsonObject *payload = event_new (self);

  json_object_set_string_member (payload, "message", message);
  record (self, "warning", payload);
  g_signal_emit (self, signals [WARNING], 0, message);
}

static void
wire_request_cb (TbProvider     *provider,
                 const char     *url,
                 const char     *body,
                 TbDispatchLoop *self)
{
  GString *line;

  if (!self->awaiting)
    return;

  line = line_new (self);
  _tb_trace_line_add_string (line, "provider", tb_provider_get_kind (provider));
  _tb_trace_line_add_string (line, "url", url);
  _tb_trace_line_add_string (line, "body", body);
  record_line (self, "request", line);
}

static void
wire_response_cb (TbProvider     *provider,
                  guint           status,
                  const char     *body,
                  TbDispatchLoop *self)
{
  GString *line;

  if (!self->awaiting)
    return;

  line = line_new (self);
  _tb_trace_line_add_int (line, "status", status);
  _tb_trace_line_add_string (line, "body", body);
  record_line (self, "response", line);
}

/* The MCP messages of the run's tool calls, and those that come while its
 * tools run (a list change, a log line); not what a person does with the
 * same servers between steps. */
static void
mcp_message_cb (TbMcpWireRecord *message,
                gpointer         user_data)
{
  TbDispatchLoop *self = user_data;
  const char *call_id = tb_mcp_wire_record_get_call_id (message);
  JsonObject *payload;

  if (tb_loop_state_is_end (self->state))
    return;
  if (call_id != NULL ? !g_hash_table_contains (self->call_ids, call_id)
                      : self->state != TB_LOOP_STATE_RUNNING_TOOLS)
    return;

  payload = event_new (self);
  _tb_loop_mcp_payload (message, payload);
  record (self, "mcp-message", payload);
}

/* ---- phases --------------------------------------------------------------- */

static gboolean
is_breakpoint (TbDispatchLoop *self,
               const char     *name)
{
  return self->breakpoints != NULL && g_strv_contains ((const char * const *) self->breakpoints,
                                                       name);
}

/* Whether an undecided call waits for a person: every one when asking,
 * none when rejecting all, and otherwise those to destructive tools and,
 * under the read-only policy, to tools not marked read-only. */
static gboolean
waits_for_person (TbDispatchLoop *self,
                  TbPendingCall  *call)
{
  TbToolHints hints;

  if (call->decision != TB_CALL_DECISION_UNDECIDED)
    return FALSE;
  if (self->policy == TB_APPROVAL_POLICY_ASK)
    return TRUE;
  if (self->policy == TB_APPROVAL_POLICY_REJECT_ALL || call->tool == NULL)
    return FALSE;
  hints = tb_tool_registry_get_hints (self->registry, tb_tool_get_name (call->tool), NULL);
  if (hints & TB_TOOL_HINT_DESTRUCTIVE)
    return TRUE;
  return self->policy == TB_APPROVAL_POLICY_READ_ONLY && !(hints & TB_TOOL_HINT_READ_ONLY);
}

static guint
count_waiting (TbDispatchLoop *self)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->pending)); i++)
    {
      g_autoptr(TbPendingCall) call = g_list_model_get_item (G_LIST_MODEL (self->pending), i);

      if (waits_for_person (self, call))
        n++;
    }
  return n;
}

/* Whether a run goes on from the current state, or pauses. */
static gboolean
should_continue (TbDispatchLoop *self)
{
  if (self->state == TB_LOOP_STATE_READY)
    {
      gboolean pause = self->pause_requested;

      self->pause_requested = FALSE;
      return !pause;
    }
  if (self->state != TB_LOOP_STATE_CALLS_PENDING)
    return FALSE;

  if (self->paused_at_iteration != self->iteration)
    {
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->pending)); i++)
        {
          g_autoptr(TbPendingCall) call = g_list_model_get_item (G_LIST_MODEL (self->pending), i);

          if (is_breakpoint (self, tb_tool_call_get_name (call->call)))
            {
              self->paused_at_iteration = self->iteration;
              return FALSE;
            }
        }
    }

  return count_waiting (self) == 0;
}

static void
phase_finished (TbDispatchLoop *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  self->busy = FALSE;
  g_clear_object (&self->phase_cancellable);

  /* cancel() called from a handler while the phase was ending. */
  if (self->cancel_requested && !tb_loop_state_is_end (self->state))
    end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  self->cancel_requested = FALSE;

  if (self->run && !g_cancellable_is_cancelled (g_task_get_cancellable (task)) &&
      should_continue (self))
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
static void
accept_model_turn (TbDispatchLoop *self,
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

  append_message (self, message, origin);

  if (n == 0)
    {
      end (self, TB_LOOP_STATE_FINISHED, "answer");
      return;
    }

  if (!_tb_provider_check_call_ids (message, &error))
    {
      fail (self, g_steal_pointer (&error));
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
      g_autoptr(JsonNode) call_json = NULL;
      GString *line = line_new (self);

      pending->call = g_object_ref (call);
      g_hash_table_add (self->call_ids, g_strdup (tb_tool_call_get_id (call)));
      pending->index = i;
      pending->tool = tb_tool_registry_lookup (self->model_tools, tb_tool_call_get_name (call));
      /* A call to a tool that was not offered is never a question: it
       * cannot run, and the model is told so. */
      if (pending->tool == NULL)
        pending->decision = TB_CALL_DECISION_APPROVE;

      call_json = tb_tool_call_to_json (call);
      _tb_trace_line_add_int (line, "index", i);
      _tb_trace_line_add_boolean (line, "offered", pending->tool != NULL);
      _tb_trace_line_add_node (line, "call", call_json);
      record_line (self, "tool-call", line);

      g_list_store_append (self->pending, pending);
    }

  set_state (self, TB_LOOP_STATE_CALLS_PENDING);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbPendingCall) pending = g_list_model_get_item (G_LIST_MODEL (self->pending), i);

      if (pending->tool != NULL)
        g_signal_emit (self, signals [CALL_PENDING], 0, pending);
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
    end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  else if (response == NULL)
    fail (self, g_error_new (TB_LOOP_ERROR, TB_LOOP_ERROR_MODEL, "%s", error->message));
  else if (self->phase_cancellable != NULL && g_cancellable_is_cancelled (self->phase_cancellable))
    end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  else
    {
      GString *line = line_new (self);

      if (response->finish_reason != NULL)
        _tb_trace_line_add_string (line, "finish_reason", response->finish_reason);
      if (response->usage != NULL)
        _tb_trace_line_add_node (line, "usage", response->usage);
      record_line (self, "model-turn", line);
      accept_model_turn (self, response->message, "model");
    }

  phase_finished (self);
}

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

  payload = event_new (self);
  json_object_set_string_member (payload, "call_id", tb_tool_call_get_id (pending->call));
  json_object_set_string_member (payload, "name", tb_tool_call_get_name (pending->call));
  json_object_set_double_member (payload, "progress", progress);
  if (total >= 0)
    json_object_set_double_member (payload, "total", total);
  if (message != NULL)
    json_object_set_string_member (payload, "message", message);
  record (self, "tool-progress", payload);
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
          g_signal_emit (self, signals [CALL_PROGRESS], 0, pending, progress, total, message);
          return;
        }
    }
}

static void
set_model_tools (TbDispatchLoop *self,
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

/* Counts the iteration; false when the cap is already reached. */
static gboolean
begin_iteration (TbDispatchLoop *self)
{
  ensure_header (self);

  if (self->iteration >= self->max_iterations)
    {
      end (self, TB_LOOP_STATE_LIMIT_REACHED, "max-iterations");
      return FALSE;
    }

  self->iteration++;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ITERATION]);

  if (self->iteration == TB_DISPATCH_LOOP_WARN_ITERATION)
    {
      g_autofree char *message =
        g_strdup_printf (_("The loop reached iteration %u of %u; a model that keeps calling "
                           "tools this long may be going in circles."),
                         self->iteration, self->max_iterations);

      warn (self, message);
    }

  set_model_tools (self, tb_tool_registry_get_model_tools (self->registry));
  return TRUE;
}

static void
ask_model (TbDispatchLoop *self)
{
  g_autoptr(TbProviderRequest) request = NULL;

  if (!begin_iteration (self))
    {
      phase_finished (self);
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

  set_state (self, TB_LOOP_STATE_AWAITING_MODEL);
  self->awaiting = TRUE;
  tb_provider_complete_async (self->provider, request, self->phase_cancellable,
                              model_done_cb, g_object_ref (self));
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
      g_autoptr(JsonNode) result_json = tb_tool_result_to_json (pending->result);
      GString *line = line_new (self);
      JsonObject *metadata;

      _tb_trace_line_add_string (line, "call_id", tb_tool_call_get_id (pending->call));
      _tb_trace_line_add_string (line, "name", tb_tool_call_get_name (pending->call));
      _tb_trace_line_add_node (line, "result", result_json);
      _tb_trace_line_add_string (line, "content", content);
      record_line (self, "tool-result", line);

      message = tb_message_new_tool_result (tb_tool_call_get_id (pending->call),
                                            tb_tool_call_get_name (pending->call), content,
                                            !tb_tool_result_get_ok (pending->result));
      append_message (self, message, "tool");

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
    end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
  else if (stop)
    end (self, TB_LOOP_STATE_FINISHED, "stop_loop");
  else if (self->iteration >= self->max_iterations)
    end (self, TB_LOOP_STATE_LIMIT_REACHED, "max-iterations");
  else
    {
      /* A tool may ask a run to wait for the person (pause_loop), e.g.
       * until a proposal is resolved; running again goes on. */
      self->pause_requested = pause;
      set_state (self, TB_LOOP_STATE_READY);
    }

  phase_finished (self);
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

static void
record_decisions (TbDispatchLoop *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->pending));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbPendingCall) pending = g_list_model_get_item (G_LIST_MODEL (self->pending), i);
      GString *line = line_new (self);
      const char *by;

      if (pending->decision == TB_CALL_DECISION_UNDECIDED)
        {
          _tb_pending_call_set_decision (pending, self->policy == TB_APPROVAL_POLICY_REJECT_ALL
                                 ? TB_CALL_DECISION_REJECT : TB_CALL_DECISION_APPROVE, FALSE);
          if (pending->decision == TB_CALL_DECISION_REJECT)
            pending->reason = g_strdup (_("calls are not allowed in this run"));
          by = "policy";
        }
      else
        {
          by = pending->tool == NULL ? "loop" : pending->by_person ? "person" : "policy";
        }

      _tb_trace_line_add_string (line, "call_id", tb_tool_call_get_id (pending->call));
      _tb_trace_line_add_string (line, "decision",
                                 tb_call_decision_to_string (pending->decision));
      _tb_trace_line_add_string (line, "by", by);
      /* Both sides of an edit, so a reader sees what the person changed. */
      if (pending->decision == TB_CALL_DECISION_EDIT)
        {
          JsonNode *sent = tb_tool_call_get_arguments (pending->call);

          _tb_trace_line_add_node (line, "arguments", pending->arguments);
          if (sent != NULL)
            _tb_trace_line_add_node (line, "model_arguments", sent);
          else if (tb_tool_call_get_raw_arguments (pending->call) != NULL)
            _tb_trace_line_add_string (line, "model_raw_arguments",
                                       tb_tool_call_get_raw_arguments (pending->call));
        }
      if (pending->decision == TB_CALL_DECISION_SKIP)
        _tb_trace_line_add_node (line, "output", pending->output);
      if (pending->reason != NULL)
        _tb_trace_line_add_string (line, "reason", pending->reason);
      record_line (self, "decision", line);
    }
}

static void
run_tools (TbDispatchLoop *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->pending));

  record_decisions (self);
  set_state (self, TB_LOOP_STATE_RUNNING_TOOLS);

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
      phase_finished (self);
      return;
    }

  switch (self->state)
    {
    case TB_LOOP_STATE_READY:
      ask_model (self);
      break;

    case TB_LOOP_STATE_CALLS_PENDING:
      run_tools (self);
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
  if (conversation_length (self) == 0)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                           _("The conversation is empty; add a user message first."));
      return FALSE;
    }
  if (stepping && self->state == TB_LOOP_STATE_CALLS_PENDING && count_waiting (self) > 0)
    {
      guint n = count_waiting (self);

      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_UNDECIDED,
                   g_dngettext (GETTEXT_PACKAGE,
                                "%u call waits for a decision: approve, edit, skip or reject it.",
                                "%u calls wait for a decision: approve, edit, skip or reject each.",
                                n), n);
      return FALSE;
    }
  return TRUE;
}

static void
begin_task (TbDispatchLoop *self,
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

  begin_task (self, task, FALSE, cancellable);
  start_phase (self);
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

  if (!should_continue (self))
    {
      g_task_return_int (task, self->state);
      return;
    }

  begin_task (self, task, TRUE, cancellable);
  start_phase (self);
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

  if (tb_loop_state_is_end (self->state))
    return;

  if (self->busy)
    {
      self->cancel_requested = TRUE;
      if (self->phase_cancellable != NULL)
        g_cancellable_cancel (self->phase_cancellable);
      return;
    }

  end (self, TB_LOOP_STATE_CANCELLED, "cancelled");
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

  if (self->busy)
    {
      if (self->failure == NULL)
        self->failure = g_error_copy (error);
      self->cancel_requested = TRUE;
      if (self->phase_cancellable != NULL)
        g_cancellable_cancel (self->phase_cancellable);
      return;
    }

  fail (self, g_error_copy (error));
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
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MAX_ITERATIONS]);

  payload = event_new (self);
  json_object_set_string_member (payload, "decision", "extend");
  json_object_set_string_member (payload, "by", "person");
  json_object_set_int_member (payload, "added", n);
  json_object_set_int_member (payload, "max_iterations", self->max_iterations);
  record (self, "decision", payload);

  if (self->state == TB_LOOP_STATE_LIMIT_REACHED)
    set_state (self, TB_LOOP_STATE_READY);
  return TRUE;
}

/**
 * tb_dispatch_loop_add_message:
 * @self: a loop
 * @message: a system or user message
 * @error: return location for a %TB_LOOP_ERROR
 *
 * Adds to the conversation. Allowed when the loop is ready, or after it
 * finished (the new user turn makes it ready again).
 *
 * Returns: %TRUE when the message was added
 */
gboolean
tb_dispatch_loop_add_message (TbDispatchLoop  *self,
                              TbMessage       *message,
                              GError         **error)
{
  TbMessageRole role;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (TB_IS_MESSAGE (message), FALSE);

  role = tb_message_get_role (message);
  if (role != TB_MESSAGE_ROLE_SYSTEM && role != TB_MESSAGE_ROLE_USER)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("Only system and user messages can be added; the model's turns "
                             "come from the provider or tb_dispatch_loop_submit_model_turn()."));
      return FALSE;
    }
  if (self->busy || (self->state != TB_LOOP_STATE_READY && self->state != TB_LOOP_STATE_FINISHED))
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                   _("A message can only be added when the loop is ready or finished, "
                     "not while it is %s."), tb_loop_state_to_string (self->state));
      return FALSE;
    }

  ensure_header (self);
  append_message (self, message, "person");
  if (self->state == TB_LOOP_STATE_FINISHED)
    set_state (self, TB_LOOP_STATE_READY);
  return TRUE;
}

/**
 * tb_dispatch_loop_add_user_message:
 * @self: a loop
 * @text: what the person says
 * @error: return location for a %TB_LOOP_ERROR_WRONG_STATE or %TB_LOOP_ERROR_INVALID error
 *
 * Adds what the person says to the conversation, to be sent with the next
 * request; a finished loop becomes ready again. Only possible when the loop
 * is ready or finished.
 *
 * Returns: %TRUE when the message was added, %FALSE with @error set otherwise
 */
gboolean
tb_dispatch_loop_add_user_message (TbDispatchLoop  *self,
                                   const char      *text,
                                   GError         **error)
{
  g_autoptr(TbMessage) message = NULL;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  message = tb_message_new (TB_MESSAGE_ROLE_USER, text);
  return tb_dispatch_loop_add_message (self, message, error);
}

static gboolean
restore_invalid (GError     **error,
                 guint        position,
                 const char  *reason)
{
  g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
               _("Message %u of the history cannot be restored: %s"), position + 1, reason);
  return FALSE;
}

/**
 * tb_dispatch_loop_restore:
 * @self: a new loop: ready, with an empty conversation
 * @messages: (element-type TbMessage): a whole conversation, e.g. a
 *   trace's messages up to a step, possibly edited
 * @iterations_used: how many iterations that conversation used
 * @error: return location for a %TB_LOOP_ERROR
 *
 * Starts the loop from an earlier conversation (a fork). Every call in it
 * must be answered by tool messages right after its assistant turn; to
 * continue from an edited call or model turn, restore the history before
 * that turn and give the turn with tb_dispatch_loop_submit_model_turn().
 * A history that ends in the model's text answer leaves the loop
 * %TB_LOOP_STATE_FINISHED (add a user message to go on).
 *
 * Returns: %TRUE when the history was taken
 */
gboolean
tb_dispatch_loop_restore (TbDispatchLoop  *self,
                          GPtrArray       *messages,
                          guint            iterations_used,
                          GError         **error)
{
  g_autoptr(GHashTable) open = g_hash_table_new (g_str_hash, g_str_equal);
  TbMessage *last = NULL;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (messages != NULL, FALSE);

  if (self->busy || self->state != TB_LOOP_STATE_READY || conversation_length (self) > 0)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                           _("A history can only be restored into a new, empty loop."));
      return FALSE;
    }

  /* Check everything before taking anything. */
  for (guint i = 0; i < messages->len; i++)
    {
      TbMessage *message = g_ptr_array_index (messages, i);
      TbMessageRole role;

      if (!TB_IS_MESSAGE (message))
        return restore_invalid (error, i, _("it is not a message"));
      role = tb_message_get_role (message);

      if (role == TB_MESSAGE_ROLE_TOOL)
        {
          if (!g_hash_table_remove (open, tb_message_get_tool_call_id (message)))
            return restore_invalid (error, i, _("it answers a call that is not open"));
          continue;
        }
      if (g_hash_table_size (open) > 0)
        return restore_invalid (error, i, _("a call before it has no result"));
      if (role == TB_MESSAGE_ROLE_ASSISTANT)
        {
          g_autoptr(GError) local_error = NULL;

          if (!_tb_provider_check_call_ids (message, &local_error))
            return restore_invalid (error, i, local_error->message);
          for (guint j = 0; j < tb_message_get_n_tool_calls (message); j++)
            g_hash_table_add (open,
                              (gpointer) tb_tool_call_get_id (tb_message_get_tool_call (message,
                                                                                         j)));
        }
    }
  if (g_hash_table_size (open) > 0)
    return restore_invalid (error, messages->len - 1, _("the last calls have no results"));
  if (iterations_used > self->max_iterations)
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                   _("The history used %u iterations, more than this loop's cap of %u."),
                   iterations_used, self->max_iterations);
      return FALSE;
    }

  ensure_header (self);
  for (guint i = 0; i < messages->len; i++)
    append_message (self, g_ptr_array_index (messages, i), "restored");
  self->iteration = iterations_used;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ITERATION]);

  last = messages->len > 0 ? g_ptr_array_index (messages, messages->len - 1) : NULL;
  if (last != NULL && tb_message_get_role (last) == TB_MESSAGE_ROLE_ASSISTANT)
    end (self, TB_LOOP_STATE_FINISHED, "answer");
  return TRUE;
}

/**
 * tb_dispatch_loop_submit_model_turn:
 * @self: a loop in %TB_LOOP_STATE_READY
 * @message: the model's next turn, written by a person: text and/or calls
 *   (tool names may be real or wire names)
 * @error: return location for a %TB_LOOP_ERROR
 *
 * Takes @message as the model's answer for this iteration instead of
 * asking the provider. It counts as an iteration and is recorded as a
 * `manual-turn` decision.
 *
 * Returns: %TRUE when the turn was taken
 */
gboolean
tb_dispatch_loop_submit_model_turn (TbDispatchLoop  *self,
                                    TbMessage       *message,
                                    GError         **error)
{
  g_autoptr(TbMessage) turn = NULL;
  JsonObject *payload;

  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (TB_IS_MESSAGE (message), FALSE);

  if (tb_message_get_role (message) != TB_MESSAGE_ROLE_ASSISTANT)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("A model turn must be an assistant message."));
      return FALSE;
    }
  if (self->busy || self->state != TB_LOOP_STATE_READY)
    {
      g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                   _("The model's turn can only be written when the loop is ready, "
                     "not while it is %s."), tb_loop_state_to_string (self->state));
      return FALSE;
    }

  if (!begin_iteration (self))
    return TRUE;

  turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, tb_message_get_text (message));
  for (guint i = 0; i < tb_message_get_n_tool_calls (message); i++)
    {
      TbToolCall *written = tb_message_get_tool_call (message, i);
      g_autofree char *id = tb_tool_call_get_id (written) != NULL
                            ? g_strdup (tb_tool_call_get_id (written))
                            : g_strdup_printf ("manual_%u_%u", self->iteration, i);
      g_autoptr(TbToolCall) call =
        _tb_provider_make_call (self->model_tools, id, tb_tool_call_get_name (written),
                                tb_tool_call_get_parse_error (written) == NULL
                                ? tb_tool_call_get_arguments (written) : NULL,
                                tb_tool_call_get_raw_arguments (written));

      tb_message_add_tool_call (turn, call);
    }

  payload = event_new (self);
  json_object_set_string_member (payload, "decision", "manual-turn");
  json_object_set_string_member (payload, "by", "person");
  record (self, "decision", payload);

  accept_model_turn (self, turn, "person");
  return TRUE;
}

/* ---- accessors ------------------------------------------------------------ */

/**
 * tb_dispatch_loop_new:
 * @registry: the tools; only tb_tool_registry_get_model_tools() of it is
 *   offered to the model or callable by it
 * @provider: the model
 * @max_iterations: the cap on model requests, at least 1
 *
 * Makes a loop that offers a model the tools of a registry, runs the calls
 * it asks for as people or the approval policy decide, and records
 * everything in a new trace.
 *
 * Returns: (transfer full): a loop in %TB_LOOP_STATE_READY
 */
TbDispatchLoop *
tb_dispatch_loop_new (TbToolRegistry *registry,
                      TbProvider     *provider,
                      guint           max_iterations)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), NULL);
  g_return_val_if_fail (TB_IS_PROVIDER (provider), NULL);
  g_return_val_if_fail (max_iterations > 0, NULL);

  return g_object_new (TB_TYPE_DISPATCH_LOOP,
                       "registry", registry,
                       "provider", provider,
                       "max-iterations", max_iterations,
                       NULL);
}

/**
 * tb_dispatch_loop_get_registry:
 * @self: a loop
 *
 * Gives the tools of the run.
 *
 * Returns: (transfer none): the registry whose tools the loop offers
 */
TbToolRegistry *
tb_dispatch_loop_get_registry (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return self->registry;
}

/**
 * tb_dispatch_loop_get_provider:
 * @self: a loop
 *
 * Gives the model the loop asks.
 *
 * Returns: (transfer none): the provider the loop asks
 */
TbProvider *
tb_dispatch_loop_get_provider (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return self->provider;
}

/**
 * tb_dispatch_loop_get_trace:
 * @self: a loop
 *
 * Gives the trace of the run, which holds every request, response, message,
 * decision and result in order.
 *
 * Returns: (transfer none): the trace the loop appends to
 */
TbTrace *
tb_dispatch_loop_get_trace (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return self->trace;
}

/**
 * tb_dispatch_loop_get_state:
 * @self: a loop
 *
 * Says where the loop is in its run.
 *
 * Returns: the loop's state
 */
TbLoopState
tb_dispatch_loop_get_state (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), TB_LOOP_STATE_FAILED);
  return self->state;
}

/**
 * tb_dispatch_loop_get_iteration:
 * @self: a loop
 *
 * Counts the requests sent to the model so far.
 *
 * Returns: the current iteration, 0 before the first request
 */
guint
tb_dispatch_loop_get_iteration (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), 0);
  return self->iteration;
}

/**
 * tb_dispatch_loop_get_max_iterations:
 * @self: a loop
 *
 * Gives the most requests the loop sends to the model.
 *
 * Returns: the cap on iterations
 */
guint
tb_dispatch_loop_get_max_iterations (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), 0);
  return self->max_iterations;
}

/**
 * tb_dispatch_loop_get_error:
 * @self: a loop
 *
 * Tells why the loop ended in %TB_LOOP_STATE_FAILED: the provider's error,
 * or why the conversation could not go on.
 *
 * Returns: (nullable): why the loop failed, when it did
 */
const GError *
tb_dispatch_loop_get_error (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return self->error;
}

/**
 * tb_dispatch_loop_get_messages:
 * @self: a loop
 *
 * Gives the conversation so far: the messages the loop sends with its next
 * request, in order. It grows as the run goes on.
 *
 * The whole conversation. When the trace is recorded to a file
 * (#TbTraceRecorder) and the provider needs only the latest turn
 * (tb_provider_get_history()), only the latest messages stay in memory
 * and an older one is read back from the file: it is then a new object
 * each time, holding what the file holds (redacted).
 *
 * Returns: (transfer none): the conversation, a #GListModel of #TbMessage
 */
GListModel *
tb_dispatch_loop_get_messages (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return G_LIST_MODEL (self->messages);
}

/**
 * tb_dispatch_loop_get_pending_calls:
 * @self: a loop
 *
 * Gives the calls the model asked for in the current turn, each waiting for
 * a decision or running; decide them with tb_pending_call_approve() and its
 * siblings.
 *
 * Returns: (transfer none): the calls of the current turn, a #GListModel
 *   of #TbPendingCall (empty outside %TB_LOOP_STATE_CALLS_PENDING and
 *   %TB_LOOP_STATE_RUNNING_TOOLS)
 */
GListModel *
tb_dispatch_loop_get_pending_calls (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return G_LIST_MODEL (self->pending);
}

/**
 * tb_dispatch_loop_call_waits_for_person:
 * @self: a loop
 * @call: one of its pending calls
 *
 * Whether @call, undecided, keeps the loop waiting for a person under the
 * loop's approval policy and the tools' hints (a
 * #TbDispatchLoop::call-pending handler that asks people asks about these
 * and leaves the others to the policy).
 *
 * Returns: %TRUE when a person has to decide
 */
gboolean
tb_dispatch_loop_call_waits_for_person (TbDispatchLoop *self,
                                        TbPendingCall  *call)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), FALSE);
  g_return_val_if_fail (TB_IS_PENDING_CALL (call), FALSE);

  return waits_for_person (self, call);
}

/**
 * tb_dispatch_loop_get_approval_policy:
 * @self: a loop
 *
 * Says what happens to calls nobody decided.
 *
 * Returns: the approval policy
 */
TbApprovalPolicy
tb_dispatch_loop_get_approval_policy (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), TB_APPROVAL_POLICY_ASK);
  return self->policy;
}

/**
 * tb_dispatch_loop_set_approval_policy:
 * @self: a loop
 * @policy: the new policy
 *
 * Says what happens to calls nobody decided. Once the run has begun (its
 * trace has a header), the change is recorded as a `policy` event.
 */
void
tb_dispatch_loop_set_approval_policy (TbDispatchLoop   *self,
                                      TbApprovalPolicy  policy)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  if (self->policy == policy)
    return;
  self->policy = policy;
  /* The header names the policy the run started with; a later change is
   * an event of its own. */
  if (json_object_has_member (tb_trace_get_header (self->trace), "provider"))
    {
      JsonObject *payload = event_new (self);

      json_object_set_string_member (payload, "approval_policy",
                                     tb_approval_policy_to_string (policy));
      record (self, "policy", payload);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_APPROVAL_POLICY]);
}

/**
 * tb_dispatch_loop_set_breakpoints:
 * @self: a loop
 * @tool_names: (nullable): real tool names at which a run pauses
 *
 * Makes a run pause for a person at every call of these tools, whatever
 * the approval policy.
 */
void
tb_dispatch_loop_set_breakpoints (TbDispatchLoop     *self,
                                  const char * const *tool_names)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  g_strfreev (self->breakpoints);
  self->breakpoints = g_strdupv ((char **) tool_names);
}

/**
 * tb_dispatch_loop_get_breakpoints:
 * @self: a loop
 *
 * Gives the tools at which a run pauses for a person, whatever the approval
 * policy.
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the tool names, or %NULL for none
 */
const char * const *
tb_dispatch_loop_get_breakpoints (TbDispatchLoop *self)
{
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (self), NULL);
  return (const char * const *) self->breakpoints;
}

/**
 * tb_dispatch_loop_set_parallel_tool_calls:
 * @self: a loop
 * @parallel: whether calls may come and run several at a time
 *
 * Whether the model may ask for several calls at once (sent to the
 * provider), and whether such calls run concurrently. Default %TRUE.
 */
void
tb_dispatch_loop_set_parallel_tool_calls (TbDispatchLoop *self,
                                          gboolean        parallel)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  parallel = !!parallel;
  if (self->parallel_tool_calls == parallel)
    return;
  self->parallel_tool_calls = parallel;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PARALLEL_TOOL_CALLS]);
}

/**
 * tb_dispatch_loop_set_stream:
 * @self: a loop
 * @stream: whether to ask for the answer as a stream
 *
 * Asks the model for its answers as a stream, so that text and calls arrive
 * as they are written (#TbDispatchLoop:stream).
 */
void
tb_dispatch_loop_set_stream (TbDispatchLoop *self,
                             gboolean        stream)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  stream = !!stream;
  if (self->stream == stream)
    return;
  self->stream = stream;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STREAM]);
}

/**
 * tb_dispatch_loop_set_tool_choice:
 * @tool_choice: (nullable): "auto", "none", "required" or a real tool name
 * @self: a loop
 *
 * Tells the model whether it must, may or must not call a tool, or which
 * one, from the next request on; %NULL leaves it to the provider's default.
 */
void
tb_dispatch_loop_set_tool_choice (TbDispatchLoop *self,
                                  const char     *tool_choice)
{
  g_return_if_fail (TB_IS_DISPATCH_LOOP (self));

  g_free (self->tool_choice);
  self->tool_choice = g_strdup (tool_choice);
}

/* ---- GObject -------------------------------------------------------------- */

static void
tb_dispatch_loop_constructed (GObject *object)
{
  TbDispatchLoop *self = (TbDispatchLoop *)object;

  G_OBJECT_CLASS (tb_dispatch_loop_parent_class)->constructed (object);

  /* There is no unbounded mode: a loop without a cap is a programmer error. */
  if (self->max_iterations == 0)
    {
      g_critical ("TbDispatchLoop:max-iterations is a required construct property of at "
                  "least 1; a loop without a cap is not allowed");
      self->max_iterations = 1;
    }

  if (self->registry == NULL)
    self->registry = tb_tool_registry_new ();
  if (self->trace == NULL)
    self->trace = tb_trace_new ();
  self->messages = _tb_loop_messages_new (self->trace);
  /* Between 1,024 and 2,048 messages stay in memory once the trace is
   * recorded, when the provider does not need them for its requests. */
  if (self->provider != NULL &&
      tb_provider_get_history (self->provider) == TB_PROVIDER_HISTORY_LATEST_TURN)
    _tb_loop_messages_set_window (self->messages, 1024);

  if (self->provider != NULL)
    {
      self->wire_request_id = g_signal_connect (self->provider, "wire-request",
                                                G_CALLBACK (wire_request_cb), self);
      self->wire_response_id = g_signal_connect (self->provider, "wire-response",
                                                 G_CALLBACK (wire_response_cb), self);
    }

  self->mcp = _tb_loop_mcp_new (self->registry, mcp_message_cb, self);
}

static void
tb_dispatch_loop_dispose (GObject *object)
{
  TbDispatchLoop *self = (TbDispatchLoop *)object;

  if (self->provider != NULL)
    {
      g_clear_signal_handler (&self->wire_request_id, self->provider);
      g_clear_signal_handler (&self->wire_response_id, self->provider);
    }
  g_clear_pointer (&self->mcp, _tb_loop_mcp_free);

  G_OBJECT_CLASS (tb_dispatch_loop_parent_class)->dispose (object);
}

static void
tb_dispatch_loop_finalize (GObject *object)
{
  TbDispatchLoop *self = (TbDispatchLoop *)object;

  g_assert (self->task == NULL);

  g_clear_object (&self->registry);
  set_model_tools (self, NULL);
  g_clear_object (&self->provider);
  g_clear_object (&self->trace);
  g_clear_object (&self->messages);
  g_clear_pointer (&self->history, g_ptr_array_unref);
  g_clear_object (&self->pending);
  g_clear_error (&self->error);
  g_clear_error (&self->failure);
  g_clear_pointer (&self->breakpoints, g_strfreev);
  g_clear_pointer (&self->tool_choice, g_free);
  g_clear_object (&self->phase_cancellable);
  g_clear_pointer (&self->call_ids, g_hash_table_unref);

  G_OBJECT_CLASS (tb_dispatch_loop_parent_class)->finalize (object);
}

static void
tb_dispatch_loop_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TbDispatchLoop *self = TB_DISPATCH_LOOP (object);

  switch (prop_id)
    {
    case PROP_REGISTRY:
      g_value_set_object (value, self->registry);
      break;

    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;

    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;

    case PROP_MAX_ITERATIONS:
      g_value_set_uint (value, self->max_iterations);
      break;

    case PROP_ITERATION:
      g_value_set_uint (value, self->iteration);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_APPROVAL_POLICY:
      g_value_set_enum (value, self->policy);
      break;

    case PROP_PARALLEL_TOOL_CALLS:
      g_value_set_boolean (value, self->parallel_tool_calls);
      break;

    case PROP_STREAM:
      g_value_set_boolean (value, self->stream);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_dispatch_loop_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TbDispatchLoop *self = TB_DISPATCH_LOOP (object);

  switch (prop_id)
    {
    case PROP_REGISTRY:
      self->registry = g_value_dup_object (value);
      break;

    case PROP_PROVIDER:
      self->provider = g_value_dup_object (value);
      break;

    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;

    case PROP_MAX_ITERATIONS:
      self->max_iterations = g_value_get_uint (value);
      break;

    case PROP_APPROVAL_POLICY:
      tb_dispatch_loop_set_approval_policy (self, g_value_get_enum (value));
      break;

    case PROP_PARALLEL_TOOL_CALLS:
      tb_dispatch_loop_set_parallel_tool_calls (self, g_value_get_boolean (value));
      break;

    case PROP_STREAM:
      tb_dispatch_loop_set_stream (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_dispatch_loop_class_init (TbDispatchLoopClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags construct_flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                G_PARAM_STATIC_STRINGS;
  GParamFlags rw_flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro_flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = tb_dispatch_loop_constructed;
  object_class->dispose = tb_dispatch_loop_dispose;
  object_class->finalize = tb_dispatch_loop_finalize;
  object_class->get_property = tb_dispatch_loop_get_property;
  object_class->set_property = tb_dispatch_loop_set_property;

  /**
   * TbDispatchLoop:registry:
   *
   * The tools of the run; only its tools for models
   * (tb_tool_registry_get_model_tools()) are offered to the model or callable
   * by it. Construct-only.
   */
  properties [PROP_REGISTRY] =
    g_param_spec_object ("registry", NULL, NULL, TB_TYPE_TOOL_REGISTRY, construct_flags);
  /**
   * TbDispatchLoop:provider:
   *
   * The model the loop asks. Construct-only.
   */
  properties [PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL, TB_TYPE_PROVIDER, construct_flags);
  /**
   * TbDispatchLoop:trace:
   *
   * The trace the loop appends every event of the run to; a new, empty trace
   * when none is given. Construct-only.
   */
  properties [PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, TB_TYPE_TRACE, construct_flags);
  /* Required: construct-only properties get their default when not given,
   * so the default 0 (not a valid cap) is what constructed() refuses. */
  /**
   * TbDispatchLoop:max-iterations:
   *
   * The most requests the loop sends to the model before it stops in
   * %TB_LOOP_STATE_LIMIT_REACHED; at least 1. tb_dispatch_loop_extend() raises
   * it.
   */
  properties [PROP_MAX_ITERATIONS] =
    g_param_spec_uint ("max-iterations", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                       G_PARAM_STATIC_STRINGS);
  /**
   * TbDispatchLoop:iteration:
   *
   * How many requests the loop has sent to the model so far.
   */
  properties [PROP_ITERATION] =
    g_param_spec_uint ("iteration", NULL, NULL, 0, G_MAXUINT, 0, ro_flags);
  /**
   * TbDispatchLoop:state:
   *
   * Where the loop is: ready, waiting for the model, waiting for decisions,
   * running tools, or ended.
   */
  properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TB_TYPE_LOOP_STATE, TB_LOOP_STATE_READY, ro_flags);
  /**
   * TbDispatchLoop:approval-policy:
   *
   * What happens to a call nobody decided; changing it once the run has
   * begun is recorded in the trace as a `policy` event.
   */
  properties [PROP_APPROVAL_POLICY] =
    g_param_spec_enum ("approval-policy", NULL, NULL, TB_TYPE_APPROVAL_POLICY,
                       TB_APPROVAL_POLICY_APPROVE_ALL, rw_flags);
  /**
   * TbDispatchLoop:parallel-tool-calls:
   *
   * Whether the model may ask for several calls at once, and whether they run
   * at the same time. %TRUE by default.
   */
  properties [PROP_PARALLEL_TOOL_CALLS] =
    g_param_spec_boolean ("parallel-tool-calls", NULL, NULL, TRUE, rw_flags);
  /**
   * TbDispatchLoop:stream:
   *
   * Whether the model's answer is asked for as a stream, so that its text and
   * calls arrive as they are written (#TbProvider::text-delta). %FALSE by
   * default.
   */
  properties [PROP_STREAM] =
    g_param_spec_boolean ("stream", NULL, NULL, FALSE, rw_flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbDispatchLoop::call-pending:
   * @self: the loop
   * @call: the call waiting for a decision
   *
   * Emitted for each call to an offered tool when the model's turn
   * arrives. A handler may decide at once; undecided calls follow the
   * #TbDispatchLoop:approval-policy.
   */
  signals [CALL_PENDING] =
    g_signal_new ("call-pending", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, TB_TYPE_PENDING_CALL);

  /**
   * TbDispatchLoop::call-progress:
   * @self: the loop
   * @call: the running call
   * @progress: how far it is, in the tool's own unit
   * @total: what @progress reaches at the end, or -1 when unknown
   * @message: (nullable): what the tool says it is doing, as the tool wrote it
   *
   * The #TbToolRegistry::call-progress of the registry the loop runs its
   * calls with (a copy holding the tools offered to the model), naming
   * the pending call. Views show it until @call's #TbPendingCall:result is
   * set.
   */
  signals [CALL_PROGRESS] =
    g_signal_new ("call-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 4, TB_TYPE_PENDING_CALL,
                  G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TbDispatchLoop::warning:
   * @self: the loop
   * @message: what the person should know
   *
   * Emitted when the run goes on but a person should know something, such as
   * a model that keeps calling tools for many iterations; the trace records
   * it as a `warning` event.
   */
  signals [WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
tb_dispatch_loop_init (TbDispatchLoop *self)
{
  self->history = g_ptr_array_new_with_free_func (g_object_unref);
  self->pending = g_list_store_new (TB_TYPE_PENDING_CALL);
  self->call_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->state = TB_LOOP_STATE_READY;
  self->policy = TB_APPROVAL_POLICY_APPROVE_ALL;
  self->parallel_tool_calls = TRUE;
}
