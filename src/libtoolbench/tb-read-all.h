/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

void    tb_input_stream_read_all_async  (GInputStream         *stream,
                                         gsize                 max_bytes,
                                         int                   io_priority,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
GBytes *tb_input_stream_read_all_finish (GInputStream         *stream,
                                         GAsyncResult         *result,
                                         GError              **error);

G_END_DECLS
