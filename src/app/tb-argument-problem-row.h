/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TB_TYPE_ARGUMENT_PROBLEM_ROW (tb_argument_problem_row_get_type())

G_DECLARE_FINAL_TYPE (TbArgumentProblemRow, tb_argument_problem_row, TB, ARGUMENT_PROBLEM_ROW,
                      GtkListBoxRow)

GtkWidget  *tb_argument_problem_row_new         (const char           *message,
                                                 const char           *pointer);
const char *tb_argument_problem_row_get_pointer (TbArgumentProblemRow *self);

G_END_DECLS
