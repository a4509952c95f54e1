/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-schema-node-private.h"

/**
 * TbSchema:
 *
 * A JSON Schema (draft 2020-12 or draft-07) compiled once into a graph of
 * checks, then used to validate any number of instances. A compiled schema
 * never changes, so one #TbSchema can validate on several threads at once.
 *
 * Compiling resolves every `$ref` (a reference to nowhere is an error),
 * compiles every regular expression and checks the value of every keyword
 * it knows; unknown keywords are ignored, as the specification says.
 * Validation returns every error (or only the first) with the JSON Pointer
 * of the value, the location of the keyword in the schema, the keyword and
 * a sentence a person understands.
 */

G_DEFINE_FINAL_TYPE (TbSchema, tb_schema, G_TYPE_OBJECT)
/**
 * tb_schema_compile_error_quark:
 *
 * The error domain of a schema that could not be compiled: not JSON Schema,
 * an unknown dialect, a `$ref` that leads nowhere or an invalid pattern.
 *
 * Returns: the quark of %TB_SCHEMA_COMPILE_ERROR
 */
G_DEFINE_QUARK (tb-schema-compile-error-quark, tb_schema_compile_error)

/* ------------------------------------------------------------------ */
/* Nodes                                                              */
/* ------------------------------------------------------------------ */

static void
bound_clear (Bound *bound)
{
  g_free (bound->text);
}

void
_tb_schema_node_free (Node *node)
{
  g_free (node->location);
  g_free (node->dynamic_name);
  g_free (node->const_text);
  g_clear_pointer (&node->enum_values, g_ptr_array_unref);
  g_free (node->enum_text);
  bound_clear (&node->minimum);
  bound_clear (&node->maximum);
  bound_clear (&node->exclusive_minimum);
  bound_clear (&node->exclusive_maximum);
  bound_clear (&node->multiple_of);
  g_clear_pointer (&node->pattern, _tb_schema_regex_free);
  g_free (node->pattern_source);
  g_free (node->format);
  g_free (node->prefix_items);
  g_strfreev (node->required);
  g_free (node->required_prop);
  g_free (node->required_index);
  g_free (node->property_keys);
  for (guint i = 0; i < node->n_properties; i++)
    g_free (node->properties[i].name);
  g_free (node->properties);
  g_clear_pointer (&node->property_index, g_hash_table_unref);
  for (guint i = 0; i < node->n_pattern_properties; i++)
    _tb_schema_regex_free (node->pattern_properties[i].regex);
  g_free (node->pattern_properties);
  for (guint i = 0; i < node->n_dependent_required; i++)
    {
      g_free (node->dependent_required[i].name);
      g_strfreev (node->dependent_required[i].names);
    }
  g_free (node->dependent_required);
  for (guint i = 0; i < node->n_dependent_schemas; i++)
    g_free (node->dependent_schemas[i].name);
  g_free (node->dependent_schemas);
  g_free (node->all_of);
  g_free (node->any_of);
  g_free (node->one_of);
  g_free (node);
}

void
_tb_schema_resource_free (Resource *resource)
{
  g_free (resource->uri);
  g_clear_pointer (&resource->dynamic_anchors, g_hash_table_unref);
  g_free (resource);
}

static void
tb_schema_finalize (GObject *object)
{
  TbSchema *self = TB_SCHEMA (object);

  g_clear_pointer (&self->nodes, g_ptr_array_unref);
  g_clear_pointer (&self->resources, g_ptr_array_unref);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  g_clear_pointer (&self->json, json_node_unref);

  G_OBJECT_CLASS (tb_schema_parent_class)->finalize (object);
}

static void
tb_schema_class_init (TbSchemaClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_schema_finalize;
}

static void
tb_schema_init (TbSchema *self)
{
  self->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) _tb_schema_node_free);
  self->resources = g_ptr_array_new_with_free_func ((GDestroyNotify) _tb_schema_resource_free);
  self->documents = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
}

/**
 * tb_schema_new:
 * @schema: a JSON Schema (an object or a boolean)
 * @draft_or_auto: the dialect, or %TB_SCHEMA_DRAFT_AUTO to read `$schema`
 * @error: return location for a %TB_SCHEMA_COMPILE_ERROR
 *
 * Compiles @schema with format as an annotation and no remote schemas
 * but the meta-schemas. See tb_schema_new_full().
 *
 * Returns: (transfer full): the compiled schema, or %NULL with @error set
 */
TbSchema *
tb_schema_new (JsonNode       *schema,
               TbSchemaDraft   draft_or_auto,
               GError        **error)
{
  return tb_schema_new_full (schema, draft_or_auto, TB_SCHEMA_FLAGS_NONE, NULL, error);
}

/**
 * tb_schema_new_full:
 * @schema: a JSON Schema (an object or a boolean)
 * @draft_or_auto: the dialect, or %TB_SCHEMA_DRAFT_AUTO to read `$schema`
 *   (draft 2020-12 when there is none)
 * @flags: compile options
 * @registry: (nullable): schemas that `$ref` may name by absolute URI
 * @error: return location for a %TB_SCHEMA_COMPILE_ERROR
 *
 * Compiles @schema once. The error message names the JSON Pointer of the
 * keyword that is wrong.
 *
 * Returns: (transfer full): the compiled schema, or %NULL with @error set
 */
TbSchema *
tb_schema_new_full (JsonNode          *schema,
                    TbSchemaDraft      draft_or_auto,
                    TbSchemaFlags      flags,
                    TbSchemaRegistry  *registry,
                    GError           **error)
{
  g_autoptr(TbSchema) self = NULL;
  JsonNode *copy;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (!registry || TB_IS_SCHEMA_REGISTRY (registry), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!tb_json_node_depth_ok (schema, TB_JSON_MAX_DEPTH))
    {
      g_set_error (error, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_TOO_DEEP,
                   _("The schema nests more than %u levels deep"), TB_JSON_MAX_DEPTH);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (schema) &&
      !(JSON_NODE_HOLDS_VALUE (schema) && json_node_get_value_type (schema) == G_TYPE_BOOLEAN))
    {
      g_autofree char *type = tb_json_describe_type (schema);

      g_set_error (error, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_INVALID,
                   _("A schema must be a JSON object or a boolean, not %s"), type);
      return NULL;
    }

  self = g_object_new (TB_TYPE_SCHEMA, NULL);
  copy = json_node_is_immutable (schema) ? json_node_ref (schema) : json_node_copy (schema);
  if (!json_node_is_immutable (copy))
    json_node_seal (copy);
  self->json = copy;

  if (!_tb_schema_compile (self, draft_or_auto, flags, registry, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * tb_schema_get_draft:
 * @self: a compiled schema
 *
 * The dialect is the one given to tb_schema_new(), or the one the schema's
 * `$schema` named when %TB_SCHEMA_DRAFT_AUTO was given.
 *
 * Returns: the dialect the root schema was compiled with
 */
TbSchemaDraft
tb_schema_get_draft (TbSchema *self)
{
  g_return_val_if_fail (TB_IS_SCHEMA (self), TB_SCHEMA_DRAFT_AUTO);
  return self->draft;
}

/**
 * tb_schema_get_json:
 * @self: a compiled schema
 *
 * The document the schema was compiled from, sealed so that nobody can
 * change it under the compiled form.
 *
 * Returns: (transfer none): the schema as compiled, sealed
 */
JsonNode *
tb_schema_get_json (TbSchema *self)
{
  g_return_val_if_fail (TB_IS_SCHEMA (self), NULL);
  return self->json;
}
