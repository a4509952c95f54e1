/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-replay-report-view.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

const char     *tb_replay_report_view_get_incomplete_text (TbReplayReportView *self);
const char     *tb_replay_report_view_get_summary         (TbReplayReportView *self);

G_END_DECLS
