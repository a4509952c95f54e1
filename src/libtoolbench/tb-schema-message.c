/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The validators' cache of translated messages (tb-schema-message-private.h). */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-schema-message-private.h"

/* The catalogue's own lookup here, not the cached one of the header. */
#undef g_dngettext

#ifdef __GLIBC__

/* The C library's count of catalogue changes: setlocale(), textdomain()
 * and bindtextdomain() raise it, and the gettext manual tells a program
 * that changes LANGUAGE to raise it too. */
extern int _nl_msg_cat_cntr;

/* The validators say fewer than a hundred different things. A message is
 * found by the address of its text, which the compiler keeps for the life
 * of the program; a slot, once taken by a message, stays that message's.
 * A translation points into a loaded catalogue, which also stays: two
 * threads that race on a slot at worst both look the message up, and one
 * may use the translation from before a change of language, once. */
#define N_SLOTS 256

typedef struct
{
  const char *msgid;
  const char *text;
  int         generation;
} Slot;

static Slot slots[N_SLOTS];

const char *
_tb_schema_message_translate (const char *msgid)
{
  int generation = *(volatile int *) &_nl_msg_cat_cntr;
  guint start = (guint) (((guintptr) msgid >> 3) % N_SLOTS);

  for (guint probe = 0; probe < 16; probe++)
    {
      Slot *slot = &slots[(start + probe) % N_SLOTS];
      const char *owner = g_atomic_pointer_get (&slot->msgid);

      if (owner == NULL &&
          g_atomic_pointer_compare_and_exchange (&slot->msgid, NULL, msgid))
        owner = msgid;
      else if (owner == NULL)
        owner = g_atomic_pointer_get (&slot->msgid);
      if (owner != msgid)
        continue;

      {
        const char *text = g_atomic_pointer_get (&slot->text);

        if (G_LIKELY (text != NULL && g_atomic_int_get (&slot->generation) == generation))
          return text;
        text = g_dgettext (GETTEXT_PACKAGE, msgid);
        g_atomic_int_set (&slot->generation, generation);
        g_atomic_pointer_set (&slot->text, text);
        return text;
      }
    }
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

/* A plural message's translation depends on which plural form the count
 * takes, which only the catalogue knows: it is kept per count, for the
 * counts below N_COUNTS (a schema's bounds are mostly small), as the
 * singular ones are kept, and looked up each time for larger counts. */
#define N_PLURAL_SLOTS 32
#define N_COUNTS       64

typedef struct
{
  const char *msgid;
  const char *texts[N_COUNTS];
  int         generations[N_COUNTS];
} PluralSlot;

static PluralSlot plural_slots[N_PLURAL_SLOTS];

const char *
_tb_schema_message_translate_plural (const char *msgid,
                                     const char *msgid_plural,
                                     gulong      n)
{
  int generation = *(volatile int *) &_nl_msg_cat_cntr;
  guint start = (guint) (((guintptr) msgid >> 3) % N_PLURAL_SLOTS);

  if (n >= N_COUNTS)
    return g_dngettext (GETTEXT_PACKAGE, msgid, msgid_plural, n);

  for (guint probe = 0; probe < 8; probe++)
    {
      PluralSlot *slot = &plural_slots[(start + probe) % N_PLURAL_SLOTS];
      const char *owner = g_atomic_pointer_get (&slot->msgid);

      if (owner == NULL &&
          g_atomic_pointer_compare_and_exchange (&slot->msgid, NULL, msgid))
        owner = msgid;
      else if (owner == NULL)
        owner = g_atomic_pointer_get (&slot->msgid);
      if (owner != msgid)
        continue;

      {
        const char *text = g_atomic_pointer_get (&slot->texts[n]);

        if (G_LIKELY (text != NULL && g_atomic_int_get (&slot->generations[n]) == generation))
          return text;
        text = g_dngettext (GETTEXT_PACKAGE, msgid, msgid_plural, n);
        g_atomic_int_set (&slot->generations[n], generation);
        g_atomic_pointer_set (&slot->texts[n], text);
        return text;
      }
    }
  return g_dngettext (GETTEXT_PACKAGE, msgid, msgid_plural, n);
}

#else

/* No way to know when the catalogues change: look it up each time. */
const char *
_tb_schema_message_translate (const char *msgid)
{
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

const char *
_tb_schema_message_translate_plural (const char *msgid,
                                     const char *msgid_plural,
                                     gulong      n)
{
  return g_dngettext (GETTEXT_PACKAGE, msgid, msgid_plural, n);
}

#endif
