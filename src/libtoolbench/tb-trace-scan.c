/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Checking a trace line while indexing, at about the speed the file is
 * read: one pass over the bytes that validates the JSON grammar, UTF-8,
 * nesting depth and the number of values (the checks tb_json_parse_full()
 * makes), and picks out the top-level "type" and "seq", without building
 * a tree. Strings, most of a trace's bytes, are skipped eight bytes at a
 * time. A line it accepts is parsed only when its event is read. It is
 * stricter than the parser where they could differ (a lone surrogate
 * escape, a member name "type" written with escapes), never looser. */

#define G_LOG_DOMAIN "tb-trace-file"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#ifdef __SSE2__
# include <emmintrin.h>
#endif

#include "tb-json.h"
#include "tb-trace-scan-private.h"

/* Weights as the parser's guard counts them (tb_json_max_values()). */
#define OBJECT_VALUES 3

#define ONES  G_GUINT64_CONSTANT (0x0101010101010101)
#define HIGHS G_GUINT64_CONSTANT (0x8080808080808080)

typedef struct
{
  const guchar *start;
  const guchar *p;
  const guchar *end;
  guint         depth;
  guint         max_depth;
  guint64       values;
  guint64       max_values;
  char         *reason;
} Scanner;

static gboolean
fail_syntax (Scanner *s)
{
  if (s->reason == NULL)
    s->reason = g_strdup_printf (/* Translators: %lu is a byte offset */
                                 _("it is not valid JSON (at byte %lu)"),
                                 (gulong) (s->p - s->start));
  return FALSE;
}

static gboolean
fail_utf8 (Scanner *s)
{
  if (s->reason == NULL)
    s->reason = g_strdup_printf (/* Translators: %lu is a byte offset */
                                 _("it is not valid UTF-8 (at byte %lu)"),
                                 (gulong) (s->p - s->start));
  return FALSE;
}

static gboolean
count_value (Scanner *s,
             guint    weight)
{
  s->values += weight;
  if (s->values <= s->max_values)
    return TRUE;
  if (s->reason == NULL)
    {
      g_autofree char *size = g_format_size_full (s->end - s->start, G_FORMAT_SIZE_IEC_UNITS);

      /* The parser's own words, so a reader says the same either way. */
      s->reason = g_strdup_printf (/* Translators: %s is a size such as "12.0 MiB", %lu a count */
                                   _("The JSON text (%s) holds more than %lu values, too many "
                                     "for its size: reading it would take more than about 20 "
                                     "times its size in memory"),
                                   size, (gulong) s->max_values);
    }
  return FALSE;
}

static void
skip_space (Scanner *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
    s->p++;
}

/* Whether a word of eight bytes holds a quote, a backslash, a control
 * character or a byte of a multi-byte character: one that needs a look. */
static inline gboolean
word_is_special (guint64 v)
{
  guint64 quote = v ^ (ONES * '"');
  guint64 backslash = v ^ (ONES * '\\');

  return ((((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash) |
          ((v - ONES * 0x20) & ~v) | v) & HIGHS) != 0;
}

/* One UTF-8 character of two to four bytes at s->p: the shortest form,
 * no surrogates, nothing above U+10FFFF. */
static gboolean
scan_utf8 (Scanner *s)
{
  const guchar *p = s->p;
  gsize left = s->end - p;
  guchar c = p[0];
  guint n;
  gunichar min, value;

  if (c >= 0xc2 && c <= 0xdf)
    n = 2, min = 0x80, value = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, min = 0x800, value = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, min = 0x10000, value = c & 0x07;
  else
    return fail_utf8 (s);

  if (left < n)
    return fail_utf8 (s);
  for (guint i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return fail_utf8 (s);
      value = (value << 6) | (p[i] & 0x3f);
    }
  if (value < min || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
    return fail_utf8 (s);

  s->p += n;
  return TRUE;
}

static gboolean
read_hex4 (Scanner *s,
           guint   *value)
{
  *value = 0;
  if (s->end - s->p < 4)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (s->p[i]);

      if (digit < 0)
        return FALSE;
      *value = (*value << 4) | digit;
    }
  s->p += 4;
  return TRUE;
}

/* s->p is at a backslash; a bad escape is reported where it begins. */
static gboolean
scan_escape (Scanner *s)
{
  const guchar *backslash = s->p;
  guint value, low;

  s->p++;
  if (s->p >= s->end)
    goto bad;

  switch (*s->p++)
    {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
      return TRUE;

    case 'u':
      if (!read_hex4 (s, &value) || (value >= 0xdc00 && value <= 0xdfff))
        goto bad;
      if (value >= 0xd800 && value <= 0xdbff)
        {
          if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u')
            goto bad;
          s->p += 2;
          if (!read_hex4 (s, &low) || low < 0xdc00 || low > 0xdfff)
            goto bad;
        }
      return TRUE;

    default:
      goto bad;
    }

bad:
  s->p = backslash;
  return fail_syntax (s);
}

#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
# include <immintrin.h>

static gboolean
have_avx2 (void)
{
  static int known = -1;

  if (G_UNLIKELY (known < 0))
    known = __builtin_cpu_supports ("avx2");
  return known;
}

/* The 64-byte skip of plain string bytes with 32-byte compares, on
 * processors that have them. */
__attribute__ ((target ("avx2")))
static const guchar *
skip_plain_avx2 (const guchar *p,
                 const guchar *end)
{
  const __m256i quote = _mm256_set1_epi8 ('"');
  const __m256i backslash = _mm256_set1_epi8 ('\\');
  const __m256i space = _mm256_set1_epi8 (0x20);

  while (end - p >= 64)
    {
      __m256i a = _mm256_loadu_si256 ((const __m256i *) p);
      __m256i b = _mm256_loadu_si256 ((const __m256i *) (p + 32));
      /* Signed: a byte of 0x80 or more is negative, so below 0x20 too. */
      __m256i special = _mm256_or_si256 (
        _mm256_or_si256 (_mm256_or_si256 (_mm256_cmpeq_epi8 (a, quote),
                                          _mm256_cmpeq_epi8 (a, backslash)),
                         _mm256_cmpgt_epi8 (space, a)),
        _mm256_or_si256 (_mm256_or_si256 (_mm256_cmpeq_epi8 (b, quote),
                                          _mm256_cmpeq_epi8 (b, backslash)),
                         _mm256_cmpgt_epi8 (space, b)));

      if (_mm256_movemask_epi8 (special) != 0)
        break;
      p += 64;
    }
  return p;
}
#endif

/* s->p is at the opening quote. On return, *text and *length give the
 * raw contents and *escaped says whether they hold an escape. */
static gboolean
scan_string (Scanner       *s,
             const guchar **text,
             gsize         *length,
             gboolean      *escaped)
{
  s->p++;
  *text = s->p;
  *escaped = FALSE;

  for (;;)
    {
      guchar c;

      /* The common case: runs of plain ASCII. A short string ends within
       * the first sixteen bytes; a long one (a tool's output, a request
       * body) is skipped 64 bytes a turn. */
#ifdef __SSE2__
      while (s->end - s->p >= 16)
        {
          const __m128i quote = _mm_set1_epi8 ('"');
          const __m128i backslash = _mm_set1_epi8 ('\\');
          const __m128i space = _mm_set1_epi8 (0x20);
          int mask;

#define SPECIAL(at) \
  _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) (at)), quote), \
                              _mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) (at)), \
                                              backslash)), \
                /* Signed: a byte of 0x80 or more is negative, so below 0x20 too. */ \
                _mm_cmplt_epi8 (_mm_loadu_si128 ((const __m128i *) (at)), space))

          mask = _mm_movemask_epi8 (SPECIAL (s->p));
          if (mask != 0)
            {
              s->p += __builtin_ctz (mask);
              break;
            }
          s->p += 16;

#if defined(__GNUC__) && defined(__x86_64__)
          if (have_avx2 ())
            s->p = skip_plain_avx2 (s->p, s->end);
          else
#endif
          while (s->end - s->p >= 64 &&
                 _mm_movemask_epi8 (_mm_or_si128 (_mm_or_si128 (SPECIAL (s->p),
                                                                SPECIAL (s->p + 16)),
                                                  _mm_or_si128 (SPECIAL (s->p + 32),
                                                                SPECIAL (s->p + 48)))) == 0)
            s->p += 64;
#undef SPECIAL
        }
#endif
      while (s->end - s->p >= 8)
        {
          guint64 word;

          memcpy (&word, s->p, 8);
          if (word_is_special (word))
            break;
          s->p += 8;
        }

      if (s->p >= s->end)
        return fail_syntax (s);

      c = *s->p;
      if (c == '"')
        {
          *length = s->p - *text;
          s->p++;
          return TRUE;
        }
      else if (c == '\\')
        {
          *escaped = TRUE;
          if (!scan_escape (s))
            return FALSE;
        }
      else if (c < 0x20)
        {
          return fail_syntax (s);
        }
      else if (c >= 0x80)
        {
          if (!scan_utf8 (s))
            return FALSE;
        }
      else
        {
          s->p++;
        }
    }
}

static gboolean
scan_digits (Scanner *s)
{
  const guchar *first = s->p;

  while (s->p < s->end && g_ascii_isdigit (*s->p))
    s->p++;
  return s->p > first;
}

/* A number; *is_int and *value say whether it is an integer that fits. */
static gboolean
scan_number (Scanner  *s,
             gboolean *is_int,
             gint64   *value)
{
  const guchar *first = s->p;
  gboolean negative = FALSE;
  guint64 magnitude = 0;
  gboolean fits = TRUE;

  *is_int = FALSE;
  if (s->p < s->end && *s->p == '-')
    {
      negative = TRUE;
      s->p++;
    }
  if (s->p >= s->end || !g_ascii_isdigit (*s->p))
    return fail_syntax (s);
  if (*s->p == '0')
    s->p++;
  else
    {
      for (; s->p < s->end && g_ascii_isdigit (*s->p); s->p++)
        {
          guint digit = *s->p - '0';

          if (magnitude > (G_MAXUINT64 - digit) / 10)
            fits = FALSE;
          else
            magnitude = magnitude * 10 + digit;
        }
    }

  if (s->p < s->end && *s->p == '.')
    {
      s->p++;
      if (!scan_digits (s))
        return fail_syntax (s);
      fits = FALSE;
    }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
    {
      s->p++;
      if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
        s->p++;
      if (!scan_digits (s))
        return fail_syntax (s);
      fits = FALSE;
    }

  /* A number runs into letters only in text that is not JSON. */
  if (s->p < s->end && (g_ascii_isalnum (*s->p) || *s->p == '.' || *s->p == '+' ||
                        *s->p == '-'))
    return fail_syntax (s);

  if (fits && (negative ? magnitude <= (guint64) G_MAXINT64 + 1 : magnitude <= G_MAXINT64))
    {
      *is_int = TRUE;
      *value = negative ? (gint64) (0 - magnitude) : (gint64) magnitude;
    }
  return s->p > first;
}

static gboolean
scan_literal (Scanner    *s,
              const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (s->end - s->p) < n || memcmp (s->p, word, n) != 0)
    return fail_syntax (s);
  s->p += n;
  if (s->p < s->end && g_ascii_isalnum (*s->p))
    return fail_syntax (s);
  return TRUE;
}

static gboolean scan_value (Scanner *s);

static gboolean
enter (Scanner *s)
{
  if (++s->depth <= s->max_depth)
    return TRUE;
  if (s->reason == NULL)
    s->reason = g_strdup_printf (/* Translators: %u is a number of levels */
                                 _("it nests more than %u levels deep"), s->max_depth);
  return FALSE;
}

/* s->p is just past a '{' or '['; an empty object or array ends here. */
static inline gboolean
at_empty (Scanner *s,
          guchar   close)
{
  skip_space (s);
  if (s->p < s->end && *s->p == close)
    {
      s->p++;
      s->depth--;
      return TRUE;
    }
  return FALSE;
}

/* After a member or an element: a comma means @more follows, @close ends
 * the object or array; anything else is not JSON. */
static inline gboolean
read_separator (Scanner  *s,
                guchar    close,
                gboolean *more)
{
  skip_space (s);
  if (s->p >= s->end)
    return fail_syntax (s);
  if (*s->p == ',')
    {
      s->p++;
      skip_space (s);
      *more = TRUE;
      return TRUE;
    }
  if (*s->p != close)
    return fail_syntax (s);
  s->p++;
  s->depth--;
  *more = FALSE;
  return TRUE;
}

/* s->p is at a member's opening quote: reads its name and the colon, and
 * leaves s->p at its value. */
static gboolean
read_member_name (Scanner       *s,
                  const guchar **name,
                  gsize         *name_length,
                  gboolean      *escaped)
{
  if (s->p >= s->end || *s->p != '"')
    return fail_syntax (s);
  if (!count_value (s, 1) || !scan_string (s, name, name_length, escaped))
    return FALSE;
  skip_space (s);
  if (s->p >= s->end || *s->p != ':')
    return fail_syntax (s);
  s->p++;
  skip_space (s);
  return TRUE;
}

/* s->p is at '{'. With @scan, the object is the line itself and its
 * "type" and "seq" are noted (the last of a repeated member counts, as
 * the parser keeps the last). */
static gboolean
scan_object (Scanner     *s,
             TbTraceScan *scan)
{
  if (!enter (s) || !count_value (s, OBJECT_VALUES))
    return FALSE;
  s->p++;
  if (at_empty (s, '}'))
    return TRUE;

  for (;;)
    {
      const guchar *name;
      gsize name_length;
      gboolean escaped;
      gboolean more;

      if (!read_member_name (s, &name, &name_length, &escaped))
        return FALSE;

      if (scan != NULL && !escaped && name_length == 4 && memcmp (name, "type", 4) == 0)
        {
          scan->has_type = s->p < s->end && *s->p == '"';
          if (!scan_value (s))
            return FALSE;
        }
      else if (scan != NULL && !escaped && name_length == 3 && memcmp (name, "seq", 3) == 0 &&
               s->p < s->end && (*s->p == '-' || g_ascii_isdigit (*s->p)))
        {
          if (!count_value (s, 1) || !scan_number (s, &scan->has_seq, &scan->seq))
            return FALSE;
        }
      else
        {
          if (scan != NULL && !escaped && name_length == 3 && memcmp (name, "seq", 3) == 0)
            scan->has_seq = FALSE;
          if (!scan_value (s))
            return FALSE;
        }

      if (!read_separator (s, '}', &more))
        return FALSE;
      if (!more)
        return TRUE;
    }
}

static gboolean
scan_array (Scanner *s)
{
  if (!enter (s) || !count_value (s, 1))
    return FALSE;
  s->p++;
  if (at_empty (s, ']'))
    return TRUE;

  for (;;)
    {
      gboolean more;

      if (!scan_value (s) || !read_separator (s, ']', &more))
        return FALSE;
      if (!more)
        return TRUE;
    }
}

/* Recurses once per level, at most max_depth levels. */
static gboolean
scan_value (Scanner *s)
{
  const guchar *text;
  gsize length;
  gboolean flag;
  gint64 number;

  if (s->p >= s->end)
    return fail_syntax (s);

  switch (*s->p)
    {
    case '{':
      return scan_object (s, NULL);
    case '[':
      return scan_array (s);
    case '"':
      return count_value (s, 1) && scan_string (s, &text, &length, &flag);
    case 't':
      return count_value (s, 1) && scan_literal (s, "true");
    case 'f':
      return count_value (s, 1) && scan_literal (s, "false");
    case 'n':
      return count_value (s, 1) && scan_literal (s, "null");
    default:
      return count_value (s, 1) && scan_number (s, &flag, &number);
    }
}

/**
 * _tb_trace_scan_line:
 * @data: one line, without its newline
 * @length: its length
 * @max_depth: the deepest nesting allowed
 * @scan: (out caller-allocates): what indexing needs
 * @reason: (out) (optional): why the line is not an event, a phrase for
 *   "Line N cannot be read and was left out: …"
 *
 * Returns: %TRUE when the line is one JSON object with a string "type"
 *   that a reader can parse
 */
gboolean
_tb_trace_scan_line (const char   *data,
                     gsize         length,
                     guint         max_depth,
                     TbTraceScan  *scan,
                     char        **reason)
{
  Scanner s = { (const guchar *) data, (const guchar *) data, (const guchar *) data + length,
                0, max_depth, 0, tb_json_max_values (length), NULL };
  gboolean ok;

  memset (scan, 0, sizeof *scan);

  skip_space (&s);
  if (s.p >= s.end || *s.p != '{')
    {
      /* Say "not JSON" for garbage and "not an object" for other JSON. */
      ok = s.p < s.end && scan_value (&s);
      skip_space (&s);
      if (ok && s.p == s.end)
        {
          g_clear_pointer (&s.reason, g_free);
          s.reason = g_strdup (_("it is not a JSON object"));
        }
      else if (ok || s.reason == NULL)
        {
          fail_syntax (&s);
        }
      ok = FALSE;
    }
  else
    {
      ok = scan_object (&s, scan);
      if (ok)
        {
          skip_space (&s);
          if (s.p != s.end)
            ok = fail_syntax (&s);
        }
      if (ok && !scan->has_type)
        {
          s.reason = g_strdup (_("it has no event “type”"));
          ok = FALSE;
        }
    }

  if (reason != NULL)
    *reason = g_steal_pointer (&s.reason);
  g_free (s.reason);
  return ok;
}

/* The shape of an event: the few members that place it in a trace's tree
 * (tb_trace_outline_add()) and choose its row's icon. */

typedef enum
{
  WANT_STRING,
  WANT_INTEGER,
  WANT_BOOLEAN,
  WANT_OBJECT,
} WantKind;

typedef struct _Want Want;
struct _Want
{
  const char *name;
  WantKind    kind;
  const Want *members; /* of an object */
  guint       n_members;
};

static const Want call_wants[] = { { "id", WANT_STRING } };
static const Want message_wants[] = { { "tool_call_id", WANT_STRING } };
static const Want result_wants[] = { { "ok", WANT_BOOLEAN } };
static const Want event_wants[] = {
  { "type", WANT_STRING },
  { "iteration", WANT_INTEGER },
  { "origin", WANT_STRING },
  { "decision", WANT_STRING },
  { "direction", WANT_STRING },
  { "call_id", WANT_STRING },
  { "call", WANT_OBJECT, call_wants, G_N_ELEMENTS (call_wants) },
  { "message", WANT_OBJECT, message_wants, G_N_ELEMENTS (message_wants) },
  { "result", WANT_OBJECT, result_wants, G_N_ELEMENTS (result_wants) },
};

static gboolean pick_object (Scanner    *s,
                             JsonObject *into,
                             const Want *wants,
                             guint       n_wants,
                             gboolean   *exact);

/* s->p is at the value of the member @want of @into. A value of another
 * kind than wanted takes the member away (the parser keeps the last of
 * repeated members); one the scanner cannot copy as the parser would read
 * it (an escape, a fraction, a number past 64 bits) makes the outline
 * inexact, and the line is parsed instead. */
static gboolean
pick_value (Scanner    *s,
            JsonObject *into,
            const Want *want,
            gboolean   *exact)
{
  guchar c = *s->p;

  switch (want->kind)
    {
    case WANT_STRING:
      if (c == '"')
        {
          const guchar *text;
          gsize length;
          gboolean escaped;
          g_autofree char *value = NULL;

          if (!count_value (s, 1) || !scan_string (s, &text, &length, &escaped))
            return FALSE;
          if (escaped)
            *exact = FALSE;
          value = g_strndup ((const char *) text, length);
          json_object_set_string_member (into, want->name, value);
          return TRUE;
        }
      break;
    case WANT_INTEGER:
      if (c == '-' || g_ascii_isdigit (c))
        {
          gboolean is_int;
          gint64 value;

          if (!count_value (s, 1) || !scan_number (s, &is_int, &value))
            return FALSE;
          if (!is_int)
            *exact = FALSE;
          json_object_set_int_member (into, want->name, value);
          return TRUE;
        }
      break;
    case WANT_BOOLEAN:
      if (c == 't' || c == 'f')
        {
          if (!count_value (s, 1) || !scan_literal (s, c == 't' ? "true" : "false"))
            return FALSE;
          json_object_set_boolean_member (into, want->name, c == 't');
          return TRUE;
        }
      break;
    case WANT_OBJECT:
      if (c == '{')
        {
          JsonObject *members = json_object_new ();

          json_object_set_object_member (into, want->name, members);
          return pick_object (s, members, want->members, want->n_members, exact);
        }
      break;
    default:
      /* Every WantKind is handled above. */
      g_assert_not_reached ();
    }

  if (json_object_has_member (into, want->name))
    json_object_remove_member (into, want->name);
  return scan_value (s);
}

/* s->p is at '{'. Checks the object as scan_object() does and copies the
 * members in @wants into @into. */
static gboolean
pick_object (Scanner    *s,
             JsonObject *into,
             const Want *wants,
             guint       n_wants,
             gboolean   *exact)
{
  if (!enter (s) || !count_value (s, OBJECT_VALUES))
    return FALSE;
  s->p++;
  if (at_empty (s, '}'))
    return TRUE;

  for (;;)
    {
      const guchar *name;
      gsize name_length;
      gboolean escaped;
      gboolean more;
      const Want *want = NULL;

      if (!read_member_name (s, &name, &name_length, &escaped))
        return FALSE;
      if (s->p >= s->end)
        return fail_syntax (s);

      /* A name written with escapes may be one of those wanted. */
      if (escaped)
        *exact = FALSE;
      for (guint i = 0; i < n_wants && want == NULL; i++)
        if (strlen (wants[i].name) == name_length && memcmp (wants[i].name, name, name_length) == 0)
          want = &wants[i];

      if (want != NULL ? !pick_value (s, into, want, exact) : !scan_value (s))
        return FALSE;
      if (!read_separator (s, '}', &more))
        return FALSE;
      if (!more)
        return TRUE;
    }
}

/**
 * _tb_trace_scan_outline:
 * @data: one line, without its newline
 * @length: its length
 * @max_depth: the deepest nesting allowed
 * @outline: (out) (transfer full): the event's shape
 *
 * Reads the members of an event that give its place in the trace and its
 * icon ("type", "iteration", "origin", "decision", "direction",
 * "call_id", and "id" of "call", "tool_call_id" of "message", "ok" of
 * "result") without parsing the rest, checking the line as indexing does.
 * Their values are the parser's: a member it would read differently
 * (through an escape, say) makes this give up.
 *
 * Returns: %TRUE with @outline set; %FALSE when the line must be parsed
 */
gboolean
_tb_trace_scan_outline (const char  *data,
                        gsize        length,
                        guint        max_depth,
                        JsonObject **outline)
{
  Scanner s = { (const guchar *) data, (const guchar *) data, (const guchar *) data + length,
                0, max_depth, 0, tb_json_max_values (length), NULL };
  g_autoptr(JsonObject) object = json_object_new ();
  gboolean exact = TRUE;
  gboolean ok;

  skip_space (&s);
  ok = s.p < s.end && *s.p == '{' &&
       pick_object (&s, object, event_wants, G_N_ELEMENTS (event_wants), &exact);
  if (ok)
    {
      skip_space (&s);
      ok = s.p == s.end;
    }
  g_free (s.reason);
  if (!ok || !exact || tb_json_object_get_string (object, "type") == NULL)
    return FALSE;
  *outline = g_steal_pointer (&object);
  return TRUE;
}
