/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-history-row"

#include "config.h"

#include "tb-history-row.h"
#include "tb-history-row-private.h"

/* One call in a list of calls: its status icon, tool (in the overall
 * list), status, time and a summary of its arguments, following the call
 * while it runs. */

struct _TbHistoryRow
{
  GtkListBoxRow   parent_instance;

  GtkWidget      *icon;
  GtkWidget      *tool_label;
  GtkWidget      *top_status_label;
  GtkWidget      *status_label;

  TbHistoryEntry *entry;
  gboolean        show_tool;
};

G_DEFINE_FINAL_TYPE (TbHistoryRow, tb_history_row, GTK_TYPE_LIST_BOX_ROW)

enum { PROP_0, PROP_ENTRY, PROP_SHOW_TOOL, N_PROPS };
static GParamSpec *properties [N_PROPS];

static gboolean
invert (gpointer unused,
        gboolean value)
{
  return !value;
}

static void
update_icon_style (TbHistoryRow *self)
{
  TbToolResult *result = tb_history_entry_get_result (self->entry);

  gtk_widget_remove_css_class (self->icon, "success");
  gtk_widget_remove_css_class (self->icon, "error");
  if (result != NULL)
    gtk_widget_add_css_class (self->icon, tb_tool_result_get_ok (result) ? "success" : "error");
}

static void
set_entry (TbHistoryRow   *self,
           TbHistoryEntry *entry)
{
  g_autofree char *label = NULL;
  g_autofree char *time = NULL;

  g_assert (self->entry == NULL);
  if (entry == NULL)
    return;

  self->entry = g_object_ref (entry);
  g_signal_connect_object (entry, "notify::icon-name", G_CALLBACK (update_icon_style), self,
                           G_CONNECT_SWAPPED);
  update_icon_style (self);
  /* The tool and when the call started: what tells the calls apart. */
  g_object_get (entry, "time-label", &time, NULL);
  label = g_strdup_printf ("%s %s", tb_history_entry_get_tool_name (entry), time);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ENTRY]);
}

static void
tb_history_row_dispose (GObject *object)
{
  TbHistoryRow *self = (TbHistoryRow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_HISTORY_ROW);
  g_clear_object (&self->entry);

  G_OBJECT_CLASS (tb_history_row_parent_class)->dispose (object);
}

static void
tb_history_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TbHistoryRow *self = TB_HISTORY_ROW (object);

  switch (prop_id)
    {
    case PROP_ENTRY:
      g_value_set_object (value, self->entry);
      break;
    case PROP_SHOW_TOOL:
      g_value_set_boolean (value, self->show_tool);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_history_row_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TbHistoryRow *self = TB_HISTORY_ROW (object);

  switch (prop_id)
    {
    case PROP_ENTRY:
      set_entry (self, g_value_get_object (value));
      break;
    case PROP_SHOW_TOOL:
      self->show_tool = g_value_get_boolean (value);
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_history_row_class_init (TbHistoryRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_history_row_dispose;
  object_class->get_property = tb_history_row_get_property;
  object_class->set_property = tb_history_row_set_property;

  properties [PROP_ENTRY] =
    g_param_spec_object ("entry", NULL, NULL, TB_TYPE_HISTORY_ENTRY,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));
  properties [PROP_SHOW_TOOL] =
    g_param_spec_boolean ("show-tool", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TB_TYPE_HISTORY_ENTRY);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-history-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbHistoryRow, icon);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryRow, tool_label);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryRow, top_status_label);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryRow, status_label);
  gtk_widget_class_bind_template_callback (widget_class, invert);
}

static void
tb_history_row_init (TbHistoryRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_history_row_new:
 * @entry: a call
 * @show_tool: whether to name the tool (the overall list does, a tool's own does not)
 *
 * Returns: (transfer floating): a row that follows the call's progress
 */
GtkWidget *
tb_history_row_new (TbHistoryEntry *entry,
                    gboolean        show_tool)
{
  g_return_val_if_fail (TB_IS_HISTORY_ENTRY (entry), NULL);

  return g_object_new (TB_TYPE_HISTORY_ROW,
                       "entry", entry,
                       "show-tool", show_tool,
                       NULL);
}

/**
 * tb_history_row_get_entry:
 * @self: a row
 *
 * Returns: (transfer none): the call the row shows
 */
TbHistoryEntry *
tb_history_row_get_entry (TbHistoryRow *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ROW (self), NULL);
  return self->entry;
}

gboolean
tb_history_row_get_show_tool (TbHistoryRow *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_ROW (self), FALSE);
  return self->show_tool;
}
