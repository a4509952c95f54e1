/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-prefs.h"

G_BEGIN_DECLS

/**
 * TbPrefsSlot:
 * @TB_PREFS_SLOT_FREE: the name can go there
 * @TB_PREFS_SLOT_GONE: the row being edited is no longer there
 * @TB_PREFS_SLOT_TAKEN: another row has the name
 *
 * Where a named row goes in a list setting.
 */
typedef enum
{
  TB_PREFS_SLOT_FREE,
  TB_PREFS_SLOT_GONE,
  TB_PREFS_SLOT_TAKEN,
} TbPrefsSlot;

int         _tb_prefs_find_named (GPtrArray  *rows,
                                  const char *name);
TbPrefsSlot _tb_prefs_find_slot  (GPtrArray  *rows,
                                  const char *old_name,
                                  const char *name,
                                  int        *replace);
void        _tb_prefs_put_named  (GPtrArray  *rows,
                                  int         replace,
                                  gpointer    row);

gboolean            tb_prefs_check_url             (const char          *text,
                                                    GError             **error);

G_END_DECLS
