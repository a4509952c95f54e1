/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-argument-entry"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-mcp-argument-entry-private.h"

/* One argument of a prompt or one variable of a resource template: its
 * name, its description and an entry whose text the server completes
 * (`completion/complete`) as the person types. The suggestions come in a
 * list under the entry, asked for DEBOUNCE_MS after the last key so that a
 * fast typist sends one request, not one a letter. A server without the
 * completions capability is never asked, and a request that fails only
 * leaves the list empty: the entry works without it. */

#define DEBOUNCE_MS 250

struct _TbMcpArgumentEntry
{
  GtkWidget                 parent_instance;

  GtkLabel                 *label;
  GtkLabel                 *description;
  GtkEntry                 *entry;
  GtkRevealer              *revealer;
  GtkListBox               *suggestions;
  GtkStringList            *values;      /* what the suggestions hold, in order */

  TbMcpClient              *client;
  TbMcpCompletionKind       kind;
  char                     *reference;
  char                     *argument;
  gboolean                  required;
  gboolean                  completes;
  TbMcpArgumentContextFunc  context_func;
  gpointer                  context_data;

  GCancellable             *cancellable;
  guint                     debounce_id;
  gboolean                  asking;
  gboolean                  setting;
  char                     *activate_action;
};

G_DEFINE_FINAL_TYPE (TbMcpArgumentEntry, tb_mcp_argument_entry, GTK_TYPE_WIDGET)

static void
clear_suggestions (TbMcpArgumentEntry *self)
{
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
  gtk_string_list_splice (self->values, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->values)), NULL);
}

static GtkWidget *
create_suggestion (gpointer item,
                   gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  tb_label_set_outside_text (GTK_LABEL (label),
                             gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (label, 8);
  gtk_widget_set_margin_end (label, 8);
  gtk_widget_set_margin_top (label, 4);
  gtk_widget_set_margin_bottom (label, 4);
  return label;
}

static void
complete_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TbMcpArgumentEntry) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  const char *text;
  guint shown = 0;

  values = tb_mcp_client_complete_finish (TB_MCP_CLIENT (object), result, NULL, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->client == NULL)
    return;
  self->asking = FALSE;
  clear_suggestions (self);
  if (values == NULL)
    {
      /* The form works on without suggestions; the reason is kept for
       * whoever reads the log of the app. */
      g_debug ("No suggestions for “%s”: %s", self->argument, error->message);
      return;
    }

  text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  for (guint i = 0; values[i] != NULL; i++)
    /* What is typed already needs no suggestion. */
    if (!g_str_equal (values[i], text))
      {
        gtk_string_list_append (self->values, values[i]);
        shown++;
      }
  gtk_revealer_set_reveal_child (self->revealer, shown > 0);
}

static gboolean
ask (gpointer user_data)
{
  TbMcpArgumentEntry *self = user_data;
  g_autoptr(JsonObject) context = NULL;

  self->debounce_id = 0;
  if (!self->completes)
    return G_SOURCE_REMOVE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (self->context_func != NULL)
    context = self->context_func (self->context_data);
  self->asking = TRUE;
  tb_mcp_client_complete_async (self->client, self->kind, self->reference, self->argument,
                                gtk_editable_get_text (GTK_EDITABLE (self->entry)), context,
                                self->cancellable, complete_cb, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

static void
schedule (TbMcpArgumentEntry *self)
{
  if (!self->completes)
    return;
  g_clear_handle_id (&self->debounce_id, g_source_remove);
  self->debounce_id = g_timeout_add (DEBOUNCE_MS, ask, self);
}

static void
on_changed (TbMcpArgumentEntry *self)
{
  if (!self->setting)
    schedule (self);
}

/* Enter in the entry does what the form's main button does. */
static void
on_activate (TbMcpArgumentEntry *self)
{
  clear_suggestions (self);
  if (self->activate_action != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), self->activate_action, NULL);
}

/* The suggestions go when the focus leaves the entry and its list. */
static void
on_focus_leave (TbMcpArgumentEntry *self)
{
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

static void
on_row_activated (TbMcpArgumentEntry *self,
                  GtkListBoxRow      *row)
{
  g_autofree char *value = g_strdup (gtk_string_list_get_string (self->values,
                                                                gtk_list_box_row_get_index (row)));

  if (value == NULL)
    return;
  tb_mcp_argument_entry_set_text (self, value);
  clear_suggestions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
}

/* The first suggestions come when the entry is first reached. */
static void
on_focus_enter (TbMcpArgumentEntry *self)
{
  if (self->debounce_id == 0 && !self->asking
      && g_list_model_get_n_items (G_LIST_MODEL (self->values)) == 0)
    schedule (self);
}

/* Down goes from the entry into the suggestions, Escape closes them. */
static gboolean
on_key_pressed (TbMcpArgumentEntry *self,
                guint               keyval,
                guint               keycode,
                GdkModifierType     state)
{
  GtkListBoxRow *first;

  if (keyval == GDK_KEY_Escape && gtk_revealer_get_reveal_child (self->revealer))
    {
      gtk_revealer_set_reveal_child (self->revealer, FALSE);
      return TRUE;
    }
  if (keyval != GDK_KEY_Down || !gtk_revealer_get_reveal_child (self->revealer))
    return FALSE;
  first = gtk_list_box_get_row_at_index (self->suggestions, 0);
  if (first == NULL)
    return FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (first));
  return TRUE;
}

static void
tb_mcp_argument_entry_dispose (GObject *object)
{
  TbMcpArgumentEntry *self = (TbMcpArgumentEntry *) object;

  g_clear_handle_id (&self->debounce_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->client);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_ARGUMENT_ENTRY);
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->values);

  G_OBJECT_CLASS (tb_mcp_argument_entry_parent_class)->dispose (object);
}

static void
tb_mcp_argument_entry_finalize (GObject *object)
{
  TbMcpArgumentEntry *self = (TbMcpArgumentEntry *) object;

  g_free (self->reference);
  g_free (self->argument);
  g_free (self->activate_action);

  G_OBJECT_CLASS (tb_mcp_argument_entry_parent_class)->finalize (object);
}

static void
tb_mcp_argument_entry_class_init (TbMcpArgumentEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_mcp_argument_entry_dispose;
  object_class->finalize = tb_mcp_argument_entry_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-argument-entry.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpArgumentEntry, label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpArgumentEntry, description);
  gtk_widget_class_bind_template_child (widget_class, TbMcpArgumentEntry, entry);
  gtk_widget_class_bind_template_child (widget_class, TbMcpArgumentEntry, revealer);
  gtk_widget_class_bind_template_child (widget_class, TbMcpArgumentEntry, suggestions);
  gtk_widget_class_bind_template_callback (widget_class, on_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
}

static void
tb_mcp_argument_entry_init (TbMcpArgumentEntry *self)
{
  GtkEventController *focus;
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->values = gtk_string_list_new (NULL);
  gtk_list_box_bind_model (self->suggestions, G_LIST_MODEL (self->values),
                           create_suggestion, NULL, NULL);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (on_focus_enter), self);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), focus);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (on_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
  keys = gtk_event_controller_key_new ();
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);
}

/**
 * tb_mcp_argument_entry_new:
 * @client: the server that completes it
 * @kind: a prompt's argument or a template's variable
 * @reference: the prompt's name or the template's URI template
 * @argument: the argument's or variable's name
 * @description: (nullable): what the server says of it
 * @required: whether it must be filled in
 *
 * Returns: (transfer floating): a new entry
 */
GtkWidget *
tb_mcp_argument_entry_new (TbMcpClient         *client,
                           TbMcpCompletionKind  kind,
                           const char          *reference,
                           const char          *argument,
                           const char          *description,
                           gboolean             required)
{
  TbMcpArgumentEntry *self;
  g_autofree char *title = NULL;
  g_autofree char *list_name = NULL;

  g_return_val_if_fail (TB_IS_MCP_CLIENT (client), NULL);
  g_return_val_if_fail (reference != NULL, NULL);
  g_return_val_if_fail (argument != NULL, NULL);

  self = g_object_new (TB_TYPE_MCP_ARGUMENT_ENTRY, NULL);
  self->client = g_object_ref (client);
  self->kind = kind;
  self->reference = g_strdup (reference);
  self->argument = g_strdup (argument);
  self->required = required;
  self->completes = tb_mcp_client_has_capability (client, "completions", NULL);

  /* Translators: an argument's name, marked as one the person must fill in */
  title = required ? g_strdup_printf (_("%s (required)"), argument) : g_strdup (argument);
  tb_label_set_outside_text (self->label, title);
  if (description != NULL && *description != '\0')
    {
      tb_label_set_outside_text (self->description, description);
      gtk_widget_set_visible (GTK_WIDGET (self->description), TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  if (required)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                    GTK_ACCESSIBLE_PROPERTY_REQUIRED, TRUE, -1);
  /* Translators: %s is an argument's name */
  list_name = g_strdup_printf (_("Suggestions for “%s”"), argument);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->suggestions),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, list_name, -1);
  return GTK_WIDGET (self);
}

void
tb_mcp_argument_entry_set_context_func (TbMcpArgumentEntry       *self,
                                        TbMcpArgumentContextFunc  func,
                                        gpointer                  user_data)
{
  g_return_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self));

  self->context_func = func;
  self->context_data = user_data;
}

/**
 * tb_mcp_argument_entry_set_activate_action:
 * @self: an entry
 * @action_name: (nullable): the action Enter in the entry activates
 */
void
tb_mcp_argument_entry_set_activate_action (TbMcpArgumentEntry *self,
                                           const char         *action_name)
{
  g_return_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self));

  g_free (self->activate_action);
  self->activate_action = g_strdup (action_name);
}

const char *
tb_mcp_argument_entry_get_argument (TbMcpArgumentEntry *self)
{
  g_return_val_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self), NULL);
  return self->argument;
}

gboolean
tb_mcp_argument_entry_get_required (TbMcpArgumentEntry *self)
{
  g_return_val_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self), FALSE);
  return self->required;
}

const char *
tb_mcp_argument_entry_get_text (TbMcpArgumentEntry *self)
{
  g_return_val_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->entry));
}

/* Sets the text without asking the server about it. */
void
tb_mcp_argument_entry_set_text (TbMcpArgumentEntry *self,
                                const char         *text)
{
  g_return_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self));

  self->setting = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text != NULL ? text : "");
  self->setting = FALSE;
}

GtkEditable *
tb_mcp_argument_entry_get_editable (TbMcpArgumentEntry *self)
{
  g_return_val_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self), NULL);
  return GTK_EDITABLE (self->entry);
}

/**
 * tb_mcp_argument_entry_dup_suggestions:
 * @self: an entry
 *
 * Returns: (transfer full): the suggestions the list shows
 */
char **
tb_mcp_argument_entry_dup_suggestions (TbMcpArgumentEntry *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n;

  g_return_val_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->values));
  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, gtk_string_list_get_string (self->values, i));
  return g_strv_builder_end (builder);
}

/* Whether no request is waiting to be sent or answered. */
gboolean
tb_mcp_argument_entry_is_settled (TbMcpArgumentEntry *self)
{
  g_return_val_if_fail (TB_IS_MCP_ARGUMENT_ENTRY (self), TRUE);
  return self->debounce_id == 0 && !self->asking;
}
