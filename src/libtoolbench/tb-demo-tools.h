/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-tool-registry.h"

G_BEGIN_DECLS

gboolean tb_demo_tools_register (TbToolRegistry  *registry,
                                 GError         **error);

G_END_DECLS
