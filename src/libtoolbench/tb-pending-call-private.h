/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-pending-call.h"
#include "tb-tool-call.h"
#include "tb-tool-result.h"
#include "tb-tool.h"

G_BEGIN_DECLS

/* The loop reads and fills a pending call's fields directly. */
struct _TbPendingCall
{
  GObject         parent_instance;

  TbToolCall     *call;
  TbTool         *tool;
  guint           index;
  TbCallDecision  decision;
  JsonNode       *arguments;
  JsonNode       *output;
  char           *reason;
  gboolean        by_person;
  TbToolResult   *answer;
  TbToolResult   *result;
  gint64          progress_at;       /* when progress was last recorded */
  char           *progress_message;  /* and what it said */
};

void _tb_pending_call_set_decision (TbPendingCall  *self,
                                    TbCallDecision  decision,
                                    gboolean        by_person);
void _tb_pending_call_set_result   (TbPendingCall  *self,
                                    TbToolResult   *result);

G_END_DECLS
