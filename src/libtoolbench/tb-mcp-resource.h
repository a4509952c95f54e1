/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_RESOURCE (tb_mcp_resource_get_type ())
G_DECLARE_FINAL_TYPE (TbMcpResource, tb_mcp_resource, TB, MCP_RESOURCE, GObject)

TbMcpResource *tb_mcp_resource_new_from_json     (JsonObject    *definition,
                                                  gboolean       is_template);
gboolean       tb_mcp_resource_is_template       (TbMcpResource *self);
const char    *tb_mcp_resource_get_uri           (TbMcpResource *self);
const char    *tb_mcp_resource_get_uri_template  (TbMcpResource *self);
const char    *tb_mcp_resource_get_name          (TbMcpResource *self);
const char    *tb_mcp_resource_get_title         (TbMcpResource *self);
const char    *tb_mcp_resource_get_display_name  (TbMcpResource *self);
const char    *tb_mcp_resource_get_description   (TbMcpResource *self);
const char    *tb_mcp_resource_get_mime_type     (TbMcpResource *self);
gint64         tb_mcp_resource_get_size          (TbMcpResource *self);
JsonObject    *tb_mcp_resource_get_annotations   (TbMcpResource *self);
JsonArray     *tb_mcp_resource_get_icons         (TbMcpResource *self);
char         **tb_mcp_resource_get_variables     (TbMcpResource *self);
char          *tb_mcp_resource_expand            (TbMcpResource *self,
                                                  JsonObject    *values,
                                                  GError       **error);

GBytes        *tb_mcp_resource_contents_get_bytes (JsonObject   *contents,
                                                   GError      **error);

G_END_DECLS
