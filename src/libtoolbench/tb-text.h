/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

char     *tb_text_escape_controls   (const char *text,
                                     gssize      length);
gboolean  tb_text_needs_escaping    (const char *text,
                                     gssize      length);
char     *tb_text_shorten           (const char *text,
                                     gssize      length,
                                     guint       max_chars);

G_END_DECLS
