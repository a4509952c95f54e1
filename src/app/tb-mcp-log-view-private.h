/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read of a server's log view. */

#include "tb-mcp-log-view.h"

G_BEGIN_DECLS

char *tb_mcp_log_view_get_text (TbMcpLogView *self);

G_END_DECLS
