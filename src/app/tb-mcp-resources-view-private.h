/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach in a server's Resources page. */

#include "tb-mcp-argument-entry.h"
#include "tb-mcp-resources-view.h"
#include "tb-resource-window.h"

G_BEGIN_DECLS

gboolean            tb_mcp_resources_view_is_settled       (TbMcpResourcesView *self);
const char         *tb_mcp_resources_view_get_state        (TbMcpResourcesView *self);
const char         *tb_mcp_resources_view_get_status_title (TbMcpResourcesView *self);
const char         *tb_mcp_resources_view_get_status_text  (TbMcpResourcesView *self);
const char         *tb_mcp_resources_view_get_message      (TbMcpResourcesView *self);
GtkEditable        *tb_mcp_resources_view_get_search_entry (TbMcpResourcesView *self);
guint               tb_mcp_resources_view_get_n_rows       (TbMcpResourcesView *self);
char               *tb_mcp_resources_view_get_row_text     (TbMcpResourcesView *self,
                                                            guint               position);
gint                tb_mcp_resources_view_find_row         (TbMcpResourcesView *self,
                                                            const char         *uri);
void                tb_mcp_resources_view_activate_row     (TbMcpResourcesView *self,
                                                            guint               position);
void                tb_mcp_resources_view_set_subscribed   (TbMcpResourcesView *self,
                                                            guint               position,
                                                            gboolean            subscribed);
TbResourceWindow   *tb_mcp_resources_view_get_window       (TbMcpResourcesView *self,
                                                            const char         *uri);
const char         *tb_mcp_resources_view_get_page         (TbMcpResourcesView *self);
guint               tb_mcp_resources_view_get_n_fields     (TbMcpResourcesView *self);
TbMcpArgumentEntry *tb_mcp_resources_view_get_field        (TbMcpResourcesView *self,
                                                            guint               position);
const char         *tb_mcp_resources_view_get_template_message (TbMcpResourcesView *self);

G_END_DECLS
