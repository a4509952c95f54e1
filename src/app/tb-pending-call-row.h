/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-argument-editor.h"

G_BEGIN_DECLS

#define TB_TYPE_PENDING_CALL_ROW (tb_pending_call_row_get_type())

G_DECLARE_FINAL_TYPE (TbPendingCallRow, tb_pending_call_row, TB, PENDING_CALL_ROW, GtkListBoxRow)

GtkWidget        *tb_pending_call_row_new               (TbPendingCall    *pending,
                                                         TbApprovalPolicy  policy);
TbPendingCall    *tb_pending_call_row_get_pending       (TbPendingCallRow *self);
void              tb_pending_call_row_set_policy        (TbPendingCallRow *self,
                                                         TbApprovalPolicy  policy);
TbArgumentEditor *tb_pending_call_row_get_editor        (TbPendingCallRow *self);
GtkWidget        *tb_pending_call_row_get_button        (TbPendingCallRow *self,
                                                         const char       *name);
GtkEditable      *tb_pending_call_row_get_skip_entry    (TbPendingCallRow *self);
gboolean          tb_pending_call_row_approve           (TbPendingCallRow *self);
gboolean          tb_pending_call_row_run_anyway        (TbPendingCallRow *self);
void              tb_pending_call_row_edit              (TbPendingCallRow *self);
void              tb_pending_call_row_skip              (TbPendingCallRow *self);
void              tb_pending_call_row_reject            (TbPendingCallRow *self);
void              tb_pending_call_row_set_progress      (TbPendingCallRow *self,
                                                         double            progress,
                                                         double            total,
                                                         const char       *message);
GtkProgressBar   *tb_pending_call_row_get_progress_bar  (TbPendingCallRow *self);

G_END_DECLS
