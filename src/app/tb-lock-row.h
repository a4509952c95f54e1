/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define TB_TYPE_LOCK_ROW (tb_lock_row_get_type())

G_DECLARE_FINAL_TYPE (TbLockRow, tb_lock_row, TB, LOCK_ROW, AdwActionRow)

GtkWidget  *tb_lock_row_new     (const char *key);

G_END_DECLS
