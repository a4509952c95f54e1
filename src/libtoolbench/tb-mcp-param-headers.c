/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-param-headers"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-text.h"

/* Tool parameters mirrored into HTTP headers (`x-mcp-header`, Streamable
 * HTTP of 2026-07-28): which properties of a tool's input schema carry the
 * annotation, whether the tool is valid with them, and the
 * `Mcp-Param-{Name}` headers of one call. Header values are encoded as the
 * transport page's "Value Encoding" says. */

#define MAX_SAFE_INTEGER G_GINT64_CONSTANT (9007199254740991)

/* Keywords whose values are data, not schemas: an `x-mcp-header` member
 * inside them is not an annotation. */
static gboolean
holds_data (const char *keyword)
{
  static const char * const data[] = { "const", "enum", "default", "examples", "example" };

  for (guint i = 0; i < G_N_ELEMENTS (data); i++)
    if (g_str_equal (keyword, data[i]))
      return TRUE;
  return FALSE;
}

static gboolean
is_token (const char *text)
{
  static const char *others = "!#$%&'*+-.^_`|~";

  if (text == NULL || *text == '\0')
    return FALSE;
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr (others, *p) == NULL)
      return FALSE;
  return TRUE;
}

typedef struct
{
  char  *name;
  GStrv  path;
} Annotation;

static void
annotation_free (gpointer data)
{
  Annotation *annotation = data;

  g_free (annotation->name);
  g_strfreev (annotation->path);
  g_free (annotation);
}

static gboolean walk (JsonNode      *node,
                      gboolean       reachable,
                      GPtrArray     *path,
                      guint          depth,
                      GPtrArray     *found,
                      GError       **error);

static gboolean
annotate (JsonObject    *schema,
          gboolean       reachable,
          GPtrArray     *path,
          GPtrArray     *found,
          GError       **error)
{
  JsonNode *value = json_object_get_member (schema, "x-mcp-header");
  const char *name;
  const char *type;
  Annotation *annotation;

  if (value == NULL)
    return TRUE;
  name = JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING
         ? json_node_get_string (value) : NULL;
  if (!reachable || path->len == 0)
    {
      g_set_error_literal (error, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                           _("an x-mcp-header annotation is on something other than a "
                             "property reached through “properties” alone"));
      return FALSE;
    }
  if (!is_token (name))
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                   _("the x-mcp-header of the parameter “%s” is not a valid header name"),
                   (const char *) g_ptr_array_index (path, path->len - 1));
      return FALSE;
    }
  type = tb_json_object_get_string (schema, "type");
  if (g_strcmp0 (type, "string") != 0 && g_strcmp0 (type, "integer") != 0 &&
      g_strcmp0 (type, "boolean") != 0)
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                   _("the parameter “%s” is mirrored into a header but is not of type "
                     "string, integer or boolean"),
                   (const char *) g_ptr_array_index (path, path->len - 1));
      return FALSE;
    }
  for (guint i = 0; i < found->len; i++)
    if (g_ascii_strcasecmp (((Annotation *) g_ptr_array_index (found, i))->name, name) == 0)
      {
        g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_PROTOCOL,
                     _("two parameters are mirrored into the header “Mcp-Param-%s”"), name);
        return FALSE;
      }
  annotation = g_new0 (Annotation, 1);
  annotation->name = g_strdup (name);
  g_ptr_array_add (path, NULL);
  annotation->path = g_strdupv ((char **) path->pdata);
  g_ptr_array_remove_index (path, path->len - 1);
  g_ptr_array_add (found, annotation);
  return TRUE;
}

static gboolean
walk (JsonNode   *node,
      gboolean    reachable,
      GPtrArray  *path,
      guint       depth,
      GPtrArray  *found,
      GError    **error)
{
  JsonObjectIter iter;
  const char *keyword;
  JsonNode *value;

  if (depth > TB_JSON_MAX_WALK_DEPTH)
    return TRUE;
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (!walk (json_array_get_element (array, i), FALSE, path, depth + 1, found, error))
          return FALSE;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;

  if (!annotate (json_node_get_object (node), reachable, path, found, error))
    return FALSE;
  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &keyword, &value))
    {
      if (holds_data (keyword))
        continue;
      if (g_str_equal (keyword, "properties") && JSON_NODE_HOLDS_OBJECT (value))
        {
          JsonObjectIter properties;
          const char *property;
          JsonNode *schema;

          json_object_iter_init_ordered (&properties, json_node_get_object (value));
          while (json_object_iter_next_ordered (&properties, &property, &schema))
            {
              gboolean ok;

              g_ptr_array_add (path, (gpointer) property);
              ok = walk (schema, reachable, path, depth + 1, found, error);
              g_ptr_array_remove_index (path, path->len - 1);
              if (!ok)
                return FALSE;
            }
          continue;
        }
      if (!walk (value, FALSE, path, depth + 1, found, error))
        return FALSE;
    }
  return TRUE;
}

static GPtrArray *
find_annotations (JsonObject  *input_schema,
                  GError     **error)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (annotation_free);
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), input_schema);

  if (!walk (root, TRUE, path, 0, found, error))
    return NULL;
  return g_steal_pointer (&found);
}

/**
 * _tb_mcp_param_headers_check:
 * @input_schema: a tool's `inputSchema`
 * @error: why the tool's `x-mcp-header` annotations make it invalid
 *
 * Returns: whether the tool may be used over the stateless HTTP transport
 */
gboolean
_tb_mcp_param_headers_check (JsonObject  *input_schema,
                             GError     **error)
{
  g_autoptr(GPtrArray) found = find_annotations (input_schema, error);

  return found != NULL;
}

/**
 * _tb_mcp_header_value:
 * @value: a text
 *
 * Returns: (transfer full): @value as a header carries it: as it is when
 *   it is visible ASCII, spaces and tabs without whitespace at its ends,
 *   else Base64 in the `=?base64?…?=` sentinel (also when it looks like
 *   one)
 */
char *
_tb_mcp_header_value (const char *value)
{
  gsize length = strlen (value);
  gboolean plain = length > 0 && value[0] != ' ' && value[0] != '\t' &&
                   value[length - 1] != ' ' && value[length - 1] != '\t';
  g_autofree char *encoded = NULL;

  for (gsize i = 0; plain && i < length; i++)
    plain = (value[i] >= 0x20 && value[i] <= 0x7e) || value[i] == '\t';
  if (plain && !(g_str_has_prefix (value, "=?base64?") && g_str_has_suffix (value, "?=")))
    return g_strdup (value);
  encoded = g_base64_encode ((const guchar *) value, length);
  return g_strdup_printf ("=?base64?%s?=", encoded);
}

/**
 * _tb_mcp_param_headers_collect:
 * @input_schema: (nullable): the tool's `inputSchema`
 * @arguments: (nullable): the call's arguments
 *
 * Returns: (transfer full): `Mcp-Param-{Name}` and value, one pair after
 *   the other; a parameter without a value (absent, null) has no header
 */
GStrv
_tb_mcp_param_headers_collect (JsonObject *input_schema,
                               JsonObject *arguments)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) found = NULL;

  if (input_schema == NULL || arguments == NULL)
    return g_strv_builder_end (builder);
  found = find_annotations (input_schema, NULL);
  for (guint i = 0; found != NULL && i < found->len; i++)
    {
      Annotation *annotation = g_ptr_array_index (found, i);
      JsonObject *at = arguments;
      JsonNode *value = NULL;
      g_autofree char *text = NULL;
      g_autofree char *header = NULL;

      for (guint j = 0; annotation->path[j] != NULL && at != NULL; j++)
        {
          value = json_object_get_member (at, annotation->path[j]);
          at = annotation->path[j + 1] != NULL && value != NULL && JSON_NODE_HOLDS_OBJECT (value)
               ? json_node_get_object (value) : NULL;
          if (annotation->path[j + 1] != NULL && at == NULL)
            value = NULL;
        }
      if (value == NULL || !JSON_NODE_HOLDS_VALUE (value))
        continue;
      switch (json_node_get_value_type (value))
        {
        case G_TYPE_STRING:
          text = g_strdup (json_node_get_string (value));
          break;
        case G_TYPE_INT64:
          if (json_node_get_int (value) > MAX_SAFE_INTEGER ||
              json_node_get_int (value) < -MAX_SAFE_INTEGER)
            continue;
          text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (value));
          break;
        case G_TYPE_BOOLEAN:
          text = g_strdup (json_node_get_boolean (value) ? "true" : "false");
          break;
        default:
          continue;
        }
      header = g_strconcat ("Mcp-Param-", annotation->name, NULL);
      g_strv_builder_add (builder, header);
      g_clear_pointer (&header, g_free);
      header = _tb_mcp_header_value (text);
      g_strv_builder_add (builder, header);
    }
  return g_strv_builder_end (builder);
}

/* Over stateless HTTP a tool whose parameters are mirrored into headers in
 * a way the transport forbids is left out, with a warning. */
gboolean
_tb_mcp_client_tool_headers_valid (TbMcpClient *self,
                    JsonObject  *tool,
                    const char  *name)
{
  g_autoptr(GError) error = NULL;
  JsonNode *schema = json_object_get_member (tool, "inputSchema");

  if (!self->stateless || self->kind != TRANSPORT_HTTP ||
      schema == NULL || !JSON_NODE_HOLDS_OBJECT (schema))
    return TRUE;
  if (_tb_mcp_param_headers_check (json_node_get_object (schema), &error))
    return TRUE;
  {
    g_autofree char *shown = tb_text_shorten (name, -1, 129);
    g_autofree char *text =
      /* Translators: a tool's name, then why it is not used */
      g_strdup_printf (_("The server's tool “%s” was left out: %s"), shown, error->message);

    _tb_mcp_client_log (self, "client", "warning", text);
  }
  return FALSE;
}

/**
 * _tb_mcp_client_find_tool_schema:
 * @self: a client
 * @name: a tool's name as the server knows it
 *
 * Returns: (transfer none) (nullable): its `inputSchema`
 */
JsonObject *
_tb_mcp_client_find_tool_schema (TbMcpClient *self,
                                 const char  *name)
{
  for (guint i = 0; self->tools != NULL && i < self->tools->len; i++)
    {
      JsonObject *tool = json_node_get_object (g_ptr_array_index (self->tools, i));
      JsonNode *schema = json_object_get_member (tool, "inputSchema");

      if (g_strcmp0 (tb_json_object_get_string (tool, "name"), name) == 0)
        return schema != NULL && JSON_NODE_HOLDS_OBJECT (schema)
               ? json_node_get_object (schema) : NULL;
    }
  return NULL;
}
