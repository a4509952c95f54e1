/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-preferences-window"

#include "config.h"

#include <glib/gi18n.h>

#include "toolbench.h"
#include "tb-app-util.h"
#include "tb-preferences-window.h"
#include "tb-preferences-window-private.h"
#include "tb-mcp-server-editor.h"
#include "tb-mcp-server-row.h"
#include "tb-plugin-row.h"
#include "tb-prefs.h"
#include "tb-provider-editor.h"
#include "tb-tool-sources.h"

/* The preferences: provider endpoints (their keys in the keyring), loop
 * defaults, MCP servers, tool manifest folders and the file tools' sandbox.
 * Every change goes through tb-prefs.c, which refuses bad input with a
 * sentence; that sentence is shown beside the control the person used, and
 * the setting in place stays. */

struct _TbPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  TbSecretStore        *store;
  GCancellable         *cancellable;

  AdwPreferencesGroup  *providers_group;
  GPtrArray            *provider_rows;
  AdwPreferencesGroup  *mcp_group;
  GPtrArray            *mcp_rows;
  AdwPreferencesGroup  *folders_group;
  AdwPreferencesGroup  *plugins_group;
  GtkListBox           *plugins_list;
  GtkLabel             *plugins_placeholder;
  GPtrArray            *folder_rows;
  AdwActionRow         *sandbox_row;
  GtkButton            *sandbox_clear;
  GtkSpinButton        *cap_spin;
  GtkSpinButton        *timeout_spin;
  AdwComboRow          *policy_row;
  AdwComboRow          *protocol_row;
  GtkLabel             *loop_status;
  gboolean              syncing;

  AdwLeaflet           *subpages;         /* the window's own, found on the first subpage */
  GtkWidget            *waiting_subpage;
  gulong                transition_id;
};

G_DEFINE_FINAL_TYPE (TbPreferencesWindow, tb_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char * const policies[] = { "ask", "approve-all", "reject-all", "read-only" };
static const char * const protocols[] = { "auto", TB_MCP_PROTOCOL_VERSION_STATELESS,
                                           TB_MCP_PROTOCOL_VERSION };

static void
toast (TbPreferencesWindow *self,
       const char          *text)
{
  AdwToast *item = adw_toast_new (text);

  adw_toast_set_timeout (item, 4);
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), item);
}

static GtkWidget *
icon_button_new (const char *icon,
                 const char *label)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);
  return button;
}

static void
clear_rows (AdwPreferencesGroup *group,
            GPtrArray           *rows)
{
  for (guint i = 0; i < rows->len; i++)
    adw_preferences_group_remove (group, g_ptr_array_index (rows, i));
  g_ptr_array_set_size (rows, 0);
}

/* ---- Providers ------------------------------------------------------- */

static void
provider_key_saved (TbPreferencesWindow *self)
{
  if (tb_secret_store_is_in_memory (self->store))
    adw_preferences_group_set_description (self->providers_group,
                                           tb_secret_store_get_fallback_message (self->store));
}

static void present_subpage (TbPreferencesWindow *self,
                             GtkWidget           *subpage);

static void
subpages_transition_cb (TbPreferencesWindow *self)
{
  g_autoptr(GtkWidget) subpage = NULL;

  if (adw_leaflet_get_child_transition_running (self->subpages))
    return;
  g_clear_signal_handler (&self->transition_id, self->subpages);
  subpage = g_steal_pointer (&self->waiting_subpage);
  if (subpage != NULL)
    present_subpage (self, subpage);
}

/* libadwaita 1.2 removes a closed subpage when the slide back ends; a
 * subpage presented while it slides is left beside a disposed widget
 * (Gtk-CRITICAL in gtk_widget_set_child_visible). One presented then — a
 * row clicked right after Save — waits until the slide is over. */
static void
present_subpage (TbPreferencesWindow *self,
                 GtkWidget           *subpage)
{
  if (self->subpages != NULL && adw_leaflet_get_child_transition_running (self->subpages))
    {
      g_clear_object (&self->waiting_subpage);
      self->waiting_subpage = g_object_ref_sink (subpage);
      if (self->transition_id == 0)
        self->transition_id =
          g_signal_connect_object (self->subpages, "notify::child-transition-running",
                                   G_CALLBACK (subpages_transition_cb), self,
                                   G_CONNECT_SWAPPED);
      return;
    }
  adw_preferences_window_present_subpage (ADW_PREFERENCES_WINDOW (self), subpage);
  if (self->subpages == NULL)
    self->subpages = ADW_LEAFLET (gtk_widget_get_ancestor (subpage, ADW_TYPE_LEAFLET));
}

/**
 * tb_preferences_window_edit_provider:
 * @self: the window
 * @name: (nullable): the endpoint to edit, %NULL to add one
 *
 * Shows the endpoint editor.
 */
void
tb_preferences_window_edit_provider (TbPreferencesWindow *self,
                                     const char          *name)
{
  TbProviderEditor *editor;

  g_return_if_fail (TB_IS_PREFERENCES_WINDOW (self));

  editor = tb_provider_editor_new (self->settings, self->store, name);
  g_signal_connect_object (editor, "error", G_CALLBACK (toast), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (editor, "key-saved", G_CALLBACK (provider_key_saved), self,
                           G_CONNECT_SWAPPED);
  present_subpage (self, GTK_WIDGET (editor));
}

static void
edit_provider_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  tb_preferences_window_edit_provider (TB_PREFERENCES_WINDOW (widget),
                                       g_variant_get_string (parameter, NULL));
}

static void
add_provider_clicked (GtkButton           *button,
                      TbPreferencesWindow *self)
{
  tb_preferences_window_edit_provider (self, NULL);
}

static void
rebuild_providers (TbPreferencesWindow *self)
{
  g_autoptr(GPtrArray) endpoints = tb_prefs_get_providers (self->settings);

  clear_rows (self->providers_group, self->provider_rows);
  for (guint i = 0; i < endpoints->len; i++)
    {
      TbProviderEndpoint *endpoint = g_ptr_array_index (endpoints, i);
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *subtitle = NULL;

      /* Translators: an endpoint's kind, base URL and default model. */
      subtitle = *endpoint->model != '\0'
        ? g_strdup_printf (_("%s · %s · %s"), tb_provider_kind_get_label (endpoint->kind),
                           endpoint->base_url, endpoint->model)
        : g_strdup_printf (_("%s · %s"), tb_provider_kind_get_label (endpoint->kind),
                           endpoint->base_url);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), endpoint->name);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_widget_set_name (row, "endpoint-row");
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      /* The row carries its endpoint's name to the action it activates. */
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "prefs.edit-provider");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", endpoint->name);
      adw_preferences_group_add (self->providers_group, row);
      g_ptr_array_add (self->provider_rows, row);
    }
  if (endpoints->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No endpoints yet"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   _("The scripted demo provider works without one."));
      adw_preferences_group_add (self->providers_group, row);
      g_ptr_array_add (self->provider_rows, row);
    }
}

/* ---- MCP servers ------------------------------------------------------- */

/**
 * tb_preferences_window_edit_mcp_server:
 * @self: the window
 * @name: (nullable): the server to edit, %NULL to add one
 *
 * Shows the MCP server editor.
 */
void
tb_preferences_window_edit_mcp_server (TbPreferencesWindow *self,
                                       const char          *name)
{
  g_return_if_fail (TB_IS_PREFERENCES_WINDOW (self));

  present_subpage (self, GTK_WIDGET (tb_mcp_server_editor_new (self->settings, self->store,
                                                                name)));
}

static void
mcp_enabled_changed (TbMcpServerRow      *row,
                     GParamSpec          *pspec,
                     TbPreferencesWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->syncing)
    return;
  if (!tb_prefs_set_mcp_enabled (self->settings, tb_mcp_server_row_get_server_name (row),
                                 tb_mcp_server_row_get_enabled (row), &error))
    toast (self, error->message);
}

static void
edit_mcp_server_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  tb_preferences_window_edit_mcp_server (TB_PREFERENCES_WINDOW (widget),
                                         g_variant_get_string (parameter, NULL));
}

static GtkWidget *
create_plugin_row (gpointer item,
                   gpointer user_data)
{
  return tb_plugin_row_new (TB_PLUGIN (item));
}

static void
plugins_loading_changed (TbPreferencesWindow *self)
{
  TbToolSources *sources = tb_tool_sources_get_default ();

  if (sources != NULL && tb_tool_sources_get_plugins_loading (sources))
    gtk_label_set_label (self->plugins_placeholder, _("Loading plugins…"));
  else
    gtk_label_set_label (self->plugins_placeholder,
                         _("No plugins. Put Python (*.py) or JavaScript (*.js) files with "
                           "tools in the folder, then reload."));
}

static void
setup_plugins (TbPreferencesWindow *self)
{
  TbToolSources *sources = tb_tool_sources_get_default ();
  g_autofree char *dir = NULL;
  g_autofree char *description = NULL;

  dir = sources != NULL ? g_strdup (tb_tool_sources_get_plugins_dir (sources))
                        : tb_plugins_get_default_dir ();
  description = g_strdup_printf (_("Tools written in Python or JavaScript, from the files in "
                                   "%s. Each runs in a process of its own."), dir);
  adw_preferences_group_set_description (self->plugins_group, description);
  plugins_loading_changed (self);
  if (sources == NULL)
    return;
  gtk_list_box_bind_model (self->plugins_list, tb_tool_sources_get_plugins (sources),
                           create_plugin_row, NULL, NULL);
  g_signal_connect_object (sources, "notify::plugins-loading",
                           G_CALLBACK (plugins_loading_changed), self, G_CONNECT_SWAPPED);
}

static void
reload_plugins_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TbToolSources *sources = tb_tool_sources_get_default ();

  if (sources != NULL)
    tb_tool_sources_reload_plugins (sources);
}

static void
rebuild_mcp (TbPreferencesWindow *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->settings, "mcp-servers");
  TbToolSources *sources = tb_tool_sources_get_default ();
  GVariantIter iter;
  const char *name, *entry;
  gboolean enabled;

  self->syncing = TRUE;
  clear_rows (self->mcp_group, self->mcp_rows);
  g_variant_iter_init (&iter, value);
  while (g_variant_iter_next (&iter, "(&sb&s)", &name, &enabled, &entry))
    {
      g_autoptr(JsonNode) node = tb_json_parse (entry, -1, NULL);
      const char *summary = NULL;
      GtkWidget *row;

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *object = json_node_get_object (node);

          summary = tb_json_object_get_string (object, "command");
          if (summary == NULL)
            summary = tb_json_object_get_string (object, "url");
        }
      row = tb_mcp_server_row_new (name, summary, enabled,
                                   sources != NULL ? tb_tool_sources_get_client (sources, name)
                                                   : NULL);
      g_signal_connect (row, "notify::enabled", G_CALLBACK (mcp_enabled_changed), self);
      adw_preferences_group_add (self->mcp_group, row);
      g_ptr_array_add (self->mcp_rows, row);
    }
  self->syncing = FALSE;
}

static gboolean
rebuild_mcp_idle (gpointer data)
{
  TbPreferencesWindow *self = data;

  if (self->settings != NULL)
    rebuild_mcp (self);
  return G_SOURCE_REMOVE;
}

static void
imported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TbPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) problems = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *details = NULL;
  guint imported;
  AdwMessageDialog *dialog;

  imported = tb_prefs_import_mcp_config_finish (G_SETTINGS (object), result, &problems, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      summary = g_strdup (_("Nothing Imported"));
      details = g_strdup (error->message);
    }
  else if (problems != NULL && problems[0] != NULL)
    {
      summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Server Imported",
                                              "%u Servers Imported", imported), imported);
      details = g_strjoinv ("\n\n", problems);
    }
  else
    {
      g_autofree char *text_toast =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u MCP server imported",
                                      "%u MCP servers imported", imported), imported);

      toast (self, text_toast);
      return;
    }

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), summary, details));
  gtk_widget_set_name (GTK_WIDGET (dialog), "mcp-import-report");
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * tb_preferences_window_import_mcp_text:
 * @self: the window
 * @text: the text of an `mcpServers` configuration
 * @length: its length, or -1
 *
 * Imports the servers, their header values into the keyring, and tells the
 * person what came in and what not.
 */
void
tb_preferences_window_import_mcp_text (TbPreferencesWindow *self,
                                       const char          *text,
                                       gssize               length)
{
  g_return_if_fail (TB_IS_PREFERENCES_WINDOW (self));

  tb_prefs_import_mcp_config_async (self->settings, self->store, text, length,
                                    self->cancellable, imported_cb, g_object_ref (self));
}

static void
import_loaded_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TbPreferencesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        toast (self, error->message);
      return;
    }
  tb_preferences_window_import_mcp_text (self, contents, length);
}

static void
import_response (GtkNativeDialog     *chooser,
                 int                  response,
                 TbPreferencesWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      g_file_load_contents_async (file, self->cancellable, import_loaded_cb,
                                  g_object_ref (self));
    }
  g_object_unref (chooser);
}

static void
import_clicked (GtkButton           *button,
                TbPreferencesWindow *self)
{
  GtkFileChooserNative *chooser =
    tb_file_chooser_new (GTK_WIDGET (self), _("Import MCP Configuration"),
                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"));

  g_signal_connect (chooser, "response", G_CALLBACK (import_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
add_mcp_clicked (GtkButton           *button,
                 TbPreferencesWindow *self)
{
  tb_preferences_window_edit_mcp_server (self, NULL);
}

/* ---- Tools: folders and sandbox ---------------------------------------- */

static void
remove_tool_folder_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  TbPreferencesWindow *self = TB_PREFERENCES_WINDOW (widget);

  tb_prefs_remove_tool_folder (self->settings, g_variant_get_string (parameter, NULL));
}

static void
rebuild_folders (TbPreferencesWindow *self)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "tool-folders");
  g_autofree char *root = g_settings_get_string (self->settings, "sandbox-root");

  clear_rows (self->folders_group, self->folder_rows);
  for (guint i = 0; folders[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = icon_button_new ("list-remove-symbolic", _("Remove Folder"));

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), folders[i]);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      gtk_widget_set_name (remove, "folder-remove");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "prefs.remove-tool-folder");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "s", folders[i]);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      adw_preferences_group_add (self->folders_group, row);
      g_ptr_array_add (self->folder_rows, row);
    }

  adw_action_row_set_subtitle (self->sandbox_row,
                               *root != '\0' ? root
                                             : _("Not set: the file tools are not offered"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->sandbox_clear), *root != '\0');
}

static char *
chosen_path (GtkNativeDialog *chooser,
             int              response)
{
  g_autoptr(GFile) file = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return NULL;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  return file != NULL ? g_file_get_path (file) : NULL;
}

static void
tool_folder_chosen (GtkNativeDialog     *chooser,
                    int                  response,
                    TbPreferencesWindow *self)
{
  g_autofree char *path = chosen_path (chooser, response);
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT
      && !tb_prefs_add_tool_folder (self->settings, path, &error))
    toast (self, error->message);
  g_object_unref (chooser);
}

static void
sandbox_chosen (GtkNativeDialog     *chooser,
                int                  response,
                TbPreferencesWindow *self)
{
  g_autofree char *path = chosen_path (chooser, response);
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT
      && !tb_prefs_set_sandbox_root (self->settings, path, &error))
    toast (self, error->message);
  g_object_unref (chooser);
}

static void
choose_folder (TbPreferencesWindow *self,
               const char          *title,
               GCallback            chosen)
{
  GtkFileChooserNative *chooser =
    tb_file_chooser_new (GTK_WIDGET (self), title, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                         _("_Choose"));

  g_signal_connect (chooser, "response", chosen, self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
add_folder_clicked (GtkButton           *button,
                    TbPreferencesWindow *self)
{
  choose_folder (self, _("Add a Tool Manifest Folder"), G_CALLBACK (tool_folder_chosen));
}

static void
sandbox_choose_clicked (GtkButton           *button,
                        TbPreferencesWindow *self)
{
  choose_folder (self, _("Choose the Sandbox Root"), G_CALLBACK (sandbox_chosen));
}

static void
sandbox_clear_clicked (GtkButton           *button,
                       TbPreferencesWindow *self)
{
  tb_prefs_set_sandbox_root (self->settings, NULL, NULL);
}

/* ---- Loop defaults ------------------------------------------------------ */

static void
sync_loop (TbPreferencesWindow *self)
{
  g_autofree char *policy = g_settings_get_string (self->settings, "approval-policy");

  self->syncing = TRUE;
  gtk_spin_button_set_value (self->cap_spin,
                             g_settings_get_uint (self->settings, "loop-iteration-cap"));
  gtk_spin_button_set_value (self->timeout_spin,
                             g_settings_get_uint (self->settings, "tool-timeout-seconds"));
  for (guint i = 0; i < G_N_ELEMENTS (policies); i++)
    if (g_strcmp0 (policies[i], policy) == 0)
      adw_combo_row_set_selected (self->policy_row, i);
  {
    g_autofree char *protocol = g_settings_get_string (self->settings, "mcp-protocol");

    for (guint i = 0; i < G_N_ELEMENTS (protocols); i++)
      if (g_strcmp0 (protocols[i], protocol) == 0)
        adw_combo_row_set_selected (self->protocol_row, i);
  }
  self->syncing = FALSE;
}

static void
protocol_changed (AdwComboRow         *row,
                  GParamSpec          *pspec,
                  TbPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (row);

  if (self->syncing || selected >= G_N_ELEMENTS (protocols))
    return;
  g_settings_set_string (self->settings, "mcp-protocol", protocols[selected]);
}

static void
spin_changed (GtkSpinButton       *spin,
              TbPreferencesWindow *self)
{
  const char *key = spin == self->cap_spin ? "loop-iteration-cap" : "tool-timeout-seconds";
  g_autoptr(GError) error = NULL;
  double value = gtk_spin_button_get_value (spin);

  if (self->syncing)
    return;
  if (!tb_prefs_set_uint (self->settings, key, value < 0 ? 0 : (guint) value, &error))
    {
      tb_label_set_status (self->loop_status, error->message, TRUE);
      sync_loop (self);
      return;
    }
  tb_label_set_status (self->loop_status, NULL, FALSE);
}

static void
policy_changed (AdwComboRow         *row,
                GParamSpec          *pspec,
                TbPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (row);
  g_autoptr(GError) error = NULL;

  if (self->syncing || selected >= G_N_ELEMENTS (policies))
    return;
  if (!tb_prefs_set_string_choice (self->settings, "approval-policy", policies[selected],
                                   &error))
    tb_label_set_status (self->loop_status, error->message, TRUE);
}

/* ---- The window --------------------------------------------------------- */

static void
settings_changed (GSettings           *settings,
                  const char          *key,
                  TbPreferencesWindow *self)
{
  if (g_strcmp0 (key, "providers") == 0)
    rebuild_providers (self);
  else if (g_strcmp0 (key, "mcp-servers") == 0)
    /* After the app's tool sources have started or stopped the servers. */
    g_idle_add_full (G_PRIORITY_DEFAULT, rebuild_mcp_idle, g_object_ref (self), g_object_unref);
  else if (g_strcmp0 (key, "tool-folders") == 0 || g_strcmp0 (key, "sandbox-root") == 0)
    rebuild_folders (self);
  else if (g_strcmp0 (key, "loop-iteration-cap") == 0
           || g_strcmp0 (key, "tool-timeout-seconds") == 0
           || g_strcmp0 (key, "approval-policy") == 0
           || g_strcmp0 (key, "mcp-protocol") == 0)
    sync_loop (self);
}

static void
tb_preferences_window_dispose (GObject *object)
{
  TbPreferencesWindow *self = (TbPreferencesWindow *) object;

  g_cancellable_cancel (self->cancellable);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  if (self->subpages != NULL)
    g_clear_signal_handler (&self->transition_id, self->subpages);
  self->subpages = NULL;
  g_clear_object (&self->waiting_subpage);

  G_OBJECT_CLASS (tb_preferences_window_parent_class)->dispose (object);
}

static void
tb_preferences_window_finalize (GObject *object)
{
  TbPreferencesWindow *self = (TbPreferencesWindow *) object;

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->provider_rows, g_ptr_array_unref);
  g_clear_pointer (&self->mcp_rows, g_ptr_array_unref);
  g_clear_pointer (&self->folder_rows, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_preferences_window_parent_class)->finalize (object);
}

static void
tb_preferences_window_class_init (TbPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_preferences_window_dispose;
  object_class->finalize = tb_preferences_window_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, providers_group);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, mcp_group);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, folders_group);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, plugins_group);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, plugins_list);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, plugins_placeholder);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, sandbox_row);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, sandbox_clear);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, cap_spin);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, timeout_spin);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, policy_row);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, protocol_row);
  gtk_widget_class_bind_template_child (widget_class, TbPreferencesWindow, loop_status);
  gtk_widget_class_bind_template_callback (widget_class, add_provider_clicked);
  gtk_widget_class_bind_template_callback (widget_class, spin_changed);
  gtk_widget_class_bind_template_callback (widget_class, policy_changed);
  gtk_widget_class_bind_template_callback (widget_class, protocol_changed);
  gtk_widget_class_bind_template_callback (widget_class, import_clicked);
  gtk_widget_class_bind_template_callback (widget_class, add_mcp_clicked);
  gtk_widget_class_bind_template_callback (widget_class, add_folder_clicked);
  gtk_widget_class_bind_template_callback (widget_class, sandbox_choose_clicked);
  gtk_widget_class_bind_template_callback (widget_class, sandbox_clear_clicked);

  gtk_widget_class_install_action (widget_class, "prefs.edit-provider", "s",
                                   edit_provider_action);
  gtk_widget_class_install_action (widget_class, "prefs.edit-mcp-server", "s",
                                   edit_mcp_server_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-tool-folder", "s",
                                   remove_tool_folder_action);
  gtk_widget_class_install_action (widget_class, "prefs.reload-plugins", NULL,
                                   reload_plugins_action);
}

static void
tb_preferences_window_init (TbPreferencesWindow *self)
{
  tb_app_init ();
  self->settings = g_settings_new (APPLICATION_ID);
  self->store = tb_secret_store_get_default ();
  self->cancellable = g_cancellable_new ();
  self->provider_rows = g_ptr_array_new ();
  self->mcp_rows = g_ptr_array_new ();
  self->folder_rows = g_ptr_array_new ();

  /* Setting up the template sets the controls' values: not the person's
   * doing, so nothing is saved until the settings are shown. */
  self->syncing = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  if (tb_secret_store_is_in_memory (self->store))
    adw_preferences_group_set_description (self->providers_group,
                                           tb_secret_store_get_fallback_message (self->store));
  else
    adw_preferences_group_set_description (self->providers_group,
                                           _("Model endpoints the loop can drive. Their API "
                                             "keys are kept in the system keyring."));
  sync_loop (self);
  rebuild_providers (self);
  rebuild_mcp (self);
  rebuild_folders (self);
  setup_plugins (self);

  g_signal_connect (self->settings, "changed", G_CALLBACK (settings_changed), self);
}

/**
 * tb_preferences_window_new:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer full): the preferences window
 */
TbPreferencesWindow *
tb_preferences_window_new (GtkWindow *parent)
{
  TbPreferencesWindow *self = g_object_new (TB_TYPE_PREFERENCES_WINDOW,
                                            "transient-for", parent,
                                            "modal", parent != NULL,
                                            NULL);

  /* No larger than the window it belongs to, so that it fits where that
   * one does (a small screen, a narrow window); its pages scroll. */
  if (parent != NULL && gtk_widget_get_mapped (GTK_WIDGET (parent)))
    {
      int width, height;

      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   MIN (width, gtk_widget_get_width (GTK_WIDGET (parent))),
                                   MIN (height, gtk_widget_get_height (GTK_WIDGET (parent))));
    }
  return self;
}
