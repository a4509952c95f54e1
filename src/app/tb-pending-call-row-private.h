/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-pending-call-row.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

const char       *tb_pending_call_row_get_decision_text (TbPendingCallRow *self);
const char       *tb_pending_call_row_get_problem_text  (TbPendingCallRow *self);

G_END_DECLS
