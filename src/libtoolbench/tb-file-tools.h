/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-tool-registry.h"

G_BEGIN_DECLS

/**
 * TB_FILE_TOOLS_MAX_FILE:
 *
 * The largest file read_file reads and write_file writes: 16 MiB.
 */
#define TB_FILE_TOOLS_MAX_FILE (16 * 1024 * 1024)

/**
 * TB_FILE_TOOLS_MAX_ENTRIES:
 *
 * The most entries list_dir returns; it says when it cut the list.
 */
#define TB_FILE_TOOLS_MAX_ENTRIES 10000

GPtrArray *tb_file_tools_new      (const char      *root,
                                   GError         **error);
gboolean   tb_file_tools_register (TbToolRegistry  *registry,
                                   const char      *root,
                                   GError         **error);

G_END_DECLS
