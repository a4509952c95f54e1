/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-tool-sources.h"

G_BEGIN_DECLS

/**
 * TbMcpProviderFunc:
 * @window: the window a sampling dialog opens on
 * @user_data: closure
 *
 * Returns: (transfer full) (nullable): the model a person may ask to answer
 *   a server's sampling request, or %NULL for none
 */
typedef TbProvider *(*TbMcpProviderFunc) (GtkWindow *window,
                                          gpointer   user_data);

void              tb_mcp_dialogs_set_provider_func   (GtkWindow          *window,
                                                      TbMcpProviderFunc   func,
                                                      gpointer            user_data);
void              tb_mcp_dialogs_attach_sources      (GtkWindow          *window,
                                                      TbToolSources      *sources);

G_END_DECLS
