/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-registry"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"
#include "tb-tool-registry-private.h"
#include "tb-wire-schema.h"

/* The names a provider accepts for a function. Most (OpenAI, Anthropic,
 * Ollama) take `^[a-zA-Z0-9_-]{1,64}$`; Gemini also takes dots and colons
 * and wants a letter or an underscore first. A real name the provider
 * accepts is sent as it is; only the others are mapped. */
typedef enum
{
  NAMING_STRICT,
  NAMING_GEMINI,
} Naming;

static Naming
naming_for (TbDefinitionFormat format)
{
  return format == TB_DEFINITION_FORMAT_GEMINI ? NAMING_GEMINI : NAMING_STRICT;
}

static gboolean
is_wire_char (Naming naming,
              char   c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' ||
         (naming == NAMING_GEMINI && (c == '.' || c == ':'));
}

static gboolean
is_wire_safe (Naming      naming,
              const char *name)
{
  gsize len = strlen (name);

  if (len == 0 || len > 64)
    return FALSE;
  if (naming == NAMING_GEMINI && !g_ascii_isalpha (name[0]) && name[0] != '_')
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!is_wire_char (naming, name[i]))
      return FALSE;
  return TRUE;
}

/* Must hold cache_lock. */
static void
ensure_wire_names_locked (TbToolRegistry *self,
                          Naming          naming)
{
  g_autoptr(GPtrArray) unsafe = NULL;
  GHashTable *real_to_wire;
  GHashTable *wire_to_real;

  if (self->real_to_wire[naming] != NULL)
    return;

  real_to_wire = self->real_to_wire[naming] =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  wire_to_real = self->wire_to_real[naming] =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  unsafe = g_ptr_array_new ();

  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->tools->len; i++)
    {
      const char *name = tb_tool_get_name (g_ptr_array_index (self->tools, i));

      if (is_wire_safe (naming, name))
        {
          g_hash_table_insert (real_to_wire, g_strdup (name), g_strdup (name));
          g_hash_table_insert (wire_to_real, g_strdup (name), g_strdup (name));
        }
      else
        {
          g_ptr_array_add (unsafe, g_strdup (name));
        }
    }
  g_rw_lock_reader_unlock (&self->lock);

  for (guint i = 0; i < unsafe->len; i++)
    {
      g_autofree char *name = g_ptr_array_index (unsafe, i);
      g_autofree char *base = NULL;
      g_autofree char *wire = NULL;

      base = naming == NAMING_GEMINI && !g_ascii_isalpha (name[0]) && name[0] != '_'
             ? g_strconcat ("_", name, NULL) : g_strdup (name);
      for (char *p = base; *p != '\0'; p++)
        if (!is_wire_char (naming, *p))
          *p = '_';
      if (strlen (base) > 64)
        base[64] = '\0';

      wire = g_strdup (base);
      for (guint n = 2; g_hash_table_contains (wire_to_real, wire); n++)
        {
          g_autofree char *suffix = g_strdup_printf ("_%u", n);
          gsize keep = MIN (strlen (base), 64 - strlen (suffix));

          g_free (wire);
          wire = g_strdup_printf ("%.*s%s", (int) keep, base, suffix);
        }

      g_hash_table_insert (real_to_wire, g_strdup (name), g_strdup (wire));
      g_hash_table_insert (wire_to_real, g_steal_pointer (&wire), g_strdup (name));
    }
}

static char *
lookup_registered (TbToolRegistry *self,
                   const char     *name)
{
  char *ret;

  g_rw_lock_reader_lock (&self->lock);
  ret = g_hash_table_contains (self->by_name, name) ? g_strdup (name) : NULL;
  g_rw_lock_reader_unlock (&self->lock);
  return ret;
}

static char *
lookup_locked (TbToolRegistry *self,
               Naming          naming,
               gboolean        to_wire,
               const char     *name)
{
  char *ret;

  g_rw_lock_writer_lock (&self->cache_lock);
  ensure_wire_names_locked (self, naming);
  ret = g_strdup (g_hash_table_lookup (to_wire ? self->real_to_wire[naming]
                                               : self->wire_to_real[naming], name));
  g_rw_lock_writer_unlock (&self->cache_lock);
  return ret;
}

/**
 * tb_tool_registry_to_wire_name_for:
 * @self: a registry
 * @format: the wire format whose naming rule applies
 * @name: a registered tool's name
 *
 * Gives the name a tool goes by in the requests of a wire format: the real
 * name where the provider accepts it, otherwise one with the characters it
 * refuses replaced and, on a clash, a number appended.
 *
 * Returns: (transfer full) (nullable): the name providers of @format see
 *   (the real name where they accept it), or %NULL when @name is not
 *   registered
 */
char *
tb_tool_registry_to_wire_name_for (TbToolRegistry     *self,
                                   TbDefinitionFormat  format,
                                   const char         *name)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);

  if (name == NULL)
    return NULL;
  if (format == TB_DEFINITION_FORMAT_NATIVE)
    return lookup_registered (self, name);
  return lookup_locked (self, naming_for (format), TRUE, name);
}

/**
 * tb_tool_registry_from_wire_name_for:
 * @self: the registry whose definitions the provider received
 * @format: the wire format the definitions were sent in
 * @wire_name: a name a model used
 *
 * Maps a name a model used back to the tool's real name: providers that
 * refuse dots and other characters see a name with them replaced
 * (tb_tool_registry_to_wire_name_for()), and calls come back under it.
 *
 * Returns: (transfer full) (nullable): the real tool name, or %NULL when
 *   no tool of this registry goes by @wire_name in @format
 */
char *
tb_tool_registry_from_wire_name_for (TbToolRegistry     *self,
                                     TbDefinitionFormat  format,
                                     const char         *wire_name)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);

  if (wire_name == NULL)
    return NULL;
  if (format == TB_DEFINITION_FORMAT_NATIVE)
    return lookup_registered (self, wire_name);
  return lookup_locked (self, naming_for (format), FALSE, wire_name);
}

/**
 * tb_tool_registry_to_wire_name:
 * @self: a registry
 * @name: a registered tool's name
 *
 * The name under the strict rule (`^[a-zA-Z0-9_-]{1,64}$`) that OpenAI,
 * Anthropic and Ollama share; see tb_tool_registry_to_wire_name_for().
 *
 * Returns: (transfer full) (nullable): the name providers see, or %NULL
 *   when @name is not registered
 */
char *
tb_tool_registry_to_wire_name (TbToolRegistry *self,
                               const char     *name)
{
  return tb_tool_registry_to_wire_name_for (self, TB_DEFINITION_FORMAT_OPENAI, name);
}

/**
 * tb_tool_registry_from_wire_name:
 * @self: the registry whose definitions the provider received
 * @wire_name: a name a model used
 *
 * Maps a name a model used in OpenAI's format back to the tool's real name,
 * as tb_tool_registry_from_wire_name_for() does for
 * %TB_DEFINITION_FORMAT_OPENAI.
 *
 * Returns: (transfer full) (nullable): the real tool name, or %NULL when
 *   no tool of this registry goes by @wire_name
 */
char *
tb_tool_registry_from_wire_name (TbToolRegistry *self,
                                 const char     *wire_name)
{
  return tb_tool_registry_from_wire_name_for (self, TB_DEFINITION_FORMAT_OPENAI, wire_name);
}

static JsonNode *
build_definition (TbToolRegistry     *self,
                  TbTool             *tool,
                  TbDefinitionFormat  format)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  const char *name = tb_tool_get_name (tool);
  const char *wire = format != TB_DEFINITION_FORMAT_NATIVE
                     ? g_hash_table_lookup (self->real_to_wire[naming_for (format)], name) : name;
  JsonNode *parameters = tb_tool_get_parameters (tool);

  json_node_take_object (node, object);

  switch (format)
    {
    case TB_DEFINITION_FORMAT_OPENAI:
      {
        JsonObject *function = json_object_new ();

        json_object_set_string_member (object, "type", "function");
        json_object_set_string_member (function, "name", wire);
        json_object_set_string_member (function, "description",
                                       tb_tool_get_description (tool));
        json_object_set_member (function, "parameters", json_node_ref (parameters));
        json_object_set_object_member (object, "function", function);
      }
      break;

    case TB_DEFINITION_FORMAT_OPENAI_RESPONSES:
      json_object_set_string_member (object, "type", "function");
      json_object_set_string_member (object, "name", wire);
      json_object_set_string_member (object, "description", tb_tool_get_description (tool));
      json_object_set_member (object, "parameters", json_node_ref (parameters));
      /* Responses makes strict mode the default, and strict mode wants
       * every property required and additionalProperties false, which
       * most tools' schemas are not. */
      json_object_set_boolean_member (object, "strict", FALSE);
      break;

    case TB_DEFINITION_FORMAT_ANTHROPIC:
      json_object_set_string_member (object, "name", wire);
      json_object_set_string_member (object, "description", tb_tool_get_description (tool));
      json_object_set_member (object, "input_schema", json_node_ref (parameters));
      break;

    case TB_DEFINITION_FORMAT_GEMINI:
      json_object_set_string_member (object, "name", wire);
      json_object_set_string_member (object, "description", tb_tool_get_description (tool));
      /* Gemini refuses an OBJECT schema without properties: a tool that
       * takes no arguments has no "parameters" there. */
      if (!tb_tool_takes_no_arguments (tool))
        json_object_set_member (object, "parameters", tb_wire_schema_for_gemini (parameters));
      break;

    case TB_DEFINITION_FORMAT_NATIVE:
    default:
      json_object_set_string_member (object, "name", name);
      json_object_set_string_member (object, "description", tb_tool_get_description (tool));
      json_object_set_member (object, "parameters", json_node_ref (parameters));
      break;
    }

  return node;
}

/**
 * tb_tool_registry_to_definitions:
 * @self: a registry
 * @format: the wire format
 *
 * The value of a request's `tools` member for @format, with wire names
 * (see tb_tool_registry_to_wire_name()): an array of definitions, and for
 * Gemini an array holding one `{"functionDeclarations": […]}` object.
 * The result is cached until the registry changes.
 *
 * Returns: (transfer full): a sealed JSON array
 */
JsonNode *
tb_tool_registry_to_definitions (TbToolRegistry     *self,
                                 TbDefinitionFormat  format)
{
  JsonNode *ret;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (format <= TB_DEFINITION_FORMAT_OPENAI_RESPONSES, NULL);

  g_rw_lock_writer_lock (&self->cache_lock);

  if (self->definitions[format] == NULL)
    {
      JsonArray *array = json_array_new ();
      JsonNode *node = json_node_new (JSON_NODE_ARRAY);

      if (format != TB_DEFINITION_FORMAT_NATIVE)
        ensure_wire_names_locked (self, naming_for (format));

      g_rw_lock_reader_lock (&self->lock);
      for (guint i = 0; i < self->tools->len; i++)
        json_array_add_element (array, build_definition (self, g_ptr_array_index (self->tools, i),
                                                         format));
      g_rw_lock_reader_unlock (&self->lock);

      if (format == TB_DEFINITION_FORMAT_GEMINI)
        {
          JsonArray *outer = json_array_new ();
          JsonObject *declarations = json_object_new ();

          json_object_set_array_member (declarations, "functionDeclarations", array);
          json_array_add_object_element (outer, declarations);
          json_node_take_array (node, outer);
        }
      else
        {
          json_node_take_array (node, array);
        }

      json_node_seal (node);
      self->definitions[format] = node;
    }

  ret = json_node_ref (self->definitions[format]);
  g_rw_lock_writer_unlock (&self->cache_lock);

  return ret;
}
