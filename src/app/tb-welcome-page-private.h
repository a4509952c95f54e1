/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-welcome-page.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

gboolean   tb_welcome_page_is_first_run (GSettings *settings);

G_END_DECLS
