/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* The MCP messages of a run: the loop follows the clients of the MCP
 * tools in its registry and records their messages as `mcp-message`
 * events (tb-loop-mcp.c). */

#include "tb-mcp-wire-record.h"
#include "tb-tool-registry.h"

G_BEGIN_DECLS

typedef struct _TbLoopMcp TbLoopMcp;

typedef void (*TbLoopMcpFunc) (TbMcpWireRecord *record,
                               gpointer         user_data);

TbLoopMcp  *_tb_loop_mcp_new     (TbToolRegistry  *registry,
                                  TbLoopMcpFunc    func,
                                  gpointer         user_data);
void        _tb_loop_mcp_free    (TbLoopMcp       *self);
void        _tb_loop_mcp_payload (TbMcpWireRecord *record,
                                  JsonObject      *payload);

G_END_DECLS
