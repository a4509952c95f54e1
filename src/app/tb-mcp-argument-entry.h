/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MCP_ARGUMENT_ENTRY (tb_mcp_argument_entry_get_type())

G_DECLARE_FINAL_TYPE (TbMcpArgumentEntry, tb_mcp_argument_entry, TB, MCP_ARGUMENT_ENTRY, GtkWidget)

/**
 * TbMcpArgumentContextFunc:
 * @user_data: closure data
 *
 * Returns: (transfer full) (nullable): the values of the other arguments,
 *   sent as the completion's context
 */
typedef JsonObject *(*TbMcpArgumentContextFunc) (gpointer user_data);

GtkWidget  *tb_mcp_argument_entry_new          (TbMcpClient              *client,
                                                TbMcpCompletionKind       kind,
                                                const char               *reference,
                                                const char               *argument,
                                                const char               *description,
                                                gboolean                  required);
void        tb_mcp_argument_entry_set_context_func (TbMcpArgumentEntry   *self,
                                                    TbMcpArgumentContextFunc func,
                                                    gpointer              user_data);
void        tb_mcp_argument_entry_set_activate_action (TbMcpArgumentEntry *self,
                                                       const char         *action_name);
const char *tb_mcp_argument_entry_get_argument (TbMcpArgumentEntry       *self);
gboolean    tb_mcp_argument_entry_get_required (TbMcpArgumentEntry       *self);
const char *tb_mcp_argument_entry_get_text     (TbMcpArgumentEntry       *self);
void        tb_mcp_argument_entry_set_text     (TbMcpArgumentEntry       *self,
                                                const char               *text);
GtkEditable *tb_mcp_argument_entry_get_editable (TbMcpArgumentEntry      *self);
char      **tb_mcp_argument_entry_dup_suggestions (TbMcpArgumentEntry    *self);

G_END_DECLS
