/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>

#include "workspace-test-util.h"

/* The built-in tools through the registry, as the loop and a person use
 * them, and the security invariant at the registry level: facts.commit is
 * never offered to a model, in any definition format, and a model that
 * names it anyway reaches nothing. */

typedef struct
{
  TbWorkspace    *workspace;
  TbToolRegistry *registry;
  TbToolRegistry *model;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->workspace = tb_workspace_new ();
  f->registry = tb_tool_registry_new ();
  g_assert_true (tb_workspace_register_tools (f->workspace, f->registry, &error));
  g_assert_no_error (error);
  f->model = tb_tool_registry_get_model_tools (f->registry);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  g_assert_finalize_object (f->model);
  g_assert_finalize_object (f->registry);
  g_assert_finalize_object (f->workspace);
}

static void
call_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TbToolResult **out = user_data;

  *out = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object), result);
}

static TbToolResult *
call (TbToolRegistry *registry, const char *name, const char *arguments, const char *call_id)
{
  g_autoptr(JsonNode) args = parse_json (arguments);
  g_autoptr(JsonObject) context = json_object_new ();
  TbToolResult *result = NULL;

  json_object_set_string_member (context, "call_id", call_id);
  tb_tool_registry_call_async (registry, name, call_id, args, context, NULL, call_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return result;
}

static void
assert_facts (Fixture *f, const char *expected)
{
  g_autofree char *text = tb_json_to_string (tb_workspace_get_facts (f->workspace), FALSE);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_model_never_sees_commit (Fixture *f, gconstpointer data)
{
  static const TbDefinitionFormat formats[] = {
    TB_DEFINITION_FORMAT_NATIVE, TB_DEFINITION_FORMAT_OPENAI,
    TB_DEFINITION_FORMAT_ANTHROPIC, TB_DEFINITION_FORMAT_GEMINI,
  };
  g_auto(GStrv) names = tb_tool_registry_get_names (f->model);
  g_autofree char *all = NULL;
  g_autoptr(JsonNode) all_definitions = NULL;

  g_assert_cmpuint (g_strv_length (names), ==, 4);
  g_assert_true (g_strv_contains ((const char * const *) names, "facts.get"));
  g_assert_true (g_strv_contains ((const char * const *) names, "facts.propose"));
  g_assert_true (g_strv_contains ((const char * const *) names, "draft.get"));
  g_assert_true (g_strv_contains ((const char * const *) names, "draft.set"));
  g_assert_false (tb_tool_registry_contains (f->model, "facts.commit"));
  g_assert_true (tb_tool_registry_contains (f->registry, "facts.commit"));
  {
    g_autoptr(TbTool) commit = tb_tool_registry_lookup (f->registry, "facts.commit");

    g_assert_cmpint (tb_tool_get_visibility (commit), ==, TB_TOOL_VISIBILITY_USER_ONLY);
  }

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(JsonNode) definitions = tb_tool_registry_to_definitions (f->model, formats[i]);
      g_autofree char *text = tb_json_to_string (definitions, FALSE);

      g_assert_null (strstr (text, "facts.commit"));
      g_assert_null (strstr (text, "facts_commit"));
      g_assert_null (strstr (text, "confirmation"));
      /* Gemini takes the real name; the others need the wire spelling. */
      if (formats[i] == TB_DEFINITION_FORMAT_GEMINI)
        g_assert_nonnull (strstr (text, "\"facts.propose\""));
      else if (formats[i] != TB_DEFINITION_FORMAT_NATIVE)
        g_assert_nonnull (strstr (text, "\"facts_propose\""));
    }

  /* The wire spellings do not lead back to it. */
  g_assert_null (tb_tool_registry_from_wire_name (f->model, "facts_commit"));
  g_assert_null (tb_tool_registry_from_wire_name (f->model, "facts.commit"));

  /* The whole registry does describe it: the filter above is what hides it. */
  all_definitions = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_OPENAI);
  all = tb_json_to_string (all_definitions, FALSE);
  g_assert_nonnull (strstr (all, "facts_commit"));
}

static void
test_model_calls_commit (Fixture *f, gconstpointer data)
{
  g_autoptr(TbToolResult) proposed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbConfirmation) confirmation = NULL;
  TbFactProposal *proposal;
  static const char * const spellings[] = { "facts.commit", "facts_commit" };

  proposed = call (f->model, "facts.propose",
                   "{\"key\":\"city\",\"value\":\"Paris\",\"reason\":\"the user said so\"}",
                   "call_1");
  g_assert_true (tb_tool_result_get_ok (proposed));
  proposal = tb_workspace_lookup_proposal (f->workspace, "p1");

  /* Even holding a real confirmation token, a model reaches nothing. */
  confirmation = tb_confirmation_new (f->workspace, proposal, "Ada", &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (spellings); i++)
    {
      g_autofree char *args =
        g_strdup_printf ("{\"proposal_id\":\"p1\",\"confirmation\":\"%s\"}",
                         tb_confirmation_get_token (confirmation));
      g_autoptr(TbToolResult) result = call (f->model, spellings[i], args, "call_2");

      g_assert_false (tb_tool_result_get_ok (result));
      g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_NOT_FOUND);
      g_assert_nonnull (strstr (tb_tool_result_get_error (result), "There is no tool named"));
    }

  assert_facts (f, "{}");
  g_assert_cmpint (tb_fact_proposal_get_status (proposal), ==, TB_PROPOSAL_STATUS_PENDING);
  g_assert_false (tb_confirmation_get_used (confirmation));
}

static void
test_propose_and_get (Fixture *f, gconstpointer data)
{
  g_autoptr(TbToolResult) proposed = NULL;
  g_autoptr(TbToolResult) got = NULL;
  g_autoptr(TbToolResult) missing = NULL;
  g_autoptr(TbToolResult) all = NULL;
  g_autofree char *content = NULL;
  TbFactProposal *proposal;

  proposed = call (f->model, "facts.propose",
                   "{\"key\":\"/trip/hotel\",\"value\":{\"name\":\"Ritz\"},\"reason\":\"booked\"}",
                   "call_7");
  g_assert_true (tb_tool_result_get_ok (proposed));
  content = tb_tool_result_to_model_content (proposed);
  g_assert_nonnull (strstr (content, "\"proposal_id\":\"p1\""));
  g_assert_nonnull (strstr (content, "until a person confirms"));

  /* Nobody asked runs to wait: the result does not pause the loop. */
  g_assert_false (tb_tool_result_get_metadata (proposed) != NULL &&
                  json_object_has_member (tb_tool_result_get_metadata (proposed), "pause_loop"));

  proposal = tb_workspace_lookup_proposal (f->workspace, "p1");
  g_assert_cmpstr (tb_fact_proposal_get_origin_call_id (proposal), ==, "call_7");
  g_assert_cmpstr (tb_fact_proposal_get_reason (proposal), ==, "booked");

  /* Still not a fact. */
  missing = call (f->model, "facts.get", "{\"key\":\"/trip/hotel\"}", "call_8");
  g_assert_false (tb_tool_result_get_ok (missing));
  g_assert_cmpstr (tb_tool_result_get_error (missing), ==, "There is no fact “/trip/hotel”.");

  all = call (f->model, "facts.get", "{}", "call_9");
  g_assert_true (tb_tool_result_get_ok (all));
  g_clear_pointer (&content, g_free);
  content = tb_json_to_string (tb_tool_result_get_output (all), FALSE);
  g_assert_cmpstr (content, ==, "{\"facts\":{},\"locked\":[],\"pending_proposals\":1}");

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TbConfirmation) confirmation = tb_confirmation_new (f->workspace, proposal, "Ada",
                                                                  &error);

    g_assert_true (tb_workspace_commit (f->workspace, proposal, confirmation, &error));
    g_assert_no_error (error);
  }

  got = call (f->model, "facts.get", "{\"key\":\"/trip/hotel/name\"}", "call_10");
  g_assert_true (tb_tool_result_get_ok (got));
  g_clear_pointer (&content, g_free);
  content = tb_json_to_string (tb_tool_result_get_output (got), FALSE);
  g_assert_cmpstr (content, ==, "{\"key\":\"/trip/hotel/name\",\"value\":\"Ritz\",\"locked\":false}");
}

static void
test_locked_refused (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) proposed = NULL;
  g_autoptr(TbToolResult) drafted = NULL;
  g_autoptr(TbToolResult) bad_key = NULL;

  g_assert_true (tb_workspace_lock (f->workspace, "budget", &error));
  g_assert_no_error (error);

  proposed = call (f->model, "facts.propose",
                   "{\"key\":\"budget\",\"value\":100,\"reason\":\"cheaper\"}", "call_1");
  g_assert_false (tb_tool_result_get_ok (proposed));
  g_assert_cmpint (tb_tool_result_get_kind (proposed), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
  g_assert_nonnull (strstr (tb_tool_result_get_error (proposed), "“budget” is locked"));
  g_assert_cmpuint (tb_workspace_get_n_pending (f->workspace), ==, 0);

  drafted = call (f->model, "draft.set", "{\"key\":\"/budget/x\",\"value\":1}", "call_2");
  g_assert_false (tb_tool_result_get_ok (drafted));
  g_assert_cmpint (tb_tool_result_get_kind (drafted), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);

  bad_key = call (f->model, "facts.propose",
                  "{\"key\":\"/a//b\",\"value\":1,\"reason\":\"\"}", "call_3");
  g_assert_false (tb_tool_result_get_ok (bad_key));
  g_assert_cmpint (tb_tool_result_get_kind (bad_key), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_nonnull (strstr (tb_tool_result_get_error (bad_key), "empty part"));
}

static void
test_draft_tools (Fixture *f, gconstpointer data)
{
  g_autoptr(TbToolResult) set = NULL;
  g_autoptr(TbToolResult) got = NULL;
  g_autofree char *content = NULL;

  set = call (f->model, "draft.set", "{\"key\":\"outline\",\"value\":[\"intro\",\"end\"]}",
              "call_1");
  g_assert_true (tb_tool_result_get_ok (set));
  got = call (f->model, "draft.get", "{\"key\":\"/outline/1\"}", "call_2");
  g_assert_true (tb_tool_result_get_ok (got));
  content = tb_json_to_string (tb_tool_result_get_output (got), FALSE);
  g_assert_cmpstr (content, ==, "{\"key\":\"/outline/1\",\"value\":\"end\",\"locked\":false}");
  assert_facts (f, "{}");
}

static void
test_person_commit_tool (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbToolResult) forged = NULL;
  g_autoptr(TbToolResult) committed = NULL;
  g_autoptr(TbToolResult) reused = NULL;
  g_autoptr(TbConfirmation) confirmation = NULL;
  g_autofree char *args = NULL;
  g_autofree char *content = NULL;
  TbFactProposal *proposal;
  JsonNode *value = parse_json ("\"Paris\"");

  proposal = tb_workspace_propose (f->workspace, "city", value, "", NULL, &error);
  json_node_unref (value);
  g_assert_no_error (error);

  /* A made-up token is refused, even by the full registry. */
  forged = call (f->registry, "facts.commit",
                 "{\"proposal_id\":\"p1\",\"confirmation\":\"00000000000000000000000000000000\"}",
                 "call_1");
  g_assert_false (tb_tool_result_get_ok (forged));
  g_assert_cmpint (tb_tool_result_get_kind (forged), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
  g_assert_null (tb_workspace_dup_fact (f->workspace, "city", NULL));

  confirmation = tb_confirmation_new (f->workspace, proposal, "Ada", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (tb_confirmation_get_token (confirmation)), ==, 32);
  args = g_strdup_printf ("{\"proposal_id\":\"p1\",\"confirmation\":\"%s\"}",
                          tb_confirmation_get_token (confirmation));

  committed = call (f->registry, "facts.commit", args, "call_2");
  g_assert_true (tb_tool_result_get_ok (committed));
  content = tb_json_to_string (tb_tool_result_get_output (committed), FALSE);
  g_assert_cmpstr (content, ==, "{\"proposal_id\":\"p1\",\"key\":\"city\",\"status\":\"committed\","
                                "\"confirmed_by\":\"Ada\"}");

  reused = call (f->registry, "facts.commit", args, "call_3");
  g_assert_false (tb_tool_result_get_ok (reused));
  g_assert_cmpint (tb_tool_result_get_kind (reused), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/workspace/tools/model-never-sees-commit", test_model_never_sees_commit);
  ADD ("/workspace/tools/model-calls-commit", test_model_calls_commit);
  ADD ("/workspace/tools/propose-and-get", test_propose_and_get);
  ADD ("/workspace/tools/locked-refused", test_locked_refused);
  ADD ("/workspace/tools/draft", test_draft_tools);
  ADD ("/workspace/tools/person-commit", test_person_commit_tool);
#undef ADD

  return g_test_run ();
}
