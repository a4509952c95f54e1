/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

#include "tb-tool-registry.h"
#include "tb-tool-source-set.h"
#include "tb-workspace.h"

G_BEGIN_DECLS

#define TB_TYPE_TOOL_SESSION (tb_tool_session_get_type ())

G_DECLARE_FINAL_TYPE (TbToolSession, tb_tool_session, TB, TOOL_SESSION, GObject)

TbToolRegistry *tb_tool_session_get_registry      (TbToolSession *self);
TbWorkspace    *tb_tool_session_get_workspace     (TbToolSession *self);
GPtrArray      *tb_tool_session_get_mcp_clients   (TbToolSession *self);
const char * const *tb_tool_session_get_problems  (TbToolSession *self);
const char * const *tb_tool_session_get_server_errors (TbToolSession *self);
void            tb_tool_session_close             (TbToolSession *self);

G_END_DECLS
