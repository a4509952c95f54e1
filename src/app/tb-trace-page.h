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
void            tb_trace_page_open_file          (TbTracePage    *self,
                                                  GFile          *file);
void            tb_trace_page_select_event       (TbTracePage    *self,
                                                  guint           position);
gint            tb_trace_page_get_selected_event (TbTracePage    *self);

void            tb_trace_page_set_remember_recent (TbTracePage   *self,
                                                   gboolean       remember);
void            tb_trace_page_offer_recovered    (TbTracePage    *self,
                                                  GFile          *file);
void            tb_trace_page_set_provider_func  (TbTracePage    *self,
                                                  TbTracePageProviderFunc func,
                                                  gpointer        user_data);
gboolean        tb_trace_page_fork_from_event    (TbTracePage    *self,
                                                  guint           position,
                                                  GError        **error);

G_END_DECLS
