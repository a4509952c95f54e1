/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mask-paintable"

#include "config.h"

#include "tb-mask-paintable.h"

/* A picture whose shape is its alpha, painted in the foreground colour of
 * the widget that shows it, as GTK paints a symbolic icon: dark on a
 * light window, light on a dark one, dimmed where the style dims it. The
 * app's own symbolic icon is one, stored as a PNG: the theme's way, an
 * SVG, would load an SVG renderer before the first frame. */

struct _TbMaskPaintable
{
  GObject     parent_instance;
  GdkTexture *texture;
};

static void tb_mask_paintable_paintable_init (GdkPaintableInterface *iface);
static void tb_mask_paintable_symbolic_init  (GtkSymbolicPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbMaskPaintable, tb_mask_paintable, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GDK_TYPE_PAINTABLE,
                                                      tb_mask_paintable_paintable_init)
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SYMBOLIC_PAINTABLE,
                                                      tb_mask_paintable_symbolic_init))

static void
tb_mask_paintable_snapshot_symbolic (GtkSymbolicPaintable *paintable,
                                     GdkSnapshot          *snapshot,
                                     double                width,
                                     double                height,
                                     const GdkRGBA        *colors,
                                     gsize                 n_colors)
{
  TbMaskPaintable *self = TB_MASK_PAINTABLE (paintable);
  GdkRGBA color = n_colors > 0 ? colors[0] : (GdkRGBA) { 0, 0, 0, 1 };
  graphene_matrix_t matrix;
  graphene_vec4_t offset;

  /* Colour from the foreground, coverage from the mask's alpha. */
  graphene_matrix_init_from_float (&matrix, (float[16]) { 0, 0, 0, 0,
                                                          0, 0, 0, 0,
                                                          0, 0, 0, 0,
                                                          0, 0, 0, color.alpha });
  graphene_vec4_init (&offset, color.red, color.green, color.blue, 0);
  gtk_snapshot_push_color_matrix (GTK_SNAPSHOT (snapshot), &matrix, &offset);
  gtk_snapshot_append_texture (GTK_SNAPSHOT (snapshot), self->texture,
                               &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_pop (GTK_SNAPSHOT (snapshot));
}

static void
tb_mask_paintable_snapshot (GdkPaintable *paintable,
                            GdkSnapshot  *snapshot,
                            double        width,
                            double        height)
{
  tb_mask_paintable_snapshot_symbolic (GTK_SYMBOLIC_PAINTABLE (paintable), snapshot,
                                       width, height, NULL, 0);
}

static int
tb_mask_paintable_get_intrinsic_width (GdkPaintable *paintable)
{
  return gdk_texture_get_width (TB_MASK_PAINTABLE (paintable)->texture);
}

static int
tb_mask_paintable_get_intrinsic_height (GdkPaintable *paintable)
{
  return gdk_texture_get_height (TB_MASK_PAINTABLE (paintable)->texture);
}

static GdkPaintableFlags
tb_mask_paintable_get_flags (GdkPaintable *paintable)
{
  return GDK_PAINTABLE_STATIC_SIZE | GDK_PAINTABLE_STATIC_CONTENTS;
}

static void
tb_mask_paintable_paintable_init (GdkPaintableInterface *iface)
{
  iface->snapshot = tb_mask_paintable_snapshot;
  iface->get_intrinsic_width = tb_mask_paintable_get_intrinsic_width;
  iface->get_intrinsic_height = tb_mask_paintable_get_intrinsic_height;
  iface->get_flags = tb_mask_paintable_get_flags;
}

static void
tb_mask_paintable_symbolic_init (GtkSymbolicPaintableInterface *iface)
{
  iface->snapshot_symbolic = tb_mask_paintable_snapshot_symbolic;
}

static void
tb_mask_paintable_finalize (GObject *object)
{
  TbMaskPaintable *self = TB_MASK_PAINTABLE (object);

  g_clear_object (&self->texture);

  G_OBJECT_CLASS (tb_mask_paintable_parent_class)->finalize (object);
}

static void
tb_mask_paintable_class_init (TbMaskPaintableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_mask_paintable_finalize;
}

static void
tb_mask_paintable_init (TbMaskPaintable *self)
{
}

/**
 * tb_mask_paintable_new_from_resource:
 * @path: a PNG in the app's resources
 *
 * Returns: (transfer full): a paintable drawing @path's shape in the
 *   foreground colour
 */
GdkPaintable *
tb_mask_paintable_new_from_resource (const char *path)
{
  TbMaskPaintable *self = g_object_new (TB_TYPE_MASK_PAINTABLE, NULL);

  self->texture = gdk_texture_new_from_resource (path);
  return GDK_PAINTABLE (self);
}
