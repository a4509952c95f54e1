/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-hints-bar"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-prefs.h"
#include "tb-tool-hints-bar.h"
#include "tb-tool-hints-bar-private.h"

/* What a tool says it does (read-only, destructive, idempotent, open
 * world), as the approval policy sees it, with a menu to say otherwise.
 * A person's word is kept in the settings ("tool-hints") by tool name and
 * given to the registry at once; the tool sources give it again at start. */

struct _TbToolHintsBar
{
  GtkWidget       parent_instance;

  TbToolRegistry *registry;
  GSettings      *settings;
  char           *name;
  GSimpleActionGroup *actions;

  GtkWidget      *read_only_badge;
  GtkWidget      *destructive_badge;
  GtkWidget      *idempotent_badge;
  GtkWidget      *open_world_badge;
  GtkLabel       *origin_label;
  GtkWidget      *menu_button;
};

G_DEFINE_FINAL_TYPE (TbToolHintsBar, tb_tool_hints_bar, GTK_TYPE_WIDGET)

static void
update (TbToolHintsBar *self)
{
  TbToolHints hints = TB_TOOL_HINT_NONE;
  gboolean overridden = FALSE;
  GAction *action;

  if (self->registry != NULL && self->name != NULL)
    hints = tb_tool_registry_get_hints (self->registry, self->name, &overridden);

  gtk_widget_set_visible (self->read_only_badge, hints & TB_TOOL_HINT_READ_ONLY);
  gtk_widget_set_visible (self->destructive_badge, hints & TB_TOOL_HINT_DESTRUCTIVE);
  gtk_widget_set_visible (self->idempotent_badge, hints & TB_TOOL_HINT_IDEMPOTENT);
  gtk_widget_set_visible (self->open_world_badge, hints & TB_TOOL_HINT_OPEN_WORLD);
  if (overridden)
    gtk_label_set_label (self->origin_label, _("set by you"));
  else if (hints == TB_TOOL_HINT_NONE)
    gtk_label_set_label (self->origin_label, _("No hints"));
  else
    gtk_label_set_label (self->origin_label, _("the tool’s hints"));

  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "read-only");
  g_simple_action_set_state (G_SIMPLE_ACTION (action),
                             g_variant_new_boolean (hints & TB_TOOL_HINT_READ_ONLY));
  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "destructive");
  g_simple_action_set_state (G_SIMPLE_ACTION (action),
                             g_variant_new_boolean (hints & TB_TOOL_HINT_DESTRUCTIVE));
  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "reset");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), overridden);
  gtk_widget_set_sensitive (self->menu_button, self->name != NULL);
}

/* Keeps the person's word and gives it to the registry; %NULL goes back to
 * the tool's own. */
static void
set_hints (TbToolHintsBar    *self,
           const TbToolHints *hints)
{
  g_autofree char *text = hints != NULL ? tb_tool_hints_to_string (*hints) : NULL;

  if (self->name == NULL)
    return;
  if (hints != NULL)
    tb_tool_registry_set_hints (self->registry, self->name, *hints);
  else
    tb_tool_registry_unset_hints (self->registry, self->name);
  if (self->settings != NULL)
    tb_prefs_set_tool_hints (self->settings, self->name, text);
  update (self);
}

static void
toggle (TbToolHintsBar *self,
        TbToolHints     hint)
{
  TbToolHints hints = tb_tool_registry_get_hints (self->registry, self->name, NULL);

  hints ^= hint;
  /* A read-only tool destroys nothing, and the other way round. */
  if (hints & hint & TB_TOOL_HINT_READ_ONLY)
    hints &= ~TB_TOOL_HINT_DESTRUCTIVE;
  if (hints & hint & TB_TOOL_HINT_DESTRUCTIVE)
    hints &= ~TB_TOOL_HINT_READ_ONLY;
  set_hints (self, &hints);
}

static void
read_only_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  toggle (user_data, TB_TOOL_HINT_READ_ONLY);
}

static void
destructive_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  toggle (user_data, TB_TOOL_HINT_DESTRUCTIVE);
}

static void
reset_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  set_hints (user_data, NULL);
}

static void
tb_tool_hints_bar_dispose (GObject *object)
{
  TbToolHintsBar *self = (TbToolHintsBar *) object;

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_TOOL_HINTS_BAR);
  g_clear_object (&self->registry);
  g_clear_object (&self->settings);
  g_clear_object (&self->actions);
  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (tb_tool_hints_bar_parent_class)->dispose (object);
}

static void
tb_tool_hints_bar_class_init (TbToolHintsBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_tool_hints_bar_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/"
                                               "tb-tool-hints-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, TbToolHintsBar, read_only_badge);
  gtk_widget_class_bind_template_child (widget_class, TbToolHintsBar, destructive_badge);
  gtk_widget_class_bind_template_child (widget_class, TbToolHintsBar, idempotent_badge);
  gtk_widget_class_bind_template_child (widget_class, TbToolHintsBar, open_world_badge);
  gtk_widget_class_bind_template_child (widget_class, TbToolHintsBar, origin_label);
  gtk_widget_class_bind_template_child (widget_class, TbToolHintsBar, menu_button);
}

static void
tb_tool_hints_bar_init (TbToolHintsBar *self)
{
  static const GActionEntry entries[] = {
    { "read-only", read_only_activated, NULL, "false", NULL },
    { "destructive", destructive_activated, NULL, "false", NULL },
    { "reset", reset_activated, NULL, NULL, NULL },
  };

  gtk_widget_init_template (GTK_WIDGET (self));

  /* Hints are hints: each badge says what it means and who said it. */
  gtk_widget_set_tooltip_text (self->read_only_badge,
                               _("The tool changes nothing. Under “Ask unless read-only” its "
                                 "calls run without asking."));
  gtk_widget_set_tooltip_text (self->destructive_badge,
                               _("The tool may delete or overwrite. Its calls always wait for "
                                 "a person, unless every call is rejected."));
  gtk_widget_set_tooltip_text (self->idempotent_badge,
                               _("Calling it again with the same arguments changes nothing "
                                 "more."));
  gtk_widget_set_tooltip_text (self->open_world_badge,
                               _("The tool reaches beyond this machine, such as the web."));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->origin_label),
                               _("Hints come from the tool’s author and are not promises; "
                                 "the menu beside them sets your own."));

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries,
                                   G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "hints", G_ACTION_GROUP (self->actions));
  update (self);
}

/**
 * tb_tool_hints_bar_setup:
 * @self: a bar
 * @registry: the registry whose hints the loop uses
 * @settings: (nullable): where a person's hints are kept
 */
void
tb_tool_hints_bar_setup (TbToolHintsBar *self,
                         TbToolRegistry *registry,
                         GSettings      *settings)
{
  g_return_if_fail (TB_IS_TOOL_HINTS_BAR (self));
  g_return_if_fail (TB_IS_TOOL_REGISTRY (registry));

  g_set_object (&self->registry, registry);
  g_set_object (&self->settings, settings);
  if (settings != NULL)
    g_signal_connect_object (settings, "changed::tool-hints", G_CALLBACK (update), self,
                             G_CONNECT_SWAPPED);
  update (self);
}

/**
 * tb_tool_hints_bar_set_tool:
 * @self: a bar
 * @tool: (nullable): the tool shown
 */
void
tb_tool_hints_bar_set_tool (TbToolHintsBar *self,
                            TbTool         *tool)
{
  g_return_if_fail (TB_IS_TOOL_HINTS_BAR (self));

  g_free (self->name);
  self->name = tool != NULL ? g_strdup (tb_tool_get_name (tool)) : NULL;
  update (self);
}

char *
tb_tool_hints_bar_describe (TbToolHintsBar *self)
{
  GtkWidget *badges[] = { self->read_only_badge, self->destructive_badge,
                          self->idempotent_badge, self->open_world_badge };
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (TB_IS_TOOL_HINTS_BAR (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (badges); i++)
    if (gtk_widget_get_visible (badges[i]))
      g_string_append_printf (text, "%s, ", gtk_label_get_label (GTK_LABEL (badges[i])));
  g_string_append (text, gtk_label_get_label (self->origin_label));
  return g_string_free (g_steal_pointer (&text), FALSE);
}
