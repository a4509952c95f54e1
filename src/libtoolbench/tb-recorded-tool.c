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
  GQueue  results;
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
  g_autoptr(JsonObject) recorded = g_queue_pop_head (&self->results);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  TbToolResult *result;

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

  g_queue_clear_full (&self->results, (GDestroyNotify) json_object_unref);

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
  g_queue_init (&self->results);
}

TbToolRegistry *
_tb_replay_recorded_registry (TbTrace *trace,
                              Run     *run)
{
  TbToolRegistry *registry = tb_tool_registry_new ();
  JsonArray *tools = tb_json_object_get_array (tb_trace_get_header (trace), "tools");

  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonNode *element = json_array_get_element (tools, i);
      JsonObject *definition = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                                : NULL;
      const char *name = tb_json_object_get_string (definition, "name");
      JsonNode *parameters = definition != NULL ? json_object_get_member (definition, "parameters")
                                                : NULL;
      g_autoptr(TbRecordedTool) tool = NULL;

      if (name == NULL)
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

      /* Only calls that ran produced a result the tool must give again;
       * skipped and rejected calls are decided again without running. */
      for (guint j = 0; j < run->steps->len; j++)
        {
          Step *step = g_ptr_array_index (run->steps, j);

          if (step->result != NULL && step->offered && g_strcmp0 (step->name, name) == 0 &&
              g_strcmp0 (step->decision, "skip") != 0 && g_strcmp0 (step->decision, "reject") != 0)
            g_queue_push_tail (&tool->results, json_object_ref (step->result));
        }

      tb_tool_registry_register (registry, TB_TOOL (tool), NULL);
    }

  return registry;
}
