/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TB_TYPE_MASK_PAINTABLE (tb_mask_paintable_get_type())

G_DECLARE_FINAL_TYPE (TbMaskPaintable, tb_mask_paintable, TB, MASK_PAINTABLE, GObject)

GdkPaintable *tb_mask_paintable_new_from_resource (const char *path);

G_END_DECLS
