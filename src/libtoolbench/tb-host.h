/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

gboolean   tb_host_in_flatpak  (void);
char     **tb_host_wrap_argv   (const char * const *argv,
                                const char         *cwd,
                                const char * const *env);

G_END_DECLS
