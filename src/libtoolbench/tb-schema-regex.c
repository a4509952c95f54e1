/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "tb-schema-private.h"

/* JSON Schema patterns are ECMA-262 regular expressions. They run on PCRE2,
 * the engine behind GRegex, called directly so that a match allocates
 * nothing (GRegex allocates a GMatchInfo and match data on every call, which
 * cost more than the rest of a typical validation). The translation below
 * gives the ECMA meaning to the constructs where the two disagree;
 * docs/json-schema.md lists them. */

/* Backtracking is bounded: a pattern that would take longer gives up and the
 * value is reported as not checkable, instead of the validator hanging. */
#define MATCH_LIMIT 1000000
#define DEPTH_LIMIT 10000

struct _TbSchemaRegex
{
  pcre2_code *code;
  gboolean    jit;
};

#define ASCII_DIGIT "0-9"
#define ASCII_NOT_DIGIT "\\x{0}-\\x{2f}\\x{3a}-\\x{10ffff}"
#define ASCII_WORD "A-Za-z0-9_"
#define ASCII_NOT_WORD "\\x{0}-\\x{2f}\\x{3a}-\\x{40}\\x{5b}-\\x{5e}\\x{60}\\x{7b}-\\x{10ffff}"
#define ECMA_SPACE \
  "\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}" \
  "\\x{202f}\\x{205f}\\x{3000}\\x{feff}"
#define ECMA_NOT_SPACE \
  "\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}" \
  "\\x{200b}-\\x{2027}\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}" \
  "\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}"
#define ASCII_BOUNDARY "(?:(?<=[" ASCII_WORD "])(?![" ASCII_WORD "])|(?<![" ASCII_WORD "])(?=[" \
  ASCII_WORD "]))"
#define ASCII_NOT_BOUNDARY "(?:(?<=[" ASCII_WORD "])(?=[" ASCII_WORD "])|(?<![" ASCII_WORD \
  "])(?![" ASCII_WORD "]))"

static const struct { const char *ecma; const char *pcre; } property_names[] = {
  { "Letter", "L" }, { "Cased_Letter", "LC" }, { "Uppercase_Letter", "Lu" },
  { "Lowercase_Letter", "Ll" }, { "Titlecase_Letter", "Lt" }, { "Modifier_Letter", "Lm" },
  { "Other_Letter", "Lo" }, { "Mark", "M" }, { "Number", "N" }, { "Decimal_Number", "Nd" },
  { "digit", "Nd" }, { "Letter_Number", "Nl" }, { "Other_Number", "No" },
  { "Punctuation", "P" }, { "Symbol", "S" }, { "Separator", "Z" },
  { "Space_Separator", "Zs" }, { "Other", "C" }, { "Control", "Cc" }, { "Format", "Cf" },
  { "Private_Use", "Co" }, { "Unassigned", "Cn" },
};

static gboolean
read_hex (const char *p,
          guint       n,
          gunichar   *out)
{
  gunichar value = 0;

  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isxdigit (p[i]))
        return FALSE;
      value = value * 16 + g_ascii_xdigit_value (p[i]);
    }
  *out = value;
  return TRUE;
}

static void
append_code_point (GString  *out,
                   gunichar  c)
{
  g_string_append_printf (out, "\\x{%x}", c);
}

/* Returns the number of bytes consumed after the backslash, or 0 on error. */
static gsize
translate_escape (const char  *p,
                  gboolean     in_class,
                  GString     *out,
                  GError     **error)
{
  gunichar c;

  switch (p[0])
    {
    case '\0':
      g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                           _("the pattern ends with a lone backslash"));
      return 0;
    case 'd':
      g_string_append (out, in_class ? ASCII_DIGIT : "[" ASCII_DIGIT "]");
      return 1;
    case 'D':
      g_string_append (out, in_class ? ASCII_NOT_DIGIT : "[^" ASCII_DIGIT "]");
      return 1;
    case 'w':
      g_string_append (out, in_class ? ASCII_WORD : "[" ASCII_WORD "]");
      return 1;
    case 'W':
      g_string_append (out, in_class ? ASCII_NOT_WORD : "[^" ASCII_WORD "]");
      return 1;
    case 's':
      g_string_append (out, in_class ? ECMA_SPACE : "[" ECMA_SPACE "]");
      return 1;
    case 'S':
      g_string_append (out, in_class ? ECMA_NOT_SPACE : "[^" ECMA_SPACE "]");
      return 1;
    case 'b':
      g_string_append (out, in_class ? "\\x{8}" : ASCII_BOUNDARY);
      return 1;
    case 'B':
      if (in_class)
        {
          g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                               _("“\\B” is not allowed inside a character class"));
          return 0;
        }
      g_string_append (out, ASCII_NOT_BOUNDARY);
      return 1;
    case 'u':
      if (p[1] == '{')
        {
          const char *end = strchr (p + 2, '}');

          if (end == NULL || end == p + 2 || end - (p + 2) > 6 ||
              !read_hex (p + 2, end - (p + 2), &c) || c > 0x10FFFF)
            {
              g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                                   _("“\\u{…}” needs 1 to 6 hexadecimal digits"));
              return 0;
            }
          append_code_point (out, c);
          return (end - p) + 1;
        }
      if (!read_hex (p + 1, 4, &c))
        {
          g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                               _("“\\u” needs four hexadecimal digits"));
          return 0;
        }
      if (c >= 0xD800 && c < 0xDC00 && p[5] == '\\' && p[6] == 'u')
        {
          gunichar low;

          if (read_hex (p + 7, 4, &low) && low >= 0xDC00 && low < 0xE000)
            {
              append_code_point (out, 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00));
              return 11;
            }
        }
      if (c >= 0xD800 && c < 0xE000)
        {
          g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                               _("a lone surrogate “\\u” escape cannot match UTF-8 text"));
          return 0;
        }
      append_code_point (out, c);
      return 5;
    case 'x':
      if (!read_hex (p + 1, 2, &c))
        {
          g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                               _("“\\x” needs two hexadecimal digits"));
          return 0;
        }
      append_code_point (out, c);
      return 3;
    case 'p':
    case 'P':
      if (p[1] == '{')
        {
          const char *end = strchr (p + 2, '}');
          g_autofree char *name = NULL;
          const char *eq;
          const char *shown;

          if (end == NULL)
            {
              g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                                   _("“\\p{” has no closing brace"));
              return 0;
            }
          name = g_strndup (p + 2, end - (p + 2));
          eq = strchr (name, '=');
          shown = eq != NULL ? eq + 1 : name;
          for (guint i = 0; i < G_N_ELEMENTS (property_names); i++)
            if (g_str_equal (shown, property_names[i].ecma))
              shown = property_names[i].pcre;
          g_string_append_printf (out, "\\%c{%s}", p[0], shown);
          return (end - p) + 1;
        }
      g_string_append_c (out, '\\');
      g_string_append_c (out, p[0]);
      return 1;
    case '/':
      g_string_append_c (out, '/');
      return 1;
    case 'c':
      if (g_ascii_isalpha (p[1]))
        {
          append_code_point (out, p[1] % 32);
          return 2;
        }
      g_string_append (out, "\\\\c");
      return 1;
    case 'f': case 'n': case 'r': case 't': case 'v': case 'k':
      g_string_append_c (out, '\\');
      g_string_append_c (out, p[0]);
      return 1;
    default:
      {
        const char *next = g_utf8_next_char (p);

        /* Letters that mean nothing in ECMA-262 mean something else in
         * PCRE2 (\a, \e, \A, \Z, \h, \K, …): refuse them. */
        if (g_ascii_isalpha (p[0]))
          {
            g_set_error (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                         _("“\\%c” is not an escape of ECMA-262 regular expressions"), p[0]);
            return 0;
          }
        g_string_append_c (out, '\\');
        g_string_append_len (out, p, next - p);
        return next - p;
      }
    }
}

/**
 * _tb_schema_regex_translate:
 *
 * Rewrites an ECMA-262 pattern into the PCRE2 syntax GRegex reads.
 *
 * Returns: (transfer full): the translated pattern, or %NULL with @error set
 */
char *
_tb_schema_regex_translate (const char  *ecma_pattern,
                            GError     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean in_class = FALSE;
  const char *p = ecma_pattern;

  if (!g_utf8_validate (ecma_pattern, -1, NULL))
    {
      g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                           _("the pattern is not valid UTF-8"));
      return NULL;
    }

  while (*p != '\0')
    {
      if (*p == '\\')
        {
          gsize used = translate_escape (p + 1, in_class, out, error);

          if (used == 0)
            return NULL;
          p += 1 + used;
          continue;
        }

      if (in_class)
        {
          if (*p == ']')
            in_class = FALSE;
          else if (*p == '[')
            {
              /* A literal in ECMA; PCRE2 might read "[:" as a POSIX class. */
              g_string_append (out, "\\[");
              p++;
              continue;
            }
          g_string_append_c (out, *p++);
          continue;
        }

      if (*p == '[')
        {
          if (p[1] == ']')
            {
              g_string_append (out, "(?!)");
              p += 2;
              continue;
            }
          if (p[1] == '^' && p[2] == ']')
            {
              g_string_append (out, "[\\x{0}-\\x{10ffff}]");
              p += 3;
              continue;
            }
          in_class = TRUE;
          g_string_append_c (out, '[');
          p++;
          if (*p == '^')
            g_string_append_c (out, *p++);
          continue;
        }

      if (p[0] == '(' && p[1] == '?')
        {
          /* ECMA-262 groups: (?: (?= (?! (?<= (?<! (?<name> and nothing else,
           * so no inline flags, comments or Python-style named groups. */
          gboolean allowed = p[2] == ':' || p[2] == '=' || p[2] == '!' ||
                             (p[2] == '<' && (p[3] == '=' || p[3] == '!' ||
                                              g_ascii_isalpha (p[3]) || p[3] == '_' ||
                                              p[3] == '$'));

          if (!allowed)
            {
              g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                                   _("“(?” must be followed by “:”, “=”, “!”, “<=”, “<!” or "
                                     "“<name>” in ECMA-262 regular expressions"));
              return NULL;
            }
        }

      if (*p == '.')
        {
          g_string_append (out, "[^\\n\\r\\x{2028}\\x{2029}]");
          p++;
          continue;
        }

      {
        const char *next = g_utf8_next_char (p);

        g_string_append_len (out, p, next - p);
        p = next;
      }
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * _tb_schema_regex_new:
 *
 * Returns: (transfer full): a compiled ECMA-262 pattern, or %NULL with @error set
 */
TbSchemaRegex *
_tb_schema_regex_new (const char  *ecma_pattern,
                      GError     **error)
{
  g_autofree char *pcre = _tb_schema_regex_translate (ecma_pattern, error);
  TbSchemaRegex *self;
  pcre2_code *code;
  int code_error = 0;
  PCRE2_SIZE offset = 0;

  if (pcre == NULL)
    return NULL;

  /* No PCRE2_UCP: \d, \w and \b keep their ASCII meaning, as in ECMA-262. */
  code = pcre2_compile ((PCRE2_SPTR) pcre, PCRE2_ZERO_TERMINATED,
                        PCRE2_UTF | PCRE2_NO_UTF_CHECK | PCRE2_DOLLAR_ENDONLY |
                        PCRE2_NEVER_BACKSLASH_C,
                        &code_error, &offset, NULL);
  if (code == NULL)
    {
      PCRE2_UCHAR buffer[256];

      pcre2_get_error_message (code_error, buffer, sizeof buffer);
      g_set_error (error, G_REGEX_ERROR, G_REGEX_ERROR_COMPILE,
                   /* Translators: %s is PCRE2's explanation (English) */
                   _("%s, near character %lu"), (const char *) buffer, (gulong) offset + 1);
      return NULL;
    }

  self = g_new0 (TbSchemaRegex, 1);
  self->code = code;
  self->jit = pcre2_jit_compile (code, PCRE2_JIT_COMPLETE) == 0;
  return self;
}

void
_tb_schema_regex_free (TbSchemaRegex *self)
{
  if (self == NULL)
    return;
  pcre2_code_free (self->code);
  g_free (self);
}

static void
free_match_data (gpointer data)
{
  pcre2_match_data_free (data);
}

/* The GPrivate frees the match data when the thread ends; the thread-local
 * pointer is the fast way to it. */
static GPrivate match_data_owner = G_PRIVATE_INIT (free_match_data);
static _Thread_local pcre2_match_data *match_data;

/**
 * _tb_schema_regex_match:
 * @self: a compiled pattern
 * @subject: valid UTF-8
 * @length: its length in bytes
 *
 * Searches @subject (ECMA-262 patterns are not anchored). Safe from any
 * thread: the match data is per thread and allocated once.
 *
 * Returns: 1 on a match, 0 when there is none, -1 when the pattern gave up
 *   (too much backtracking)
 */
int
_tb_schema_regex_match (TbSchemaRegex *self,
                        const char    *subject,
                        gsize          length)
{
  static pcre2_match_context *context;
  pcre2_match_data *data = match_data;
  int rc;

  if (g_once_init_enter (&context))
    {
      pcre2_match_context *made = pcre2_match_context_create (NULL);

      pcre2_set_match_limit (made, MATCH_LIMIT);
      pcre2_set_depth_limit (made, DEPTH_LIMIT);
      g_once_init_leave (&context, made);
    }

  if (G_UNLIKELY (data == NULL))
    {
      data = pcre2_match_data_create (1, NULL);
      g_private_set (&match_data_owner, data);
      match_data = data;
    }

  if (self->jit)
    rc = pcre2_jit_match (self->code, (PCRE2_SPTR) subject, length, 0, 0, data, context);
  else
    rc = pcre2_match (self->code, (PCRE2_SPTR) subject, length, 0, PCRE2_NO_UTF_CHECK, data,
                      context);

  if (rc >= 0)
    return 1;
  if (rc == PCRE2_ERROR_NOMATCH)
    return 0;
  return -1;
}
