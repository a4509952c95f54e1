/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_FORK_EDITOR (tb_fork_editor_get_type())

G_DECLARE_FINAL_TYPE (TbForkEditor, tb_fork_editor, TB, FORK_EDITOR, GtkWidget)

GtkWidget     *tb_fork_editor_new            (void);
void           tb_fork_editor_set_target     (TbForkEditor  *self,
                                              guint          step,
                                              TbReplayEdit   edit,
                                              const char    *heading,
                                              JsonNode      *value);
void           tb_fork_editor_clear          (TbForkEditor  *self);
gboolean       tb_fork_editor_get_has_target (TbForkEditor  *self);
guint          tb_fork_editor_get_step       (TbForkEditor  *self);
TbReplayEdit   tb_fork_editor_get_edit       (TbForkEditor  *self);
gboolean       tb_fork_editor_get_modified   (TbForkEditor  *self);
GtkTextBuffer *tb_fork_editor_get_buffer     (TbForkEditor  *self);
char          *tb_fork_editor_dup_text       (TbForkEditor  *self);
void           tb_fork_editor_show_error     (TbForkEditor  *self,
                                              const char    *message);
gboolean       tb_fork_editor_get_live       (TbForkEditor  *self);
void           tb_fork_editor_set_live       (TbForkEditor  *self,
                                              gboolean       live);
void           tb_fork_editor_set_busy       (TbForkEditor  *self,
                                              gboolean       busy);
void           tb_fork_editor_set_can_save   (TbForkEditor  *self,
                                              gboolean       can_save);
GtkWidget     *tb_fork_editor_get_button     (TbForkEditor  *self,
                                              const char    *name);

G_END_DECLS
