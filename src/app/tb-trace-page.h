/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-fork-editor.h"
#include "tb-replay-report-view.h"

G_BEGIN_DECLS

#define TB_TYPE_TRACE_PAGE (tb_trace_page_get_type())

G_DECLARE_FINAL_TYPE (TbTracePage, tb_trace_page, TB, TRACE_PAGE, GtkWidget)

/**
 * TbTracePageProviderFunc:
 * @user_data: the data given with the function
 * @error: return location for the reason there is no provider
 *
 * Returns: (transfer full) (nullable): a provider for a live fork
 */
typedef TbProvider *(*TbTracePageProviderFunc) (gpointer   user_data,
                                                GError   **error);

GtkWidget      *tb_trace_page_new                (void);
void            tb_trace_page_set_registry       (TbTracePage    *self,
                                                  TbToolRegistry *registry);
void            tb_trace_page_set_trace          (TbTracePage    *self,
                                                  TbTrace        *trace,
                                                  const char     *title);
TbTrace        *tb_trace_page_get_trace          (TbTracePage    *self);
void            tb_trace_page_set_redactor       (TbTracePage    *self,
                                                  TbRedactor     *redactor);
const char     *tb_trace_page_get_title          (TbTracePage    *self);
gboolean        tb_trace_page_save_to            (TbTracePage    *self,
                                                  GFile          *file,
                                                  GError        **error);
void            tb_trace_page_open_file          (TbTracePage    *self,
                                                  GFile          *file);
gboolean        tb_trace_page_export_to          (TbTracePage    *self,
                                                  GFile          *file,
                                                  TbDefinitionFormat format,
                                                  GError        **error);
gboolean        tb_trace_page_get_busy           (TbTracePage    *self);
const char     *tb_trace_page_get_status_text    (TbTracePage    *self);
guint           tb_trace_page_get_n_events       (TbTracePage    *self);
char           *tb_trace_page_get_event_row_text (TbTracePage    *self,
                                                  guint           position);
void            tb_trace_page_select_event       (TbTracePage    *self,
                                                  guint           position);
guint           tb_trace_page_get_n_rows         (TbTracePage    *self);
char           *tb_trace_page_get_row            (TbTracePage    *self,
                                                  guint           row,
                                                  guint          *depth,
                                                  gint           *event);
gint            tb_trace_page_get_selected_event (TbTracePage    *self);
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
gboolean        tb_trace_page_fork               (TbTracePage    *self,
                                                  guint           step,
                                                  TbReplayEdit    edit,
                                                  const char     *json_text,
                                                  GError        **error);

void            tb_trace_page_set_fork_kind      (TbTracePage    *self,
                                                  TbReplayEdit    edit,
                                                  guint           turn);
GtkTextBuffer  *tb_trace_page_get_fork_buffer    (TbTracePage    *self);
void            tb_trace_page_set_remember_recent (TbTracePage   *self,
                                                   gboolean       remember);
guint           tb_trace_page_get_n_recent       (TbTracePage    *self);
void            tb_trace_page_offer_recovered    (TbTracePage    *self,
                                                  GFile          *file);
gboolean        tb_trace_page_get_offering_recovered (TbTracePage *self);
void            tb_trace_page_set_provider_func  (TbTracePage    *self,
                                                  TbTracePageProviderFunc func,
                                                  gpointer        user_data);
void            tb_trace_page_set_fork_live      (TbTracePage    *self,
                                                  gboolean        live);
TbForkEditor   *tb_trace_page_get_fork_editor    (TbTracePage    *self);
TbReplayReportView *tb_trace_page_get_report_view (TbTracePage   *self);
gboolean        tb_trace_page_fork_from_event    (TbTracePage    *self,
                                                  guint           position,
                                                  GError        **error);
gboolean        tb_trace_page_save_fork_to       (TbTracePage    *self,
                                                  GFile          *file,
                                                  GError        **error);

G_END_DECLS
