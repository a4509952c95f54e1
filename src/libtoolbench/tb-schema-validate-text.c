/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Validating JSON text against a compiled schema without building a tree:
 * one pass over the text that reads each value and checks it where it
 * stands. It handles the schemas whose every node needs only the value in
 * front of it (see node_streams_alone()); for the others, and for any text
 * it is not sure of, it hands the text to tb_json_parse() and the tree
 * validator, so that both always give the same verdict, the same errors
 * and, for text that is not JSON, the same sentences. */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tb-schema-message-private.h"
#include "tb-schema-validate-private.h"

/* Most distinct member names an object may have beyond its schema's
 * properties before the text goes to the tree validator: duplicates are
 * found by comparing each with the others. */
#define MAX_OTHER_NAMES 16

/* Most properties a streamed object schema may have: which were seen is a
 * 64-bit set. */
#define MAX_STREAM_PROPERTIES 64

/* ------------------------------------------------------------------ */
/* Which nodes stream                                                 */
/* ------------------------------------------------------------------ */

static gboolean
is_scalar (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) || JSON_NODE_HOLDS_NULL (node);
}

/* The keywords of @n read only the value they apply to, once, in order. */
static gboolean
node_streams_alone (Node *n)
{
  if (n->is_bool || n->ref_only)
    return TRUE;
  if (n->ref != NULL || n->dynamic_ref != NULL || n->unique_items || n->contains != NULL ||
      n->unevaluated_items != NULL || n->unevaluated_properties != NULL ||
      n->n_pattern_properties > 0 || n->property_names != NULL ||
      n->n_dependent_required > 0 || n->n_dependent_schemas > 0 || n->n_all_of > 0 ||
      n->n_any_of > 0 || n->n_one_of > 0 || n->not_schema != NULL || n->if_schema != NULL ||
      n->n_properties > MAX_STREAM_PROPERTIES)
    return FALSE;
  if (n->has_const && !is_scalar (n->const_value))
    return FALSE;
  if (n->enum_values != NULL)
    for (guint i = 0; i < n->enum_values->len; i++)
      if (!is_scalar (g_ptr_array_index (n->enum_values, i)))
        return FALSE;
  return TRUE;
}

/* A cheap first comparison of member names: length and first byte. */
static inline guint32
property_key (const char *name,
              gsize       len)
{
  return (guint32) MIN (len, G_MAXUINT32 >> 8) << 8 | (len > 0 ? (guchar) name[0] : 0);
}

static void
add_edge (GHashTable *parents,
          Node       *child,
          Node       *parent)
{
  GPtrArray *list;

  if (child == NULL)
    return;
  list = g_hash_table_lookup (parents, child);
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (parents, child, list);
    }
  g_ptr_array_add (list, parent);
}

/* A node streams when it and every node it applies to the values below it
 * stream alone. References make the graph cyclic, so the nodes that do not
 * stream alone mark, through the reversed edges, every node that reaches
 * them: linear in the size of the graph. */
void
_tb_schema_prepare_stream (TbSchema *self)
{
  g_autoptr(GHashTable) parents = NULL;
  g_autoptr(GPtrArray) queue = NULL;

  if (!g_once_init_enter (&self->stream_ready))
    return;

  parents = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  queue = g_ptr_array_new ();

  for (guint i = 0; i < self->nodes->len; i++)
    {
      Node *n = g_ptr_array_index (self->nodes, i);

      n->streamable = TRUE;
      if (n->is_bool)
        continue;
      if (n->ref_only)
        {
          add_edge (parents, n->ref, n);
          continue;
        }
      if (n->n_properties > 0)
        n->property_keys = g_new (guint32, n->n_properties);
      for (guint j = 0; j < n->n_properties; j++)
        {
          add_edge (parents, n->properties[j].schema, n);
          n->property_keys[j] = property_key (n->properties[j].name,
                                              strlen (n->properties[j].name));
        }
      add_edge (parents, n->additional_properties, n);
      add_edge (parents, n->items, n);
      for (guint j = 0; j < n->n_prefix_items; j++)
        add_edge (parents, n->prefix_items[j], n);
      if (n->required != NULL && n->n_properties <= MAX_STREAM_PROPERTIES)
        {
          guint n_required = g_strv_length (n->required);

          n->required_index = g_new (gint8, MAX (n_required, 1));
          for (guint r = 0; r < n_required; r++)
            {
              n->required_index[r] = -1;
              for (guint j = 0; j < n->n_properties; j++)
                if (g_str_equal (n->required[r], n->properties[j].name))
                  n->required_index[r] = j;
            }
        }
    }

  for (guint i = 0; i < self->nodes->len; i++)
    {
      Node *n = g_ptr_array_index (self->nodes, i);

      if (!node_streams_alone (n))
        {
          n->streamable = FALSE;
          g_ptr_array_add (queue, n);
        }
    }
  while (queue->len > 0)
    {
      Node *n = g_ptr_array_steal_index_fast (queue, queue->len - 1);
      GPtrArray *list = g_hash_table_lookup (parents, n);

      for (guint i = 0; list != NULL && i < list->len; i++)
        {
          Node *parent = g_ptr_array_index (list, i);

          if (parent->streamable)
            {
              parent->streamable = FALSE;
              g_ptr_array_add (queue, parent);
            }
        }
    }

  g_once_init_leave (&self->stream_ready, 1);
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

typedef struct
{
  VCtx       *v;
  const char *p;
  const char *end;
  guint64     values;    /* counted as tb_json_max_values() counts them */
  guint       depth;     /* arrays and objects open */
  guint       applied;   /* schemas applied inside one another */
  gboolean    bail;      /* the tree validator must decide */
  gboolean    skipping;  /* the verdict or first error is known: only read on */
} TCtx;

typedef struct
{
  guint       types;
  const char *raw;       /* strings: the text between the quotes */
  gsize       raw_len;
  gboolean    escaped;
  gboolean    is_int;
  gint64      ivalue;
  double      dvalue;
  gboolean    bvalue;
} Scalar;

/* Text built on the stack, on the heap only when it grows long. */
typedef struct
{
  char  *str;
  gsize  len;
  char   stack[64];
} Text;

static inline void
text_clear (Text *t)
{
  if (t->str != NULL && t->str != t->stack)
    g_free (t->str);
  t->str = NULL;
}

static inline gboolean
bail (TCtx *t)
{
  t->bail = TRUE;
  return FALSE;
}

static inline void
skip_blank (TCtx *t)
{
  while (t->p < t->end && (*t->p == ' ' || *t->p == '\n' || *t->p == '\r' || *t->p == '\t'))
    t->p++;
}

static inline int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Bytes a string reads on past without a second look: not a quote, a
 * backslash, a control character or the start of a multi-byte sequence. */
static const guint8 plain_byte[256] = {
  [0x20] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x22 is '"' */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,            /* 0x5C is '\\' */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* At the opening quote. Strict RFC 8259; what json-glib reads differently
 * (a raw control character, "\u0000", a lone or paired surrogate) is left
 * to it. */
static gboolean
read_string (TCtx   *t,
             Scalar *s)
{
  const char *p = t->p + 1;
  gboolean high = FALSE;

  s->types = T_STRING;
  s->raw = p;
  s->escaped = FALSE;
  for (;;)
    {
      guchar c;

      while (p < t->end && plain_byte[(guchar) *p])
        p++;
      if (G_UNLIKELY (p >= t->end))
        return bail (t);
      c = *p;
      if (c == '"')
        break;
      if (G_UNLIKELY (c < 0x20))
        return bail (t);
      if (c >= 0x80)
        high = TRUE;
      else if (c == '\\')
        {
          s->escaped = TRUE;
          if (p + 1 >= t->end)
            return bail (t);
          switch (p[1])
            {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
              p += 2;
              continue;
            case 'u':
              {
                int code = 0;

                if (p + 5 >= t->end)
                  return bail (t);
                for (guint i = 2; i < 6; i++)
                  {
                    int h = hex_value (p[i]);

                    if (h < 0)
                      return bail (t);
                    code = code * 16 + h;
                  }
                if (code == 0 || (code >= 0xD800 && code <= 0xDFFF))
                  return bail (t);
                p += 6;
                continue;
              }
            default:
              return bail (t);
            }
        }
      p++;
    }
  s->raw_len = p - s->raw;
  if (high && !g_utf8_validate_len (s->raw, s->raw_len, NULL))
    return bail (t);
  t->p = p + 1;
  t->values++;
  return TRUE;
}

/* The string's value, nul-terminated; escapes were checked by read_string(). */
static const char *
string_value (const Scalar *s,
              Text         *out)
{
  gsize size = s->raw_len + 1;
  char *w;

  out->str = size <= sizeof out->stack ? out->stack : g_malloc (size);
  w = out->str;
  if (!s->escaped)
    {
      memcpy (w, s->raw, s->raw_len);
      w += s->raw_len;
    }
  else
    for (const char *p = s->raw; p < s->raw + s->raw_len; p++)
      {
        if (*p != '\\')
          {
            *w++ = *p;
            continue;
          }
        p++;
        switch (*p)
          {
          case 'b': *w++ = '\b'; break;
          case 'f': *w++ = '\f'; break;
          case 'n': *w++ = '\n'; break;
          case 'r': *w++ = '\r'; break;
          case 't': *w++ = '\t'; break;
          case 'u':
            {
              gunichar code = 0;

              for (guint i = 1; i < 5; i++)
                code = code * 16 + hex_value (p[i]);
              w += g_unichar_to_utf8 (code, w);  /* at most 3 bytes: no surrogates */
              p += 4;
              break;
            }
          default: *w++ = *p; break;
          }
      }
  *w = '\0';
  out->len = w - out->str;
  return out->str;
}

static gboolean
read_number (TCtx   *t,
             Scalar *s)
{
  const char *p = t->p;
  const char *start = p;
  const char *digits;
  gboolean fraction = FALSE;

  if (p < t->end && *p == '-')
    p++;
  digits = p;
  if (p >= t->end || !g_ascii_isdigit (*p))
    return bail (t);
  if (*p == '0')
    p++;
  else
    while (p < t->end && g_ascii_isdigit (*p))
      p++;
  if (p < t->end && *p == '.')
    {
      fraction = TRUE;
      p++;
      if (p >= t->end || !g_ascii_isdigit (*p))
        return bail (t);
      while (p < t->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < t->end && (*p == 'e' || *p == 'E'))
    {
      fraction = TRUE;
      p++;
      if (p < t->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= t->end || !g_ascii_isdigit (*p))
        return bail (t);
      while (p < t->end && g_ascii_isdigit (*p))
        p++;
    }
  /* json-glib reads "01", "1." and "0x1" its own way: let it. */
  if (p < t->end && (g_ascii_isalnum (*p) || *p == '.' || *p == '-' || *p == '+'))
    return bail (t);

  s->types = T_NUMBER;
  if (!fraction)
    {
      gint64 value = 0;

      /* Beyond 18 digits the parser's own rules for int64 overflow apply. */
      if (p - digits > 18)
        return bail (t);
      for (const char *d = digits; d < p; d++)
        value = value * 10 + (*d - '0');
      s->is_int = TRUE;
      s->ivalue = *start == '-' ? -value : value;
      s->dvalue = (double) s->ivalue;
      s->types |= T_INTEGER;
    }
  else
    {
      char buffer[64];

      if ((gsize) (p - start) >= sizeof buffer)
        return bail (t);
      memcpy (buffer, start, p - start);
      buffer[p - start] = '\0';
      s->is_int = FALSE;
      s->dvalue = g_ascii_strtod (buffer, NULL);
      if (!isfinite (s->dvalue))
        return bail (t);
      if (s->dvalue == floor (s->dvalue))
        s->types |= T_INTEGER;
    }
  t->p = p;
  t->values++;
  return TRUE;
}

static gboolean
read_word (TCtx       *t,
           const char *word,
           gsize       len)
{
  if ((gsize) (t->end - t->p) < len || memcmp (t->p, word, len) != 0)
    return bail (t);
  t->p += len;
  if (t->p < t->end && (g_ascii_isalnum (*t->p) || *t->p == '_'))
    return bail (t);
  t->values++;
  return TRUE;
}

static gboolean
read_scalar (TCtx   *t,
             Scalar *s)
{
  switch (*t->p)
    {
    case '"':
      return read_string (t, s);
    case 't':
      s->types = T_BOOLEAN;
      s->bvalue = TRUE;
      return read_word (t, "true", 4);
    case 'f':
      s->types = T_BOOLEAN;
      s->bvalue = FALSE;
      return read_word (t, "false", 5);
    case 'n':
      s->types = T_NULL;
      return read_word (t, "null", 4);
    default:
      return read_number (t, s);
    }
}

static gboolean skip_value (TCtx *t);

static gboolean
open_container (TCtx *t)
{
  if (++t->depth > TB_JSON_MAX_DEPTH)
    return bail (t);
  t->values += *t->p == '{' ? 3 : 1;
  t->p++;
  return TRUE;
}

/* Reads a member name and its colon. */
static gboolean
read_name (TCtx   *t,
           Scalar *s)
{
  skip_blank (t);
  if (t->p >= t->end || *t->p != '"' || !read_string (t, s))
    return bail (t);
  skip_blank (t);
  if (t->p >= t->end || *t->p != ':')
    return bail (t);
  t->p++;
  return TRUE;
}

/* After a member or an item: TRUE with *more when a comma follows. */
static gboolean
read_separator (TCtx     *t,
                char      close,
                gboolean *more)
{
  skip_blank (t);
  if (t->p >= t->end)
    return bail (t);
  if (*t->p == ',')
    *more = TRUE;
  else if (*t->p == close)
    {
      *more = FALSE;
      t->depth--;
    }
  else
    return bail (t);
  t->p++;
  return TRUE;
}

/* At the first member or item, or the closing bracket. */
static gboolean
at_empty (TCtx *t,
          char  close)
{
  skip_blank (t);
  if (t->p < t->end && *t->p == close)
    {
      t->p++;
      t->depth--;
      return TRUE;
    }
  return FALSE;
}

/* Reads a value, checking only that it is JSON. */
static gboolean
skip_value (TCtx *t)
{
  gboolean more = TRUE;
  Scalar s;

  skip_blank (t);
  if (t->p >= t->end)
    return bail (t);
  switch (*t->p)
    {
    case '{':
      if (!open_container (t))
        return FALSE;
      if (at_empty (t, '}'))
        return TRUE;
      while (more)
        if (!read_name (t, &s) || !skip_value (t) || !read_separator (t, '}', &more))
          return FALSE;
      return TRUE;
    case '[':
      if (!open_container (t))
        return FALSE;
      if (at_empty (t, ']'))
        return TRUE;
      while (more)
        if (!skip_value (t) || !read_separator (t, ']', &more))
          return FALSE;
      return TRUE;
    default:
      return read_scalar (t, &s);
    }
}

/* ------------------------------------------------------------------ */
/* Checking                                                           */
/* ------------------------------------------------------------------ */

/* As the tree validator, so that a failure with FIRST_ERROR or for a
 * verdict ends the checking. */
static inline void
failed (TCtx *t)
{
  if (STOP (t->v))
    t->skipping = TRUE;
}

static const char *
type_name (guint types)
{
  if (types & T_OBJECT)
    return "object";
  if (types & T_ARRAY)
    return "array";
  if (types & T_STRING)
    return "string";
  if (types & T_INTEGER)
    return "integer";
  if (types & T_NUMBER)
    return "number";
  if (types & T_BOOLEAN)
    return "boolean";
  return "null";
}

static void
report_type (VCtx  *v,
             Node  *n,
             guint  types)
{
  if (wants_errors (v))
    {
      g_autofree char *wanted = _tb_schema_describe_types (n->types);

      _tb_schema_report_error (v, n, "type", _("must be of type %s, not %s"), wanted,
                               type_name (types));
    }
}

/* tb_json_equal() of a scalar of the schema and one of the text. */
static gboolean
scalar_equal (JsonNode     *expected,
              const Scalar *s,
              const char   *string,
              gsize         len)
{
  GType type;

  if (JSON_NODE_HOLDS_NULL (expected))
    return s->types == T_NULL;
  if (!JSON_NODE_HOLDS_VALUE (expected))
    return FALSE;
  type = json_node_get_value_type (expected);
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    {
      if (!(s->types & T_NUMBER))
        return FALSE;
      if (type == G_TYPE_INT64 && s->is_int)
        return json_node_get_int (expected) == s->ivalue;
      return (type == G_TYPE_INT64 ? (double) json_node_get_int (expected)
                                   : json_node_get_double (expected)) == s->dvalue;
    }
  if (type == G_TYPE_BOOLEAN)
    return s->types == T_BOOLEAN && json_node_get_boolean (expected) == s->bvalue;
  if (type == G_TYPE_STRING)
    {
      const char *want;

      if (s->types != T_STRING)
        return FALSE;
      want = json_node_get_string (expected);
      return strncmp (want, string, len) == 0 && want[len] == '\0' &&
             (len == 0 || memchr (want, '\0', len) == NULL);
    }
  return FALSE;
}

static int
compare_bound (const Scalar *s,
               const Bound  *bound)
{
  if (bound->is_int && s->is_int)
    return s->ivalue < bound->ivalue ? -1 : s->ivalue > bound->ivalue;
  return s->dvalue < bound->value ? -1 : s->dvalue > bound->value;
}

static gboolean
is_multiple (const Scalar *s,
             const Bound  *bound)
{
  double q;

  if (bound->is_int && s->is_int)
    return s->ivalue % bound->ivalue == 0;
  q = s->dvalue / bound->value;
  if (!isfinite (q))
    return fmod (s->dvalue, bound->value) == 0;
  return fabs (q - nearbyint (q)) <= 1e-9 * MAX (1.0, fabs (q)) * 1e-3;
}

/* The checks of validate_number() in tb-schema-validate.c, in its order. */
static gboolean
check_number (VCtx         *v,
              Node         *n,
              const Scalar *s)
{
  gboolean ok = TRUE;

  if (n->minimum.present && compare_bound (s, &n->minimum) < 0)
    {
      report (v, n, "minimum", _("must be at least %s"), n->minimum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->maximum.present && compare_bound (s, &n->maximum) > 0)
    {
      report (v, n, "maximum", _("must be at most %s"), n->maximum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->exclusive_minimum.present && compare_bound (s, &n->exclusive_minimum) <= 0)
    {
      report (v, n, "exclusiveMinimum", _("must be greater than %s"), n->exclusive_minimum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->exclusive_maximum.present && compare_bound (s, &n->exclusive_maximum) >= 0)
    {
      report (v, n, "exclusiveMaximum", _("must be less than %s"), n->exclusive_maximum.text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }
  if (n->multiple_of.present && !is_multiple (s, &n->multiple_of))
    {
      report (v, n, "multipleOf", _("must be a multiple of %s"), n->multiple_of.text);
      ok = FALSE;
    }
  return ok;
}

/* type, const and enum, as validate_keywords() checks them; a container's
 * const and enum are scalars (node_streams_alone()), which it never equals. */
static gboolean
check_common (TCtx         *t,
              Node         *n,
              const Scalar *s,
              const char   *string,
              gsize         len)
{
  VCtx *v = t->v;
  gboolean ok = TRUE;

  if (n->types != 0 && (n->types & s->types) == 0)
    {
      report_type (v, n, s->types);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }

  if (n->has_const && (s == NULL || !scalar_equal (n->const_value, s, string, len)))
    {
      report (v, n, "const", _("must be equal to %s"), n->const_text);
      ok = FALSE;
      if (STOP (v))
        return FALSE;
    }

  if (n->enum_values != NULL)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < n->enum_values->len && !found; i++)
        found = scalar_equal (g_ptr_array_index (n->enum_values, i), s, string, len);
      if (!found)
        {
          report (v, n, "enum", _("must be one of: %s"), n->enum_text);
          ok = FALSE;
          if (STOP (v))
            return FALSE;
        }
    }
  return ok;
}

static gboolean stream_value (TCtx *t,
                              Node *n);

/* Moves the errors from @from on to @at, before those found meanwhile: the
 * tree validator checks an object's size and required members, or an
 * array's length, before its members, and this one learns them after. With
 * FIRST_ERROR the first of the moved ones replaces those found meanwhile. */
static void
move_errors_before (VCtx  *v,
                    guint  at,
                    guint  from)
{
  GPtrArray *errors = v->errors;

  if (errors == NULL || from == at || from >= errors->len)
    return;
  if (!v->collect)
    {
      g_ptr_array_remove_range (errors, at, from - at);
      g_ptr_array_set_size (errors, at + 1);
      return;
    }
  for (guint i = from; i < errors->len; i++)
    g_ptr_array_insert (errors, at + (i - from), g_ptr_array_steal_index (errors, i));
}

static gboolean
name_among (const char *name,
            gsize       len,
            const char **others,
            gsize       *other_lens,
            guint        n_others)
{
  for (guint i = 0; i < n_others; i++)
    if (other_lens[i] == len && memcmp (others[i], name, len) == 0)
      return TRUE;
  return FALSE;
}

/* Opens the object or array @value stands for and checks the keywords
 * about the whole value (type, const, enum); @ok says whether they hold. */
static inline gboolean
open_checked (TCtx         *t,
              Node         *n,
              const Scalar *value,
              gboolean     *ok)
{
  if (!open_container (t))
    return FALSE;
  *ok = TRUE;
  if (!(n->type_only && (n->types & value->types)))
    {
      *ok = check_common (t, n, value, NULL, 0);
      if (!*ok)
        failed (t);
    }
  return TRUE;
}

static gboolean
stream_object (TCtx *t,
               Node *n)
{
  static const Scalar object_value = { T_OBJECT };
  VCtx *v = t->v;
  gboolean ok;
  gboolean walk;
  gboolean more = TRUE;
  guint64 seen = 0;
  gint64 size = 0;
  const char *others[MAX_OTHER_NAMES];
  gsize other_lens[MAX_OTHER_NAMES];
  guint n_others = 0;
  guint at;

  if (!open_checked (t, n, &object_value, &ok))
    return FALSE;
  walk = !t->skipping && n->has_object;
  at = v->errors != NULL ? v->errors->len : 0;

  if (!at_empty (t, '}'))
    while (more)
      {
        Scalar s;
        Text decoded;
        const char *name;
        gsize name_len;
        Node *sub = NULL;
        gint index = -1;
        guint32 key;
        gboolean member_ok = TRUE;

        decoded.str = NULL;  /* not the whole buffer: zeroing it costs */
        if (!read_name (t, &s))
          return FALSE;
        size++;
        if (!walk)
          {
            if (!skip_value (t) || !read_separator (t, '}', &more))
              return FALSE;
            continue;
          }

        /* The name as it is in the text, or decoded when it has escapes:
         * not nul-terminated in the first case. */
        if (s.escaped)
          {
            name = string_value (&s, &decoded);
            name_len = decoded.len;
          }
        else
          {
            name = s.raw;
            name_len = s.raw_len;
          }
        key = property_key (name, name_len);
        for (guint i = 0; i < n->n_properties; i++)
          /* Equal keys mean equal lengths, short of 16 MiB names. */
          if (n->property_keys[i] == key &&
              (G_LIKELY (name_len < G_MAXUINT32 >> 8)
                 ? memcmp (n->properties[i].name, name, name_len)
                 : strncmp (n->properties[i].name, name, name_len)) == 0 &&
              n->properties[i].name[name_len] == '\0')
            {
              index = i;
              break;
            }
        /* The tree keeps the last of equal names; let it decide. */
        if (index >= 0)
          {
            text_clear (&decoded);
            if (seen & (G_GUINT64_CONSTANT (1) << index))
              return bail (t);
            seen |= G_GUINT64_CONSTANT (1) << index;
            sub = n->properties[index].schema;
          }
        else
          {
            if (s.escaped || n_others == MAX_OTHER_NAMES ||
                name_among (s.raw, s.raw_len, others, other_lens, n_others))
              {
                text_clear (&decoded);
                return bail (t);
              }
            others[n_others] = s.raw;
            other_lens[n_others++] = s.raw_len;
          }

        if (t->skipping)
          member_ok = skip_value (t);
        else if (sub != NULL)
          {
            if (v->path_len >= TB_JSON_MAX_DEPTH)
              return bail (t);
            _tb_schema_push_name (v, n, "properties", n->properties[index].name);
            member_ok = stream_value (t, sub);
            v->path_len--;
          }
        else if (n->additional_properties != NULL && !n->additional_properties->is_bool)
          {
            if (v->path_len >= TB_JSON_MAX_DEPTH)
              return bail (t);
            string_value (&s, &decoded);
            _tb_schema_push_name (v, n, "additionalProperties", decoded.str);
            member_ok = stream_value (t, n->additional_properties);
            v->path_len--;
            text_clear (&decoded);
          }
        else if (n->additional_properties != NULL && !n->additional_properties->bool_value)
          {
            if (wants_errors (v))
              {
                string_value (&s, &decoded);
                _tb_schema_report_error (v, n, "additionalProperties",
                                         _("has unexpected property “%s”"), decoded.str);
                text_clear (&decoded);
              }
            member_ok = FALSE;
            if (!skip_value (t))
              return FALSE;
          }
        else
          member_ok = skip_value (t);
        if (t->bail)
          return FALSE;
        if (!member_ok)
          {
            ok = FALSE;
            failed (t);
          }
        if (!read_separator (t, '}', &more))
          return FALSE;
      }

  if (walk && (n->min_properties >= 0 || n->max_properties >= 0 || n->required != NULL))
    {
      guint from = v->errors != NULL ? v->errors->len : 0;
      gboolean sized = _tb_schema_check_n_properties (v, n, size);

      if ((sized || !STOP (v)) && n->required != NULL)
        for (guint r = 0; n->required[r] != NULL; r++)
          {
            gint8 index = n->required_index[r];
            const char *wanted = n->required[r];

            if (index >= 0 ? (seen & (G_GUINT64_CONSTANT (1) << index)) != 0
                           : name_among (wanted, strlen (wanted), others, other_lens, n_others))
              continue;
            report (v, n, "required", _("is missing required property “%s”"), wanted);
            sized = FALSE;
            if (STOP (v))
              break;
          }
      if (!sized)
        {
          move_errors_before (v, at, from);
          ok = FALSE;
          failed (t);
        }
    }
  return ok;
}

static gboolean
stream_array (TCtx *t,
              Node *n)
{
  static const Scalar array_value = { T_ARRAY };
  VCtx *v = t->v;
  gboolean ok;
  gboolean walk;
  gboolean more = TRUE;
  gboolean items_refused = FALSE;
  guint count = 0;
  guint at;

  if (!open_checked (t, n, &array_value, &ok))
    return FALSE;
  walk = !t->skipping && n->has_array;
  at = v->errors != NULL ? v->errors->len : 0;

  if (!at_empty (t, ']'))
    while (more)
      {
        gboolean item_ok = TRUE;
        Node *sub = NULL;
        const char *keyword = "items";

        if (walk && !t->skipping && !items_refused)
          {
            if (count < n->n_prefix_items)
              {
                sub = n->prefix_items[count];
                keyword = "prefixItems";
              }
            else if (n->items != NULL && n->items->is_bool && !n->items->bool_value)
              {
                report (v, n, "items",
                        g_dngettext (GETTEXT_PACKAGE, "must have at most %u item",
                                     "must have at most %u items", n->n_prefix_items),
                        n->n_prefix_items);
                /* As the tree validator: no more checks of this array's items. */
                items_refused = TRUE;
                item_ok = FALSE;
              }
            else
              sub = n->items;
          }
        if (sub != NULL)
          {
            if (v->path_len >= TB_JSON_MAX_DEPTH)
              return bail (t);
            _tb_schema_push_index (v, n, keyword, count);
            item_ok = stream_value (t, sub);
            v->path_len--;
          }
        else if (!skip_value (t))
          return FALSE;
        if (t->bail)
          return FALSE;
        if (!item_ok)
          {
            ok = FALSE;
            failed (t);
          }
        count++;
        if (!read_separator (t, ']', &more))
          return FALSE;
      }

  if (walk && (n->min_items >= 0 || n->max_items >= 0))
    {
      guint from = v->errors != NULL ? v->errors->len : 0;
      gboolean sized = _tb_schema_check_n_items (v, n, count);

      if (!sized)
        {
          move_errors_before (v, at, from);
          ok = FALSE;
          failed (t);
        }
    }
  return ok;
}

static gboolean
stream_scalar (TCtx *t,
               Node *n)
{
  VCtx *v = t->v;
  Scalar s;
  Text text;
  const char *string = NULL;
  gsize string_len = 0;
  gboolean ok = TRUE;

  text.str = NULL;  /* not the whole buffer: zeroing it costs */
  if (!read_scalar (t, &s))
    return FALSE;
  if (n->type_only && (n->types & s.types) != 0)
    return TRUE;
  if (s.types == T_STRING && (n->has_const || n->enum_values != NULL || n->has_string))
    {
      /* Copied only to decode escapes or to be nul-terminated for format. */
      if (s.escaped || n->assert_format)
        {
          string = string_value (&s, &text);
          string_len = text.len;
        }
      else
        {
          string = s.raw;
          string_len = s.raw_len;
        }
    }

  ok = check_common (t, n, &s, string, string_len);
  if (ok || !STOP (v))
    {
      if ((s.types & T_NUMBER) && n->has_numeric)
        ok = check_number (v, n, &s) && ok;
      else if ((s.types & T_STRING) && n->has_string)
        ok = _tb_schema_check_string (v, n, string, string_len) && ok;
    }
  text_clear (&text);
  return ok;
}

static gboolean
stream_value (TCtx *t,
              Node *n)
{
  VCtx *v = t->v;
  guint hops = 0;
  gboolean ok;

  if (t->skipping)
    return skip_value (t);

  /* The tree validator's bounds, counted as it counts them (a $ref and its
   * target are one schema applied each) with a margin: near them it
   * reports, so it decides. */
  while (n->ref_only)
    {
      n = n->ref;
      if (++hops >= TB_SCHEMA_MAX_IN_PLACE / 2)
        return bail (t);
    }
  if (t->applied + hops + 1 >= TB_SCHEMA_MAX_DEPTH - 8 || G_UNLIKELY (!n->streamable))
    return bail (t);

  if (n->is_bool)
    {
      if (!skip_value (t))
        return FALSE;
      if (!n->bool_value)
        report (v, n, "", _("is not allowed here (the schema is false)"));
      return n->bool_value;
    }

  skip_blank (t);
  if (t->p >= t->end)
    return bail (t);

  t->applied += hops + 1;
  switch (*t->p)
    {
    case '{':
      ok = stream_object (t, n);
      break;
    case '[':
      ok = stream_array (t, n);
      break;
    default:
      ok = stream_scalar (t, n);
      break;
    }
  t->applied -= hops + 1;
  return ok;
}

/* Returns FALSE with *decided FALSE when the tree validator must decide. */
static gboolean
stream_text (TbSchema   *self,
             const char *text,
             gsize       length,
             GPtrArray  *errors,
             gboolean    collect,
             gboolean   *decided)
{
  TCtx t = { 0 };
  gboolean ok;

  t.v = _tb_schema_context_get (errors, collect);
  t.p = text;
  t.end = text + length;
  ok = stream_value (&t, self->root);
  t.v->errors = NULL;
  if (!t.bail)
    {
      skip_blank (&t);
      if (t.p != t.end || t.values > tb_json_max_values (length))
        t.bail = TRUE;
    }
  *decided = !t.bail;
  return ok && !t.bail;
}

/**
 * tb_schema_validate_text:
 * @self: a compiled schema
 * @text: (array length=length) (element-type guint8): JSON text, such as a
 *   model's tool-call arguments
 * @length: the length of @text in bytes, or -1 when it is nul-terminated
 * @flags: %TB_SCHEMA_VALIDATE_FIRST_ERROR to stop at the first error
 * @errors: (out) (optional) (transfer container) (element-type TbSchemaError):
 *   the errors found; empty when valid, %NULL when @text is not JSON
 * @error: return location for a #TbJsonError when @text is not JSON
 *
 * Validates JSON text without building a tree when the schema allows it:
 * the same verdict and the same errors as tb_json_parse() followed by
 * tb_schema_validate_full(), and for text that is not JSON, or is too
 * large or too deep, the same #TbJsonError. Schemas with keywords that
 * need the whole value (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `$ref`
 * beside other keywords, `$dynamicRef`, `patternProperties`,
 * `propertyNames`, `dependentRequired`, `dependentSchemas`, `uniqueItems`,
 * `contains`, `unevaluated*`, `const` or `enum` with arrays or objects)
 * are validated on the parsed tree.
 *
 * Safe to call from several threads at once on the same schema.
 *
 * Returns: %TRUE when @text is JSON that matches the schema
 */
gboolean
tb_schema_validate_text (TbSchema               *self,
                         const char             *text,
                         gssize                  length,
                         TbSchemaValidateFlags   flags,
                         GPtrArray             **errors,
                         GError                **error)
{
  g_autoptr(JsonNode) node = NULL;
  gboolean collect = (flags & TB_SCHEMA_VALIDATE_FIRST_ERROR) == 0;

  g_return_val_if_fail (TB_IS_SCHEMA (self), FALSE);
  g_return_val_if_fail (text != NULL || length <= 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (errors != NULL)
    *errors = NULL;
  if (text == NULL)
    text = "";
  if (length < 0)
    length = strlen (text);

  _tb_schema_prepare_stream (self);
  if (self->root->streamable && (gsize) length <= TB_JSON_MAX_SIZE)
    {
      gboolean decided;
      gboolean ok;

      /* First the verdict alone, as for a tree: most arguments are valid. */
      ok = stream_text (self, text, length, NULL, FALSE, &decided);
      if (decided && (ok || errors == NULL))
        {
          if (errors != NULL)
            *errors = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
          return ok;
        }
      if (decided)
        {
          g_autoptr(GPtrArray) found =
            g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);

          stream_text (self, text, length, found, collect, &decided);
          if (decided)
            {
              if (found->len == 0)
                g_ptr_array_add (found, tb_schema_error_new ("", "", "",
                                                             _("does not match the schema")));
              *errors = g_steal_pointer (&found);
              return FALSE;
            }
        }
    }

  node = tb_json_parse (text, length, error);
  if (node == NULL)
    return FALSE;
  return tb_schema_validate_full (self, node, flags, errors);
}
