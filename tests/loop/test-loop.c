/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-loop"

#include "config.h"

#include <string.h>
#include <toolbench.h>
#include "../test-json-util.h"

/* A tool whose result asks the loop to stop. */
#define TEST_TYPE_STOP_TOOL (test_stop_tool_get_type ())
G_DECLARE_FINAL_TYPE (TestStopTool, test_stop_tool, TEST, STOP_TOOL, TbTool)

struct _TestStopTool
{
  TbTool      parent_instance;
  const char *key;
};

G_DEFINE_FINAL_TYPE (TestStopTool, test_stop_tool, TB_TYPE_TOOL)

static void
stop_tool_invoke_async (TbTool              *tool,
                        JsonNode            *arguments,
                        JsonObject          *context,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);
  g_autoptr(JsonObject) metadata = json_object_new ();
  g_autoptr(JsonNode) output = tb_json_node_new_string ("done");

  json_object_set_boolean_member (metadata, TEST_STOP_TOOL (tool)->key, TRUE);
  g_task_return_pointer (task,
                         tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, metadata,
                                                  NULL, 0),
                         g_object_unref);
}

static TbToolResult *
stop_tool_invoke_finish (TbTool        *tool,
                         GAsyncResult  *result,
                         GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_stop_tool_class_init (TestStopToolClass *klass)
{
  TB_TOOL_CLASS (klass)->invoke_async = stop_tool_invoke_async;
  TB_TOOL_CLASS (klass)->invoke_finish = stop_tool_invoke_finish;
}

static void
test_stop_tool_init (TestStopTool *self)
{
}

typedef struct
{
  TbToolRegistry     *registry;
  TbScriptedProvider *provider;
  TbDispatchLoop     *loop;
  guint               echo_calls;
  GArray             *states;
} Fixture;

static JsonNode *
counting_echo (TbTool        *tool,
               JsonObject    *arguments,
               JsonObject    *context,
               GCancellable  *cancellable,
               gpointer       user_data,
               GError       **error)
{
  guint *calls = user_data;

  (*calls)++;
  return tb_json_node_new_string (json_object_get_string_member (arguments, "text"));
}

static JsonNode *
sleeper (TbTool        *tool,
         JsonObject    *arguments,
         JsonObject    *context,
         GCancellable  *cancellable,
         gpointer       user_data,
         GError       **error)
{
  gint64 ms = json_object_get_int_member_with_default (arguments, "ms", 0);
  gint64 deadline = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < deadline)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_usleep (2000);
    }
  return tb_json_node_new_string ("slept");
}

static JsonNode *
never_called (TbTool        *tool,
              JsonObject    *arguments,
              JsonObject    *context,
              GCancellable  *cancellable,
              gpointer       user_data,
              GError       **error)
{
  g_error ("a USER_ONLY tool ran from a model's call");
  return NULL;
}

static void
register_tool (Fixture          *f,
               TbTool           *tool)
{
  g_autoptr(GError) error = NULL;

  tb_tool_registry_register (f->registry, tool, &error);
  g_assert_no_error (error);
  g_object_unref (tool);
}

static void
state_changed (TbDispatchLoop *loop,
               GParamSpec     *pspec,
               Fixture        *f)
{
  TbLoopState state = tb_dispatch_loop_get_state (loop);

  g_array_append_val (f->states, state);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) text_schema =
    test_parse ("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
           "\"required\":[\"text\"],\"additionalProperties\":false}");
  g_autoptr(JsonNode) sleep_schema =
    test_parse ("{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\"}},"
           "\"required\":[\"ms\"]}");
  g_autoptr(JsonNode) empty_schema = test_parse ("{\"type\":\"object\",\"properties\":{}}");

  f->registry = tb_tool_registry_new ();
  f->states = g_array_new (FALSE, FALSE, sizeof (TbLoopState));

  register_tool (f, tb_tool_new_simple ("echo", "Echoes.", text_schema,
                                        TB_TOOL_SIMPLE_FLAGS_NONE, counting_echo,
                                        &f->echo_calls, NULL, &error));
  register_tool (f, tb_tool_new_simple_full ("facts.propose", "Proposes.", text_schema,
                                             TB_TOOL_VISIBILITY_MODEL, "test", 0,
                                             TB_TOOL_SIMPLE_FLAGS_NONE, counting_echo,
                                             &f->echo_calls, NULL, &error));
  register_tool (f, tb_tool_new_simple_full ("facts.commit", "Commits.", text_schema,
                                             TB_TOOL_VISIBILITY_USER_ONLY, "test", 0,
                                             TB_TOOL_SIMPLE_FLAGS_NONE, never_called,
                                             NULL, NULL, &error));
  register_tool (f, tb_tool_new_simple ("sleep", "Sleeps.", sleep_schema,
                                        TB_TOOL_SIMPLE_FLAGS_THREADED, sleeper, NULL, NULL,
                                        &error));
  register_tool (f, tb_tool_new_simple_full ("slow", "Sleeps with a 100 ms limit.", sleep_schema,
                                             TB_TOOL_VISIBILITY_MODEL, "test", 100,
                                             TB_TOOL_SIMPLE_FLAGS_THREADED, sleeper, NULL, NULL,
                                             &error));
  {
    TestStopTool *finish = g_object_new (TEST_TYPE_STOP_TOOL, "name", "finish",
                                         "description", "Ends the run.",
                                         "parameters", empty_schema, NULL);
    TestStopTool *wait = g_object_new (TEST_TYPE_STOP_TOOL, "name", "wait_for_person",
                                       "description", "Pauses the run.",
                                       "parameters", empty_schema, NULL);

    finish->key = "stop_loop";
    wait->key = "pause_loop";
    register_tool (f, TB_TOOL (finish));
    register_tool (f, TB_TOOL (wait));
  }
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  if (f->loop != NULL)
    g_assert_finalize_object (f->loop);
  if (f->provider != NULL)
    g_assert_finalize_object (f->provider);
  g_assert_finalize_object (f->registry);
  g_array_unref (f->states);
}

static void
make_loop (Fixture    *f,
           const char *script,
           guint       max_iterations)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = test_parse (script);

  f->provider = tb_scripted_provider_new_from_json (node, &error);
  g_assert_no_error (error);
  f->loop = tb_dispatch_loop_new (f->registry, TB_PROVIDER (f->provider), max_iterations);
  g_signal_connect (f->loop, "notify::state", G_CALLBACK (state_changed), f);
  tb_dispatch_loop_add_user_message (f->loop, "Please help.", &error);
  g_assert_no_error (error);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static TbLoopState
run (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TbLoopState state;

  tb_dispatch_loop_run_async (f->loop, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  state = tb_dispatch_loop_run_finish (f->loop, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (state, ==, tb_dispatch_loop_get_state (f->loop));
  return state;
}

static gboolean
step (Fixture  *f,
      GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_dispatch_loop_step_async (f->loop, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tb_dispatch_loop_step_finish (f->loop, result, error);
}

static const char *
text_at (Fixture *f,
         guint    position)
{
  g_autoptr(TbMessage) message = g_list_model_get_item (tb_dispatch_loop_get_messages (f->loop),
                                                        position);

  return tb_message_get_text (message);
}

static guint
n_messages (Fixture *f)
{
  return g_list_model_get_n_items (tb_dispatch_loop_get_messages (f->loop));
}

static void
test_single_call (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbMessage) assistant = NULL;
  g_autoptr(TbMessage) tool = NULL;
  TbTrace *trace;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"echo\","
                "\"arguments\":{\"text\":\"hi\"}}]},"
                "{\"text\":\"It said hi.\"}]}", 5);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 1);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 2);

  /* user, assistant with the call, tool result, final answer */
  g_assert_cmpuint (n_messages (f), ==, 4);
  assistant = g_list_model_get_item (tb_dispatch_loop_get_messages (f->loop), 1);
  tool = g_list_model_get_item (tb_dispatch_loop_get_messages (f->loop), 2);
  g_assert_cmpint (tb_message_get_role (assistant), ==, TB_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpint (tb_message_get_role (tool), ==, TB_MESSAGE_ROLE_TOOL);
  g_assert_cmpstr (tb_message_get_tool_call_id (tool), ==, "c1");
  g_assert_cmpstr (tb_message_get_text (tool), ==, "hi");
  g_assert_cmpstr (text_at (f, 3), ==, "It said hi.");

  {
    static const TbLoopState expected[] = {
      TB_LOOP_STATE_AWAITING_MODEL, TB_LOOP_STATE_CALLS_PENDING, TB_LOOP_STATE_RUNNING_TOOLS,
      TB_LOOP_STATE_READY, TB_LOOP_STATE_AWAITING_MODEL, TB_LOOP_STATE_FINISHED,
    };

    g_assert_cmpuint (f->states->len, ==, G_N_ELEMENTS (expected));
    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      g_assert_cmpint (g_array_index (f->states, TbLoopState, i), ==, expected[i]);
  }

  trace = tb_dispatch_loop_get_trace (f->loop);
  g_assert_cmpuint (tb_trace_count (trace, "request"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "response"), ==, 2);
  g_assert_cmpuint (tb_trace_count (trace, "tool-call"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "decision"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "tool-result"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "warning"), ==, 0);
  /* Events are numbered in order and timed monotonically. */
  for (guint i = 1; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *a = tb_trace_get_event (trace, i - 1);
      TbTraceEvent *b = tb_trace_get_event (trace, i);

      g_assert_cmpuint (tb_trace_event_get_seq (b), ==, tb_trace_event_get_seq (a) + 1);
      g_assert_cmpint (tb_trace_event_get_time_us (b), >=, tb_trace_event_get_time_us (a));
    }
  g_assert_true (json_object_has_member (tb_trace_get_header (trace), "tools"));
}

static void
test_step_phases (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"a\"}}]},"
                "{\"text\":\"ok\"}]}", 5);

  g_assert_true (step (f, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_dispatch_loop_get_state (f->loop), ==, TB_LOOP_STATE_CALLS_PENDING);
  g_assert_cmpuint (f->echo_calls, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (tb_dispatch_loop_get_pending_calls (f->loop)), ==,
                    1);

  g_assert_true (step (f, &error));
  g_assert_cmpint (tb_dispatch_loop_get_state (f->loop), ==, TB_LOOP_STATE_READY);
  g_assert_cmpuint (f->echo_calls, ==, 1);

  g_assert_true (step (f, &error));
  g_assert_cmpint (tb_dispatch_loop_get_state (f->loop), ==, TB_LOOP_STATE_FINISHED);

  /* Nothing more to step. */
  g_assert_false (step (f, &error));
  g_assert_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE);
}

static void
test_multi_step (Fixture       *f,
                 gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"1\"}}]},"
                "{\"tool_calls\":[{\"name\":\"facts_propose\",\"arguments\":{\"text\":\"2\"}}]},"
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"3\"}}]},"
                "{\"text\":\"three calls\"}]}", 10);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 3);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 4);
  g_assert_cmpuint (n_messages (f), ==, 8);
  g_assert_cmpstr (text_at (f, 4), ==, "2");
}

static void
test_invalid_then_corrected (Fixture       *f,
                             gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"id\":\"a\",\"name\":\"echo\","
                "\"arguments\":\"{\\\"text\\\":\"}]},"
                "{\"tool_calls\":[{\"id\":\"b\",\"name\":\"echo\",\"arguments\":{\"text\":5}}]},"
                "{\"tool_calls\":[{\"id\":\"c\",\"name\":\"echo\","
                "\"arguments\":{\"text\":\"5\"}}]},"
                "{\"text\":\"fixed\"}]}", 10);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 1);
  g_assert_true (g_str_has_prefix (text_at (f, 2), "Error: The arguments for “echo” are not "
                                                   "valid JSON"));
  g_assert_true (g_str_has_prefix (text_at (f, 4), "Error: The arguments for “echo” are not "
                                                   "valid"));
  g_assert_cmpstr (text_at (f, 6), ==, "5");
}

static void
test_unknown_and_hidden (Fixture       *f,
                         gconstpointer  data)
{
  TbTrace *trace;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":["
                "{\"id\":\"u\",\"name\":\"launch_rockets\",\"arguments\":{}},"
                "{\"id\":\"h1\",\"name\":\"facts.commit\",\"arguments\":{\"text\":\"x\"}},"
                "{\"id\":\"h2\",\"name\":\"facts_commit\",\"arguments\":{\"text\":\"x\"}},"
                "{\"id\":\"n\",\"name\":\"\",\"arguments\":{}}]},"
                "{\"text\":\"I cannot.\"}]}", 5);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_true (g_str_has_prefix (text_at (f, 2),
                                   "Error: There is no tool named “launch_rockets”."));
  g_assert_true (g_str_has_prefix (text_at (f, 3),
                                   "Error: There is no tool named “facts.commit”."));
  g_assert_true (g_str_has_prefix (text_at (f, 4),
                                   "Error: There is no tool named “facts_commit”."));
  g_assert_true (g_str_has_prefix (text_at (f, 5), "Error: The call names no tool."));
  /* The list of available tools never shows the hidden one. */
  g_assert_null (strstr (text_at (f, 3), "facts.commit,"));
  g_assert_nonnull (strstr (text_at (f, 3), "facts.propose"));

  trace = tb_dispatch_loop_get_trace (f->loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);

      if (g_str_equal (tb_trace_event_get_event_type (event), "request"))
        {
          const char *body = json_object_get_string_member (tb_trace_event_get_payload (event),
                                                            "body");
          g_autoptr(JsonNode) sent = test_parse (body);
          g_autofree char *tools =
            tb_json_to_string (json_object_get_member (json_node_get_object (sent), "tools"),
                               FALSE);

          /* The tools offered never include it (the history may quote the model). */
          g_assert_nonnull (strstr (tools, "facts.propose"));
          g_assert_null (strstr (tools, "facts.commit"));
        }
    }
}

/* On the first call: "late" comes, "sleep" goes. */
static void
change_tools_cb (TbDispatchLoop *loop,
                 TbPendingCall  *pending,
                 Fixture        *f)
{
  g_autoptr(JsonNode) schema = test_parse ("{\"type\":\"object\"}");
  g_autoptr(GError) error = NULL;

  if (tb_tool_registry_contains (f->registry, "late"))
    return;
  register_tool (f, tb_tool_new_simple ("late", "Came late.", schema, TB_TOOL_SIMPLE_FLAGS_NONE,
                                        counting_echo, &f->echo_calls, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_unregister (f->registry, "sleep", &error));
  g_assert_no_error (error);
}

/* The request's tool list and the calls the loop accepts follow the
 * registry from one turn to the next: a tool registered during a run is
 * offered and runs in the next turn, one unregistered is neither; with
 * nothing changed, the same tools. */
static void
test_tools_change_between_turns (Fixture       *f,
                                 gconstpointer  data)
{
  TbTrace *trace;
  guint n_requests = 0;
  guint n_offered = 0;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"a\"}}]},"
                "{\"tool_calls\":[{\"name\":\"late\",\"arguments\":{\"text\":\"b\"}},"
                "                 {\"name\":\"sleep\",\"arguments\":{\"ms\":1}}]},"
                "{\"tool_calls\":[{\"name\":\"late\",\"arguments\":{\"text\":\"c\"}}]},"
                "{\"text\":\"Done.\"}]}", 5);
  g_signal_connect (f->loop, "call-pending", G_CALLBACK (change_tools_cb), f);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_true (g_str_has_prefix (text_at (f, 2), "a"));
  g_assert_true (g_str_has_prefix (text_at (f, 4), "b"));
  g_assert_true (g_str_has_prefix (text_at (f, 5), "Error: There is no tool named “sleep”."));
  g_assert_true (g_str_has_prefix (text_at (f, 7), "c"));

  trace = tb_dispatch_loop_get_trace (f->loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      JsonObject *payload = tb_trace_event_get_payload (event);
      const char *type = tb_trace_event_get_event_type (event);

      if (g_str_equal (type, "request"))
        {
          g_autoptr(JsonNode) sent = test_parse (json_object_get_string_member (payload, "body"));
          g_autofree char *tools =
            tb_json_to_string (json_object_get_member (json_node_get_object (sent), "tools"),
                               FALSE);

          /* The first turn before the change, the others after it. */
          n_requests++;
          g_assert_true ((strstr (tools, "\"late\"") != NULL) == (n_requests > 1));
          g_assert_true ((strstr (tools, "\"sleep\"") != NULL) == (n_requests == 1));
        }
      else if (g_str_equal (type, "tool-call") && json_object_get_boolean_member (payload, "offered"))
        n_offered++;
    }
  g_assert_cmpuint (n_requests, ==, 4);
  /* echo, late and late again; sleep was not offered any more. */
  g_assert_cmpuint (n_offered, ==, 3);
}

static void
test_tool_timeout (Fixture       *f,
                   gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"slow\",\"arguments\":{\"ms\":2000}}]},"
                "{\"text\":\"It timed out.\"}]}", 5);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_true (g_str_has_prefix (text_at (f, 2), "Error: "));
  g_assert_nonnull (strstr (text_at (f, 2), "100 ms"));
}

static void
test_stop_loop (Fixture       *f,
                gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"finish\",\"arguments\":{}}]},"
                "{\"text\":\"never asked\"}]}", 5);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 1);
  g_assert_cmpuint (tb_scripted_provider_get_position (f->provider), ==, 1);
  g_assert_cmpstr (text_at (f, 2), ==, "done");
}

static void
count_warning (TbDispatchLoop *loop,
               const char     *message,
               guint          *count)
{
  g_assert_nonnull (strstr (message, "iteration 5 of 7"));
  (*count)++;
}

static void
test_pause_loop (Fixture       *f,
                 gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"wait_for_person\",\"arguments\":{}}]},"
                "{\"text\":\"resumed\"}]}", 5);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_READY);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 1);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpstr (text_at (f, 3), ==, "resumed");
}

static void
cancel_in_handler (TbDispatchLoop *loop,
                   TbPendingCall  *pending,
                   gpointer        user_data)
{
  tb_dispatch_loop_cancel (loop);
}

static void
test_cancel_in_handler (Fixture       *f,
                        gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}}]},"
                "{\"text\":\"never\"}]}", 5);
  g_signal_connect (f->loop, "call-pending", G_CALLBACK (cancel_in_handler), NULL);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CANCELLED);
  g_assert_cmpuint (f->echo_calls, ==, 0);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (f->loop), "end"), ==, 1);
}

static void
test_cap_and_extend (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TbTrace *trace;
  guint warnings = 0;
  guint signalled = 0;

  make_loop (f, "{\"repeat\":true,\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"again\"}}]}]}", 3);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_LIMIT_REACHED);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 3);
  g_assert_cmpuint (f->echo_calls, ==, 3);

  /* Running on needs the person's explicit extension. */
  {
    g_autoptr(GAsyncResult) result = NULL;

    tb_dispatch_loop_run_async (f->loop, NULL, result_cb, &result);
    while (result == NULL)
      g_main_context_iteration (NULL, TRUE);
    tb_dispatch_loop_run_finish (f->loop, result, &error);
    g_assert_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE);
    g_clear_error (&error);
  }

  g_assert_true (tb_dispatch_loop_extend (f->loop, 4, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_dispatch_loop_get_state (f->loop), ==, TB_LOOP_STATE_READY);
  g_signal_connect (f->loop, "warning", G_CALLBACK (count_warning), &signalled);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_LIMIT_REACHED);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 7);
  g_assert_cmpuint (tb_dispatch_loop_get_max_iterations (f->loop), ==, 7);

  trace = tb_dispatch_loop_get_trace (f->loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);

      if (g_str_equal (tb_trace_event_get_event_type (event), "warning"))
        {
          warnings++;
          g_assert_cmpint (json_object_get_int_member (tb_trace_event_get_payload (event),
                                                       "iteration"), ==, 5);
        }
    }
  g_assert_cmpuint (warnings, ==, 1);
  g_assert_cmpuint (signalled, ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 2);
}

static gboolean
cancel_soon (gpointer user_data)
{
  tb_dispatch_loop_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel_mid_request (Fixture       *f,
                         gconstpointer  data)
{
  gint64 start;

  make_loop (f, "{\"responses\":[{\"delay_ms\":10000,\"text\":\"too late\"}]}", 5);

  start = g_get_monotonic_time ();
  g_timeout_add (50, cancel_soon, f->loop);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_cmpuint (n_messages (f), ==, 1);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (f->loop), "request"), ==, 1);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (f->loop), "end"), ==, 1);
}

static void
test_cancel_mid_tools (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbMessage) result = NULL;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"id\":\"s\",\"name\":\"sleep\",\"arguments\":{\"ms\":5000}}]},"
                "{\"text\":\"never\"}]}", 5);

  g_timeout_add (100, cancel_soon, f->loop);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CANCELLED);
  /* The call is still answered, so the conversation stays valid. */
  g_assert_cmpuint (n_messages (f), ==, 3);
  result = g_list_model_get_item (tb_dispatch_loop_get_messages (f->loop), 2);
  g_assert_cmpstr (tb_message_get_tool_call_id (result), ==, "s");
  g_assert_true (tb_message_get_is_error (result));
}

static void
test_parallel (Fixture       *f,
               gconstpointer  data)
{
  gint64 start;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":["
                "{\"id\":\"p1\",\"name\":\"sleep\",\"arguments\":{\"ms\":300}},"
                "{\"id\":\"p2\",\"name\":\"echo\",\"arguments\":{\"text\":\"fast\"}},"
                "{\"id\":\"p3\",\"name\":\"sleep\",\"arguments\":{\"ms\":300}}]},"
                "{\"text\":\"all done\"}]}", 5);

  start = g_get_monotonic_time ();
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  /* Concurrent: well under the 600 ms the two sleeps take in sequence. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 550 * 1000);

  /* Results in call order, whatever order they finished in. */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(TbMessage) message = g_list_model_get_item (tb_dispatch_loop_get_messages (f->loop),
                                                            2 + i);
      g_autofree char *id = g_strdup_printf ("p%u", i + 1);

      g_assert_cmpstr (tb_message_get_tool_call_id (message), ==, id);
    }
  g_assert_cmpstr (text_at (f, 3), ==, "fast");
}

static void
count_notify (guint *count)
{
  (*count)++;
}

static void
decide (TbDispatchLoop *loop,
        TbPendingCall  *pending,
        Fixture        *f)
{
  TbToolCall *call = tb_pending_call_get_call (pending);
  const char *id = tb_tool_call_get_id (call);
  g_autoptr(GError) error = NULL;

  if (g_str_equal (id, "edit"))
    {
      g_autoptr(JsonNode) bad = test_parse ("{\"text\":7}");
      g_autoptr(JsonNode) good = test_parse ("{\"text\":\"edited\"}");

      g_assert_false (tb_pending_call_edit (pending, bad, &error));
      g_assert_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID);
      g_assert_cmpint (tb_pending_call_get_decision (pending), ==, TB_CALL_DECISION_UNDECIDED);
      g_assert_true (tb_pending_call_edit (pending, good, NULL));
    }
  else if (g_str_equal (id, "skip"))
    {
      g_autoptr(JsonNode) output = test_parse ("{\"handwritten\":true}");

      tb_pending_call_skip (pending, output);
    }
  else if (g_str_equal (id, "reject"))
    {
      tb_pending_call_reject (pending, "not today");
    }
  else if (g_str_equal (id, "answer"))
    {
      g_autoptr(TbToolResult) recorded =
        tb_tool_result_new_failure (TB_TOOL_FAILURE_TIMEOUT, "recorded timeout");

      tb_pending_call_answer (pending, recorded);
    }
  else
    {
      tb_pending_call_approve (pending);
    }
}

static void
test_decisions (Fixture       *f,
                gconstpointer  data)
{
  TbTrace *trace;
  guint decisions = 0;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":["
                "{\"id\":\"approve\",\"name\":\"echo\",\"arguments\":{\"text\":\"as sent\"}},"
                "{\"id\":\"edit\",\"name\":\"echo\",\"arguments\":{\"text\":\"original\"}},"
                "{\"id\":\"skip\",\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}},"
                "{\"id\":\"reject\",\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}},"
                "{\"id\":\"answer\",\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}}]},"
                "{\"text\":\"ok\"}]}", 5);
  tb_dispatch_loop_set_approval_policy (f->loop, TB_APPROVAL_POLICY_ASK);
  g_signal_connect (f->loop, "call-pending", G_CALLBACK (decide), f);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 2);
  g_assert_cmpstr (text_at (f, 2), ==, "as sent");
  g_assert_cmpstr (text_at (f, 3), ==, "edited");
  g_assert_cmpstr (text_at (f, 4), ==, "{\"handwritten\":true}");
  g_assert_cmpstr (text_at (f, 5), ==,
                   "Error: The person declined the call of “echo”: not today");
  g_assert_cmpstr (text_at (f, 6), ==, "Error: recorded timeout");

  trace = tb_dispatch_loop_get_trace (f->loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      JsonObject *payload = tb_trace_event_get_payload (event);

      if (!g_str_equal (tb_trace_event_get_event_type (event), "decision"))
        continue;
      g_assert_cmpstr (json_object_get_string_member (payload, "by"), ==, "person");
      if (g_str_equal (json_object_get_string_member (payload, "call_id"), "answer"))
        g_assert_cmpstr (json_object_get_string_member (payload, "decision"), ==, "skip");
      else
        g_assert_cmpstr (json_object_get_string_member (payload, "decision"), ==,
                         json_object_get_string_member (payload, "call_id"));
      /* Both sides of the edit. */
      if (g_str_equal (json_object_get_string_member (payload, "call_id"), "edit"))
        {
          JsonObject *ran = json_object_get_object_member (payload, "arguments");
          JsonObject *sent = json_object_get_object_member (payload, "model_arguments");

          g_assert_cmpstr (json_object_get_string_member (ran, "text"), ==, "edited");
          g_assert_cmpstr (json_object_get_string_member (sent, "text"), ==, "original");
        }
      decisions++;
    }
  g_assert_cmpuint (decisions, ==, 5);
}

/* A decision replaces the one before it entirely: approving after an edit
 * runs the model's arguments, and a withdrawn decision is the policy's. */
static void
test_redecide (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbPendingCall) first = NULL;
  g_autoptr(TbPendingCall) second = NULL;
  g_autoptr(JsonNode) edited = test_parse ("{\"text\":\"edited\"}");
  g_autoptr(JsonNode) wrong = test_parse ("{\"text\":7}");
  g_autoptr(GError) error = NULL;
  guint notified = 0;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":["
                "{\"id\":\"one\",\"name\":\"echo\",\"arguments\":{\"text\":\"as sent\"}},"
                "{\"id\":\"two\",\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}}]},"
                "{\"text\":\"ok\"}]}", 5);
  tb_dispatch_loop_set_approval_policy (f->loop, TB_APPROVAL_POLICY_ASK);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CALLS_PENDING);
  first = g_list_model_get_item (tb_dispatch_loop_get_pending_calls (f->loop), 0);
  second = g_list_model_get_item (tb_dispatch_loop_get_pending_calls (f->loop), 1);
  g_signal_connect_swapped (first, "notify::decision", G_CALLBACK (count_notify), &notified);

  g_assert_true (tb_pending_call_edit (first, edited, NULL));
  tb_pending_call_approve (first);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_true (tb_json_equal (tb_pending_call_get_arguments (first),
                                tb_pending_call_get_model_arguments (first)));
  tb_pending_call_undecide (first);
  g_assert_cmpint (tb_pending_call_get_decision (first), ==, TB_CALL_DECISION_UNDECIDED);
  g_assert_false (step (f, &error));
  g_assert_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_UNDECIDED);
  g_clear_error (&error);
  tb_pending_call_approve (first);

  /* Run Anyway: what the schema refuses still runs, and the tool's
   * validation answers the model. */
  g_assert_false (tb_pending_call_edit (second, wrong, NULL));
  g_assert_true (tb_pending_call_edit_anyway (second, wrong, NULL));
  g_assert_cmpint (tb_pending_call_get_decision (second), ==, TB_CALL_DECISION_EDIT);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 1);
  g_assert_cmpstr (text_at (f, 2), ==, "as sent");
  g_assert_true (g_str_has_prefix (text_at (f, 3), "Error: "));
}

static void
test_ask_waits (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbPendingCall) pending = NULL;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}}]},"
                "{\"text\":\"ok\"}]}", 5);
  tb_dispatch_loop_set_approval_policy (f->loop, TB_APPROVAL_POLICY_ASK);

  /* Nobody decided: the run pauses and a step refuses. */
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CALLS_PENDING);
  g_assert_false (step (f, &error));
  g_assert_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_UNDECIDED);
  g_assert_nonnull (strstr (error->message, "1 call waits for a decision"));

  pending = g_list_model_get_item (tb_dispatch_loop_get_pending_calls (f->loop), 0);
  tb_pending_call_approve (pending);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 1);
}

static void
test_reject_all (Fixture       *f,
                 gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"x\"}}]},"
                "{\"text\":\"ok\"}]}", 5);
  tb_dispatch_loop_set_approval_policy (f->loop, TB_APPROVAL_POLICY_REJECT_ALL);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 0);
  g_assert_true (g_str_has_prefix (text_at (f, 2), "Error: The person declined"));
}

static void
test_breakpoint (Fixture       *f,
                 gconstpointer  data)
{
  const char *breakpoints[] = { "facts.propose", NULL };

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"1\"}}]},"
                "{\"tool_calls\":[{\"name\":\"facts_propose\",\"arguments\":{\"text\":\"2\"}}]},"
                "{\"text\":\"ok\"}]}", 5);
  tb_dispatch_loop_set_breakpoints (f->loop, breakpoints);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CALLS_PENDING);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 2);
  g_assert_cmpuint (f->echo_calls, ==, 1);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 2);
}

static void
test_manual_turn (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbMessage) turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(JsonNode) args = test_parse ("{\"text\":\"by hand\"}");
  g_autoptr(TbToolCall) call = tb_tool_call_new (NULL, "echo", args);

  make_loop (f, "{\"responses\":[{\"text\":\"after the manual turn\"}]}", 5);
  tb_message_add_tool_call (turn, call);

  g_assert_true (tb_dispatch_loop_submit_model_turn (f->loop, turn, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_dispatch_loop_get_state (f->loop), ==, TB_LOOP_STATE_CALLS_PENDING);
  g_assert_cmpuint (tb_scripted_provider_get_position (f->provider), ==, 0);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpstr (text_at (f, 2), ==, "by hand");
  g_assert_cmpstr (text_at (f, 3), ==, "after the manual turn");
}

static void
test_duplicate_ids (Fixture       *f,
                    gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":["
                "{\"id\":\"d\",\"name\":\"echo\",\"arguments\":{\"text\":\"1\"}},"
                "{\"id\":\"d\",\"name\":\"echo\",\"arguments\":{\"text\":\"2\"}}]}]}", 5);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FAILED);
  g_assert_cmpuint (f->echo_calls, ==, 0);
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (f->loop)->message, "same id “d”"));
}

static void
test_missing_ids (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbMessage) turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(JsonNode) args = test_parse ("{\"text\":\"x\"}");
  g_autoptr(TbToolCall) first = tb_tool_call_new (NULL, "echo", args);
  g_autoptr(TbToolCall) second = tb_tool_call_new ("", "echo", args);
  g_autoptr(TbMessage) answer = NULL;

  make_loop (f, "{\"responses\":[{\"text\":\"ok\"}]}", 5);
  tb_message_add_tool_call (turn, first);
  tb_message_add_tool_call (turn, second);
  /* The manual path names calls itself; the loop still guards the rest. */
  g_assert_true (tb_dispatch_loop_submit_model_turn (f->loop, turn, &error));
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  answer = g_list_model_get_item (tb_dispatch_loop_get_messages (f->loop), 3);
  g_assert_nonnull (tb_message_get_tool_call_id (answer));
  g_assert_cmpstr (tb_message_get_tool_call_id (answer), !=, "");
}

static void
test_script_exhausted (Fixture       *f,
                       gconstpointer  data)
{
  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":[{\"name\":\"echo\",\"arguments\":{\"text\":\"1\"}}]}]}", 5);

  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FAILED);
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (f->loop)->message,
                            "no response left"));
  /* Everything recorded before the failure is kept. */
  g_assert_cmpuint (n_messages (f), ==, 3);
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (f->loop), "error"), ==, 1);
}

static void
test_followup_turn (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  make_loop (f, "{\"responses\":[{\"text\":\"first\"},{\"text\":\"second\"}]}", 5);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_true (tb_dispatch_loop_add_user_message (f->loop, "And now?", &error));
  g_assert_cmpint (tb_dispatch_loop_get_state (f->loop), ==, TB_LOOP_STATE_READY);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpstr (text_at (f, 3), ==, "second");
}

static void
test_restore (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) history = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(JsonNode) args = test_parse ("{\"text\":\"one\"}");
  g_autoptr(TbToolCall) call = tb_tool_call_new ("r1", "echo", args);
  TbMessage *assistant;

  make_loop (f, "{\"responses\":[{\"text\":\"continued\"}]}", 5);
  g_clear_object (&f->loop);
  f->loop = tb_dispatch_loop_new (f->registry, TB_PROVIDER (f->provider), 5);

  g_ptr_array_add (history, tb_message_new (TB_MESSAGE_ROLE_USER, "Echo one."));
  assistant = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  tb_message_add_tool_call (assistant, call);
  g_ptr_array_add (history, assistant);

  /* An unanswered call is refused, and nothing is taken. */
  g_assert_false (tb_dispatch_loop_restore (f->loop, history, 1, &error));
  g_assert_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "have no results"));
  g_clear_error (&error);
  g_assert_cmpuint (n_messages (f), ==, 0);

  /* With an edited result the fork continues from there. */
  g_ptr_array_add (history, tb_message_new_tool_result ("r1", "echo", "edited result", FALSE));
  g_assert_true (tb_dispatch_loop_restore (f->loop, history, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 1);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (n_messages (f), ==, 4);
  g_assert_cmpstr (text_at (f, 3), ==, "continued");
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 2);
}

static void
test_cap_required (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
      g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new ();
      g_autoptr(GObject) loop = g_object_new (TB_TYPE_DISPATCH_LOOP, "registry", registry,
                                              "provider", provider, NULL);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*max-iterations is a required construct property*");
}

static void
test_demo_script (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  tb_demo_tools_register (f->registry, &error);
  /* "echo" and "sleep" exist already in this fixture: use a fresh registry. */
  g_clear_error (&error);
  {
    g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
    g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_demo ();
    g_autoptr(GAsyncResult) result = NULL;

    tb_demo_tools_register (registry, &error);
    g_assert_no_error (error);
    f->loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), 10);
    tb_dispatch_loop_add_user_message (f->loop, "What is 2 + 3?", &error);
    g_assert_no_error (error);
    g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
    g_assert_cmpstr (text_at (f, 2), ==, "5");
    g_assert_cmpstr (text_at (f, 4), ==, "2 + 3 = 5");
    g_assert_cmpuint (tb_dispatch_loop_get_iteration (f->loop), ==, 3);
    g_clear_object (&f->loop);
  }
}

/* Read-only tools run under the read-only policy, the others wait; a tool
 * marked destructive waits even when every call is approved; the person's
 * word on a tool outranks its own; the trace header names the policy. */
static void
test_read_only_policy (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbPendingCall) waiting = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func (g_free);
  const char * const expected_changes[] = { "read-only", "approve-all", NULL };
  gboolean overridden = TRUE;
  JsonObject *header;
  TbTrace *trace;

  make_loop (f, "{\"responses\":["
                "{\"tool_calls\":["
                "{\"id\":\"reads\",\"name\":\"echo\",\"arguments\":{\"text\":\"a\"}},"
                "{\"id\":\"writes\",\"name\":\"facts.propose\",\"arguments\":{\"text\":\"b\"}}]},"
                "{\"tool_calls\":["
                "{\"id\":\"wipes\",\"name\":\"echo\",\"arguments\":{\"text\":\"c\"}}]},"
                "{\"text\":\"ok\"}]}", 5);
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "echo", &overridden), ==,
                   TB_TOOL_HINT_NONE);
  g_assert_false (overridden);
  tb_tool_registry_set_hints (f->registry, "echo", TB_TOOL_HINT_READ_ONLY);
  g_assert_cmpint (tb_tool_registry_get_hints (f->registry, "echo", &overridden), ==,
                   TB_TOOL_HINT_READ_ONLY);
  g_assert_true (overridden);
  tb_dispatch_loop_set_approval_policy (f->loop, TB_APPROVAL_POLICY_READ_ONLY);

  /* echo is read-only and waits for nobody; facts.propose is not. */
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CALLS_PENDING);
  g_assert_cmpuint (g_list_model_get_n_items (tb_dispatch_loop_get_pending_calls (f->loop)), ==, 2);
  {
    g_autoptr(TbPendingCall) reads = g_list_model_get_item (tb_dispatch_loop_get_pending_calls (f->loop),
                                                            0);

    g_assert_false (tb_dispatch_loop_call_waits_for_person (f->loop, reads));
  }
  waiting = g_list_model_get_item (tb_dispatch_loop_get_pending_calls (f->loop), 1);
  g_assert_true (tb_dispatch_loop_call_waits_for_person (f->loop, waiting));
  g_assert_false (step (f, &error));
  g_assert_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_UNDECIDED);
  g_assert_cmpstr (error->message, ==, "1 call waits for a decision: approve, edit, skip or "
                                       "reject it.");
  g_clear_error (&error);
  tb_pending_call_approve (waiting);
  g_clear_object (&waiting);
  g_assert_true (step (f, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_dispatch_loop_get_state (f->loop), ==, TB_LOOP_STATE_READY);

  /* Marked destructive by the person, echo waits under approve-all too. */
  tb_tool_registry_set_hints (f->registry, "echo", TB_TOOL_HINT_DESTRUCTIVE);
  tb_dispatch_loop_set_approval_policy (f->loop, TB_APPROVAL_POLICY_APPROVE_ALL);
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_CALLS_PENDING);
  g_assert_cmpuint (f->echo_calls, ==, 2);
  waiting = g_list_model_get_item (tb_dispatch_loop_get_pending_calls (f->loop), 0);
  g_assert_cmpstr (tb_tool_call_get_id (tb_pending_call_get_call (waiting)), ==, "wipes");
  g_assert_true (tb_dispatch_loop_call_waits_for_person (f->loop, waiting));
  /* Going back to the tool's own word lets it run. */
  tb_tool_registry_unset_hints (f->registry, "echo");
  g_assert_false (tb_dispatch_loop_call_waits_for_person (f->loop, waiting));
  g_assert_cmpint (run (f), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (f->echo_calls, ==, 3);

  /* The header names the policy the run started with, an event each change. */
  trace = tb_dispatch_loop_get_trace (f->loop);
  header = tb_trace_get_header (trace);
  g_assert_cmpstr (json_object_get_string_member (header, "approval_policy"), ==, "approve-all");
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);

      if (g_str_equal (tb_trace_event_get_event_type (event), "policy"))
        g_ptr_array_add (changes, g_strdup (json_object_get_string_member (
                                              tb_trace_event_get_payload (event),
                                              "approval_policy")));
    }
  g_ptr_array_add (changes, NULL);
  g_assert_cmpstrv ((char **) changes->pdata, expected_changes);
}

static void
test_hint_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TbToolHints hints = TB_TOOL_HINT_NONE;
  TbApprovalPolicy policy;

  g_assert_true (tb_tool_hints_from_string (" read-only, open-world", &hints, &error));
  g_assert_cmpint (hints, ==, TB_TOOL_HINT_READ_ONLY | TB_TOOL_HINT_OPEN_WORLD);
  text = tb_tool_hints_to_string (hints);
  g_assert_cmpstr (text, ==, "read-only,open-world");
  g_assert_true (tb_tool_hints_from_string ("", &hints, &error));
  g_assert_cmpint (hints, ==, TB_TOOL_HINT_NONE);
  g_assert_false (tb_tool_hints_from_string ("readonly", &hints, &error));
  g_assert_cmpstr (error->message, ==, "“readonly” is not a tool hint; use read-only, "
                                       "destructive, idempotent, open-world or none");
  g_assert_true (tb_approval_policy_from_string ("read-only", &policy));
  g_assert_cmpint (policy, ==, TB_APPROVAL_POLICY_READ_ONLY);
  g_assert_cmpstr (tb_approval_policy_to_string (TB_APPROVAL_POLICY_ASK), ==, "ask");
  g_assert_false (tb_approval_policy_from_string ("sometimes", &policy));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/loop/single-call", Fixture, NULL, setup, test_single_call, teardown);
  g_test_add ("/loop/step-phases", Fixture, NULL, setup, test_step_phases, teardown);
  g_test_add ("/loop/multi-step", Fixture, NULL, setup, test_multi_step, teardown);
  g_test_add ("/loop/invalid-then-corrected", Fixture, NULL, setup, test_invalid_then_corrected,
              teardown);
  g_test_add ("/loop/tools-change-between-turns", Fixture, NULL, setup,
              test_tools_change_between_turns, teardown);
  g_test_add ("/loop/unknown-and-hidden", Fixture, NULL, setup, test_unknown_and_hidden,
              teardown);
  g_test_add ("/loop/tool-timeout", Fixture, NULL, setup, test_tool_timeout, teardown);
  g_test_add ("/loop/stop-loop", Fixture, NULL, setup, test_stop_loop, teardown);
  g_test_add ("/loop/cap-and-extend", Fixture, NULL, setup, test_cap_and_extend, teardown);
  g_test_add ("/loop/cancel-mid-request", Fixture, NULL, setup, test_cancel_mid_request,
              teardown);
  g_test_add ("/loop/cancel-mid-tools", Fixture, NULL, setup, test_cancel_mid_tools, teardown);
  g_test_add ("/loop/parallel", Fixture, NULL, setup, test_parallel, teardown);
  g_test_add ("/loop/decisions", Fixture, NULL, setup, test_decisions, teardown);
  g_test_add ("/loop/redecide", Fixture, NULL, setup, test_redecide, teardown);
  g_test_add ("/loop/read-only-policy", Fixture, NULL, setup, test_read_only_policy, teardown);
  g_test_add_func ("/loop/hint-names", test_hint_names);
  g_test_add ("/loop/ask-waits", Fixture, NULL, setup, test_ask_waits, teardown);
  g_test_add ("/loop/reject-all", Fixture, NULL, setup, test_reject_all, teardown);
  g_test_add ("/loop/breakpoint", Fixture, NULL, setup, test_breakpoint, teardown);
  g_test_add ("/loop/manual-turn", Fixture, NULL, setup, test_manual_turn, teardown);
  g_test_add ("/loop/duplicate-ids", Fixture, NULL, setup, test_duplicate_ids, teardown);
  g_test_add ("/loop/script-exhausted", Fixture, NULL, setup, test_script_exhausted, teardown);
  g_test_add ("/loop/missing-ids", Fixture, NULL, setup, test_missing_ids, teardown);
  g_test_add ("/loop/followup-turn", Fixture, NULL, setup, test_followup_turn, teardown);
  g_test_add ("/loop/demo-script", Fixture, NULL, setup, test_demo_script, teardown);
  g_test_add ("/loop/restore", Fixture, NULL, setup, test_restore, teardown);
  g_test_add ("/loop/pause-loop", Fixture, NULL, setup, test_pause_loop, teardown);
  g_test_add ("/loop/cancel-in-handler", Fixture, NULL, setup, test_cancel_in_handler,
              teardown);
  g_test_add_func ("/loop/cap-required", test_cap_required);

  return g_test_run ();
}
