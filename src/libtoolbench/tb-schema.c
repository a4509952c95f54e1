/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-private.h"

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

#define DEFAULT_BASE "tb://schema/root.json"

enum
{
  T_NULL = 1 << 0,
  T_BOOLEAN = 1 << 1,
  T_OBJECT = 1 << 2,
  T_ARRAY = 1 << 3,
  T_NUMBER = 1 << 4,
  T_STRING = 1 << 5,
  T_INTEGER = 1 << 6,
};

/* Vocabularies of draft 2020-12; draft-07 has all of them but unevaluated. */
enum
{
  V_APPLICATOR = 1 << 0,
  V_UNEVALUATED = 1 << 1,
  V_VALIDATION = 1 << 2,
  V_FORMAT_ASSERTION = 1 << 3,
  V_DEFAULT = V_APPLICATOR | V_UNEVALUATED | V_VALIDATION,
};

typedef struct _Node Node;

typedef struct
{
  char       *uri;              /* absolute, no fragment */
  GHashTable *dynamic_anchors;  /* name → Node*, or NULL */
} Resource;

typedef struct
{
  char *name;
  Node *schema;
} Named;

typedef struct
{
  char  *name;
  char **names;
} DepRequired;

typedef struct
{
  TbSchemaRegex *regex;
  Node          *schema;
} Patterned;

typedef struct
{
  gboolean present;
  gboolean is_int;
  gint64   ivalue;
  double   value;
  char    *text;
} Bound;

struct _Node
{
  JsonNode      *json;
  char          *location;
  Resource      *resource;
  TbSchemaDraft  draft;

  guint          is_bool : 1;
  guint          bool_value : 1;
  guint          ref_only : 1;
  guint          has_const : 1;
  guint          unique_items : 1;
  guint          assert_format : 1;
  guint          has_numeric : 1;
  guint          has_string : 1;
  guint          has_array : 1;
  guint          has_object : 1;
  guint          mark : 2;
  guint          type_only : 1;  /* "type" and nothing else that applies */
  guint8         types;

  Node          *ref;
  Node          *dynamic_ref;
  char          *dynamic_name;

  JsonNode      *const_value;
  char          *const_text;
  GPtrArray     *enum_values;
  char          *enum_text;

  Bound          minimum;
  Bound          maximum;
  Bound          exclusive_minimum;
  Bound          exclusive_maximum;
  Bound          multiple_of;

  gint64         min_length;
  gint64         max_length;
  TbSchemaRegex *pattern;
  char          *pattern_source;
  char          *format;

  gint64         min_items;
  gint64         max_items;
  Node         **prefix_items;
  guint          n_prefix_items;
  Node          *items;
  Node          *contains;
  gint64         min_contains;
  gint64         max_contains;
  Node          *unevaluated_items;

  gint64         min_properties;
  gint64         max_properties;
  char         **required;
  gint8         *required_prop;  /* index of each required name in properties, or -1 */
  Named         *properties;
  guint          n_properties;
  GHashTable    *property_index;
  Patterned     *pattern_properties;
  guint          n_pattern_properties;
  Node          *additional_properties;
  Node          *property_names;
  DepRequired   *dependent_required;
  guint          n_dependent_required;
  Named         *dependent_schemas;
  guint          n_dependent_schemas;
  Node          *unevaluated_properties;

  Node         **all_of;
  guint          n_all_of;
  Node         **any_of;
  guint          n_any_of;
  Node         **one_of;
  guint          n_one_of;
  Node          *not_schema;
  Node          *if_schema;
  Node          *then_schema;
  Node          *else_schema;
};

struct _TbSchema
{
  GObject        parent_instance;

  JsonNode      *json;
  TbSchemaDraft  draft;
  Node          *root;
  GPtrArray     *nodes;      /* Node*, owned */
  GPtrArray     *resources;  /* Resource*, owned */
  GPtrArray     *documents;  /* JsonNode*, kept alive for the nodes' json */
};

G_DEFINE_FINAL_TYPE (TbSchema, tb_schema, G_TYPE_OBJECT)
G_DEFINE_QUARK (tb-schema-compile-error-quark, tb_schema_compile_error)

/* ------------------------------------------------------------------ */
/* Nodes                                                              */
/* ------------------------------------------------------------------ */

static void
bound_clear (Bound *bound)
{
  g_free (bound->text);
}

static void
node_free (Node *node)
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

static void
resource_free (Resource *resource)
{
  g_free (resource->uri);
  g_clear_pointer (&resource->dynamic_anchors, g_hash_table_unref);
  g_free (resource);
}

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

static gboolean compile_fail (Compiler   *c,
                              int         code,
                              const char *location,
                              const char *format,
                              ...) G_GNUC_PRINTF (4, 5);

static gboolean
compile_fail (Compiler   *c,
              int         code,
              const char *location,
              const char *format,
              ...)
{
  g_autofree char *reason = NULL;
  g_autofree char *shown = NULL;
  va_list args;

  if (c->error != NULL)
    return FALSE;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
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
    {
      g_autofree char *loc = child_location (location, keyword, NULL);

      return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                           _("“%s” must be a number"), keyword);
    }

  bound->present = TRUE;
  bound->is_int = json_node_get_value_type (value) == G_TYPE_INT64;
  bound->ivalue = bound->is_int ? json_node_get_int (value) : 0;
  bound->value = json_node_get_double (value);
  if (!isfinite (bound->value))
    {
      g_autofree char *loc = child_location (location, keyword, NULL);

      return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                           _("“%s” must be a finite number"), keyword);
    }
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
  {
    g_autofree char *loc = child_location (location, keyword, NULL);

    return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                         _("“%s” must be a non-negative integer"), keyword);
  }
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
        {
          g_autofree char *loc = child_location (location, "enum", NULL);

          return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                               _("“enum” must be an array"));
        }
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
    {
      g_autofree char *loc = child_location (location, "multipleOf", NULL);

      return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                           _("“multipleOf” must be greater than 0"));
    }
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
        {
          g_autofree char *loc = child_location (location, "uniqueItems", NULL);

          return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                               _("“uniqueItems” must be true or false"));
        }
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
        {
          g_autofree char *loc = child_location (location, "items", NULL);

          return compile_fail (c, TB_SCHEMA_COMPILE_ERROR_INVALID, loc,
                               _("“items” must be a schema"));
        }
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
  self->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  self->resources = g_ptr_array_new_with_free_func ((GDestroyNotify) resource_free);
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
  Compiler c = { 0 };
  Scope scope = { DEFAULT_BASE, NULL, TB_SCHEMA_DRAFT_2020_12, V_DEFAULT };
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
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * tb_schema_get_draft:
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
 *
 * Returns: (transfer none): the schema as compiled, sealed
 */
JsonNode *
tb_schema_get_json (TbSchema *self)
{
  g_return_val_if_fail (TB_IS_SCHEMA (self), NULL);
  return self->json;
}

/* ------------------------------------------------------------------ */
/* Validation                                                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char *name;  /* NULL: index */
  guint       index;
} Segment;

/* Annotations that unevaluatedProperties and unevaluatedItems read. */
typedef struct
{
  GHashTable *props;
  guint       items;
  gboolean    all_items;
  guint8     *item_bits;
  guint       n_items;
} Eval;

typedef struct
{
  GPtrArray *errors;
  gboolean   collect;
  guint      quiet;
  guint      depth;
  gboolean   overflow_reported;
  guint      path_len;
  guint      scope_len;
  Segment    path[TB_JSON_MAX_DEPTH + 2];
  /* depth when the value at path[i - 1] was entered: bounds in-place loops */
  guint      base_depth[TB_JSON_MAX_DEPTH + 2];
  Resource  *scope[TB_SCHEMA_MAX_DEPTH + 2];
} VCtx;

#define STOP(v) (!(v)->collect || (v)->quiet > 0)

static void
eval_clear (Eval *e)
{
  g_clear_pointer (&e->props, g_hash_table_unref);
  g_clear_pointer (&e->item_bits, g_free);
  e->items = 0;
  e->all_items = FALSE;
  e->n_items = 0;
}

static void
eval_add_prop (Eval       *e,
               const char *name)
{
  if (e->props == NULL)
    e->props = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_add (e->props, (gpointer) name);
}

static void
eval_mark_item (Eval  *e,
                guint  i,
                guint  n)
{
  if (e->item_bits == NULL)
    {
      e->item_bits = g_new0 (guint8, n);
      e->n_items = n;
    }
  if (i < e->n_items)
    e->item_bits[i] = 1;
}

static void
eval_merge (Eval *dst,
            Eval *src)
{
  if (src->props != NULL)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, src->props);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        eval_add_prop (dst, key);
    }
  dst->items = MAX (dst->items, src->items);
  dst->all_items |= src->all_items;
  for (guint i = 0; i < src->n_items; i++)
    if (src->item_bits[i])
      eval_mark_item (dst, i, src->n_items);
}

static gboolean
wants_errors (VCtx *v)
{
  return v->quiet == 0 && v->errors != NULL;
}

static char *
instance_pointer (VCtx *v)
{
  GString *out;

  if (v->path_len == 0)
    return g_strdup ("");
  out = g_string_sized_new (64);

  for (guint i = 0; i < v->path_len; i++)
    {
      if (v->path[i].name != NULL)
        {
          g_autofree char *escaped = tb_json_pointer_escape (v->path[i].name);

          g_string_append_c (out, '/');
          g_string_append (out, escaped);
        }
      else
        g_string_append_printf (out, "/%u", v->path[i].index);
    }
  return g_string_free (out, FALSE);
}

static void report_error (VCtx       *v,
                          Node       *node,
                          const char *keyword,
                          const char *format,
                          ...) G_GNUC_PRINTF (4, 5);

static void
report_error (VCtx       *v,
              Node       *node,
              const char *keyword,
              const char *format,
              ...)
{
  TbSchemaError *error = g_new (TbSchemaError, 1);
  va_list args;

  va_start (args, format);
  error->message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Names from a node built in C may not be UTF-8; the message must be. */
  if (G_UNLIKELY (!g_utf8_validate (error->message, -1, NULL)))
    {
      char *valid = g_utf8_make_valid (error->message, -1);

      g_free (error->message);
      error->message = valid;
    }

  /* Built in place: tb_schema_error_new() would copy every string again. */
  error->instance_path = instance_pointer (v);
  if (G_UNLIKELY (!g_utf8_validate (error->instance_path, -1, NULL)))
    {
      char *valid = g_utf8_make_valid (error->instance_path, -1);

      g_free (error->instance_path);
      error->instance_path = valid;
    }
  error->schema_path = keyword[0] != '\0' ? g_strconcat (node->location, "/", keyword, NULL)
                                          : g_strdup (node->location);
  error->keyword = g_strdup (keyword[0] != '\0' ? keyword : "false");
  g_ptr_array_add (v->errors, error);
}

/* Messages are translated and formatted only when someone reads them. */
#define report(v, ...) \
  G_STMT_START { if (wants_errors (v)) report_error ((v), __VA_ARGS__); } G_STMT_END

static gboolean validate (VCtx     *v,
                          Node     *node,
                          JsonNode *instance,
                          Eval     *eval);

static gboolean
push_name (VCtx       *v,
           Node       *node,
           const char *keyword,
           const char *name)
{
  if (v->path_len >= TB_JSON_MAX_DEPTH)
    {
      report (v, node, keyword, _("nests deeper than %u levels, more than Toolbench validates"),
              TB_JSON_MAX_DEPTH);
      return FALSE;
    }
  v->path[v->path_len].name = name;
  v->path[v->path_len].index = 0;
  v->path_len++;
  v->base_depth[v->path_len] = v->depth;
  return TRUE;
}

static gboolean
push_index (VCtx       *v,
            Node       *node,
            const char *keyword,
            guint       i)
{
  if (v->path_len >= TB_JSON_MAX_DEPTH)
    {
      report (v, node, keyword, _("nests deeper than %u levels, more than Toolbench validates"),
              TB_JSON_MAX_DEPTH);
      return FALSE;
    }
  v->path[v->path_len].name = NULL;
  v->path[v->path_len].index = i;
  v->path_len++;
  v->base_depth[v->path_len] = v->depth;
  return TRUE;
}

static inline guint
instance_types (JsonNode *instance,
                double   *number)
{
  switch (JSON_NODE_TYPE (instance))
    {
    case JSON_NODE_OBJECT:
      return T_OBJECT;
    case JSON_NODE_ARRAY:
      return T_ARRAY;
    case JSON_NODE_NULL:
      return T_NULL;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (instance))
        {
        case G_TYPE_STRING:
          return T_STRING;
        case G_TYPE_INT64:
          *number = (double) json_node_get_int (instance);
          return T_INTEGER | T_NUMBER;
        case G_TYPE_DOUBLE:
          *number = json_node_get_double (instance);
          return (isfinite (*number) && *number == floor (*number)) ? T_INTEGER | T_NUMBER
                                                                    : T_NUMBER;
        case G_TYPE_BOOLEAN:
          return T_BOOLEAN;
        default:
          return 0;
        }
    default:
      return 0;
    }
}

static char *
describe_types (guint8 types)
{
  static const char *names[] = { "null", "boolean", "object", "array", "number", "string",
                                 "integer" };
  GString *text = g_string_new (NULL);
  guint count = 0;
  guint total = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (types & (1 << i))
      total++;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (!(types & (1 << i)))
        continue;
      if (count > 0)
        g_string_append (text, count == total - 1 ? _(" or ") : ", ");
      g_string_append (text, names[i]);
      count++;
    }
  return g_string_free (text, FALSE);
}

static int
compare_bound (JsonNode    *instance,
               double       number,
               const Bound *bound)
{
  if (bound->is_int && json_node_get_value_type (instance) == G_TYPE_INT64)
    {
      gint64 i = json_node_get_int (instance);

      return i < bound->ivalue ? -1 : i > bound->ivalue;
    }
  return number < bound->value ? -1 : number > bound->value;
}

static gboolean
is_multiple (JsonNode    *instance,
             double       number,
             const Bound *bound)
{
  double q;

  if (bound->is_int && json_node_get_value_type (instance) == G_TYPE_INT64)
    return json_node_get_int (instance) % bound->ivalue == 0;

  q = number / bound->value;
  if (!isfinite (q))
    return fmod (number, bound->value) == 0;
  return fabs (q - nearbyint (q)) <= 1e-9 * MAX (1.0, fabs (q)) * 1e-3;
}

/* Out of line: keeps the common path of validate_keywords() small. */
G_GNUC_NO_INLINE static gboolean
validate_number (VCtx     *v,
                 Node     *n,
                 JsonNode *instance,
                 double    number)
{
  gboolean ok = TRUE;

  if (n->minimum.present && compare_bound (instance, number, &n->minimum) < 0)
    {
      report (v, n, "minimum", _("must be at least %s"), n->minimum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->maximum.present && compare_bound (instance, number, &n->maximum) > 0)
    {
      report (v, n, "maximum", _("must be at most %s"), n->maximum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->exclusive_minimum.present && compare_bound (instance, number, &n->exclusive_minimum) <= 0)
    {
      report (v, n, "exclusiveMinimum", _("must be greater than %s"), n->exclusive_minimum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->exclusive_maximum.present && compare_bound (instance, number, &n->exclusive_maximum) >= 0)
    {
      report (v, n, "exclusiveMaximum", _("must be less than %s"), n->exclusive_maximum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->multiple_of.present && !is_multiple (instance, number, &n->multiple_of))
    {
      report (v, n, "multipleOf", _("must be a multiple of %s"), n->multiple_of.text);
      ok = FALSE;
    }
  return ok;
}

/* Code points of valid UTF-8: every byte that does not continue a sequence. */
static gint64
count_code_points (const char *s,
                   gsize       len)
{
  gint64 count = 0;

  for (gsize i = 0; i < len; i++)
    count += ((guchar) s[i] & 0xC0) != 0x80;
  return count;
}

G_GNUC_NO_INLINE static gboolean
validate_string (VCtx     *v,
                 Node     *n,
                 JsonNode *instance)
{
  const char *s = json_node_get_string (instance);
  const char *end;
  gsize len;
  gboolean ok = TRUE;

  if (!g_utf8_validate (s, -1, &end))
    {
      report (v, n, "type", _("is not valid UTF-8 text"));
      return FALSE;
    }
  len = end - s;

  if (n->min_length >= 0 || n->max_length >= 0)
    {
      gint64 count = count_code_points (s, len);

      if (n->min_length >= 0 && count < n->min_length)
        {
          report (v, n, "minLength",
                  g_dngettext (GETTEXT_PACKAGE,
                               "must be at least %" G_GINT64_FORMAT " character long",
                               "must be at least %" G_GINT64_FORMAT " characters long",
                               n->min_length), n->min_length);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
      if (n->max_length >= 0 && count > n->max_length)
        {
          report (v, n, "maxLength",
                  g_dngettext (GETTEXT_PACKAGE,
                               "must be at most %" G_GINT64_FORMAT " character long",
                               "must be at most %" G_GINT64_FORMAT " characters long",
                               n->max_length), n->max_length);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if (n->pattern != NULL)
    {
      int matched = _tb_schema_regex_match (n->pattern, s, len);

      if (matched == 0)
        report (v, n, "pattern", _("must match the pattern “%s”"), n->pattern_source);
      else if (matched < 0)
        report (v, n, "pattern", _("could not be checked against the pattern “%s”: the "
                                   "pattern backtracks too much on this value"),
                n->pattern_source);
      if (matched != 1)
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if (n->assert_format && !_tb_schema_format_check (n->format, s))
    {
      report (v, n, "format", _("is not a valid %s"), n->format);
      ok = FALSE;
    }

  return ok;
}

/* Hash consistent with tb_json_equal(): numbers by value, objects unordered. */
static guint
json_hash (JsonNode *node,
           guint     remaining)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      return 1;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return g_str_hash (json_node_get_string (node));
        case G_TYPE_BOOLEAN:
          return json_node_get_boolean (node) ? 3 : 5;
        case G_TYPE_INT64:
        case G_TYPE_DOUBLE:
          {
            double d = json_node_get_double (node);

            if (d == 0)
              d = 0;  /* -0 equals 0 */
            return g_double_hash (&d);
          }
        default:
          return 7;
        }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint h = 11;

        if (remaining == 0)
          return h;
        for (guint i = 0; i < json_array_get_length (array); i++)
          h = h * 31 + json_hash (json_array_get_element (array, i), remaining - 1);
        return h;
      }
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        guint h = 13;

        if (remaining == 0)
          return h;
        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          h += g_str_hash (name) ^ (json_hash (member, remaining - 1) * 17);
        return h;
      }
    default:
      return 0;
    }
}

typedef struct
{
  guint hash;
  guint index;
} HashedItem;

static int
compare_hashed (gconstpointer a,
                gconstpointer b)
{
  const HashedItem *x = a, *y = b;

  if (x->hash != y->hash)
    return x->hash < y->hash ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Finds two equal items in O(n log n); returns FALSE when all differ. */
static gboolean
find_duplicate (JsonArray *array,
                guint     *first,
                guint     *second)
{
  guint n = json_array_get_length (array);
  g_autofree HashedItem *items = NULL;
  gboolean found = FALSE;

  if (n < 2)
    return FALSE;
  if (n <= 8)
    {
      for (guint i = 0; i < n; i++)
        for (guint j = i + 1; j < n; j++)
          if (tb_json_equal (json_array_get_element (array, i), json_array_get_element (array, j)))
            {
              *first = i;
              *second = j;
              return TRUE;
            }
      return FALSE;
    }

  items = g_new (HashedItem, n);
  for (guint i = 0; i < n; i++)
    {
      items[i].hash = json_hash (json_array_get_element (array, i), TB_JSON_MAX_DEPTH);
      items[i].index = i;
    }
  qsort (items, n, sizeof (HashedItem), compare_hashed);
  for (guint i = 0; i < n && !found; i++)
    for (guint j = i + 1; j < n && items[j].hash == items[i].hash; j++)
      if (tb_json_equal (json_array_get_element (array, items[i].index),
                         json_array_get_element (array, items[j].index)))
        {
          guint a = items[i].index, b = items[j].index;

          if (!found || MIN (a, b) < *first)
            {
              *first = MIN (a, b);
              *second = MAX (a, b);
            }
          found = TRUE;
        }
  return found;
}

G_GNUC_NO_INLINE static gboolean
validate_array (VCtx     *v,
                Node     *n,
                JsonNode *instance,
                Eval     *eval)
{
  JsonArray *array = json_node_get_array (instance);
  guint len = json_array_get_length (array);
  gboolean ok = TRUE;
  guint first, second;

  if (n->min_items >= 0 && len < n->min_items)
    {
      report (v, n, "minItems",
              g_dngettext (GETTEXT_PACKAGE, "must have at least %" G_GINT64_FORMAT " item",
                           "must have at least %" G_GINT64_FORMAT " items", n->min_items),
              n->min_items);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->max_items >= 0 && len > n->max_items)
    {
      report (v, n, "maxItems",
              g_dngettext (GETTEXT_PACKAGE, "must have at most %" G_GINT64_FORMAT " item",
                           "must have at most %" G_GINT64_FORMAT " items", n->max_items),
              n->max_items);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->unique_items && find_duplicate (array, &first, &second))
    {
      report (v, n, "uniqueItems",
              _("must not contain duplicate items (items %u and %u are equal)"), first, second);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }

  for (guint i = 0; i < MIN (len, n->n_prefix_items); i++)
    {
      gboolean item_ok;

      if (!push_index (v, n, "prefixItems", i))
        return FALSE;
      item_ok = validate (v, n->prefix_items[i], json_array_get_element (array, i), NULL);
      v->path_len--;
      if (!item_ok)
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }
  if (eval != NULL)
    eval->items = MAX (eval->items, MIN (len, n->n_prefix_items));

  if (n->items != NULL && len > n->n_prefix_items)
    {
      if (n->items->is_bool && !n->items->bool_value)
        {
          report (v, n, "items",
                  g_dngettext (GETTEXT_PACKAGE, "must have at most %u item",
                               "must have at most %u items", n->n_prefix_items),
                  n->n_prefix_items);
          return FALSE;
        }
      for (guint i = n->n_prefix_items; i < len; i++)
        {
          gboolean item_ok;

          if (!push_index (v, n, "items", i))
            return FALSE;
          item_ok = validate (v, n->items, json_array_get_element (array, i), NULL);
          v->path_len--;
          if (!item_ok)
            {
              ok = FALSE;
              if (STOP (v))
                return FALSE;
            }
        }
      if (eval != NULL)
        eval->all_items = TRUE;
    }

  if (n->contains != NULL)
    {
      gint64 min = n->min_contains >= 0 ? n->min_contains : 1;
      gint64 count = 0;

      v->quiet++;
      for (guint i = 0; i < len; i++)
        {
          gboolean matched;

          if (!push_index (v, n, "contains", i))
            {
              v->quiet--;
              return FALSE;
            }
          matched = validate (v, n->contains, json_array_get_element (array, i), NULL);
          v->path_len--;
          if (matched)
            {
              count++;
              if (eval != NULL)
                eval_mark_item (eval, i, len);
              else if (count >= min && n->max_contains < 0)
                break;
            }
        }
      v->quiet--;
      if (count < min)
        {
          if (n->min_contains >= 0)
            report (v, n, "minContains",
                    g_dngettext (GETTEXT_PACKAGE,
                                 "must contain at least %" G_GINT64_FORMAT " item that matches "
                                 "the schema in contains",
                                 "must contain at least %" G_GINT64_FORMAT " items that match "
                                 "the schema in contains", min), min);
          else
            report (v, n, "contains",
                    _("must contain an item that matches the schema in contains"));
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
      if (n->max_contains >= 0 && count > n->max_contains)
        {
          report (v, n, "maxContains",
                  g_dngettext (GETTEXT_PACKAGE,
                               "must contain at most %" G_GINT64_FORMAT " item that matches "
                               "the schema in contains",
                               "must contain at most %" G_GINT64_FORMAT " items that match "
                               "the schema in contains", n->max_contains), n->max_contains);
          ok = FALSE;
        }
    }

  return ok;
}

G_GNUC_NO_INLINE static gboolean
validate_property_name (VCtx       *v,
                        Node       *n,
                        const char *name)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  gboolean ok;

  json_node_set_string (node, name);
  v->quiet++;
  ok = validate (v, n->property_names, node, NULL);
  v->quiet--;
  if (!ok)
    report (v, n, "propertyNames",
            _("has the property name “%s”, which does not match the schema in propertyNames"),
            name);
  return ok;
}

G_GNUC_NO_INLINE static gboolean
validate_object (VCtx     *v,
                 Node     *n,
                 JsonNode *instance,
                 Eval     *eval)
{
  JsonObject *object = json_node_get_object (instance);
  guint size = json_object_get_size (object);
  gboolean ok = TRUE;
  gboolean defer_required;
  guint seen = 0;  /* bit i: properties[i] is present (few properties only) */

  if (n->min_properties >= 0 && size < n->min_properties)
    {
      report (v, n, "minProperties",
              g_dngettext (GETTEXT_PACKAGE, "must have at least %" G_GINT64_FORMAT " property",
                           "must have at least %" G_GINT64_FORMAT " properties",
                           n->min_properties), n->min_properties);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->max_properties >= 0 && size > n->max_properties)
    {
      report (v, n, "maxProperties",
              g_dngettext (GETTEXT_PACKAGE, "must have at most %" G_GINT64_FORMAT " property",
                           "must have at most %" G_GINT64_FORMAT " properties",
                           n->max_properties), n->max_properties);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }

  defer_required = v->errors == NULL && n->required_prop != NULL;
  if (n->required != NULL && !defer_required)
    for (char **name = n->required; *name != NULL; name++)
      if (!json_object_has_member (object, *name))
        {
          report (v, n, "required", _("is missing required property “%s”"), *name);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }

  for (guint i = 0; i < n->n_dependent_required; i++)
    {
      DepRequired *dep = &n->dependent_required[i];

      if (!json_object_has_member (object, dep->name))
        continue;
      for (char **name = dep->names; *name != NULL; name++)
        if (!json_object_has_member (object, *name))
          {
            report (v, n, n->draft == TB_SCHEMA_DRAFT_7 ? "dependencies" : "dependentRequired",
                    _("is missing property “%s”, which “%s” requires"), *name, dep->name);
            ok = FALSE;
            if (STOP (v))
              return FALSE;
          }
    }

  if (n->n_properties > 0 || n->n_pattern_properties > 0 || n->additional_properties != NULL ||
      n->property_names != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      /* Errors come in the order of the members; a verdict alone takes
       * the faster unordered walk (no lookup per member). */
      gboolean ordered = v->errors != NULL;

      if (ordered)
        json_object_iter_init_ordered (&iter, object);
      else
        json_object_iter_init (&iter, object);
      while (ordered ? json_object_iter_next_ordered (&iter, &name, &member)
                     : json_object_iter_next (&iter, &name, &member))
        {
          gboolean matched = FALSE;
          gboolean member_ok = TRUE;
          Node *sub = NULL;

          if (n->property_names != NULL && !validate_property_name (v, n, name))
            {
              ok = FALSE;
              if (STOP (v))
                return FALSE;
            }

          if (n->n_properties <= 8)
            {
              /* Faster than hashing for the few properties of most tools. */
              for (guint i = 0; i < n->n_properties; i++)
                if (n->properties[i].name[0] == name[0] &&
                    strcmp (n->properties[i].name, name) == 0)
                  {
                    sub = n->properties[i].schema;
                    seen |= 1u << i;
                    break;
                  }
            }
          else
            sub = g_hash_table_lookup (n->property_index, name);
          if (sub != NULL)
            {
              matched = TRUE;
              if (!push_name (v, n, "properties", name))
                return FALSE;
              member_ok = validate (v, sub, member, NULL);
              v->path_len--;
            }

          if (n->n_pattern_properties > 0)
            {
              if (!g_utf8_validate (name, -1, NULL))
                {
                  report (v, n, "patternProperties",
                          _("has a property name that is not valid UTF-8"));
                  return FALSE;
                }
              for (guint i = 0; i < n->n_pattern_properties && (member_ok || !STOP (v)); i++)
                {
                  int hit = _tb_schema_regex_match (n->pattern_properties[i].regex, name,
                                                    strlen (name));

                  if (hit < 0)
                    {
                      report (v, n, "patternProperties",
                              _("has the property name “%s”, which could not be checked "
                                "against a pattern: it backtracks too much"), name);
                      member_ok = FALSE;
                    }
                  if (hit != 1)
                    continue;
                  matched = TRUE;
                  if (!push_name (v, n, "patternProperties", name))
                    return FALSE;
                  if (!validate (v, n->pattern_properties[i].schema, member, NULL))
                    member_ok = FALSE;
                  v->path_len--;
                }
            }

          if (!matched && n->additional_properties != NULL)
            {
              if (n->additional_properties->is_bool && !n->additional_properties->bool_value)
                {
                  report (v, n, "additionalProperties", _("has unexpected property “%s”"),
                          name);
                  member_ok = FALSE;
                }
              else
                {
                  if (!push_name (v, n, "additionalProperties", name))
                    return FALSE;
                  member_ok = validate (v, n->additional_properties, member, NULL) && member_ok;
                  v->path_len--;
                }
              matched = TRUE;
            }

          if (eval != NULL && matched)
            eval_add_prop (eval, name);

          if (!member_ok)
            {
              ok = FALSE;
              if (STOP (v))
                return FALSE;
            }
        }
    }

  if (defer_required)
    {
      /* Only for a verdict: no message, and the first failure ends it. */
      for (guint i = 0; n->required[i] != NULL; i++)
        if (n->required_prop[i] >= 0 ? !(seen & (1u << n->required_prop[i]))
                                     : !json_object_has_member (object, n->required[i]))
          return FALSE;
    }

  for (guint i = 0; i < n->n_dependent_schemas; i++)
    {
      if (!json_object_has_member (object, n->dependent_schemas[i].name))
        continue;
      if (!validate (v, n->dependent_schemas[i].schema, instance, eval))
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  return ok;
}

G_GNUC_NO_INLINE static gboolean
validate_unevaluated (VCtx     *v,
                      Node     *n,
                      JsonNode *instance,
                      Eval     *eval)
{
  gboolean ok = TRUE;

  if (n->unevaluated_properties != NULL && JSON_NODE_HOLDS_OBJECT (instance))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;
      Node *sub = n->unevaluated_properties;

      json_object_iter_init_ordered (&iter, json_node_get_object (instance));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          if (eval->props != NULL && g_hash_table_contains (eval->props, name))
            continue;
          if (sub->is_bool && !sub->bool_value)
            {
              report (v, n, "unevaluatedProperties", _("has unexpected property “%s”"), name);
              ok = FALSE;
            }
          else
            {
              gboolean member_ok;

              if (!push_name (v, n, "unevaluatedProperties", name))
                return FALSE;
              member_ok = validate (v, sub, member, NULL);
              v->path_len--;
              ok = ok && member_ok;
            }
          if (!ok && STOP (v))
            return FALSE;
          eval_add_prop (eval, name);
        }
    }

  if (n->unevaluated_items != NULL && JSON_NODE_HOLDS_ARRAY (instance) && !eval->all_items)
    {
      JsonArray *array = json_node_get_array (instance);
      guint len = json_array_get_length (array);
      Node *sub = n->unevaluated_items;

      for (guint i = eval->items; i < len; i++)
        {
          if (eval->item_bits != NULL && i < eval->n_items && eval->item_bits[i])
            continue;
          if (sub->is_bool && !sub->bool_value)
            {
              report (v, n, "unevaluatedItems", _("has an unexpected item at index %u"), i);
              return FALSE;
            }
          else
            {
              gboolean item_ok;

              if (!push_index (v, n, "unevaluatedItems", i))
                return FALSE;
              item_ok = validate (v, sub, json_array_get_element (array, i), NULL);
              v->path_len--;
              ok = ok && item_ok;
              if (!ok && STOP (v))
                return FALSE;
            }
        }
      eval->all_items = TRUE;
    }

  return ok;
}

/* When no alternative of anyOf/oneOf matches, say something a person can
 * act on. Tool schemas often write an optional value as
 * anyOf: [{type: string, maxLength: 3}, {type: null}]: when exactly one
 * alternative accepts the value's type, its own errors are the useful ones;
 * when none does, the types they accept are. */
static void
explain_alternatives (VCtx        *v,
                      Node        *n,
                      const char  *keyword,
                      Node       **alternatives,
                      guint        count,
                      JsonNode    *instance)
{
  double number = 0;
  guint types = instance_types (instance, &number);
  guint8 all_types = 0;
  Node *candidate = NULL;
  guint candidates = 0;
  gboolean typed = TRUE;

  if (!wants_errors (v))
    return;

  for (guint i = 0; i < count; i++)
    {
      Node *alt = alternatives[i];

      if (alt->is_bool || alt->types == 0)
        {
          typed = FALSE;
          if (!alt->is_bool || alt->bool_value)
            {
              candidate = alt;
              candidates++;
            }
          continue;
        }
      all_types |= alt->types;
      if (alt->types & types)
        {
          candidate = alt;
          candidates++;
        }
    }

  if (candidates == 1)
    {
      guint before = v->errors->len;

      validate (v, candidate, instance, NULL);
      if (v->errors->len > before)
        return;
    }
  else if (candidates == 0 && typed)
    {
      g_autofree char *wanted = describe_types (all_types);
      g_autofree char *actual = tb_json_describe_type (instance);

      report (v, n, keyword, _("must be of type %s, not %s"), wanted, actual);
      return;
    }

  if (g_str_equal (keyword, "anyOf"))
    report (v, n, keyword, _("must match at least one of the schemas in anyOf"));
  else
    report (v, n, keyword, _("must match exactly one of the schemas in oneOf, but matches none"));
}

G_GNUC_NO_INLINE static gboolean
validate_applicators (VCtx     *v,
                      Node     *n,
                      JsonNode *instance,
                      Eval     *eval)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < n->n_all_of; i++)
    if (!validate (v, n->all_of[i], instance, eval))
      {
        ok = FALSE;
        if (STOP (v))
          return FALSE;
      }

  if (n->n_any_of > 0)
    {
      gboolean found = FALSE;

      v->quiet++;
      for (guint i = 0; i < n->n_any_of; i++)
        {
          Eval child = { 0 };

          if (validate (v, n->any_of[i], instance, eval != NULL ? &child : NULL))
            {
              found = TRUE;
              if (eval != NULL)
                eval_merge (eval, &child);
            }
          eval_clear (&child);
          if (found && eval == NULL)
            break;
        }
      v->quiet--;
      if (!found)
        {
          explain_alternatives (v, n, "anyOf", n->any_of, n->n_any_of, instance);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if (n->n_one_of > 0)
    {
      guint matches = 0, first = 0, second = 0;

      v->quiet++;
      for (guint i = 0; i < n->n_one_of && matches < 2; i++)
        {
          Eval child = { 0 };

          if (validate (v, n->one_of[i], instance, eval != NULL ? &child : NULL))
            {
              if (matches == 0)
                first = i;
              else
                second = i;
              matches++;
              if (eval != NULL && matches == 1)
                eval_merge (eval, &child);
            }
          eval_clear (&child);
        }
      v->quiet--;
      if (matches != 1)
        {
          if (matches == 0)
            explain_alternatives (v, n, "oneOf", n->one_of, n->n_one_of, instance);
          else
            report (v, n, "oneOf", _("must match exactly one of the schemas in oneOf, "
                                     "but matches schemas %u and %u"), first, second);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if (n->not_schema != NULL)
    {
      gboolean matched;

      v->quiet++;
      matched = validate (v, n->not_schema, instance, NULL);
      v->quiet--;
      if (matched)
        {
          report (v, n, "not", _("must not match the schema in not"));
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if (n->if_schema != NULL)
    {
      Eval child = { 0 };
      gboolean matched;

      v->quiet++;
      matched = validate (v, n->if_schema, instance, eval != NULL ? &child : NULL);
      v->quiet--;
      if (matched && eval != NULL)
        eval_merge (eval, &child);
      eval_clear (&child);
      if (matched && n->then_schema != NULL)
        ok = validate (v, n->then_schema, instance, eval) && ok;
      else if (!matched && n->else_schema != NULL)
        ok = validate (v, n->else_schema, instance, eval) && ok;
    }

  return ok;
}

static gboolean
validate_keywords (VCtx     *v,
                   Node     *n,
                   JsonNode *instance,
                   Eval     *eval)
{
  gboolean ok = TRUE;
  double number = 0;
  guint types = instance_types (instance, &number);

  if (n->ref != NULL)
    {
      if (!validate (v, n->ref, instance, eval))
        {
          ok = FALSE;
          if (STOP (v) || n->ref_only)
            return FALSE;
        }
      if (n->ref_only)
        return ok;
    }

  if (n->dynamic_ref != NULL)
    {
      Node *target = n->dynamic_ref;

      if (n->dynamic_name != NULL)
        for (guint i = 0; i < v->scope_len; i++)
          {
            Resource *r = v->scope[i];
            Node *found;

            if (r->dynamic_anchors == NULL)
              continue;
            found = g_hash_table_lookup (r->dynamic_anchors, n->dynamic_name);
            if (found != NULL)
              {
                target = found;
                break;
              }
          }
      if (!validate (v, target, instance, eval))
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if ((types & T_NUMBER) && json_node_get_value_type (instance) == G_TYPE_DOUBLE &&
      !isfinite (number))
    {
      report (v, n, "type", _("is not a finite number; JSON has no NaN or infinity"));
      return FALSE;
    }

  if (n->types != 0 && (n->types & types) == 0)
    {
      if (wants_errors (v))
        {
          g_autofree char *wanted = describe_types (n->types);
          g_autofree char *actual = tb_json_describe_type (instance);

          report (v, n, "type", _("must be of type %s, not %s"), wanted, actual);
        }
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }

  if (n->has_const && !tb_json_equal (n->const_value, instance))
    {
      report (v, n, "const", _("must be equal to %s"), n->const_text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }

  if (n->enum_values != NULL)
    {
      gboolean found = FALSE;

      if (types == T_STRING)
        {
          const char *text = json_node_get_string (instance);

          for (guint i = 0; i < n->enum_values->len && !found; i++)
            {
              JsonNode *value = g_ptr_array_index (n->enum_values, i);

              found = JSON_NODE_HOLDS_VALUE (value) &&
                      json_node_get_value_type (value) == G_TYPE_STRING &&
                      strcmp (json_node_get_string (value), text) == 0;
            }
        }
      else
        for (guint i = 0; i < n->enum_values->len && !found; i++)
          found = tb_json_equal (g_ptr_array_index (n->enum_values, i), instance);
      if (!found)
        {
          report (v, n, "enum", _("must be one of: %s"), n->enum_text);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if ((types & T_NUMBER) && n->has_numeric)
    {
      if (!validate_number (v, n, instance, number))
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }
  else if ((types & T_STRING) && n->has_string)
    {
      if (!validate_string (v, n, instance))
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }
  else if ((types & T_ARRAY) && n->has_array)
    {
      if (!validate_array (v, n, instance, eval))
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }
  else if ((types & T_OBJECT) && n->has_object)
    {
      if (!validate_object (v, n, instance, eval))
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if ((n->n_all_of | n->n_any_of | n->n_one_of) != 0 || n->not_schema != NULL ||
      n->if_schema != NULL)
    {
      if (!validate_applicators (v, n, instance, eval))
        {
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  return ok;
}

static gboolean
validate (VCtx     *v,
          Node     *n,
          JsonNode *instance,
          Eval     *eval)
{
  gboolean pushed = FALSE;
  gboolean ok;

  if (n->is_bool)
    {
      if (!n->bool_value)
        report (v, n, "", _("is not allowed here (the schema is false)"));
      return n->bool_value;
    }

  if (n->type_only)
    {
      /* The most common leaf, {"type": "string"}: no scope, depth or annotations. */
      double number = 0;
      guint types = instance_types (instance, &number);

      if ((n->types & types) != 0 &&
          !((types & T_NUMBER) && !(types & T_INTEGER) && !isfinite (number)))
        return TRUE;
      return validate_keywords (v, n, instance, eval);
    }

  if (G_UNLIKELY (v->depth >= TB_SCHEMA_MAX_DEPTH ||
                  v->depth - v->base_depth[v->path_len] >= TB_SCHEMA_MAX_IN_PLACE))
    {
      if (!v->overflow_reported)
        {
          guint quiet = v->quiet;

          /* Reported even inside anyOf and not: the verdict is meaningless. */
          v->quiet = 0;
          if (v->depth >= TB_SCHEMA_MAX_DEPTH)
            report (v, n, "", _("applies more than %u schemas inside one another, more than "
                                "Toolbench follows"), TB_SCHEMA_MAX_DEPTH);
          else
            report (v, n, "", _("applies more than %u schemas to the same value inside one "
                                "another; the schema refers to itself without descending "
                                "into the value"), TB_SCHEMA_MAX_IN_PLACE);
          v->quiet = quiet;
          v->overflow_reported = TRUE;
        }
      return FALSE;
    }

  v->depth++;
  if (v->scope_len == 0 || v->scope[v->scope_len - 1] != n->resource)
    {
      v->scope[v->scope_len++] = n->resource;
      pushed = TRUE;
    }

  if (n->unevaluated_properties != NULL || n->unevaluated_items != NULL)
    {
      Eval local = { 0 };

      ok = validate_keywords (v, n, instance, &local);
      if (ok || !STOP (v))
        ok = validate_unevaluated (v, n, instance, &local) && ok;
      if (ok && eval != NULL)
        eval_merge (eval, &local);
      eval_clear (&local);
    }
  else
    ok = validate_keywords (v, n, instance, eval);

  if (pushed)
    v->scope_len--;
  v->depth--;
  return ok;
}

/**
 * tb_schema_validate:
 * @self: a compiled schema
 * @instance: the value to check
 * @errors: (out) (optional) (transfer full) (element-type TbSchemaError):
 *   every reason @instance does not match, in the order found; empty when valid
 *
 * Returns: %TRUE when @instance matches the schema
 */
gboolean
tb_schema_validate (TbSchema   *self,
                    JsonNode   *instance,
                    GPtrArray **errors)
{
  return tb_schema_validate_full (self, instance, TB_SCHEMA_VALIDATE_ALL_ERRORS, errors);
}

static GPrivate thread_context_owner = G_PRIVATE_INIT (g_free);
static _Thread_local VCtx *thread_context;

/**
 * tb_schema_validate_full:
 * @self: a compiled schema
 * @instance: the value to check
 * @flags: %TB_SCHEMA_VALIDATE_FIRST_ERROR to stop at the first error
 * @errors: (out) (optional) (transfer full) (element-type TbSchemaError):
 *   the errors found; empty when valid
 *
 * Safe to call from several threads at once on the same schema.
 *
 * Returns: %TRUE when @instance matches the schema
 */
gboolean
tb_schema_validate_full (TbSchema               *self,
                         JsonNode               *instance,
                         TbSchemaValidateFlags   flags,
                         GPtrArray             **errors)
{
  VCtx *v;
  gboolean ok;

  g_return_val_if_fail (TB_IS_SCHEMA (self), FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);

  /* About 50 KiB, once per thread: on the heap so that worker threads with
   * small stacks are safe, and reused so that a validation allocates
   * nothing unless it has errors to return. The GPrivate frees it when the
   * thread ends; the thread-local pointer is the fast way to it. */
  v = thread_context;
  if (G_UNLIKELY (v == NULL))
    {
      v = g_new (VCtx, 1);
      g_private_set (&thread_context_owner, v);
      thread_context = v;
    }

  /* First the verdict alone, which stops at the first failure and builds no
   * message; most arguments are valid, so most calls end here. */
  v->errors = NULL;
  v->collect = FALSE;
  v->quiet = 0;
  v->depth = 0;
  v->overflow_reported = FALSE;
  v->path_len = 0;
  v->base_depth[0] = 0;
  v->scope_len = 0;
  ok = validate (v, self->root, instance, NULL);

  if (errors == NULL)
    return ok;

  *errors = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
  if (ok)
    return TRUE;

  /* Then again, to say why. */
  v->errors = *errors;
  v->collect = (flags & TB_SCHEMA_VALIDATE_FIRST_ERROR) == 0;
  v->quiet = 0;
  v->depth = 0;
  v->overflow_reported = FALSE;
  v->path_len = 0;
  v->base_depth[0] = 0;
  v->scope_len = 0;
  validate (v, self->root, instance, NULL);
  v->errors = NULL;

  if ((*errors)->len == 0)
    g_ptr_array_add (*errors, tb_schema_error_new ("", "", "", _("does not match the schema")));

  return FALSE;
}
