/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>

#include "tb-host.h"

G_BEGIN_DECLS

GSubprocess *_tb_host_spawn (GSubprocessLauncher  *launcher,
                             const char * const   *argv,
                             GError              **error);
void         _tb_host_stop  (GSubprocess          *process);

G_END_DECLS
