/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* The conversation of a loop as a list model that keeps only its latest
 * messages in memory when the trace is recorded to a file
 * (tb-loop-messages.c). */

#include "tb-message.h"
#include "tb-trace.h"

G_BEGIN_DECLS

#define TB_TYPE_LOOP_MESSAGES (tb_loop_messages_get_type ())
G_DECLARE_FINAL_TYPE (TbLoopMessages, tb_loop_messages, TB, LOOP_MESSAGES, GObject)

TbLoopMessages *_tb_loop_messages_new        (TbTrace        *trace);
void            _tb_loop_messages_append     (TbLoopMessages *self,
                                              TbMessage      *message,
                                              guint           trace_position);
void            _tb_loop_messages_set_window (TbLoopMessages *self,
                                              guint           window);
guint           _tb_loop_messages_get_n_in_memory (TbLoopMessages *self);

G_END_DECLS
