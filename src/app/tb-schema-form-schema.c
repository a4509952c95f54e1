/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema-form"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tb-schema-form-private.h"

/* What a schema says of a field: its type, its $ref and allOf resolved,
 * the kind of row it gets. */

/* Schema helpers */

static JsonObject *
schema_object (JsonNode *schema)
{
  return schema != NULL && JSON_NODE_HOLDS_OBJECT (schema) ? json_node_get_object (schema) : NULL;
}

const char *
_tb_schema_form_schema_string (JsonNode   *schema,
                               const char *member)
{
  return tb_json_object_get_string (schema_object (schema), member);
}

JsonNode *
_tb_schema_form_schema_member (JsonNode   *schema,
                               const char *member)
{
  JsonObject *object = schema_object (schema);

  return object != NULL ? json_object_get_member (object, member) : NULL;
}

JsonArray *
_tb_schema_form_schema_array (JsonNode   *schema,
                              const char *member)
{
  return tb_json_object_get_array (schema_object (schema), member);
}

gboolean
_tb_schema_form_schema_number (JsonNode   *schema,
                               const char *member,
                               double     *value)
{
  JsonNode *node = _tb_schema_form_schema_member (schema, member);
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    {
      *value = json_node_get_double (node);
      return TRUE;
    }
  return FALSE;
}

/* The form reads pointers it made or the validator made; a token with a
 * stray "~" is taken as it is. */
char *
_tb_schema_form_form_pointer_unescape (const char *segment)
{
  char *token = tb_json_pointer_unescape (segment);

  return token != NULL ? token : g_strdup (segment);
}

JsonNode *
_tb_schema_form_resolve_ref (TbSchemaForm *self,
                             JsonNode     *schema)
{
  for (guint hops = 0; hops < 32; hops++)
    {
      const char *ref = _tb_schema_form_schema_string (schema, "$ref");

      if (ref == NULL)
        return schema;
      if (ref[0] != '#')
        return NULL;
      schema = tb_schema_follow_fragment (self->root_schema, ref + 1);
      if (schema == NULL)
        return NULL;
    }
  return NULL;
}

/* allOf of objects merges into one object; anything else is left alone. */
JsonNode *
_tb_schema_form_merge_all_of (TbSchemaForm *self,
                              JsonNode     *schema)
{
  JsonArray *all_of = _tb_schema_form_schema_array (schema, "allOf");
  JsonObject *merged;
  JsonObject *props;
  JsonArray *required;
  JsonNode *node;

  if (all_of == NULL)
    return json_node_ref (schema);

  merged = json_object_new ();
  props = json_object_new ();
  required = json_array_new ();

  for (guint i = 0; i <= json_array_get_length (all_of); i++)
    {
      JsonNode *part = i == 0 ? schema : _tb_schema_form_resolve_ref (self, json_array_get_element (all_of, i - 1));
      JsonObject *part_object = schema_object (part);
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      if (part_object == NULL)
        continue;

      json_object_iter_init (&iter, part_object);
      while (json_object_iter_next (&iter, &key, &value))
        {
          if (g_str_equal (key, "allOf"))
            continue;
          if (g_str_equal (key, "properties") && JSON_NODE_HOLDS_OBJECT (value))
            {
              JsonObjectIter piter;
              const char *pkey;
              JsonNode *pvalue;

              json_object_iter_init (&piter, json_node_get_object (value));
              while (json_object_iter_next (&piter, &pkey, &pvalue))
                json_object_set_member (props, pkey, json_node_copy (pvalue));
            }
          else if (g_str_equal (key, "required") && JSON_NODE_HOLDS_ARRAY (value))
            {
              JsonArray *array = json_node_get_array (value);

              for (guint j = 0; j < json_array_get_length (array); j++)
                json_array_add_element (required,
                                        json_node_copy (json_array_get_element (array, j)));
            }
          else if (!json_object_has_member (merged, key))
            json_object_set_member (merged, key, json_node_copy (value));
        }
    }

  if (json_object_get_size (props) > 0)
    {
      json_object_set_object_member (merged, "properties", props);
      if (!json_object_has_member (merged, "type"))
        json_object_set_string_member (merged, "type", "object");
    }
  else
    json_object_unref (props);
  json_object_set_array_member (merged, "required", required);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, merged);
  return node;
}

static gboolean
is_null_schema (TbSchemaForm *self,
                JsonNode     *schema)
{
  const char *type;

  schema = _tb_schema_form_resolve_ref (self, schema);
  type = _tb_schema_form_schema_string (schema, "type");
  return type != NULL && g_str_equal (type, "null");
}

static gboolean
looks_like_long_text (const char *name,
                      JsonNode   *schema)
{
  static const char * const long_names[] = {
    "body", "code", "content", "contents", "markdown", "message", "prompt", "script",
    "source", "template", "text", NULL
  };
  double max_length;
  const char *format = _tb_schema_form_schema_string (schema, "format");

  if (_tb_schema_form_schema_string (schema, "contentMediaType") != NULL)
    return TRUE;
  if (format != NULL)
    return FALSE;
  if (_tb_schema_form_schema_number (schema, "maxLength", &max_length))
    return max_length > 200;
  return name != NULL && g_strv_contains (long_names, name);
}

static FieldKind
kind_for_type (const char *type,
               const char *name,
               JsonNode   *schema)
{
  if (g_str_equal (type, "string"))
    return looks_like_long_text (name, schema) ? KIND_TEXT : KIND_STRING;
  if (g_str_equal (type, "integer"))
    return KIND_INTEGER;
  if (g_str_equal (type, "number"))
    return KIND_NUMBER;
  if (g_str_equal (type, "boolean"))
    return KIND_BOOLEAN;
  if (g_str_equal (type, "null"))
    return KIND_NULL;
  if (g_str_equal (type, "object"))
    return KIND_OBJECT;
  if (g_str_equal (type, "array"))
    return KIND_ARRAY;
  return KIND_JSON;
}

static JsonNode *
schema_with_type (JsonNode   *schema,
                  const char *type)
{
  JsonObject *copy = json_object_new ();
  JsonObject *object = schema_object (schema);
  JsonNode *node;

  if (object != NULL)
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &key, &value))
        if (!g_str_equal (key, "type"))
          json_object_set_member (copy, key, json_node_copy (value));
    }
  json_object_set_string_member (copy, "type", type);
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, copy);
  return node;
}

/* Decides the kind; fills variants for anyOf/oneOf and multi-type schemas. */
FieldKind
_tb_schema_form_classify (Field *field)
{
  TbSchemaForm *self = field->form;
  JsonNode *schema = field->schema;
  JsonNode *type;
  JsonArray *choices;

  if (schema == NULL || !JSON_NODE_HOLDS_OBJECT (schema))
    return KIND_JSON;

  if (_tb_schema_form_schema_member (schema, "const") != NULL)
    return KIND_CONST;
  if (_tb_schema_form_schema_array (schema, "enum") != NULL)
    return KIND_ENUM;

  choices = _tb_schema_form_schema_array (schema, "anyOf");
  if (choices == NULL)
    choices = _tb_schema_form_schema_array (schema, "oneOf");
  if (choices != NULL && json_array_get_length (choices) > 0)
    {
      GPtrArray *variants = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

      for (guint i = 0; i < json_array_get_length (choices); i++)
        {
          JsonNode *choice = json_array_get_element (choices, i);

          if (is_null_schema (self, choice))
            {
              field->nullable = TRUE;
              continue;
            }
          choice = _tb_schema_form_resolve_ref (self, choice);
          if (choice != NULL)
            g_ptr_array_add (variants, json_node_ref (choice));
        }

      if (variants->len == 1)
        {
          /* The common "X or null" spelling: X, nullable. */
          JsonNode *only = g_ptr_array_steal_index (variants, 0);
          FieldKind kind;

          g_ptr_array_unref (variants);
          json_node_unref (field->schema);
          field->schema = _tb_schema_form_merge_all_of (self, only);
          json_node_unref (only);
          kind = _tb_schema_form_classify (field);
          return kind;
        }
      if (variants->len == 0)
        {
          g_ptr_array_unref (variants);
          return field->nullable ? KIND_NULL : KIND_JSON;
        }
      field->variants = variants;
      return KIND_VARIANT;
    }

  type = _tb_schema_form_schema_member (schema, "type");
  if (type != NULL && JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);
      g_autoptr(GPtrArray) names = g_ptr_array_new ();

      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          const char *name = json_array_get_string_element (types, i);

          if (name == NULL)
            continue;
          if (g_str_equal (name, "null"))
            field->nullable = TRUE;
          else
            g_ptr_array_add (names, (gpointer) name);
        }

      if (names->len == 0)
        return field->nullable ? KIND_NULL : KIND_JSON;
      if (names->len == 1)
        return kind_for_type (g_ptr_array_index (names, 0), field->name, schema);

      field->variants = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (field->variants, schema_with_type (schema, g_ptr_array_index (names, i)));
      return KIND_VARIANT;
    }

  if (type != NULL && JSON_NODE_HOLDS_VALUE (type) &&
      json_node_get_value_type (type) == G_TYPE_STRING)
    return kind_for_type (json_node_get_string (type), field->name, schema);

  if (_tb_schema_form_schema_member (schema, "properties") != NULL)
    return KIND_OBJECT;
  if (_tb_schema_form_schema_member (schema, "items") != NULL)
    return KIND_ARRAY;
  return KIND_JSON;
}

/* Paths */

