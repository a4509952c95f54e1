/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-private.h"
#include "tb-schema-registry.h"
#include "tb-schema-resources.h"

/**
 * TbSchemaRegistry:
 *
 * The schemas a `$ref` may name by an absolute URI. Toolbench never fetches
 * a schema over the network: a reference resolves only to a schema added
 * here, or to one of the meta-schemas of draft 2020-12 and draft-07 that
 * Toolbench carries. Adding and looking up are safe from any thread.
 */
struct _TbSchemaRegistry
{
  GObject     parent_instance;

  GMutex      lock;
  GHashTable *documents; /* URI without fragment → sealed JsonNode */
};

G_DEFINE_FINAL_TYPE (TbSchemaRegistry, tb_schema_registry, G_TYPE_OBJECT)

static void
tb_schema_registry_finalize (GObject *object)
{
  TbSchemaRegistry *self = TB_SCHEMA_REGISTRY (object);

  g_clear_pointer (&self->documents, g_hash_table_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (tb_schema_registry_parent_class)->finalize (object);
}

static void
tb_schema_registry_class_init (TbSchemaRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_schema_registry_finalize;
}

static void
tb_schema_registry_init (TbSchemaRegistry *self)
{
  g_mutex_init (&self->lock);
  self->documents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) json_node_unref);
}

/**
 * tb_schema_registry_new:
 *
 * Makes an empty registry of schemas that `$ref` may reach besides the
 * meta-schemas Toolbench carries. Give it to tb_schema_new_full() so that a
 * schema can refer to others by URI; nothing is fetched from the network.
 *
 * Returns: (transfer full): the new registry
 */
TbSchemaRegistry *
tb_schema_registry_new (void)
{
  return g_object_new (TB_TYPE_SCHEMA_REGISTRY, NULL);
}

static char *
strip_fragment (const char *uri)
{
  const char *hash = strchr (uri, '#');

  return hash != NULL ? g_strndup (uri, hash - uri) : g_strdup (uri);
}

/**
 * tb_schema_registry_add:
 * @self: a registry
 * @uri: (nullable): the absolute URI the schema is known by; %NULL takes
 *   the schema's own `$id`
 * @schema: the schema document (an object or a boolean)
 * @error: return location for a %TB_SCHEMA_COMPILE_ERROR
 *
 * Makes @schema available to `$ref`. Embedded resources (subschemas with
 * their own `$id`) are found when a schema that refers to them compiles.
 *
 * Returns: %TRUE when the schema was added
 */
gboolean
tb_schema_registry_add (TbSchemaRegistry  *self,
                        const char        *uri,
                        JsonNode          *schema,
                        GError           **error)
{
  g_autofree char *key = NULL;
  JsonNode *copy;

  g_return_val_if_fail (TB_IS_SCHEMA_REGISTRY (self), FALSE);
  g_return_val_if_fail (schema != NULL, FALSE);

  if (!tb_json_node_depth_ok (schema, TB_JSON_MAX_DEPTH))
    {
      g_set_error (error, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_TOO_DEEP,
                   _("The schema nests more than %u levels deep"), TB_JSON_MAX_DEPTH);
      return FALSE;
    }

  if (uri == NULL && JSON_NODE_HOLDS_OBJECT (schema))
    {
      JsonNode *id = json_object_get_member (json_node_get_object (schema), "$id");

      if (id != NULL && JSON_NODE_HOLDS_VALUE (id) &&
          json_node_get_value_type (id) == G_TYPE_STRING)
        uri = json_node_get_string (id);
    }

  if (uri == NULL || strchr (uri, ':') == NULL)
    {
      g_set_error_literal (error, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_INVALID,
                           _("A schema added to the registry needs an absolute URI, "
                             "given or in its “$id”"));
      return FALSE;
    }

  key = strip_fragment (uri);
  copy = json_node_is_immutable (schema) ? json_node_ref (schema) : json_node_copy (schema);
  if (!json_node_is_immutable (copy))
    json_node_seal (copy);

  g_mutex_lock (&self->lock);
  g_hash_table_replace (self->documents, g_steal_pointer (&key), copy);
  g_mutex_unlock (&self->lock);

  return TRUE;
}

/**
 * tb_schema_registry_lookup:
 * @self: a registry
 * @uri: an absolute URI; a fragment is ignored
 *
 * Finds the document `$ref` reaches under @uri: one added with
 * tb_schema_registry_add(), or one of the meta-schemas of the dialects
 * Toolbench knows. Safe to call from any thread.
 *
 * Returns: (transfer full) (nullable): the schema added under @uri, or a
 *   meta-schema Toolbench carries
 */
JsonNode *
tb_schema_registry_lookup (TbSchemaRegistry *self,
                           const char       *uri)
{
  g_autofree char *key = NULL;
  JsonNode *found;

  g_return_val_if_fail (TB_IS_SCHEMA_REGISTRY (self), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  key = strip_fragment (uri);
  g_mutex_lock (&self->lock);
  found = g_hash_table_lookup (self->documents, key);
  if (found != NULL)
    json_node_ref (found);
  g_mutex_unlock (&self->lock);

  if (found == NULL)
    found = _tb_schema_builtin_lookup (key);
  return found;
}

static const struct
{
  const char *uri;
  const char *resource;
} builtins[] = {
  { "https://json-schema.org/draft/2020-12/schema", "draft2020-12.json" },
  { "https://json-schema.org/draft/2020-12/meta/core", "draft2020-12-meta-core.json" },
  { "https://json-schema.org/draft/2020-12/meta/applicator",
    "draft2020-12-meta-applicator.json" },
  { "https://json-schema.org/draft/2020-12/meta/unevaluated",
    "draft2020-12-meta-unevaluated.json" },
  { "https://json-schema.org/draft/2020-12/meta/validation",
    "draft2020-12-meta-validation.json" },
  { "https://json-schema.org/draft/2020-12/meta/meta-data", "draft2020-12-meta-meta-data.json" },
  { "https://json-schema.org/draft/2020-12/meta/format-annotation",
    "draft2020-12-meta-format-annotation.json" },
  { "https://json-schema.org/draft/2020-12/meta/content", "draft2020-12-meta-content.json" },
  { "http://json-schema.org/draft-07/schema", "draft-07.json" },
};

/* Parsed once, shared and sealed: they never change. */
static JsonNode *builtin_nodes[G_N_ELEMENTS (builtins)];

/**
 * _tb_schema_builtin_lookup:
 * @uri: an absolute URI without fragment
 *
 * Returns: (transfer full) (nullable): the meta-schema published under @uri
 */
JsonNode *
_tb_schema_builtin_lookup (const char *uri)
{
  for (guint i = 0; i < G_N_ELEMENTS (builtins); i++)
    {
      if (!g_str_equal (uri, builtins[i].uri))
        continue;

      if (g_once_init_enter (&builtin_nodes[i]))
        {
          g_autofree char *path =
            g_strconcat ("/io/github/toolbench/schemas/schemas/", builtins[i].resource, NULL);
          g_autoptr(GBytes) bytes = g_resource_lookup_data (_tb_schema_get_resource (), path,
                                                            G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
          JsonNode *node;

          g_assert (bytes != NULL);
          node = tb_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
          g_assert (node != NULL);
          g_once_init_leave (&builtin_nodes[i], node);
        }
      return json_node_ref (builtin_nodes[i]);
    }
  return NULL;
}

/* RFC 3986 section 5: reference resolution. */

typedef struct
{
  char *scheme;
  char *authority;
  char *path;
  char *query;
  char *fragment;
} UriParts;

static void
uri_parts_clear (UriParts *parts)
{
  g_free (parts->scheme);
  g_free (parts->authority);
  g_free (parts->path);
  g_free (parts->query);
  g_free (parts->fragment);
}

static void
uri_split (const char *uri,
           UriParts   *parts)
{
  const char *p = uri;
  const char *end;

  memset (parts, 0, sizeof *parts);

  for (end = p; g_ascii_isalnum (*end) || *end == '+' || *end == '-' || *end == '.'; end++)
    ;
  if (*end == ':' && end > p && g_ascii_isalpha (*p))
    {
      parts->scheme = g_strndup (p, end - p);
      p = end + 1;
    }

  if (p[0] == '/' && p[1] == '/')
    {
      p += 2;
      end = p + strcspn (p, "/?#");
      parts->authority = g_strndup (p, end - p);
      p = end;
    }

  end = p + strcspn (p, "?#");
  parts->path = g_strndup (p, end - p);
  p = end;

  if (*p == '?')
    {
      p++;
      end = p + strcspn (p, "#");
      parts->query = g_strndup (p, end - p);
      p = end;
    }

  if (*p == '#')
    parts->fragment = g_strdup (p + 1);
}

static char *
remove_dot_segments (const char *path)
{
  GString *out = g_string_new (NULL);
  const char *in = path;

  while (*in != '\0')
    {
      if (g_str_has_prefix (in, "../"))
        in += 3;
      else if (g_str_has_prefix (in, "./"))
        in += 2;
      else if (g_str_has_prefix (in, "/./"))
        in += 2;
      else if (g_str_equal (in, "/."))
        {
          g_string_append_c (out, '/');
          break;
        }
      else if (g_str_has_prefix (in, "/../") || g_str_equal (in, "/.."))
        {
          char *slash = strrchr (out->str, '/');

          g_string_truncate (out, slash != NULL ? (gsize) (slash - out->str) : 0);
          if (g_str_equal (in, "/.."))
            {
              g_string_append_c (out, '/');
              break;
            }
          in += 3;
        }
      else if (g_str_equal (in, ".") || g_str_equal (in, ".."))
        break;
      else
        {
          const char *next = strchr (in + 1, '/');
          gsize len = next != NULL ? (gsize) (next - in) : strlen (in);

          g_string_append_len (out, in, len);
          in += len;
        }
    }

  return g_string_free (out, FALSE);
}

static char *
merge_paths (const UriParts *base,
             const char     *path)
{
  const char *slash;

  if (base->authority != NULL && (base->path == NULL || base->path[0] == '\0'))
    return g_strconcat ("/", path, NULL);
  slash = base->path != NULL ? strrchr (base->path, '/') : NULL;
  if (slash == NULL)
    return g_strdup (path);
  {
    g_autofree char *dir = g_strndup (base->path, slash - base->path + 1);

    return g_strconcat (dir, path, NULL);
  }
}

/**
 * _tb_schema_uri_resolve:
 * @base: an absolute URI
 * @reference: a URI reference
 *
 * Returns: (transfer full): @reference resolved against @base
 */
char *
_tb_schema_uri_resolve (const char *base,
                        const char *reference)
{
  UriParts b, r;
  g_autofree char *path = NULL;
  const char *scheme, *authority, *query;
  GString *out;

  uri_split (base, &b);
  uri_split (reference, &r);

  if (r.scheme != NULL)
    {
      scheme = r.scheme;
      authority = r.authority;
      path = remove_dot_segments (r.path);
      query = r.query;
    }
  else if (r.authority != NULL)
    {
      scheme = b.scheme;
      authority = r.authority;
      path = remove_dot_segments (r.path);
      query = r.query;
    }
  else if (r.path[0] == '\0')
    {
      scheme = b.scheme;
      authority = b.authority;
      path = g_strdup (b.path);
      query = r.query != NULL ? r.query : b.query;
    }
  else
    {
      g_autofree char *merged = NULL;

      scheme = b.scheme;
      authority = b.authority;
      if (r.path[0] == '/')
        path = remove_dot_segments (r.path);
      else
        {
          merged = merge_paths (&b, r.path);
          /* Non-hierarchical bases ("urn:…") keep their path as it is. */
          path = b.authority != NULL || (b.path != NULL && b.path[0] == '/')
                 ? remove_dot_segments (merged) : g_strdup (merged);
        }
      query = r.query;
    }

  out = g_string_new (NULL);
  if (scheme != NULL)
    g_string_append_printf (out, "%s:", scheme);
  if (authority != NULL)
    g_string_append_printf (out, "//%s", authority);
  g_string_append (out, path);
  if (query != NULL)
    g_string_append_printf (out, "?%s", query);
  if (r.fragment != NULL && r.fragment[0] != '\0')
    g_string_append_printf (out, "#%s", r.fragment);

  uri_parts_clear (&b);
  uri_parts_clear (&r);

  return g_string_free (out, FALSE);
}
