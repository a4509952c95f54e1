/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-plugin-row"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-plugin-row.h"

/* One plugin in the preferences: its file, whether it loaded, and its
 * tools or, when it failed, why (the interpreter's error with file and
 * line, what to install). */

struct _TbPluginRow
{
  AdwActionRow  parent_instance;

  TbPlugin     *plugin;

  GtkImage     *state_icon;
};

enum { PROP_0, PROP_PLUGIN, N_PROPS };

static GParamSpec *properties [N_PROPS];

G_DEFINE_FINAL_TYPE (TbPluginRow, tb_plugin_row, ADW_TYPE_ACTION_ROW)

static void
update (TbPluginRow *self)
{
  TbPlugin *plugin = self->plugin;
  g_autoptr(GString) subtitle = g_string_new (NULL);
  const char * const *tools = tb_plugin_get_tools (plugin);
  const char *icon = "emblem-synchronizing-symbolic";
  const char *state = _("Loading…");

  switch (tb_plugin_get_state (plugin))
    {
    case TB_PLUGIN_STATE_LOADED:
      icon = "emblem-ok-symbolic";
      state = _("Loaded");
      break;
    case TB_PLUGIN_STATE_FAILED:
      icon = "dialog-error-symbolic";
      state = _("Failed");
      break;
    case TB_PLUGIN_STATE_LOADING:
    default:
      break;
    }
  gtk_image_set_from_icon_name (self->state_icon, icon);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->state_icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, state, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->state_icon), state);

  if (tools[0] != NULL)
    {
      g_autofree char *names = g_strjoinv (", ", (GStrv) tools);

      /* Translators: the names of a plugin's tools, separated by commas */
      g_string_append_printf (subtitle, g_dngettext (GETTEXT_PACKAGE, "Tool: %s", "Tools: %s",
                                                     g_strv_length ((GStrv) tools)),
                              names);
    }
  if (tb_plugin_get_message (plugin) != NULL)
    {
      if (subtitle->len > 0)
        g_string_append_c (subtitle, '\n');
      g_string_append (subtitle, tb_plugin_get_message (plugin));
    }
  if (subtitle->len == 0)
    g_string_append (subtitle, state);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), tb_plugin_get_name (plugin));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), tb_plugin_get_path (plugin));
}

static void
tb_plugin_row_constructed (GObject *object)
{
  TbPluginRow *self = TB_PLUGIN_ROW (object);

  G_OBJECT_CLASS (tb_plugin_row_parent_class)->constructed (object);

  g_signal_connect_object (self->plugin, "notify::state", G_CALLBACK (update), self,
                           G_CONNECT_SWAPPED);
  update (self);
}

static void
tb_plugin_row_dispose (GObject *object)
{
  TbPluginRow *self = TB_PLUGIN_ROW (object);

  g_clear_object (&self->plugin);

  G_OBJECT_CLASS (tb_plugin_row_parent_class)->dispose (object);
}

static void
tb_plugin_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TbPluginRow *self = TB_PLUGIN_ROW (object);

  switch (prop_id)
    {
    case PROP_PLUGIN:
      g_value_set_object (value, self->plugin);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_plugin_row_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TbPluginRow *self = TB_PLUGIN_ROW (object);

  switch (prop_id)
    {
    case PROP_PLUGIN:
      self->plugin = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_plugin_row_class_init (TbPluginRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tb_plugin_row_constructed;
  object_class->dispose = tb_plugin_row_dispose;
  object_class->get_property = tb_plugin_row_get_property;
  object_class->set_property = tb_plugin_row_set_property;

  /**
   * TbPluginRow:plugin:
   *
   * The plugin shown.
   */
  properties [PROP_PLUGIN] =
    g_param_spec_object ("plugin", NULL, NULL, TB_TYPE_PLUGIN,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-plugin-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbPluginRow, state_icon);
}

static void
tb_plugin_row_init (TbPluginRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_plugin_row_new:
 * @plugin: a plugin
 *
 * Returns: (transfer floating): a row showing @plugin
 */
GtkWidget *
tb_plugin_row_new (TbPlugin *plugin)
{
  g_return_val_if_fail (TB_IS_PLUGIN (plugin), NULL);

  return g_object_new (TB_TYPE_PLUGIN_ROW, "plugin", plugin, NULL);
}

/**
 * tb_plugin_row_get_plugin:
 *
 * Returns: (transfer none): the plugin shown
 */
TbPlugin *
tb_plugin_row_get_plugin (TbPluginRow *self)
{
  g_return_val_if_fail (TB_IS_PLUGIN_ROW (self), NULL);
  return self->plugin;
}
