/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_SAMPLING_DIALOG (tb_sampling_dialog_get_type())

G_DECLARE_FINAL_TYPE (TbSamplingDialog, tb_sampling_dialog, TB, SAMPLING_DIALOG, AdwMessageDialog)

AdwMessageDialog *tb_sampling_dialog_new          (GtkWindow          *parent,
                                                   TbMcpServerRequest *request);
TbProvider       *tb_sampling_dialog_get_provider (TbSamplingDialog   *self);
void              tb_sampling_dialog_set_provider (TbSamplingDialog   *self,
                                                   TbProvider         *provider);

G_END_DECLS
