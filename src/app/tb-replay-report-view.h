/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_REPLAY_REPORT_VIEW (tb_replay_report_view_get_type())

G_DECLARE_FINAL_TYPE (TbReplayReportView, tb_replay_report_view, TB, REPLAY_REPORT_VIEW,
                      GtkWidget)

GtkWidget      *tb_replay_report_view_new                 (void);
void            tb_replay_report_view_set_report          (TbReplayReportView *self,
                                                           TbReplayReport     *report);
TbReplayReport *tb_replay_report_view_get_report          (TbReplayReportView *self);
guint           tb_replay_report_view_get_n_rows          (TbReplayReportView *self);
char           *tb_replay_report_view_dup_row_text        (TbReplayReportView *self,
                                                           guint               position);
gboolean        tb_replay_report_view_get_row_highlighted (TbReplayReportView *self,
                                                           guint               position);
void            tb_replay_report_view_select_step         (TbReplayReportView *self,
                                                           guint               position);
gint            tb_replay_report_view_get_selected_step   (TbReplayReportView *self);

G_END_DECLS
