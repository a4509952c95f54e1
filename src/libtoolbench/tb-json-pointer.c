/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-json"

#include "config.h"

#include <string.h>

#include "tb-json.h"

/* JSON Pointer (RFC 6901): the one implementation that the validator's
 * error paths and `$ref` fragments, the workspace's fact keys and the
 * app's forms share. */

/**
 * tb_json_pointer_escape:
 * @token: an object member name or an array index
 *
 * Escapes one member name or index for a JSON Pointer, so that a name
 * holding "/" or "~" stays one step of the path.
 *
 * Returns: (transfer full): @token as one JSON Pointer reference token
 *   (RFC 6901): "~" written "~0", "/" written "~1"
 */
char *
tb_json_pointer_escape (const char *token)
{
  GString *out;

  g_return_val_if_fail (token != NULL, NULL);

  /* Validation builds paths for every error: most names need nothing. */
  if (strpbrk (token, "~/") == NULL)
    return g_strdup (token);

  out = g_string_sized_new (strlen (token) + 2);
  for (const char *p = token; *p != '\0'; p++)
    {
      if (*p == '~')
        g_string_append (out, "~0");
      else if (*p == '/')
        g_string_append (out, "~1");
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/**
 * tb_json_pointer_unescape:
 * @token: one reference token of a JSON Pointer
 *
 * Turns one reference token of a JSON Pointer back into the member name or
 * index it names: the reverse of tb_json_pointer_escape().
 *
 * Returns: (transfer full) (nullable): the member name or index it
 *   stands for, or %NULL when it has a "~" not followed by "0" or "1"
 */
char *
tb_json_pointer_unescape (const char *token)
{
  GString *out;

  g_return_val_if_fail (token != NULL, NULL);

  out = g_string_sized_new (strlen (token));
  for (const char *p = token; *p != '\0'; p++)
    {
      if (*p != '~')
        g_string_append_c (out, *p);
      else if (p[1] == '0' || p[1] == '1')
        g_string_append_c (out, *++p == '0' ? '~' : '/');
      else
        {
          g_string_free (out, TRUE);
          return NULL;
        }
    }
  return g_string_free (out, FALSE);
}

/**
 * tb_json_pointer_parse_index:
 * @token: an unescaped reference token
 * @index: (out): the array index it names
 *
 * An array index in a JSON Pointer is "0" or digits without a leading
 * zero; "-" (past the end) and anything else are not indexes.
 *
 * Returns: %TRUE when @token is an index that fits in a #guint
 */
gboolean
tb_json_pointer_parse_index (const char *token,
                             guint      *index)
{
  guint64 value = 0;

  g_return_val_if_fail (token != NULL, FALSE);
  g_return_val_if_fail (index != NULL, FALSE);

  if (token[0] == '\0' || (token[0] == '0' && token[1] != '\0'))
    return FALSE;
  for (const char *p = token; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      value = value * 10 + (guint64) (*p - '0');
      if (value > G_MAXUINT)
        return FALSE;
    }
  *index = (guint) value;
  return TRUE;
}

/**
 * tb_json_pointer_child:
 * @node: (nullable): an object or an array
 * @token: an unescaped reference token
 *
 * Goes one step down a JSON Pointer: the step tb_json_pointer_get() takes for
 * each reference token.
 *
 * Returns: (transfer none) (nullable): the member of @node named @token,
 *   or its element at the index @token names, or %NULL when there is none
 */
JsonNode *
tb_json_pointer_child (JsonNode   *node,
                       const char *token)
{
  guint index;

  g_return_val_if_fail (token != NULL, NULL);

  if (node == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_object_get_member (json_node_get_object (node), token);
  if (JSON_NODE_HOLDS_ARRAY (node) && tb_json_pointer_parse_index (token, &index)
      && index < json_array_get_length (json_node_get_array (node)))
    return json_array_get_element (json_node_get_array (node), index);
  return NULL;
}

/**
 * tb_json_pointer_get:
 * @root: (nullable): a document
 * @pointer: a JSON Pointer: "" for @root, or "/" and reference tokens
 *
 * Finds the value a JSON Pointer (RFC 6901) names in a document, as the
 * validator's error paths, `$ref` fragments and the workspace's fact keys
 * write them. Array indices are decimal without leading zeros.
 *
 * Returns: (transfer none) (nullable): the value @pointer names in @root,
 *   or %NULL when there is none or @pointer is not a JSON Pointer
 */
JsonNode *
tb_json_pointer_get (JsonNode   *root,
                     const char *pointer)
{
  JsonNode *node = root;
  const char *start;

  g_return_val_if_fail (pointer != NULL, NULL);

  if (pointer[0] == '\0')
    return root;
  if (pointer[0] != '/')
    return NULL;

  for (start = pointer + 1; node != NULL; )
    {
      const char *end = strchr (start, '/');
      g_autofree char *raw = end != NULL ? g_strndup (start, end - start) : g_strdup (start);
      g_autofree char *token = tb_json_pointer_unescape (raw);

      if (token == NULL)
        return NULL;
      node = tb_json_pointer_child (node, token);
      if (end == NULL)
        break;
      start = end + 1;
    }
  return node;
}
