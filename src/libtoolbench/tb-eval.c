/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-eval"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-eval-private.h"
#include "tb-json-private.h"
#include "tb-provider-private.h"
#include "tb-schema.h"
#include "tb-tool-session.h"
#include "tb-workspace-binding.h"

/* Evaluation scenarios: a prompt, the tools to offer (built-in ones by
 * name, or tools the scenario describes), an optional script for offline
 * runs, and the expectations. The format is in docs/eval.md. */

/**
 * tb_eval_error_quark:
 *
 * The error domain of #TbEvalError.
 *
 * Returns: the quark of %TB_EVAL_ERROR
 */
G_DEFINE_QUARK (tb-eval-error-quark, tb_eval_error)

#define MAX_SLEEP_MS 600000

/* ---- scenarios ------------------------------------------------------------ */

struct _TbEvalScenario
{
  GObject           parent_instance;

  char             *name;
  char             *system;
  char             *prompt;
  guint             max_iterations;
  JsonArray        *tools;
  JsonNode         *script;
  JsonObject       *expect;
  TbApprovalPolicy  policy;
  guint             cancel_after_ms;
  TbToolSourceSet  *sources;
  char             *path;
};

/**
 * TbEvalScenario:
 *
 * An evaluation scenario read from a file: a prompt, the tools to offer, an
 * optional script for offline runs, and the expectations that say whether a
 * run passed. The format is in docs/eval.md.
 */
G_DEFINE_FINAL_TYPE (TbEvalScenario, tb_eval_scenario, G_TYPE_OBJECT)

static void
tb_eval_scenario_finalize (GObject *object)
{
  TbEvalScenario *self = (TbEvalScenario *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->system, g_free);
  g_clear_pointer (&self->prompt, g_free);
  g_clear_pointer (&self->tools, json_array_unref);
  g_clear_pointer (&self->script, json_node_unref);
  g_clear_pointer (&self->expect, json_object_unref);
  g_clear_object (&self->sources);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (tb_eval_scenario_parent_class)->finalize (object);
}

static void
tb_eval_scenario_class_init (TbEvalScenarioClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_eval_scenario_finalize;
}

static void
tb_eval_scenario_init (TbEvalScenario *self)
{
  self->sources = tb_tool_source_set_new ();
}

static gboolean
invalid (GError     **error,
         const char  *name,
         const char  *reason)
{
  g_set_error (error, TB_EVAL_ERROR, TB_EVAL_ERROR_INVALID,
               _("The scenario “%s” is not valid: %s"), name != NULL ? name : "?", reason);
  return FALSE;
}

static gboolean
get_uint (JsonObject *object,
          const char *member,
          guint       max,
          guint      *value)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0 || json_node_get_int (node) > max)
    return FALSE;
  *value = (guint) json_node_get_int (node);
  return TRUE;
}

static gboolean
is_string_array (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
    {
      JsonNode *element = json_array_get_element (json_node_get_array (node), i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_expectations (TbEvalScenario  *self,
                    GError         **error)
{
  JsonNode *node;
  JsonArray *calls = tb_json_object_get_array (self->expect, "calls");

  if ((node = json_object_get_member (self->expect, "not_called")) != NULL &&
      !is_string_array (node))
    return invalid (error, self->name, _("“expect.not_called” must be an array of tool names"));

  if ((node = json_object_get_member (self->expect, "facts_proposed")) != NULL)
    {
      JsonArray *facts = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

      for (guint i = 0; facts != NULL && i < json_array_get_length (facts); i++)
        {
          JsonObject *fact = _tb_json_array_get_object (facts, i);

          if (fact == NULL || tb_json_object_get_string (fact, "key") == NULL)
            facts = NULL;
        }
      if (facts == NULL)
        return invalid (error, self->name,
                        _("“expect.facts_proposed” must be an array of {\"key\", \"value\"?}"));
    }

  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonObject *call = _tb_json_array_get_object (calls, i);
      JsonNode *schema = call != NULL ? json_object_get_member (call, "arguments_schema") : NULL;
      g_autoptr(TbSchema) compiled = NULL;
      g_autoptr(GError) local_error = NULL;

      if (schema == NULL)
        continue;
      compiled = tb_schema_new (schema, TB_SCHEMA_DRAFT_AUTO, &local_error);
      if (compiled == NULL)
        {
          g_autofree char *reason =
            g_strdup_printf (_("the “arguments_schema” of expected call %u is not a usable "
                               "JSON Schema: %s"), i + 1, local_error->message);

          return invalid (error, self->name, reason);
        }
    }
  return TRUE;
}

static TbEvalScenario *
scenario_from_json (JsonNode    *node,
                    const char  *base_dir,
                    GError     **error);

/**
 * tb_eval_scenario_new_from_json:
 * @node: a scenario object (see docs/eval.md)
 * @error: return location for a %TB_EVAL_ERROR
 *
 * Relative paths of the tool sources it names are relative to the
 * current folder.
 *
 * Returns: (transfer full) (nullable): the scenario
 */
TbEvalScenario *
tb_eval_scenario_new_from_json (JsonNode  *node,
                                GError   **error)
{
  return scenario_from_json (node, NULL, error);
}

static TbEvalScenario *
scenario_from_json (JsonNode    *node,
                    const char  *base_dir,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(TbEvalScenario) self = g_object_new (TB_TYPE_EVAL_SCENARIO, NULL);
  JsonObject *object;
  JsonNode *tools;
  JsonNode *expect;
  const char *approve;
  const char *format;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid (error, NULL, _("a scenario is a JSON object"));
      return NULL;
    }
  object = json_node_get_object (node);

  format = tb_json_object_get_string (object, "format");
  if (format != NULL && !g_str_equal (format, "toolbench-scenario"))
    {
      invalid (error, NULL, _("its “format” is not “toolbench-scenario”"));
      return NULL;
    }

  self->name = g_strdup (tb_json_object_get_string (object, "name"));
  if (self->name == NULL)
    {
      invalid (error, NULL, _("it needs a “name”"));
      return NULL;
    }
  self->prompt = g_strdup (tb_json_object_get_string (object, "prompt"));
  if (self->prompt == NULL)
    {
      invalid (error, self->name, _("it needs a “prompt”"));
      return NULL;
    }
  self->system = g_strdup (tb_json_object_get_string (object, "system"));

  self->max_iterations = 10;
  if (!get_uint (object, "max_iterations", 10000, &self->max_iterations) ||
      self->max_iterations == 0)
    {
      invalid (error, self->name, _("“max_iterations” must be a whole number from 1 to 10000"));
      return NULL;
    }
  if (!get_uint (object, "cancel_after_ms", MAX_SLEEP_MS, &self->cancel_after_ms))
    {
      invalid (error, self->name,
               _("“cancel_after_ms” must be a whole number of milliseconds"));
      return NULL;
    }

  approve = tb_json_object_get_string (object, "approve");
  if (approve == NULL || g_str_equal (approve, "all"))
    self->policy = TB_APPROVAL_POLICY_APPROVE_ALL;
  else if (g_str_equal (approve, "none"))
    self->policy = TB_APPROVAL_POLICY_REJECT_ALL;
  else
    {
      invalid (error, self->name, _("“approve” must be “all” or “none”"));
      return NULL;
    }

  tools = json_object_get_member (object, "tools");
  if (tools != NULL)
    {
      if (!JSON_NODE_HOLDS_ARRAY (tools))
        {
          invalid (error, self->name, _("“tools” must be an array"));
          return NULL;
        }
      self->tools = json_array_ref (json_node_get_array (tools));
    }

  if (json_object_has_member (object, "script"))
    self->script = json_node_copy (json_object_get_member (object, "script"));

  expect = json_object_get_member (object, "expect");
  if (expect == NULL || !JSON_NODE_HOLDS_OBJECT (expect))
    {
      invalid (error, self->name, _("it needs an “expect” object"));
      return NULL;
    }
  self->expect = json_object_ref (json_node_get_object (expect));
  if (json_object_has_member (self->expect, "state"))
    {
      TbLoopState state;

      if (!tb_loop_state_from_string (tb_json_object_get_string (self->expect, "state"), &state))
        {
          invalid (error, self->name,
                   _("“expect.state” must be finished, limit-reached, failed, cancelled or "
                     "calls-pending"));
          return NULL;
        }
    }
  if (!check_expectations (self, error))
    return NULL;

  /* The tools it brings: MCP servers, manifests, file tools, a workspace. */
  if (!tb_tool_source_set_add_from_json (self->sources, object, base_dir, &local_error))
    {
      invalid (error, self->name, local_error->message);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * tb_eval_scenario_new_from_file:
 * @path: a scenario file
 * @error: return location for a #TbEvalError or a file error
 *
 * Reads a scenario file.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL with @error
 */
TbEvalScenario *
tb_eval_scenario_new_from_file (const char  *path,
                                GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(TbEvalScenario) self = NULL;
  g_autofree char *dir = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  node = _tb_json_parse_file_in (path, TB_JSON_MAX_SIZE, TB_EVAL_ERROR, TB_EVAL_ERROR_INVALID,
                                 /* Translators: a file, then what the parser said */
                                 _("The scenario file “%s” is not JSON: %s"), error);
  if (node == NULL)
    return NULL;

  dir = g_path_get_dirname (path);
  self = scenario_from_json (node, dir, error);
  if (self == NULL)
    return NULL;
  self->path = g_strdup (path);
  return g_steal_pointer (&self);
}

/**
 * tb_eval_scenario_get_path:
 * @self: a scenario
 *
 * Gives the scenario's file.
 *
 * Returns: (nullable): the file the scenario was read from
 */
const char *
tb_eval_scenario_get_path (TbEvalScenario *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SCENARIO (self), NULL);
  return self->path;
}

/**
 * tb_eval_scenario_get_sources:
 * @self: a scenario
 *
 * Gives the MCP servers, manifest folders and workspace the scenario names,
 * which each of its runs opens.
 *
 * Returns: (transfer none): the tool sources the scenario declares (empty
 *   when it declares none)
 */
TbToolSourceSet *
tb_eval_scenario_get_sources (TbEvalScenario *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SCENARIO (self), NULL);
  return self->sources;
}

/**
 * tb_eval_scenario_get_name:
 * @self: a scenario
 *
 * Names the scenario, for reports.
 *
 * Returns: the scenario's name
 */
const char *
tb_eval_scenario_get_name (TbEvalScenario *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SCENARIO (self), NULL);
  return self->name;
}

/**
 * tb_eval_scenario_has_script:
 * @self: a scenario
 *
 * Tells whether the scenario can run offline, with its own script.
 *
 * Returns: %TRUE when the scenario has a script
 */
gboolean
tb_eval_scenario_has_script (TbEvalScenario *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SCENARIO (self), FALSE);
  return self->script != NULL;
}

/**
 * tb_eval_scenario_create_provider:
 * @self: a scenario
 * @error: return location for %TB_EVAL_ERROR_NO_SCRIPT when the scenario has no script
 *
 * Makes the provider of an offline run.
 *
 * Returns: (transfer full) (nullable): a scripted provider playing the
 *   scenario's script
 */
TbScriptedProvider *
tb_eval_scenario_create_provider (TbEvalScenario  *self,
                                  GError         **error)
{
  g_return_val_if_fail (TB_IS_EVAL_SCENARIO (self), NULL);

  if (self->script == NULL)
    {
      g_set_error (error, TB_EVAL_ERROR, TB_EVAL_ERROR_NO_SCRIPT,
                   _("The scenario “%s” has no script, so it can only run against a model"),
                   self->name);
      return NULL;
    }
  return tb_scripted_provider_new_from_json (self->script, error);
}

static TbTool *
described_tool (TbEvalScenario  *self,
                JsonObject      *object,
                GError         **error)
{
  g_autoptr(JsonNode) empty = tb_json_node_new_object ();
  const char *name = tb_json_object_get_string (object, "name");
  const char *visibility = tb_json_object_get_string (object, "visibility");
  JsonNode *parameters = json_object_get_member (object, "parameters");
  guint timeout_ms = 0;
  guint sleep_ms = 0;

  if (name == NULL || !tb_tool_name_is_valid (name, NULL))
    {
      invalid (error, self->name, _("a tool needs a valid “name”"));
      return NULL;
    }
  if (!get_uint (object, "timeout_ms", MAX_SLEEP_MS, &timeout_ms) ||
      !get_uint (object, "sleep_ms", MAX_SLEEP_MS, &sleep_ms))
    {
      invalid (error, self->name,
               _("“timeout_ms” and “sleep_ms” must be whole milliseconds"));
      return NULL;
    }
  if (parameters == NULL)
    {
      json_object_set_string_member (json_node_get_object (empty), "type", "object");
      parameters = empty;
    }

  return _tb_eval_tool_new (name,
                            tb_json_object_get_string (object, "description") != NULL
                            ? tb_json_object_get_string (object, "description")
                            : _("A tool described by the scenario."),
                            parameters,
                            g_strcmp0 (visibility, "user-only") == 0
                            ? TB_TOOL_VISIBILITY_USER_ONLY : TB_TOOL_VISIBILITY_MODEL,
                            timeout_ms, json_object_get_member (object, "output"),
                            tb_json_object_get_string (object, "fail"),
                            tb_json_object_get_boolean (object, "stop_loop", FALSE),
                            sleep_ms);
}

/**
 * tb_eval_scenario_build_registry:
 * @self: a scenario
 * @base: the tools a scenario may name (the built-in ones)
 * @error: return location for an error
 *
 * Makes the registry a run of the scenario offers: the built-in tools it
 * names and the tools it describes.
 *
 * Returns: (transfer full) (nullable): the scenario's tools: all of @base
 *   when it names none
 */
TbToolRegistry *
tb_eval_scenario_build_registry (TbEvalScenario  *self,
                                 TbToolRegistry  *base,
                                 GError         **error)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();

  g_return_val_if_fail (TB_IS_EVAL_SCENARIO (self), NULL);
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (base), NULL);

  if (self->tools == NULL)
    {
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (base)); i++)
        {
          g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (base), i);

          if (!tb_tool_registry_register (registry, tool, error))
            return NULL;
        }
      return g_steal_pointer (&registry);
    }

  for (guint i = 0; i < json_array_get_length (self->tools); i++)
    {
      JsonNode *entry = json_array_get_element (self->tools, i);
      g_autoptr(TbTool) tool = NULL;

      if (JSON_NODE_HOLDS_VALUE (entry) && json_node_get_value_type (entry) == G_TYPE_STRING)
        {
          tool = tb_tool_registry_lookup (base, json_node_get_string (entry));
          if (tool == NULL)
            {
              g_autofree char *reason = g_strdup_printf (_("it names a tool “%s” that does not "
                                                           "exist"),
                                                         json_node_get_string (entry));

              invalid (error, self->name, reason);
              return NULL;
            }
        }
      else if (JSON_NODE_HOLDS_OBJECT (entry))
        {
          tool = described_tool (self, json_node_get_object (entry), error);
          if (tool == NULL)
            return NULL;
        }
      else
        {
          invalid (error, self->name, _("each tool is a name or an object"));
          return NULL;
        }

      if (!tb_tool_registry_register (registry, tool, error))
        return NULL;
    }

  return g_steal_pointer (&registry);
}

/* ---- running -------------------------------------------------------------- */

typedef struct
{
  TbProvider         *provider;
  TbToolSourceSet    *sources;
  TbToolSession      *session;
  TbDispatchLoop     *loop;
  TbWorkspaceBinding *binding;
  GSource            *cancel_source;
  gint64              started;
} Run;

static void
run_free (gpointer data)
{
  Run *run = data;

  if (run->cancel_source != NULL)
    g_source_destroy (run->cancel_source);
  g_clear_pointer (&run->cancel_source, g_source_unref);
  g_clear_object (&run->binding);
  g_clear_object (&run->loop);
  if (run->session != NULL)
    tb_tool_session_close (run->session);
  g_clear_object (&run->session);
  g_clear_object (&run->sources);
  g_clear_object (&run->provider);
  g_free (run);
}

static void
fail_with (TbEvalResult *result,
           const char   *format,
           ...) G_GNUC_PRINTF (2, 3);

static void
fail_with (TbEvalResult *result,
           const char   *format,
           ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (result->failures, g_strdup_vprintf (format, args));
  va_end (args);
}

typedef struct
{
  const char *id;
  const char *name;
  JsonNode   *arguments;
  gboolean    ok;
  const char *kind;
  const char *content;
} ActualCall;

static gboolean
arguments_match (JsonNode *expected,
                 JsonNode *actual)
{
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  if (actual == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (expected) || !JSON_NODE_HOLDS_OBJECT (actual))
    return tb_json_equal (expected, actual);

  /* The members a scenario names must match; others may be present. */
  json_object_iter_init (&iter, json_node_get_object (expected));
  while (json_object_iter_next (&iter, &member, &value))
    {
      JsonNode *got = json_object_get_member (json_node_get_object (actual), member);

      if (got == NULL || !tb_json_equal (value, got))
        return FALSE;
    }
  return TRUE;
}

static void
check_call (TbEvalResult *result,
            guint         index,
            JsonObject   *want,
            ActualCall   *got)
{
  const char *name = tb_json_object_get_string (want, "name");
  JsonNode *args = json_object_get_member (want, "arguments");
  JsonNode *ok = json_object_get_member (want, "ok");
  const char *kind = tb_json_object_get_string (want, "kind");
  const char *contains = tb_json_object_get_string (want, "result_contains");

  if (name != NULL && g_strcmp0 (name, got->name) != 0)
    fail_with (result, _("call %u names “%s”, expected “%s”"), index + 1, got->name, name);
  if (args != NULL && !arguments_match (args, got->arguments))
    {
      g_autofree char *want_text = tb_json_to_string (args, FALSE);
      g_autofree char *got_text = got->arguments != NULL
                                  ? tb_json_to_string (got->arguments, FALSE)
                                  : g_strdup (_("(not JSON)"));

      fail_with (result, _("call %u has arguments %s, expected %s"), index + 1, got_text,
                 want_text);
    }
  if (ok != NULL && JSON_NODE_HOLDS_VALUE (ok) &&
      json_node_get_boolean (ok) != got->ok)
    fail_with (result, got->ok ? _("call %u succeeded, expected it to fail")
                               : _("call %u failed, expected it to succeed"), index + 1);
  if (kind != NULL && g_strcmp0 (kind, got->kind) != 0)
    fail_with (result, _("call %u ended as “%s”, expected “%s”"), index + 1,
               got->kind != NULL ? got->kind : "?", kind);
  if (contains != NULL && (got->content == NULL || strstr (got->content, contains) == NULL))
    fail_with (result, _("the result of call %u does not contain “%s”"), index + 1, contains);

  if (json_object_has_member (want, "arguments_schema"))
    {
      g_autoptr(TbSchema) schema = tb_schema_new (json_object_get_member (want, "arguments_schema"),
                                                  TB_SCHEMA_DRAFT_AUTO, NULL);
      g_autoptr(GPtrArray) errors = NULL;

      if (got->arguments == NULL)
        fail_with (result, _("call %u has arguments that are not JSON, expected ones matching "
                             "its “arguments_schema”"), index + 1);
      else if (schema != NULL && !tb_schema_validate (schema, got->arguments, &errors))
        {
          g_autofree char *first = errors != NULL && errors->len > 0
                                   ? tb_schema_error_to_string (g_ptr_array_index (errors, 0))
                                   : g_strdup ("?");

          fail_with (result, _("call %u has arguments that do not match its "
                               "“arguments_schema”: %s"), index + 1, first);
        }
    }
}

static void
add_tokens (TbEvalResult *result,
            JsonObject   *usage)
{
  /* Each wire format names them its own way. */
  static const char * const input[] = { "input_tokens", "prompt_tokens", "promptTokenCount",
                                        "prompt_eval_count" };
  static const char * const output[] = { "output_tokens", "completion_tokens",
                                         "candidatesTokenCount", "eval_count" };

  for (guint i = 0; usage != NULL && i < G_N_ELEMENTS (input); i++)
    {
      JsonNode *in = json_object_get_member (usage, input[i]);
      JsonNode *out = json_object_get_member (usage, output[i]);

      if (in != NULL && JSON_NODE_HOLDS_VALUE (in) && json_node_get_value_type (in) == G_TYPE_INT64)
        result->input_tokens += MAX (json_node_get_int (in), 0);
      if (out != NULL && JSON_NODE_HOLDS_VALUE (out) &&
          json_node_get_value_type (out) == G_TYPE_INT64)
        result->output_tokens += MAX (json_node_get_int (out), 0);
    }
}

static void
check_facts (TbEvalScenario *self,
             TbWorkspace    *workspace,
             TbEvalResult   *result)
{
  JsonArray *wanted = tb_json_object_get_array (self->expect, "facts_proposed");
  GListModel *proposals = workspace != NULL ? tb_workspace_get_proposals (workspace) : NULL;

  for (guint i = 0; wanted != NULL && i < json_array_get_length (wanted); i++)
    {
      JsonObject *want = _tb_json_array_get_object (wanted, i);
      const char *key = tb_json_object_get_string (want, "key");
      JsonNode *value = json_object_get_member (want, "value");
      gboolean found = FALSE;

      for (guint j = 0; proposals != NULL && !found && j < g_list_model_get_n_items (proposals); j++)
        {
          g_autoptr(TbFactProposal) proposal = g_list_model_get_item (proposals, j);

          found = g_strcmp0 (tb_fact_proposal_get_key (proposal), key) == 0 &&
                  (value == NULL || tb_json_equal (value, tb_fact_proposal_get_value (proposal)));
        }
      if (found)
        continue;
      if (workspace == NULL)
        fail_with (result, _("no fact “%s” was proposed: the scenario has no workspace"), key);
      else if (value != NULL)
        {
          g_autofree char *text = tb_json_to_string (value, FALSE);

          fail_with (result, _("no fact “%s” was proposed with the value %s"), key, text);
        }
      else
        fail_with (result, _("no fact “%s” was proposed"), key);
    }
}

static void
evaluate (TbEvalScenario *self,
          TbDispatchLoop *loop,
          TbWorkspace    *workspace,
          TbEvalResult   *result)
{
  JsonArray *not_called = tb_json_object_get_array (self->expect, "not_called");
  TbTrace *trace = tb_dispatch_loop_get_trace (loop);
  g_autoptr(GArray) calls = g_array_new (FALSE, TRUE, sizeof (ActualCall));
  g_autoptr(GString) last_text = NULL;
  const char *state = tb_json_object_get_string (self->expect, "state");
  const char *text_contains = tb_json_object_get_string (self->expect, "text_contains");
  const char *error_contains = tb_json_object_get_string (self->expect, "error_contains");
  JsonArray *expected_calls = tb_json_object_get_array (self->expect, "calls");
  guint iterations = 0;

  result->state = tb_dispatch_loop_get_state (loop);
  result->iterations = tb_dispatch_loop_get_iteration (loop);
  result->trace = g_object_ref (trace);

  /* Calls in the order the model made them, joined with their results. */
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      JsonObject *payload = tb_trace_event_get_payload (event);
      const char *type = tb_trace_event_get_event_type (event);

      if (g_str_equal (type, "tool-call"))
        {
          JsonObject *call = tb_json_object_get_object (payload, "call");
          ActualCall actual = { 0 };

          actual.id = tb_json_object_get_string (call, "id");
          actual.name = tb_json_object_get_string (call, "name");
          actual.arguments = call != NULL ? json_object_get_member (call, "arguments") : NULL;
          g_array_append_val (calls, actual);
        }
      else if (g_str_equal (type, "tool-result"))
        {
          const char *id = tb_json_object_get_string (payload, "call_id");
          JsonObject *tool_result = tb_json_object_get_object (payload, "result");

          for (guint j = calls->len; j > 0; j--)
            {
              ActualCall *actual = &g_array_index (calls, ActualCall, j - 1);

              if (g_strcmp0 (actual->id, id) == 0 && actual->content == NULL)
                {
                  actual->ok = tb_json_object_get_boolean (tool_result, "ok", FALSE);
                  actual->kind = tb_json_object_get_string (tool_result, "kind");
                  actual->content = tb_json_object_get_string (payload, "content");
                  break;
                }
            }
        }
      else if (g_str_equal (type, "model-turn"))
        add_tokens (result, tb_json_object_get_object (payload, "usage"));
      else if (g_str_equal (type, "message"))
        {
          JsonObject *message = tb_json_object_get_object (payload, "message");

          if (g_strcmp0 (tb_json_object_get_string (message, "role"), "assistant") == 0 &&
              tb_json_object_get_string (message, "text") != NULL)
            {
              if (last_text == NULL)
                last_text = g_string_new (NULL);
              g_string_assign (last_text, tb_json_object_get_string (message, "text"));
            }
        }
    }

  result->calls = calls->len;
  for (guint i = 0; i < calls->len; i++)
    if (g_strcmp0 (g_array_index (calls, ActualCall, i).kind, "invalid-arguments") == 0)
      result->invalid_calls++;

  if (state != NULL && !g_str_equal (state, tb_loop_state_to_string (result->state)))
    {
      if (result->state == TB_LOOP_STATE_FAILED && tb_dispatch_loop_get_error (loop) != NULL)
        fail_with (result, _("the loop ended as %s (%s), expected %s"),
                   tb_loop_state_to_string (result->state),
                   tb_dispatch_loop_get_error (loop)->message, state);
      else
        fail_with (result, _("the loop ended as %s, expected %s"),
                   tb_loop_state_to_string (result->state), state);
    }

  if (get_uint (self->expect, "iterations", G_MAXINT, &iterations) &&
      json_object_has_member (self->expect, "iterations") && iterations != result->iterations)
    fail_with (result, _("the loop used %u iterations, expected %u"), result->iterations,
               iterations);

  if (expected_calls != NULL)
    {
      guint n = json_array_get_length (expected_calls);

      if (n != calls->len)
        fail_with (result, _("the model made %u calls, expected %u"), calls->len, n);
      for (guint i = 0; i < MIN (n, calls->len); i++)
        {
          JsonObject *want = _tb_json_array_get_object (expected_calls, i);

          if (want != NULL)
            check_call (result, i, want, &g_array_index (calls, ActualCall, i));
        }
    }

  for (guint i = 0; not_called != NULL && i < json_array_get_length (not_called); i++)
    {
      const char *name = json_array_get_string_element (not_called, i);
      guint times = 0;

      for (guint j = 0; j < calls->len; j++)
        if (g_strcmp0 (g_array_index (calls, ActualCall, j).name, name) == 0)
          times++;
      if (times > 0)
        fail_with (result, g_dngettext (GETTEXT_PACKAGE,
                                        "the model called “%s” %u time; it must not",
                                        "the model called “%s” %u times; it must not", times),
                   name, times);
    }

  check_facts (self, workspace, result);

  if (text_contains != NULL &&
      (last_text == NULL || strstr (last_text->str, text_contains) == NULL))
    fail_with (result, _("the model's last text does not contain “%s”"), text_contains);

  if (error_contains != NULL &&
      (tb_dispatch_loop_get_error (loop) == NULL ||
       strstr (tb_dispatch_loop_get_error (loop)->message, error_contains) == NULL))
    fail_with (result, _("the loop's error does not contain “%s”"), error_contains);

  result->passed = result->failures->len == 0;
}

static void
loop_done_cb (GObject      *object,
              GAsyncResult *res,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbEvalScenario *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbEvalResult) result = _tb_eval_result_new ();

  /* An interrupted run is still a run: it ended cancelled, and is judged
   * on what it did. */
  tb_dispatch_loop_run_finish (run->loop, res, &error);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  evaluate (self, run->loop, tb_tool_session_get_workspace (run->session), result);
  result->duration_ms = (g_get_monotonic_time () - run->started) / 1000;
  /* The servers stop now, not when the last reference goes. */
  tb_tool_session_close (run->session);
  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) tb_eval_result_unref);
}

static gboolean
cancel_cb (gpointer user_data)
{
  Run *run = user_data;

  tb_dispatch_loop_cancel (run->loop);
  g_clear_pointer (&run->cancel_source, g_source_unref);
  return G_SOURCE_REMOVE;
}

static char *
join_lines (const char * const *lines)
{
  return g_strjoinv ("; ", (char **) lines);
}

static void
session_opened_cb (GObject      *object,
                   GAsyncResult *res,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbEvalScenario *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  TbWorkspace *workspace;

  run->session = tb_tool_source_set_open_finish (TB_TOOL_SOURCE_SET (object), res, &error);

  /* Interrupted while its tools were starting, the run ended cancelled
   * before the model's first turn, as a run interrupted later does. */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_autoptr(TbEvalResult) result = _tb_eval_result_new ();

      result->state = TB_LOOP_STATE_CANCELLED;
      result->passed = FALSE;
      g_ptr_array_add (result->failures,
                       g_strdup (_("The run was interrupted while its tools were starting")));
      result->duration_ms = (g_get_monotonic_time () - run->started) / 1000;
      if (run->session != NULL)
        tb_tool_session_close (run->session);
      g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) tb_eval_result_unref);
      return;
    }

  if (run->session == NULL)
    {
      g_task_return_new_error (task, TB_EVAL_ERROR, TB_EVAL_ERROR_TOOLS,
                               _("The scenario “%s” cannot open its tools: %s"), self->name,
                               error->message);
      return;
    }

  /* A scenario whose tools did not all start would be judged on other
   * tools than it names. */
  if (tb_tool_session_get_server_errors (run->session)[0] != NULL ||
      tb_tool_session_get_problems (run->session)[0] != NULL)
    {
      g_autofree char *servers = join_lines (tb_tool_session_get_server_errors (run->session));
      g_autofree char *problems = join_lines (tb_tool_session_get_problems (run->session));

      g_task_return_new_error (task, TB_EVAL_ERROR, TB_EVAL_ERROR_TOOLS,
                               _("The scenario “%s” cannot start its tools: %s%s%s"), self->name,
                               servers, *servers != '\0' && *problems != '\0' ? "; " : "",
                               problems);
      return;
    }

  registry = tb_eval_scenario_build_registry (self, tb_tool_session_get_registry (run->session),
                                              &error);
  if (registry == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  run->loop = tb_dispatch_loop_new (registry, run->provider, self->max_iterations);
  tb_dispatch_loop_set_approval_policy (run->loop, self->policy);
  workspace = tb_tool_session_get_workspace (run->session);
  if (workspace != NULL)
    run->binding = tb_workspace_binding_new (workspace, run->loop);

  if (self->system != NULL)
    {
      g_autoptr(TbMessage) message = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, self->system);

      tb_dispatch_loop_add_message (run->loop, message, NULL);
    }
  tb_dispatch_loop_add_user_message (run->loop, self->prompt, NULL);

  if (self->cancel_after_ms > 0)
    {
      run->cancel_source = g_timeout_source_new (self->cancel_after_ms);
      g_source_set_callback (run->cancel_source, cancel_cb, run, NULL);
      g_source_attach (run->cancel_source, g_task_get_context (task));
    }

  cancellable = g_task_get_cancellable (task);
  tb_dispatch_loop_run_async (run->loop, cancellable, loop_done_cb, g_steal_pointer (&task));
}

/**
 * tb_eval_scenario_run_async:
 * @self: a scenario
 * @provider: the model: a live provider, or the scenario's own scripted one
 * @sources: (nullable): tool sources every scenario gets (the CLI's
 *   options); the scenario's own are added to a copy
 * @cancellable: (nullable): cancels the run
 * @callback: called with the result
 * @user_data: closure for @callback
 *
 * Each run opens its sources afresh: its own MCP server processes, its
 * own copy of the workspace, stopped and removed when the run ends. Runs
 * side by side share nothing but @provider's configuration.
 */
void
tb_eval_scenario_run_async (TbEvalScenario      *self,
                            TbProvider          *provider,
                            TbToolSourceSet     *sources,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Run *run;

  g_return_if_fail (TB_IS_EVAL_SCENARIO (self));
  g_return_if_fail (TB_IS_PROVIDER (provider));
  g_return_if_fail (sources == NULL || TB_IS_TOOL_SOURCE_SET (sources));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_eval_scenario_run_async);
  /* A cancelled run still has its result: what it did until then. */
  g_task_set_check_cancellable (task, FALSE);

  run = g_new0 (Run, 1);
  run->started = g_get_monotonic_time ();
  run->provider = g_object_ref (provider);
  run->sources = sources != NULL ? tb_tool_source_set_copy (sources) : tb_tool_source_set_new ();
  tb_tool_source_set_add_all (run->sources, self->sources);
  g_task_set_task_data (task, run, run_free);

  tb_tool_source_set_open_async (run->sources, cancellable, session_opened_cb,
                                 g_steal_pointer (&task));
}

/**
 * tb_eval_scenario_run_finish:
 * @self: a scenario
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Ends tb_eval_scenario_run_async(). A run whose expectations do not hold
 * is a result that did not pass, not an error.
 *
 * Returns: (transfer full) (nullable): the result, or %NULL when the run
 *   could not start
 */
TbEvalResult *
tb_eval_scenario_run_finish (TbEvalScenario  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_return_val_if_fail (TB_IS_EVAL_SCENARIO (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
