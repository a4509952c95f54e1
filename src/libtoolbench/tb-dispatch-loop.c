/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include "tb-dispatch-loop-private.h"

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
G_DEFINE_FINAL_TYPE (TbDispatchLoop, tb_dispatch_loop, G_TYPE_OBJECT)
/**
 * tb_loop_error_quark:
 *
 * The error domain of #TbLoopError.
 *
 * Returns: the quark of %TB_LOOP_ERROR
 */
G_DEFINE_QUARK (tb-loop-error-quark, tb_loop_error)

GParamSpec *_tb_dispatch_loop_properties [N_PROPS];
guint _tb_dispatch_loop_signals [N_SIGNALS];

void
_tb_dispatch_loop_set_state (TbDispatchLoop *self,
                             TbLoopState     state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), _tb_dispatch_loop_properties [PROP_STATE]);
}

/* Sets one of the loop's switches, telling who watches it when it changes. */
static void
set_flag (TbDispatchLoop *self,
          gboolean       *flag,
          gboolean        value,
          guint           prop_id)
{
  value = !!value;
  if (*flag == value)
    return;
  *flag = value;
  g_object_notify_by_pspec (G_OBJECT (self), _tb_dispatch_loop_properties [prop_id]);
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

  set_flag (self, &self->parallel_tool_calls, parallel, PROP_PARALLEL_TOOL_CALLS);
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

  set_flag (self, &self->stream, stream, PROP_STREAM);
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

  _tb_dispatch_loop_watch (self);
}

static void
tb_dispatch_loop_dispose (GObject *object)
{
  TbDispatchLoop *self = (TbDispatchLoop *)object;

  _tb_dispatch_loop_unwatch (self);

  G_OBJECT_CLASS (tb_dispatch_loop_parent_class)->dispose (object);
}

static void
tb_dispatch_loop_finalize (GObject *object)
{
  TbDispatchLoop *self = (TbDispatchLoop *)object;

  g_assert (self->task == NULL);

  g_clear_object (&self->registry);
  _tb_dispatch_loop_set_model_tools (self, NULL);
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
  _tb_dispatch_loop_properties [PROP_REGISTRY] =
    g_param_spec_object ("registry", NULL, NULL, TB_TYPE_TOOL_REGISTRY, construct_flags);
  /**
   * TbDispatchLoop:provider:
   *
   * The model the loop asks. Construct-only.
   */
  _tb_dispatch_loop_properties [PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL, TB_TYPE_PROVIDER, construct_flags);
  /**
   * TbDispatchLoop:trace:
   *
   * The trace the loop appends every event of the run to; a new, empty trace
   * when none is given. Construct-only.
   */
  _tb_dispatch_loop_properties [PROP_TRACE] =
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
  _tb_dispatch_loop_properties [PROP_MAX_ITERATIONS] =
    g_param_spec_uint ("max-iterations", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                       G_PARAM_STATIC_STRINGS);
  /**
   * TbDispatchLoop:iteration:
   *
   * How many requests the loop has sent to the model so far.
   */
  _tb_dispatch_loop_properties [PROP_ITERATION] =
    g_param_spec_uint ("iteration", NULL, NULL, 0, G_MAXUINT, 0, ro_flags);
  /**
   * TbDispatchLoop:state:
   *
   * Where the loop is: ready, waiting for the model, waiting for decisions,
   * running tools, or ended.
   */
  _tb_dispatch_loop_properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, TB_TYPE_LOOP_STATE, TB_LOOP_STATE_READY, ro_flags);
  /**
   * TbDispatchLoop:approval-policy:
   *
   * What happens to a call nobody decided; changing it once the run has
   * begun is recorded in the trace as a `policy` event.
   */
  _tb_dispatch_loop_properties [PROP_APPROVAL_POLICY] =
    g_param_spec_enum ("approval-policy", NULL, NULL, TB_TYPE_APPROVAL_POLICY,
                       TB_APPROVAL_POLICY_APPROVE_ALL, rw_flags);
  /**
   * TbDispatchLoop:parallel-tool-calls:
   *
   * Whether the model may ask for several calls at once, and whether they run
   * at the same time. %TRUE by default.
   */
  _tb_dispatch_loop_properties [PROP_PARALLEL_TOOL_CALLS] =
    g_param_spec_boolean ("parallel-tool-calls", NULL, NULL, TRUE, rw_flags);
  /**
   * TbDispatchLoop:stream:
   *
   * Whether the model's answer is asked for as a stream, so that its text and
   * calls arrive as they are written (#TbProvider::text-delta). %FALSE by
   * default.
   */
  _tb_dispatch_loop_properties [PROP_STREAM] =
    g_param_spec_boolean ("stream", NULL, NULL, FALSE, rw_flags);

  g_object_class_install_properties (object_class, N_PROPS, _tb_dispatch_loop_properties);

  /**
   * TbDispatchLoop::call-pending:
   * @self: the loop
   * @call: the call waiting for a decision
   *
   * Emitted for each call to an offered tool when the model's turn
   * arrives. A handler may decide at once; undecided calls follow the
   * #TbDispatchLoop:approval-policy.
   */
  _tb_dispatch_loop_signals [CALL_PENDING] =
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
  _tb_dispatch_loop_signals [CALL_PROGRESS] =
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
  _tb_dispatch_loop_signals [WARNING] =
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
