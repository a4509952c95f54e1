/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tb-json.h"
#include "tb-text.h"
#include "tb-workspace-private.h"

void
_tb_workspace_key_clear (Key *key)
{
  g_clear_pointer (&key->tokens, g_ptr_array_unref);
  g_clear_pointer (&key->pointer, g_free);
  g_clear_pointer (&key->display, g_free);
}


/* The JSON Pointer of the key's first @n tokens. */
static char *
prefix_pointer (const Key *key,
                guint      n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *escaped = tb_json_pointer_escape (g_ptr_array_index (key->tokens, i));

      g_string_append_c (out, '/');
      g_string_append (out, escaped);
    }
  return g_string_free (out, FALSE);
}

gboolean
_tb_workspace_key_parse (const char  *text,
                         Key         *key,
                         GError     **error)
{
  g_autoptr(GString) pointer = NULL;

  memset (key, 0, sizeof *key);

  if (text == NULL || *text == '\0')
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                           _("The key is empty: name a fact, or give a JSON Pointer such as "
                             "“/trip/hotel”."));
      return FALSE;
    }

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                           _("The key is not valid UTF-8 text."));
      return FALSE;
    }

  if (strlen (text) > TB_WORKSPACE_MAX_KEY_LENGTH)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                   _("The key is longer than %d bytes."), TB_WORKSPACE_MAX_KEY_LENGTH);
      return FALSE;
    }

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || c == 0x7f)
        {
          g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                               _("The key contains a control character (such as a line "
                                 "break or a tab); keys are single lines of text."));
          return FALSE;
        }
    }

  key->tokens = g_ptr_array_new_with_free_func (g_free);

  if (text[0] != '/')
    g_ptr_array_add (key->tokens, g_strdup (text));
  else
    {
      g_auto(GStrv) parts = g_strsplit (text + 1, "/", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          char *token = tb_json_pointer_unescape (parts[i]);

          if (token == NULL)
            {
              g_autofree char *shown = tb_text_shorten (text, -1, TB_WORKSPACE_SHOWN_CHARS);

              g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                           _("The JSON Pointer “%s” has a “~” that is not “~0” or “~1”; "
                             "write “~0” for “~” and “~1” for “/”."), shown);
              _tb_workspace_key_clear (key);
              return FALSE;
            }

          if (token[0] == '\0')
            {
              g_autofree char *shown = tb_text_shorten (text, -1, TB_WORKSPACE_SHOWN_CHARS);

              g_free (token);
              g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                           _("The JSON Pointer “%s” has an empty part; a key that starts "
                             "with “/” is a path such as “/trip/hotel”."), shown);
              _tb_workspace_key_clear (key);
              return FALSE;
            }

          g_ptr_array_add (key->tokens, token);
        }
    }

  /* g_strsplit() gives no parts for "/": that would be the whole object. */
  if (key->tokens->len == 0)
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                           _("The JSON Pointer “/” names no member; give one, such as "
                             "“/city”."));
      _tb_workspace_key_clear (key);
      return FALSE;
    }

  if (key->tokens->len > TB_WORKSPACE_MAX_KEY_PARTS)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                   _("The key has more than %d parts."), TB_WORKSPACE_MAX_KEY_PARTS);
      _tb_workspace_key_clear (key);
      return FALSE;
    }

  key->pointer = prefix_pointer (key, key->tokens->len);

  /* A person reads a top-level key as it is; nested ones as pointers. */
  if (key->tokens->len == 1 && ((char *) g_ptr_array_index (key->tokens, 0))[0] != '/')
    key->display = g_strdup (g_ptr_array_index (key->tokens, 0));
  else
    key->display = g_strdup (key->pointer);

  return TRUE;
}

/**
 * tb_workspace_check_key:
 * @key: a key or JSON Pointer
 * @pointer: (out) (optional) (transfer full): the canonical JSON Pointer
 * @error: return location for a %TB_WORKSPACE_ERROR_INVALID_KEY error
 *
 * Checks a key before it is used, with the sentence a person reads when it
 * is refused.
 *
 * Returns: %TRUE when @key can address a fact or draft entry
 */
gboolean
tb_workspace_check_key (const char  *key,
                        char       **pointer,
                        GError     **error)
{
  g_auto(Key) parsed = { 0 };

  if (!_tb_workspace_key_parse (key, &parsed, error))
    return FALSE;
  if (pointer != NULL)
    *pointer = g_steal_pointer (&parsed.pointer);
  return TRUE;
}

gboolean
_tb_workspace_pointers_overlap (const char *a,
                                const char *b)
{
  gsize la = strlen (a), lb = strlen (b);

  if (la == lb)
    return strcmp (a, b) == 0;
  if (la < lb)
    return strncmp (a, b, la) == 0 && b[la] == '/';
  return strncmp (a, b, lb) == 0 && a[lb] == '/';
}

/* Values ---------------------------------------------------------------- */

/* Refuses what cannot be written as JSON or would not load again. */
static gboolean
check_value_node (JsonNode  *node,
                  guint      depth,
                  guint      max_depth)
{
  if (node == NULL || depth > max_depth)
    return FALSE;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          if (!g_utf8_validate (name, -1, NULL) || !check_value_node (member, depth + 1, max_depth))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          if (!check_value_node (json_array_get_element (array, i), depth + 1, max_depth))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_VALUE:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_INT64 || type == G_TYPE_BOOLEAN)
          return TRUE;
        if (type == G_TYPE_DOUBLE)
          return isfinite (json_node_get_double (node));
        if (type == G_TYPE_STRING)
          return json_node_get_string (node) != NULL &&
                 g_utf8_validate (json_node_get_string (node), -1, NULL);
        return FALSE;
      }

    case JSON_NODE_NULL:
      return TRUE;

    default:
      return FALSE;
    }
}

gboolean
_tb_workspace_check_value (JsonNode    *value,
                           const Key   *key,
                           GError     **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  guint max_depth = TB_WORKSPACE_MAX_DEPTH - key->tokens->len;

  if (value == NULL)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE,
                   _("No value was given for “%s”."), key->display);
      return FALSE;
    }

  if (!tb_json_node_depth_ok (value, max_depth) || !check_value_node (value, 1, max_depth))
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE,
                   _("The value for “%s” is not plain JSON (text must be UTF-8, numbers "
                     "finite) or nests deeper than %u levels."),
                   key->display, max_depth);
      return FALSE;
    }

  text = tb_json_to_data (value, FALSE, &length);
  if (length >= TB_WORKSPACE_MAX_VALUE_SIZE)
    {
      g_autofree char *size = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE,
                   _("The value for “%s” is %s as JSON; values must be smaller than 1 MiB. "
                     "Keep large documents in files and store their names."),
                   key->display, size);
      return FALSE;
    }

  return TRUE;
}

/* Trees addressed by keys ------------------------------------------------ */

JsonNode *
_tb_workspace_tree_lookup (JsonNode  *root,
                           const Key *key)
{
  JsonNode *node = root;

  for (guint i = 0; node != NULL && i < key->tokens->len; i++)
    node = tb_json_pointer_child (node, g_ptr_array_index (key->tokens, i));

  return node;
}


/* Walks to where @key's value goes; with @create, makes missing objects on
 * the way. Returns the container that holds (or will hold) the value. */
static JsonNode *
tree_walk_to_parent (JsonNode   *root,
                     const Key  *key,
                     gboolean    create,
                     GError    **error)
{
  JsonNode *node = root;

  for (guint i = 0; i + 1 < key->tokens->len; i++)
    {
      const char *token = g_ptr_array_index (key->tokens, i);
      JsonNode *child = tb_json_pointer_child (node, token);

      if (child == NULL && JSON_NODE_HOLDS_OBJECT (node))
        {
          if (!create)
            return node;   /* the rest will be created */
          child = tb_json_node_new_object ();
          json_object_set_member (json_node_get_object (node), token, child);
        }
      else if (child == NULL)
        {
          g_autofree char *where = prefix_pointer (key, i + 1);

          g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                       _("“%s” cannot hold a value: “%s” is not an index of the array there."),
                       key->display, where);
          return NULL;
        }

      if (!JSON_NODE_HOLDS_OBJECT (child) && !JSON_NODE_HOLDS_ARRAY (child))
        {
          g_autofree char *where = prefix_pointer (key, i + 1);
          g_autofree char *type = tb_json_describe_type (child);

          g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                       _("“%s” cannot hold a value: “%s” is of type %s, not an object or array."),
                       key->display, where, type);
          return NULL;
        }
      node = child;
    }

  return node;
}

static gboolean
tree_check_last (JsonNode   *parent,
                 const Key  *key,
                 GError    **error)
{
  const char *last = g_ptr_array_index (key->tokens, key->tokens->len - 1);
  guint index;

  if (!JSON_NODE_HOLDS_ARRAY (parent))
    return TRUE;

  if (!tb_json_pointer_parse_index (last, &index)
      || index > json_array_get_length (json_node_get_array (parent)))
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_KEY,
                   _("“%s” cannot hold a value: the array there has %u elements, and “%s” is "
                     "neither one of their indexes nor the next one."),
                   key->display, json_array_get_length (json_node_get_array (parent)), last);
      return FALSE;
    }
  return TRUE;
}

gboolean
_tb_workspace_tree_check_place (JsonNode   *root,
                                const Key  *key,
                                GError    **error)
{
  JsonNode *parent = tree_walk_to_parent (root, key, FALSE, error);

  return parent != NULL && tree_check_last (parent, key, error);
}

/* Replaces one element by building the array anew: json-glib 1.6 has no
 * call that swaps an element in place. */
static void
array_replace (JsonNode *array_node,
               guint     index,
               JsonNode *value)
{
  JsonArray *array = json_node_get_array (array_node);
  guint length = json_array_get_length (array);
  JsonArray *replaced = json_array_sized_new (length);

  for (guint i = 0; i < length; i++)
    json_array_add_element (replaced, i == index ? tb_json_copy (value)
                                                 : tb_json_copy (
                                                     json_array_get_element (array, i)));
  json_node_take_array (array_node, replaced);
}

gboolean
_tb_workspace_tree_set (JsonNode   *root,
                        const Key  *key,
                        JsonNode   *value,
                        GError    **error)
{
  const char *last = g_ptr_array_index (key->tokens, key->tokens->len - 1);
  g_autoptr(JsonNode) copy = NULL;
  JsonNode *parent;
  guint index;

  if (!_tb_workspace_tree_check_place (root, key, error))
    return FALSE;
  parent = tree_walk_to_parent (root, key, TRUE, error);
  if (parent == NULL)
    return FALSE;

  copy = tb_json_copy (value);

  if (JSON_NODE_HOLDS_OBJECT (parent))
    {
      json_object_set_member (json_node_get_object (parent), last, g_steal_pointer (&copy));
      return TRUE;
    }

  tb_json_pointer_parse_index (last, &index);
  if (index == json_array_get_length (json_node_get_array (parent)))
    json_array_add_element (json_node_get_array (parent), g_steal_pointer (&copy));
  else
    array_replace (parent, index, copy);

  return TRUE;
}
