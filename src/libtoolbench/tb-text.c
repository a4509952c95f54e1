/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-text"

#include "config.h"

#include <string.h>

#include "tb-text.h"
#include "tb-text-private.h"

/* Text from servers, tools and models is shown to people: on a terminal,
 * where ESC and BEL sequences would set the window title, clear the screen
 * or move the cursor, and in the app, where invisible controls (carriage
 * returns, backspaces) can make one text look like another. Both show such
 * characters as visible escapes instead. */

/* Whether the character at @p (valid UTF-8) is shown escaped. */
static inline gboolean
is_control (gunichar c)
{
  if (c == '\n' || c == '\t')
    return FALSE;
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/**
 * tb_text_needs_escaping:
 * @text: bytes, usually UTF-8 text
 * @length: the length of @text in bytes, or -1 when it ends with a NUL
 *
 * Tells whether text holds control characters or bytes that are not UTF-8,
 * which could move a terminal's cursor or change its colours if printed as
 * they are.
 *
 * Returns: %TRUE when tb_text_escape_controls() would change @text
 */
gboolean
tb_text_needs_escaping (const char *text,
                        gssize      length)
{
  const char *end;
  const char *p;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  if (length < 0)
    length = strlen (text);
  end = text + length;

  if (!g_utf8_validate_len (text, length, NULL))
    return TRUE;

  for (p = text; p < end; p = g_utf8_next_char (p))
    {
      guchar byte = (guchar) *p;

      /* Only U+0080–U+009F start with 0xC2 and need a closer look. */
      if (byte < 0x80 ? is_control (byte) : byte == 0xc2 && is_control (g_utf8_get_char (p)))
        return TRUE;
    }
  return FALSE;
}

/**
 * tb_text_escape_controls:
 * @text: bytes, usually UTF-8 text
 * @length: the length of @text in bytes, or -1 when it ends with a NUL
 *
 * Makes text from outside safe to print to a terminal or show in a label:
 * C0 control characters other than newline and tab, DEL and the C1
 * controls (U+0080 to U+009F) become visible escapes such as `\u001b`, and
 * bytes that are not UTF-8 become `\xff`. Everything else, including
 * newlines, tabs and non-ASCII text, is kept as it is. The escapes are
 * also valid inside a JSON string, so escaping JSON text keeps it JSON.
 *
 * Returns: (transfer full): valid UTF-8 text without control characters
 *   other than newline and tab
 */
char *
tb_text_escape_controls (const char *text,
                         gssize      length)
{
  GString *out;
  const char *end;
  const char *p;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (text);

  if (!tb_text_needs_escaping (text, length))
    return g_strndup (text, length);

  out = g_string_sized_new (length + 16);
  end = text + length;
  p = text;
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }

      if (is_control (c))
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }

  return g_string_free (out, FALSE);
}

/**
 * tb_text_shorten:
 * @text: (nullable): text, not necessarily valid UTF-8
 * @length: its length in bytes, or -1 when it ends with a nul
 * @max_chars: the most characters to keep, at least 1
 *
 * Text to show in a message or a list: made valid UTF-8 and, when longer
 * than @max_chars characters, cut to @max_chars - 1 and ended with "…".
 *
 * Returns: (transfer full): the text; "" for %NULL
 */
char *
tb_text_shorten (const char *text,
                 gssize      length,
                 guint       max_chars)
{
  g_autofree char *valid = NULL;
  g_autofree char *start = NULL;

  g_return_val_if_fail (max_chars > 0, NULL);

  if (text == NULL)
    return g_strdup ("");
  valid = g_utf8_make_valid (text, length);
  if ((gulong) g_utf8_strlen (valid, -1) <= max_chars)
    return g_steal_pointer (&valid);
  start = g_utf8_substring (valid, 0, max_chars - 1);
  return g_strconcat (start, "…", NULL);
}

/*
 * _tb_text_put_integer:
 * @out: where the digits go, room for %TB_TEXT_INTEGER_MAX bytes
 * @magnitude: the number without its sign
 * @negative: whether a minus sign goes first
 *
 * Writes a number's decimal digits, without printf(): the trace writer
 * and the validator's messages write numbers for every event and error.
 *
 * Returns: how many bytes were written (no NUL)
 */
gsize
_tb_text_put_integer (char     *out,
                      guint64   magnitude,
                      gboolean  negative)
{
  char digits[TB_TEXT_INTEGER_MAX + 3];
  gsize at = sizeof digits;
  gsize len;

  do
    digits[--at] = '0' + magnitude % 10;
  while ((magnitude /= 10) > 0);
  if (negative)
    digits[--at] = '-';
  len = sizeof digits - at;
  memcpy (out, digits + at, len);
  return len;
}
