/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

guint tb_get_major_version (void);
guint tb_get_minor_version (void);
guint tb_get_micro_version (void);

G_END_DECLS
