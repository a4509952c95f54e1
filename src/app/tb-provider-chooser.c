/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider-chooser"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-prefs.h"
#include "tb-provider-chooser.h"

/* The model of the Loop page's next run: the offline demo, a script file
 * played offline, or a provider endpoint of the preferences with the
 * model to ask for. The key of the selected endpoint is read from the
 * keyring when it is selected; until it is in, :key-pending is set and
 * no provider can be made. A provider given by the program (a test, a
 * screenshot) comes before all of these until another is selected. */

struct _TbProviderChooser
{
  GtkWidget      parent_instance;

  GSettings     *settings;
  GPtrArray     *endpoints;
  char          *endpoint_key;
  GCancellable  *key_cancellable;
  gboolean       key_pending;
  gboolean       filling;
  char          *script_path;
  TbProvider    *provider;

  GtkDropDown   *dropdown;
  GtkStringList *names;
  GtkEditable   *model_entry;
  GtkLabel      *provider_label;
  GtkWidget     *title_label;
  GtkWidget     *buttons;
  GtkWidget     *demo_button;
};

G_DEFINE_FINAL_TYPE (TbProviderChooser, tb_provider_chooser, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_KEY_PENDING, N_PROPS };
static GParamSpec *properties [N_PROPS];

enum { ERROR, N_SIGNALS };
static guint signals [N_SIGNALS];

static void
set_key_pending (TbProviderChooser *self,
                 gboolean           pending)
{
  if (self->key_pending == pending)
    return;
  self->key_pending = pending;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_KEY_PENDING]);
}

static TbProviderEndpoint *
selected_endpoint (TbProviderChooser *self)
{
  guint selected = gtk_drop_down_get_selected (self->dropdown);

  if (self->endpoints == NULL || selected == 0 || selected > self->endpoints->len)
    return NULL;
  return g_ptr_array_index (self->endpoints, selected - 1);
}

static TbProvider *
selected_endpoint_provider (TbProviderChooser  *self,
                            GError            **error)
{
  TbProviderEndpoint *endpoint = selected_endpoint (self);
  TbProviderEndpoint chosen;
  TbProvider *provider;

  if (endpoint == NULL)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("The selected endpoint is no longer in the preferences."));
      return NULL;
    }
  chosen = *endpoint;
  chosen.model = (char *) gtk_editable_get_text (self->model_entry);
  provider = tb_provider_endpoint_create (&chosen, self->endpoint_key);
  if (provider == NULL)
    g_set_error (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                 _("The endpoint “%s” has a kind this version cannot use (%s)."),
                 endpoint->name, endpoint->kind);
  return provider;
}

static void
key_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TbProviderChooser) self = user_data;
  g_autoptr(GError) error = NULL;
  char *key = tb_secret_store_lookup_finish (TB_SECRET_STORE (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_free (self->endpoint_key);
  self->endpoint_key = key;
  if (error != NULL)
    g_signal_emit (self, signals [ERROR], 0, error->message);
  set_key_pending (self, FALSE);
}

static void
on_selected (TbProviderChooser *self)
{
  TbProviderEndpoint *endpoint = selected_endpoint (self);
  g_autofree char *text = NULL;

  if (!self->filling)
    g_clear_object (&self->provider);
  g_cancellable_cancel (self->key_cancellable);
  g_clear_object (&self->key_cancellable);
  g_clear_pointer (&self->endpoint_key, g_free);

  gtk_widget_set_sensitive (GTK_WIDGET (self->model_entry), endpoint != NULL);
  gtk_editable_set_text (self->model_entry, endpoint != NULL ? endpoint->model : "");
  if (endpoint == NULL)
    {
      if (self->script_path == NULL && self->provider == NULL)
        gtk_label_set_label (self->provider_label, _("Scripted demo (offline)"));
      set_key_pending (self, FALSE);
      return;
    }

  g_clear_pointer (&self->script_path, g_free);
  gtk_widget_set_visible (self->demo_button, FALSE);
  text = g_strdup_printf (_("%s at %s"), tb_provider_kind_get_label (endpoint->kind),
                          endpoint->base_url);
  gtk_label_set_label (self->provider_label, text);
  self->key_cancellable = g_cancellable_new ();
  tb_secret_store_lookup_async (tb_secret_store_get_default (), endpoint->name,
                                endpoint->base_url, self->key_cancellable, key_done,
                                g_object_ref (self));
  set_key_pending (self, TRUE);
}

/* Demo first, then each endpoint by name; the selection stays on the same
 * name when the list changes. */
static void
fill (TbProviderChooser *self)
{
  TbProviderEndpoint *was_selected = selected_endpoint (self);
  g_autofree char *was = was_selected != NULL ? g_strdup (was_selected->name) : NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint keep = 0;

  g_clear_pointer (&self->endpoints, g_ptr_array_unref);
  self->endpoints = tb_prefs_get_providers (self->settings);
  for (guint i = 0; i < self->endpoints->len; i++)
    {
      TbProviderEndpoint *endpoint = g_ptr_array_index (self->endpoints, i);

      g_ptr_array_add (names, endpoint->name);
      if (g_strcmp0 (endpoint->name, was) == 0)
        keep = i + 1;
    }
  g_ptr_array_add (names, NULL);

  self->filling = TRUE;
  gtk_string_list_splice (self->names, 1,
                          g_list_model_get_n_items (G_LIST_MODEL (self->names)) - 1,
                          (const char * const *) names->pdata);
  gtk_drop_down_set_selected (self->dropdown, keep);
  /* The endpoint itself may have changed under the same name. */
  on_selected (self);
  self->filling = FALSE;
}

static void
use_demo_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TbProviderChooser *self = TB_PROVIDER_CHOOSER (widget);

  g_clear_pointer (&self->script_path, g_free);
  gtk_label_set_label (self->provider_label, _("Scripted demo (offline)"));
  gtk_widget_set_visible (self->demo_button, FALSE);
  gtk_drop_down_set_selected (self->dropdown, 0);
}

static void
script_chosen (GtkNativeDialog   *dialog,
               int                response,
               TbProviderChooser *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;

      if (!tb_provider_chooser_set_script_file (self, file, &error))
        g_signal_emit (self, signals [ERROR], 0, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_script_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  chooser = tb_file_chooser_new (widget, _("Use a Script"), GTK_FILE_CHOOSER_ACTION_OPEN,
                                 _("_Use"));
  gtk_file_filter_set_name (filter, _("Scripts (*.json)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (script_chosen), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
tb_provider_chooser_dispose (GObject *object)
{
  TbProviderChooser *self = (TbProviderChooser *) object;

  g_cancellable_cancel (self->key_cancellable);
  g_clear_object (&self->key_cancellable);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->provider);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_PROVIDER_CHOOSER);

  G_OBJECT_CLASS (tb_provider_chooser_parent_class)->dispose (object);
}

static void
tb_provider_chooser_finalize (GObject *object)
{
  TbProviderChooser *self = (TbProviderChooser *) object;

  g_clear_pointer (&self->endpoints, g_ptr_array_unref);
  g_free (self->endpoint_key);
  g_free (self->script_path);

  G_OBJECT_CLASS (tb_provider_chooser_parent_class)->finalize (object);
}

static void
tb_provider_chooser_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TbProviderChooser *self = TB_PROVIDER_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_KEY_PENDING:
      g_value_set_boolean (value, self->key_pending);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_provider_chooser_class_init (TbProviderChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_provider_chooser_dispose;
  object_class->finalize = tb_provider_chooser_finalize;
  object_class->get_property = tb_provider_chooser_get_property;

  /**
   * TbProviderChooser:key-pending:
   *
   * Whether the selected endpoint's key is still being read from the
   * keyring: no provider can be made until it is in.
   */
  properties [PROP_KEY_PENDING] =
    g_param_spec_boolean ("key-pending", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbProviderChooser::error:
   * @message: a sentence for the person
   *
   * The endpoint's key could not be read, or the chosen script cannot be
   * played.
   */
  signals [ERROR] = g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-provider-chooser.ui");
  gtk_widget_class_bind_template_child (widget_class, TbProviderChooser, title_label);
  gtk_widget_class_bind_template_child (widget_class, TbProviderChooser, dropdown);
  gtk_widget_class_bind_template_child (widget_class, TbProviderChooser, names);
  gtk_widget_class_bind_template_child (widget_class, TbProviderChooser, model_entry);
  gtk_widget_class_bind_template_child (widget_class, TbProviderChooser, provider_label);
  gtk_widget_class_bind_template_child (widget_class, TbProviderChooser, buttons);
  gtk_widget_class_bind_template_child (widget_class, TbProviderChooser, demo_button);
  gtk_widget_class_bind_template_callback (widget_class, on_selected);
  gtk_widget_class_install_action (widget_class, "provider.use-demo", NULL, use_demo_action);
  gtk_widget_class_install_action (widget_class, "provider.choose-script", NULL,
                                   choose_script_action);
}

static void
tb_provider_chooser_init (TbProviderChooser *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_drop_down_name_button (self->dropdown, _("Provider"));
}

/**
 * tb_provider_chooser_set_settings:
 * @self: a provider chooser
 * @settings: the application's settings
 *
 * Offers the provider endpoints of the preferences beside the demo, and
 * follows their changes.
 */
void
tb_provider_chooser_set_settings (TbProviderChooser *self,
                                  GSettings         *settings)
{
  g_return_if_fail (TB_IS_PROVIDER_CHOOSER (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_set_object (&self->settings, settings);
  g_signal_connect_swapped (settings, "changed::providers", G_CALLBACK (fill), self);
  fill (self);
}

/**
 * tb_provider_chooser_set_provider:
 * @self: a provider chooser
 * @provider: (nullable): the model; %NULL is the scripted demo
 */
void
tb_provider_chooser_set_provider (TbProviderChooser *self,
                                  TbProvider        *provider)
{
  g_return_if_fail (TB_IS_PROVIDER_CHOOSER (self));
  g_return_if_fail (!provider || TB_IS_PROVIDER (provider));

  g_set_object (&self->provider, provider);
  if (provider == NULL)
    gtk_label_set_label (self->provider_label, _("Scripted demo (offline)"));
  else
    {
      JsonObject *described = tb_provider_describe (provider);
      const char *kind = (tb_json_object_get_string (described, "kind") ?: "?");
      const char *model = (tb_json_object_get_string (described, "model") ?: "");
      g_autofree char *text = g_strdup_printf ("%s %s", kind, model);

      gtk_label_set_label (self->provider_label, text);
      json_object_unref (described);
    }
}

/**
 * tb_provider_chooser_set_script_file:
 * @self: a provider chooser
 * @file: a `toolbench-script` file
 * @error: return location for the reason it cannot be played
 *
 * Makes the file the model of the next runs (each run plays it from the
 * start). The file is read now to check it, and again for each run.
 *
 * Returns: whether the file is a script that can be played
 */
gboolean
tb_provider_chooser_set_script_file (TbProviderChooser  *self,
                                     GFile              *file,
                                     GError            **error)
{
  g_autoptr(TbScriptedProvider) check = NULL;
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (TB_IS_PROVIDER_CHOOSER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Only local script files can be played."));
      return FALSE;
    }
  check = tb_scripted_provider_new_from_file (path, error);
  if (check == NULL)
    return FALSE;
  g_free (self->script_path);
  self->script_path = g_steal_pointer (&path);
  gtk_drop_down_set_selected (self->dropdown, 0);
  name = g_file_get_basename (file);
  text = g_strdup_printf (_("Script %s (offline)"), name);
  gtk_label_set_label (self->provider_label, text);
  gtk_widget_set_visible (self->demo_button, TRUE);
  return TRUE;
}

/**
 * tb_provider_chooser_create_provider:
 * @self: a provider chooser
 * @error: return location for the reason there is none
 *
 * The model the next run would use: the provider given with
 * tb_provider_chooser_set_provider(), the selected endpoint with the
 * model of the entry, the chosen script, or the demo. Scripted ones start
 * anew.
 *
 * Returns: (transfer full) (nullable): the provider
 */
TbProvider *
tb_provider_chooser_create_provider (TbProviderChooser  *self,
                                     GError            **error)
{
  g_return_val_if_fail (TB_IS_PROVIDER_CHOOSER (self), NULL);

  if (self->provider != NULL)
    return g_object_ref (self->provider);
  if (self->endpoints != NULL && gtk_drop_down_get_selected (self->dropdown) > 0)
    {
      if (self->key_pending)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The endpoint's key is still being read from the keyring; "
                                 "try again in a moment."));
          return NULL;
        }
      return selected_endpoint_provider (self, error);
    }
  /* The scripted demo keeps its place in the script: each run starts it
   * anew. */
  if (self->script_path != NULL)
    return (TbProvider *) tb_scripted_provider_new_from_file (self->script_path, error);
  return TB_PROVIDER (tb_scripted_provider_new_demo ());
}

gboolean
tb_provider_chooser_get_key_pending (TbProviderChooser *self)
{
  g_return_val_if_fail (TB_IS_PROVIDER_CHOOSER (self), FALSE);
  return self->key_pending;
}

/**
 * tb_provider_chooser_get_dropdown:
 * @self: a provider chooser
 *
 * Returns: (transfer none): the provider selector ("Demo (offline)" first)
 */
GtkDropDown *
tb_provider_chooser_get_dropdown (TbProviderChooser *self)
{
  g_return_val_if_fail (TB_IS_PROVIDER_CHOOSER (self), NULL);
  return self->dropdown;
}

/**
 * tb_provider_chooser_get_model_entry:
 * @self: a provider chooser
 *
 * Returns: (transfer none): the model entry of the selected endpoint
 */
GtkEditable *
tb_provider_chooser_get_model_entry (TbProviderChooser *self)
{
  g_return_val_if_fail (TB_IS_PROVIDER_CHOOSER (self), NULL);
  return self->model_entry;
}
