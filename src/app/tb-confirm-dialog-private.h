/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-confirm-dialog.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

TbFactProposal   *tb_confirm_dialog_get_proposal (TbConfirmDialog  *self);
const char       *tb_confirm_dialog_get_text     (AdwMessageDialog *dialog,
                                                  const char       *part_name);

char             *tb_confirm_diff                (const char       *old_text,
                                                  const char       *new_text);

G_END_DECLS
