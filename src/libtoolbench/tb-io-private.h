/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _tb_write_all (int         fd,
                        const char *data,
                        gsize       length);

G_END_DECLS
