/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A tool of a recorded run that gives back the recorded results instead
 * of running: replay and forks run "offline" through these. */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-replay-private.h"

/* A tool that gives back, in order, the results the trace recorded for
 * calls of its name. */

#define TB_TYPE_RECORDED_TOOL (tb_recorded_tool_get_type ())
G_DECLARE_FINAL_TYPE (TbRecordedTool, tb_recorded_tool, TB, RECORDED_TOOL, TbTool)

struct _TbRecordedTool
{
  TbTool  parent_instance;
  Run    *run;
  GArray *steps;   /* guint: the steps whose results the tool gives, in order */
  guint   next;
};

G_DEFINE_FINAL_TYPE (TbRecordedTool, tb_recorded_tool, TB_TYPE_TOOL)

static void
tb_recorded_tool_invoke_async (TbTool              *tool,
                               JsonNode            *arguments,
                               JsonObject          *context,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  TbRecordedTool *self = TB_RECORDED_TOOL (tool);
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);
  g_autoptr(JsonObject) recorded = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  TbToolResult *result;

  /* Read from the trace when the call comes: a long run's results are
   * not all held at once. */
  if (self->next < self->steps->len)
    recorded = _tb_replay_run_dup_result (self->run,
                                          g_array_index (self->steps, guint, self->next++));
  if (recorded == NULL)
    {
      g_task_return_new_error (task, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                               _("The trace holds no further recorded result for “%s”"),
                               tb_tool_get_name (tool));
      return;
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, recorded);
  result = tb_tool_result_from_json (node, &error);
  if (result == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
tb_recorded_tool_finalize (GObject *object)
{
  TbRecordedTool *self = (TbRecordedTool *)object;

  g_clear_pointer (&self->run, _tb_replay_run_unref);
  g_clear_pointer (&self->steps, g_array_unref);

  G_OBJECT_CLASS (tb_recorded_tool_parent_class)->finalize (object);
}

static void
tb_recorded_tool_class_init (TbRecordedToolClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_recorded_tool_finalize;
  TB_TOOL_CLASS (klass)->invoke_async = tb_recorded_tool_invoke_async;
}

static void
tb_recorded_tool_init (TbRecordedTool *self)
{
  self->steps = g_array_new (FALSE, FALSE, sizeof (guint));
}

TbToolRegistry *
_tb_replay_recorded_registry (TbTrace *trace,
                              Run     *run)
{
  TbToolRegistry *registry = tb_tool_registry_new ();
  JsonArray *tools = tb_json_object_get_array (tb_trace_get_header (trace), "tools");
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         g_object_unref);

  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonNode *element = json_array_get_element (tools, i);
      JsonObject *definition = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                                : NULL;
      const char *name = tb_json_object_get_string (definition, "name");
      JsonNode *parameters = definition != NULL ? json_object_get_member (definition, "parameters")
                                                : NULL;
      TbRecordedTool *tool;

      if (name == NULL || g_hash_table_contains (by_name, name))
        continue;

      /* A recorded tool never times out: its answer is already there. */
      tool = g_initable_new (TB_TYPE_RECORDED_TOOL, NULL, NULL,
                             "name", name,
                             "description", tb_json_object_get_string (definition, "description"),
                             "parameters", parameters != NULL && JSON_NODE_HOLDS_OBJECT (parameters)
                                           ? parameters : NULL,
                             "source", "trace",
                             NULL);
      if (tool == NULL)
        continue;
      tool->run = _tb_replay_run_ref (run);
      g_hash_table_insert (by_name, g_strdup (name), tool);
    }

  /* Only calls that ran produced a result the tool must give again;
   * skipped and rejected calls are decided again without running. */
  for (guint j = 0; j < _tb_replay_run_n_steps (run) && g_hash_table_size (by_name) > 0; j++)
    {
      const Step *step = _tb_replay_run_get_step (run, j);
      g_autofree char *step_name = NULL;
      TbRecordedTool *tool;

      if (step->result == NO_EVENT || !step->offered ||
          step->decision_kind == DECISION_SKIP || step->decision_kind == DECISION_REJECT)
        continue;
      step_name = _tb_replay_run_dup_name (run, j);
      tool = step_name != NULL ? g_hash_table_lookup (by_name, step_name) : NULL;
      if (tool != NULL)
        g_array_append_val (tool->steps, j);
    }

  /* In the order of the header, as before. */
  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonNode *element = json_array_get_element (tools, i);
      const char *name = JSON_NODE_HOLDS_OBJECT (element)
                         ? tb_json_object_get_string (json_node_get_object (element), "name")
                         : NULL;
      TbTool *tool = name != NULL ? g_hash_table_lookup (by_name, name) : NULL;

      if (tool != NULL)
        {
          tb_tool_registry_register (registry, tool, NULL);
          g_hash_table_remove (by_name, name);
        }
    }

  return registry;
}
