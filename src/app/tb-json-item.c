/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-json-tree"

#include "config.h"

#include <glib/gi18n.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-json-item.h"

/* One member or item of a JSON value, as a row of a tree; its children are
 * made only when asked for, and at most MAX_CHILDREN of them, so a large
 * value opens at once. */

#define MAX_CHILDREN 5000

struct _TbJsonItem
{
  GObject   parent_instance;
  char     *key;
  char     *summary;
  JsonNode *node;
};

G_DEFINE_FINAL_TYPE (TbJsonItem, tb_json_item, G_TYPE_OBJECT)

enum { ITEM_PROP_0, ITEM_PROP_KEY, ITEM_PROP_SUMMARY, ITEM_N_PROPS };
static GParamSpec *item_properties [ITEM_N_PROPS];

static void
tb_json_item_finalize (GObject *object)
{
  TbJsonItem *self = (TbJsonItem *) object;

  g_free (self->key);
  g_free (self->summary);
  g_clear_pointer (&self->node, json_node_unref);
  G_OBJECT_CLASS (tb_json_item_parent_class)->finalize (object);
}

static void
tb_json_item_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TbJsonItem *self = TB_JSON_ITEM (object);

  switch (prop_id)
    {
    case ITEM_PROP_KEY:
      g_value_set_string (value, self->key);
      break;
    case ITEM_PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_json_item_class_init (TbJsonItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_json_item_finalize;
  object_class->get_property = tb_json_item_get_property;

  item_properties [ITEM_PROP_KEY] =
    g_param_spec_string ("key", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  item_properties [ITEM_PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, ITEM_N_PROPS, item_properties);
}

static void
tb_json_item_init (TbJsonItem *self)
{
}

static char *
summarize (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      guint n = json_object_get_size (json_node_get_object (node));

      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "{ %u member }", "{ %u members }", n),
                              n);
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      guint n = json_array_get_length (json_node_get_array (node));

      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "[ %u item ]", "[ %u items ]", n), n);
    }
  {
    g_autofree char *text = tb_json_to_string (node, FALSE);

    return tb_text_preview (text, 1000, NULL);
  }
}

static TbJsonItem *
item_new (const char *key,
          JsonNode   *node)
{
  TbJsonItem *self = g_object_new (TB_TYPE_JSON_ITEM, NULL);

  self->key = g_strdup (key);
  self->node = json_node_ref (node);
  self->summary = summarize (node);
  return self;
}

const char *
tb_json_item_get_key (TbJsonItem *self)
{
  g_return_val_if_fail (TB_IS_JSON_ITEM (self), NULL);
  return self->key;
}

const char *
tb_json_item_get_summary (TbJsonItem *self)
{
  g_return_val_if_fail (TB_IS_JSON_ITEM (self), NULL);
  return self->summary;
}

/**
 * tb_json_item_get_node:
 * @self: an item
 *
 * Returns: (transfer none) (nullable): the value; %NULL for the row that
 *   says how many children are not listed
 */
JsonNode *
tb_json_item_get_node (TbJsonItem *self)
{
  g_return_val_if_fail (TB_IS_JSON_ITEM (self), NULL);
  return self->node;
}

static GListModel *
children_of (JsonNode *node)
{
  g_autoptr(GPtrArray) items = NULL;
  GListStore *store;
  guint total = 0;

  if (!JSON_NODE_HOLDS_OBJECT (node) && !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  store = g_list_store_new (TB_TYPE_JSON_ITEM);
  items = g_ptr_array_new_with_free_func (g_object_unref);
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &key, &member) && items->len < MAX_CHILDREN)
        g_ptr_array_add (items, item_new (key, member));
      total = json_object_get_size (json_node_get_object (node));
    }
  else
    {
      JsonArray *array = json_node_get_array (node);

      total = json_array_get_length (array);
      for (guint i = 0; i < MIN (total, MAX_CHILDREN); i++)
        {
          g_autofree char *key = g_strdup_printf ("%u", i);

          g_ptr_array_add (items, item_new (key, json_array_get_element (array, i)));
        }
    }
  if (total > items->len)
    {
      TbJsonItem *more = g_object_new (TB_TYPE_JSON_ITEM, NULL);

      more->key = g_strdup ("…");
      /* Translators: %u counts members or items a tree does not list */
      more->summary = g_strdup_printf (_("%u more not listed; the text view and Save show all"),
                                       total - items->len);
      g_ptr_array_add (items, more);
    }
  /* One change notification for all children, not one per child. */
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}

/**
 * tb_json_item_new:
 * @key: (nullable): the member's name or the item's index
 * @node: the value
 *
 * Returns: (transfer full): an item for the root of a tree
 */
TbJsonItem *
tb_json_item_new (const char *key,
                  JsonNode   *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  return item_new (key, node);
}

/**
 * tb_json_item_create_children:
 * @self: an item
 *
 * Returns: (transfer full) (nullable): the members or items of an object
 *   or array, %NULL for anything else
 */
GListModel *
tb_json_item_create_children (TbJsonItem *self)
{
  g_return_val_if_fail (TB_IS_JSON_ITEM (self), NULL);
  return self->node != NULL ? children_of (self->node) : NULL;
}
