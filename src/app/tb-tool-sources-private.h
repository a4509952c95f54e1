/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the tests reach of tb-tool-sources.c beyond its public API. */

#include "tb-tool-sources.h"

G_BEGIN_DECLS

TbToolSources *tb_tool_sources_new_with_store   (TbToolRegistry *registry,
                                                 GSettings      *settings,
                                                 TbSecretStore  *store);
char         **tb_tool_sources_get_problems     (TbToolSources  *self);
void           tb_tool_sources_set_uri_launcher (TbToolSources  *self,
                                                 TbUriLauncher   launcher,
                                                 gpointer        user_data);

G_END_DECLS
