/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-lock-row.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

const char *tb_lock_row_get_key (TbLockRow  *self);

G_END_DECLS
