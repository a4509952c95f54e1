/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_RESOURCE_VIEW (tb_resource_view_get_type())

G_DECLARE_FINAL_TYPE (TbResourceView, tb_resource_view, TB, RESOURCE_VIEW, GtkWidget)

GtkWidget  *tb_resource_view_new            (void);
void        tb_resource_view_show_loading   (TbResourceView *self,
                                             const char     *uri);
void        tb_resource_view_show_contents  (TbResourceView *self,
                                             JsonArray      *contents);
void        tb_resource_view_show_error     (TbResourceView *self,
                                             const char     *uri,
                                             const char     *message);

G_END_DECLS
