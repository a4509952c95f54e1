/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

/**
 * TB_MCP_ICON_MAX_BYTES:
 *
 * The largest icon loaded from a server: 256 KiB.
 */
#define TB_MCP_ICON_MAX_BYTES (256 * 1024)

void          tb_mcp_icon_load_async  (JsonArray            *icons,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
GdkPaintable *tb_mcp_icon_load_finish (GAsyncResult         *result,
                                       GError              **error);
void          tb_mcp_icon_show        (GtkImage             *image,
                                       TbMcpClient          *client,
                                       const char           *fallback);

G_END_DECLS
