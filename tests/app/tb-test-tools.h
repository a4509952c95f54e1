/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <toolbench.h>

G_BEGIN_DECLS

TbToolRegistry *tb_test_tools_new_registry (void);
TbTool         *tb_test_tools_new_tool     (const char *name,
                                            const char *source,
                                            const char *schema);

G_END_DECLS
