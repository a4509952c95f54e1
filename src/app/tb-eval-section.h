/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-eval-view.h"

G_BEGIN_DECLS

#define TB_TYPE_EVAL_SECTION (tb_eval_section_get_type ())

G_DECLARE_FINAL_TYPE (TbEvalSection, tb_eval_section, TB, EVAL_SECTION, GtkWidget)

void        tb_eval_section_open_report (TbEvalSection *self,
                                         GFile         *file);
void        tb_eval_section_run_folder  (TbEvalSection *self,
                                         GFile         *folder);
void        tb_eval_section_choose_report (TbEvalSection *self);
void        tb_eval_section_choose_folder (TbEvalSection *self);
void        tb_eval_section_close       (TbEvalSection *self);
gboolean    tb_eval_section_get_busy    (TbEvalSection *self);
const char *tb_eval_section_get_title   (TbEvalSection *self);
TbEvalView *tb_eval_section_get_view    (TbEvalSection *self);

G_END_DECLS
