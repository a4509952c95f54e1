/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"

/* The argument check every tool gets by default. It covers the top level of
 * the parameters schema (object, required, property types, additional
 * properties); the full JSON Schema validator takes over this function. */

static gboolean
type_matches (const char *type,
              const char *actual)
{
  if (g_str_equal (type, actual))
    return TRUE;
  return g_str_equal (type, "number") && g_str_equal (actual, "integer");
}

static gboolean
types_match (JsonNode   *type,
             const char *actual)
{
  if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    return type_matches (json_node_get_string (type), actual);

  if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *array = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) &&
              json_node_get_value_type (element) == G_TYPE_STRING &&
              type_matches (json_node_get_string (element), actual))
            return TRUE;
        }
      return FALSE;
    }

  return TRUE;
}

static char *
pointer_escape (const char *name)
{
  g_autofree char *tilde = NULL;
  g_auto(GStrv) parts = NULL;

  parts = g_strsplit (name, "~", -1);
  tilde = g_strjoinv ("~0", parts);
  g_strfreev (parts);
  parts = g_strsplit (tilde, "/", -1);
  return g_strjoinv ("~1", parts);
}

gboolean
_tb_tool_real_validate_arguments (TbTool    *self,
                                  JsonNode  *arguments,
                                  GPtrArray *errors)
{
  JsonObject *schema = json_node_get_object (tb_tool_get_parameters (self));
  JsonObject *args;
  JsonNode *required;
  JsonNode *properties;
  JsonNode *additional;

  if (!JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_autofree char *type = tb_json_describe_type (arguments);
      g_autofree char *message = g_strdup_printf (_("must be an object, not %s"), type);

      g_ptr_array_add (errors, tb_schema_error_new ("", "/type", "type", message));
      return FALSE;
    }
  args = json_node_get_object (arguments);

  required = json_object_get_member (schema, "required");
  if (required != NULL && JSON_NODE_HOLDS_ARRAY (required))
    {
      JsonArray *array = json_node_get_array (required);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          const char *name;

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            continue;
          name = json_node_get_string (element);
          if (!json_object_has_member (args, name))
            {
              g_autofree char *message =
                g_strdup_printf (_("is missing required property “%s”"), name);

              g_ptr_array_add (errors, tb_schema_error_new ("", "/required", "required",
                                                            message));
            }
        }
    }

  properties = json_object_get_member (schema, "properties");
  additional = json_object_get_member (schema, "additionalProperties");

  {
    JsonObjectIter iter;
    const char *name;
    JsonNode *value;

    json_object_iter_init (&iter, args);
    while (json_object_iter_next (&iter, &name, &value))
      {
        JsonNode *prop = NULL;
        g_autofree char *escaped = pointer_escape (name);
        g_autofree char *path = g_strdup_printf ("/%s", escaped);

        if (properties != NULL && JSON_NODE_HOLDS_OBJECT (properties))
          prop = json_object_get_member (json_node_get_object (properties), name);

        if (prop != NULL && JSON_NODE_HOLDS_OBJECT (prop))
          {
            JsonNode *type = json_object_get_member (json_node_get_object (prop), "type");
            g_autofree char *actual = tb_json_describe_type (value);

            if (type != NULL && !types_match (type, actual))
              {
                g_autofree char *wanted = tb_json_to_string (type, FALSE);
                g_autofree char *message =
                  g_strdup_printf (_("must be of type %s, not %s"), wanted, actual);
                g_autofree char *schema_path =
                  g_strdup_printf ("/properties/%s/type", escaped);

                g_ptr_array_add (errors, tb_schema_error_new (path, schema_path, "type",
                                                              message));
              }
          }
        else if (prop == NULL && additional != NULL && JSON_NODE_HOLDS_VALUE (additional) &&
                 json_node_get_value_type (additional) == G_TYPE_BOOLEAN &&
                 !json_node_get_boolean (additional))
          {
            g_autofree char *message =
              g_strdup_printf (_("has unexpected property “%s”"), name);

            g_ptr_array_add (errors, tb_schema_error_new ("", "/additionalProperties",
                                                          "additionalProperties", message));
          }
      }
  }

  return errors->len == 0;
}
