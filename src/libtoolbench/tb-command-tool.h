/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-tool-registry.h"

G_BEGIN_DECLS

/**
 * TB_COMMAND_TOOL_MAX_OUTPUT:
 *
 * The most a command tool may print on standard output: 16 MiB. A command
 * that prints more is stopped and its call fails saying so.
 */
#define TB_COMMAND_TOOL_MAX_OUTPUT (16 * 1024 * 1024)

#define TB_TYPE_COMMAND_TOOL (tb_command_tool_get_type())

G_DECLARE_FINAL_TYPE (TbCommandTool, tb_command_tool, TB, COMMAND_TOOL, TbTool)

#define TB_MANIFEST_ERROR (tb_manifest_error_quark ())

/**
 * TbManifestError:
 * @TB_MANIFEST_ERROR_READ: the manifest or its folder cannot be read.
 * @TB_MANIFEST_ERROR_INVALID: the manifest does not describe a command tool.
 *
 * Why tb_command_tool_new_from_file() or tb_command_tools_load_dir() could
 * not read a command tool's manifest. The messages name the file and the
 * member that is wrong.
 */
typedef enum
{
  TB_MANIFEST_ERROR_READ,
  TB_MANIFEST_ERROR_INVALID,
} TbManifestError;

GQuark         tb_manifest_error_quark         (void);
TbTool        *tb_command_tool_new_from_file   (const char      *path,
                                                GError         **error);
TbTool        *tb_command_tool_new_from_json   (JsonNode        *manifest,
                                                const char      *base_dir,
                                                const char      *source,
                                                GError         **error);
const char * const *tb_command_tool_get_argv   (TbCommandTool   *self);
guint          tb_command_tools_load_dir       (TbToolRegistry  *registry,
                                                const char      *dir,
                                                GStrv           *problems,
                                                GError         **error);

G_END_DECLS
