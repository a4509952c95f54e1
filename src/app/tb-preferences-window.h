/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define TB_TYPE_PREFERENCES_WINDOW (tb_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (TbPreferencesWindow, tb_preferences_window, TB, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

TbPreferencesWindow *tb_preferences_window_new           (GtkWindow           *parent);
void                 tb_preferences_window_edit_provider (TbPreferencesWindow *self,
                                                          const char          *name);
void                 tb_preferences_window_edit_mcp_server (TbPreferencesWindow *self,
                                                            const char        *name);

G_END_DECLS
