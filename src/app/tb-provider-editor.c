/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider-editor"

#include "config.h"

#include <glib/gi18n.h>

#include "toolbench.h"
#include "tb-app-util.h"
#include "tb-prefs.h"
#include "tb-provider-editor.h"

/* The preferences' subpage for one provider endpoint: its name, kind, URL,
 * key and default model, and a test that asks the endpoint for its models.
 * The settings refuse bad input with a sentence shown under the fields;
 * the key goes to the key store, never to the settings. */

struct _TbProviderEditor
{
  GtkBox               parent_instance;

  GSettings           *settings;
  TbSecretStore       *store;
  GCancellable        *cancellable;
  char                *old_name;
  char                *old_url;
  char                *kind_url;   /* the public endpoint of the kind selected */
  gboolean             key_loaded;

  AdwWindowTitle      *title;
  AdwEntryRow         *name_row;
  AdwComboRow         *kind_row;
  GtkStringList       *kind_labels;
  AdwEntryRow         *url_row;
  AdwPasswordEntryRow *key_row;
  AdwEntryRow         *model_row;
  AdwComboRow         *models_row;
  GtkStringList       *models;
  GtkLabel            *status;
  GtkButton           *test_button;
  GtkWidget           *remove_box;
};

enum { ERROR, KEY_SAVED, N_SIGNALS };

static guint signals [N_SIGNALS];

G_DEFINE_FINAL_TYPE (TbProviderEditor, tb_provider_editor, GTK_TYPE_BOX)

static const char *
selected_kind (TbProviderEditor *self)
{
  const char * const *kinds = tb_provider_kinds ();
  guint selected = adw_combo_row_get_selected (self->kind_row);

  return kinds[MIN (selected, g_strv_length ((char **) kinds) - 1)];
}

static void
close_page (TbProviderEditor *self)
{
  GtkWidget *window = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_PREFERENCES_WINDOW);

  if (window != NULL)
    adw_preferences_window_close_subpage (ADW_PREFERENCES_WINDOW (window));
}

static void
back_clicked (TbProviderEditor *self)
{
  close_page (self);
}

static void
key_lookup_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TbProviderEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = tb_secret_store_lookup_finish (TB_SECRET_STORE (source), result,
                                                        &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->key_loaded = TRUE;
  if (error != NULL)
    tb_label_set_status (self->status, error->message, TRUE);
  else if (key != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->key_row), key);
  if (tb_secret_store_is_in_memory (self->store))
    tb_label_set_status (self->status, tb_secret_store_get_fallback_message (self->store), TRUE);
}

static void
models_fetched_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TbProviderEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;
  g_auto(GStrv) models = tb_http_provider_list_models_finish (TB_HTTP_PROVIDER (source), result,
                                                              &report, &error);
  const char *current;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), TRUE);
  if (models == NULL)
    {
      /* The list of an endpoint that did not answer is not this one's. */
      tb_label_set_status (self->status, error->message, TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->models_row), FALSE);
      gtk_string_list_splice (self->models, 0,
                              g_list_model_get_n_items (G_LIST_MODEL (self->models)), NULL);
      return;
    }
  tb_label_set_status (self->status, report, FALSE);
  current = gtk_editable_get_text (GTK_EDITABLE (self->model_row));
  gtk_string_list_splice (self->models, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->models)),
                          (const char * const *) models);
  gtk_widget_set_visible (GTK_WIDGET (self->models_row), models[0] != NULL);
  for (guint i = 0; models[i] != NULL; i++)
    if (g_strcmp0 (models[i], current) == 0)
      adw_combo_row_set_selected (self->models_row, i);
}

static void
test_clicked (TbProviderEditor *self)
{
  g_autoptr(TbProvider) provider = NULL;

  provider = tb_provider_new_for_kind (selected_kind (self),
                                       gtk_editable_get_text (GTK_EDITABLE (self->url_row)),
                                       NULL,
                                       gtk_editable_get_text (GTK_EDITABLE (self->key_row)),
                                       NULL);
  tb_label_set_status (self->status, _("Asking the endpoint for its models…"), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), FALSE);
  tb_http_provider_list_models_async (TB_HTTP_PROVIDER (provider), self->cancellable,
                                      models_fetched_cb, g_object_ref (self));
}

/* A new kind brings its public endpoint, unless a person typed another:
 * the URL changes only while it is empty or the previous kind's. */
static void
kind_selected (TbProviderEditor *self)
{
  const char *url = gtk_editable_get_text (GTK_EDITABLE (self->url_row));
  const char *kind = selected_kind (self);

  if (*url == '\0' || g_strcmp0 (url, self->kind_url) == 0)
    gtk_editable_set_text (GTK_EDITABLE (self->url_row),
                           tb_provider_kind_get_default_base_url (kind));
  g_free (self->kind_url);
  self->kind_url = g_strdup (tb_provider_kind_get_default_base_url (kind));
}

static void
model_selected (TbProviderEditor *self)
{
  GtkStringObject *item = adw_combo_row_get_selected_item (self->models_row);

  if (item != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->model_row), gtk_string_object_get_string (item));
}

/* The key store's work goes on after the page has closed, so it is not
 * cancelled with the page; its outcome goes to whoever still listens. */
static void
key_saved_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TbProviderEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_secret_store_save_finish (TB_SECRET_STORE (source), result, &error))
    g_signal_emit (self, signals [ERROR], 0, error->message);
  else
    g_signal_emit (self, signals [KEY_SAVED], 0);
}

static void
key_cleared_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TbProviderEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_secret_store_clear_finish (TB_SECRET_STORE (source), result, &error))
    g_signal_emit (self, signals [ERROR], 0, error->message);
}

static void
save_clicked (TbProviderEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbProviderEndpoint) saved = NULL;
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  g_autofree char *name = g_strstrip (g_strdup (typed));
  const char *key = gtk_editable_get_text (GTK_EDITABLE (self->key_row));

  if (!tb_prefs_save_provider (self->settings, self->old_name, name, selected_kind (self),
                               gtk_editable_get_text (GTK_EDITABLE (self->url_row)),
                               gtk_editable_get_text (GTK_EDITABLE (self->model_row)),
                               &error))
    {
      tb_label_set_status (self->status, error->message, TRUE);
      return;
    }
  saved = tb_prefs_find_provider (self->settings, name);
  g_assert (saved != NULL);

  /* The key follows the endpoint: a new name or URL moves it. */
  if (self->old_name != NULL
      && (g_strcmp0 (self->old_name, saved->name) != 0
          || g_strcmp0 (self->old_url, saved->base_url) != 0)
      && self->key_loaded)
    tb_secret_store_clear_async (self->store, self->old_name, self->old_url, NULL,
                                 key_cleared_cb, g_object_ref (self));
  if (*key != '\0')
    tb_secret_store_save_async (self->store, saved->name, saved->base_url, key, NULL,
                                key_saved_cb, g_object_ref (self));
  else if (self->old_name != NULL && self->key_loaded)
    tb_secret_store_clear_async (self->store, saved->name, saved->base_url, NULL,
                                 key_cleared_cb, g_object_ref (self));
  close_page (self);
}

static void
remove_clicked (TbProviderEditor *self)
{
  g_autoptr(GError) error = NULL;

  if (!tb_prefs_remove_provider (self->settings, self->old_name, &error))
    {
      tb_label_set_status (self->status, error->message, TRUE);
      return;
    }
  tb_secret_store_clear_async (self->store, self->old_name, self->old_url, NULL,
                               key_cleared_cb, g_object_ref (self));
  close_page (self);
}

static void
tb_provider_editor_dispose (GObject *object)
{
  TbProviderEditor *self = (TbProviderEditor *) object;

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_PROVIDER_EDITOR);

  G_OBJECT_CLASS (tb_provider_editor_parent_class)->dispose (object);
}

static void
tb_provider_editor_finalize (GObject *object)
{
  TbProviderEditor *self = (TbProviderEditor *) object;

  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_clear_object (&self->store);
  g_free (self->old_name);
  g_free (self->old_url);
  g_free (self->kind_url);

  G_OBJECT_CLASS (tb_provider_editor_parent_class)->finalize (object);
}

static void
tb_provider_editor_class_init (TbProviderEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_provider_editor_dispose;
  object_class->finalize = tb_provider_editor_finalize;

  /**
   * TbProviderEditor::error:
   * @message: what went wrong, a sentence
   *
   * The key store refused to save or forget a key, after the page has
   * closed.
   */
  signals [ERROR] = g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * TbProviderEditor::key-saved:
   *
   * The key store holds the endpoint's key.
   */
  signals [KEY_SAVED] = g_signal_new ("key-saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-provider-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, title);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, kind_row);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, kind_labels);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, url_row);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, key_row);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, model_row);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, models_row);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, models);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, status);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, test_button);
  gtk_widget_class_bind_template_child (widget_class, TbProviderEditor, remove_box);
  gtk_widget_class_bind_template_callback (widget_class, back_clicked);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, test_clicked);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked);
}

static void
tb_provider_editor_init (TbProviderEditor *self)
{
  const char * const *kinds = tb_provider_kinds ();

  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; kinds[i] != NULL; i++)
    gtk_string_list_append (self->kind_labels, tb_provider_kind_get_label (kinds[i]));
}

/**
 * tb_provider_editor_new:
 * @settings: the settings that hold the endpoints
 * @store: the key store
 * @name: (nullable): the endpoint to edit, %NULL to add one
 *
 * Returns: (transfer floating): the editor, to present as a subpage
 */
TbProviderEditor *
tb_provider_editor_new (GSettings     *settings,
                        TbSecretStore *store,
                        const char    *name)
{
  g_autoptr(TbProviderEndpoint) endpoint = NULL;
  TbProviderEditor *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (TB_IS_SECRET_STORE (store), NULL);

  self = g_object_new (TB_TYPE_PROVIDER_EDITOR, NULL);
  self->settings = g_object_ref (settings);
  self->store = g_object_ref (store);
  if (name != NULL)
    endpoint = tb_prefs_find_provider (settings, name);
  adw_window_title_set_title (self->title, endpoint != NULL ? _("Edit Endpoint")
                                                            : _("Add Endpoint"));
  if (endpoint != NULL)
    {
      const char * const *kinds = tb_provider_kinds ();

      self->old_name = g_strdup (endpoint->name);
      self->old_url = g_strdup (endpoint->base_url);
      gtk_editable_set_text (GTK_EDITABLE (self->name_row), endpoint->name);
      gtk_editable_set_text (GTK_EDITABLE (self->url_row), endpoint->base_url);
      gtk_editable_set_text (GTK_EDITABLE (self->model_row), endpoint->model);
      for (guint i = 0; kinds[i] != NULL; i++)
        if (g_strcmp0 (kinds[i], endpoint->kind) == 0)
          adw_combo_row_set_selected (self->kind_row, i);
      tb_secret_store_lookup_async (store, endpoint->name, endpoint->base_url,
                                    self->cancellable, key_lookup_cb, g_object_ref (self));
      gtk_widget_set_visible (self->remove_box, TRUE);
    }
  else
    {
      self->key_loaded = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->url_row),
                             tb_provider_kind_get_default_base_url (selected_kind (self)));
    }
  self->kind_url = g_strdup (tb_provider_kind_get_default_base_url (selected_kind (self)));
  g_signal_connect_object (self->kind_row, "notify::selected", G_CALLBACK (kind_selected),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->models_row, "notify::selected", G_CALLBACK (model_selected),
                           self, G_CONNECT_SWAPPED);
  return self;
}
