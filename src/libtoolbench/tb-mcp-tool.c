/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-mcp-private.h"
#include "tb-mcp-tool.h"
#include "tb-schema.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"

/**
 * TbMcpTool:
 *
 * A tool of an MCP server, registered with source `mcp:<server>`.
 *
 * A call sends `tools/call` with a progress token; every progress
 * notification starts the call's time limit over, for at most ten minutes
 * from the start of the call (a server that reports progress forever does
 * not keep a call forever). The result becomes a
 * #TbToolResult:
 *
 * - `isError: true`: a failure (execution-failed) whose text is the
 *   result's text content;
 * - `structuredContent`: the output is that object, checked against the
 *   tool's `outputSchema` (a mismatch is a failure that lists every error;
 *   an output schema that is not valid JSON Schema gives a warning);
 * - only text blocks: the output is their text, joined by new lines;
 * - anything else (images, audio, resource links, embedded resources): the
 *   output is the `content` array as the server sent it.
 *
 * The metadata holds `server`, `tool` (the name on the server),
 * `content-types` and `progress-notifications`.
 *
 * A tool whose `inputSchema` is not usable (missing, not an object, not of
 * type "object", or not valid JSON Schema) is registered anyway so that a
 * person sees it; its schema error is in tb_mcp_tool_get_schema_error()
 * and each call fails saying so.
 */

struct _TbMcpTool
{
  TbTool     parent_instance;

  GWeakRef   client;
  char      *server;
  char      *remote_name;
  JsonNode  *definition;
  JsonNode  *output_schema;
  TbSchema  *output_compiled;
  char      *output_schema_error;
  JsonNode  *annotations;
  char      *schema_error;
};

G_DEFINE_FINAL_TYPE (TbMcpTool, tb_mcp_tool, TB_TYPE_TOOL)

/* Progress keeps a call alive, but not forever: past this, notifications
 * no longer move the deadline and the registry's limit ends the call. */
#define MAX_CALL_DURATION_US (10 * 60 * G_USEC_PER_SEC)

typedef struct
{
  guint  progress_count;
  gint64 started;
} InvokeData;

static char *
check_input_schema (JsonNode *schema)
{
  JsonObject *object;
  JsonNode *node;

  if (schema == NULL)
    return g_strdup (_("the server gave no inputSchema"));
  if (!JSON_NODE_HOLDS_OBJECT (schema))
    {
      g_autofree char *type = tb_json_describe_type (schema);

      return g_strdup_printf (_("the inputSchema is of type %s, not a JSON Schema object"), type);
    }
  object = json_node_get_object (schema);
  node = json_object_get_member (object, "type");
  if (node != NULL && (!JSON_NODE_HOLDS_VALUE (node) ||
                       json_node_get_value_type (node) != G_TYPE_STRING ||
                       !g_str_equal (json_node_get_string (node), "object")))
    return g_strdup (_("the inputSchema must have “type”: “object”"));
  node = json_object_get_member (object, "properties");
  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup (_("“properties” in the inputSchema must be an object"));
  node = json_object_get_member (object, "required");
  if (node != NULL)
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        return g_strdup (_("“required” in the inputSchema must be an array of names"));
      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            return g_strdup (_("“required” in the inputSchema must be an array of names"));
        }
    }
  if (!tb_json_node_depth_ok (schema, TB_JSON_MAX_DEPTH))
    return g_strdup_printf (_("the inputSchema nests more than %u levels deep"),
                            TB_JSON_MAX_DEPTH);
  return NULL;
}

/* The title for people: the tool's own, else the annotations' (the place
 * of the 2025-03-26 revision). */
static const char *
title_of (JsonObject *definition)
{
  const char *title = tb_json_object_get_string (definition, "title");
  JsonObject *annotations = tb_json_object_get_object (definition, "annotations");

  if ((title == NULL || *title == '\0') && annotations != NULL)
    title = tb_json_object_get_string (annotations, "title");
  return title;
}

TbTool *
_tb_mcp_tool_new (TbMcpClient *client,
                  const char  *local_name,
                  JsonObject  *definition)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *source = g_strdup_printf ("mcp:%s", tb_mcp_client_get_name (client));
  g_autofree char *schema_error = NULL;
  g_autofree char *description = NULL;
  JsonNode *input_schema = json_object_get_member (definition, "inputSchema");
  JsonNode *output_schema = json_object_get_member (definition, "outputSchema");
  JsonNode *annotations = json_object_get_member (definition, "annotations");
  const char *text = tb_json_object_get_string (definition, "description");
  TbMcpTool *self;

  if (text == NULL)
    text = tb_json_object_get_string (definition, "title");
  description = g_strdup (text != NULL ? text : "");
  if (strlen (description) > TB_TOOL_DESCRIPTION_MAX || !g_utf8_validate (description, -1, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (description, -1);

      g_free (description);
      description = g_utf8_substring (valid, 0, TB_TOOL_DESCRIPTION_MAX / 4);
    }

  schema_error = check_input_schema (input_schema);

  self = g_initable_new (TB_TYPE_MCP_TOOL, NULL, &error,
                         "name", local_name,
                         "description", description,
                         "parameters", schema_error == NULL ? input_schema : NULL,
                         "source", source,
                         "timeout-ms", _tb_mcp_client_get_tool_timeout_ms (client),
                         "title", title_of (definition),
                         "hints", _tb_tool_hints_from_annotations (annotations),
                         "icons", json_object_get_member (definition, "icons"),
                         NULL);
  if (self == NULL)
    {
      g_autofree char *line = g_strdup_printf (_("The tool “%s” cannot be used: %s"),
                                               local_name, error->message);

      _tb_mcp_client_log (client, "client", "warning", line);
      return NULL;
    }

  g_weak_ref_set (&self->client, client);
  self->server = g_strdup (tb_mcp_client_get_name (client));
  self->remote_name = g_strdup (tb_json_object_get_string (definition, "name"));
  self->definition = json_node_alloc ();
  json_node_init_object (self->definition, definition);
  json_node_seal (self->definition);
  if (output_schema != NULL && JSON_NODE_HOLDS_OBJECT (output_schema))
    {
      g_autoptr(GError) compile_error = NULL;

      self->output_schema = json_node_copy (output_schema);
      self->output_compiled = tb_schema_new (self->output_schema, TB_SCHEMA_DRAFT_AUTO,
                                             &compile_error);
      if (self->output_compiled == NULL)
        {
          g_autofree char *line = NULL;

          self->output_schema_error = g_strdup (compile_error->message);
          line = g_strdup_printf (_("The tool “%s” has an output schema that is not valid JSON "
                                    "Schema: %s"), self->remote_name, compile_error->message);
          _tb_mcp_client_log (client, "client", "warning", line);
        }
    }
  if (annotations != NULL)
    self->annotations = json_node_copy (annotations);
  /* Structurally fine, but is it JSON Schema? The validator says. */
  if (schema_error == NULL && tb_tool_get_schema_error (TB_TOOL (self)) != NULL)
    schema_error = g_strdup_printf (_("the inputSchema is not valid JSON Schema: %s"),
                                    tb_tool_get_schema_error (TB_TOOL (self))->message);
  if (schema_error != NULL)
    {
      g_autofree char *line = NULL;

      self->schema_error = g_steal_pointer (&schema_error);
      line = g_strdup_printf (_("The tool “%s” has an unusable input schema: %s"),
                              self->remote_name, self->schema_error);
      _tb_mcp_client_log (client, "client", "warning", line);
    }

  return TB_TOOL (self);
}

const char *
_tb_mcp_tool_get_remote_name (TbTool *tool)
{
  return TB_MCP_TOOL (tool)->remote_name;
}

JsonNode *
_tb_mcp_tool_get_definition (TbTool *tool)
{
  return TB_MCP_TOOL (tool)->definition;
}

/* Results. */

static char *
join_text (JsonArray *content)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonNode *block = json_array_get_element (content, i);
      const char *piece;

      if (!JSON_NODE_HOLDS_OBJECT (block))
        continue;
      if (g_strcmp0 (tb_json_object_get_string (json_node_get_object (block), "type"), "text") != 0)
        continue;
      piece = tb_json_object_get_string (json_node_get_object (block), "text");
      if (piece == NULL)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, piece);
    }
  return g_string_free (text, FALSE);
}

/**
 * tb_mcp_result_to_tool_result:
 * @server: the server's name
 * @tool: the tool's name on the server
 * @output_schema: (nullable): the tool's `outputSchema`
 * @result: a `tools/call` result object
 *
 * Turns the result of `tools/call` into a #TbToolResult: the text and
 * structured content become the output, `isError` a failure whose text the
 * model reads, and structured content that does not match @output_schema a
 * failure that lists every mismatch.
 *
 * Returns: (transfer full): the #TbToolResult described in #TbMcpTool
 */
static TbToolResult *convert (const char *server,
                              const char *tool,
                              JsonNode   *output_schema,
                              TbSchema   *output_compiled,
                              const char *output_schema_error,
                              JsonNode   *result,
                              gint64      progress_count);

TbToolResult *
tb_mcp_result_to_tool_result (const char *server,
                              const char *tool,
                              JsonNode   *output_schema,
                              JsonNode   *result)
{
  g_autoptr(TbSchema) compiled = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (result != NULL, NULL);
  if (output_schema != NULL)
    compiled = tb_schema_new (output_schema, TB_SCHEMA_DRAFT_AUTO, &error);
  return convert (server, tool, output_schema, compiled, error ? error->message : NULL,
                  result, -1);
}

static TbToolResult *
convert (const char *server,
         const char *tool,
         JsonNode   *output_schema,
         TbSchema   *output_compiled,
         const char *output_schema_error,
         JsonNode   *result,
         gint64      progress_count)
{
  g_autoptr(JsonObject) metadata = json_object_new ();
  g_autoptr(JsonNode) output = NULL;
  JsonObject *object;
  JsonNode *content_node;
  JsonNode *structured;
  JsonNode *is_error;
  JsonArray *content = NULL;
  JsonArray *types = json_array_new ();
  gboolean all_text = TRUE;

  json_object_set_string_member (metadata, "server", server);
  json_object_set_string_member (metadata, "tool", tool);
  if (progress_count >= 0)
    json_object_set_int_member (metadata, "progress-notifications", progress_count);

  if (!JSON_NODE_HOLDS_OBJECT (result))
    {
      json_array_unref (types);
      return tb_tool_result_new_failure (TB_TOOL_FAILURE_EXECUTION_FAILED,
                                         _("The MCP server sent a result that is not an object"));
    }

  object = json_node_get_object (result);
  content_node = json_object_get_member (object, "content");
  structured = json_object_get_member (object, "structuredContent");
  is_error = json_object_get_member (object, "isError");

  if (content_node != NULL && JSON_NODE_HOLDS_ARRAY (content_node))
    content = json_node_get_array (content_node);
  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonNode *block = json_array_get_element (content, i);
      const char *type = JSON_NODE_HOLDS_OBJECT (block)
                           ? tb_json_object_get_string (json_node_get_object (block), "type") : NULL;

      json_array_add_string_element (types, type != NULL ? type : "unknown");
      if (g_strcmp0 (type, "text") != 0)
        all_text = FALSE;
    }
  json_object_set_array_member (metadata, "content-types", types);

  if (is_error != NULL && JSON_NODE_HOLDS_VALUE (is_error) &&
      json_node_get_value_type (is_error) == G_TYPE_BOOLEAN && json_node_get_boolean (is_error))
    {
      g_autofree char *text = join_text (content);

      json_object_set_boolean_member (metadata, "is-error", TRUE);
      if (*text == '\0')
        {
          g_free (text);
          text = g_strdup_printf (_("The tool “%s” of the MCP server “%s” reported an error "
                                    "without a message"), tool, server);
        }
      return tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL, text, metadata,
                                      NULL, 0);
    }

  if (output_schema != NULL && structured == NULL)
    {
      g_autofree char *text =
        g_strdup_printf (_("The tool “%s” of the MCP server “%s” declares an output schema but "
                           "returned no structured content"), tool, server);

      return tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL, text, metadata,
                                      NULL, 0);
    }

  if (structured != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (structured))
        {
          g_autofree char *text =
            g_strdup_printf (_("The tool “%s” of the MCP server “%s” returned structured content "
                               "that is not an object"), tool, server);

          return tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, NULL, text,
                                          metadata, NULL, 0);
        }
      if (output_compiled != NULL)
        {
          g_autoptr(GPtrArray) errors = NULL;

          if (!tb_schema_validate (output_compiled, structured, &errors))
            {
              g_autoptr(GString) text = g_string_new (NULL);

              g_string_append_printf (text, _("The structured content of the tool “%s” of the "
                                              "MCP server “%s” does not match its output "
                                              "schema:"), tool, server);
              for (guint i = 0; i < errors->len; i++)
                {
                  g_autofree char *line =
                    tb_schema_error_to_string (g_ptr_array_index (errors, i));

                  g_string_append_printf (text, "\n- %s", line);
                }
              return tb_tool_result_new_full (TB_TOOL_FAILURE_EXECUTION_FAILED, structured,
                                              text->str, metadata, NULL, 0);
            }
          json_object_set_boolean_member (metadata, "output-schema-checked", TRUE);
        }
      else if (output_schema != NULL)
        {
          /* A broken output schema checks nothing: say so beside the result. */
          g_autofree char *warning =
            g_strdup_printf (_("The output schema of “%s” is not valid JSON Schema (%s); the "
                               "structured content was not checked"), tool,
                             output_schema_error != NULL ? output_schema_error : "?");
          const char *warnings[] = { warning, NULL };

          json_object_set_boolean_member (metadata, "output-schema-checked", FALSE);
          return tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, structured, NULL, metadata,
                                          warnings, 0);
        }
      output = json_node_copy (structured);
    }
  else if (content == NULL || json_array_get_length (content) == 0)
    {
      output = tb_json_node_new_string ("");
    }
  else if (all_text)
    {
      g_autofree char *text = join_text (content);

      output = tb_json_node_new_string (text);
    }
  else
    {
      output = json_node_copy (content_node);
    }

  return tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, metadata, NULL, 0);
}

/* Calls. */

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  GTask *task = user_data;
  InvokeData *data = g_task_get_task_data (task);

  data->progress_count++;
  if (g_get_monotonic_time () - data->started < MAX_CALL_DURATION_US)
    _tb_tool_call_extend_deadline (g_task_get_cancellable (task));
  _tb_tool_call_report_progress (g_task_get_cancellable (task), progress, total, message);
}

static void
call_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbMcpTool *self = g_task_get_source_object (task);
  InvokeData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(TbToolResult) converted = NULL;

  answer = tb_mcp_client_call_tool_finish (TB_MCP_CLIENT (object), res, &error);
  if (answer == NULL)
    {
      if (g_error_matches (error, TB_MCP_ERROR, TB_MCP_ERROR_TIMEOUT))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "%s", error->message);
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED, "%s",
                                 error->message);
      return;
    }

  converted = convert (self->server, self->remote_name, self->output_schema,
                       self->output_compiled, self->output_schema_error, answer,
                       data->progress_count);
  g_task_return_pointer (task, g_steal_pointer (&converted), g_object_unref);
}

static void
tb_mcp_tool_invoke_async (TbTool              *tool,
                          JsonNode            *arguments,
                          JsonObject          *context,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  TbMcpTool *self = TB_MCP_TOOL (tool);
  g_autoptr(GTask) task = NULL;
  g_autoptr(TbMcpClient) client = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_tool_invoke_async);
  {
    InvokeData *data = g_new0 (InvokeData, 1);

    data->started = g_get_monotonic_time ();
    g_task_set_task_data (task, data, g_free);
  }

  if (self->schema_error != NULL)
    {
      g_task_return_new_error (task, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                               /* Translators: tool, server, then the schema problem */
                               _("The tool “%s” of the MCP server “%s” cannot be called: %s. "
                                 "The server's tool definition needs fixing"),
                               self->remote_name, self->server, self->schema_error);
      return;
    }

  client = g_weak_ref_get (&self->client);
  if (client == NULL)
    {
      g_task_return_new_error (task, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                               _("The MCP server “%s” is gone"), self->server);
      return;
    }

  /* A run's trace context goes with the call (tb-trace-context.c). */
  _tb_mcp_client_call_tool (client, self->remote_name, arguments,
                            tb_json_object_get_string (context, "traceparent"), progress_cb,
                            task, cancellable, call_cb, g_object_ref (task));
}

static TbToolResult *
tb_mcp_tool_invoke_finish (TbTool        *tool,
                           GAsyncResult  *result,
                           GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
tb_mcp_tool_validate_arguments (TbTool    *tool,
                                JsonNode  *arguments,
                                GPtrArray *errors)
{
  /* The call itself explains an unusable schema. */
  if (TB_MCP_TOOL (tool)->schema_error != NULL)
    return TRUE;
  return TB_TOOL_CLASS (tb_mcp_tool_parent_class)->validate_arguments (tool, arguments, errors);
}

static void
tb_mcp_tool_finalize (GObject *object)
{
  TbMcpTool *self = (TbMcpTool *)object;

  g_weak_ref_clear (&self->client);
  g_free (self->server);
  g_free (self->remote_name);
  g_clear_pointer (&self->definition, json_node_unref);
  g_clear_pointer (&self->output_schema, json_node_unref);
  g_clear_object (&self->output_compiled);
  g_free (self->output_schema_error);
  g_clear_pointer (&self->annotations, json_node_unref);
  g_free (self->schema_error);

  G_OBJECT_CLASS (tb_mcp_tool_parent_class)->finalize (object);
}

static void
tb_mcp_tool_class_init (TbMcpToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TbToolClass *tool_class = TB_TOOL_CLASS (klass);

  object_class->finalize = tb_mcp_tool_finalize;
  tool_class->invoke_async = tb_mcp_tool_invoke_async;
  tool_class->invoke_finish = tb_mcp_tool_invoke_finish;
  tool_class->validate_arguments = tb_mcp_tool_validate_arguments;
}

static void
tb_mcp_tool_init (TbMcpTool *self)
{
  g_weak_ref_init (&self->client, NULL);
}

/**
 * tb_mcp_tool_get_client:
 * @self: an MCP tool
 *
 * Gives the client the tool calls through; the tool holds it weakly, so a
 * tool whose server is gone answers its calls with an error.
 *
 * Returns: (transfer full) (nullable): the client, while it exists
 */
TbMcpClient *
tb_mcp_tool_get_client (TbMcpTool *self)
{
  g_return_val_if_fail (TB_IS_MCP_TOOL (self), NULL);
  return g_weak_ref_get (&self->client);
}

/**
 * tb_mcp_tool_get_remote_name:
 * @self: an MCP tool
 *
 * Gives the tool's name on its server, which the registry may have prefixed
 * or changed to keep names unique.
 *
 * Returns: the name the server knows the tool by
 */
const char *
tb_mcp_tool_get_remote_name (TbMcpTool *self)
{
  g_return_val_if_fail (TB_IS_MCP_TOOL (self), NULL);
  return self->remote_name;
}

/**
 * tb_mcp_tool_get_title:
 * @self: an MCP tool
 *
 * The same as tb_tool_get_title().
 *
 * Returns: (nullable): the tool's title
 */
const char *
tb_mcp_tool_get_title (TbMcpTool *self)
{
  g_return_val_if_fail (TB_IS_MCP_TOOL (self), NULL);
  return tb_tool_get_title (TB_TOOL (self));
}

/**
 * tb_mcp_tool_get_output_schema:
 * @self: an MCP tool
 *
 * Gives the schema the server says the tool's structured output matches;
 * a result that does not match it is a failure.
 *
 * Returns: (transfer none) (nullable): the tool's `outputSchema`
 */
JsonNode *
tb_mcp_tool_get_output_schema (TbMcpTool *self)
{
  g_return_val_if_fail (TB_IS_MCP_TOOL (self), NULL);
  return self->output_schema;
}

/**
 * tb_mcp_tool_get_annotations:
 * @self: an MCP tool
 *
 * Gives the annotations the server sent with the tool (`readOnlyHint` and
 * the like), from which #TbTool:hints is made.
 *
 * Returns: (transfer none) (nullable): the tool's `annotations`
 */
JsonNode *
tb_mcp_tool_get_annotations (TbMcpTool *self)
{
  g_return_val_if_fail (TB_IS_MCP_TOOL (self), NULL);
  return self->annotations;
}

/**
 * tb_mcp_tool_get_schema_error:
 * @self: an MCP tool
 *
 * Tells why the input schema the server sent cannot be used; the tool is
 * listed anyway so that a person sees it, and each call of it fails saying
 * why.
 *
 * Returns: (nullable): why the tool's input schema is not usable, or %NULL
 */
const char *
tb_mcp_tool_get_schema_error (TbMcpTool *self)
{
  g_return_val_if_fail (TB_IS_MCP_TOOL (self), NULL);
  return self->schema_error;
}
