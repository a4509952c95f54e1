/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read of a server's log view. */

#include "tb-mcp-log-view.h"

G_BEGIN_DECLS

char        *tb_mcp_log_view_get_text           (TbMcpLogView *self);
GtkDropDown *tb_mcp_log_view_get_level_dropdown (TbMcpLogView *self);
const char  *tb_mcp_log_view_get_level_status   (TbMcpLogView *self);
gboolean     tb_mcp_log_view_level_is_settled   (TbMcpLogView *self);

G_END_DECLS
