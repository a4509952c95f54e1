/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-timeline-row.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

GtkWidget      *tb_timeline_row_get_fork_button (TbTimelineRow *self);

G_END_DECLS
