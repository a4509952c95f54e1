/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Compiling a schema: keywords read and checked, $ref resolved, cycles
 * found, into the graph of Nodes that validation walks. */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-node-private.h"

/* ------------------------------------------------------------------ */
/* Compiler                                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  Node *node;
  char *reference;
  char *base;
  char *location;
  gboolean dynamic;
} PendingRef;

typedef struct
{
  TbSchema         *schema;
  TbSchemaRegistry *registry;
  TbSchemaFlags     flags;
  GHashTable       *memo;       /* JsonNode* → Node* */
  GHashTable       *resources;  /* uri → Resource* */
  GHashTable       *roots;      /* uri → JsonNode* of the resource root */
  GHashTable       *anchors;    /* "uri#name" → Node* */
  GQueue            pending;    /* PendingRef* */
  GError           *error;
} Compiler;

typedef struct
{
  const char    *base;
  Resource      *resource;
  TbSchemaDraft  draft;
  guint          vocab;
} Scope;

static void
pending_ref_free (PendingRef *ref)
{
  g_free (ref->reference);
  g_free (ref->base);
  g_free (ref->location);
  g_free (ref);
}


static char *
child_location (const char *location,
                const char *keyword,
                const char *name)
{
  g_autofree char *escaped = name != NULL ? tb_json_pointer_escape (name) : NULL;

  if (escaped != NULL)
    return g_strconcat (location, "/", keyword, "/", escaped, NULL);
  return g_strconcat (location, "/", keyword, NULL);
}

static gboolean compile_failv (Compiler   *c,
                               int         code,
                               const char *location,
                               const char *format,
                               va_list     args) G_GNUC_PRINTF (4, 0);
static gboolean compile_fail (Compiler   *c,
                              int         code,
                              const char *location,
                              const char *format,
                              ...) G_GNUC_PRINTF (4, 5);
static gboolean keyword_fail (Compiler   *c,
                              const char *location,
                              const char *keyword,
                              const char *format,
                              ...) G_GNUC_PRINTF (4, 5);

static gboolean
compile_failv (Compiler   *c,
               int         code,
               const char *location,
               const char *format,
               va_list     args)
{
  g_autofree char *reason = NULL;
  g_autofree char *shown = NULL;

  if (c->error != NULL)
    return FALSE;

  reason = g_strdup_vprintf (format, args);
  if (!g_utf8_validate (reason, -1, NULL))
    {
      char *valid = g_utf8_make_valid (reason, -1);

      g_free (reason);
      reason = valid;
    }

  shown = g_utf8_make_valid (location, -1);
  /* Translators: the first %s is a JSON Pointer, the second the reason */
  g_set_error (&c->error, TB_SCHEMA_COMPILE_ERROR, code,
               _("The schema is not valid at “%s”: %s"), shown, reason);
  return FALSE;
}

static gboolean
compile_fail (Compiler   *c,
              int         code,
              const char *location,
              const char *format,
              ...)
{
  va_list args;

  va_start (args, format);
  compile_failv (c, code, location, format, args);
  va_end (args);
  return FALSE;
}

/* The value of @keyword in the schema at @location is not usable. */
static gboolean
keyword_fail (Compiler   *c,
              const char *location,
              const char *keyword,
              const char *format,
              ...)
{
  g_autofree char *loc = child_location (location, keyword, NULL);
  va_list args;

  va_start (args, format);
  compile_failv (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc, format, args);
  va_end (args);
  return FALSE;
}

static const char *
string_value (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static char *
number_text (JsonNode *node)
{
  double d;
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));

  d = json_node_get_double (node);
  g_ascii_formatd (buffer, sizeof buffer, "%.15g", d);
  if (g_ascii_strtod (buffer, NULL) != d)
    g_ascii_formatd (buffer, sizeof buffer, "%.17g", d);
  return g_strdup (buffer);
}

static gboolean
read_bound (Compiler   *c,
            JsonObject *object,
            const char *location,
            const char *keyword,
            Bound      *bound)
{
  JsonNode *value = json_object_get_member (object, keyword);

  if (value == NULL)
    return TRUE;
  if (!is_number (value))
    return keyword_fail (c, location, keyword, _("“%s” must be a number"), keyword);

  bound->present = TRUE;
  bound->is_int = json_node_get_value_type (value) == G_TYPE_INT64;
  bound->ivalue = bound->is_int ? json_node_get_int (value) : 0;
  bound->value = json_node_get_double (value);
  if (!isfinite (bound->value))
    return keyword_fail (c, location, keyword, _("“%s” must be a finite number"), keyword);
  bound->text = number_text (value);
  return TRUE;
}

static gboolean
read_count (Compiler   *c,
            JsonObject *object,
            const char *location,
            const char *keyword,
            gint64     *out)
{
  JsonNode *value = json_object_get_member (object, keyword);
  double d;

  *out = -1;
  if (value == NULL)
    return TRUE;

  if (is_number (value))
    {
      if (json_node_get_value_type (value) == G_TYPE_INT64)
        {
          *out = json_node_get_int (value);
          if (*out >= 0)
            return TRUE;
        }
      else
        {
          d = json_node_get_double (value);
          if (d >= 0 && d == floor (d) && isfinite (d))
            {
              *out = d >= (double) G_MAXINT64 ? G_MAXINT64 : (gint64) d;
              return TRUE;
            }
        }
    }

  *out = -1;
  return keyword_fail (c, location, keyword, _("“%s” must be a non-negative integer"),
                       keyword);
}

static guint8
type_bit (const char *name)
{
  static const struct { const char *name; guint8 bit; } types[] = {
    { "null", T_NULL }, { "boolean", T_BOOLEAN }, { "object", T_OBJECT },
    { "array", T_ARRAY }, { "number", T_NUMBER }, { "string", T_STRING },
    { "integer", T_INTEGER },
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_str_equal (name, types[i].name))
      return types[i].bit;
  return 0;
}

static char *
describe_value_list (JsonArray *array)
{
  GString *text = g_string_new (NULL);
  guint n = json_array_get_length (array);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *s = string_value (element);

      if (i > 0)
        g_string_append (text, ", ");
      if (text->len > 300)
        {
          g_string_append_printf (text, "… (%u more)", n - i);
          break;
        }
      if (s != NULL)
        g_string_append (text, s);
      else
        {
          g_autofree char *json = tb_json_to_string (element, FALSE);

          g_string_append (text, json);
        }
    }
  return g_string_free (text, FALSE);
}

static Resource *
ensure_resource (Compiler   *c,
                 const char *uri,
                 JsonNode   *root)
{
  Resource *resource = g_hash_table_lookup (c->resources, uri);

  if (resource == NULL)
    {
      resource = g_new0 (Resource, 1);
      resource->uri = g_strdup (uri);
      g_ptr_array_add (c->schema->resources, resource);
      g_hash_table_insert (c->resources, resource->uri, resource);
    }
  if (root != NULL && !g_hash_table_contains (c->roots, uri))
    g_hash_table_insert (c->roots, g_strdup (uri), root);
  return resource;
}

static void
add_anchor (Compiler   *c,
            Resource   *resource,
            const char *name,
            Node       *node)
{
  char *key = g_strconcat (resource->uri, "#", name, NULL);

  if (!g_hash_table_contains (c->anchors, key))
    g_hash_table_insert (c->anchors, key, node);
  else
    g_free (key);
}

static gboolean
is_valid_anchor (const char *name)
{
  if (!g_ascii_isalpha (name[0]) && name[0] != '_')
    return FALSE;
  for (const char *p = name + 1; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      return FALSE;
  return TRUE;
}

static gboolean dialect_from_uri (Compiler      *c,
                                  const char    *uri,
                                  const char    *location,
                                  guint          level,
                                  TbSchemaDraft *draft,
                                  guint         *vocab);

static Node *compile_node (Compiler   *c,
                           JsonNode   *json,
                           const char *location,
                           Scope      *scope);

static Node *
compile_child (Compiler   *c,
               JsonObject *object,
               const char *location,
               const char *keyword,
               Scope      *scope)
{
  JsonNode *value = json_object_get_member (object, keyword);
  g_autofree char *loc = NULL;

  if (value == NULL)
    return NULL;
  loc = child_location (location, keyword, NULL);
  return compile_node (c, value, loc, scope);
}

static Node **
compile_list (Compiler   *c,
              JsonObject *object,
              const char *location,
              const char *keyword,
              Scope      *scope,
              gboolean    non_empty,
              guint      *n_out)
{
  JsonNode *value = json_object_get_member (object, keyword);
  g_autofree char *loc = NULL;
  JsonArray *array;
  Node **list;
  guint n;

  *n_out = 0;
  if (value == NULL)
    return NULL;
  loc = child_location (location, keyword, NULL);
  if (!JSON_NODE_HOLDS_ARRAY (value) ||
      (non_empty && json_array_get_length (json_node_get_array (value)) == 0))
    {
      compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                    non_empty ? _("“%s” must be a non-empty array of schemas")
                              : _("“%s” must be an array of schemas"), keyword);
      return NULL;
    }

  array = json_node_get_array (value);
  n = json_array_get_length (array);
  list = g_new0 (Node *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *item_loc = g_strdup_printf ("%s/%u", loc, i);

      list[i] = compile_node (c, json_array_get_element (array, i), item_loc, scope);
      if (list[i] == NULL)
        {
          g_free (list);
          return NULL;
        }
    }
  *n_out = n;
  return list;
}

static Named *
compile_map (Compiler   *c,
             JsonObject *object,
             const char *location,
             const char *keyword,
             Scope      *scope,
             guint      *n_out)
{
  JsonNode *value = json_object_get_member (object, keyword);
  g_autofree char *loc = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  Named *map;
  guint n = 0;

  *n_out = 0;
  if (value == NULL)
    return NULL;
  loc = child_location (location, keyword, NULL);
  if (!JSON_NODE_HOLDS_OBJECT (value))
    {
      compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                    _("“%s” must be an object whose values are schemas"), keyword);
      return NULL;
    }

  map = g_new0 (Named, MAX (json_object_get_size (json_node_get_object (value)), 1));
  json_object_iter_init_ordered (&iter, json_node_get_object (value));
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      g_autofree char *escaped = tb_json_pointer_escape (name);
      g_autofree char *member_loc = g_strconcat (loc, "/", escaped, NULL);

      map[n].name = g_strdup (name);
      map[n].schema = compile_node (c, member, member_loc, scope);
      n++;
      if (map[n - 1].schema == NULL)
        {
          for (guint i = 0; i < n; i++)
            g_free (map[i].name);
          g_free (map);
          return NULL;
        }
    }
  *n_out = n;
  return map;
}

static char **
read_string_array (Compiler   *c,
                   JsonNode   *value,
                   const char *loc,
                   const char *keyword)
{
  JsonArray *array;
  GPtrArray *names;
  guint n;

  if (!JSON_NODE_HOLDS_ARRAY (value))
    {
      compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                    _("“%s” must be an array of strings"), keyword);
      return NULL;
    }
  array = json_node_get_array (value);
  n = json_array_get_length (array);
  names = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      const char *s = string_value (json_array_get_element (array, i));

      if (s == NULL)
        {
          g_ptr_array_free (names, TRUE);
          compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                        _("“%s” must be an array of strings"), keyword);
          return NULL;
        }
      g_ptr_array_add (names, g_strdup (s));
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

static void
queue_ref (Compiler   *c,
           Node       *node,
           const char *reference,
           const char *base,
           const char *location,
           gboolean    dynamic)
{
  PendingRef *ref = g_new0 (PendingRef, 1);

  ref->node = node;
  ref->reference = g_strdup (reference);
  ref->base = g_strdup (base);
  ref->location = g_strdup (location);
  ref->dynamic = dynamic;
  g_queue_push_tail (&c->pending, ref);
}

static gboolean
compile_regex (Compiler       *c,
               const char     *source,
               const char     *loc,
               TbSchemaRegex **out)
{
  g_autoptr(GError) error = NULL;

  *out = _tb_schema_regex_new (source, &error);
  if (*out == NULL)
    return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_BAD_REGEX, loc,
                         _("the regular expression “%s” does not compile: %s"),
                         source, error->message);
  return TRUE;
}

static gboolean
compile_validation (Compiler   *c,
                    Node       *node,
                    JsonObject *object,
                    const char *location,
                    Scope      *scope)
{
  JsonNode *value;
  gboolean compat04 = FALSE;

  /* type */
  value = json_object_get_member (object, "type");
  if (value != NULL)
    {
      g_autofree char *loc = child_location (location, "type", NULL);
      const char *s = string_value (value);

      if (s != NULL)
        node->types = type_bit (s);
      else if (JSON_NODE_HOLDS_ARRAY (value))
        {
          JsonArray *array = json_node_get_array (value);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              const char *t = string_value (json_array_get_element (array, i));
              guint8 bit = t != NULL ? type_bit (t) : 0;

              if (bit == 0 || (node->types & bit) != 0)
                return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                                     _("“type” must list distinct JSON types"));
              node->types |= bit;
            }
          if (node->types == 0)
            return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                                 _("“type” must list at least one JSON type"));
        }
      if (node->types == 0)
        return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                             _("“type” must be one of null, boolean, object, array, number, "
                               "string, integer, or an array of them"));
    }

  /* enum, const */
  value = json_object_get_member (object, "enum");
  if (value != NULL)
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (value))
        return keyword_fail (c, location, "enum", _("“enum” must be an array"));
      array = json_node_get_array (value);
      node->enum_values = g_ptr_array_new ();
      for (guint i = 0; i < json_array_get_length (array); i++)
        g_ptr_array_add (node->enum_values, json_array_get_element (array, i));
      node->enum_text = describe_value_list (array);
    }
  value = json_object_get_member (object, "const");
  if (value != NULL)
    {
      node->has_const = TRUE;
      node->const_value = value;
      if (string_value (value) != NULL)
        node->const_text = g_strdup_printf ("“%s”", string_value (value));
      else
        node->const_text = tb_json_to_string (value, FALSE);
    }

  /* numbers */
  if (node->draft == TB_SCHEMA_DRAFT_7)
    {
      JsonNode *emin = json_object_get_member (object, "exclusiveMinimum");
      JsonNode *emax = json_object_get_member (object, "exclusiveMaximum");

      compat04 = (emin != NULL && JSON_NODE_HOLDS_VALUE (emin) &&
                  json_node_get_value_type (emin) == G_TYPE_BOOLEAN) ||
                 (emax != NULL && JSON_NODE_HOLDS_VALUE (emax) &&
                  json_node_get_value_type (emax) == G_TYPE_BOOLEAN);
    }
  if (!read_bound (c, object, location, "minimum", &node->minimum) ||
      !read_bound (c, object, location, "maximum", &node->maximum) ||
      !read_bound (c, object, location, "multipleOf", &node->multiple_of))
    return FALSE;
  if (compat04)
    {
      /* draft-04: exclusiveMinimum/Maximum are booleans that modify minimum/maximum */
      JsonNode *emin = json_object_get_member (object, "exclusiveMinimum");
      JsonNode *emax = json_object_get_member (object, "exclusiveMaximum");

      if (emin != NULL && JSON_NODE_HOLDS_VALUE (emin) &&
          json_node_get_value_type (emin) == G_TYPE_BOOLEAN && json_node_get_boolean (emin))
        {
          node->exclusive_minimum = node->minimum;
          node->minimum.text = NULL;
          node->minimum.present = FALSE;
        }
      if (emax != NULL && JSON_NODE_HOLDS_VALUE (emax) &&
          json_node_get_value_type (emax) == G_TYPE_BOOLEAN && json_node_get_boolean (emax))
        {
          node->exclusive_maximum = node->maximum;
          node->maximum.text = NULL;
          node->maximum.present = FALSE;
        }
    }
  else if (!read_bound (c, object, location, "exclusiveMinimum", &node->exclusive_minimum) ||
           !read_bound (c, object, location, "exclusiveMaximum", &node->exclusive_maximum))
    return FALSE;
  if (node->multiple_of.present && node->multiple_of.value <= 0)
    return keyword_fail (c, location, "multipleOf", _("“multipleOf” must be greater than 0"));
  node->has_numeric = node->minimum.present || node->maximum.present ||
                      node->exclusive_minimum.present || node->exclusive_maximum.present ||
                      node->multiple_of.present;

  /* strings */
  if (!read_count (c, object, location, "minLength", &node->min_length) ||
      !read_count (c, object, location, "maxLength", &node->max_length))
    return FALSE;
  value = json_object_get_member (object, "pattern");
  if (value != NULL)
    {
      g_autofree char *loc = child_location (location, "pattern", NULL);
      const char *s = string_value (value);

      if (s == NULL)
        return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                             _("“pattern” must be a string"));
      if (!compile_regex (c, s, loc, &node->pattern))
        return FALSE;
      node->pattern_source = g_strdup (s);
    }

  /* arrays */
  if (!read_count (c, object, location, "minItems", &node->min_items) ||
      !read_count (c, object, location, "maxItems", &node->max_items))
    return FALSE;
  value = json_object_get_member (object, "uniqueItems");
  if (value != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_BOOLEAN)
        return keyword_fail (c, location, "uniqueItems", _("“uniqueItems” must be true or false"));
      node->unique_items = json_node_get_boolean (value);
    }
  node->min_contains = node->max_contains = -1;
  if (node->draft != TB_SCHEMA_DRAFT_7 &&
      (!read_count (c, object, location, "minContains", &node->min_contains) ||
       !read_count (c, object, location, "maxContains", &node->max_contains)))
    return FALSE;

  /* objects */
  if (!read_count (c, object, location, "minProperties", &node->min_properties) ||
      !read_count (c, object, location, "maxProperties", &node->max_properties))
    return FALSE;
  value = json_object_get_member (object, "required");
  if (value != NULL)
    {
      g_autofree char *loc = child_location (location, "required", NULL);

      node->required = read_string_array (c, value, loc, "required");
      if (node->required == NULL)
        return FALSE;
    }
  value = json_object_get_member (object, node->draft == TB_SCHEMA_DRAFT_7
                                  ? "dependencies" : "dependentRequired");
  if (value != NULL && JSON_NODE_HOLDS_OBJECT (value))
    {
      JsonObject *deps = json_node_get_object (value);
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      node->dependent_required = g_new0 (DepRequired, MAX (json_object_get_size (deps), 1));
      json_object_iter_init_ordered (&iter, deps);
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          g_autofree char *loc = NULL;
          char **names;

          if (node->draft == TB_SCHEMA_DRAFT_7 && !JSON_NODE_HOLDS_ARRAY (member))
            continue;  /* a schema dependency, compiled with the applicators */
          loc = child_location (location, node->draft == TB_SCHEMA_DRAFT_7
                                ? "dependencies" : "dependentRequired", name);
          names = read_string_array (c, member, loc, node->draft == TB_SCHEMA_DRAFT_7
                                     ? "dependencies" : "dependentRequired");
          if (names == NULL)
            return FALSE;
          node->dependent_required[node->n_dependent_required].name = g_strdup (name);
          node->dependent_required[node->n_dependent_required].names = names;
          node->n_dependent_required++;
        }
    }
  else if (value != NULL)
    {
      g_autofree char *loc = child_location (location, node->draft == TB_SCHEMA_DRAFT_7
                                             ? "dependencies" : "dependentRequired", NULL);

      return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                           _("the dependencies must be an object"));
    }

  return TRUE;
}

static gboolean
compile_applicators (Compiler   *c,
                     Node       *node,
                     JsonObject *object,
                     const char *location,
                     Scope      *scope)
{
  JsonNode *value;
  guint n;

  /* in place */
  node->all_of = compile_list (c, object, location, "allOf", scope, TRUE, &node->n_all_of);
  node->any_of = compile_list (c, object, location, "anyOf", scope, TRUE, &node->n_any_of);
  node->one_of = compile_list (c, object, location, "oneOf", scope, TRUE, &node->n_one_of);
  if (c->error != NULL)
    return FALSE;
  node->not_schema = compile_child (c, object, location, "not", scope);
  node->if_schema = compile_child (c, object, location, "if", scope);
  /* Without "if" they do nothing, but may still hold resources $ref names. */
  node->then_schema = compile_child (c, object, location, "then", scope);
  node->else_schema = compile_child (c, object, location, "else", scope);
  if (c->error != NULL)
    return FALSE;

  if (node->draft == TB_SCHEMA_DRAFT_7)
    {
      value = json_object_get_member (object, "dependencies");
      if (value != NULL && JSON_NODE_HOLDS_OBJECT (value))
        {
          JsonObject *deps = json_node_get_object (value);
          JsonObjectIter iter;
          const char *name;
          JsonNode *member;
          g_autofree char *loc = child_location (location, "dependencies", NULL);

          node->dependent_schemas = g_new0 (Named, MAX (json_object_get_size (deps), 1));
          json_object_iter_init_ordered (&iter, deps);
          while (json_object_iter_next_ordered (&iter, &name, &member))
            {
              g_autofree char *escaped = NULL;
              g_autofree char *member_loc = NULL;
              Named *entry;

              if (JSON_NODE_HOLDS_ARRAY (member))
                continue;
              escaped = tb_json_pointer_escape (name);
              member_loc = g_strconcat (loc, "/", escaped, NULL);
              entry = &node->dependent_schemas[node->n_dependent_schemas++];
              entry->name = g_strdup (name);
              entry->schema = compile_node (c, member, member_loc, scope);
              if (entry->schema == NULL)
                return FALSE;
            }
        }
    }
  else
    {
      node->dependent_schemas = compile_map (c, object, location, "dependentSchemas", scope,
                                             &node->n_dependent_schemas);
      if (c->error != NULL)
        return FALSE;
    }

  /* objects */
  node->properties = compile_map (c, object, location, "properties", scope, &node->n_properties);
  if (c->error != NULL)
    return FALSE;
  if (node->n_properties > 0)
    {
      node->property_index = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < node->n_properties; i++)
        g_hash_table_insert (node->property_index, node->properties[i].name,
                             node->properties[i].schema);
    }
  {
    Named *patterns = compile_map (c, object, location, "patternProperties", scope, &n);

    if (c->error != NULL)
      return FALSE;
    if (n > 0)
      {
        node->pattern_properties = g_new0 (Patterned, n);
        for (guint i = 0; i < n; i++)
          {
            g_autofree char *loc = child_location (location, "patternProperties",
                                                   patterns[i].name);

            node->pattern_properties[i].schema = patterns[i].schema;
            if (!compile_regex (c, patterns[i].name, loc, &node->pattern_properties[i].regex))
              {
                for (guint j = 0; j < n; j++)
                  g_free (patterns[j].name);
                g_free (patterns);
                return FALSE;
              }
            node->n_pattern_properties++;
          }
      }
    for (guint j = 0; j < n; j++)
      g_free (patterns[j].name);
    g_free (patterns);
  }
  node->additional_properties = compile_child (c, object, location, "additionalProperties",
                                               scope);
  node->property_names = compile_child (c, object, location, "propertyNames", scope);
  if (c->error != NULL)
    return FALSE;

  /* arrays */
  value = json_object_get_member (object, "items");
  if (value != NULL && JSON_NODE_HOLDS_ARRAY (value) &&
      (node->draft == TB_SCHEMA_DRAFT_7 || !json_object_has_member (object, "prefixItems")))
    {
      /* draft-07 tuple form; accepted in 2020-12 too, where tools still use it */
      node->prefix_items = compile_list (c, object, location, "items", scope, FALSE,
                                         &node->n_prefix_items);
      node->items = compile_child (c, object, location, "additionalItems", scope);
    }
  else
    {
      if (node->draft != TB_SCHEMA_DRAFT_7)
        node->prefix_items = compile_list (c, object, location, "prefixItems", scope, TRUE,
                                           &node->n_prefix_items);
      if (c->error != NULL)
        return FALSE;
      if (value != NULL && !JSON_NODE_HOLDS_OBJECT (value) &&
          !(JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_BOOLEAN))
        return keyword_fail (c, location, "items", _("“items” must be a schema"));
      node->items = compile_child (c, object, location, "items", scope);
    }
  node->contains = compile_child (c, object, location, "contains", scope);
  if (c->error != NULL)
    return FALSE;

  return TRUE;
}

static gboolean
compile_unevaluated (Compiler   *c,
                     Node       *node,
                     JsonObject *object,
                     const char *location,
                     Scope      *scope)
{
  if (node->draft == TB_SCHEMA_DRAFT_7)
    return TRUE;
  node->unevaluated_items = compile_child (c, object, location, "unevaluatedItems", scope);
  node->unevaluated_properties = compile_child (c, object, location, "unevaluatedProperties",
                                                scope);
  return c->error == NULL;
}

static void
compile_definitions (Compiler   *c,
                     JsonObject *object,
                     const char *location,
                     const char *keyword,
                     Scope      *scope)
{
  guint n;
  JsonNode *value = json_object_get_member (object, keyword);
  Named *defs;

  if (value == NULL || !JSON_NODE_HOLDS_OBJECT (value))
    return;
  defs = compile_map (c, object, location, keyword, scope, &n);
  for (guint i = 0; i < n; i++)
    g_free (defs[i].name);
  g_free (defs);
}

static Node *
compile_node (Compiler   *c,
              JsonNode   *json,
              const char *location,
              Scope      *parent)
{
  Node *node;
  JsonObject *object;
  Scope scope = *parent;
  g_autofree char *base = g_strdup (parent->base);
  JsonNode *value;
  const char *s;
  gboolean has_ref;

  if (c->error != NULL)
    return NULL;

  node = g_hash_table_lookup (c->memo, json);
  if (node != NULL)
    return node;

  node = g_new0 (Node, 1);
  node->json = json;
  node->location = g_strdup (location);
  node->min_length = node->max_length = node->min_items = node->max_items = -1;
  node->min_properties = node->max_properties = node->min_contains = node->max_contains = -1;
  g_ptr_array_add (c->schema->nodes, node);
  g_hash_table_insert (c->memo, json, node);

  if (JSON_NODE_HOLDS_VALUE (json) && json_node_get_value_type (json) == G_TYPE_BOOLEAN)
    {
      node->is_bool = TRUE;
      node->bool_value = json_node_get_boolean (json);
      node->draft = parent->draft;
      node->resource = parent->resource;
      return node;
    }

  if (!JSON_NODE_HOLDS_OBJECT (json))
    {
      g_autofree char *type = tb_json_describe_type (json);

      compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, location,
                    _("a schema must be an object or a boolean, not %s"), type);
      return NULL;
    }
  object = json_node_get_object (json);

  /* $schema may change the dialect at the root of a resource */
  value = json_object_get_member (object, "$schema");
  if (value != NULL)
    {
      g_autofree char *loc = child_location (location, "$schema", NULL);

      s = string_value (value);
      if (s == NULL)
        {
          compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc, _("“$schema” must be a URI"));
          return NULL;
        }
      if (!dialect_from_uri (c, s, loc, 0, &scope.draft, &scope.vocab))
        return NULL;
    }
  node->draft = scope.draft;

  has_ref = json_object_has_member (object, "$ref");

  /* $id */
  s = string_value (json_object_get_member (object, "$id"));
  if (json_object_has_member (object, "$id") && s == NULL)
    {
      g_autofree char *loc = child_location (location, "$id", NULL);

      compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc, _("“$id” must be a string"));
      return NULL;
    }
  if (s != NULL && !(node->draft == TB_SCHEMA_DRAFT_7 && has_ref))
    {
      if (node->draft == TB_SCHEMA_DRAFT_7 && s[0] == '#')
        {
          if (s[1] != '\0')
            add_anchor (c, scope.resource, s + 1, node);
        }
      else
        {
          g_autofree char *resolved = _tb_schema_uri_resolve (base, s);
          char *hash = strchr (resolved, '#');

          if (hash != NULL && node->draft != TB_SCHEMA_DRAFT_7 && hash[1] != '\0')
            {
              g_autofree char *loc = child_location (location, "$id", NULL);

              compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                            _("“$id” must not have a fragment; use “$anchor”"));
              return NULL;
            }
          if (hash != NULL)
            {
              if (hash[1] != '\0')
                {
                  /* draft-07 "$id": "other.json#name" */
                  Resource *r;

                  *hash = '\0';
                  r = ensure_resource (c, resolved, json);
                  add_anchor (c, r, hash + 1, node);
                }
              *hash = '\0';
            }
          g_free (base);
          base = g_steal_pointer (&resolved);
          scope.resource = ensure_resource (c, base, json);
        }
    }
  scope.base = base;
  node->resource = scope.resource;

  /* anchors */
  if (node->draft != TB_SCHEMA_DRAFT_7)
    {
      static const char *keys[] = { "$anchor", "$dynamicAnchor" };

      for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        {
          value = json_object_get_member (object, keys[i]);
          if (value == NULL)
            continue;
          s = string_value (value);
          if (s == NULL || !is_valid_anchor (s))
            {
              g_autofree char *loc = child_location (location, keys[i], NULL);

              compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                            _("“%s” must be a plain name (a letter or “_”, then letters, "
                              "digits, “-”, “_” or “.”)"), keys[i]);
              return NULL;
            }
          add_anchor (c, scope.resource, s, node);
          if (i == 1)
            {
              if (scope.resource->dynamic_anchors == NULL)
                scope.resource->dynamic_anchors = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                                         g_free, NULL);
              if (!g_hash_table_contains (scope.resource->dynamic_anchors, s))
                g_hash_table_insert (scope.resource->dynamic_anchors, g_strdup (s), node);
            }
        }
    }

  /* $ref, $dynamicRef: resolved once everything is compiled */
  if (has_ref)
    {
      g_autofree char *loc = child_location (location, "$ref", NULL);

      s = string_value (json_object_get_member (object, "$ref"));
      if (s == NULL)
        {
          compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc, _("“$ref” must be a string"));
          return NULL;
        }
      queue_ref (c, node, s, base, loc, FALSE);
      if (node->draft == TB_SCHEMA_DRAFT_7)
        {
          /* draft-07: "$ref" replaces its siblings; definitions still hold anchors */
          node->ref_only = TRUE;
          compile_definitions (c, object, location, "definitions", &scope);
          return c->error == NULL ? node : NULL;
        }
    }
  if (node->draft != TB_SCHEMA_DRAFT_7 && json_object_has_member (object, "$dynamicRef"))
    {
      g_autofree char *loc = child_location (location, "$dynamicRef", NULL);

      s = string_value (json_object_get_member (object, "$dynamicRef"));
      if (s == NULL)
        {
          compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                        _("“$dynamicRef” must be a string"));
          return NULL;
        }
      queue_ref (c, node, s, base, loc, TRUE);
    }

  if ((scope.vocab & V_VALIDATION) != 0 &&
      !compile_validation (c, node, object, location, &scope))
    return NULL;

  /* format: an annotation, checked when asked for or by the meta-schema */
  value = json_object_get_member (object, "format");
  if (value != NULL && string_value (value) != NULL)
    {
      node->format = g_strdup (string_value (value));
      node->assert_format = ((c->flags & TB_SCHEMA_FLAGS_ASSERT_FORMAT) != 0 ||
                             (scope.vocab & V_FORMAT_ASSERTION) != 0) &&
                            _tb_schema_format_is_checked (node->format);
    }
  if ((scope.vocab & V_APPLICATOR) != 0 &&
      !compile_applicators (c, node, object, location, &scope))
    return NULL;
  if ((scope.vocab & V_UNEVALUATED) != 0 &&
      !compile_unevaluated (c, node, object, location, &scope))
    return NULL;

  compile_definitions (c, object, location, "$defs", &scope);
  compile_definitions (c, object, location, "definitions", &scope);
  if (c->error != NULL)
    return NULL;

  node->has_string = node->min_length >= 0 || node->max_length >= 0 || node->pattern != NULL ||
                     node->assert_format;
  node->has_array = node->min_items >= 0 || node->max_items >= 0 || node->unique_items ||
                    node->n_prefix_items > 0 || node->items != NULL || node->contains != NULL;
  node->type_only = node->types != 0 && !has_ref &&
                    !json_object_has_member (object, "$dynamicRef") && !node->has_const &&
                    node->enum_values == NULL && !node->has_numeric && node->min_length < 0 &&
                    node->max_length < 0 && node->pattern == NULL && !node->assert_format &&
                    node->min_items < 0 && node->max_items < 0 && !node->unique_items &&
                    node->n_prefix_items == 0 && node->items == NULL && node->contains == NULL &&
                    node->unevaluated_items == NULL && node->min_properties < 0 &&
                    node->max_properties < 0 && node->required == NULL &&
                    node->n_dependent_required == 0 && node->n_properties == 0 &&
                    node->n_pattern_properties == 0 && node->additional_properties == NULL &&
                    node->property_names == NULL && node->n_dependent_schemas == 0 &&
                    node->unevaluated_properties == NULL && node->n_all_of == 0 &&
                    node->n_any_of == 0 && node->n_one_of == 0 && node->not_schema == NULL &&
                    node->if_schema == NULL;
  /* With few properties, a verdict learns which required ones are present
   * while it walks the members, instead of looking each one up. */
  if (node->required != NULL && node->n_properties > 0 && node->n_properties <= 8)
    {
      guint n_required = g_strv_length (node->required);

      node->required_prop = g_new (gint8, MAX (n_required, 1));
      for (guint i = 0; i < n_required; i++)
        {
          node->required_prop[i] = -1;
          for (guint j = 0; j < node->n_properties; j++)
            if (g_str_equal (node->required[i], node->properties[j].name))
              node->required_prop[i] = j;
        }
    }

  node->has_object = node->min_properties >= 0 || node->max_properties >= 0 ||
                     node->required != NULL || node->n_dependent_required > 0 ||
                     node->n_properties > 0 || node->n_pattern_properties > 0 ||
                     node->additional_properties != NULL || node->property_names != NULL ||
                     node->n_dependent_schemas > 0;

  return node;
}

static const struct
{
  const char *uri;
  guint       bit;
} vocabularies[] = {
  { "https://json-schema.org/draft/2020-12/vocab/core", 0 },
  { "https://json-schema.org/draft/2020-12/vocab/applicator", V_APPLICATOR },
  { "https://json-schema.org/draft/2020-12/vocab/unevaluated", V_UNEVALUATED },
  { "https://json-schema.org/draft/2020-12/vocab/validation", V_VALIDATION },
  { "https://json-schema.org/draft/2020-12/vocab/meta-data", 0 },
  { "https://json-schema.org/draft/2020-12/vocab/format-annotation", 0 },
  { "https://json-schema.org/draft/2020-12/vocab/format-assertion", V_FORMAT_ASSERTION },
  { "https://json-schema.org/draft/2020-12/vocab/content", 0 },
  { "https://json-schema.org/draft/2019-09/vocab/core", 0 },
  { "https://json-schema.org/draft/2019-09/vocab/applicator", V_APPLICATOR | V_UNEVALUATED },
  { "https://json-schema.org/draft/2019-09/vocab/validation", V_VALIDATION },
  { "https://json-schema.org/draft/2019-09/vocab/meta-data", 0 },
  { "https://json-schema.org/draft/2019-09/vocab/format", 0 },
  { "https://json-schema.org/draft/2019-09/vocab/content", 0 },
};

static gboolean
known_dialect (const char    *uri,
               TbSchemaDraft *draft)
{
  g_autofree char *key = g_strdup (uri);
  gsize len = strlen (key);
  const char *rest;

  if (len > 0 && key[len - 1] == '#')
    key[len - 1] = '\0';
  if (g_str_has_prefix (key, "https://"))
    rest = key + 8;
  else if (g_str_has_prefix (key, "http://"))
    rest = key + 7;
  else
    return FALSE;

  if (g_str_equal (rest, "json-schema.org/draft/2020-12/schema") ||
      g_str_equal (rest, "json-schema.org/draft/2019-09/schema"))
    {
      *draft = TB_SCHEMA_DRAFT_2020_12;
      return TRUE;
    }
  if (g_str_equal (rest, "json-schema.org/draft-07/schema") ||
      g_str_equal (rest, "json-schema.org/draft-06/schema") ||
      g_str_equal (rest, "json-schema.org/draft-04/schema"))
    {
      *draft = TB_SCHEMA_DRAFT_7;
      return TRUE;
    }
  return FALSE;
}

static gboolean
dialect_from_uri (Compiler      *c,
                  const char    *uri,
                  const char    *location,
                  guint          level,
                  TbSchemaDraft *draft,
                  guint         *vocab)
{
  g_autoptr(JsonNode) meta = NULL;
  JsonObject *object;
  JsonNode *value;

  if (known_dialect (uri, draft))
    {
      *vocab = V_DEFAULT;
      if (*draft == TB_SCHEMA_DRAFT_7)
        *vocab &= ~V_UNEVALUATED;
      return TRUE;
    }

  if (c->registry != NULL)
    meta = tb_schema_registry_lookup (c->registry, uri);
  if (meta == NULL || !JSON_NODE_HOLDS_OBJECT (meta) || level > 4)
    return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_UNSUPPORTED_DRAFT, location,
                         _("the dialect “%s” is not known: use draft 2020-12 "
                           "(https://json-schema.org/draft/2020-12/schema) or draft-07 "
                           "(http://json-schema.org/draft-07/schema#), or add its "
                           "meta-schema to the registry"), uri);

  object = json_node_get_object (meta);
  value = json_object_get_member (object, "$schema");
  if (string_value (value) != NULL && !g_str_equal (string_value (value), uri))
    {
      if (!dialect_from_uri (c, string_value (value), location, level + 1, draft, vocab))
        return FALSE;
    }
  else
    {
      *draft = TB_SCHEMA_DRAFT_2020_12;
      *vocab = V_DEFAULT;
    }

  value = json_object_get_member (object, "$vocabulary");
  if (value != NULL && JSON_NODE_HOLDS_OBJECT (value))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *required;

      *vocab = 0;
      json_object_iter_init_ordered (&iter, json_node_get_object (value));
      while (json_object_iter_next_ordered (&iter, &name, &required))
        {
          gboolean known = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (vocabularies); i++)
            if (g_str_equal (name, vocabularies[i].uri))
              {
                *vocab |= vocabularies[i].bit;
                known = TRUE;
              }
          if (!known && JSON_NODE_HOLDS_VALUE (required) &&
              json_node_get_value_type (required) == G_TYPE_BOOLEAN &&
              json_node_get_boolean (required))
            return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_UNSUPPORTED_DRAFT, location,
                                 _("the meta-schema requires the vocabulary “%s”, which "
                                   "Toolbench does not know"), name);
        }
    }
  return TRUE;
}

/**
 * tb_schema_follow_fragment:
 * @document: (nullable): a schema document
 * @fragment: a URI fragment without its "#": a JSON Pointer, percent-encoded
 *
 * What a local `$ref` such as "#/$defs/a%25b" names inside @document.
 *
 * Returns: (transfer none) (nullable): the value, or %NULL when there is none
 */
JsonNode *
tb_schema_follow_fragment (JsonNode   *document,
                           const char *fragment)
{
  g_autofree char *decoded = NULL;

  g_return_val_if_fail (fragment != NULL, NULL);

  decoded = g_uri_unescape_string (fragment, NULL);
  return decoded != NULL ? tb_json_pointer_get (document, decoded) : NULL;
}

static Node *
load_document (Compiler   *c,
               const char *uri,
               Scope      *default_scope)
{
  g_autoptr(JsonNode) doc = NULL;
  Scope scope = *default_scope;
  g_autofree char *location = NULL;

  if (c->registry != NULL)
    doc = tb_schema_registry_lookup (c->registry, uri);
  else
    doc = _tb_schema_builtin_lookup (uri);
  if (doc == NULL)
    return NULL;

  g_ptr_array_add (c->schema->documents, json_node_ref (doc));
  scope.base = uri;
  scope.resource = ensure_resource (c, uri, doc);
  scope.draft = TB_SCHEMA_DRAFT_2020_12;
  scope.vocab = V_DEFAULT;
  location = g_strconcat (uri, "#", NULL);
  return compile_node (c, doc, location, &scope);
}

static Node *
resolve_ref (Compiler   *c,
             PendingRef *ref)
{
  g_autofree char *target = _tb_schema_uri_resolve (ref->base, ref->reference);
  char *hash = strchr (target, '#');
  const char *fragment = "";
  JsonNode *root;
  Resource *resource;

  if (hash != NULL)
    {
      *hash = '\0';
      fragment = hash + 1;
    }

  resource = g_hash_table_lookup (c->resources, target);
  if (resource == NULL)
    {
      Scope scope = { target, NULL, TB_SCHEMA_DRAFT_2020_12, V_DEFAULT };

      if (load_document (c, target, &scope) == NULL)
        {
          if (c->error == NULL)
            compile_fail (c, TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF, ref->location,
                          _("“%s” refers to “%s”, which is not known (remote schemas must "
                            "be added to the schema registry; nothing is fetched from the "
                            "network)"), ref->reference, target);
          return NULL;
        }
      resource = g_hash_table_lookup (c->resources, target);
      g_assert (resource != NULL);
    }

  if (fragment[0] == '\0' || fragment[0] == '/' || fragment[0] == '%')
    {
      JsonNode *found;
      Node *node;

      root = g_hash_table_lookup (c->roots, target);
      found = root != NULL ? tb_schema_follow_fragment (root, fragment) : NULL;
      if (found == NULL)
        {
          compile_fail (c, TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF, ref->location,
                        _("“%s” points to nothing in “%s”"), ref->reference, target);
          return NULL;
        }
      node = g_hash_table_lookup (c->memo, found);
      if (node == NULL)
        {
          Node *owner = g_hash_table_lookup (c->memo, root);
          Scope scope = { target, resource, TB_SCHEMA_DRAFT_2020_12, V_DEFAULT };
          g_autofree char *location = NULL;

          if (owner != NULL)
            scope.draft = owner->draft;
          if (scope.draft == TB_SCHEMA_DRAFT_7)
            scope.vocab &= ~V_UNEVALUATED;
          location = g_strconcat (target, "#", fragment, NULL);
          node = compile_node (c, found, location, &scope);
        }
      return node;
    }
  else
    {
      g_autofree char *key = g_strconcat (target, "#", fragment, NULL);
      Node *node = g_hash_table_lookup (c->anchors, key);

      if (node == NULL)
        compile_fail (c, TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF, ref->location,
                      _("“%s” names the anchor “%s”, which “%s” does not define"),
                      ref->reference, fragment, target);
      return node;
    }
}

static gboolean
resolve_pending (Compiler *c)
{
  PendingRef *ref;

  while (c->error == NULL && (ref = g_queue_pop_head (&c->pending)) != NULL)
    {
      Node *target = resolve_ref (c, ref);

      if (target != NULL)
        {
          if (!ref->dynamic)
            ref->node->ref = target;
          else
            {
              g_autofree char *resolved = _tb_schema_uri_resolve (ref->base, ref->reference);
              const char *hash = strchr (resolved, '#');

              ref->node->dynamic_ref = target;
              /* Dynamic only when the static target carries the same $dynamicAnchor. */
              if (hash != NULL && hash[1] != '/' && hash[1] != '\0' && target->resource != NULL &&
                  target->resource->dynamic_anchors != NULL &&
                  g_hash_table_lookup (target->resource->dynamic_anchors, hash + 1) == target)
                ref->node->dynamic_name = g_strdup (hash + 1);
            }
        }
      pending_ref_free (ref);
    }

  return c->error == NULL;
}

static Node absent_slot;

/* Children applied to the same instance location; &absent_slot for an empty slot. */
static Node *
in_place_child (Node  *node,
                guint  i)
{
  Node *fixed[] = { node->ref, node->not_schema, node->if_schema, node->then_schema,
                    node->else_schema };

  if (i < G_N_ELEMENTS (fixed))
    return fixed[i] != NULL ? fixed[i] : &absent_slot;
  i -= G_N_ELEMENTS (fixed);
  if (i < node->n_all_of)
    return node->all_of[i];
  i -= node->n_all_of;
  if (i < node->n_any_of)
    return node->any_of[i];
  i -= node->n_any_of;
  if (i < node->n_one_of)
    return node->one_of[i];
  i -= node->n_one_of;
  if (i < node->n_dependent_schemas)
    return node->dependent_schemas[i].schema;
  return NULL;
}

/* A loop of in-place references never reaches the instance: refuse it at
 * compile time rather than recurse until the depth limit. Iterative, so a
 * long chain cannot exhaust the stack. */
static gboolean
check_cycles (Compiler *c)
{
  typedef struct { Node *node; guint next; } Frame;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  GPtrArray *nodes = c->schema->nodes;

  for (guint i = 0; i < nodes->len; i++)
    ((Node *) g_ptr_array_index (nodes, i))->mark = 0;

  for (guint i = 0; i < nodes->len; i++)
    {
      Node *start = g_ptr_array_index (nodes, i);
      Frame frame = { start, 0 };

      if (start->mark != 0)
        continue;
      start->mark = 1;
      g_array_append_val (stack, frame);

      while (stack->len > 0)
        {
          Frame *top = &g_array_index (stack, Frame, stack->len - 1);
          Node *child = in_place_child (top->node, top->next++);

          if (child == NULL)
            {
              top->node->mark = 2;
              g_array_set_size (stack, stack->len - 1);
              continue;
            }
          if (child == &absent_slot)
            continue;
          if (child->mark == 1)
            return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_CYCLE, child->location,
                                 _("the schema refers to itself without descending into the "
                                   "value, so validation would never end"));
          if (child->mark == 0)
            {
              Frame next = { child, 0 };

              child->mark = 1;
              g_array_append_val (stack, next);
            }
        }
    }
  return TRUE;
}

/* Compiles self->json into self->root and its nodes; may replace
 * self->json by a copy without "$schema" when the draft is explicit. */
gboolean
_tb_schema_compile (TbSchema          *self,
                    TbSchemaDraft      draft_or_auto,
                    TbSchemaFlags      flags,
                    TbSchemaRegistry  *registry,
                    GError           **error)
{
  Compiler c = { 0 };
  Scope scope = { DEFAULT_BASE, NULL, TB_SCHEMA_DRAFT_2020_12, V_DEFAULT };
  JsonNode *copy = self->json;

  if (draft_or_auto == TB_SCHEMA_DRAFT_7)
    {
      scope.draft = TB_SCHEMA_DRAFT_7;
      scope.vocab = V_DEFAULT & ~V_UNEVALUATED;
    }

  c.schema = self;
  c.registry = registry;
  c.flags = flags;
  c.memo = g_hash_table_new (NULL, NULL);
  c.resources = g_hash_table_new (g_str_hash, g_str_equal);
  c.roots = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.anchors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&c.pending);

  scope.resource = ensure_resource (&c, DEFAULT_BASE, copy);

  /* An explicit draft wins over $schema, which then only names a dialect. */
  if (draft_or_auto != TB_SCHEMA_DRAFT_AUTO && JSON_NODE_HOLDS_OBJECT (copy) &&
      json_object_has_member (json_node_get_object (copy), "$schema"))
    {
      g_autoptr(JsonNode) stripped = json_node_copy (copy);

      json_object_remove_member (json_node_get_object (stripped), "$schema");
      json_node_seal (stripped);
      json_node_unref (self->json);
      self->json = g_steal_pointer (&stripped);
      g_hash_table_replace (c.roots, g_strdup (DEFAULT_BASE), self->json);
    }

  self->root = compile_node (&c, self->json, "", &scope);
  if (self->root != NULL)
    self->draft = self->root->draft;
  if (self->root != NULL)
    resolve_pending (&c);
  if (c.error == NULL)
    check_cycles (&c);

  g_hash_table_unref (c.memo);
  g_hash_table_unref (c.resources);
  g_hash_table_unref (c.roots);
  g_hash_table_unref (c.anchors);
  g_queue_clear_full (&c.pending, (GDestroyNotify) pending_ref_free);

  if (c.error != NULL)
    {
      g_propagate_error (error, c.error);
      return FALSE;
    }
  return TRUE;
}
