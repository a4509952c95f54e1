/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-tool-private.h"
#include "tb-workspace-private.h"

/* The built-in tools of a workspace. facts.get, facts.propose, draft.get and
 * draft.set are offered to models; facts.commit is user-only: it never
 * appears in a provider request, and even a person calling it needs the
 * token of a confirmation made by the confirmation path. */

#define SOURCE_NAME "workspace"

typedef JsonNode *(*WorkspaceFunc) (TbWorkspace  *workspace,
                                    JsonObject   *arguments,
                                    JsonObject   *context,
                                    JsonObject   *metadata,
                                    GError      **error);

/* The tools run on the workspace's thread and may put metadata (such as
 * pause_loop) on their result, which a simple tool cannot. */
#define TB_TYPE_WORKSPACE_TOOL (tb_workspace_tool_get_type ())
G_DECLARE_FINAL_TYPE (TbWorkspaceTool, tb_workspace_tool, TB, WORKSPACE_TOOL, TbTool)

struct _TbWorkspaceTool
{
  TbTool         parent_instance;

  TbWorkspace   *workspace;
  WorkspaceFunc  func;
};

G_DEFINE_FINAL_TYPE (TbWorkspaceTool, tb_workspace_tool, TB_TYPE_TOOL)

static void
tb_workspace_tool_invoke_async (TbTool              *tool,
                                JsonNode            *arguments,
                                JsonObject          *context,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  TbWorkspaceTool *self = TB_WORKSPACE_TOOL (tool);
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);
  g_autoptr(JsonObject) metadata = json_object_new ();
  g_autoptr(JsonNode) output = NULL;
  GError *error = NULL;

  g_task_set_source_tag (task, tb_workspace_tool_invoke_async);

  output = self->func (self->workspace, json_node_get_object (arguments), context, metadata,
                       &error);
  if (output == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task,
                         tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, metadata,
                                                  NULL, 0),
                         g_object_unref);
}

static TbToolResult *
tb_workspace_tool_invoke_finish (TbTool        *tool,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, tool), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tb_workspace_tool_finalize (GObject *object)
{
  TbWorkspaceTool *self = TB_WORKSPACE_TOOL (object);

  g_clear_object (&self->workspace);

  G_OBJECT_CLASS (tb_workspace_tool_parent_class)->finalize (object);
}

static void
tb_workspace_tool_class_init (TbWorkspaceToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TbToolClass *tool_class = TB_TOOL_CLASS (klass);

  object_class->finalize = tb_workspace_tool_finalize;
  tool_class->invoke_async = tb_workspace_tool_invoke_async;
  tool_class->invoke_finish = tb_workspace_tool_invoke_finish;
}

static void
tb_workspace_tool_init (TbWorkspaceTool *self)
{
}

static void
to_tool_error (GError  *workspace_error,
               GError **error)
{
  TbToolError code = TB_TOOL_ERROR_FAILED;

  if (workspace_error->domain == TB_WORKSPACE_ERROR)
    {
      switch ((TbWorkspaceError) workspace_error->code)
        {
        case TB_WORKSPACE_ERROR_INVALID_KEY:
        case TB_WORKSPACE_ERROR_INVALID_VALUE:
        case TB_WORKSPACE_ERROR_NOT_FOUND:
          code = TB_TOOL_ERROR_INVALID_ARGUMENTS;
          break;

        case TB_WORKSPACE_ERROR_LOCKED:
        case TB_WORKSPACE_ERROR_CONFIRMATION:
          code = TB_TOOL_ERROR_PERMISSION_DENIED;
          break;

        case TB_WORKSPACE_ERROR_DAMAGED:
        case TB_WORKSPACE_ERROR_VERSION:
        case TB_WORKSPACE_ERROR_IO:
        case TB_WORKSPACE_ERROR_CONFLICT:
        case TB_WORKSPACE_ERROR_NOT_PENDING:
        case TB_WORKSPACE_ERROR_SUPERSEDED:
        case TB_WORKSPACE_ERROR_TOO_MANY:
        case TB_WORKSPACE_ERROR_BUSY:
        default:
          code = TB_TOOL_ERROR_FAILED;
          break;
        }
    }

  g_set_error_literal (error, TB_TOOL_ERROR, code, workspace_error->message);
}

static const char *
optional_key (JsonObject *arguments)
{
  JsonNode *node = json_object_get_member (arguments, "key");

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return json_node_get_string (node);
}

static JsonNode *
object_node (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

static JsonNode *
get_value (TbWorkspace  *workspace,
           JsonObject   *arguments,
           gboolean      facts,
           GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  const char *key = optional_key (arguments);
  JsonObject *result = json_object_new ();
  JsonNode *value;

  if (key == NULL)
    {
      g_auto(GStrv) locks = tb_workspace_get_locks (workspace);
      JsonArray *locked = json_array_new ();

      for (guint i = 0; locks[i] != NULL; i++)
        json_array_add_string_element (locked, locks[i]);
      json_object_set_member (result, facts ? "facts" : "draft",
                              tb_json_copy (facts ? tb_workspace_get_facts (workspace)
                                                             : tb_workspace_get_draft (workspace)));
      json_object_set_array_member (result, "locked", locked);
      if (facts)
        json_object_set_int_member (result, "pending_proposals",
                                    tb_workspace_get_n_pending (workspace));
      return object_node (result);
    }

  value = facts ? tb_workspace_dup_fact (workspace, key, &local_error)
                : tb_workspace_dup_draft_value (workspace, key, &local_error);
  if (value == NULL)
    {
      json_object_unref (result);
      to_tool_error (local_error, error);
      return NULL;
    }

  json_object_set_string_member (result, "key", key);
  json_object_set_member (result, "value", value);
  json_object_set_boolean_member (result, "locked", tb_workspace_is_locked (workspace, key));
  return object_node (result);
}

static JsonNode *
facts_get_func (TbWorkspace  *workspace,
                JsonObject   *arguments,
                JsonObject   *context,
                JsonObject   *metadata,
                GError      **error)
{
  return get_value (workspace, arguments, TRUE, error);
}

static JsonNode *
draft_get_func (TbWorkspace  *workspace,
                JsonObject   *arguments,
                JsonObject   *context,
                JsonObject   *metadata,
                GError      **error)
{
  return get_value (workspace, arguments, FALSE, error);
}

static const char *
context_call_id (JsonObject *context)
{
  static const char * const names[] = { "call_id", "call-id", "tool_call_id" };

  for (guint i = 0; context != NULL && i < G_N_ELEMENTS (names); i++)
    {
      JsonNode *node = json_object_get_member (context, names[i]);

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
          json_node_get_value_type (node) == G_TYPE_STRING)
        return json_node_get_string (node);
    }
  return NULL;
}

static JsonNode *
facts_propose_func (TbWorkspace  *workspace,
                    JsonObject   *arguments,
                    JsonObject   *context,
                    JsonObject   *metadata,
                    GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  TbFactProposal *proposal;
  JsonObject *result;

  proposal = tb_workspace_propose (workspace,
                                   json_object_get_string_member (arguments, "key"),
                                   json_object_get_member (arguments, "value"),
                                   json_object_get_string_member (arguments, "reason"),
                                   context_call_id (context), &local_error);
  if (proposal == NULL)
    {
      to_tool_error (local_error, error);
      return NULL;
    }

  result = json_object_new ();
  json_object_set_string_member (result, "proposal_id", tb_fact_proposal_get_id (proposal));
  json_object_set_string_member (result, "key", tb_fact_proposal_get_key (proposal));
  json_object_set_string_member (result, "status", "pending");
  json_object_set_string_member (result, "note",
                                 _("Proposed, not committed: the fact keeps its current value "
                                   "until a person confirms this proposal."));

  /* The run waits for the person before asking the model again. */
  if (_tb_workspace_get_pause_runs (workspace))
    json_object_set_boolean_member (metadata, "pause_loop", TRUE);

  return object_node (result);
}

static JsonNode *
draft_set_func (TbWorkspace  *workspace,
                JsonObject   *arguments,
                JsonObject   *context,
                JsonObject   *metadata,
                GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  const char *key = json_object_get_string_member (arguments, "key");
  JsonObject *result;

  if (!tb_workspace_set_draft_value (workspace, key, json_object_get_member (arguments, "value"),
                                     &local_error))
    {
      to_tool_error (local_error, error);
      return NULL;
    }

  result = json_object_new ();
  json_object_set_string_member (result, "key", key);
  json_object_set_string_member (result, "status", "set");
  return object_node (result);
}

static JsonNode *
facts_commit_func (TbWorkspace  *workspace,
                   JsonObject   *arguments,
                   JsonObject   *context,
                   JsonObject   *metadata,
                   GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  const char *id = json_object_get_string_member (arguments, "proposal_id");
  const char *token = json_object_get_string_member (arguments, "confirmation");
  TbConfirmation *confirmation;
  TbFactProposal *proposal;
  JsonObject *result;

  proposal = tb_workspace_lookup_proposal (workspace, id);
  if (proposal == NULL)
    {
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_ARGUMENTS,
                   _("There is no proposal “%s”."), id);
      return NULL;
    }

  confirmation = _tb_workspace_lookup_confirmation (workspace, token);
  if (confirmation == NULL)
    {
      g_set_error_literal (error, TB_TOOL_ERROR, TB_TOOL_ERROR_PERMISSION_DENIED,
                           _("This confirmation was not made by this workspace's confirmation "
                             "dialog or the explicit confirm command, or it was already used. "
                             "Nothing was committed."));
      return NULL;
    }

  if (!tb_workspace_commit (workspace, proposal, confirmation, &local_error))
    {
      to_tool_error (local_error, error);
      return NULL;
    }

  result = json_object_new ();
  json_object_set_string_member (result, "proposal_id", id);
  json_object_set_string_member (result, "key", tb_fact_proposal_get_key (proposal));
  json_object_set_string_member (result, "status", "committed");
  json_object_set_string_member (result, "confirmed_by",
                                 tb_fact_proposal_get_resolved_by (proposal));
  return object_node (result);
}

static gboolean
add_tool (TbToolRegistry    *registry,
          TbWorkspace       *workspace,
          const char        *name,
          const char        *description,
          const char        *parameters,
          TbToolVisibility   visibility,
          WorkspaceFunc      func,
          GError           **error)
{
  g_autoptr(JsonNode) params = tb_json_parse (parameters, -1, NULL);
  g_autoptr(TbWorkspaceTool) tool = NULL;

  g_assert (params != NULL);

  tool = g_object_new (TB_TYPE_WORKSPACE_TOOL,
                       "name", name,
                       "description", description,
                       "parameters", params,
                       "visibility", visibility,
                       "source", SOURCE_NAME,
                       NULL);
  tool->workspace = g_object_ref (workspace);
  tool->func = func;
  /* Reading facts and the draft changes nothing: the read-only policy
   * lets them run unasked. */
  if (g_str_has_suffix (name, ".get"))
    _tb_tool_set_hints (TB_TOOL (tool), TB_TOOL_HINT_READ_ONLY | TB_TOOL_HINT_IDEMPOTENT);

  return tb_tool_registry_register (registry, TB_TOOL (tool), error);
}

#define KEY_SCHEMA \
  "{\"type\":\"string\",\"minLength\":1,\"maxLength\":1024,\"description\":" \
  "\"A top-level name such as city, or a JSON Pointer such as /trip/hotel for a nested value\"}"

/**
 * tb_workspace_register_tools:
 * @self: a workspace
 * @registry: where to register the tools
 * @error: return location for a #TbRegistryError
 *
 * Registers, with source "workspace": `facts.get`, `facts.propose`,
 * `draft.get` and `draft.set` (visible to models) and `facts.commit`
 * (user-only; it needs the token of a #TbConfirmation).
 *
 * Returns: %TRUE when all five were registered
 */
gboolean
tb_workspace_register_tools (TbWorkspace     *self,
                             TbToolRegistry  *registry,
                             GError         **error)
{
  g_return_val_if_fail (TB_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), FALSE);

  return add_tool (registry, self, "facts.get",
                   _("Returns the confirmed facts, or one fact by key, and which keys are "
                     "locked."),
                   "{\"type\":\"object\",\"properties\":{\"key\":" KEY_SCHEMA "},"
                   "\"additionalProperties\":false}",
                   TB_TOOL_VISIBILITY_MODEL, facts_get_func, error) &&
         add_tool (registry, self, "facts.propose",
                   _("Proposes a new value for a fact. The fact does not change until a "
                     "person confirms the proposal; locked keys are refused."),
                   "{\"type\":\"object\",\"properties\":{\"key\":" KEY_SCHEMA ","
                   "\"value\":{\"description\":\"The proposed value: any JSON value\"},"
                   "\"reason\":{\"type\":\"string\",\"maxLength\":4096,"
                   "\"description\":\"Why the fact should change, for the person who decides\"}},"
                   "\"required\":[\"key\",\"value\",\"reason\"],\"additionalProperties\":false}",
                   TB_TOOL_VISIBILITY_MODEL, facts_propose_func, error) &&
         add_tool (registry, self, "draft.get",
                   _("Returns the working draft, or one draft entry by key."),
                   "{\"type\":\"object\",\"properties\":{\"key\":" KEY_SCHEMA "},"
                   "\"additionalProperties\":false}",
                   TB_TOOL_VISIBILITY_MODEL, draft_get_func, error) &&
         add_tool (registry, self, "draft.set",
                   _("Sets an entry of the working draft; locked keys are refused."),
                   "{\"type\":\"object\",\"properties\":{\"key\":" KEY_SCHEMA ","
                   "\"value\":{\"description\":\"The new value: any JSON value\"}},"
                   "\"required\":[\"key\",\"value\"],\"additionalProperties\":false}",
                   TB_TOOL_VISIBILITY_MODEL, draft_set_func, error) &&
         add_tool (registry, self, "facts.commit",
                   _("Commits a proposal a person has confirmed. Needs the confirmation "
                     "that the confirmation dialog or “facts confirm --yes” made."),
                   "{\"type\":\"object\",\"properties\":{"
                   "\"proposal_id\":{\"type\":\"string\",\"description\":\"The proposal\"},"
                   "\"confirmation\":{\"type\":\"string\","
                   "\"description\":\"The token of the person's confirmation\"}},"
                   "\"required\":[\"proposal_id\",\"confirmation\"],"
                   "\"additionalProperties\":false}",
                   TB_TOOL_VISIBILITY_USER_ONLY, facts_commit_func, error);
}
