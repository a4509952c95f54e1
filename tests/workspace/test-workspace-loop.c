/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>

#include "tb-test-http.h"
#include "workspace-test-util.h"

/* The workspace in the dispatch loop, and the security invariant as the
 * providers see it: the exact JSON each provider sends to a local server
 * never names facts.commit, and a model that calls it anyway reaches
 * nothing. */

typedef enum
{
  KIND_OPENAI,
  KIND_ANTHROPIC,
  KIND_GEMINI,
} ProviderKind;

typedef struct
{
  TbWorkspace    *workspace;
  TbToolRegistry *registry;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->workspace = tb_workspace_new ();
  f->registry = tb_tool_registry_new ();
  tb_demo_tools_register (f->registry, &error);
  g_assert_no_error (error);
  tb_workspace_register_tools (f->workspace, f->registry, &error);
  g_assert_no_error (error);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  g_assert_finalize_object (f->registry);
  g_assert_finalize_object (f->workspace);
}

/* The model proposes a fact, then calls facts.commit under its wire name,
 * then answers. */
static const char *openai_turns[] = {
  "{\"id\":\"x1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{"
  "\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":"
  "\"function\",\"function\":{\"name\":\"facts_propose\",\"arguments\":"
  "\"{\\\"key\\\":\\\"city\\\",\\\"value\\\":\\\"Paris\\\",\\\"reason\\\":\\\"said so\\\"}\"}}]},"
  "\"finish_reason\":\"tool_calls\"}]}",
  "{\"id\":\"x2\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{"
  "\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_2\",\"type\":"
  "\"function\",\"function\":{\"name\":\"facts_commit\",\"arguments\":"
  "\"{\\\"proposal_id\\\":\\\"p1\\\",\\\"confirmation\\\":\\\"x\\\"}\"}}]},"
  "\"finish_reason\":\"tool_calls\"}]}",
  "{\"id\":\"x3\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{"
  "\"role\":\"assistant\",\"content\":\"Proposed.\"},\"finish_reason\":\"stop\"}]}",
};

static const char *anthropic_turns[] = {
  "{\"id\":\"m1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\","
  "\"id\":\"toolu_1\",\"name\":\"facts_propose\",\"input\":{\"key\":\"city\",\"value\":\"Paris\","
  "\"reason\":\"said so\"}}],\"stop_reason\":\"tool_use\"}",
  "{\"id\":\"m2\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\","
  "\"id\":\"toolu_2\",\"name\":\"facts_commit\",\"input\":{\"proposal_id\":\"p1\","
  "\"confirmation\":\"x\"}}],\"stop_reason\":\"tool_use\"}",
  "{\"id\":\"m3\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
  "\"text\":\"Proposed.\"}],\"stop_reason\":\"end_turn\"}",
};

static const char *gemini_turns[] = {
  "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":"
  "\"facts.propose\",\"args\":{\"key\":\"city\",\"value\":\"Paris\",\"reason\":\"said so\"}}}]},"
  "\"finishReason\":\"STOP\"}]}",
  "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":"
  "\"facts_commit\",\"args\":{\"proposal_id\":\"p1\",\"confirmation\":\"x\"}}}]},"
  "\"finishReason\":\"STOP\"}]}",
  "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Proposed.\"}]},"
  "\"finishReason\":\"STOP\"}]}",
};

static void
collect_names (JsonNode *node, GPtrArray *names, guint depth)
{
  g_assert_cmpuint (depth, <, 64);

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member))
        {
          if (g_str_equal (name, "name") && JSON_NODE_HOLDS_VALUE (member) &&
              json_node_get_value_type (member) == G_TYPE_STRING)
            g_ptr_array_add (names, g_strdup (json_node_get_string (member)));
          collect_names (member, names, depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        collect_names (json_array_get_element (array, i), names, depth + 1);
    }
}

static void
test_provider_requests (Fixture *f, gconstpointer data)
{
  ProviderKind kind = GPOINTER_TO_INT (data);
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbWorkspaceBinding) binding = NULL;
  TestServer *server;
  const char **turns;
  TbFactProposal *proposal;
  TbTrace *trace;
  gboolean saw_not_found = FALSE;

  switch (kind)
    {
    case KIND_OPENAI:
      server = test_server_new ("Authorization");
      provider = tb_openai_provider_new (server->base_url, "test-model", "sk-test");
      turns = openai_turns;
      break;

    case KIND_ANTHROPIC:
      server = test_server_new ("x-api-key");
      provider = tb_anthropic_provider_new (server->base_url, "claude-test", "sk-ant-test");
      turns = anthropic_turns;
      break;

    case KIND_GEMINI:
    default:
      {
        g_autofree char *base = NULL;

        server = test_server_new ("x-goog-api-key");
        base = g_strconcat (server->base_url, "/v1beta", NULL);
        provider = tb_gemini_provider_new (base, "gemini-test", "AIza-test");
        turns = gemini_turns;
      }
      break;
    }
  tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (provider), 5000);

  for (guint i = 0; i < 3; i++)
    test_server_reply (server, 200, "application/json", turns[i]);

  loop = tb_dispatch_loop_new (f->registry, provider, 5);
  binding = tb_workspace_binding_new (f->workspace, loop);
  tb_dispatch_loop_add_user_message (loop, "I live in Paris.", NULL);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  /* Every request, as sent on the wire. */
  g_assert_cmpuint (server->bodies->len, ==, 3);
  for (guint i = 0; i < server->bodies->len; i++)
    {
      JsonNode *body = g_ptr_array_index (server->bodies, i);
      JsonObject *object = json_node_get_object (body);
      g_autofree char *text = tb_json_to_string (body, FALSE);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      JsonNode *tools = json_object_get_member (object, "tools");

      g_assert_nonnull (tools);
      collect_names (tools, names, 0);
      /* Gemini takes the real names; the others their wire spelling. */
      g_assert_true (g_ptr_array_find_with_equal_func (names, kind == KIND_GEMINI
                                                              ? "facts.propose" : "facts_propose",
                                                       g_str_equal, NULL));
      g_assert_true (g_ptr_array_find_with_equal_func (names, kind == KIND_GEMINI
                                                              ? "facts.get" : "facts_get",
                                                       g_str_equal, NULL));
      g_assert_true (g_ptr_array_find_with_equal_func (names, kind == KIND_GEMINI
                                                              ? "draft.set" : "draft_set",
                                                       g_str_equal, NULL));
      for (guint j = 0; j < names->len; j++)
        {
          g_assert_cmpstr (g_ptr_array_index (names, j), !=, "facts_commit");
          g_assert_cmpstr (g_ptr_array_index (names, j), !=, "facts.commit");
        }

      /* Only the model's own call (in the conversation) may spell it. */
      if (i < 2)
        g_assert_null (strstr (text, "facts_commit"));
      g_assert_null (strstr (text, "facts.commit"));
      g_assert_null (strstr (text, "confirmation token"));
    }

  /* The model's facts_commit was answered as a tool that does not exist. */
  trace = tb_dispatch_loop_get_trace (loop);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      g_autofree char *text = NULL;

      if (!g_str_equal (tb_trace_event_get_event_type (event), "tool-result"))
        continue;
      {
        g_autoptr(JsonNode) node = tb_trace_event_to_json (event);

        text = tb_json_to_string (node, FALSE);
      }
      if (strstr (text, "\"not-found\"") != NULL || strstr (text, "There is no tool named") != NULL)
        saw_not_found = TRUE;
    }
  g_assert_true (saw_not_found);
  g_assert_cmpuint (tb_trace_count (trace, "proposal"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "commit"), ==, 0);

  /* A proposal, with its call id, and no fact. */
  proposal = tb_workspace_lookup_proposal (f->workspace, "p1");
  g_assert_nonnull (proposal);
  g_assert_cmpint (tb_fact_proposal_get_status (proposal), ==, TB_PROPOSAL_STATUS_PENDING);
  g_assert_nonnull (tb_fact_proposal_get_origin_call_id (proposal));
  {
    g_autofree char *facts = tb_json_to_string (tb_workspace_get_facts (f->workspace), FALSE);

    g_assert_cmpstr (facts, ==, "{}");
  }

  g_clear_object (&binding);
  g_clear_object (&loop);
  g_assert_finalize_object (g_steal_pointer (&provider));
  test_server_free (server);
}

static TbProvider *
scripted (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) script = parse_json (json);
  TbScriptedProvider *provider = tb_scripted_provider_new_from_json (script, &error);

  g_assert_no_error (error);
  return TB_PROVIDER (provider);
}

static void
test_scripted_commit_refused (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbConfirmation) confirmation = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(JsonNode) value = parse_json ("\"Paris\"");
  g_autofree char *script = NULL;
  GListModel *messages;
  TbFactProposal *proposal;
  guint refused = 0;

  /* Even a model that somehow holds a real token gets nowhere. */
  proposal = tb_workspace_propose (f->workspace, "city", value, "", NULL, &error);
  g_assert_no_error (error);
  confirmation = tb_confirmation_new (f->workspace, proposal, "Ada", &error);
  g_assert_no_error (error);

  script = g_strdup_printf ("{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
                            "{\"tool_calls\":["
                            "{\"id\":\"c1\",\"name\":\"facts.commit\",\"arguments\":"
                            "{\"proposal_id\":\"p1\",\"confirmation\":\"%s\"}},"
                            "{\"id\":\"c2\",\"name\":\"facts_commit\",\"arguments\":"
                            "{\"proposal_id\":\"p1\",\"confirmation\":\"%s\"}}]},"
                            "{\"text\":\"Done.\"}]}",
                            tb_confirmation_get_token (confirmation),
                            tb_confirmation_get_token (confirmation));
  provider = scripted (script);
  loop = tb_dispatch_loop_new (f->registry, provider, 3);
  tb_dispatch_loop_add_user_message (loop, "Commit it.", NULL);
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  messages = tb_dispatch_loop_get_messages (loop);
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(TbMessage) message = g_list_model_get_item (messages, i);

      if (tb_message_get_role (message) == TB_MESSAGE_ROLE_TOOL)
        {
          g_assert_nonnull (strstr (tb_message_get_text (message), "There is no tool named"));
          refused++;
        }
    }
  g_assert_cmpuint (refused, ==, 2);

  {
    g_autofree char *facts = tb_json_to_string (tb_workspace_get_facts (f->workspace), FALSE);

    g_assert_cmpstr (facts, ==, "{}");
  }
  g_assert_cmpint (tb_fact_proposal_get_status (proposal), ==, TB_PROPOSAL_STATUS_PENDING);
  g_assert_false (tb_confirmation_get_used (confirmation));
}

static void
test_pause_for_proposals (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbWorkspaceBinding) binding = NULL;
  g_autoptr(TbConfirmation) confirmation = NULL;
  TbFactProposal *proposal;
  TbTrace *trace;
  GListModel *messages;
  g_autoptr(TbMessage) last_tool = NULL;

  provider = scripted ("{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
                       "{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"facts.propose\",\"arguments\":"
                       "{\"key\":\"city\",\"value\":\"Paris\",\"reason\":\"said so\"}}]},"
                       "{\"tool_calls\":[{\"id\":\"c2\",\"name\":\"facts.get\",\"arguments\":"
                       "{\"key\":\"city\"}}]},"
                       "{\"text\":\"Paris it is.\"}]}");
  loop = tb_dispatch_loop_new (f->registry, provider, 5);
  binding = tb_workspace_binding_new (f->workspace, loop);
  tb_workspace_binding_set_pause_for_proposals (binding, TRUE);
  tb_dispatch_loop_add_user_message (loop, "I live in Paris.", NULL);

  /* The run stops before the model is asked again. */
  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_READY);
  g_assert_true (tb_workspace_binding_get_holding (binding));
  g_assert_cmpuint (tb_dispatch_loop_get_iteration (loop), ==, 1);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);
  g_assert_cmpint (tb_dispatch_loop_get_approval_policy (loop), ==,
                   TB_APPROVAL_POLICY_APPROVE_ALL);

  proposal = tb_workspace_lookup_proposal (f->workspace, "p1");
  g_assert_cmpstr (tb_fact_proposal_get_origin_call_id (proposal), ==, "c1");
  confirmation = tb_confirmation_new (f->workspace, proposal, "Ada", &error);
  g_assert_no_error (error);
  g_assert_true (tb_workspace_commit (f->workspace, proposal, confirmation, &error));
  g_assert_no_error (error);
  g_assert_false (tb_workspace_binding_get_holding (binding));

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);

  /* The model read the committed fact. */
  messages = tb_dispatch_loop_get_messages (loop);
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(TbMessage) message = g_list_model_get_item (messages, i);

      if (tb_message_get_role (message) == TB_MESSAGE_ROLE_TOOL)
        g_set_object (&last_tool, message);
    }
  g_assert_cmpstr (tb_message_get_text (last_tool), ==,
                   "{\"key\":\"city\",\"value\":\"Paris\",\"locked\":false}");

  trace = tb_dispatch_loop_get_trace (loop);
  g_assert_cmpuint (tb_trace_count (trace, "proposal"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "commit"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "pause"), ==, 1);
  g_assert_cmpuint (tb_trace_count (trace, "resume"), ==, 1);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      g_autoptr(JsonNode) node = tb_trace_event_to_json (tb_trace_get_event (trace, i));
      g_autofree char *text = tb_json_to_string (node, FALSE);

      /* The token never reaches the trace. */
      g_assert_null (strstr (text, tb_confirmation_get_token (confirmation)));
      if (g_str_equal (tb_trace_event_get_event_type (tb_trace_get_event (trace, i)), "commit"))
        {
          g_assert_nonnull (strstr (text, "\"confirmed_by\":\"Ada\""));
          g_assert_nonnull (strstr (text, "\"proposal_id\":\"p1\""));
        }
    }
}

static void
test_no_pause_by_default (Fixture *f, gconstpointer data)
{
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbDispatchLoop) loop = NULL;
  g_autoptr(TbWorkspaceBinding) binding = NULL;

  provider = scripted ("{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
                       "{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"facts.propose\",\"arguments\":"
                       "{\"key\":\"city\",\"value\":\"Paris\",\"reason\":\"\"}}]},"
                       "{\"tool_calls\":[{\"id\":\"c2\",\"name\":\"draft.set\",\"arguments\":"
                       "{\"key\":\"note\",\"value\":\"asked\"}}]},"
                       "{\"text\":\"Proposed.\"}]}");
  loop = tb_dispatch_loop_new (f->registry, provider, 5);
  binding = tb_workspace_binding_new (f->workspace, loop);
  tb_dispatch_loop_add_user_message (loop, "I live in Paris.", NULL);

  g_assert_cmpint (test_run_loop (loop), ==, TB_LOOP_STATE_FINISHED);
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 1);
  g_assert_false (tb_workspace_binding_get_holding (binding));
  g_assert_cmpuint (tb_trace_count (tb_dispatch_loop_get_trace (loop), "pause"), ==, 0);
  {
    g_autofree char *draft = tb_json_to_string (tb_workspace_get_draft (f->workspace), FALSE);

    g_assert_cmpstr (draft, ==, "{\"note\":\"asked\"}");
  }
}

static void
test_cli_run (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tb-run-ws-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "workspace.json", NULL);
  g_autofree char *script_path = g_build_filename (dir, "script.json", NULL);
  g_autofree char *trace_path = g_build_filename (dir, "trace.jsonl", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *trace_text = NULL;
  g_autoptr(TbWorkspace) workspace = NULL;
  const char *script =
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"facts.propose\",\"arguments\":"
    "{\"key\":\"city\",\"value\":\"Paris\",\"reason\":\"said so\"}}]},"
    "{\"tool_calls\":[{\"id\":\"c2\",\"name\":\"facts.commit\",\"arguments\":"
    "{\"proposal_id\":\"p1\",\"confirmation\":\"guess\"}}]},"
    "{\"text\":\"Proposed.\"}]}";
  const char *pause_script =
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"facts.propose\",\"arguments\":"
    "{\"key\":\"city\",\"value\":\"Paris\",\"reason\":\"said so\"}}]},"
    "{\"tool_calls\":[{\"id\":\"c2\",\"name\":\"facts.get\",\"arguments\":{}}]},"
    "{\"text\":\"Proposed.\"}]}";
  const char *argv[] = {
    g_getenv ("TOOLBENCH_CLI"), "run", "--script", script_path, "-n", "5",
    "--prompt", "I live in Paris", "--workspace", path, "--trace", trace_path, NULL, NULL,
  };
  int status;

  g_assert_no_error (error);
  if (argv[0] == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set");
      return;
    }
  g_assert_true (g_file_set_contents (script_path, script, -1, &error));

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_nonnull (strstr (out, "There is no tool named “facts.commit”"));
  g_assert_nonnull (strstr (err, "1 proposal waits for a person"));
  g_assert_nonnull (strstr (err, "facts confirm p1"));

  /* The proposal stays pending in the file; no fact changed. */
  workspace = tb_workspace_new_for_path (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tb_workspace_get_n_pending (workspace), ==, 1);
  {
    g_autofree char *facts = tb_json_to_string (tb_workspace_get_facts (workspace), FALSE);

    g_assert_cmpstr (facts, ==, "{}");
  }
  trace_text = read_file (trace_path);
  g_assert_nonnull (strstr (trace_text, "\"type\":\"proposal\""));
  g_assert_null (strstr (trace_text, "\"type\":\"commit\""));

  /* With --pause-for-proposals the run stops before the next calls. */
  g_clear_object (&workspace);
  g_remove (path);
  g_assert_true (g_file_set_contents (script_path, pause_script, -1, &error));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  argv[12] = "--pause-for-proposals";
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_cmpint (WEXITSTATUS (status), ==, 5);
  g_assert_nonnull (strstr (out, "tool facts.propose"));
  g_assert_null (strstr (out, "assistant calls facts.get"));
  g_assert_nonnull (strstr (err, "paused for the person"));
  g_assert_nonnull (strstr (err, "1 proposal waits for a person"));

  remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/workspace/loop/openai-request", Fixture, GINT_TO_POINTER (KIND_OPENAI),
              setup, test_provider_requests, teardown);
  g_test_add ("/workspace/loop/anthropic-request", Fixture, GINT_TO_POINTER (KIND_ANTHROPIC),
              setup, test_provider_requests, teardown);
  g_test_add ("/workspace/loop/gemini-request", Fixture, GINT_TO_POINTER (KIND_GEMINI),
              setup, test_provider_requests, teardown);
  g_test_add ("/workspace/loop/scripted-commit-refused", Fixture, NULL,
              setup, test_scripted_commit_refused, teardown);
  g_test_add ("/workspace/loop/pause-for-proposals", Fixture, NULL,
              setup, test_pause_for_proposals, teardown);
  g_test_add ("/workspace/loop/no-pause-by-default", Fixture, NULL,
              setup, test_no_pause_by_default, teardown);
  g_test_add_func ("/workspace/loop/cli-run", test_cli_run);

  return g_test_run ();
}
