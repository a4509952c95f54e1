/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach in a sampling dialog. */

#include "tb-sampling-dialog.h"

G_BEGIN_DECLS

const char    *tb_sampling_dialog_get_messages_text (TbSamplingDialog *self);
GtkTextBuffer *tb_sampling_dialog_get_answer        (TbSamplingDialog *self);
GtkWidget     *tb_sampling_dialog_get_ask_button    (TbSamplingDialog *self);
const char    *tb_sampling_dialog_get_status        (TbSamplingDialog *self);

G_END_DECLS
