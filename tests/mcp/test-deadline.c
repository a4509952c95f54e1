/* SPDX-License-Identifier: GPL-3.0-or-later */

/* _tb_tool_call_extend_deadline(): a tool that reports progress keeps its
 * call alive past the registry's time limit; without progress the limit
 * stops it. No MCP server needed. */

#include "config.h"

#include <toolbench.h>

#include "tb-tool-private.h"
#include "mcp-test-util.h"

#define SLOW_TYPE_TOOL (slow_tool_get_type ())
G_DECLARE_FINAL_TYPE (SlowTool, slow_tool, SLOW, TOOL, TbTool)

struct _SlowTool
{
  TbTool        parent_instance;
  gboolean      report_progress;
  GCancellable *seen_cancellable;
};

G_DEFINE_FINAL_TYPE (SlowTool, slow_tool, TB_TYPE_TOOL)

typedef struct
{
  guint ticks;
  guint progress_id;
} Work;

static gboolean
tick_cb (gpointer data)
{
  GTask *task = data;
  SlowTool *self = g_task_get_source_object (task);
  Work *work = g_task_get_task_data (task);

  if (self->report_progress)
    g_assert_true (_tb_tool_call_extend_deadline (g_task_get_cancellable (task)));
  if (++work->ticks < 8)
    return G_SOURCE_CONTINUE;

  work->progress_id = 0;
  {
    g_autoptr(JsonNode) output = tb_json_node_new_string ("done");

    g_task_return_pointer (task, tb_tool_result_new_success (output), g_object_unref);
  }
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
slow_tool_invoke_async (TbTool              *tool,
                        JsonNode            *arguments,
                        JsonObject          *context,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  SlowTool *self = SLOW_TOOL (tool);
  GTask *task = g_task_new (tool, cancellable, callback, user_data);
  Work *work = g_new0 (Work, 1);

  g_set_object (&self->seen_cancellable, cancellable);
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, work, g_free);
  /* Eight ticks of 100 ms: 800 ms of work against a 400 ms limit. */
  work->progress_id = g_timeout_add (100, tick_cb, task);
}

static TbToolResult *
slow_tool_invoke_finish (TbTool        *tool,
                         GAsyncResult  *result,
                         GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
slow_tool_finalize (GObject *object)
{
  g_clear_object (&SLOW_TOOL (object)->seen_cancellable);
  G_OBJECT_CLASS (slow_tool_parent_class)->finalize (object);
}

static void
slow_tool_class_init (SlowToolClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = slow_tool_finalize;
  TB_TOOL_CLASS (klass)->invoke_async = slow_tool_invoke_async;
  TB_TOOL_CLASS (klass)->invoke_finish = slow_tool_invoke_finish;
}

static void
slow_tool_init (SlowTool *self)
{
}

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
run (gboolean progress)
{
  g_autoptr(GError) error = NULL;
  TbToolRegistry *registry = tb_tool_registry_new ();
  SlowTool *tool = g_initable_new (SLOW_TYPE_TOOL, NULL, &error,
                                   "name", "slow", "description", "Works for 800 ms",
                                   "timeout-ms", 400, NULL);
  g_autoptr(TbToolResult) result = NULL;

  g_assert_no_error (error);
  tool->report_progress = progress;
  g_assert_true (tb_tool_registry_register (registry, TB_TOOL (tool), &error));

  result = mcp_test_call (registry, "slow", NULL, NULL);
  if (progress)
    {
      g_assert_true (tb_tool_result_get_ok (result));
      g_assert_cmpint (tb_tool_result_get_duration_us (result), >=, 750000);
    }
  else
    {
      g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
    }

  /* Once the call is over, its cancellable no longer moves anything. */
  g_assert_false (_tb_tool_call_extend_deadline (tool->seen_cancellable));
  g_object_unref (tool);
  g_object_add_weak_pointer (G_OBJECT (registry), (gpointer *) &registry);
  g_object_unref (registry);
  g_assert_true (mcp_test_wait (pointer_is_null, &registry, 2000));
}

static void
test_progress_keeps_alive (void)
{
  run (TRUE);
}

static void
test_no_progress_times_out (void)
{
  run (FALSE);
}

static void
test_foreign_cancellable (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  g_assert_false (_tb_tool_call_extend_deadline (cancellable));
  g_assert_false (_tb_tool_call_extend_deadline (NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/registry/deadline/progress-keeps-alive", test_progress_keeps_alive);
  g_test_add_func ("/registry/deadline/no-progress-times-out", test_no_progress_times_out);
  g_test_add_func ("/registry/deadline/foreign-cancellable", test_foreign_cancellable);

  return g_test_run ();
}
