/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-heading-row"

#include "config.h"

#include "tb-heading-row.h"

/* A heading and the controls that act on what it names, on one line: the
 * heading at the start, the controls at the end. When the line is too
 * narrow for the whole heading beside the controls, the controls move to
 * a line of their own under it, so the heading is read in full and not
 * cut to its first letter (a pending call in a phone-sized window).
 *
 * It has two children, in the order of the .ui file: the heading (a label,
 * or a box of them) and the controls (a box). */

#define LINE_SPACING 6

struct _TbHeadingRow
{
  GtkWidget  parent_instance;
  int        spacing;
};

G_DEFINE_FINAL_TYPE (TbHeadingRow, tb_heading_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SPACING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
get_parts (TbHeadingRow  *self,
           GtkWidget    **heading,
           GtkWidget    **controls)
{
  *heading = gtk_widget_get_first_child (GTK_WIDGET (self));
  *controls = *heading != NULL ? gtk_widget_get_next_sibling (*heading) : NULL;
  return *heading != NULL && *controls != NULL &&
         gtk_widget_should_layout (*heading) && gtk_widget_should_layout (*controls);
}

static int
width_of (GtkWidget *child,
          gboolean   natural)
{
  int minimum;
  int nat;

  gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &nat, NULL, NULL);
  return natural ? nat : minimum;
}

static int
height_of (GtkWidget *child,
           int        width)
{
  int minimum;

  gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, &minimum, NULL, NULL, NULL);
  return minimum;
}

/* One line holds the whole heading and the controls at their natural
 * width; the controls shrink no further than that on a shared line. */
static gboolean
fits_one_line (TbHeadingRow *self,
               GtkWidget    *heading,
               GtkWidget    *controls,
               int           width)
{
  int controls_width = width_of (controls, TRUE);

  /* Controls all hidden: nothing to move. */
  return width < 0 || controls_width == 0 ||
         width >= width_of (heading, TRUE) + self->spacing + controls_width;
}

static void
tb_heading_row_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  TbHeadingRow *self = TB_HEADING_ROW (widget);
  GtkWidget *heading;
  GtkWidget *controls;

  *minimum = *natural = 0;
  if (!get_parts (self, &heading, &controls))
    {
      /* Only one part to show: it is the row. */
      GtkWidget *only = gtk_widget_get_first_child (widget);

      while (only != NULL && !gtk_widget_should_layout (only))
        only = gtk_widget_get_next_sibling (only);
      if (only != NULL)
        gtk_widget_measure (only, orientation, for_size, minimum, natural, NULL, NULL);
      return;
    }

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (width_of (heading, FALSE), width_of (controls, FALSE));
      *natural = width_of (heading, TRUE) + self->spacing + width_of (controls, TRUE);
      return;
    }

  if (fits_one_line (self, heading, controls, for_size))
    {
      int controls_width = for_size < 0 ? -1 : width_of (controls, TRUE);
      int heading_width = for_size < 0 ? -1 : for_size - self->spacing - controls_width;

      *minimum = MAX (height_of (heading, heading_width), height_of (controls, controls_width));
    }
  else
    *minimum = height_of (heading, for_size) + LINE_SPACING +
               height_of (controls, MIN (for_size, width_of (controls, TRUE)));
  *natural = *minimum;
}

static void
place (GtkWidget *row,
       int        row_width,
       GtkWidget *child,
       int        x,
       int        y,
       int        width,
       int        height)
{
  /* In a right-to-left locale the start is on the right. */
  if (gtk_widget_get_direction (row) == GTK_TEXT_DIR_RTL)
    x = row_width - x - width;
  gtk_widget_size_allocate (child, &(GtkAllocation) { x, y, width, height }, -1);
}

static void
tb_heading_row_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  TbHeadingRow *self = TB_HEADING_ROW (widget);
  GtkWidget *heading;
  GtkWidget *controls;
  int controls_width;

  if (!get_parts (self, &heading, &controls))
    {
      for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        if (gtk_widget_should_layout (child))
          gtk_widget_allocate (child, width, height, baseline, NULL);
      return;
    }

  controls_width = MIN (width, width_of (controls, TRUE));
  if (fits_one_line (self, heading, controls, width))
    {
      place (widget, width, heading, 0, 0, width - self->spacing - controls_width, height);
      place (widget, width, controls, width - controls_width, 0, controls_width, height);
    }
  else
    {
      int heading_height = height_of (heading, width);
      int controls_height = height_of (controls, controls_width);

      place (widget, width, heading, 0, 0, width, heading_height);
      place (widget, width, controls, 0, heading_height + LINE_SPACING, controls_width,
             MAX (controls_height, height - heading_height - LINE_SPACING));
    }
}

static GtkSizeRequestMode
tb_heading_row_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tb_heading_row_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tb_heading_row_parent_class)->dispose (object);
}

static void
tb_heading_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TbHeadingRow *self = TB_HEADING_ROW (object);

  switch (prop_id)
    {
    case PROP_SPACING:
      g_value_set_int (value, self->spacing);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_heading_row_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TbHeadingRow *self = TB_HEADING_ROW (object);

  switch (prop_id)
    {
    case PROP_SPACING:
      if (self->spacing != g_value_get_int (value))
        {
          self->spacing = g_value_get_int (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_heading_row_class_init (TbHeadingRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_heading_row_dispose;
  object_class->get_property = tb_heading_row_get_property;
  object_class->set_property = tb_heading_row_set_property;
  widget_class->measure = tb_heading_row_measure;
  widget_class->size_allocate = tb_heading_row_size_allocate;
  widget_class->get_request_mode = tb_heading_row_get_request_mode;

  /**
   * TbHeadingRow:spacing:
   *
   * The space between the heading and the controls on one line.
   */
  properties[PROP_SPACING] =
    g_param_spec_int ("spacing", NULL, NULL, 0, G_MAXINT, 6,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "headingrow");
}

static void
tb_heading_row_init (TbHeadingRow *self)
{
  self->spacing = 6;
}

GtkWidget *
tb_heading_row_new (void)
{
  return g_object_new (TB_TYPE_HEADING_ROW, NULL);
}

/**
 * tb_heading_row_get_folded:
 * @self: a heading row
 *
 * Returns: %TRUE when the controls are on a line of their own, under
 *   the heading, as last allocated
 */
gboolean
tb_heading_row_get_folded (TbHeadingRow *self)
{
  GtkWidget *heading;
  GtkWidget *controls;
  const graphene_point_t origin = GRAPHENE_POINT_INIT (0, 0);
  graphene_point_t heading_at;
  graphene_point_t controls_at;

  g_return_val_if_fail (TB_IS_HEADING_ROW (self), FALSE);

  if (!get_parts (self, &heading, &controls) ||
      !gtk_widget_compute_point (heading, GTK_WIDGET (self), &origin, &heading_at) ||
      !gtk_widget_compute_point (controls, GTK_WIDGET (self), &origin, &controls_at))
    return FALSE;
  return controls_at.y > heading_at.y;
}
