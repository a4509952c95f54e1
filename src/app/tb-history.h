/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

#include "tb-history-entry.h"

G_BEGIN_DECLS

/**
 * TB_HISTORY_MAX:
 *
 * How many calls the history keeps; the oldest go first.
 */
#define TB_HISTORY_MAX 1000

#define TB_TYPE_HISTORY (tb_history_get_type())

G_DECLARE_FINAL_TYPE (TbHistory, tb_history, TB, HISTORY, GObject)

TbHistory      *tb_history_new           (TbToolRegistry *registry);
TbToolRegistry *tb_history_get_registry  (TbHistory      *self);
TbHistoryEntry *tb_history_find          (TbHistory      *self,
                                          const char     *call_id);
void            tb_history_clear         (TbHistory      *self);
void            tb_history_follow_trace  (TbHistory      *self,
                                          TbTrace        *trace);

G_END_DECLS
