/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TB_TYPE_JSON_ITEM (tb_json_item_get_type())

G_DECLARE_FINAL_TYPE (TbJsonItem, tb_json_item, TB, JSON_ITEM, GObject)

const char *tb_json_item_get_key     (TbJsonItem *self);
const char *tb_json_item_get_summary (TbJsonItem *self);
JsonNode   *tb_json_item_get_node    (TbJsonItem *self);
TbJsonItem *tb_json_item_new         (const char *key,
                                      JsonNode   *node);
GListModel *tb_json_item_create_children (TbJsonItem *self);

G_END_DECLS
