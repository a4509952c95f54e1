/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-argument-editor.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

gboolean       tb_argument_editor_set_text        (TbArgumentEditor *self,
                                                   const char       *text,
                                                   GError          **error);
GPtrArray     *tb_argument_editor_get_errors      (TbArgumentEditor *self);
TbSchemaForm  *tb_argument_editor_get_form        (TbArgumentEditor *self);
GtkTextBuffer *tb_argument_editor_get_json_buffer (TbArgumentEditor *self);
const char    *tb_argument_editor_get_json_error  (TbArgumentEditor *self);

G_END_DECLS
