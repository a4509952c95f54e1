/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-json-tree"

#include "config.h"

#include <glib/gi18n.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-json-tree.h"

/* A JSON value as a tree with collapsible objects and arrays; its rows are
 * TbJsonItems, whose children are made only when a row is expanded. */

static GListModel *
create_child_model (gpointer item,
                    gpointer user_data)
{
  return tb_json_item_create_children (TB_JSON_ITEM (item));
}

struct _TbJsonTree
{
  GtkWidget         parent_instance;

  GtkNoSelection   *selection;

  GtkTreeListModel *model;
};

G_DEFINE_FINAL_TYPE (TbJsonTree, tb_json_tree, GTK_TYPE_WIDGET)

static void
tb_json_tree_dispose (GObject *object)
{
  TbJsonTree *self = (TbJsonTree *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_JSON_TREE);
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->model);
  G_OBJECT_CLASS (tb_json_tree_parent_class)->dispose (object);
}

static void
tb_json_tree_class_init (TbJsonTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_json_tree_dispose;
  g_type_ensure (TB_TYPE_JSON_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-json-tree.ui");
  gtk_widget_class_bind_template_child (widget_class, TbJsonTree, selection);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tbjsontree");
}

static void
tb_json_tree_init (TbJsonTree *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* Children are made by a function, which a template cannot name. */
  self->model = gtk_tree_list_model_new (G_LIST_MODEL (g_list_store_new (TB_TYPE_JSON_ITEM)),
                                         FALSE, FALSE, create_child_model, NULL, NULL);
  gtk_no_selection_set_model (self->selection, G_LIST_MODEL (self->model));
}

GtkWidget *
tb_json_tree_new (void)
{
  return g_object_new (TB_TYPE_JSON_TREE, NULL);
}

/**
 * tb_json_tree_set_node:
 * @self: a tree
 * @node: (nullable): the value to show
 */
void
tb_json_tree_set_node (TbJsonTree *self,
                       JsonNode   *node)
{
  GListStore *root;

  g_return_if_fail (TB_IS_JSON_TREE (self));

  root = G_LIST_STORE (gtk_tree_list_model_get_model (self->model));
  g_list_store_remove_all (root);
  if (node == NULL)
    return;

  if (JSON_NODE_HOLDS_OBJECT (node) || JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autoptr(TbJsonItem) whole = tb_json_item_new ("", node);
      g_autoptr(GListModel) children = tb_json_item_create_children (whole);
      guint n = g_list_model_get_n_items (children);
      g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (items, g_list_model_get_item (children, i));
      g_list_store_splice (root, 0, 0, items->pdata, n);
    }
  else
    {
      g_autoptr(TbJsonItem) item = tb_json_item_new ("", node);

      g_list_store_append (root, item);
    }
}

/**
 * tb_json_tree_get_model:
 * @self: a tree
 *
 * Returns: (transfer none): the rows, a #GtkTreeListModel
 */
GListModel *
tb_json_tree_get_model (TbJsonTree *self)
{
  g_return_val_if_fail (TB_IS_JSON_TREE (self), NULL);
  return G_LIST_MODEL (self->model);
}
