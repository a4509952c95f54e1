/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Room _tb_text_put_integer() may need: a sign and 20 digits. */
#define TB_TEXT_INTEGER_MAX 21

gsize _tb_text_put_integer (char     *out,
                            guint64   magnitude,
                            gboolean  negative);

G_END_DECLS
