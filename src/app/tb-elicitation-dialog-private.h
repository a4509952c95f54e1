/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach in an elicitation dialog. */

#include "tb-argument-editor.h"
#include "tb-elicitation-dialog.h"

G_BEGIN_DECLS

TbArgumentEditor  *tb_elicitation_dialog_get_editor  (TbElicitationDialog *self);
GtkScrolledWindow *tb_elicitation_dialog_get_content (TbElicitationDialog *self);
char              *tb_elicitation_dialog_dup_message (TbElicitationDialog *self);

G_END_DECLS
