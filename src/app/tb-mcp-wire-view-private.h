/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests read and do in a server's Messages page. */

#include "tb-mcp-wire-view.h"

G_BEGIN_DECLS

void        tb_mcp_wire_view_flush         (TbMcpWireView *self);
gboolean    tb_mcp_wire_view_is_settled    (TbMcpWireView *self);
guint       tb_mcp_wire_view_get_n_rows    (TbMcpWireView *self);
char       *tb_mcp_wire_view_get_row_text  (TbMcpWireView *self,
                                            guint          row);
char      **tb_mcp_wire_view_get_methods   (TbMcpWireView *self);
void        tb_mcp_wire_view_set_filter    (TbMcpWireView *self,
                                            int            direction,
                                            const char    *method,
                                            const char    *search);
void        tb_mcp_wire_view_select        (TbMcpWireView *self,
                                            guint          row);
char       *tb_mcp_wire_view_get_detail_text (TbMcpWireView *self);
const char *tb_mcp_wire_view_get_note      (TbMcpWireView *self);
const char *tb_mcp_wire_view_get_http_text (TbMcpWireView *self);
const char *tb_mcp_wire_view_get_status    (TbMcpWireView *self);
char       *tb_mcp_wire_view_dup_copy_text (TbMcpWireView *self);

gboolean   tb_mcp_wire_view_export_to (TbMcpWireView *self,
                                       GFile         *file,
                                       GError       **error);

G_END_DECLS
