/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_ELICITATION_DIALOG (tb_elicitation_dialog_get_type())

G_DECLARE_FINAL_TYPE (TbElicitationDialog, tb_elicitation_dialog, TB, ELICITATION_DIALOG,
                      AdwMessageDialog)

AdwMessageDialog *tb_elicitation_dialog_new (GtkWindow          *parent,
                                             TbMcpServerRequest *request);

G_END_DECLS
