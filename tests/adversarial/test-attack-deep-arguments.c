/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-attack-deep-arguments"

#include "config.h"

#include "attack-util.h"
#include "tb-test-http.h"

/* Anything the loop accepts can be recorded: deep but legal arguments
 * reach the trace whole and replay. What cannot be recorded ends the run
 * as failed, and a trace known to be incomplete never passes --check. */

typedef AttackDir Fixture;

/* {"text":"x","deep":[[…]]} nesting @levels levels in all */
static char *
deep_arguments (guint levels)
{
  GString *text = g_string_new ("{\"text\":\"x\",\"deep\":");

  for (guint i = 1; i < levels; i++)
    g_string_append_c (text, '[');
  for (guint i = 1; i < levels; i++)
    g_string_append_c (text, ']');
  g_string_append_c (text, '}');
  return g_string_free (text, FALSE);
}

static char **
event_types (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTrace) trace = tb_trace_load (file, NULL, NULL, &error);
  GStrvBuilder *builder = g_strv_builder_new ();
  char **types;

  g_assert_no_error (error);
  g_assert_cmpstr (tb_trace_get_problems (trace)[0], ==, NULL);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    g_strv_builder_add (builder, tb_trace_event_get_event_type (tb_trace_get_event (trace, i)));
  types = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return types;
}

static void
got_result (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Replays @trace with its recorded tool results. */
static TbReplayReport *
replay_offline (TbTrace *trace)
{
  g_autoptr(TbReplay) replay = tb_replay_new (trace);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TbReplayReport *report;

  tb_replay_run_async (replay, NULL, got_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  report = tb_replay_run_finish (replay, result, &error);
  g_assert_no_error (error);
  return report;
}

/* A script whose model calls echo with arguments @levels deep, given as
 * the model's raw text, as a provider would send them. */
static char *
write_script (Fixture *f,
              guint    levels)
{
  g_autofree char *arguments = deep_arguments (levels);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  char *path = g_build_filename (f->dir, "deep-script.json", NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "responses");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tool_calls");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "c1");
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "echo");
  json_builder_set_member_name (builder, "arguments");
  json_builder_add_string_value (builder, arguments);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, "done");
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = tb_json_to_string (root, FALSE);
  attack_write_file (path, text);
  return path;
}

/* 510 and 512 levels (the limit): the run records every event, the
 * trace reads back whole and replays without a divergence. */
static void
test_cli_deep_arguments (Fixture       *f,
                         gconstpointer  data)
{
  static const guint levels[] = { 510, TB_JSON_MAX_DEPTH };

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      g_autofree char *script = write_script (f, levels[i]);
      g_autofree char *trace = g_build_filename (f->dir, "deep.jsonl", NULL);
      g_auto(GStrv) types = NULL;
      AttackRun run = { 0 };

      g_test_message ("arguments %u levels deep", levels[i]);
      attack_cli (&run, NULL, NULL, "run", "-n", "4", "--prompt", "hi", "--script", script,
                  "--trace", trace, "-q");
      g_assert_cmpstr (run.err, ==, "The loop finished after 2 iterations.\n");
      g_assert_cmpint (run.status, ==, 0);
      attack_run_clear (&run);

      types = event_types (trace);
      g_assert_cmpuint (g_strv_length (types), ==, 14);
      g_assert_true (g_strv_contains ((const char * const *) types, "tool-call"));
      g_assert_true (g_strv_contains ((const char * const *) types, "tool-result"));
      g_assert_cmpstr (types[13], ==, "end");

      attack_cli (&run, NULL, NULL, "replay", trace, "--check");
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "No divergence: the replay did what the recorded run"));
      attack_run_clear (&run);
    }
}

/* Anthropic's request holds a call's input as an object, several levels
 * below the event: the request event is the deepest line of the trace. */
static void
test_provider_request_deep (Fixture       *f,
                            gconstpointer  data)
{
  TestServer *server = test_server_new ("x-api-key");
  g_autofree char *input = deep_arguments (TB_JSON_MAX_DEPTH - 4);
  g_autofree char *first = g_strdup_printf ("{\"id\":\"m1\",\"type\":\"message\","
                                            "\"role\":\"assistant\","
                                            "\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\","
                                            "\"name\":\"echo\",\"input\":%s}],"
                                            "\"stop_reason\":\"tool_use\"}", input);
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbToolRegistry) registry = test_registry_new (NULL);
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autofree char *path = g_build_filename (f->dir, "anthropic.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTrace) loaded = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  g_auto(GStrv) types = NULL;

  test_server_reply (server, 200, "application/json", first);
  test_server_reply (server, 200, "application/json",
                     "{\"id\":\"m2\",\"type\":\"message\",\"role\":\"assistant\",\"content\":"
                     "[{\"type\":\"text\",\"text\":\"done\"}],\"stop_reason\":\"end_turn\"}");
  provider = TB_PROVIDER (tb_anthropic_provider_new (server->base_url, "claude-test", "k"));
  loop = tb_dispatch_loop_new (registry, provider, 4);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), file, NULL);
  g_signal_connect_object (recorder, "failed", G_CALLBACK (tb_dispatch_loop_fail), loop,
                           G_CONNECT_SWAPPED);
  tb_dispatch_loop_add_user_message (loop, "hi", NULL);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_true (tb_trace_recorder_close (recorder, &error));
  g_assert_no_error (error);

  types = event_types (path);
  g_assert_false (g_strv_contains ((const char * const *) types, "incomplete"));
  g_assert_cmpstr (types[g_strv_length (types) - 1], ==, "end");

  loaded = tb_trace_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  report = replay_offline (loaded);
  g_assert_null (tb_replay_report_get_incomplete (report));
  g_assert_cmpuint (tb_replay_report_get_n_divergences (report), ==, 0);
  g_assert_cmpuint (tb_replay_report_get_n_steps (report), ==, 2);
  test_server_free (server);
}

/* Too many values for a trace line of its size: a reader would refuse it. */
static JsonNode *
flood_func (TbTool        *tool,
            JsonObject    *arguments,
            JsonObject    *context,
            GCancellable  *cancellable,
            gpointer       user_data,
            GError       **error)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < 200000; i++)
    json_array_add_object_element (array, json_object_new ());
  json_node_take_array (node, array);
  return node;
}

/* An event that cannot be recorded ends the run as failed with the
 * reason; the file says it is incomplete in its place, the events after
 * it are still written, and the trace never passes --check. */
static void
test_unrecordable_event (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new ();
  g_autoptr(TbMessage) turn = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(TbMessage) answer = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "done");
  g_autoptr(TbToolCall) call = tb_tool_call_new ("c1", "flood", NULL);
  g_autoptr(TbTool) flood = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbTraceRecorder) recorder = NULL;
  g_autofree char *path = g_build_filename (f->dir, "flood.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTrace) loaded = NULL;
  g_autoptr(TbReplayReport) report = NULL;
  g_auto(GStrv) types = NULL;
  g_autofree char *text = NULL;
  const char *incomplete;
  AttackRun run = { 0 };

  flood = tb_tool_new_simple ("flood", "Returns many empty objects.", NULL,
                              TB_TOOL_SIMPLE_FLAGS_NONE, flood_func, NULL, NULL, &error);
  g_assert_no_error (error);
  tb_tool_registry_register (registry, flood, &error);
  g_assert_no_error (error);
  /* Building the flood takes long under sanitizers; the tool's time limit
   * must not end it first, or its result would be a short timeout. */
  tb_tool_registry_set_default_timeout_ms (registry, 10 * 60 * 1000);
  tb_message_add_tool_call (turn, call);
  tb_scripted_provider_append_response (provider, turn, NULL);
  tb_scripted_provider_append_response (provider, answer, NULL);

  loop = tb_dispatch_loop_new (registry, TB_PROVIDER (provider), 4);
  recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (loop), file, NULL);
  g_signal_connect_object (recorder, "failed", G_CALLBACK (tb_dispatch_loop_fail), loop,
                           G_CONNECT_SWAPPED);
  tb_dispatch_loop_add_user_message (loop, "flood me", NULL);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FAILED);
  g_assert_nonnull (tb_dispatch_loop_get_error (loop));
  g_assert_true (g_str_has_prefix (tb_dispatch_loop_get_error (loop)->message,
                                   "The “tool-result” event"));
  g_assert_nonnull (strstr (tb_dispatch_loop_get_error (loop)->message,
                            "cannot be recorded: The JSON text"));
  g_assert_false (tb_trace_recorder_close (recorder, &error));
  g_assert_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_UNRECORDABLE);
  g_clear_error (&error);

  /* in the file: the marker where the result was, then the failure */
  types = event_types (path);
  g_assert_true (g_strv_contains ((const char * const *) types, "incomplete"));
  g_assert_false (g_strv_contains ((const char * const *) types, "tool-result"));
  g_assert_cmpstr (types[g_strv_length (types) - 2], ==, "error");
  g_assert_cmpstr (types[g_strv_length (types) - 1], ==, "end");
  text = attack_read_file (path);
  g_assert_nonnull (strstr (text, "\"state\":\"failed\""));

  loaded = tb_trace_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  report = replay_offline (loaded);
  incomplete = tb_replay_report_get_incomplete (report);
  g_assert_nonnull (incomplete);
  g_assert_true (g_str_has_prefix (incomplete, "The “tool-result” event"));

  attack_cli (&run, NULL, NULL, "replay", path, "--check");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "The recorded trace is incomplete, so the replay cannot "
                                     "confirm the run: The “tool-result” event"));
  g_assert_null (strstr (run.out, "No divergence: the replay did"));
  attack_run_clear (&run);
}

/* A trace cut off before its end, or with a damaged line, replays what
 * it has but never passes --check. */
static void
test_incomplete_never_checks (Fixture       *f,
                              gconstpointer  data)
{
  g_autofree char *trace = g_build_filename (f->dir, "whole.jsonl", NULL);
  g_autofree char *cut = g_build_filename (f->dir, "cut.jsonl", NULL);
  g_autofree char *damaged = g_build_filename (f->dir, "damaged.jsonl", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) without_end = g_string_new (NULL);
  g_autoptr(GString) with_damage = g_string_new (NULL);
  guint n;
  AttackRun run = { 0 };

  attack_cli (&run, NULL, NULL, "run", "-n", "5", "--prompt", "What is 2 + 3?", "-q",
              "--trace", trace);
  g_assert_cmpint (run.status, ==, 0);
  attack_run_clear (&run);
  attack_cli (&run, NULL, NULL, "replay", trace, "--check");
  g_assert_cmpint (run.status, ==, 0);
  attack_run_clear (&run);

  text = attack_read_file (trace);
  lines = g_strsplit (text, "\n", -1);
  n = g_strv_length (lines) - 1;   /* the text ends with a newline */
  g_assert_nonnull (strstr (lines[n - 1], "\"type\":\"end\""));
  for (guint i = 0; i < n - 1; i++)
    g_string_append_printf (without_end, "%s\n", lines[i]);
  attack_write_file (cut, without_end->str);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (with_damage, "%s\n", i == 4 ? "{\"seq\":4,\"type\":" : lines[i]);
  attack_write_file (damaged, with_damage->str);

  attack_cli (&run, NULL, NULL, "replay", cut, "--check");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "The recorded trace is incomplete, so the replay cannot "
                                     "confirm the run: The trace stops before the run ended: "
                                     "there is no “end” event after the last model turn.\n"));
  attack_run_clear (&run);
  /* without --check the replay still runs and reports */
  attack_cli (&run, NULL, NULL, "replay", cut);
  g_assert_cmpint (run.status, ==, 0);
  attack_run_clear (&run);

  attack_cli (&run, NULL, NULL, "replay", damaged, "--check");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "warning: Line 5 cannot be read and was left out"));
  g_assert_nonnull (strstr (run.out, "The recorded trace is incomplete, so the replay cannot "
                                     "confirm the run: Line 5 cannot be read"));
  attack_run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  attack_dir_test_add ("/attack/deep-arguments/cli", test_cli_deep_arguments);
  attack_dir_test_add ("/attack/deep-arguments/provider-request", test_provider_request_deep);
  attack_dir_test_add ("/attack/deep-arguments/unrecordable-event", test_unrecordable_event);
  attack_dir_test_add ("/attack/deep-arguments/incomplete-never-checks",
                       test_incomplete_never_checks);

  return g_test_run ();
}
