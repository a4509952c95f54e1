/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

G_BEGIN_DECLS

/**
 * TB_HISTORY_MAX:
 *
 * How many calls the history keeps; the oldest go first.
 */
#define TB_HISTORY_MAX 1000

#define TB_TYPE_HISTORY_ENTRY (tb_history_entry_get_type())

G_DECLARE_FINAL_TYPE (TbHistoryEntry, tb_history_entry, TB, HISTORY_ENTRY, GObject)

const char   *tb_history_entry_get_tool_name  (TbHistoryEntry *self);
const char   *tb_history_entry_get_call_id    (TbHistoryEntry *self);
GDateTime    *tb_history_entry_get_started    (TbHistoryEntry *self);
JsonNode     *tb_history_entry_get_arguments  (TbHistoryEntry *self);
TbToolResult *tb_history_entry_get_result     (TbHistoryEntry *self);
gboolean      tb_history_entry_get_running    (TbHistoryEntry *self);
gboolean      tb_history_entry_get_from_loop  (TbHistoryEntry *self);
gboolean      tb_history_entry_get_edited     (TbHistoryEntry *self);
char         *tb_history_entry_get_status_label (TbHistoryEntry *self);

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
