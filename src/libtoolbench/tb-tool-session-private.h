/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-mcp-client.h"
#include "tb-tool-session.h"

G_BEGIN_DECLS

TbToolSession *_tb_tool_session_new            (TbToolRegistry *registry);
void           _tb_tool_session_set_workspace  (TbToolSession  *self,
                                                TbWorkspace    *workspace,
                                                const char     *private_dir);
void           _tb_tool_session_add_client     (TbToolSession  *self,
                                                TbMcpClient    *client);
void           _tb_tool_session_add_problem    (TbToolSession  *self,
                                                const char     *problem);
void           _tb_tool_session_answer_elicitations (TbToolSession       *self,
                                                     TbMcpClient         *client,
                                                     TbElicitationAnswer  answer);
void           _tb_tool_session_add_server_error (TbToolSession *self,
                                                  const char    *message);

G_END_DECLS
