/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonNode *tb_wire_schema_for_gemini (JsonNode *schema);

G_END_DECLS
