/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TB_TYPE_SCHEMA_FIELD_ROW (tb_schema_field_row_get_type())

G_DECLARE_FINAL_TYPE (TbSchemaFieldRow, tb_schema_field_row, TB, SCHEMA_FIELD_ROW, GtkListBoxRow)

GtkWidget  *tb_schema_field_row_new             (const char       *title,
                                                 const char       *hint,
                                                 const char       *description,
                                                 gboolean          required);
const char *tb_schema_field_row_get_title       (TbSchemaFieldRow *self);
void        tb_schema_field_row_set_title       (TbSchemaFieldRow *self,
                                                 const char       *title);
void        tb_schema_field_row_add_control     (TbSchemaFieldRow *self,
                                                 GtkWidget        *control);
void        tb_schema_field_row_set_input       (TbSchemaFieldRow *self,
                                                 GtkWidget        *input);
GtkWidget  *tb_schema_field_row_get_error_label (TbSchemaFieldRow *self);

G_END_DECLS
