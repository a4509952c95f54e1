/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-message.h"

G_BEGIN_DECLS

void _tb_message_append_json (TbMessage *self,
                              GString   *out);

G_END_DECLS
