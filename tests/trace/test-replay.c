/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>
#include "../test-json-util.h"

/* A three-turn run: echo and add in parallel, then add again, then an
 * answer. Recorded to a file, loaded back, replayed and forked. */
static const char *script_text =
  "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
  " {\"text\":\"Working.\",\"tool_calls\":["
  "   {\"id\":\"c1\",\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}},"
  "   {\"id\":\"c2\",\"name\":\"add\",\"arguments\":{\"a\":1,\"b\":2}}]},"
  " {\"tool_calls\":[{\"id\":\"c3\",\"name\":\"add\",\"arguments\":{\"a\":3,\"b\":4}}]},"
  " {\"text\":\"3 and 7.\"}]}";

typedef struct
{
  char      *dir;
  char      *path;
  GMainLoop *main_loop;
  TbTrace   *recorded;
} Fixture;

static void
loop_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, &error);
  g_assert_no_error (error);
  g_main_loop_quit (user_data);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(JsonNode) script = test_parse (script_text);
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autoptr(GFile) file = NULL;
  g_auto(GStrv) problems = NULL;

  f->dir = g_dir_make_tmp ("toolbench-replay-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "recorded.jsonl", NULL);
  f->main_loop = g_main_loop_new (NULL, FALSE);
  file = g_file_new_for_path (f->path);

  g_assert_true (tb_demo_tools_register (registry, NULL));
  provider = tb_scripted_provider_new_from_json (script, &error);
  g_assert_no_error (error);
  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), 5);
  tb_dispatch_loop_set_approval_policy (loop, TB_APPROVAL_POLICY_APPROVE_ALL);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), file, NULL);

  g_assert_true (tb_dispatch_loop_add_user_message (loop, "Echo hi, add 1+2, then 3+4.", &error));
  tb_dispatch_loop_run_async (loop, NULL, loop_done, f->main_loop);
  g_main_loop_run (f->main_loop);
  g_assert_cmpint (tb_dispatch_loop_get_state (loop), ==, TB_LOOP_STATE_FINISHED);

  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);
  g_assert_null (tb_trace_recorder_get_error (recorder));

  /* What the app or the CLI reopens is the file, not the memory. */
  f->recorded = tb_trace_load (file, NULL, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (tb_trace_get_n_events (f->recorded), ==,
                    tb_trace_get_n_events (tb_dispatch_loop_get_trace (loop)));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_assert_finalize_object (f->recorded);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_main_loop_unref (f->main_loop);
}

static void
replay_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TbReplayReport **report = user_data;
  g_autoptr(GError) error = NULL;

  *report = tb_replay_run_finish (TB_REPLAY (object), result, &error);
  g_assert_no_error (error);
}

static void
replay_done_error (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GError **error = user_data;
  g_autoptr(TbReplayReport) report = tb_replay_run_finish (TB_REPLAY (object), result, error);

  g_assert_null (report);
}

/* Runs @replay of @recorded. The replay reads its own run as it goes;
 * its report is the one the two traces give when compared afterwards. */
static TbReplayReport *
run_replay (TbTrace  *recorded,
            TbReplay *replay)
{
  TbReplayReport *report = NULL;
  g_autoptr(TbReplayReport) afterwards = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(JsonNode) json_afterwards = NULL;

  tb_replay_run_async (replay, NULL, replay_done, &report);
  while (report == NULL)
    g_main_context_iteration (NULL, TRUE);

  afterwards = tb_replay_report_new_compare (recorded, tb_replay_get_trace (replay));
  json = tb_replay_report_to_json (report);
  json_afterwards = tb_replay_report_to_json (afterwards);
  if (!json_node_equal (json, json_afterwards))
    {
      g_autofree char *a = tb_json_to_string (json, TRUE);
      g_autofree char *b = tb_json_to_string (json_afterwards, TRUE);

      g_error ("The replay's report:\n%s\nis not the one compared afterwards:\n%s", a, b);
    }
  return report;
}

static void
test_recorded_file (Fixture       *f,
                    gconstpointer  data)
{
  JsonObject *header = tb_trace_get_header (f->recorded);

  g_assert_cmpstr (tb_json_object_get_string (header, "format"), ==, "toolbench-trace");
  g_assert_nonnull (tb_json_object_get_array (header, "tools"));
  g_assert_cmpuint (tb_trace_count (f->recorded, "tool-result"), ==, 3);
  g_assert_cmpuint (tb_trace_count (f->recorded, "end"), ==, 1);
}

static void
test_replay_live_same (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(TbReplayReport) report = NULL;
  g_autofree char *text = NULL;

  g_assert_true (tb_demo_tools_register (registry, NULL));
  tb_replay_set_registry (replay, registry);
  report = run_replay (f->recorded, replay);

  text = tb_replay_report_to_text (report);
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  g_assert_cmpuint (tb_replay_report_get_n_steps (report), ==, 4);
  g_assert_nonnull (strstr (text, "No divergence"));
  g_assert_cmpint (tb_dispatch_loop_get_state (tb_replay_get_loop (replay)), ==,
                   TB_LOOP_STATE_FINISHED);
}

static void
test_replay_mocked_same (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(TbReplayReport) report = run_replay (f->recorded, replay);
  TbReplayStep *end = tb_replay_report_get_step (report, 3);

  /* No registry: every tool gives back its recorded result. */
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  g_assert_cmpstr (tb_replay_step_get_kind (end), ==, "end");
  g_assert_cmpstr (tb_json_object_get_string (tb_replay_step_get_replayed (end), "answer"), ==,
                   "3 and 7.");
}

static JsonNode *
add_off_by_one (TbTool        *tool,
                JsonObject    *arguments,
                JsonObject    *context,
                GCancellable  *cancellable,
                gpointer       user_data,
                GError       **error)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_int (node, json_object_get_int_member (arguments, "a") +
                           json_object_get_int_member (arguments, "b") + 1);
  return node;
}

static void
test_replay_changed_tool (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbTool) echo = NULL;
  g_autoptr(TbTool) add = NULL;
  g_autoptr(TbTool) demo_add = NULL;
  g_autoptr(TbToolRegistry) demo = tb_tool_registry_new ();
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(TbReplayReport) report = NULL;
  g_autoptr(JsonNode) report_json = NULL;
  g_autofree char *text = NULL;
  TbReplayStep *step;
  JsonObject *difference;

  g_assert_true (tb_demo_tools_register (demo, NULL));
  echo = tb_tool_registry_lookup (demo, "echo");
  demo_add = tb_tool_registry_lookup (demo, "add");
  add = tb_tool_new_simple ("add", "Adds, wrongly.", tb_tool_get_parameters (demo_add),
                            TB_TOOL_SIMPLE_FLAGS_NONE, add_off_by_one, NULL, NULL, NULL);
  tb_tool_registry_register (registry, echo, NULL);
  tb_tool_registry_register (registry, add, NULL);

  tb_replay_set_registry (replay, registry);
  report = run_replay (f->recorded, replay);

  /* The first add (step 2) is the first divergence, in its output. */
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, 1);
  g_assert_cmpuint (tb_replay_report_get_n_divergences (report), ==, 2);
  step = tb_replay_report_get_step (report, 1);
  g_assert_cmpint (tb_replay_step_get_status (step), ==, TB_REPLAY_DIFFERENT_RESULT);
  difference = json_array_get_object_element (tb_replay_step_get_diff (step), 0);
  g_assert_cmpstr (tb_json_object_get_string (difference, "path"), ==, "/result/output");
  g_assert_cmpint (json_object_get_int_member (difference, "recorded"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (difference, "replayed"), ==, 4);
  g_assert_cmpint (tb_replay_step_get_status (tb_replay_report_get_step (report, 0)), ==,
                   TB_REPLAY_SAME);

  text = tb_replay_report_to_text (report);
  g_assert_nonnull (strstr (text, "> step 2"));
  g_assert_nonnull (strstr (text, "at /result/output: recorded 3, replayed 4"));
  g_assert_nonnull (strstr (text, "2 divergences; the first at step 2."));

  report_json = tb_replay_report_to_json (report);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (report_json),
                                               "first_divergence"), ==, 1);
}

static void
test_replay_missing_tool (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolRegistry) demo = tb_tool_registry_new ();
  g_autoptr(TbTool) echo = NULL;
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(TbReplayReport) report = NULL;
  JsonObject *replayed;

  g_assert_true (tb_demo_tools_register (demo, NULL));
  echo = tb_tool_registry_lookup (demo, "echo");
  tb_tool_registry_register (registry, echo, NULL);

  /* "add" no longer exists: a divergence, not a crash. */
  tb_replay_set_registry (replay, registry);
  report = run_replay (f->recorded, replay);
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, 1);
  replayed = tb_replay_step_get_replayed (tb_replay_report_get_step (report, 1));
  g_assert_cmpstr (tb_json_object_get_string (tb_json_object_get_object (replayed, "result"),
                                              "kind"), ==, "not-found");

  /* What a person reads: the step, how it differs, and where. */
  {
    g_autofree char *text = tb_replay_report_to_text (report);

    g_assert_nonnull (strstr (text, "> step 2   different-result    add {\"a\":1,\"b\":2}"));
    g_assert_nonnull (strstr (text, "at /result/ok: recorded true, replayed false"));
  }
}

static void
test_fork_arguments (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(JsonNode) arguments = test_parse ("{\"a\": 10, \"b\": 20}");
  g_autoptr(TbReplayReport) report = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *parent;
  TbReplayStep *step;

  g_assert_true (tb_demo_tools_register (registry, NULL));
  tb_replay_set_registry (replay, registry);
  tb_replay_set_parent (replay, "recorded.jsonl");
  g_assert_true (tb_replay_set_fork (replay, 1, TB_REPLAY_EDIT_ARGUMENTS, arguments, &error));
  g_assert_no_error (error);
  report = run_replay (f->recorded, replay);

  /* Step 2 ran with the edited arguments: 10 + 20. */
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, 1);
  step = tb_replay_report_get_step (report, 1);
  g_assert_cmpint (tb_replay_step_get_status (step), ==, TB_REPLAY_DIFFERENT_ARGUMENTS);
  g_assert_cmpint (json_object_get_int_member (
                     tb_json_object_get_object (tb_replay_step_get_replayed (step), "result"),
                     "output"), ==, 30);
  parent = tb_json_object_get_object (tb_trace_get_header (tb_replay_get_trace (replay)),
                                      "parent");
  g_assert_cmpstr (tb_json_object_get_string (parent, "trace"), ==, "recorded.jsonl");
  g_assert_cmpint (json_object_get_int_member (parent, "step"), ==, 2);
  g_assert_cmpstr (tb_json_object_get_string (parent, "edit"), ==, "arguments");
}

static void
test_fork_result (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(JsonNode) output = test_parse ("\"typed by hand\"");
  g_autoptr(TbReplayReport) report = NULL;
  JsonObject *result;

  g_assert_true (tb_replay_set_fork (replay, 0, TB_REPLAY_EDIT_RESULT, output, NULL));
  report = run_replay (f->recorded, replay);

  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, 0);
  result = tb_json_object_get_object (
             tb_replay_step_get_replayed (tb_replay_report_get_step (report, 0)), "result");
  g_assert_cmpstr (tb_json_object_get_string (result, "output"), ==, "typed by hand");
  /* The other calls are as recorded. */
  g_assert_cmpint (tb_replay_step_get_status (tb_replay_report_get_step (report, 1)), ==,
                   TB_REPLAY_SAME);
}

static void
test_fork_model_turn (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(JsonNode) turn = test_parse ("{\"role\":\"assistant\",\"text\":\"I will stop here.\"}");
  g_autoptr(JsonNode) user = test_parse ("{\"role\":\"user\",\"text\":\"not a turn\"}");
  g_autoptr(TbReplayReport) report = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (tb_replay_set_fork (replay, 1, TB_REPLAY_EDIT_MODEL_TURN, user, &error));
  g_assert_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK);
  g_clear_error (&error);
  g_assert_false (tb_replay_set_fork (replay, 9, TB_REPLAY_EDIT_MODEL_TURN, turn, &error));
  g_assert_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK);
  g_clear_error (&error);

  /* Turn 2 answers instead of calling add: step 3 goes missing. */
  g_assert_true (tb_replay_set_fork (replay, 1, TB_REPLAY_EDIT_MODEL_TURN, turn, &error));
  report = run_replay (f->recorded, replay);
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, 2);
  g_assert_cmpint (tb_replay_step_get_status (tb_replay_report_get_step (report, 2)), ==,
                   TB_REPLAY_MISSING);
  g_assert_cmpstr (tb_json_object_get_string (
                     tb_replay_step_get_replayed (tb_replay_report_get_step (report, 3)),
                     "answer"), ==, "I will stop here.");
}

static void
test_fork_live (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(JsonNode) live_script = test_parse ("[{\"text\":\"A different ending.\"}]");
  g_autoptr(TbScriptedProvider) live = tb_scripted_provider_new_from_json (live_script, NULL);
  g_autoptr(JsonNode) output = test_parse ("99");
  g_autoptr(TbReplayReport) report = NULL;

  /* Fork at step 1 (turn 1); from turn 2 on, the live model answers. */
  tb_replay_set_live_provider (replay, TB_PROVIDER (live));
  g_assert_true (tb_replay_set_fork (replay, 0, TB_REPLAY_EDIT_RESULT, output, NULL));
  report = run_replay (f->recorded, replay);

  g_assert_cmpuint (tb_scripted_provider_get_position (live), ==, 1);
  g_assert_cmpint (tb_replay_step_get_status (tb_replay_report_get_step (report, 2)), ==,
                   TB_REPLAY_MISSING);
  g_assert_cmpstr (tb_json_object_get_string (
                     tb_replay_step_get_replayed (tb_replay_report_get_step (report, 3)),
                     "answer"), ==, "A different ending.");
}

static void
test_fork_bad_step (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbReplay) replay = tb_replay_new (f->recorded);
  g_autoptr(JsonNode) array = test_parse ("[1]");
  g_autoptr(JsonNode) object = test_parse ("{}");
  g_autoptr(GError) error = NULL;

  g_assert_false (tb_replay_set_fork (replay, 3, TB_REPLAY_EDIT_ARGUMENTS, object, &error));
  g_assert_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK);
  g_assert_nonnull (strstr (error->message, "3 tool calls"));
  g_clear_error (&error);
  g_assert_false (tb_replay_set_fork (replay, 0, TB_REPLAY_EDIT_ARGUMENTS, array, &error));
  g_assert_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK);
}

static void
step_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  tb_dispatch_loop_step_finish (TB_DISPATCH_LOOP (object), result, &error);
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static void
test_recorded_decisions (Fixture       *f,
                         gconstpointer  data)
{
  /* A run where the person edited a call: the replay edits it again. */
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(JsonNode) script = test_parse (script_text);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, NULL);
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbReplay) replay = NULL;
  g_autoptr(TbReplayReport) report = NULL;

  g_assert_true (tb_demo_tools_register (registry, NULL));
  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), 5);
  tb_dispatch_loop_set_approval_policy (loop, TB_APPROVAL_POLICY_ASK);
  g_assert_true (tb_dispatch_loop_add_user_message (loop, "go", NULL));

  /* Step through by hand, deciding every call: edit add, skip echo. */
  while (!tb_loop_state_is_end (tb_dispatch_loop_get_state (loop)))
    {
      GListModel *pending = tb_dispatch_loop_get_pending_calls (loop);
      gboolean done = FALSE;

      for (guint i = 0; i < g_list_model_get_n_items (pending); i++)
        {
          g_autoptr(TbPendingCall) call = g_list_model_get_item (pending, i);
          const char *name = tb_tool_call_get_name (tb_pending_call_get_call (call));

          if (tb_pending_call_get_decision (call) != TB_CALL_DECISION_UNDECIDED)
            continue;
          if (g_str_equal (name, "add"))
            {
              g_autoptr(JsonNode) edited = test_parse ("{\"a\": 100, \"b\": 1}");

              g_assert_true (tb_pending_call_edit (call, edited, NULL));
            }
          else
            {
              g_autoptr(JsonNode) output = test_parse ("\"skipped\"");

              tb_pending_call_skip (call, output);
            }
        }

      tb_dispatch_loop_step_async (loop, NULL, step_done, &done);
      while (!done)
        g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpint (tb_dispatch_loop_get_state (loop), ==, TB_LOOP_STATE_FINISHED);

  replay = tb_replay_new (tb_dispatch_loop_get_trace (loop));
  tb_replay_set_registry (replay, registry);
  report = run_replay (tb_dispatch_loop_get_trace (loop), replay);
  g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
  g_assert_cmpint (json_object_get_int_member (
                     tb_json_object_get_object (
                       tb_replay_step_get_replayed (tb_replay_report_get_step (report, 1)),
                       "result"), "output"), ==, 101);
}

static void
test_empty_trace (void)
{
  g_autoptr(TbTrace) trace = tb_trace_new ();
  g_autoptr(TbReplay) replay = tb_replay_new (trace);
  g_autoptr(GError) error = NULL;

  tb_replay_run_async (replay, NULL, replay_done_error, &error);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_TRACE);
}

static void
test_json_diff (void)
{
  g_autoptr(JsonNode) a = test_parse ("{\"x\":1,\"y\":[1,2,3],\"z\":{\"k/e~y\":true},\"gone\":0}");
  g_autoptr(JsonNode) b = test_parse ("{\"x\":1.0,\"y\":[1,5],\"z\":{\"k/e~y\":false},\"new\":1}");
  g_autoptr(JsonArray) diff = tb_json_diff (a, b);
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
  g_autofree char *text = NULL;
  g_autoptr(JsonArray) none = tb_json_diff (a, a);

  json_node_set_array (node, diff);
  text = tb_json_to_string (node, FALSE);
  g_assert_cmpstr (text, ==,
                   "[{\"path\":\"/y/1\",\"recorded\":2,\"replayed\":5},"
                   "{\"path\":\"/y/2\",\"recorded\":3},"
                   "{\"path\":\"/z/k~1e~0y\",\"recorded\":true,\"replayed\":false},"
                   "{\"path\":\"/gone\",\"recorded\":0},"
                   "{\"path\":\"/new\",\"replayed\":1}]");
  g_assert_cmpuint (json_array_get_length (none), ==, 0);
}

static void
test_export_import (Fixture       *f,
                    gconstpointer  data)
{
  const TbDefinitionFormat formats[] = { TB_DEFINITION_FORMAT_OPENAI,
                                         TB_DEFINITION_FORMAT_ANTHROPIC };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) exported = tb_trace_export_messages (f->recorded, formats[i], &error);
      g_autoptr(JsonNode) script = NULL;
      g_autoptr(TbScriptedProvider) provider = NULL;
      g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
      g_autoptr(TbDispatchLoop) loop = NULL;
      g_autoptr(TbReplayReport) report = NULL;
      JsonArray *messages;
      JsonObject *assistant;

      g_assert_no_error (error);
      messages = tb_json_object_get_array (json_node_get_object (exported), "messages");
      g_assert_nonnull (messages);
      g_assert_nonnull (tb_json_object_get_array (json_node_get_object (exported), "tools"));
      assistant = json_array_get_object_element (messages, 1);
      g_assert_cmpstr (tb_json_object_get_string (assistant, "role"), ==, "assistant");

      if (formats[i] == TB_DEFINITION_FORMAT_OPENAI)
        {
          JsonArray *calls = tb_json_object_get_array (assistant, "tool_calls");
          JsonObject *function = tb_json_object_get_object (json_array_get_object_element (calls, 1),
                                                            "function");

          /* Four messages per tool turn: user, assistant, two tool results, … */
          g_assert_cmpuint (json_array_get_length (messages), ==, 7);
          g_assert_cmpstr (tb_json_object_get_string (function, "name"), ==, "add");
          g_assert_cmpstr (tb_json_object_get_string (function, "arguments"), ==,
                           "{\"a\":1,\"b\":2}");
        }
      else
        {
          /* Tool results travel in the next user turn. */
          JsonObject *results = json_array_get_object_element (messages, 2);
          JsonArray *blocks = tb_json_object_get_array (results, "content");

          g_assert_cmpstr (tb_json_object_get_string (results, "role"), ==, "user");
          g_assert_cmpstr (tb_json_object_get_string (json_array_get_object_element (blocks, 0),
                                                      "type"), ==, "tool_result");
        }

      /* Pasted back as a script, the conversation plays the same calls. */
      script = tb_script_from_messages (exported, &error);
      g_assert_no_error (error);
      provider = tb_scripted_provider_new_from_json (script, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tb_scripted_provider_get_n_responses (provider), ==, 3);
      g_assert_true (tb_demo_tools_register (registry, NULL));
      loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), 5);
      tb_dispatch_loop_add_user_message (loop, "again", NULL);
      tb_dispatch_loop_run_async (loop, NULL, loop_done, f->main_loop);
      g_main_loop_run (f->main_loop);

      report = tb_replay_report_new_compare (f->recorded, tb_dispatch_loop_get_trace (loop));
      g_assert_cmpint (tb_replay_report_get_first_divergence (report), ==, -1);
    }
}

static void
test_import_bad (void)
{
  static const char *cases[] = {
    "{\"a\": 1}",
    "[{\"content\": \"no role\"}]",
    "[{\"role\": \"user\", \"content\": \"only a user\"}]",
    "[{\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"x\", \"function\": {}}]}]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = test_parse (cases[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) script = tb_script_from_messages (node, &error);

      g_assert_null (script);
      g_assert_error (error, TB_EXPORT_ERROR, TB_EXPORT_ERROR_INVALID);
    }

  {
    g_autoptr(JsonNode) broken = test_parse ("[{\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"x\","
                                        "\"function\": {\"name\": \"add\", \"arguments\": \"{oops\"}}]}]");
    g_autoptr(JsonNode) script = tb_script_from_messages (broken, NULL);
    JsonObject *call;

    /* Broken argument text is kept, with why, for the loop to report. */
    g_assert_nonnull (script);
    call = json_array_get_object_element (
             tb_json_object_get_array (json_array_get_object_element (
               tb_json_object_get_array (json_node_get_object (script), "responses"), 0),
               "tool_calls"), 0);
    g_assert_cmpstr (tb_json_object_get_string (call, "raw_arguments"), ==, "{oops");
    g_assert_nonnull (tb_json_object_get_string (call, "parse_error"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/replay/recorded-file", test_recorded_file);
  ADD ("/replay/live-same", test_replay_live_same);
  ADD ("/replay/mocked-same", test_replay_mocked_same);
  ADD ("/replay/changed-tool", test_replay_changed_tool);
  ADD ("/replay/missing-tool", test_replay_missing_tool);
  ADD ("/replay/fork/arguments", test_fork_arguments);
  ADD ("/replay/fork/result", test_fork_result);
  ADD ("/replay/fork/model-turn", test_fork_model_turn);
  ADD ("/replay/fork/live", test_fork_live);
  ADD ("/replay/fork/bad-step", test_fork_bad_step);
  ADD ("/replay/recorded-decisions", test_recorded_decisions);
  ADD ("/replay/export-import", test_export_import);
#undef ADD
  g_test_add_func ("/replay/empty-trace", test_empty_trace);
  g_test_add_func ("/replay/json-diff", test_json_diff);
  g_test_add_func ("/replay/import-bad", test_import_bad);

  return g_test_run ();
}
