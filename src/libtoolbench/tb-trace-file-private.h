/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-trace-file.h"

G_BEGIN_DECLS

int _tb_trace_file_open_local (GFile       *file,
                               int          flags,
                               const char  *remote_message,
                               char       **path_out,
                               GError     **error);

G_END_DECLS
