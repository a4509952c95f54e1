/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-result"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-enums.h"
#include "tb-json.h"
#include "tb-tool-result-private.h"
#include "tb-trace-line-private.h"

/**
 * TbToolResult:
 *
 * The outcome of one tool call, success or failure, immutable once made.
 *
 * What the model reads is tb_tool_result_to_model_content(): the output on
 * success, the error text on failure, and any warnings. The metadata is for
 * the application (the loop reads `stop_loop` from it) and is never sent to
 * a model.
 */

struct _TbToolResult
{
  GObject             parent_instance;

  TbToolFailureKind   kind;
  JsonNode           *output;
  char               *error;
  JsonObject         *metadata;
  char              **warnings;
  gint64              duration_us;
};

G_DEFINE_FINAL_TYPE (TbToolResult, tb_tool_result, G_TYPE_OBJECT)
/**
 * tb_tool_result_error_quark:
 *
 * The error domain of #TbToolResultError: JSON that is not a tool result.
 *
 * Returns: the quark of %TB_TOOL_RESULT_ERROR
 */
G_DEFINE_QUARK (tb-tool-result-error-quark, tb_tool_result_error)

enum {
  PROP_0,
  PROP_OK,
  PROP_KIND,
  PROP_OUTPUT,
  PROP_ERROR,
  PROP_METADATA,
  PROP_WARNINGS,
  PROP_DURATION_US,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static const struct {
  TbToolFailureKind kind;
  const char *nick;
} kind_nicks[] = {
  { TB_TOOL_FAILURE_NONE, "none" },
  { TB_TOOL_FAILURE_INVALID_ARGUMENTS, "invalid-arguments" },
  { TB_TOOL_FAILURE_NOT_FOUND, "not-found" },
  { TB_TOOL_FAILURE_EXECUTION_FAILED, "execution-failed" },
  { TB_TOOL_FAILURE_TIMEOUT, "timeout" },
  { TB_TOOL_FAILURE_CANCELLED, "cancelled" },
  { TB_TOOL_FAILURE_PERMISSION_DENIED, "permission-denied" },
};

/**
 * tb_tool_failure_kind_to_string:
 * @kind: a failure kind
 *
 * Names a failure kind the way traces, history files and the CLI's JSON
 * write it; tb_tool_failure_kind_from_string() reads the name back. An
 * unknown value is named "execution-failed".
 *
 * Returns: the stable name of @kind used in JSON ("timeout", "not-found", …)
 */
const char *
tb_tool_failure_kind_to_string (TbToolFailureKind kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_nicks); i++)
    if (kind_nicks[i].kind == kind)
      return kind_nicks[i].nick;
  return "execution-failed";
}

/**
 * tb_tool_failure_kind_from_string:
 * @nick: (nullable): a name such as "timeout"
 * @kind: where to store the kind @nick names; untouched when it names none
 *
 * Reads a failure kind by the name tb_tool_failure_kind_to_string() gives
 * it, as a trace or a history file writes it.
 *
 * Returns: %TRUE when @nick names a failure kind
 */
gboolean
tb_tool_failure_kind_from_string (const char        *nick,
                                  TbToolFailureKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; nick != NULL && i < G_N_ELEMENTS (kind_nicks); i++)
    {
      if (g_str_equal (kind_nicks[i].nick, nick))
        {
          *kind = kind_nicks[i].kind;
          return TRUE;
        }
    }
  return FALSE;
}

static void
tb_tool_result_finalize (GObject *object)
{
  TbToolResult *self = (TbToolResult *)object;

  g_clear_pointer (&self->output, json_node_unref);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->metadata, json_object_unref);
  g_clear_pointer (&self->warnings, g_strfreev);

  G_OBJECT_CLASS (tb_tool_result_parent_class)->finalize (object);
}

static void
tb_tool_result_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TbToolResult *self = TB_TOOL_RESULT (object);

  switch (prop_id)
    {
    case PROP_OK:
      g_value_set_boolean (value, tb_tool_result_get_ok (self));
      break;

    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;

    case PROP_OUTPUT:
      g_value_set_boxed (value, self->output);
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    case PROP_METADATA:
      g_value_set_boxed (value, self->metadata);
      break;

    case PROP_WARNINGS:
      g_value_set_boxed (value, self->warnings);
      break;

    case PROP_DURATION_US:
      g_value_set_int64 (value, self->duration_us);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_result_class_init (TbToolResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_tool_result_finalize;
  object_class->get_property = tb_tool_result_get_property;

  /**
   * TbToolResult:ok:
   *
   * Whether the call succeeded: %TRUE exactly when #TbToolResult:kind is
   * %TB_TOOL_FAILURE_NONE.
   */
  properties [PROP_OK] =
    g_param_spec_boolean ("ok", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * TbToolResult:kind:
   *
   * What went wrong, or %TB_TOOL_FAILURE_NONE when the call succeeded.
   */
  properties [PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       TB_TYPE_TOOL_FAILURE_KIND, TB_TOOL_FAILURE_NONE,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * TbToolResult:output:
   *
   * What the tool answered (sealed), or %NULL for a failure or a tool that
   * answered nothing.
   */
  properties [PROP_OUTPUT] =
    g_param_spec_boxed ("output", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * TbToolResult:error:
   *
   * The sentence that says what went wrong, for a person and for the model;
   * %NULL when the call succeeded.
   */
  properties [PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * TbToolResult:metadata:
   *
   * Data for the application, never sent to the model, such as `stop_loop`,
   * `unvalidated` or what an MCP server added; sealed, never %NULL.
   */
  properties [PROP_METADATA] =
    g_param_spec_boxed ("metadata", NULL, NULL, JSON_TYPE_OBJECT,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * TbToolResult:warnings:
   *
   * Warnings the tool gave with its answer; the model reads them after the
   * output. Never %NULL.
   */
  properties [PROP_WARNINGS] =
    g_param_spec_boxed ("warnings", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * TbToolResult:duration-us:
   *
   * How long the call took, in microseconds, as the registry measured it; 0
   * for a result made outside a call.
   */
  properties [PROP_DURATION_US] =
    g_param_spec_int64 ("duration-us", NULL, NULL, 0, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_tool_result_init (TbToolResult *self)
{
}

static char *
make_valid_text (const char *text)
{
  if (text == NULL)
    return NULL;
  return g_utf8_make_valid (text, -1);
}

/* Outputs are frozen so that nobody can change a result after the fact;
 * the tree is checked first because copying and sealing recurse. */
static JsonNode *
freeze_output (JsonNode  *output,
               char     **problem)
{
  if (output == NULL)
    return NULL;

  if (!tb_json_node_depth_ok (output, TB_JSON_MAX_DEPTH))
    {
      *problem = g_strdup_printf (_("The tool returned output nested more than %u levels deep"),
                                  TB_JSON_MAX_DEPTH);
      return NULL;
    }

  return tb_json_freeze (output);
}

/**
 * tb_tool_result_new_full:
 * @kind: %TB_TOOL_FAILURE_NONE for success, or what went wrong
 * @output: (nullable): the tool's output; copied unless already sealed
 * @error_text: (nullable): what went wrong, as a sentence; required for failures
 * @metadata: (nullable): data for the application, never for the model
 * @warnings: (nullable) (array zero-terminated=1): warnings
 * @duration_us: how long the call took
 *
 * Makes a result with everything it can hold. A failure without @error_text
 * gets a sentence naming its kind. @metadata and @warnings are copied.
 *
 * Returns: (transfer full): a new result
 */
TbToolResult *
tb_tool_result_new_full (TbToolFailureKind   kind,
                         JsonNode           *output,
                         const char         *error_text,
                         JsonObject         *metadata,
                         const char * const *warnings,
                         gint64              duration_us)
{
  TbToolResult *self;
  g_autofree char *problem = NULL;

  self = g_object_new (TB_TYPE_TOOL_RESULT, NULL);
  self->output = freeze_output (output, &problem);
  self->kind = kind;

  if (problem != NULL)
    {
      self->kind = TB_TOOL_FAILURE_EXECUTION_FAILED;
      self->error = g_steal_pointer (&problem);
    }
  else if (kind != TB_TOOL_FAILURE_NONE)
    {
      if (error_text != NULL && *error_text != '\0')
        self->error = make_valid_text (error_text);
      else
        self->error = g_strdup (_("The tool failed without saying why"));
    }

  if (metadata != NULL)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonNode) frozen = NULL;

      json_node_set_object (node, metadata);
      frozen = freeze_output (node, &problem);
      self->metadata = frozen != NULL ? json_object_ref (json_node_get_object (frozen))
                                      : json_object_new ();
    }
  else
    {
      self->metadata = json_object_new ();
    }
  json_object_seal (self->metadata);

  if (warnings != NULL)
    {
      guint n = g_strv_length ((char **) warnings);

      self->warnings = g_new0 (char *, n + 1);
      for (guint i = 0; i < n; i++)
        self->warnings[i] = make_valid_text (warnings[i]);
    }
  else
    {
      self->warnings = g_new0 (char *, 1);
    }

  self->duration_us = MAX (duration_us, 0);

  return self;
}

/**
 * tb_tool_result_new_success:
 * @output: (nullable): the output
 *
 * Makes the result of a call that succeeded with @output (copied unless
 * already sealed), without metadata or warnings.
 *
 * Returns: (transfer full): a successful result
 */
TbToolResult *
tb_tool_result_new_success (JsonNode *output)
{
  return tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, NULL, NULL, 0);
}

/**
 * tb_tool_result_new_failure:
 * @kind: what went wrong; %TB_TOOL_FAILURE_NONE is taken as execution-failed
 * @error_text: what went wrong, as a sentence a person and a model can act on
 *
 * Makes the result of a call that failed, for tools that report a failure
 * with their own words; the registry makes the others (invalid arguments,
 * timeout, cancellation).
 *
 * Returns: (transfer full): a failed result
 */
TbToolResult *
tb_tool_result_new_failure (TbToolFailureKind  kind,
                            const char        *error_text)
{
  if (kind == TB_TOOL_FAILURE_NONE)
    kind = TB_TOOL_FAILURE_EXECUTION_FAILED;
  return tb_tool_result_new_full (kind, NULL, error_text, NULL, NULL, 0);
}

/**
 * tb_tool_result_copy_with_duration:
 * @self: a result
 * @duration_us: the duration to give the copy, in microseconds
 *
 * Results are immutable; this gives the same result with another duration.
 *
 * Returns: (transfer full): a new result
 */
TbToolResult *
tb_tool_result_copy_with_duration (TbToolResult *self,
                                   gint64        duration_us)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);

  return tb_tool_result_new_full (self->kind, self->output, self->error, self->metadata,
                                  (const char * const *) self->warnings, duration_us);
}

/**
 * tb_tool_result_get_ok:
 * @self: a result
 *
 * Says whether the call succeeded.
 *
 * Returns: %TRUE when the kind is %TB_TOOL_FAILURE_NONE
 */
gboolean
tb_tool_result_get_ok (TbToolResult *self)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), FALSE);
  return self->kind == TB_TOOL_FAILURE_NONE;
}

/**
 * tb_tool_result_get_kind:
 * @self: a result
 *
 * Says whether the call succeeded and, when it did not, why: the registry's
 * validation, the time limit, cancellation or the tool itself.
 *
 * Returns: the failure kind, %TB_TOOL_FAILURE_NONE for a success
 */
TbToolFailureKind
tb_tool_result_get_kind (TbToolResult *self)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), TB_TOOL_FAILURE_EXECUTION_FAILED);
  return self->kind;
}

/**
 * tb_tool_result_get_output:
 * @self: a result
 *
 * Gives what the tool answered, sealed so that it can be shared; copy it
 * with tb_json_copy() to change it.
 *
 * Returns: (transfer none) (nullable): the output, sealed
 */
JsonNode *
tb_tool_result_get_output (TbToolResult *self)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);
  return self->output;
}

/**
 * tb_tool_result_get_error:
 * @self: a result
 *
 * Gives the sentence that says why the call failed; this is what the model
 * reads after "Error: ".
 *
 * Returns: (nullable): the error text of a failure
 */
const char *
tb_tool_result_get_error (TbToolResult *self)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);
  return self->error;
}

/**
 * tb_tool_result_get_metadata:
 * @self: a result
 *
 * Gives the data the application keeps beside the result and never sends to
 * the model.
 *
 * Returns: (transfer none): the metadata, sealed; never %NULL
 */
JsonObject *
tb_tool_result_get_metadata (TbToolResult *self)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);
  return self->metadata;
}

/**
 * tb_tool_result_get_warnings:
 * @self: a result
 *
 * Gives the warnings that came with the answer, which the model reads after
 * the output.
 *
 * Returns: (transfer none) (array zero-terminated=1): the warnings; never %NULL
 */
const char * const *
tb_tool_result_get_warnings (TbToolResult *self)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);
  return (const char * const *) self->warnings;
}

/**
 * tb_tool_result_get_duration_us:
 * @self: a result
 *
 * Gives the time the registry measured from the start of the call to its
 * result, which traces record.
 *
 * Returns: the duration in microseconds, 0 when unknown
 */
gint64
tb_tool_result_get_duration_us (TbToolResult *self)
{
  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), 0);
  return self->duration_us;
}

/**
 * tb_tool_result_get_stop_loop:
 * @self: a result
 *
 * A tool asks the dispatch loop to end the run after its call by setting
 * `"stop_loop": true` in its result's metadata; the loop then finishes
 * instead of asking the model again.
 *
 * Returns: whether the metadata asks the dispatch loop to stop (`"stop_loop": true`)
 */
gboolean
tb_tool_result_get_stop_loop (TbToolResult *self)
{
  JsonNode *node;

  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), FALSE);

  node = json_object_get_member (self->metadata, "stop_loop");
  return node != NULL &&
         JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
         json_node_get_boolean (node);
}

/**
 * tb_tool_result_get_unvalidated:
 * @self: a result
 *
 * A person may send arguments that do not match the tool's schema on
 * purpose, to see how the tool handles them
 * (tb_tool_registry_call_unvalidated_async()); the registry then marks the
 * result's metadata with `"unvalidated": true`, which the history and the
 * trace keep.
 *
 * Returns: whether the arguments were sent without being validated
 */
gboolean
tb_tool_result_get_unvalidated (TbToolResult *self)
{
  JsonNode *node;

  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), FALSE);

  node = json_object_get_member (self->metadata, TB_TOOL_RESULT_UNVALIDATED);
  return node != NULL &&
         JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
         json_node_get_boolean (node);
}

static char *
output_to_text (JsonNode *output)
{
  g_autofree char *text = NULL;

  if (output == NULL)
    return g_strdup ("");

  if (JSON_NODE_HOLDS_VALUE (output) && json_node_get_value_type (output) == G_TYPE_STRING)
    return make_valid_text (json_node_get_string (output));

  text = tb_json_to_string (output, FALSE);
  return make_valid_text (text);
}

/**
 * tb_tool_result_to_model_content:
 * @self: a result
 *
 * The text a model receives for this call: the output (a string as is,
 * anything else as compact JSON) or "Error: …", followed by the warnings.
 * Metadata is never part of it.
 *
 * Returns: (transfer full): the text
 */
char *
tb_tool_result_to_model_content (TbToolResult *self)
{
  GString *text;

  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);

  if (self->kind == TB_TOOL_FAILURE_NONE)
    {
      g_autofree char *output = output_to_text (self->output);

      text = g_string_new (output);
    }
  else
    {
      text = g_string_new ("Error: ");
      g_string_append (text, self->error);
    }

  for (guint i = 0; self->warnings[i] != NULL; i++)
    g_string_append_printf (text, "\nWarning: %s", self->warnings[i]);

  return g_string_free (text, FALSE);
}

static JsonNode *
strv_to_array_node (char **strv)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  json_node_take_array (node, array);
  return node;
}

/**
 * tb_tool_result_to_envelope:
 * @self: a result
 *
 * Writes the result in the shape `toolbench-cli call` prints, which scripts
 * read: whether it succeeded, the output and the error with its kind.
 *
 * Returns: (transfer full): `{"ok": bool, "data": output|null, "warnings": […],
 *   "errors": [{"kind": …, "message": …}]}`, the shape the CLI prints
 */
JsonNode *
tb_tool_result_to_envelope (TbToolResult *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "ok");
  json_builder_add_boolean_value (builder, self->kind == TB_TOOL_FAILURE_NONE);
  json_builder_set_member_name (builder, "data");
  if (self->output != NULL)
    json_builder_add_value (builder, tb_json_copy (self->output));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "warnings");
  json_builder_add_value (builder, strv_to_array_node (self->warnings));
  json_builder_set_member_name (builder, "errors");
  json_builder_begin_array (builder);
  if (self->kind != TB_TOOL_FAILURE_NONE)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, tb_tool_failure_kind_to_string (self->kind));
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, self->error);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * tb_tool_result_to_json:
 * @self: a result
 *
 * The complete result, for traces and history: `{"ok", "kind", "output",
 * "error", "metadata", "warnings", "duration_us"}`. Read it back with
 * tb_tool_result_from_json().
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
tb_tool_result_to_json (TbToolResult *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonNode *metadata;

  g_return_val_if_fail (TB_IS_TOOL_RESULT (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "ok");
  json_builder_add_boolean_value (builder, self->kind == TB_TOOL_FAILURE_NONE);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, tb_tool_failure_kind_to_string (self->kind));
  json_builder_set_member_name (builder, "output");
  if (self->output != NULL)
    json_builder_add_value (builder, tb_json_copy (self->output));
  else
    json_builder_add_null_value (builder);
  if (self->error != NULL)
    {
      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, self->error);
    }
  metadata = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (metadata, self->metadata);
  json_builder_set_member_name (builder, "metadata");
  json_builder_add_value (builder, metadata);
  json_builder_set_member_name (builder, "warnings");
  json_builder_add_value (builder, strv_to_array_node (self->warnings));
  json_builder_set_member_name (builder, "duration_us");
  json_builder_add_int_value (builder, self->duration_us);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/*
 * _tb_tool_result_append_json:
 * @self: a result
 * @out: where the text goes
 *
 * Appends tb_tool_result_to_json() as JSON text, byte for byte what
 * tb_json_to_string() writes for that tree, without building it: the
 * dispatch loop records every result.
 */
void
_tb_tool_result_append_json (TbToolResult *self,
                             GString      *out)
{
  g_return_if_fail (TB_IS_TOOL_RESULT (self));

  g_string_append_c (out, '{');
  _tb_trace_line_add_boolean (out, "ok", self->kind == TB_TOOL_FAILURE_NONE);
  _tb_trace_line_add_string (out, "kind", tb_tool_failure_kind_to_string (self->kind));
  _tb_trace_line_add_name (out, "output");
  if (self->output != NULL)
    _tb_trace_line_add_node_value (out, self->output);
  else
    g_string_append_len (out, "null", 4);
  if (self->error != NULL)
    _tb_trace_line_add_string (out, "error", self->error);
  _tb_trace_line_add_object (out, "metadata", self->metadata);
  _tb_trace_line_add_name (out, "warnings");
  g_string_append_c (out, '[');
  for (guint i = 0; self->warnings != NULL && self->warnings[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      _tb_trace_line_append_string (out, self->warnings[i]);
    }
  g_string_append_c (out, ']');
  _tb_trace_line_add_int (out, "duration_us", self->duration_us);
  g_string_append_c (out, '}');
}

static gboolean
invalid (GError     **error,
         const char  *message)
{
  g_set_error_literal (error, TB_TOOL_RESULT_ERROR, TB_TOOL_RESULT_ERROR_INVALID, message);
  return FALSE;
}

/**
 * tb_tool_result_from_json:
 * @node: what tb_tool_result_to_json() made
 * @error: return location for a #TbToolResultError
 *
 * Reads a result back from a trace or a history file, refusing JSON that
 * does not have the shape tb_tool_result_to_json() writes.
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 */
TbToolResult *
tb_tool_result_from_json (JsonNode  *node,
                          GError   **error)
{
  JsonObject *object;
  JsonNode *member;
  TbToolFailureKind kind = TB_TOOL_FAILURE_NONE;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new ();
  JsonObject *metadata = NULL;
  JsonNode *output = NULL;
  const char *error_text = NULL;
  gint64 duration = 0;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid (error, _("A tool result must be a JSON object"));
      return NULL;
    }
  object = json_node_get_object (node);

  member = json_object_get_member (object, "ok");
  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member) ||
      json_node_get_value_type (member) != G_TYPE_BOOLEAN)
    {
      invalid (error, _("A tool result needs a boolean member “ok”"));
      return NULL;
    }

  member = json_object_get_member (object, "kind");
  if (member != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (member) ||
          json_node_get_value_type (member) != G_TYPE_STRING ||
          !tb_tool_failure_kind_from_string (json_node_get_string (member), &kind))
        {
          invalid (error, _("A tool result has an unknown failure “kind”"));
          return NULL;
        }
    }
  if (tb_json_object_get_boolean (object, "ok", FALSE))
    kind = TB_TOOL_FAILURE_NONE;
  else if (kind == TB_TOOL_FAILURE_NONE)
    kind = TB_TOOL_FAILURE_EXECUTION_FAILED;

  member = json_object_get_member (object, "output");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    output = member;

  member = json_object_get_member (object, "error");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    {
      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
        {
          invalid (error, _("A tool result’s “error” must be a string"));
          return NULL;
        }
      error_text = json_node_get_string (member);
    }

  member = json_object_get_member (object, "metadata");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    {
      if (!JSON_NODE_HOLDS_OBJECT (member))
        {
          invalid (error, _("A tool result’s “metadata” must be an object"));
          return NULL;
        }
      metadata = json_node_get_object (member);
    }

  member = json_object_get_member (object, "warnings");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (member))
        {
          invalid (error, _("A tool result’s “warnings” must be an array of strings"));
          return NULL;
        }
      array = json_node_get_array (member);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            {
              invalid (error, _("A tool result’s “warnings” must be an array of strings"));
              return NULL;
            }
          g_ptr_array_add (warnings, (gpointer) json_node_get_string (element));
        }
    }
  g_ptr_array_add (warnings, NULL);

  member = json_object_get_member (object, "duration_us");
  if (member != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_INT64 ||
          json_node_get_int (member) < 0)
        {
          invalid (error, _("A tool result’s “duration_us” must be a non-negative integer"));
          return NULL;
        }
      duration = json_node_get_int (member);
    }

  return tb_tool_result_new_full (kind, output, error_text, metadata,
                                  (const char * const *) warnings->pdata, duration);
}
