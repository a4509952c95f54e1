/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <toolbench.h>

G_BEGIN_DECLS

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

G_END_DECLS
