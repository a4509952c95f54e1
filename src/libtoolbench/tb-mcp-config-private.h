/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonNode *_tb_mcp_config_parse_file (const char  *path,
                                     GError     **error);

G_END_DECLS
