/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-dispatch-loop.h"
#include "tb-workspace.h"

G_BEGIN_DECLS

#define TB_TYPE_WORKSPACE_BINDING (tb_workspace_binding_get_type ())

G_DECLARE_FINAL_TYPE (TbWorkspaceBinding, tb_workspace_binding, TB, WORKSPACE_BINDING, GObject)

TbWorkspaceBinding *tb_workspace_binding_new                (TbWorkspace        *workspace,
                                                             TbDispatchLoop     *loop);
TbWorkspace        *tb_workspace_binding_get_workspace      (TbWorkspaceBinding *self);
TbDispatchLoop     *tb_workspace_binding_get_loop           (TbWorkspaceBinding *self);
gboolean            tb_workspace_binding_get_pause_for_proposals (TbWorkspaceBinding *self);
void                tb_workspace_binding_set_pause_for_proposals (TbWorkspaceBinding *self,
                                                                  gboolean            pause);
gboolean            tb_workspace_binding_get_holding        (TbWorkspaceBinding *self);

G_END_DECLS
