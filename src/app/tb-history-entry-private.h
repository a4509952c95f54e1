/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-history-entry.h"

G_BEGIN_DECLS

TbHistoryEntry *tb_history_entry_new    (const char     *tool_name,
                                         const char     *call_id,
                                         JsonNode       *arguments,
                                         gboolean        from_loop,
                                         gboolean        edited);
void            tb_history_entry_finish (TbHistoryEntry *self,
                                         TbToolResult   *result);

G_END_DECLS
