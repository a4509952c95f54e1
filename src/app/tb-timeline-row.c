/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-timeline-row"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-timeline-row.h"
#include "tb-timeline-row-private.h"

/* One row of the Trace page's timeline: what the event was, in the words
 * `toolbench-cli trace show` uses, with an icon for its kind (a distinct
 * one for each decision) and when it happened. */

struct _TbTimelineRow
{
  GtkWidget       parent_instance;

  GtkImage       *icon;
  GtkLabel       *text_label;
  GtkLabel       *time_label;
  GtkWidget      *fork_button;

  TbTimelineNode *node;
  gboolean        forkable;
  gboolean        selected;
};

G_DEFINE_FINAL_TYPE (TbTimelineRow, tb_timeline_row, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_NODE, PROP_SELECTED, N_PROPS };

static GParamSpec *properties [N_PROPS];

/* A fork can change a call's arguments, a call's result or a model's turn. */
static gboolean
forkable (JsonObject *event)
{
  const char *type = tb_json_object_get_string (event, "type");

  if (g_strcmp0 (type, "tool-call") == 0 || g_strcmp0 (type, "tool-result") == 0)
    return TRUE;
  return g_strcmp0 (type, "message") == 0
         && g_strcmp0 (tb_json_object_get_string (event, "origin"), "model") == 0;
}

static void
show_node (TbTimelineRow *self)
{
  g_autoptr(JsonObject) event = NULL;
  g_autofree char *text = NULL;
  g_autofree char *time = NULL;
  gint64 t = 0;

  if (self->node == NULL)
    {
      gtk_label_set_label (self->text_label, "");
      gtk_label_set_label (self->time_label, "");
      gtk_image_clear (self->icon);
      self->forkable = FALSE;
      gtk_widget_set_visible (self->fork_button, FALSE);
      return;
    }

  /* The event is read once here and let go: nothing of it stays. */
  text = tb_timeline_node_dup_text (self->node);
  event = tb_timeline_node_read_event (self->node);
  if (event != NULL
      && tb_json_object_get_int_in_range (event, "t", 0, G_MAXINT64, &t, NULL))
    /* Translators: seconds since the trace began */
    time = g_strdup_printf (_("%.3f s"), t / 1e6);
  gtk_image_set_from_icon_name (self->icon, tb_timeline_node_get_icon_name (self->node));
  self->forkable = event != NULL && forkable (event);
  if (self->forkable)
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->fork_button),
                                            g_variant_new_int32 (
                                              tb_timeline_node_get_position (self->node)));
  /* Only the selected row offers it: the timeline is narrow. */
  gtk_widget_set_visible (self->fork_button, self->forkable && self->selected);
  gtk_label_set_label (self->text_label, text);
  gtk_label_set_label (self->time_label, time != NULL ? time : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->text_label), text);
  if (tb_timeline_node_is_heading (self->node) && !tb_timeline_node_is_group (self->node))
    gtk_widget_add_css_class (GTK_WIDGET (self->text_label), "heading");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->text_label), "heading");
}

static void
tb_timeline_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbTimelineRow *self = TB_TIMELINE_ROW (object);

  switch (prop_id)
    {
    case PROP_NODE:
      g_value_set_object (value, self->node);
      break;
    case PROP_SELECTED:
      g_value_set_boolean (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_timeline_row_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TbTimelineRow *self = TB_TIMELINE_ROW (object);

  switch (prop_id)
    {
    case PROP_NODE:
      tb_timeline_row_set_node (self, g_value_get_object (value));
      break;
    case PROP_SELECTED:
      if (self->selected != g_value_get_boolean (value))
        {
          self->selected = g_value_get_boolean (value);
          gtk_widget_set_visible (self->fork_button, self->forkable && self->selected);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_timeline_row_dispose (GObject *object)
{
  TbTimelineRow *self = TB_TIMELINE_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_TIMELINE_ROW);
  g_clear_object (&self->node);
  G_OBJECT_CLASS (tb_timeline_row_parent_class)->dispose (object);
}

static void
tb_timeline_row_class_init (TbTimelineRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_timeline_row_dispose;
  object_class->get_property = tb_timeline_row_get_property;
  object_class->set_property = tb_timeline_row_set_property;

  properties [PROP_NODE] =
    g_param_spec_object ("node", NULL, NULL, G_TYPE_OBJECT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* The list item's selection: the selected row offers Fork from Here. */
  properties [PROP_SELECTED] =
    g_param_spec_boolean ("selected", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-timeline-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbTimelineRow, icon);
  gtk_widget_class_bind_template_child (widget_class, TbTimelineRow, text_label);
  gtk_widget_class_bind_template_child (widget_class, TbTimelineRow, time_label);
  gtk_widget_class_bind_template_child (widget_class, TbTimelineRow, fork_button);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
tb_timeline_row_init (TbTimelineRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                              8);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 3);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 3);
}

/**
 * tb_timeline_row_get_node:
 * @self: a row
 *
 * Returns: (transfer none) (nullable): the node it shows
 */
TbTimelineNode *
tb_timeline_row_get_node (TbTimelineRow *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_ROW (self), NULL);
  return self->node;
}

/**
 * tb_timeline_row_set_node:
 * @self: a row
 * @node: (nullable): a #TbTimelineNode; anything else shows nothing
 */
void
tb_timeline_row_set_node (TbTimelineRow  *self,
                          TbTimelineNode *node)
{
  g_return_if_fail (TB_IS_TIMELINE_ROW (self));

  if (node != NULL && !TB_IS_TIMELINE_NODE (node))
    node = NULL;
  if (!g_set_object (&self->node, node))
    return;
  show_node (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NODE]);
}

const char *
tb_timeline_row_get_text (TbTimelineRow *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_ROW (self), NULL);
  return gtk_label_get_label (self->text_label);
}

/**
 * tb_timeline_row_get_fork_button:
 * @self: a row
 *
 * Returns: (transfer none): its Fork from Here button, shown when the row
 *   is selected and a fork can change its event
 */
GtkWidget *
tb_timeline_row_get_fork_button (TbTimelineRow *self)
{
  g_return_val_if_fail (TB_IS_TIMELINE_ROW (self), NULL);
  return self->fork_button;
}
