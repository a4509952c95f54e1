/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-command-tool.h"

G_BEGIN_DECLS

void _tb_command_tool_set_plugin (TbCommandTool *self,
                                  const char    *plugin);

G_END_DECLS
