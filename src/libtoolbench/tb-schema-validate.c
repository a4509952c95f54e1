/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Validating an instance against a compiled schema. */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

/* PRId64: the one 64-bit format xgettext understands in a message */
#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-schema-message-private.h"
#include "tb-schema-validate-private.h"
#include "tb-text-private.h"

/* ------------------------------------------------------------------ */
/* Validation                                                         */
/* ------------------------------------------------------------------ */


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


/* Text built on the stack, moving to the heap only when it grows long. */
typedef struct
{
  char  *str;
  gsize  len;
  gsize  cap;
  char   stack[256];
} Buf;

static inline void
buf_init (Buf *b)
{
  b->str = b->stack;
  b->len = 0;
  b->cap = sizeof b->stack;
  b->stack[0] = '\0';
}

static void
buf_append_len (Buf        *b,
                const char *text,
                gsize       len)
{
  if (G_UNLIKELY (b->len + len + 1 > b->cap))
    {
      gsize cap = MAX (b->cap * 2, b->len + len + 1);

      if (b->str == b->stack)
        {
          b->str = g_malloc (cap);
          memcpy (b->str, b->stack, b->len);
        }
      else
        b->str = g_realloc (b->str, cap);
      b->cap = cap;
    }
  memcpy (b->str + b->len, text, len);
  b->len += len;
  b->str[b->len] = '\0';
}

static inline void
buf_append (Buf        *b,
            const char *text)
{
  buf_append_len (b, text, strlen (text));
}

static inline void
buf_clear (Buf *b)
{
  if (b->str != b->stack)
    g_free (b->str);
}

/* Appends the JSON Pointer of the value being validated to @out. */
static void
instance_pointer (VCtx *v,
                  Buf  *out)
{
  for (guint i = 0; i < v->path_len; i++)
    {
      const char *name = v->path[i].name;

      buf_append_len (out, "/", 1);
      if (name == NULL)
        {
          char digits[TB_TEXT_INTEGER_MAX];

          buf_append_len (out, digits, _tb_text_put_integer (digits, v->path[i].index, FALSE));
        }
      else if (strpbrk (name, "~/") == NULL)
        buf_append (out, name);
      else
        for (const char *c = name; *c != '\0'; c++)
          {
            if (*c == '~')
              buf_append_len (out, "~0", 2);
            else if (*c == '/')
              buf_append_len (out, "~1", 2);
            else
              buf_append_len (out, c, 1);
          }
    }
}

/* Formats the messages' own directives — %s, %d, %u, %li, %lu, %lli, %llu
 * and %% — into @buf without printf, which took longer than the rest of
 * an error. Returns the length written, or -1 when @format holds anything
 * else (a positional argument of a translation, say) or does not fit:
 * then printf formats it. */
static int
format_simple (char       *buf,
               gsize       size,
               const char *format,
               va_list     args)
{
  gsize len = 0;

  for (const char *p = format; *p != '\0'; )
    {
      const char *percent = strchr (p, '%');
      gsize plain = percent != NULL ? (gsize) (percent - p) : strlen (p);
      guint longs = 0;

      if (plain >= size - len)
        return -1;
      memcpy (buf + len, p, plain);
      len += plain;
      if (percent == NULL)
        break;
      p = percent + 1;
      while (*p == 'l' && longs < 2)
        {
          longs++;
          p++;
        }
      if (size - len < 24)
        return -1;
      switch (*p)
        {
        case 's':
          {
            const char *arg;
            gsize arg_len;

            if (longs > 0)
              return -1;
            arg = va_arg (args, const char *);
            arg_len = strlen (arg);
            if (arg_len >= size - len)
              return -1;
            memcpy (buf + len, arg, arg_len);
            len += arg_len;
          }
          break;
        case 'd':
        case 'i':
          {
            gint64 value = longs == 0 ? va_arg (args, int)
                         : longs == 1 ? va_arg (args, long)
                                      : va_arg (args, long long);

            len += _tb_text_put_integer (buf + len,
                                         value < 0 ? -(guint64) value : (guint64) value,
                                         value < 0);
          }
          break;
        case 'u':
          {
            guint64 value = longs == 0 ? va_arg (args, unsigned int)
                          : longs == 1 ? va_arg (args, unsigned long)
                                       : va_arg (args, unsigned long long);

            len += _tb_text_put_integer (buf + len, value, FALSE);
          }
          break;
        case '%':
          if (longs > 0)
            return -1;
          buf[len++] = '%';
          break;
        default:
          return -1;
        }
      p++;
    }
  buf[len] = '\0';
  return len <= G_MAXINT ? (int) len : -1;
}

/* Whether @len bytes at @text are UTF-8: ASCII, as most messages and
 * paths are, is seen eight bytes at a time. */
static inline gboolean
is_utf8 (const char *text,
         gsize       len)
{
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 word;

      memcpy (&word, text + i, 8);
      if (word & G_GUINT64_CONSTANT (0x8080808080808080))
        return g_utf8_validate_len (text + i, len - i, NULL);
    }
  for (; i < len; i++)
    if ((guchar) text[i] & 0x80)
      return g_utf8_validate_len (text + i, len - i, NULL);
  return TRUE;
}

void
_tb_schema_report_error (VCtx       *v,
              Node       *node,
              const char *keyword,
              const char *format,
              ...)
{
  char message_buf[256];
  g_autofree char *message_heap = NULL;
  g_autofree char *valid_message = NULL;
  g_autofree char *valid_path = NULL;
  const char *message = message_buf;
  gsize message_len;
  Buf path, location;
  va_list args;
  int written;

  /* Everything is formatted on the stack and copied once into the error's
   * single allocation; the heap is used only for long paths and messages. */
  va_start (args, format);
  written = format_simple (message_buf, sizeof message_buf, format, args);
  va_end (args);
  if (written < 0)
    {
      va_start (args, format);
      written = g_vsnprintf (message_buf, sizeof message_buf, format, args);
      va_end (args);
    }
  if (written < 0 || (gsize) written >= sizeof message_buf)
    {
      va_start (args, format);
      message_heap = g_strdup_vprintf (format, args);
      va_end (args);
      message = message_heap;
      message_len = strlen (message);
    }
  else
    message_len = written;
  /* Names from a node built in C may not be UTF-8; the message must be. */
  if (G_UNLIKELY (!is_utf8 (message, message_len)))
    {
      valid_message = g_utf8_make_valid (message, message_len);
      message = valid_message;
      message_len = strlen (message);
    }

  buf_init (&path);
  instance_pointer (v, &path);
  if (G_UNLIKELY (!is_utf8 (path.str, path.len)))
    valid_path = g_utf8_make_valid (path.str, path.len);

  buf_init (&location);
  buf_append (&location, node->location);
  if (keyword[0] != '\0')
    {
      buf_append_len (&location, "/", 1);
      buf_append (&location, keyword);
    }

  g_ptr_array_add (v->errors,
                   _tb_schema_error_new_len (valid_path != NULL ? valid_path : path.str,
                                             valid_path != NULL ? strlen (valid_path) : path.len,
                                             location.str, location.len,
                                             keyword[0] != '\0' ? keyword : "false",
                                             keyword[0] != '\0' ? strlen (keyword) : 5,
                                             message, message_len));
  buf_clear (&path);
  buf_clear (&location);
}

#define validate _tb_schema_validate_node

gboolean
_tb_schema_push_name (VCtx       *v,
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

gboolean
_tb_schema_push_index (VCtx       *v,
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

char *
_tb_schema_describe_types (guint8 types)
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
gint64
_tb_schema_count_code_points (const char *s,
                   gsize       len)
{
  gint64 count = 0;

  for (gsize i = 0; i < len; i++)
    count += ((guchar) s[i] & 0xC0) != 0x80;
  return count;
}

/* The string keywords (minLength, maxLength, pattern, format) of @n for
 * @string, @len bytes of valid UTF-8: one place for the tree validator
 * and the text validator. */
gboolean
_tb_schema_check_string (VCtx       *v,
                         Node       *n,
                         const char *string,
                         gsize       len)
{
  gboolean ok = TRUE;

  if (n->min_length >= 0 || n->max_length >= 0)
    {
      gint64 count = _tb_schema_count_code_points (string, len);

      if (n->min_length >= 0 && count < n->min_length)
        {
          report (v, n, "minLength",
                  g_dngettext (GETTEXT_PACKAGE,
                               "must be at least %" PRId64 " character long",
                               "must be at least %" PRId64 " characters long",
                               n->min_length), n->min_length);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
      if (n->max_length >= 0 && count > n->max_length)
        {
          report (v, n, "maxLength",
                  g_dngettext (GETTEXT_PACKAGE,
                               "must be at most %" PRId64 " character long",
                               "must be at most %" PRId64 " characters long",
                               n->max_length), n->max_length);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }

  if (n->pattern != NULL)
    {
      int matched = _tb_schema_regex_match (n->pattern, string, len);

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

  if (n->assert_format && !_tb_schema_format_check (n->format, string))
    {
      report (v, n, "format", _("is not a valid %s"), n->format);
      ok = FALSE;
    }

  return ok;
}

G_GNUC_NO_INLINE static gboolean
validate_string (VCtx     *v,
                 Node     *n,
                 JsonNode *instance)
{
  const char *s = json_node_get_string (instance);
  const char *end;

  if (!g_utf8_validate (s, -1, &end))
    {
      report (v, n, "type", _("is not valid UTF-8 text"));
      return FALSE;
    }
  return _tb_schema_check_string (v, n, s, end - s);
}

/* minItems and maxItems against an array of @count items: one place for
 * the tree validator and the text validator. After a failure the second
 * is checked only when all errors are collected. */
gboolean
_tb_schema_check_n_items (VCtx   *v,
                          Node   *n,
                          gint64  count)
{
  gboolean ok = TRUE;

  if (n->min_items >= 0 && count < n->min_items)
    {
      report (v, n, "minItems",
              g_dngettext (GETTEXT_PACKAGE, "must have at least %" PRId64 " item",
                           "must have at least %" PRId64 " items", n->min_items),
              n->min_items);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->max_items >= 0 && count > n->max_items)
    {
      report (v, n, "maxItems",
              g_dngettext (GETTEXT_PACKAGE, "must have at most %" PRId64 " item",
                           "must have at most %" PRId64 " items", n->max_items),
              n->max_items);
      ok = FALSE;
    }
  return ok;
}

/* minProperties and maxProperties against an object of @count members, as
 * _tb_schema_check_n_items() does for arrays. */
gboolean
_tb_schema_check_n_properties (VCtx   *v,
                               Node   *n,
                               gint64  count)
{
  gboolean ok = TRUE;

  if (n->min_properties >= 0 && count < n->min_properties)
    {
      report (v, n, "minProperties",
              g_dngettext (GETTEXT_PACKAGE, "must have at least %" PRId64 " property",
                           "must have at least %" PRId64 " properties",
                           n->min_properties), n->min_properties);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->max_properties >= 0 && count > n->max_properties)
    {
      report (v, n, "maxProperties",
              g_dngettext (GETTEXT_PACKAGE, "must have at most %" PRId64 " property",
                           "must have at most %" PRId64 " properties",
                           n->max_properties), n->max_properties);
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

  if (!_tb_schema_check_n_items (v, n, len))
    {
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

      if (!_tb_schema_push_index (v, n, "prefixItems", i))
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

          if (!_tb_schema_push_index (v, n, "items", i))
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

          if (!_tb_schema_push_index (v, n, "contains", i))
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
                                 "must contain at least %" PRId64 " item that matches "
                                 "the schema in contains",
                                 "must contain at least %" PRId64 " items that match "
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
                               "must contain at most %" PRId64 " item that matches "
                               "the schema in contains",
                               "must contain at most %" PRId64 " items that match "
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

  if (!_tb_schema_check_n_properties (v, n, size))
    {
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
              if (!_tb_schema_push_name (v, n, "properties", name))
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
                  if (!_tb_schema_push_name (v, n, "patternProperties", name))
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
                  if (!_tb_schema_push_name (v, n, "additionalProperties", name))
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

              if (!_tb_schema_push_name (v, n, "unevaluatedProperties", name))
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

              if (!_tb_schema_push_index (v, n, "unevaluatedItems", i))
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
      g_autofree char *wanted = _tb_schema_describe_types (all_types);
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
          g_autofree char *wanted = _tb_schema_describe_types (n->types);
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

gboolean
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
 * @errors: (out) (optional) (transfer container) (element-type TbSchemaError):
 *   every reason @instance does not match, in the order found; empty when valid
 *
 * Checks a value against the schema and collects every reason it does not
 * match, as tb_schema_validate_full() does with
 * %TB_SCHEMA_VALIDATE_ALL_ERRORS. The messages are sentences a person reads
 * ("must be at most 10"), each with the place in @instance it is about.
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

/* About 50 KiB, once per thread: on the heap so that worker threads with
 * small stacks are safe, and reused so that a validation allocates nothing
 * unless it has errors to return. The GPrivate frees it when the thread
 * ends; the thread-local pointer is the fast way to it. */
VCtx *
_tb_schema_context_get (GPtrArray *errors,
                        gboolean   collect)
{
  VCtx *v = thread_context;

  if (G_UNLIKELY (v == NULL))
    {
      v = g_new (VCtx, 1);
      g_private_set (&thread_context_owner, v);
      thread_context = v;
    }
  v->errors = errors;
  v->collect = collect;
  v->quiet = 0;
  v->depth = 0;
  v->overflow_reported = FALSE;
  v->path_len = 0;
  v->base_depth[0] = 0;
  v->scope_len = 0;
  return v;
}

/**
 * tb_schema_validate_full:
 * @self: a compiled schema
 * @instance: the value to check
 * @flags: %TB_SCHEMA_VALIDATE_FIRST_ERROR to stop at the first error
 * @errors: (out) (optional) (transfer container) (element-type TbSchemaError):
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

  /* First the verdict alone, which stops at the first failure and builds no
   * message; most arguments are valid, so most calls end here. */
  v = _tb_schema_context_get (NULL, FALSE);
  ok = validate (v, self->root, instance, NULL);

  if (errors == NULL)
    return ok;

  *errors = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
  if (ok)
    return TRUE;

  /* Then again, to say why. */
  v = _tb_schema_context_get (*errors, (flags & TB_SCHEMA_VALIDATE_FIRST_ERROR) == 0);
  validate (v, self->root, instance, NULL);
  v->errors = NULL;

  if ((*errors)->len == 0)
    g_ptr_array_add (*errors, tb_schema_error_new ("", "", "", _("does not match the schema")));

  return FALSE;
}
