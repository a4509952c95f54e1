/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <toolbench.h>

G_BEGIN_DECLS

gboolean tb_fork_target_find (TbTrace        *trace,
                              TbTraceReader  *reader,
                              guint           position,
                              guint          *step,
                              TbReplayEdit   *edit,
                              char          **heading,
                              JsonNode      **value,
                              GError        **error);

G_END_DECLS
