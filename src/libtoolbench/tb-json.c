/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-json"

#include "config.h"

/* PRId64: the one 64-bit format xgettext understands in a message */
#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "tb-json-private.h"

/**
 * tb_json_error_quark:
 *
 * The error domain of #TbJsonError: JSON from outside that could not be read.
 *
 * Returns: the quark of %TB_JSON_ERROR
 */
G_DEFINE_QUARK (tb-json-error-quark, tb_json_error)

/* The cost, in "values", of what json-glib 1.6 builds for each token: an
 * object (a JsonNode, a JsonObject and its hash table) takes about three
 * times what an array, a string, a number or a member name takes (about
 * 100 bytes each, measured). */
#define OBJECT_WEIGHT 3

typedef struct
{
  guint   max_depth;
  guint64 max_values;   /* 0: no limit */
  guint64 values;
} Scan;

/* One pass over the text, outside strings: counts nesting depth and values.
 * This is the guard that keeps JsonParser (which recurses once per level
 * and spends about 100 bytes a value) from overflowing the stack or
 * exhausting memory on hostile input, so it must itself be iterative and
 * linear. */
static gboolean
scan_text (const char  *text,
           gsize        length,
           Scan        *scan,
           GError     **error)
{
  guint depth = 0;
  gboolean in_string = FALSE;
  gboolean in_scalar = FALSE;
  gboolean ended = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      /* json-glib 1.6 leaks the tree it built when text follows it */
      if (ended && !g_ascii_isspace (c))
        {
          g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_SYNTAX,
                       /* Translators: %lu is a byte offset */
                       _("The text is not valid JSON: more follows the end of the document "
                         "(at byte %lu)"), (gulong) i);
          return FALSE;
        }

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      if (g_ascii_isalnum (c) || c == '-' || c == '+' || c == '.')
        {
          if (!in_scalar)
            scan->values++;
          in_scalar = TRUE;
          continue;
        }
      in_scalar = FALSE;

      switch (c)
        {
        case '"':
          in_string = TRUE;
          scan->values++;
          break;

        case '[':
        case '{':
          scan->values += c == '{' ? OBJECT_WEIGHT : 1;
          if (++depth > scan->max_depth)
            {
              g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_DEEP,
                           /* Translators: %u is a number of nesting levels */
                           _("The JSON nests arrays and objects more than %u levels deep"),
                           scan->max_depth);
              return FALSE;
            }
          break;

        case ']':
        case '}':
          if (depth > 0 && --depth == 0)
            ended = TRUE;
          break;

        default:
          break;
        }

      if (scan->max_values != 0 && scan->values > scan->max_values)
        {
          g_autofree char *size = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);

          g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_MANY_VALUES,
                       /* Translators: %s is a size such as "12.0 MiB", %lu a count */
                       _("The JSON text (%s) holds more than %lu values, too many for its "
                         "size: reading it would take more than about 20 times its size "
                         "in memory"),
                       size, (gulong) scan->max_values);
          return FALSE;
        }
    }

  return TRUE;
}

/**
 * tb_json_max_values:
 * @length: the length of a JSON text in bytes
 *
 * The most values a JSON text of @length bytes may hold:
 * %TB_JSON_MAX_VALUES_BASE plus one for every %TB_JSON_BYTES_PER_VALUE
 * bytes. An object counts as three values, a member name as one. This
 * keeps the memory json-glib needs for any document from outside under
 * about 20 times its size (plus about 10 MiB).
 *
 * Returns: the limit
 */
guint64
tb_json_max_values (gsize length)
{
  return TB_JSON_MAX_VALUES_BASE + length / TB_JSON_BYTES_PER_VALUE;
}

/**
 * tb_json_check_text:
 * @text: a JSON text
 * @length: its length in bytes
 * @max_depth: the deepest nesting allowed
 * @error: return location for a #TbJsonError
 *
 * Applies the checks tb_json_parse_full() makes before parsing, nesting
 * depth and the number of values (tb_json_max_values()), without
 * parsing: a writer uses it to refuse a line its reader would refuse.
 *
 * Returns: %TRUE when a reader with @max_depth would accept @text
 */
gboolean
tb_json_check_text (const char  *text,
                    gsize        length,
                    guint        max_depth,
                    GError     **error)
{
  Scan scan = { max_depth, tb_json_max_values (length), 0 };

  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  return scan_text (text, length, &scan, error);
}

/* Counts brackets outside strings; see scan_text(). */
/**
 * tb_json_check_depth:
 * @text: the JSON text, need not be nul-terminated
 * @length: its length in bytes
 * @max_depth: the deepest nesting of objects and arrays to accept
 * @error: return location for a #TbJsonError
 *
 * Checks only how deeply @text nests objects and arrays, counting brackets
 * outside strings, without parsing it or counting its values: cheaper than
 * tb_json_check_text() where the number of values does not matter.
 *
 * Returns: %TRUE when no object or array in @text nests deeper than @max_depth
 */
gboolean
tb_json_check_depth (const char  *text,
                     gsize        length,
                     guint        max_depth,
                     GError     **error)
{
  Scan scan = { max_depth, 0, 0 };

  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  return scan_text (text, length, &scan, error);
}

static gboolean
is_blank (const char *text,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

/* Two things json-glib 1.6 gets wrong are fixed in the text before it
 * parses it:
 *
 * - It wraps integers beyond the int64 range silently
 *   (9223372036854775808 becomes -9223372036854775808), so a huge integer
 *   could pass a "maximum" check. Such literals get a ".0" suffix, which
 *   makes json-glib read them as (approximate, correctly signed) doubles.
 * - It keeps strings as C strings, so "\u0000" cuts a string short: a
 *   tool called "add\u0000x" would run "add", and two member names could
 *   become one. The escape becomes "\uFFFD", the replacement character.
 *
 * Returns NULL when the text needs neither. */
static char *
rewrite_for_parser (const char *text,
                    gsize       length,
                    gsize      *new_length)
{
  GString *out = NULL;
  gboolean in_string = FALSE;
  gsize copied = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];
      gsize start, digits_start, end;
      gboolean negative;

      if (in_string)
        {
          if (c == '\\' && i + 5 < length && memcmp (text + i + 1, "u0000", 5) == 0)
            {
              if (out == NULL)
                out = g_string_sized_new (length + 16);
              g_string_append_len (out, text + copied, i - copied);
              g_string_append (out, "\\uFFFD");
              i += 5;
              copied = i + 1;
            }
          else if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        {
          in_string = TRUE;
          continue;
        }
      if (c != '-' && !g_ascii_isdigit (c))
        continue;

      start = i;
      negative = c == '-';
      digits_start = negative ? i + 1 : i;
      end = digits_start;
      while (end < length && g_ascii_isdigit (text[end]))
        end++;
      i = end > start ? end - 1 : start;
      if (end < length && (text[end] == '.' || text[end] == 'e' || text[end] == 'E'))
        {
          /* a fraction or exponent: json-glib reads a double already */
          while (i + 1 < length && (g_ascii_isalnum (text[i + 1]) || text[i + 1] == '.' ||
                                    text[i + 1] == '+' || text[i + 1] == '-'))
            i++;
          continue;
        }
      if (end - digits_start < 19)
        continue;
      if (end - digits_start == 19 &&
          memcmp (text + digits_start, negative ? "9223372036854775808" : "9223372036854775807",
                  19) <= 0)
        continue;

      if (out == NULL)
        out = g_string_sized_new (length + 16);
      g_string_append_len (out, text + copied, end - copied);
      g_string_append (out, ".0");
      copied = end;
    }

  if (out == NULL)
    return NULL;
  g_string_append_len (out, text + copied, length - copied);
  *new_length = out->len;
  return g_string_free (out, FALSE);
}

/**
 * tb_json_parse_full:
 * @text: the JSON text
 * @length: its length in bytes, or -1 when nul-terminated
 * @max_size: the largest text to accept, in bytes
 * @max_depth: the deepest nesting of objects and arrays to accept
 * @error: return location for a #TbJsonError
 *
 * Parses JSON that comes from outside the process, as tb_json_parse() does,
 * with limits of the caller's choosing: a text larger than @max_size, not
 * UTF-8, blank, nested deeper than @max_depth or holding more values than
 * tb_json_max_values() allows is refused before json-glib sees it, and
 * `\u0000` in a string is read as U+FFFD, the replacement character.
 *
 * Returns: (transfer full): the root node, sealed, or %NULL with @error set
 */
JsonNode *
tb_json_parse_full (const char  *text,
                    gssize       length,
                    gsize        max_size,
                    guint        max_depth,
                    GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *end = NULL;
  g_autofree char *widened = NULL;
  gsize widened_length = 0;
  Scan scan = { 0, 0, 0 };
  JsonNode *root;

  g_return_val_if_fail (text != NULL || length <= 0, NULL);

  if (text == NULL)
    text = "";
  if (length < 0)
    length = strlen (text);

  if ((gsize) length > max_size)
    {
      g_autofree char *have = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_LARGE,
                   /* Translators: both are sizes such as "12.0 MiB" */
                   _("The JSON text is %s, larger than the limit of %s"), have, limit);
      return NULL;
    }

  if (!g_utf8_validate (text, length, &end))
    {
      g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_INVALID_UTF8,
                   /* Translators: %lu is a byte offset */
                   _("The JSON text is not valid UTF-8 (at byte %lu)"),
                   (gulong) (end - text));
      return NULL;
    }

  if (is_blank (text, length))
    {
      g_set_error_literal (error, TB_JSON_ERROR, TB_JSON_ERROR_EMPTY,
                           _("The JSON text is empty"));
      return NULL;
    }

  scan.max_depth = max_depth;
  scan.max_values = tb_json_max_values (length);
  if (!scan_text (text, length, &scan, error))
    return NULL;

  widened = rewrite_for_parser (text, length, &widened_length);
  if (widened != NULL)
    {
      text = widened;
      length = widened_length;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, length, &local_error))
    {
      /* json-glib quotes the bytes it choked on, which may not be UTF-8
       * (a lone surrogate escape decodes to one). */
      g_autofree char *said = g_utf8_make_valid (local_error->message, -1);

      g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_SYNTAX,
                   _("The text is not valid JSON: %s"), said);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, TB_JSON_ERROR, TB_JSON_ERROR_EMPTY,
                           _("The JSON text is empty"));
      return NULL;
    }

  return json_node_ref (root);
}

/**
 * tb_json_parse:
 * @text: the JSON text
 * @length: its length in bytes, or -1 when nul-terminated
 * @error: return location for a #TbJsonError
 *
 * Parses JSON that comes from outside the process, after checking its size
 * (%TB_JSON_MAX_SIZE), encoding and nesting depth (%TB_JSON_MAX_DEPTH).
 * The returned node is sealed (immutable); copy it to change it.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set.
 */
JsonNode *
tb_json_parse (const char  *text,
               gssize       length,
               GError     **error)
{
  return tb_json_parse_full (text, length, TB_JSON_MAX_SIZE, TB_JSON_MAX_DEPTH, error);
}

/**
 * tb_json_parse_file:
 * @path: a file
 * @max_size: the largest file to read, in bytes
 * @error: return location for a #GFileError (cannot read) or a
 *   #TbJsonError (not usable JSON)
 *
 * Reads and parses a JSON file, refusing one larger than @max_size before
 * reading it.
 *
 * Returns: (transfer full) (nullable): the root node, sealed
 */
JsonNode *
tb_json_parse_file (const char  *path,
                    gsize        max_size,
                    GError     **error)
{
  g_autofree char *contents = NULL;
  GStatBuf st;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && (guint64) st.st_size > max_size)
    {
      g_autofree char *have = g_format_size_full (st.st_size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_LARGE,
                   /* Translators: both are sizes such as "12.0 MiB" */
                   _("The JSON text is %s, larger than the limit of %s"), have, limit);
      return NULL;
    }

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;

  return tb_json_parse_full (contents, length, max_size, TB_JSON_MAX_DEPTH, error);
}

/* Reads a JSON file for a caller with its own error domain: a file that
 * cannot be read keeps its #GFileError; text that is not usable JSON gives
 * an error in @domain with @code, whose message is @not_json (a translated
 * sentence with two "%s": the file's path, then what the parser said). */
JsonNode *
_tb_json_parse_file_in (const char  *path,
                        gsize        max_size,
                        GQuark       domain,
                        gint         code,
                        const char  *not_json,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonNode *node;

  node = tb_json_parse_file (path, max_size, &local_error);
  if (node != NULL)
    return node;

  if (local_error->domain == G_FILE_ERROR)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  g_set_error (error, domain, code, not_json, path, local_error->message);
#pragma GCC diagnostic pop
  return NULL;
}

static gboolean
depth_ok (JsonNode *node,
          guint     remaining)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        JsonNode *member;

        if (remaining == 0)
          return FALSE;

        json_object_iter_init (&iter, object);
        while (json_object_iter_next (&iter, NULL, &member))
          if (!depth_ok (member, remaining - 1))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        if (remaining == 0)
          return FALSE;

        for (guint i = 0; i < n; i++)
          if (!depth_ok (json_array_get_element (array, i), remaining - 1))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

/**
 * tb_json_node_depth_ok:
 * @node: a node built in memory
 * @max_depth: the deepest nesting allowed
 *
 * Checks a tree that did not come through tb_json_parse() (a tool's output
 * built in C, say) before it is generated or walked recursively.
 * The check itself recurses at most @max_depth + 1 levels.
 *
 * Returns: %TRUE when @node nests no deeper than @max_depth
 */
gboolean
tb_json_node_depth_ok (JsonNode *node,
                       guint     max_depth)
{
  if (node == NULL)
    return TRUE;
  return depth_ok (node, max_depth);
}

static gboolean
number_value (JsonNode *node,
              double   *value,
              gint64   *ivalue,
              gboolean *is_int)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_INT64)
    {
      *ivalue = json_node_get_int (node);
      *value = (double) *ivalue;
      *is_int = TRUE;
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      *value = json_node_get_double (node);
      *is_int = FALSE;
      return TRUE;
    }
  return FALSE;
}

static gboolean
equal_depth (JsonNode *a,
             JsonNode *b,
             guint     remaining)
{
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
      {
        double da, db;
        gint64 ia, ib;
        gboolean inta, intb;

        if (number_value (a, &da, &ia, &inta) && number_value (b, &db, &ib, &intb))
          {
            if (inta && intb)
              return ia == ib;
            return da == db;
          }
        if (json_node_get_value_type (a) != json_node_get_value_type (b))
          return FALSE;
        if (json_node_get_value_type (a) == G_TYPE_BOOLEAN)
          return json_node_get_boolean (a) == json_node_get_boolean (b);
        if (json_node_get_value_type (a) == G_TYPE_STRING)
          return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
        return FALSE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *aa = json_node_get_array (a);
        JsonArray *ab = json_node_get_array (b);
        guint n = json_array_get_length (aa);

        if (remaining == 0 || n != json_array_get_length (ab))
          return FALSE;
        for (guint i = 0; i < n; i++)
          if (!equal_depth (json_array_get_element (aa, i),
                            json_array_get_element (ab, i), remaining - 1))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a);
        JsonObject *ob = json_node_get_object (b);
        JsonObjectIter iter;
        const char *key;
        JsonNode *member;

        if (remaining == 0 || json_object_get_size (oa) != json_object_get_size (ob))
          return FALSE;
        json_object_iter_init (&iter, oa);
        while (json_object_iter_next (&iter, &key, &member))
          {
            JsonNode *other = json_object_get_member (ob, key);

            if (other == NULL || !equal_depth (member, other, remaining - 1))
              return FALSE;
          }
        return TRUE;
      }

    default:
      return FALSE;
    }
}

/**
 * tb_json_equal:
 * @a: (nullable): a node
 * @b: (nullable): a node
 *
 * JSON equality: numbers compare by value (1 equals 1.0), objects ignore
 * member order. Trees deeper than %TB_JSON_MAX_WALK_DEPTH compare unequal.
 *
 * Returns: %TRUE when @a and @b are the same JSON value; two %NULL nodes are equal
 */
gboolean
tb_json_equal (JsonNode *a,
               JsonNode *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return equal_depth (a, b, TB_JSON_MAX_WALK_DEPTH);
}

static JsonNode *
copy_depth (JsonNode *node,
            guint     remaining)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *in = json_node_get_object (node);
        JsonObject *out = json_object_new ();
        g_autoptr(GList) names = json_object_get_members (in);

        if (remaining > 0)
          for (const GList *l = names; l != NULL; l = l->next)
            json_object_set_member (out, l->data,
                                    copy_depth (json_object_get_member (in, l->data),
                                                remaining - 1));
        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (copy, out);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *in = json_node_get_array (node);
        guint n = json_array_get_length (in);
        JsonArray *out = json_array_sized_new (n);

        if (remaining > 0)
          for (guint i = 0; i < n; i++)
            json_array_add_element (out, copy_depth (json_array_get_element (in, i),
                                                     remaining - 1));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (copy, out);
        return copy;
      }

    case JSON_NODE_VALUE:
      {
        GValue value = G_VALUE_INIT;

        copy = json_node_new (JSON_NODE_VALUE);
        json_node_get_value (node, &value);
        json_node_set_value (copy, &value);
        g_value_unset (&value);
        return copy;
      }

    case JSON_NODE_NULL:
    default:
      return json_node_new (JSON_NODE_NULL);
    }
}

/**
 * tb_json_copy:
 * @node: (nullable): a node
 *
 * A deep, mutable copy. json_node_copy() shares the objects and arrays of
 * the original, so changing its copy changes the original too; use this
 * instead. Member order is kept. Levels below %TB_JSON_MAX_WALK_DEPTH are
 * dropped (check with tb_json_node_depth_ok() first when that matters).
 *
 * Returns: (transfer full) (nullable): the copy
 */
JsonNode *
tb_json_copy (JsonNode *node)
{
  if (node == NULL)
    return NULL;

  return copy_depth (node, TB_JSON_MAX_WALK_DEPTH);
}

/**
 * tb_json_node_take_object:
 * @object: (transfer full): an object
 *
 * Wraps an object in a node without copying it, for building replies and
 * requests.
 *
 * Returns: (transfer full): a node holding @object, which it now owns
 */
JsonNode *
tb_json_node_take_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

/**
 * tb_json_freeze:
 * @node: (nullable): a node
 *
 * Makes a value safe to keep and to share between threads: nobody can change
 * a sealed node. Use it for JSON that an object keeps and hands out with
 * `(transfer none)`.
 *
 * Returns: (transfer full) (nullable): @node itself when it is already
 *   sealed, otherwise a sealed deep copy nobody else can change
 */
JsonNode *
tb_json_freeze (JsonNode *node)
{
  JsonNode *copy;

  if (node == NULL)
    return NULL;
  if (json_node_is_immutable (node))
    return json_node_ref (node);

  copy = copy_depth (node, TB_JSON_MAX_WALK_DEPTH);
  json_node_seal (copy);
  return copy;
}

/**
 * tb_json_node_new_object:
 *
 * Makes a node holding a new, empty and mutable JSON object, to be filled
 * with json_object_set_member() and friends.
 *
 * Returns: (transfer full): the new node
 */
JsonNode *
tb_json_node_new_object (void)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, json_object_new ());
  return node;
}

/**
 * tb_json_node_new_string:
 * @value: the string, UTF-8
 *
 * Makes a node holding a JSON string; @value is copied.
 *
 * Returns: (transfer full): the new node
 */
JsonNode *
tb_json_node_new_string (const char *value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, value);
  return node;
}

/**
 * tb_json_describe_type:
 * @node: (nullable): a node
 *
 * Names the type of a JSON value in the words error messages use, telling
 * whole numbers from other numbers as JSON Schema does.
 *
 * Returns: (transfer full): the JSON type name of @node as a person reads it:
 *   "object", "array", "string", "integer", "number", "boolean" or "null"
 */
char *
tb_json_describe_type (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  if (JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup ("object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return g_strdup ("array");

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return g_strdup ("string");
    case G_TYPE_INT64:
      return g_strdup ("integer");
    case G_TYPE_DOUBLE:
      {
        double d = json_node_get_double (node);
        return g_strdup (isfinite (d) && d == floor (d) ? "integer" : "number");
      }
    case G_TYPE_BOOLEAN:
      return g_strdup ("boolean");
    default:
      return g_strdup ("value");
    }
}

/**
 * tb_json_object_get_string:
 * @object: (nullable): an object
 * @member: a member name
 *
 * json-glib's getters emit a critical warning for a missing member or one
 * of another type; JSON from outside has both. These return %NULL instead.
 *
 * Returns: (nullable): the member's string value
 */
const char *
tb_json_object_get_string (JsonObject *object,
                           const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/**
 * tb_json_object_get_boolean:
 * @object: (nullable): an object
 * @member: a member's name
 * @default_value: what a missing member, or one that is not a boolean,
 *   counts as
 *
 * Unlike json_object_get_boolean_member_with_default(), a member that is
 * an object, an array or null is not a programming error here: input
 * from outside may hold anything.
 *
 * Returns: the member if it is a boolean, else @default_value
 */
gboolean
tb_json_object_get_boolean (JsonObject *object,
                            const char *member,
                            gboolean    default_value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return default_value;
  return json_node_get_boolean (node);
}

/**
 * tb_json_object_get_object:
 * @object: an object, or %NULL
 * @member: the member's name
 *
 * Reads a member that should be an object without the critical warning
 * json_object_get_object_member() emits for a missing member or one of
 * another type; use it on JSON from outside.
 *
 * Returns: (nullable) (transfer none): the member if it is an object
 */
JsonObject *
tb_json_object_get_object (JsonObject *object,
                           const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/**
 * tb_json_object_get_array:
 * @object: an object, or %NULL
 * @member: the member's name
 *
 * Reads a member that should be an array without the critical warning
 * json_object_get_array_member() emits for a missing member or one of
 * another type; use it on JSON from outside.
 *
 * Returns: (nullable) (transfer none): the member if it is an array
 */
JsonArray *
tb_json_object_get_array (JsonObject *object,
                          const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/**
 * tb_json_format_double:
 * @value: a number
 *
 * The shortest text that reads back as @value, as a person would write it:
 * "3.14", not "3.1400000000000001" (what `%.17g` and json-glib print);
 * "100", not "1e+02"; an exponent only for very large or small numbers
 * ("1e+30"). Always a point, never the locale's comma.
 *
 * Returns: (transfer full): the text
 */
char *
tb_json_format_double (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char format[16];
  int precision;

  for (precision = 1; precision < 17; precision++)
    {
      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  g_snprintf (format, sizeof format, "%%.%dg", precision);
  g_ascii_formatd (buffer, sizeof buffer, format, value);

  /* %g writes 100 as 1e+02 at one digit; plain notation up to 17 digits. */
  if (strchr (buffer, 'e') != NULL && isfinite (value) && value != 0)
    {
      int exponent = (int) floor (log10 (fabs (value)));

      if (exponent >= -5 && exponent < 17)
        {
          char fixed[G_ASCII_DTOSTR_BUF_SIZE];

          g_snprintf (format, sizeof format, "%%.%df", MAX (0, precision - 1 - exponent));
          g_ascii_formatd (fixed, sizeof fixed, format, value);
          if (g_ascii_strtod (fixed, NULL) == value)
            memcpy (buffer, fixed, sizeof buffer);
        }
    }
  return g_strdup (buffer);
}

/**
 * tb_json_object_get_int_in_range:
 * @object: (nullable): an object
 * @member: a member name
 * @min: the smallest value accepted
 * @max: the largest value accepted
 * @value: (inout): set to the member's value when it is present and valid;
 *   left as it is when the member is absent
 * @error: return location for a %TB_JSON_ERROR_OUT_OF_RANGE error
 *
 * Reads a whole number from JSON that came from outside, checking it where
 * it is read: a value that does not fit the reader's type (a 64-bit count
 * handed to a 32-bit field, a negative size) must never be truncated into
 * something else. The error names @member; callers say where it was.
 *
 * Returns: %FALSE when the member is present but not a whole number from
 *   @min to @max
 */
gboolean
tb_json_object_get_int_in_range (JsonObject  *object,
                                 const char  *member,
                                 gint64       min,
                                 gint64       max,
                                 gint64      *value,
                                 GError     **error)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  g_autofree char *shown = NULL;

  g_return_val_if_fail (member != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (min <= max, FALSE);

  if (node == NULL)
    return TRUE;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      gint64 v = json_node_get_int (node);

      if (v >= min && v <= max)
        {
          *value = v;
          return TRUE;
        }
    }

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    shown = tb_json_format_double (json_node_get_double (node));
  else
    shown = tb_json_to_string (node, FALSE);
  if (g_utf8_strlen (shown, -1) > 40)
    {
      g_autofree char *start = g_utf8_substring (shown, 0, 37);

      g_free (shown);
      shown = g_strconcat (start, "…", NULL);
    }
  g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_OUT_OF_RANGE,
               /* Translators: “%s” is a JSON member name, then its value; the numbers
                * are the range accepted */
               _("“%s” is %s; it must be a whole number from %" PRId64 " to %" PRId64),
               member, shown, min, max);
  return FALSE;
}
