/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-workspace-store.h"

G_BEGIN_DECLS

#define TB_TYPE_WORKSPACE_FILE_STORE (tb_workspace_file_store_get_type ())

G_DECLARE_FINAL_TYPE (TbWorkspaceFileStore, tb_workspace_file_store,
                      TB, WORKSPACE_FILE_STORE, GObject)

TbWorkspaceStore *tb_workspace_file_store_new      (const char           *path);
const char       *tb_workspace_file_store_get_path (TbWorkspaceFileStore *self);

G_END_DECLS
