/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-tool-private.h"

/* TbSimpleTool: a TbTool around a plain C callback. */

#define TB_TYPE_SIMPLE_TOOL (tb_simple_tool_get_type ())
G_DECLARE_FINAL_TYPE (TbSimpleTool, tb_simple_tool, TB, SIMPLE_TOOL, TbTool)

struct _TbSimpleTool
{
  TbTool             parent_instance;
  TbToolSimpleFunc   func;
  gpointer           user_data;
  GDestroyNotify     destroy;
  TbToolSimpleFlags  flags;
};

G_DEFINE_FINAL_TYPE (TbSimpleTool, tb_simple_tool, TB_TYPE_TOOL)

typedef struct
{
  JsonNode   *arguments;
  JsonObject *context;
} SimpleCall;

static void
simple_call_free (SimpleCall *call)
{
  g_clear_pointer (&call->arguments, json_node_unref);
  g_clear_pointer (&call->context, json_object_unref);
  g_free (call);
}

static TbToolResult *
simple_tool_run (TbSimpleTool  *self,
                 SimpleCall    *call,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(JsonNode) output = NULL;
  g_autoptr(GError) local_error = NULL;

  output = self->func (TB_TOOL (self), json_node_get_object (call->arguments), call->context,
                       cancellable, self->user_data, &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (output == NULL)
    {
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                   _("The tool “%s” returned no result"), tb_tool_get_name (TB_TOOL (self)));
      return NULL;
    }

  return tb_tool_result_new_success (output);
}

static void
simple_tool_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  GError *error = NULL;
  TbToolResult *result;

  result = simple_tool_run (source_object, task_data, cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
tb_simple_tool_invoke_async (TbTool              *tool,
                             JsonNode            *arguments,
                             JsonObject          *context,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  TbSimpleTool *self = TB_SIMPLE_TOOL (tool);
  g_autoptr(GTask) task = NULL;
  SimpleCall *call;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_simple_tool_invoke_async);

  call = g_new0 (SimpleCall, 1);
  call->arguments = json_node_ref (arguments);
  call->context = context != NULL ? json_object_ref (context) : NULL;
  g_task_set_task_data (task, call, (GDestroyNotify) simple_call_free);

  if (self->flags & TB_TOOL_SIMPLE_FLAGS_THREADED)
    {
      g_task_set_return_on_cancel (task, FALSE);
      g_task_run_in_thread (task, simple_tool_thread);
    }
  else
    {
      simple_tool_thread (task, self, call, cancellable);
    }
}

static void
tb_simple_tool_finalize (GObject *object)
{
  TbSimpleTool *self = (TbSimpleTool *)object;

  if (self->destroy != NULL)
    g_clear_pointer (&self->user_data, self->destroy);

  G_OBJECT_CLASS (tb_simple_tool_parent_class)->finalize (object);
}

static void
tb_simple_tool_class_init (TbSimpleToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TbToolClass *tool_class = TB_TOOL_CLASS (klass);

  object_class->finalize = tb_simple_tool_finalize;
  tool_class->invoke_async = tb_simple_tool_invoke_async;
}

static void
tb_simple_tool_init (TbSimpleTool *self)
{
}

/**
 * tb_tool_new_simple_full:
 * @name: 1 to 64 characters of `[A-Za-z0-9_.-]`
 * @description: (nullable): what the tool does, for the model and the person
 * @parameters: (nullable): the JSON Schema of the arguments (an object);
 *   %NULL or `{}` for none
 * @visibility: who may call it
 * @source: (nullable): where it comes from; "builtin" when %NULL
 * @timeout_ms: its time limit; 0 for the registry's default
 * @flags: #TbToolSimpleFlags
 * @func: (scope notified): the handler
 * @user_data: closure for @func
 * @destroy: (nullable): frees @user_data with the tool
 * @error: return location for a #TbToolError
 *
 * Makes a tool that answers calls with a function. @func receives the
 * validated arguments and returns the output, or sets an error that becomes
 * a failed result (a #TbToolError picks the failure kind). With
 * %TB_TOOL_SIMPLE_FLAGS_THREADED it runs on a worker thread and may block;
 * otherwise it runs on the caller's main context. Refuses a bad name, a
 * description that is too long and a schema that is not an object.
 *
 * Returns: (transfer full) (nullable): the tool, or %NULL with @error set
 */
TbTool *
tb_tool_new_simple_full (const char         *name,
                         const char         *description,
                         JsonNode           *parameters,
                         TbToolVisibility    visibility,
                         const char         *source,
                         guint               timeout_ms,
                         TbToolSimpleFlags   flags,
                         TbToolSimpleFunc    func,
                         gpointer            user_data,
                         GDestroyNotify      destroy,
                         GError            **error)
{
  TbSimpleTool *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_initable_new (TB_TYPE_SIMPLE_TOOL, NULL, error,
                         "name", name,
                         "description", description,
                         "parameters", parameters,
                         "visibility", visibility,
                         "source", source,
                         "timeout-ms", timeout_ms,
                         NULL);
  if (self == NULL)
    {
      if (destroy != NULL)
        destroy (user_data);
      return NULL;
    }

  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;
  self->flags = flags;

  return TB_TOOL (self);
}

/**
 * tb_tool_new_simple:
 * @name: the tool's name (see tb_tool_name_is_valid())
 * @description: what the tool does, for the model
 * @parameters: (nullable): the JSON Schema of the arguments; %NULL for none
 * @flags: how to run @func
 * @func: (scope notified): the function that answers a call
 * @user_data: closure for @func
 * @destroy: (nullable): frees @user_data with the tool
 * @error: return location for a #TbToolError
 *
 * Like tb_tool_new_simple_full() for a built-in tool that models may call,
 * with the registry's default time limit.
 *
 * Returns: (transfer full) (nullable): the tool, or %NULL with @error set
 */
TbTool *
tb_tool_new_simple (const char         *name,
                    const char         *description,
                    JsonNode           *parameters,
                    TbToolSimpleFlags   flags,
                    TbToolSimpleFunc    func,
                    gpointer            user_data,
                    GDestroyNotify      destroy,
                    GError            **error)
{
  return tb_tool_new_simple_full (name, description, parameters,
                                  TB_TOOL_VISIBILITY_MODEL, NULL, 0,
                                  flags, func, user_data, destroy, error);
}
