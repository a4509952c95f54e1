/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-mcp-dialogs.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

AdwMessageDialog *tb_mcp_dialogs_get_open            (GtkWindow          *window);

void              tb_mcp_dialogs_attach              (GtkWindow          *window,
                                                      TbMcpClient        *client);

G_END_DECLS
