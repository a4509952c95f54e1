/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_TOOL_LIST (tb_tool_list_get_type())

G_DECLARE_FINAL_TYPE (TbToolList, tb_tool_list, TB, TOOL_LIST, GObject)

TbToolList     *tb_tool_list_new          (TbToolRegistry *registry);
TbToolRegistry *tb_tool_list_get_registry (TbToolList     *self);
GListModel     *tb_tool_list_get_model    (TbToolList     *self);
GListModel     *tb_tool_list_get_sources  (TbToolList     *self);
void            tb_tool_list_set_search   (TbToolList     *self,
                                           const char     *text);
const char     *tb_tool_list_get_search   (TbToolList     *self);
void            tb_tool_list_set_source   (TbToolList     *self,
                                           const char     *source);
const char     *tb_tool_list_get_source   (TbToolList     *self);
void            tb_tool_list_update_sources (TbToolList   *self);

G_END_DECLS
