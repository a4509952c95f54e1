/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TB_TYPE_RECENT_TRACES (tb_recent_traces_get_type())

G_DECLARE_FINAL_TYPE (TbRecentTraces, tb_recent_traces, TB, RECENT_TRACES, GtkWidget)

void  tb_recent_traces_remember   (TbRecentTraces *self,
                                   GFile          *file);
void  tb_recent_traces_set_active (TbRecentTraces *self,
                                   gboolean        active);
guint tb_recent_traces_refresh    (TbRecentTraces *self);

G_END_DECLS
