/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-chooser"

#include "config.h"

#include "tb-app-util.h"
#include "tb-tool-chooser.h"

/* "Tools to offer": a check box for each model-visible tool of the
 * registry, all ticked until the person unticks one. USER_ONLY tools are
 * never listed, so never offered. The chooser keeps the names left out,
 * so a tool that comes back keeps its choice. The boxes exist only while
 * the expander is open: with a thousand tools they would cost the window's
 * start and megabytes for a list most runs never look at. */

struct _TbToolChooser
{
  GtkWidget       parent_instance;

  TbToolRegistry *registry;
  GHashTable     *excluded;
  gboolean        editable;

  GtkExpander    *expander;
  GtkFlowBox     *flow_box;
};

G_DEFINE_FINAL_TYPE (TbToolChooser, tb_tool_chooser, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_EDITABLE, N_PROPS };
static GParamSpec *properties [N_PROPS];

enum { CHANGED, N_SIGNALS };
static guint signals [N_SIGNALS];

static void
on_toggled (GtkCheckButton *check,
            TbToolChooser  *self)
{
  /* The label is the tool's name, shown as it is (no mnemonic). */
  const char *name = gtk_check_button_get_label (check);

  if (gtk_check_button_get_active (check))
    g_hash_table_remove (self->excluded, name);
  else
    g_hash_table_add (self->excluded, g_strdup (name));
  g_signal_emit (self, signals [CHANGED], 0);
}

static void
rebuild (TbToolChooser *self)
{
  g_autoptr(TbToolRegistry) tools = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->flow_box))) != NULL)
    gtk_flow_box_remove (self->flow_box, child);
  if (self->registry == NULL || !gtk_expander_get_expanded (self->expander))
    return;
  tools = tb_tool_registry_get_model_tools (self->registry);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (tools)); i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (tools), i);
      const char *name = tb_tool_get_name (tool);
      GtkWidget *check = gtk_check_button_new_with_label (name);

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                   !g_hash_table_contains (self->excluded, name));
      g_signal_connect (check, "toggled", G_CALLBACK (on_toggled), self);
      tb_flow_box_append (self->flow_box, check);
    }
}

static void
on_registry_changed (TbToolChooser *self)
{
  rebuild (self);
  g_signal_emit (self, signals [CHANGED], 0);
}

static void
on_expanded (TbToolChooser *self)
{
  rebuild (self);
}

static void
tb_tool_chooser_dispose (GObject *object)
{
  TbToolChooser *self = (TbToolChooser *) object;

  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  g_clear_object (&self->registry);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_TOOL_CHOOSER);

  G_OBJECT_CLASS (tb_tool_chooser_parent_class)->dispose (object);
}

static void
tb_tool_chooser_finalize (GObject *object)
{
  TbToolChooser *self = (TbToolChooser *) object;

  g_hash_table_unref (self->excluded);

  G_OBJECT_CLASS (tb_tool_chooser_parent_class)->finalize (object);
}

static void
tb_tool_chooser_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbToolChooser *self = TB_TOOL_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_EDITABLE:
      g_value_set_boolean (value, self->editable);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_chooser_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TbToolChooser *self = TB_TOOL_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_EDITABLE:
      tb_tool_chooser_set_editable (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_chooser_class_init (TbToolChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_tool_chooser_dispose;
  object_class->finalize = tb_tool_chooser_finalize;
  object_class->get_property = tb_tool_chooser_get_property;
  object_class->set_property = tb_tool_chooser_set_property;

  /**
   * TbToolChooser:editable:
   *
   * Whether the boxes can be ticked; a run under way shows its choice
   * without letting it change.
   */
  properties [PROP_EDITABLE] =
    g_param_spec_boolean ("editable", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbToolChooser::changed:
   *
   * The tools offered changed: the person ticked or unticked one, or the
   * registry changed.
   */
  signals [CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-tool-chooser.ui");
  gtk_widget_class_bind_template_child (widget_class, TbToolChooser, expander);
  gtk_widget_class_bind_template_child (widget_class, TbToolChooser, flow_box);
}

static void
tb_tool_chooser_init (TbToolChooser *self)
{
  self->excluded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->editable = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->expander, "notify::expanded", G_CALLBACK (on_expanded), self);
}

/**
 * tb_tool_chooser_set_registry:
 * @self: a tool chooser
 * @registry: (nullable): the tools to choose from; its model-visible ones
 *   are listed, and the list follows its changes
 */
void
tb_tool_chooser_set_registry (TbToolChooser  *self,
                              TbToolRegistry *registry)
{
  g_return_if_fail (TB_IS_TOOL_CHOOSER (self));
  g_return_if_fail (!registry || TB_IS_TOOL_REGISTRY (registry));

  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  g_set_object (&self->registry, registry);
  if (registry != NULL)
    g_signal_connect_swapped (registry, "items-changed", G_CALLBACK (on_registry_changed), self);
  rebuild (self);
}

/**
 * tb_tool_chooser_set_offered:
 * @self: a tool chooser
 * @name: a model-visible tool
 * @offered: whether the model is offered it
 */
void
tb_tool_chooser_set_offered (TbToolChooser *self,
                             const char    *name,
                             gboolean       offered)
{
  g_return_if_fail (TB_IS_TOOL_CHOOSER (self));
  g_return_if_fail (name != NULL);

  if (offered)
    g_hash_table_remove (self->excluded, name);
  else
    g_hash_table_add (self->excluded, g_strdup (name));
  rebuild (self);
  g_signal_emit (self, signals [CHANGED], 0);
}

/**
 * tb_tool_chooser_get_offered_registry:
 * @self: a tool chooser
 *
 * Returns: (transfer full) (nullable): the registry itself when every tool
 *   is ticked, else a new registry of the ticked model-visible tools;
 *   %NULL without a registry
 */
TbToolRegistry *
tb_tool_chooser_get_offered_registry (TbToolChooser *self)
{
  g_autoptr(TbToolRegistry) tools = NULL;
  TbToolRegistry *subset;

  g_return_val_if_fail (TB_IS_TOOL_CHOOSER (self), NULL);

  if (self->registry == NULL)
    return NULL;
  if (g_hash_table_size (self->excluded) == 0)
    return g_object_ref (self->registry);
  tools = tb_tool_registry_get_model_tools (self->registry);
  subset = tb_tool_registry_new ();
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (tools)); i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (tools), i);

      if (!g_hash_table_contains (self->excluded, tb_tool_get_name (tool)))
        tb_tool_registry_register (subset, tool, NULL);
    }
  return subset;
}

/**
 * tb_tool_chooser_set_editable:
 * @self: a tool chooser
 * @editable: whether the person may change the choice
 */
void
tb_tool_chooser_set_editable (TbToolChooser *self,
                              gboolean       editable)
{
  g_return_if_fail (TB_IS_TOOL_CHOOSER (self));

  editable = !!editable;
  if (self->editable == editable)
    return;
  self->editable = editable;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_EDITABLE]);
}
