/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <glib.h>
#include <sys/uio.h>

G_BEGIN_DECLS

gboolean _tb_write_all (int         fd,
                        const char *data,
                        gsize       length);
gboolean _tb_writev_all (int           fd,
                         struct iovec *parts,
                         int           n_parts);

G_END_DECLS
