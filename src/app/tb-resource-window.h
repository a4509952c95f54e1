/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_RESOURCE_WINDOW (tb_resource_window_get_type())

G_DECLARE_FINAL_TYPE (TbResourceWindow, tb_resource_window, TB, RESOURCE_WINDOW, AdwWindow)

TbResourceWindow *tb_resource_window_new           (GtkWindow        *parent);
void              tb_resource_window_read          (TbResourceWindow *self,
                                                    TbMcpClient      *client,
                                                    const char       *uri);
void              tb_resource_window_show_contents (TbResourceWindow *self,
                                                    const char       *server,
                                                    JsonArray        *contents);
void              tb_resource_window_show_error    (TbResourceWindow *self,
                                                    const char       *server,
                                                    const char       *uri,
                                                    const char       *message);

G_END_DECLS
