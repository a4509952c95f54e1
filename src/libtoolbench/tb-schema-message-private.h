/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* The validators' messages, translated once and not once per error.
 *
 * A validation that collects every error formats a message for each, and
 * looking a message up in the catalogue takes a lock and walks the
 * catalogue's tables each time: with a few errors per instance that was a
 * tenth of the time of validating it. The validators keep each message's
 * translation and look it up again only when the catalogues change
 * (setlocale(), textdomain(), bindtextdomain(), or a program that sets
 * LANGUAGE and then bumps the C library's counter, as the gettext manual
 * asks).
 *
 * Plural messages (g_dngettext()) are kept per count for small counts.
 *
 * Include after <glib/gi18n-lib.h>; xgettext still sees _() and
 * g_dngettext(). */

#include <glib.h>

G_BEGIN_DECLS

const char *_tb_schema_message_translate        (const char *msgid);
const char *_tb_schema_message_translate_plural (const char *msgid,
                                                 const char *msgid_plural,
                                                 gulong      n);

/* Returns @text, which the compiler then checks as a format against the
 * arguments as it checks @msgid. */
static inline const char * G_GNUC_FORMAT (1)
_tb_schema_message_checked (const char *msgid,
                            const char *text)
{
  return text;
}

#undef _
#define _(String) \
  ((char *) _tb_schema_message_checked (String, _tb_schema_message_translate (String)))

/* The validators' plural messages all name GETTEXT_PACKAGE; xgettext
 * still sees g_dngettext(), and the compiler checks the plural form. */
#define g_dngettext(Domain, Singular, Plural, N) \
  (_tb_schema_message_checked (Plural, \
                               _tb_schema_message_translate_plural (Singular, Plural, N)))

G_END_DECLS
