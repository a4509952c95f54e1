/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-json.h"

G_BEGIN_DECLS

JsonNode *_tb_json_parse_file_in (const char  *path,
                                  gsize        max_size,
                                  GQuark       domain,
                                  gint         code,
                                  const char  *not_json,
                                  GError     **error);

G_END_DECLS
