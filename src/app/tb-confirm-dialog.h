/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_CONFIRM_DIALOG (tb_confirm_dialog_get_type())

G_DECLARE_FINAL_TYPE (TbConfirmDialog, tb_confirm_dialog, TB, CONFIRM_DIALOG, AdwMessageDialog)

/**
 * TbConfirmDone:
 * @proposal: the proposal the dialog was about
 * @response: "commit", "reject", or "close" when the person closed the
 *   dialog without deciding
 * @error: (nullable): why the commit or the rejection failed
 * @user_data: the closure's data
 */
typedef void (*TbConfirmDone) (TbFactProposal *proposal,
                               const char     *response,
                               const GError   *error,
                               gpointer        user_data);

AdwMessageDialog *tb_confirm_dialog_new          (GtkWindow        *parent,
                                                  TbWorkspace      *workspace,
                                                  TbFactProposal   *proposal,
                                                  TbConfirmDone     done,
                                                  gpointer          user_data);

G_END_DECLS
