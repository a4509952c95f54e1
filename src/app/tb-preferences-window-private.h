/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-preferences-window.h"

G_BEGIN_DECLS

/* For the tests: what the widget shows, without going through the screen. */

void                 tb_preferences_window_import_mcp_text (TbPreferencesWindow *self,
                                                            const char        *text,
                                                            gssize             length);

G_END_DECLS
