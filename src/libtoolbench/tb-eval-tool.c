/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A tool a scenario describes: it answers with the output or the failure
 * the scenario gives, after an optional delay. */

#define G_LOG_DOMAIN "tb-eval"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-eval-private.h"
#include "tb-json.h"

#define TB_TYPE_EVAL_TOOL (tb_eval_tool_get_type ())
G_DECLARE_FINAL_TYPE (TbEvalTool, tb_eval_tool, TB, EVAL_TOOL, TbTool)

struct _TbEvalTool
{
  TbTool    parent_instance;

  JsonNode *output;
  char     *fail;
  gboolean  stop_loop;
  guint     sleep_ms;
};

G_DEFINE_FINAL_TYPE (TbEvalTool, tb_eval_tool, TB_TYPE_TOOL)

static TbToolResult *
eval_tool_result (TbEvalTool  *self,
                  JsonNode    *arguments,
                  GError     **error)
{
  g_autoptr(JsonObject) metadata = json_object_new ();

  if (self->fail != NULL)
    {
      g_set_error_literal (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED, self->fail);
      return NULL;
    }
  if (self->stop_loop)
    json_object_set_boolean_member (metadata, "stop_loop", TRUE);
  /* Without a fixed output the tool answers with its arguments. */
  return tb_tool_result_new_full (TB_TOOL_FAILURE_NONE,
                                  self->output != NULL ? self->output : arguments,
                                  NULL, metadata, NULL, 0);
}

static void
eval_tool_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  TbEvalTool *self = source_object;
  gint64 deadline = g_get_monotonic_time () + (gint64) self->sleep_ms * 1000;
  GError *error = NULL;
  TbToolResult *result;

  while (g_get_monotonic_time () < deadline)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      g_usleep (MIN (5000, MAX (0, deadline - g_get_monotonic_time ())));
    }

  result = eval_tool_result (self, task_data, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
tb_eval_tool_invoke_async (TbTool              *tool,
                           JsonNode            *arguments,
                           JsonObject          *context,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  TbEvalTool *self = TB_EVAL_TOOL (tool);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;
  TbToolResult *result;

  g_task_set_source_tag (task, tb_eval_tool_invoke_async);
  g_task_set_task_data (task, json_node_ref (arguments), (GDestroyNotify) json_node_unref);

  if (self->sleep_ms > 0)
    {
      g_task_run_in_thread (task, eval_tool_thread);
      return;
    }

  result = eval_tool_result (self, arguments, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static TbToolResult *
tb_eval_tool_invoke_finish (TbTool        *tool,
                            GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tb_eval_tool_finalize (GObject *object)
{
  TbEvalTool *self = (TbEvalTool *)object;

  g_clear_pointer (&self->output, json_node_unref);
  g_clear_pointer (&self->fail, g_free);

  G_OBJECT_CLASS (tb_eval_tool_parent_class)->finalize (object);
}

static void
tb_eval_tool_class_init (TbEvalToolClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_eval_tool_finalize;
  TB_TOOL_CLASS (klass)->invoke_async = tb_eval_tool_invoke_async;
  TB_TOOL_CLASS (klass)->invoke_finish = tb_eval_tool_invoke_finish;
}

static void
tb_eval_tool_init (TbEvalTool *self)
{
}


TbTool *
_tb_eval_tool_new (const char       *name,
                   const char       *description,
                   JsonNode         *parameters,
                   TbToolVisibility  visibility,
                   guint             timeout_ms,
                   JsonNode         *output,
                   const char       *fail,
                   gboolean          stop_loop,
                   guint             sleep_ms)
{
  TbEvalTool *tool = g_object_new (TB_TYPE_EVAL_TOOL,
                                   "name", name,
                                   "description", description,
                                   "parameters", parameters,
                                   "visibility", visibility,
                                   "source", "scenario",
                                   "timeout-ms", timeout_ms,
                                   NULL);

  if (output != NULL)
    {
      tool->output = json_node_copy (output);
      json_node_seal (tool->output);
    }
  tool->fail = g_strdup (fail);
  tool->stop_loop = stop_loop;
  tool->sleep_ms = sleep_ms;
  return TB_TOOL (tool);
}
