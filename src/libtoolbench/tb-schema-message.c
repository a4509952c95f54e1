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

/* A plural message's translation depends on which plural form the count
 * takes, which only the catalogue knows: it is kept per count, for the
 * counts below N_COUNTS (a schema's bounds are mostly small), and looked
 * up each time for larger counts. */
#define N_PLURAL_SLOTS 32
#define N_COUNTS       64

/* A translation and the catalogues' generation it was looked up in. */
typedef struct
{
  const char *text;
  int         generation;
} Entry;

/* Every slot starts with the message that took it. */
typedef struct
{
  const char *msgid;
  Entry       entry;
} Slot;

typedef struct
{
  const char *msgid;
  Entry       entries[N_COUNTS];
} PluralSlot;

static Slot slots[N_SLOTS];
static PluralSlot plural_slots[N_PLURAL_SLOTS];

/* The slot of @msgid among @n_slots slots of @size bytes, taken for it if
 * it has none yet, or %NULL when the slots it may go in are all others'. */
static gpointer
find_slot (gpointer    table,
           gsize       size,
           guint       n_slots,
           const char *msgid)
{
  guint start = (guint) (((guintptr) msgid >> 3) % n_slots);

  for (guint probe = 0; probe < MIN (n_slots, 16); probe++)
    {
      gpointer slot = (char *) table + size * ((start + probe) % n_slots);
      const char **owner_p = slot;
      const char *owner = g_atomic_pointer_get (owner_p);

      if (owner == NULL && g_atomic_pointer_compare_and_exchange (owner_p, NULL, msgid))
        return slot;
      if (owner == NULL)
        owner = g_atomic_pointer_get (owner_p);
      if (owner == msgid)
        return slot;
    }
  return NULL;
}

/* @entry's translation when it is of @generation, otherwise NULL. */
static const char *
entry_get (Entry *entry,
           int    generation)
{
  const char *text = g_atomic_pointer_get (&entry->text);

  if (G_LIKELY (text != NULL && g_atomic_int_get (&entry->generation) == generation))
    return text;
  return NULL;
}

static const char *
entry_set (Entry      *entry,
           int         generation,
           const char *text)
{
  g_atomic_int_set (&entry->generation, generation);
  g_atomic_pointer_set (&entry->text, text);
  return text;
}

const char *
_tb_schema_message_translate (const char *msgid)
{
  int generation = *(volatile int *) &_nl_msg_cat_cntr;
  Slot *slot = find_slot (slots, sizeof (Slot), N_SLOTS, msgid);
  const char *text;

  if (slot == NULL)
    return g_dgettext (GETTEXT_PACKAGE, msgid);
  text = entry_get (&slot->entry, generation);
  if (text != NULL)
    return text;
  return entry_set (&slot->entry, generation, g_dgettext (GETTEXT_PACKAGE, msgid));
}

const char *
_tb_schema_message_translate_plural (const char *msgid,
                                     const char *msgid_plural,
                                     gulong      n)
{
  int generation = *(volatile int *) &_nl_msg_cat_cntr;
  PluralSlot *slot = n < N_COUNTS ? find_slot (plural_slots, sizeof (PluralSlot),
                                               N_PLURAL_SLOTS, msgid)
                                  : NULL;
  const char *text;

  if (slot == NULL)
    return g_dngettext (GETTEXT_PACKAGE, msgid, msgid_plural, n);
  text = entry_get (&slot->entries[n], generation);
  if (text != NULL)
    return text;
  return entry_set (&slot->entries[n], generation,
                    g_dngettext (GETTEXT_PACKAGE, msgid, msgid_plural, n));
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
