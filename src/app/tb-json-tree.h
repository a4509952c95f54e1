/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "tb-json-item.h"

G_BEGIN_DECLS

#define TB_TYPE_JSON_TREE (tb_json_tree_get_type())

G_DECLARE_FINAL_TYPE (TbJsonTree, tb_json_tree, TB, JSON_TREE, GtkWidget)

GtkWidget  *tb_json_tree_new        (void);
void        tb_json_tree_set_node   (TbJsonTree *self,
                                     JsonNode   *node);
GListModel *tb_json_tree_get_model  (TbJsonTree *self);

G_END_DECLS
