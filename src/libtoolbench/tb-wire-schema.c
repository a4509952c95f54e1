/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-wire-schema"

#include "config.h"

#include "tb-json.h"
#include "tb-wire-schema.h"

/* Gemini's function parameters take a subset of OpenAPI 3.0 schema objects
 * and answer 400 to anything else ("additionalProperties", "$schema", …).
 * Keep the members it documents, turn a type array with "null" into
 * "nullable", a "const" into a one-value "enum", and drop the rest. */

static const char * const kept_members[] = {
  "type", "format", "title", "description", "nullable", "enum",
  "maxItems", "minItems", "minProperties", "maxProperties",
  "minLength", "maxLength", "pattern", "example", "default",
  "minimum", "maximum", "propertyOrdering", "required",
  NULL
};

static JsonNode *convert (JsonNode *schema, guint depth);

static JsonNode *
convert_type (JsonNode   *type,
              JsonObject *out)
{
  if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *array = json_node_get_array (type);
      const char *single = NULL;
      guint n_types = 0;

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          const char *name = json_array_get_string_element (array, i);

          if (name == NULL)
            continue;
          if (g_str_equal (name, "null"))
            json_object_set_boolean_member (out, "nullable", TRUE);
          else
            {
              single = name;
              n_types++;
            }
        }

      /* Several non-null types cannot be said in Gemini's dialect: leave
       * the type out so the value is unconstrained rather than refused. */
      if (n_types == 1)
        return tb_json_node_new_string (single);
      return NULL;
    }

  return tb_json_copy (type);
}

static JsonNode *
convert (JsonNode *schema,
         guint     depth)
{
  JsonObject *in;
  JsonObject *out;
  JsonNode *node;
  JsonNode *member;

  if (!JSON_NODE_HOLDS_OBJECT (schema) || depth == 0)
    return tb_json_node_new_object ();

  in = json_node_get_object (schema);
  out = json_object_new ();

  for (guint i = 0; kept_members[i] != NULL; i++)
    {
      member = json_object_get_member (in, kept_members[i]);
      if (member == NULL)
        continue;

      if (g_str_equal (kept_members[i], "type"))
        {
          JsonNode *type = convert_type (member, out);

          if (type != NULL)
            json_object_set_member (out, "type", type);
        }
      else
        {
          json_object_set_member (out, kept_members[i], tb_json_copy (member));
        }
    }

  member = json_object_get_member (in, "const");
  if (member != NULL && !json_object_has_member (out, "enum"))
    {
      JsonArray *values = json_array_new ();

      json_array_add_element (values, tb_json_copy (member));
      json_object_set_array_member (out, "enum", values);
    }

  member = json_object_get_member (in, "properties");
  if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
    {
      JsonObject *props = json_object_new ();
      JsonObject *in_props = json_node_get_object (member);
      g_autoptr(GList) names = json_object_get_members (in_props);

      /* json_object_get_members() keeps the order of the schema, which the
       * model and the person read; the iterator does not. */
      for (const GList *l = names; l != NULL; l = l->next)
        json_object_set_member (props, l->data,
                                convert (json_object_get_member (in_props, l->data), depth - 1));
      json_object_set_object_member (out, "properties", props);
    }

  member = json_object_get_member (in, "items");
  if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
    json_object_set_member (out, "items", convert (member, depth - 1));

  member = json_object_get_member (in, "anyOf");
  if (member == NULL)
    member = json_object_get_member (in, "oneOf");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *in_array = json_node_get_array (member);
      JsonArray *out_array = json_array_new ();

      for (guint i = 0; i < json_array_get_length (in_array); i++)
        json_array_add_element (out_array,
                                convert (json_array_get_element (in_array, i), depth - 1));
      json_object_set_array_member (out, "anyOf", out_array);
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, out);
  return node;
}

/**
 * tb_wire_schema_for_gemini:
 * @schema: a JSON Schema object
 *
 * Returns: (transfer full): the schema in the dialect Gemini accepts
 */
JsonNode *
tb_wire_schema_for_gemini (JsonNode *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);

  return convert (schema, TB_JSON_MAX_DEPTH);
}
