/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-tool-sources.h"

G_BEGIN_DECLS

AdwMessageDialog *tb_sampling_dialog_new             (GtkWindow          *parent,
                                                      TbMcpServerRequest *request);
const char       *tb_sampling_dialog_get_messages_text (AdwMessageDialog *dialog);
GtkTextBuffer    *tb_sampling_dialog_get_answer      (AdwMessageDialog   *dialog);
void              tb_sampling_dialog_set_provider    (AdwMessageDialog   *dialog,
                                                      TbProvider         *provider);
GtkWidget        *tb_sampling_dialog_get_ask_button  (AdwMessageDialog   *dialog);
const char       *tb_sampling_dialog_get_status      (AdwMessageDialog   *dialog);
GtkScrolledWindow *tb_mcp_dialog_get_content         (AdwMessageDialog   *dialog);

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
void              tb_mcp_dialogs_attach              (GtkWindow          *window,
                                                      TbMcpClient        *client);
AdwMessageDialog *tb_mcp_dialogs_get_open            (GtkWindow          *window);
void              tb_mcp_dialogs_attach_sources      (GtkWindow          *window,
                                                      TbToolSources      *sources);

G_END_DECLS
