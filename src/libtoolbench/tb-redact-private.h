/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-redact.h"

G_BEGIN_DECLS

JsonNode *_tb_redactor_redact_node_shared (TbRedactor *self,
                                           JsonNode   *node);
gboolean  _tb_redactor_json_text_is_clean (TbRedactor *self,
                                           const char *text,
                                           gsize       length);

G_END_DECLS
