/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <toolbench.h>

G_BEGIN_DECLS

#define TB_TYPE_MESSAGE_ROW (tb_message_row_get_type())

G_DECLARE_FINAL_TYPE (TbMessageRow, tb_message_row, TB, MESSAGE_ROW, GtkListBoxRow)

/**
 * TbMessageRowKind:
 * @TB_MESSAGE_ROW_PLAIN: a message of the person, the system or a tool
 * @TB_MESSAGE_ROW_MODEL: a turn of the model
 * @TB_MESSAGE_ROW_ERROR: a tool's error
 *
 * How the row's summary is styled.
 */
typedef enum
{
  TB_MESSAGE_ROW_PLAIN,
  TB_MESSAGE_ROW_MODEL,
  TB_MESSAGE_ROW_ERROR,
} TbMessageRowKind;

GtkWidget  *tb_message_row_new             (const char       *summary,
                                            const char       *json,
                                            TbMessageRowKind  kind);
GtkWidget  *tb_message_row_new_for_message (TbMessage        *message,
                                            TbTrace          *trace,
                                            TbRedactor       *redactor);
const char *tb_message_row_get_summary     (TbMessageRow     *self);
const char *tb_message_row_get_json        (TbMessageRow     *self);
const char *tb_message_row_get_reasoning   (TbMessageRow     *self);

G_END_DECLS
