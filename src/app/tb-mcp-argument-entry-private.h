/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach of tb-mcp-argument-entry.c beyond its public API. */

#include "tb-mcp-argument-entry.h"

G_BEGIN_DECLS

gboolean    tb_mcp_argument_entry_is_settled   (TbMcpArgumentEntry       *self);

G_END_DECLS
