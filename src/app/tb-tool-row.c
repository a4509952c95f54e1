/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-row"

#include "config.h"

#include "tb-tool-row.h"

/* A tool in the sidebar: its name, the first line of its description,
 * whether only people may call it, and its source. The list's factory
 * (tb-tool-item.ui) sets the tool. */

struct _TbToolRow
{
  GtkBox  parent_instance;

  TbTool *tool;
};

G_DEFINE_FINAL_TYPE (TbToolRow, tb_tool_row, GTK_TYPE_BOX)

enum { PROP_0, PROP_TOOL, N_PROPS };
static GParamSpec *properties [N_PROPS];

static char *
first_line (TbToolRow  *self,
            const char *description)
{
  const char *end;

  if (description == NULL)
    return NULL;
  end = strchr (description, '\n');
  return end != NULL ? g_strndup (description, end - description) : g_strdup (description);
}

static gboolean
is_user_only (TbToolRow        *self,
              TbToolVisibility  visibility)
{
  return visibility == TB_TOOL_VISIBILITY_USER_ONLY;
}

static gboolean
is_read_only (TbToolRow *self,
              guint      hints)
{
  return (hints & TB_TOOL_HINT_READ_ONLY) != 0;
}

static gboolean
is_destructive (TbToolRow *self,
                guint      hints)
{
  return (hints & TB_TOOL_HINT_DESTRUCTIVE) != 0;
}

static gboolean
is_open_world (TbToolRow *self,
               guint      hints)
{
  return (hints & TB_TOOL_HINT_OPEN_WORLD) != 0;
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
  gtk_widget_class_bind_template_callback (widget_class, first_line);
  gtk_widget_class_bind_template_callback (widget_class, is_user_only);
  gtk_widget_class_bind_template_callback (widget_class, is_read_only);
  gtk_widget_class_bind_template_callback (widget_class, is_destructive);
  gtk_widget_class_bind_template_callback (widget_class, is_open_world);
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
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TOOL]);
}
