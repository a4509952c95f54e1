/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

#include "tb-schema-form.h"

G_BEGIN_DECLS

#define TB_TYPE_ARGUMENT_EDITOR (tb_argument_editor_get_type())

G_DECLARE_FINAL_TYPE (TbArgumentEditor, tb_argument_editor, TB, ARGUMENT_EDITOR, GtkWidget)

GtkWidget     *tb_argument_editor_new             (void);
void           tb_argument_editor_set_tool        (TbArgumentEditor *self,
                                                   TbTool           *tool,
                                                   JsonNode         *arguments);
gboolean       tb_argument_editor_set_schema      (TbArgumentEditor *self,
                                                   JsonNode         *schema,
                                                   JsonNode         *arguments,
                                                   GError          **error);
TbTool        *tb_argument_editor_get_tool        (TbArgumentEditor *self);
JsonNode      *tb_argument_editor_get_arguments   (TbArgumentEditor *self);
void           tb_argument_editor_set_arguments   (TbArgumentEditor *self,
                                                   JsonNode         *arguments);
char          *tb_argument_editor_get_text        (TbArgumentEditor *self);
void           tb_argument_editor_paste           (TbArgumentEditor *self);
void           tb_argument_editor_reset           (TbArgumentEditor *self);
gboolean       tb_argument_editor_get_valid       (TbArgumentEditor *self);
gboolean       tb_argument_editor_get_parsable    (TbArgumentEditor *self);
GPtrArray     *tb_argument_editor_get_shown_errors (TbArgumentEditor *self);
void           tb_argument_editor_reveal_problems (TbArgumentEditor *self);
const char    *tb_argument_editor_get_view        (TbArgumentEditor *self);
void           tb_argument_editor_set_view        (TbArgumentEditor *self,
                                                   const char       *view);
gboolean       tb_argument_editor_focus_arguments (TbArgumentEditor *self);

G_END_DECLS
