/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-row"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-tool-row.h"

/* A tool in the sidebar: its name, the first line of its description,
 * what its author says of it, whether only people may call it, and its
 * source. A tool's properties do not change once it is made, so the row
 * shows them when it is given the tool. The list's factory
 * (tb-tool-item.ui) sets the tool. */

struct _TbToolRow
{
  GtkBox     parent_instance;

  TbTool    *tool;

  GtkLabel  *name_label;
  GtkLabel  *description_label;
  GtkBox    *hints_box;
  GtkLabel  *source_label;
};

G_DEFINE_FINAL_TYPE (TbToolRow, tb_tool_row, GTK_TYPE_BOX)

/* More than a sidebar of any width shows of a description's first line. */
#define ROW_DESCRIPTION_MAX_CHARS 200

enum { PROP_0, PROP_TOOL, N_PROPS };
static GParamSpec *properties [N_PROPS];

/* What a tool's author says of it, as an icon each, in this order. */
static const struct {
  TbToolHints  hint;
  const char  *icon_name;
  const char  *name;
  const char  *tooltip;
  gboolean     dim;
} hint_icons[] = {
  { TB_TOOL_HINT_READ_ONLY, "changes-prevent-symbolic",
    N_("Read-only"), N_("Read-only: the tool says it changes nothing"), TRUE },
  { TB_TOOL_HINT_DESTRUCTIVE, "dialog-warning-symbolic",
    N_("Destructive"), N_("Destructive: the tool says it may delete or overwrite; its calls wait for a person"), TRUE },
  { TB_TOOL_HINT_OPEN_WORLD, "web-browser-symbolic",
    N_("Open world"), N_("Open world: the tool says it reaches beyond this machine"), TRUE },
};

static void
add_hint_icon (TbToolRow  *self,
               const char *icon_name,
               const char *name,
               const char *tooltip,
               gboolean    dim)
{
  GtkWidget *image = g_object_new (GTK_TYPE_IMAGE,
                                   "icon-name", icon_name,
                                   "tooltip-text", tooltip,
                                   "valign", GTK_ALIGN_CENTER,
                                   NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (image),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  -1);
  if (dim)
    gtk_widget_add_css_class (image, "dim-label");
  gtk_box_append (self->hints_box, image);
}

/* Rows are reused for other tools as the list scrolls, so the icons of
 * the previous tool go first. */
static void
show_hints (TbToolRow *self)
{
  GtkWidget *child;
  TbToolHints hints = self->tool != NULL ? tb_tool_get_hints (self->tool) : TB_TOOL_HINT_NONE;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->hints_box))) != NULL)
    gtk_box_remove (self->hints_box, child);

  for (guint i = 0; i < G_N_ELEMENTS (hint_icons); i++)
    if ((hints & hint_icons[i].hint) != 0)
      add_hint_icon (self, hint_icons[i].icon_name, _(hint_icons[i].name),
                     _(hint_icons[i].tooltip), hint_icons[i].dim);
  if (self->tool != NULL && tb_tool_get_visibility (self->tool) == TB_TOOL_VISIBILITY_USER_ONLY)
    add_hint_icon (self, "avatar-default-symbolic", _("Only for people"),
                   _("Only for people: models never see this tool"), FALSE);

  gtk_widget_set_visible (GTK_WIDGET (self->hints_box),
                          gtk_widget_get_first_child (GTK_WIDGET (self->hints_box)) != NULL);
}

static void
show_tool (TbToolRow *self)
{
  const char *description = self->tool != NULL ? tb_tool_get_description (self->tool) : NULL;
  const char *end = description != NULL ? strchr (description, '\n') : NULL;
  /* The row shows a line's start: laying out a whole first line of tens
   * of kilobytes, to be cut anyway, took a second and megabytes a row. */
  g_autofree char *first_line =
    description != NULL ? tb_text_shorten (description, end != NULL ? end - description : -1,
                                           ROW_DESCRIPTION_MAX_CHARS)
                        : NULL;

  gtk_label_set_label (self->name_label, self->tool != NULL ? tb_tool_get_name (self->tool) : NULL);
  gtk_label_set_label (self->description_label, first_line);
  gtk_label_set_label (self->source_label, self->tool != NULL ? tb_tool_get_source (self->tool) : NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->source_label),
                               self->tool != NULL ? tb_tool_get_source (self->tool) : NULL);
  show_hints (self);
}

static void
tb_tool_row_dispose (GObject *object)
{
  TbToolRow *self = (TbToolRow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_TOOL_ROW);
  g_clear_object (&self->tool);

  G_OBJECT_CLASS (tb_tool_row_parent_class)->dispose (object);
}

static void
tb_tool_row_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TbToolRow *self = TB_TOOL_ROW (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_row_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TbToolRow *self = TB_TOOL_ROW (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      tb_tool_row_set_tool (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_row_class_init (TbToolRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_tool_row_dispose;
  object_class->get_property = tb_tool_row_get_property;
  object_class->set_property = tb_tool_row_set_property;

  properties [PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL, TB_TYPE_TOOL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TB_TYPE_TOOL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-tool-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbToolRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, TbToolRow, description_label);
  gtk_widget_class_bind_template_child (widget_class, TbToolRow, hints_box);
  gtk_widget_class_bind_template_child (widget_class, TbToolRow, source_label);
}

static void
tb_tool_row_init (TbToolRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_tool_row_get_tool:
 * @self: a row
 *
 * Returns: (transfer none) (nullable): the tool the row shows
 */
TbTool *
tb_tool_row_get_tool (TbToolRow *self)
{
  g_return_val_if_fail (TB_IS_TOOL_ROW (self), NULL);
  return self->tool;
}

/**
 * tb_tool_row_set_tool:
 * @self: a row
 * @tool: (nullable): the tool to show
 */
void
tb_tool_row_set_tool (TbToolRow *self,
                      TbTool    *tool)
{
  g_return_if_fail (TB_IS_TOOL_ROW (self));
  g_return_if_fail (!tool || TB_IS_TOOL (tool));

  if (g_set_object (&self->tool, tool))
    {
      show_tool (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TOOL]);
    }
}
