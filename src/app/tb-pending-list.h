/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-pending-call-row.h"

G_BEGIN_DECLS

#define TB_TYPE_PENDING_LIST (tb_pending_list_get_type())

G_DECLARE_FINAL_TYPE (TbPendingList, tb_pending_list, TB, PENDING_LIST, GtkWidget)

void              tb_pending_list_set_model        (TbPendingList    *self,
                                                    GListModel       *pending_calls);
void              tb_pending_list_set_policy       (TbPendingList    *self,
                                                    TbApprovalPolicy  policy);
void              tb_pending_list_set_progress     (TbPendingList    *self,
                                                    TbPendingCall    *pending,
                                                    double            progress,
                                                    double            total,
                                                    const char       *message);
TbPendingCallRow *tb_pending_list_get_current      (TbPendingList    *self);
gboolean          tb_pending_list_focus_waiting    (TbPendingList    *self,
                                                    TbPendingCallRow *after);
guint             tb_pending_list_get_n_rows       (TbPendingList    *self);
TbPendingCallRow *tb_pending_list_get_row          (TbPendingList    *self,
                                                    guint             position);

G_END_DECLS
