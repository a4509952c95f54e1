/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-registry"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"
#include "tb-tool-registry-private.h"
#include "tb-wire-schema.h"

/* Calls. */

typedef struct
{
  TbToolRegistry *registry;
  TbTool         *tool;
  char           *call_id;
  GCancellable   *tool_cancellable;
  GSource        *timeout_source;
  GSource        *cancel_source;
  gint64          started;
  guint           timeout_ms;
  gboolean        done;
  gboolean        unvalidated;
} CallData;

static void
call_data_free (CallData *data)
{
  if (data->timeout_source != NULL)
    {
      g_source_destroy (data->timeout_source);
      g_source_unref (data->timeout_source);
    }
  if (data->cancel_source != NULL)
    {
      g_source_destroy (data->cancel_source);
      g_source_unref (data->cancel_source);
    }
  g_clear_object (&data->tool_cancellable);
  g_clear_object (&data->tool);
  g_clear_object (&data->registry);
  g_free (data->call_id);
  g_free (data);
}

static G_DEFINE_QUARK (tb-tool-call-task, call_task)

/* The same result, its metadata saying the arguments were not validated. */
static TbToolResult *
mark_unvalidated (TbToolResult *result)
{
  JsonObject *metadata = tb_tool_result_get_metadata (result);
  g_autoptr(JsonObject) marked = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;

  json_object_iter_init (&iter, metadata);
  while (json_object_iter_next (&iter, &member, &node))
    json_object_set_member (marked, member, json_node_copy (node));
  json_object_set_boolean_member (marked, TB_TOOL_RESULT_UNVALIDATED, TRUE);
  return tb_tool_result_new_full (tb_tool_result_get_kind (result),
                                  tb_tool_result_get_output (result),
                                  tb_tool_result_get_error (result),
                                  marked,
                                  tb_tool_result_get_warnings (result),
                                  tb_tool_result_get_duration_us (result));
}

static void
finish_call (GTask        *task,
             TbToolResult *result)
{
  CallData *data = g_task_get_task_data (task);
  g_autoptr(TbToolResult) timed = NULL;

  g_assert (!data->done);

  data->done = TRUE;
  if (data->tool_cancellable != NULL)
    g_object_set_qdata (G_OBJECT (data->tool_cancellable), call_task_quark (), NULL);
  if (data->timeout_source != NULL)
    g_source_destroy (data->timeout_source);
  if (data->cancel_source != NULL)
    g_source_destroy (data->cancel_source);

  /* Tell a tool that is still running that nobody waits for it. */
  if (data->tool_cancellable != NULL)
    g_cancellable_cancel (data->tool_cancellable);

  timed = tb_tool_result_copy_with_duration (result,
                                             g_get_monotonic_time () - data->started);
  if (data->unvalidated)
    {
      TbToolResult *marked = mark_unvalidated (timed);

      g_object_unref (timed);
      timed = marked;
    }

  if (data->tool != NULL)
    g_signal_emit (data->registry, _tb_tool_registry_signals [TB_TOOL_REGISTRY_CALL_FINISHED], 0,
                   data->tool, data->call_id, timed);

  g_task_return_pointer (task, g_steal_pointer (&timed), g_object_unref);
}

static char *
format_duration_ms (guint ms)
{
  if (ms % 1000 == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", ms / 1000),
                            ms / 1000);
  return g_strdup_printf ("%u ms", ms);
}

static gboolean
call_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autofree char *limit = format_duration_ms (data->timeout_ms);
  g_autofree char *message = NULL;
  g_autoptr(TbToolResult) result = NULL;

  message = g_strdup_printf (_("The tool “%s” did not finish within %s and was stopped"),
                             tb_tool_get_name (data->tool), limit);
  result = tb_tool_result_new_failure (TB_TOOL_FAILURE_TIMEOUT, message);
  finish_call (task, result);

  return G_SOURCE_REMOVE;
}

static gboolean
call_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  GTask *task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *message = NULL;

  message = g_strdup_printf (_("The call of “%s” was cancelled"),
                             data->tool != NULL ? tb_tool_get_name (data->tool) : "?");
  result = tb_tool_result_new_failure (TB_TOOL_FAILURE_CANCELLED, message);
  finish_call (task, result);

  return G_SOURCE_REMOVE;
}

static GSource *
new_timeout_source (GTask *task)
{
  CallData *data = g_task_get_task_data (task);
  GSource *source = g_timeout_source_new (data->timeout_ms);

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, call_timeout_cb, task, NULL);
  g_source_set_static_name (source, "[tb] tool call timeout");
  g_source_attach (source, g_task_get_context (task));
  return source;
}

/**
 * _tb_tool_call_extend_deadline:
 * @cancellable: the cancellable the registry passed to the tool's
 *   invoke_async()
 *
 * Tells the registry that the call made progress: its time limit starts
 * over from now. MCP tools call this for every `notifications/progress`.
 * Call it on the main context, where the registry runs calls; it does
 * nothing once the call has finished or when @cancellable does not belong
 * to a running registry call.
 *
 * Returns: %TRUE when a running call's deadline was moved
 */
gboolean
_tb_tool_call_extend_deadline (GCancellable *cancellable)
{
  GTask *task;
  CallData *data;

  if (cancellable == NULL)
    return FALSE;

  task = g_object_get_qdata (G_OBJECT (cancellable), call_task_quark ());
  if (task == NULL)
    return FALSE;

  data = g_task_get_task_data (task);
  if (data->done || data->timeout_source == NULL)
    return FALSE;

  g_source_destroy (data->timeout_source);
  g_source_unref (data->timeout_source);
  data->timeout_source = new_timeout_source (task);
  return TRUE;
}

typedef struct
{
  GTask  *task;
  double  progress;
  double  total;
  char   *message;
} ProgressReport;

static void
progress_report_free (ProgressReport *report)
{
  g_object_unref (report->task);
  g_free (report->message);
  g_free (report);
}

static gboolean
emit_progress_cb (gpointer user_data)
{
  ProgressReport *report = user_data;
  CallData *data = g_task_get_task_data (report->task);

  /* A report that was on its way when the call finished is dropped. */
  if (!data->done && data->tool != NULL)
    g_signal_emit (data->registry, _tb_tool_registry_signals [TB_TOOL_REGISTRY_CALL_PROGRESS], 0,
                   data->call_id, report->progress, report->total, report->message);
  return G_SOURCE_REMOVE;
}

static gpointer
dup_task (gpointer task,
          gpointer user_data)
{
  return task != NULL ? g_object_ref (task) : NULL;
}

/**
 * _tb_tool_call_report_progress:
 * @cancellable: the cancellable the registry passed to the tool's
 *   invoke_async()
 * @progress: how far the call is
 * @total: what @progress reaches at the end, or a negative number when unknown
 * @message: (nullable): what the tool says it is doing
 *
 * Makes the registry emit #TbToolRegistry::call-progress for the running
 * call. Safe from any thread: the signal is emitted on the context the call
 * was started on. Does nothing once the call has finished or when
 * @cancellable does not belong to a running registry call.
 */
void
_tb_tool_call_report_progress (GCancellable *cancellable,
                               double        progress,
                               double        total,
                               const char   *message)
{
  ProgressReport *report;
  GTask *task;

  if (cancellable == NULL)
    return;

  /* Under GData's lock, so a call finishing on another thread cannot free
   * the task between the lookup and the reference. */
  task = g_object_dup_qdata (G_OBJECT (cancellable), call_task_quark (), dup_task, NULL);
  if (task == NULL)
    return;

  report = g_new0 (ProgressReport, 1);
  report->task = task;
  report->progress = progress;
  report->total = total < 0 ? -1 : total;
  report->message = g_strdup (message);
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT,
                              emit_progress_cb, report,
                              (GDestroyNotify) progress_report_free);
}

/**
 * _tb_tool_call_dup_id:
 * @cancellable: (nullable): the cancellable the registry passed to the
 *   tool's invoke_async()
 *
 * Says which call a tool works for, so that what the tool does (the MCP
 * messages of a `tools/call`) can be attributed to it.
 *
 * Returns: (transfer full) (nullable): the call's id, or %NULL once the
 *   call has finished or when @cancellable does not belong to a registry
 *   call
 */
char *
_tb_tool_call_dup_id (GCancellable *cancellable)
{
  g_autoptr(GTask) task = NULL;
  CallData *data;

  if (cancellable == NULL)
    return NULL;
  task = g_object_dup_qdata (G_OBJECT (cancellable), call_task_quark (), dup_task, NULL);
  if (task == NULL)
    return NULL;
  data = g_task_get_task_data (task);
  return data->done ? NULL : g_strdup (data->call_id);
}

static TbToolFailureKind
kind_for_error (const GError *error)
{
  if (error->domain == TB_TOOL_ERROR)
    {
      switch ((TbToolError) error->code)
        {
        case TB_TOOL_ERROR_INVALID_ARGUMENTS:
          return TB_TOOL_FAILURE_INVALID_ARGUMENTS;
        case TB_TOOL_ERROR_PERMISSION_DENIED:
          return TB_TOOL_FAILURE_PERMISSION_DENIED;
        case TB_TOOL_ERROR_INVALID_NAME:
        case TB_TOOL_ERROR_INVALID_DESCRIPTION:
        case TB_TOOL_ERROR_INVALID_SCHEMA:
        case TB_TOOL_ERROR_FAILED:
        default:
          return TB_TOOL_FAILURE_EXECUTION_FAILED;
        }
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return TB_TOOL_FAILURE_CANCELLED;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return TB_TOOL_FAILURE_TIMEOUT;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    return TB_TOOL_FAILURE_PERMISSION_DENIED;

  return TB_TOOL_FAILURE_EXECUTION_FAILED;
}

static void
tool_invoke_cb (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = tb_tool_invoke_finish (TB_TOOL (object), res, &error);

  /* Timed out or cancelled already: the late answer is dropped. */
  if (data->done)
    return;

  if (result == NULL)
    {
      if (error == NULL)
        {
          g_autofree char *message =
            g_strdup_printf (_("The tool “%s” returned no result"), tb_tool_get_name (data->tool));

          result = tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED, message);
        }
      else
        {
          result = tb_tool_result_new_failure (kind_for_error (error), error->message);
        }
    }
  else if (!TB_IS_TOOL_RESULT (result))
    {
      g_autofree char *message =
        g_strdup_printf (_("The tool “%s” returned something that is not a result"),
                         tb_tool_get_name (data->tool));

      g_steal_pointer (&result);
      result = tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED, message);
    }

  finish_call (task, result);
}

static char *
format_available (TbToolRegistry *self)
{
  g_auto(GStrv) names = tb_tool_registry_get_names (self);
  guint n = g_strv_length (names);
  const guint shown = 20;
  GString *text;

  if (n == 0)
    return g_strdup (_("No tools are available."));

  text = g_string_new (NULL);
  for (guint i = 0; i < MIN (n, shown); i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append (text, names[i]);
    }
  if (n > shown)
    /* Translators: %u is a number of further tool names */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " and %u more", " and %u more",
                                               n - shown), n - shown);

  {
    g_autofree char *list = g_string_free (text, FALSE);

    /* Translators: %s is a comma-separated list of tool names */
    return g_strdup_printf (_("Available tools: %s."), list);
  }
}

static char *
format_schema_errors (TbTool    *tool,
                      GPtrArray *errors)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, _("The arguments for “%s” are not valid:"),
                          tb_tool_get_name (tool));
  for (guint i = 0; i < errors->len; i++)
    {
      g_autofree char *line = tb_schema_error_to_string (g_ptr_array_index (errors, i));

      g_string_append_printf (text, "\n- %s", line);
    }
  return g_string_free (text, FALSE);
}

static void
call_internal (TbToolRegistry      *self,
               const char          *name,
               const char          *call_id,
               JsonNode            *arguments,
               JsonObject          *context,
               gboolean             validate,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) args = NULL;
  g_autoptr(GPtrArray) errors = NULL;
  g_autoptr(TbToolResult) refused = NULL;
  CallData *data;

  g_assert (TB_IS_TOOL_REGISTRY (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_tool_registry_call_async);
  g_task_set_check_cancellable (task, FALSE);

  data = g_new0 (CallData, 1);
  data->registry = g_object_ref (self);
  data->unvalidated = !validate;
  data->started = g_get_monotonic_time ();
  data->call_id = call_id != NULL ? g_strdup (call_id)
                                  : g_strdup_printf ("call-%" G_GUINT64_FORMAT,
                                                     ++self->next_call_id);
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);

  data->tool = tb_tool_registry_lookup (self, name);
  if (data->tool == NULL)
    {
      g_autofree char *available = format_available (self);
      g_autofree char *valid = name != NULL ? g_utf8_make_valid (name, -1) : NULL;
      g_autofree char *shown =
        valid != NULL ? g_utf8_substring (valid, 0, MIN (g_utf8_strlen (valid, -1), 200)) : NULL;
      g_autofree char *message = NULL;

      if (shown == NULL || *shown == '\0')
        message = g_strdup_printf (_("The call names no tool. %s"), available);
      /* Control characters (a NUL arrives as U+FFFD) are not repeated back. */
      else if (!tb_tool_name_is_valid (name, NULL))
        message = g_strdup_printf (_("The call names a tool that cannot exist: tool names use "
                                     "only letters, digits, “_”, “.” and “-”. %s"), available);
      else
        message = g_strdup_printf (_("There is no tool named “%s”. %s"), shown, available);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_NOT_FOUND, message);
      finish_call (task, refused);
      return;
    }

  /* A sealed, bounded copy: the caller may change its node afterwards. */
  if (arguments == NULL)
    args = tb_json_node_new_object ();
  else if (!tb_json_node_depth_ok (arguments, TB_JSON_MAX_DEPTH))
    args = NULL;
  else
    args = tb_json_freeze (arguments);

  {
    g_autoptr(JsonNode) shown = args != NULL ? json_node_ref (args) : json_node_new (JSON_NODE_NULL);

    g_signal_emit (self, _tb_tool_registry_signals [TB_TOOL_REGISTRY_CALL_STARTED], 0,
                   data->tool, data->call_id, shown);
  }

  if (args == NULL)
    {
      g_autofree char *message =
        g_strdup_printf (_("The arguments for “%s” nest more than %u levels deep"),
                         tb_tool_get_name (data->tool), TB_JSON_MAX_DEPTH);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_INVALID_ARGUMENTS, message);
      finish_call (task, refused);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (args))
    {
      g_autofree char *type = tb_json_describe_type (args);
      g_autofree char *message =
        /* Translators: a tool name, then a JSON type such as "array" */
        g_strdup_printf (_("The arguments for “%s” must be a JSON object, not %s"),
                         tb_tool_get_name (data->tool), type);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_INVALID_ARGUMENTS, message);
      finish_call (task, refused);
      return;
    }

  if (validate && !tb_tool_validate_arguments (data->tool, args, &errors))
    {
      g_autofree char *message = format_schema_errors (data->tool, errors);

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_INVALID_ARGUMENTS, message);
      finish_call (task, refused);
      return;
    }

  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    {
      g_autofree char *message =
        g_strdup_printf (_("The call of “%s” was cancelled"), tb_tool_get_name (data->tool));

      refused = tb_tool_result_new_failure (TB_TOOL_FAILURE_CANCELLED, message);
      finish_call (task, refused);
      return;
    }

  data->timeout_ms = tb_tool_get_timeout_ms (data->tool);
  if (data->timeout_ms == 0)
    data->timeout_ms = self->default_timeout_ms;

  data->timeout_source = new_timeout_source (task);

  if (cancellable != NULL)
    {
      data->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (data->cancel_source, G_SOURCE_FUNC (call_cancelled_cb), task, NULL);
      g_source_set_static_name (data->cancel_source, "[tb] tool call cancelled");
      g_source_attach (data->cancel_source, g_task_get_context (task));
    }

  data->tool_cancellable = g_cancellable_new ();
  g_object_set_qdata (G_OBJECT (data->tool_cancellable), call_task_quark (), task);

  tb_tool_invoke_async (data->tool, args, context, data->tool_cancellable,
                        tool_invoke_cb, g_object_ref (task));
}

/**
 * tb_tool_registry_call_async:
 * @self: a registry
 * @name: the tool's name (a real name, not a wire name)
 * @call_id: (nullable): an id for the call; one is made when %NULL
 * @arguments: (nullable): a JSON object; %NULL means no arguments (`{}`)
 * @context: (nullable): passed to the tool as is
 * @cancellable: (nullable): cancels the call; the result is then a
 *   cancelled failure, at once, whether or not the tool stops
 * @callback: called with the result
 * @user_data: closure for @callback
 *
 * Looks the tool up, validates the arguments, and runs it with its time
 * limit. Always finishes with a #TbToolResult.
 */
void
tb_tool_registry_call_async (TbToolRegistry      *self,
                             const char          *name,
                             const char          *call_id,
                             JsonNode            *arguments,
                             JsonObject          *context,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  call_internal (self, name, call_id, arguments, context, TRUE, cancellable, callback,
                 user_data);
}

/**
 * tb_tool_registry_call_unvalidated_async:
 * @self: a registry
 * @name: the tool's name
 * @call_id: (nullable): an id for the call; one is made when %NULL
 * @arguments: (nullable): a JSON object, sent as it is
 * @context: (nullable): passed to the tool as is
 * @cancellable: (nullable): cancels the call
 * @callback: called with the result
 * @user_data: closure for @callback
 *
 * As tb_tool_registry_call_async(), but the arguments are not checked
 * against the tool's schema: a person testing how a tool or server handles
 * bad arguments sends them exactly as written. They must still be a JSON
 * object within the nesting limit. The result's metadata is marked
 * (tb_tool_result_get_unvalidated()). Never for a model's calls.
 */
void
tb_tool_registry_call_unvalidated_async (TbToolRegistry      *self,
                                         const char          *name,
                                         const char          *call_id,
                                         JsonNode            *arguments,
                                         JsonObject          *context,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  call_internal (self, name, call_id, arguments, context, FALSE, cancellable, callback,
                 user_data);
}

/**
 * tb_tool_registry_call_finish:
 * @self: a registry
 * @result: the #GAsyncResult
 *
 * Ends a call started with tb_tool_registry_call_async() or
 * tb_tool_registry_call_unvalidated_async(). It never fails: an unknown
 * tool, invalid arguments, a handler error, a timeout and a cancellation are
 * all failed results whose error text says what happened.
 *
 * Returns: (transfer full): the call's result; never %NULL
 */
TbToolResult *
tb_tool_registry_call_finish (TbToolRegistry *self,
                              GAsyncResult   *result)
{
  TbToolResult *ret;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  ret = g_task_propagate_pointer (G_TASK (result), &error);
  if (ret == NULL)
    ret = tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED,
                                      error != NULL ? error->message : _("The call failed"));
  return ret;
}
