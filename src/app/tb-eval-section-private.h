/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-eval-section.h"

G_BEGIN_DECLS

/* For tests. */
GtkWidget *tb_eval_section_get_cancel_button (TbEvalSection *self);
GtkWidget *tb_eval_section_get_close_button  (TbEvalSection *self);

G_END_DECLS
