/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-enums.h"
#include "tb-json.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"

/**
 * TbTool:
 *
 * A tool a model or a person can call: a name, a description, a JSON Schema
 * for its arguments, a visibility and the code that runs it.
 *
 * Every property is construct-only, so a tool can be read from any thread.
 * Construct tools with g_initable_new() (or tb_tool_new_simple()), which
 * checks the name, the description and the schema; the registry checks again
 * at registration for tools made with g_object_new().
 */

typedef struct
{
  char             *name;
  char             *description;
  JsonNode         *parameters;
  TbToolVisibility  visibility;
  char             *source;
  guint             timeout_ms;
  char             *title;
  TbToolHints       hints;
  JsonNode         *icons;
  TbToolCompiled   *compiled;  /* the parameters as a TbSchema, compiled on first use */
} TbToolPrivate;

static void tb_tool_initable_iface_init (GInitableIface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (TbTool, tb_tool, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (TbTool)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         tb_tool_initable_iface_init))
/**
 * tb_tool_error_quark:
 *
 * The error domain of #TbToolError: a tool that could not be made, or a
 * handler that refused or failed a call.
 *
 * Returns: the quark of %TB_TOOL_ERROR
 */
G_DEFINE_QUARK (tb-tool-error-quark, tb_tool_error)

enum {
  PROP_0,
  PROP_NAME,
  PROP_DESCRIPTION,
  PROP_PARAMETERS,
  PROP_VISIBILITY,
  PROP_SOURCE,
  PROP_TIMEOUT_MS,
  PROP_TITLE,
  PROP_HINTS,
  PROP_ICONS,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/**
 * tb_tool_name_is_valid:
 * @name: (nullable): a proposed tool name
 * @error: return location for a %TB_TOOL_ERROR_INVALID_NAME error
 *
 * Checks a name before a tool is made with it, with the sentence a person
 * reads when it is refused.
 *
 * Returns: %TRUE when @name is 1 to 64 characters of `[A-Za-z0-9_.-]`
 */
gboolean
tb_tool_name_is_valid (const char  *name,
                       GError     **error)
{
  gsize len;

  if (name == NULL || name[0] == '\0')
    {
      g_set_error_literal (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_NAME,
                           _("A tool needs a name of 1 to 64 characters"));
      return FALSE;
    }

  len = strlen (name);
  for (gsize i = 0; i < len; i++)
    {
      char c = name[i];

      if (!g_ascii_isalnum (c) && c != '_' && c != '.' && c != '-')
        {
          g_autofree char *shown = g_utf8_make_valid (name, MIN (len, 80));

          g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_NAME,
                       /* Translators: %s is a tool name, %lu a character position */
                       _("The tool name “%s” has a character that is not allowed at "
                         "position %lu: use only letters, digits, “_”, “.” and “-”"),
                       shown, (gulong) i + 1);
          return FALSE;
        }
    }

  if (len > TB_TOOL_NAME_MAX)
    {
      g_autofree char *shown = g_strndup (name, 40);

      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_NAME,
                   /* Translators: %s is the start of a tool name, %lu and %d lengths */
                   _("The tool name “%s…” is %lu characters long; the limit is %d"),
                   shown, (gulong) len, TB_TOOL_NAME_MAX);
      return FALSE;
    }

  return TRUE;
}

gboolean
_tb_tool_check (TbTool  *self,
                GError **error)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  if (!tb_tool_name_is_valid (priv->name, error))
    return FALSE;

  if (priv->description != NULL)
    {
      gsize len = strlen (priv->description);

      if (len > TB_TOOL_DESCRIPTION_MAX)
        {
          g_autofree char *have = g_format_size_full (len, G_FORMAT_SIZE_IEC_UNITS);
          g_autofree char *limit = g_format_size_full (TB_TOOL_DESCRIPTION_MAX,
                                                       G_FORMAT_SIZE_IEC_UNITS);

          g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_DESCRIPTION,
                       /* Translators: %s a tool name, then two sizes such as "1.0 MiB" */
                       _("The description of “%s” is %s; the limit is %s"),
                       priv->name, have, limit);
          return FALSE;
        }

      if (!g_utf8_validate (priv->description, len, NULL))
        {
          g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_DESCRIPTION,
                       _("The description of “%s” is not valid UTF-8"), priv->name);
          return FALSE;
        }
    }

  if (priv->parameters != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (priv->parameters))
        {
          g_autofree char *type = tb_json_describe_type (priv->parameters);

          g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_SCHEMA,
                       /* Translators: %s a tool name, then a JSON type such as "array" */
                       _("The parameters of “%s” must be a JSON Schema object, not %s"),
                       priv->name, type);
          return FALSE;
        }

      if (!tb_json_node_depth_ok (priv->parameters, TB_JSON_MAX_DEPTH))
        {
          g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_SCHEMA,
                       _("The parameters schema of “%s” nests more than %u levels deep"),
                       priv->name, TB_JSON_MAX_DEPTH);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
tb_tool_initable_init (GInitable     *initable,
                       GCancellable  *cancellable,
                       GError       **error)
{
  return _tb_tool_check (TB_TOOL (initable), error);
}

static void
tb_tool_initable_iface_init (GInitableIface *iface)
{
  iface->init = tb_tool_initable_init;
}

static JsonNode *
empty_parameters (void)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  node = tb_json_parse ("{\"type\":\"object\",\"properties\":{}}", -1, &error);
  g_assert_no_error (error);
  return node;
}

static void
tb_tool_set_parameters (TbTool   *self,
                        JsonNode *parameters)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_clear_pointer (&priv->parameters, json_node_unref);

  /* An absent or empty schema means "no arguments"; keep a real one so
   * that every wire format gets a schema it accepts. */
  if (parameters == NULL ||
      (JSON_NODE_HOLDS_OBJECT (parameters) &&
       json_object_get_size (json_node_get_object (parameters)) == 0))
    {
      priv->parameters = empty_parameters ();
      return;
    }

  if (!tb_json_node_depth_ok (parameters, TB_JSON_MAX_DEPTH))
    /* Too deep to copy safely: keep a reference; _tb_tool_check() refuses it. */
    priv->parameters = json_node_ref (parameters);
  else
    priv->parameters = tb_json_freeze (parameters);
}

static void
tb_tool_finalize (GObject *object)
{
  TbTool *self = (TbTool *)object;
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_clear_pointer (&priv->name, g_free);
  g_clear_pointer (&priv->description, g_free);
  g_clear_pointer (&priv->parameters, json_node_unref);
  g_clear_pointer (&priv->source, g_free);
  g_clear_pointer (&priv->title, g_free);
  g_clear_pointer (&priv->icons, json_node_unref);
  if (priv->compiled != NULL)
    {
      g_clear_object (&priv->compiled->schema);
      g_clear_error (&priv->compiled->error);
      g_free (priv->compiled);
    }

  G_OBJECT_CLASS (tb_tool_parent_class)->finalize (object);
}

static void
tb_tool_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  TbTool *self = TB_TOOL (object);
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, priv->name);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, priv->description);
      break;

    case PROP_PARAMETERS:
      g_value_set_boxed (value, priv->parameters);
      break;

    case PROP_VISIBILITY:
      g_value_set_enum (value, priv->visibility);
      break;

    case PROP_SOURCE:
      g_value_set_string (value, priv->source);
      break;

    case PROP_TIMEOUT_MS:
      g_value_set_uint (value, priv->timeout_ms);
      break;

    case PROP_TITLE:
      g_value_set_string (value, priv->title);
      break;

    case PROP_HINTS:
      g_value_set_flags (value, priv->hints);
      break;

    case PROP_ICONS:
      g_value_set_boxed (value, priv->icons);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  TbTool *self = TB_TOOL (object);
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_NAME:
      priv->name = g_value_dup_string (value);
      break;

    case PROP_DESCRIPTION:
      priv->description = g_value_dup_string (value);
      break;

    case PROP_PARAMETERS:
      tb_tool_set_parameters (self, g_value_get_boxed (value));
      break;

    case PROP_VISIBILITY:
      priv->visibility = g_value_get_enum (value);
      break;

    case PROP_SOURCE:
      g_free (priv->source);
      priv->source = g_value_dup_string (value);
      if (priv->source == NULL)
        priv->source = g_strdup ("builtin");
      break;

    case PROP_TIMEOUT_MS:
      priv->timeout_ms = g_value_get_uint (value);
      break;

    case PROP_TITLE:
      priv->title = g_value_dup_string (value);
      if (priv->title != NULL && *priv->title == '\0')
        g_clear_pointer (&priv->title, g_free);
      break;

    case PROP_HINTS:
      priv->hints = g_value_get_flags (value);
      break;

    case PROP_ICONS:
      {
        JsonNode *icons = g_value_get_boxed (value);

        if (icons != NULL && JSON_NODE_HOLDS_ARRAY (icons))
          priv->icons = json_node_copy (icons);
      }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_real_invoke_async (TbTool              *self,
                           JsonNode            *arguments,
                           JsonObject          *context,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_task_report_new_error (self, callback, user_data, tb_tool_real_invoke_async,
                           TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                           _("The tool “%s” has no implementation"),
                           tb_tool_get_name (self));
}

static TbToolResult *
tb_tool_real_invoke_finish (TbTool        *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tb_tool_class_init (TbToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_tool_finalize;
  object_class->get_property = tb_tool_get_property;
  object_class->set_property = tb_tool_set_property;

  klass->invoke_async = tb_tool_real_invoke_async;
  klass->invoke_finish = tb_tool_real_invoke_finish;
  klass->validate_arguments = _tb_tool_real_validate_arguments;

  /**
   * TbTool:name:
   *
   * The name models call the tool by: 1 to 64 characters of `[A-Za-z0-9_.-]`,
   * unique in a registry. Construct-only.
   */
  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * TbTool:description:
   *
   * What the tool does, as the model reads it when it decides which tool to
   * call; at most %TB_TOOL_DESCRIPTION_MAX bytes of UTF-8. Construct-only.
   */
  properties [PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * TbTool:parameters:
   *
   * The JSON Schema of the arguments, a JSON object; sealed when set. A tool
   * without one takes `{"type":"object","properties":{}}`. Construct-only.
   */
  properties [PROP_PARAMETERS] =
    g_param_spec_boxed ("parameters", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * TbTool:visibility:
   *
   * Who may call the tool: models and people, or people only. Construct-only.
   */
  properties [PROP_VISIBILITY] =
    g_param_spec_enum ("visibility", NULL, NULL,
                       TB_TYPE_TOOL_VISIBILITY, TB_TOOL_VISIBILITY_MODEL,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * TbTool:source:
   *
   * Where the tool comes from: "builtin", "manifest:PATH", "mcp:SERVER" and the
   * like, as lists and traces show it. Construct-only.
   */
  properties [PROP_SOURCE] =
    g_param_spec_string ("source", NULL, NULL, "builtin",
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TbTool:timeout-ms:
   *
   * How long a call may run, in milliseconds; 0 uses the registry's default.
   */
  properties [PROP_TIMEOUT_MS] =
    g_param_spec_uint ("timeout-ms", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TbTool:title:
   *
   * A name for people, such as an MCP tool's `title`; %NULL when the tool
   * has none.
   */
  properties [PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TbTool:hints:
   *
   * What the tool's author says it does (#TbToolHints).
   */
  properties [PROP_HINTS] =
    g_param_spec_flags ("hints", NULL, NULL, TB_TYPE_TOOL_HINTS, TB_TOOL_HINT_NONE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TbTool:icons:
   *
   * The icons an MCP server gave for the tool (an array of `{src,
   * mimeType, sizes}`), or %NULL.
   */
  properties [PROP_ICONS] =
    g_param_spec_boxed ("icons", NULL, NULL, JSON_TYPE_NODE,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_tool_init (TbTool *self)
{
}

/**
 * tb_tool_get_name:
 * @self: a tool
 *
 * Gives the name models call the tool by.
 *
 * Returns: the tool's name
 */
const char *
tb_tool_get_name (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  return priv->name;
}

/**
 * tb_tool_get_description:
 * @self: a tool
 *
 * Gives the text models read to decide whether to call the tool.
 *
 * Returns: the description; "" when there is none
 */
const char *
tb_tool_get_description (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  return priv->description != NULL ? priv->description : "";
}

/**
 * tb_tool_get_parameters:
 * @self: a tool
 *
 * Gives the JSON Schema the tool's arguments must match, as offered to
 * models.
 *
 * Returns: (transfer none): the JSON Schema of the arguments, sealed;
 *   `{"type":"object","properties":{}}` when the tool takes none
 */
JsonNode *
tb_tool_get_parameters (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), NULL);

  if (priv->parameters == NULL)
    priv->parameters = empty_parameters ();
  return priv->parameters;
}

/**
 * tb_tool_get_visibility:
 * @self: a tool
 *
 * Says who may call the tool; a tool for people only never appears in a
 * provider request.
 *
 * Returns: the tool's visibility
 */
TbToolVisibility
tb_tool_get_visibility (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), TB_TOOL_VISIBILITY_USER_ONLY);
  return priv->visibility;
}

/**
 * tb_tool_get_title:
 * @self: a tool
 *
 * Gives the tool's title, a name for people that MCP servers may send
 * besides the name models use.
 *
 * Returns: (nullable): the name for people, if the tool has one
 */
const char *
tb_tool_get_title (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  return priv->title;
}

/**
 * tb_tool_get_hints:
 * @self: a tool
 *
 * What the tool says of itself; the registry may know the person's
 * override (tb_tool_registry_get_hints()).
 *
 * Returns: the tool's own hints
 */
TbToolHints
tb_tool_get_hints (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), TB_TOOL_HINT_NONE);
  return priv->hints;
}

/**
 * tb_tool_get_icons:
 * @self: a tool
 *
 * Gives the icons an MCP server sent with the tool (its `icons` member), for
 * the application to show; the engine does not read them.
 *
 * Returns: (transfer none) (nullable): the icons, a JSON array
 */
JsonNode *
tb_tool_get_icons (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  return priv->icons;
}

/* The annotations of an MCP tool or a command-tool manifest that are true. A hint the server leaves out stays
 * unknown: the specification's defaults (destructive, open-world) would
 * make every unannotated tool wait for a person. */
TbToolHints
_tb_tool_hints_from_annotations (JsonNode *annotations)
{
  static const struct { const char *member; TbToolHints hint; } map[] = {
    { "readOnlyHint", TB_TOOL_HINT_READ_ONLY },
    { "destructiveHint", TB_TOOL_HINT_DESTRUCTIVE },
    { "idempotentHint", TB_TOOL_HINT_IDEMPOTENT },
    { "openWorldHint", TB_TOOL_HINT_OPEN_WORLD },
  };
  TbToolHints hints = TB_TOOL_HINT_NONE;
  JsonObject *object;

  if (annotations == NULL || !JSON_NODE_HOLDS_OBJECT (annotations))
    return hints;
  object = json_node_get_object (annotations);
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (tb_json_object_get_boolean (object, map[i].member, FALSE))
      hints |= map[i].hint;
  /* The specification: destructiveHint means something only when the tool
   * is not read-only. */
  if (hints & TB_TOOL_HINT_READ_ONLY)
    hints &= ~TB_TOOL_HINT_DESTRUCTIVE;
  return hints;
}

/* For the constructors of built-in tools, before the tool is shared. */
void
_tb_tool_set_hints (TbTool      *self,
                    TbToolHints  hints)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  priv->hints = hints;
}

/**
 * tb_tool_hints_to_string:
 * @hints: hints
 *
 * Writes hints as tb_tool_hints_from_string() reads them.
 *
 * Returns: (transfer full): the hints' names joined with commas, such as
 *   "read-only,idempotent"; empty for none
 */
char *
tb_tool_hints_to_string (TbToolHints hints)
{
  g_autoptr(GFlagsClass) klass = g_type_class_ref (TB_TYPE_TOOL_HINTS);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < klass->n_values; i++)
    {
      if (klass->values[i].value == 0 || (hints & klass->values[i].value) == 0)
        continue;
      if (text->len > 0)
        g_string_append_c (text, ',');
      g_string_append (text, klass->values[i].value_nick);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * tb_tool_hints_from_string:
 * @text: names separated by commas: read-only, destructive, idempotent,
 *   open-world; empty or "none" for none
 * @hints: (out): the hints
 * @error: return location for a sentence naming the unknown word
 *
 * Reads hints as a person writes them on the command line or in a command
 * tool's manifest.
 *
 * Returns: whether @text named hints only
 */
gboolean
tb_tool_hints_from_string (const char   *text,
                           TbToolHints  *hints,
                           GError      **error)
{
  g_autoptr(GFlagsClass) klass = g_type_class_ref (TB_TYPE_TOOL_HINTS);
  g_auto(GStrv) words = g_strsplit (text != NULL ? text : "", ",", -1);
  TbToolHints result = TB_TOOL_HINT_NONE;

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *word = g_strstrip (words[i]);
      GFlagsValue *value;

      if (*word == '\0')
        continue;
      value = g_flags_get_value_by_nick (klass, word);
      if (value == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not a tool hint; use read-only, destructive, idempotent, "
                         "open-world or none"), word);
          return FALSE;
        }
      result |= value->value;
    }
  *hints = result;
  return TRUE;
}

/**
 * tb_tool_get_source:
 * @self: a tool
 *
 * Says where the tool comes from, as #TbTool:source.
 *
 * Returns: the source, "builtin" when none was given
 */
const char *
tb_tool_get_source (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  return priv->source != NULL ? priv->source : "builtin";
}

/**
 * tb_tool_get_timeout_ms:
 * @self: a tool
 *
 * Gives the tool's own time limit, which the registry uses instead of its
 * default when it is not 0.
 *
 * Returns: the time limit in milliseconds, or 0 for the registry's default
 */
guint
tb_tool_get_timeout_ms (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  g_return_val_if_fail (TB_IS_TOOL (self), 0);
  return priv->timeout_ms;
}

/* Parameters are construct-only and sealed, so they are compiled once, by
 * whichever thread asks first; the others wait for that result. */
TbToolCompiled *
_tb_tool_get_compiled (TbTool *self)
{
  TbToolPrivate *priv = tb_tool_get_instance_private (self);

  if (g_once_init_enter (&priv->compiled))
    {
      TbToolCompiled *compiled = g_new0 (TbToolCompiled, 1);

      compiled->schema = tb_schema_new (tb_tool_get_parameters (self), TB_SCHEMA_DRAFT_AUTO,
                                        &compiled->error);
      g_once_init_leave (&priv->compiled, compiled);
    }
  return priv->compiled;
}

/**
 * tb_tool_get_schema:
 * @self: a tool
 *
 * The tool's parameters compiled as a JSON Schema, the first time it is
 * needed. Safe from any thread.
 *
 * Returns: (transfer none) (nullable): the compiled schema, or %NULL when
 *   the parameters are not a valid schema (see tb_tool_get_schema_error())
 */
TbSchema *
tb_tool_get_schema (TbTool *self)
{
  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  return _tb_tool_get_compiled (self)->schema;
}

/**
 * tb_tool_get_schema_error:
 * @self: a tool
 *
 * A tool whose parameters schema does not compile can still be registered
 * and listed, but every call of it fails with an invalid-arguments result
 * that says why. Servers do ship broken schemas.
 *
 * Returns: (transfer none) (nullable): why the parameters schema does not
 *   compile, or %NULL when it does
 */
const GError *
tb_tool_get_schema_error (TbTool *self)
{
  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  return _tb_tool_get_compiled (self)->error;
}

/**
 * tb_tool_takes_no_arguments:
 * @self: a tool
 *
 * Tells a tool called without arguments from one whose arguments were
 * forgotten: the app and the CLI call such a tool with `{}` without asking.
 *
 * Returns: whether the schema declares no properties at all
 */
gboolean
tb_tool_takes_no_arguments (TbTool *self)
{
  JsonObject *schema;
  JsonNode *props;

  g_return_val_if_fail (TB_IS_TOOL (self), FALSE);

  schema = json_node_get_object (tb_tool_get_parameters (self));
  props = json_object_get_member (schema, "properties");
  return (props == NULL ||
          (JSON_NODE_HOLDS_OBJECT (props) &&
           json_object_get_size (json_node_get_object (props)) == 0)) &&
         !json_object_has_member (schema, "patternProperties") &&
         !json_object_has_member (schema, "additionalProperties");
}

/**
 * tb_tool_to_definition:
 * @self: a tool
 *
 * Writes the tool as the neutral definition the registry turns into each
 * provider's wire format.
 *
 * Returns: (transfer full): `{"name", "description", "parameters"}`
 */
JsonNode *
tb_tool_to_definition (TbTool *self)
{
  JsonObject *object;
  JsonNode *node;

  g_return_val_if_fail (TB_IS_TOOL (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "name", tb_tool_get_name (self));
  json_object_set_string_member (object, "description", tb_tool_get_description (self));
  json_object_set_member (object, "parameters", json_node_ref (tb_tool_get_parameters (self)));

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

/**
 * tb_tool_validate_arguments:
 * @self: a tool
 * @arguments: (nullable): the arguments; %NULL means none (`{}`)
 * @errors: (out) (optional) (transfer container) (element-type TbSchemaError):
 *   every reason the arguments do not match
 *
 * Checks arguments against the tool's parameters schema, as the registry
 * does before every call. A tool whose schema does not compile refuses all
 * arguments, with the reason.
 *
 * Returns: %TRUE when the arguments match the tool's parameters schema
 */
gboolean
tb_tool_validate_arguments (TbTool     *self,
                            JsonNode   *arguments,
                            GPtrArray **errors)
{
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(JsonNode) empty = NULL;
  gboolean ok;

  g_return_val_if_fail (TB_IS_TOOL (self), FALSE);

  if (arguments == NULL)
    arguments = empty = tb_json_node_new_object ();

  list = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
  ok = TB_TOOL_GET_CLASS (self)->validate_arguments (self, arguments, list);

  if (ok && list->len > 0)
    ok = FALSE;
  if (!ok && list->len == 0)
    g_ptr_array_add (list, tb_schema_error_new ("", "", "", _("The arguments are not valid")));

  if (errors != NULL)
    *errors = g_steal_pointer (&list);

  return ok;
}

/**
 * tb_tool_invoke_async:
 * @self: a tool
 * @arguments: the arguments, a JSON object that already passed validation
 * @context: (nullable): data about the call for the tool, such as the call id and the iteration; opaque to the registry
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the tool has finished
 * @user_data: data for @callback
 *
 * Runs the tool directly, without validation, time limit or signals.
 * Applications call tools through tb_tool_registry_call_async().
 */
void
tb_tool_invoke_async (TbTool              *self,
                      JsonNode            *arguments,
                      JsonObject          *context,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_return_if_fail (TB_IS_TOOL (self));
  g_return_if_fail (arguments != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  TB_TOOL_GET_CLASS (self)->invoke_async (self, arguments, context, cancellable,
                                          callback, user_data);
}

/**
 * tb_tool_invoke_finish:
 * @self: a tool
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error, which the registry turns into a failure result
 *
 * Ends a call started with tb_tool_invoke_async(). A tool answers failures
 * it knows about with a failed #TbToolResult; an error here means it could
 * not answer at all.
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 */
TbToolResult *
tb_tool_invoke_finish (TbTool        *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (TB_IS_TOOL (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return TB_TOOL_GET_CLASS (self)->invoke_finish (self, result, error);
}

