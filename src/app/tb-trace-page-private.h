/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests, the screenshots and the benchmarks read of the Trace
 * page; the window uses tb-trace-page.h only. */

#include "tb-eval-view.h"
#include "tb-fork-editor.h"
#include "tb-replay-report-view.h"
#include "tb-trace-page.h"

G_BEGIN_DECLS

gboolean        tb_trace_page_get_busy           (TbTracePage    *self);
const char     *tb_trace_page_get_status_text    (TbTracePage    *self);
guint           tb_trace_page_get_n_events       (TbTracePage    *self);
char           *tb_trace_page_get_event_row_text (TbTracePage    *self,
                                                  guint           position);
guint           tb_trace_page_get_n_rows         (TbTracePage    *self);
char           *tb_trace_page_get_row            (TbTracePage    *self,
                                                  guint           row,
                                                  guint          *depth,
                                                  gint           *event);
void            tb_trace_page_set_filter         (TbTracePage    *self,
                                                  int             kind,
                                                  const char     *search);
char           *tb_trace_page_get_detail_text    (TbTracePage    *self);
void            tb_trace_page_set_live           (TbTracePage    *self,
                                                  gboolean        live);
GtkWidget      *tb_trace_page_get_button         (TbTracePage    *self,
                                                  const char     *name);
TbReplayReport *tb_trace_page_get_report         (TbTracePage    *self);
guint           tb_trace_page_get_n_report_rows  (TbTracePage    *self);
char           *tb_trace_page_get_report_row_text (TbTracePage   *self,
                                                   guint          position);
gboolean        tb_trace_page_get_report_row_highlighted (TbTracePage *self,
                                                          guint        position);
void            tb_trace_page_select_step        (TbTracePage    *self,
                                                  guint           position);
void            tb_trace_page_set_fork_kind      (TbTracePage    *self,
                                                  TbReplayEdit    edit,
                                                  guint           turn);
GtkTextBuffer  *tb_trace_page_get_fork_buffer    (TbTracePage    *self);
guint           tb_trace_page_get_n_recent       (TbTracePage    *self);
gboolean        tb_trace_page_get_offering_recovered (TbTracePage *self);
void            tb_trace_page_set_fork_live      (TbTracePage    *self,
                                                  gboolean        live);
TbForkEditor   *tb_trace_page_get_fork_editor    (TbTracePage    *self);
TbReplayReportView *tb_trace_page_get_report_view (TbTracePage   *self);
void            tb_trace_page_open_eval_report_file (TbTracePage *self,
                                                     GFile       *file);
void            tb_trace_page_run_scenario_folder (TbTracePage   *self,
                                                   GFile         *folder);
TbEvalView     *tb_trace_page_get_eval_view      (TbTracePage    *self);
gboolean        tb_trace_page_get_eval_busy      (TbTracePage    *self);
const char     *tb_trace_page_get_eval_title     (TbTracePage    *self);

G_END_DECLS
