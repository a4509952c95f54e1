/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-sources"

#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "tb-mcp-headers.h"
#include "tb-prefs.h"
#include "tb-tool-sources-private.h"

/* Keeps the registry in step with the preferences: the command tools of the
 * manifest folders, the file tools confined to the sandbox root, the
 * enabled MCP servers, started and attached, and the tools of the plugin
 * folder (loaded at start and on Reload, not watched). A change in the settings
 * reloads what it touches and nothing else. What could not be loaded is
 * kept as sentences for the preferences to show. A server whose header
 * values are in the keyring starts once they are read; values an earlier
 * version left in the settings move to the keyring. */

struct _TbToolSources
{
  GObject         parent_instance;

  TbToolRegistry *registry;
  GSettings      *settings;
  GCancellable   *cancellable;
  GPtrArray      *manifest_tools;  /* names */
  GPtrArray      *file_tools;      /* names */
  GListStore     *plugins;         /* TbPlugin */
  GCancellable   *plugins_loading;
  char           *plugins_dir;
  GHashTable     *clients;         /* name → TbMcpClient */
  GHashTable     *entries;         /* name → entry JSON text it was started with, or is
                                    * starting with while its headers are read */
  TbSecretStore  *store;
  gboolean        moving;          /* header values are moving to the keyring */
  GPtrArray      *problems;        /* sentences */
  GHashTable     *hinted;          /* names the person gave hints for */
  TbUriLauncher   launcher;
  gpointer        launcher_data;
};

G_DEFINE_FINAL_TYPE (TbToolSources, tb_tool_sources, G_TYPE_OBJECT)

enum { CLIENT_STARTED, N_SIGNALS };
static guint signals [N_SIGNALS];

enum { PROP_0, PROP_PLUGINS_LOADING, N_PROPS };
static GParamSpec *properties [N_PROPS];

static TbToolSources *default_sources;

static void
unregister_all (TbToolSources *self,
                GPtrArray     *names)
{
  for (guint i = 0; i < names->len; i++)
    tb_tool_registry_unregister (self->registry, g_ptr_array_index (names, i), NULL);
  g_ptr_array_set_size (names, 0);
}

static void
add_problem (TbToolSources *self,
             const char    *text)
{
  g_ptr_array_add (self->problems, g_strdup (text));
  g_message ("%s", text);
}

static void
load_folders (TbToolSources *self)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "tool-folders");
  g_auto(GStrv) before = NULL;

  unregister_all (self, self->manifest_tools);
  before = tb_tool_registry_get_names (self->registry);
  for (guint i = 0; folders[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) problems = NULL;

      if (!tb_command_tools_load_dir (self->registry, folders[i], &problems, &error)
          && error != NULL)
        add_problem (self, error->message);
      for (guint j = 0; problems != NULL && problems[j] != NULL; j++)
        add_problem (self, problems[j]);
    }

  /* Whatever appeared is from the folders. */
  {
    g_auto(GStrv) after = tb_tool_registry_get_names (self->registry);

    for (guint i = 0; after[i] != NULL; i++)
      if (!g_strv_contains ((const char * const *) before, after[i]))
        g_ptr_array_add (self->manifest_tools, g_strdup (after[i]));
  }
}

static void
unregister_plugins (TbToolSources *self)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->plugins)); i++)
    {
      g_autoptr(TbPlugin) plugin = g_list_model_get_item (G_LIST_MODEL (self->plugins), i);
      const char * const *tools = tb_plugin_get_tools (plugin);

      for (guint j = 0; tools[j] != NULL; j++)
        tb_tool_registry_unregister (self->registry, tools[j], NULL);
    }
  g_list_store_remove_all (self->plugins);
}

static void
plugins_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(TbToolSources) self = g_weak_ref_get (weak);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) plugins = tb_plugins_load_finish (result, &error);

  g_weak_ref_clear (weak);
  g_free (weak);
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->plugins_loading);
  if (plugins == NULL)
    add_problem (self, error->message);
  for (guint i = 0; plugins != NULL && i < g_list_model_get_n_items (plugins); i++)
    {
      g_autoptr(TbPlugin) plugin = g_list_model_get_item (plugins, i);

      if (tb_plugin_get_state (plugin) == TB_PLUGIN_STATE_FAILED)
        g_message ("%s", tb_plugin_get_message (plugin));
      g_list_store_append (self->plugins, plugin);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PLUGINS_LOADING]);
}

static void
load_plugins (TbToolSources *self)
{
  GWeakRef *weak;

  if (self->plugins_loading != NULL)
    g_cancellable_cancel (self->plugins_loading);
  g_clear_object (&self->plugins_loading);
  unregister_plugins (self);

  /* Most people have no plugin folder: nothing to start. */
  if (!g_file_test (self->plugins_dir, G_FILE_TEST_IS_DIR))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PLUGINS_LOADING]);
      return;
    }

  /* Stopped with the sources, or by a reload. */
  self->plugins_loading = g_cancellable_new ();
  g_signal_connect_object (self->cancellable, "cancelled", G_CALLBACK (g_cancellable_cancel),
                           self->plugins_loading, G_CONNECT_SWAPPED);
  /* The sources may go first: a weak reference, so that they do not wait
   * for the listing to end. */
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  tb_plugins_load_async (self->registry, self->plugins_dir, self->plugins_loading,
                         plugins_loaded_cb, weak);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PLUGINS_LOADING]);
}

static void
load_sandbox (TbToolSources *self)
{
  g_autofree char *root = g_settings_get_string (self->settings, "sandbox-root");
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;

  unregister_all (self, self->file_tools);
  if (*root == '\0')
    return;
  tools = tb_file_tools_new (root, &error);
  if (tools == NULL)
    {
      add_problem (self, error->message);
      return;
    }
  for (guint i = 0; i < tools->len; i++)
    {
      TbTool *tool = g_ptr_array_index (tools, i);
      g_autoptr(GError) register_error = NULL;

      if (tb_tool_registry_register (self->registry, tool, &register_error))
        g_ptr_array_add (self->file_tools, g_strdup (tb_tool_get_name (tool)));
      else
        add_problem (self, register_error->message);
    }
}

static void
connect_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The client keeps its state and error for the preferences to show. */
  if (!tb_mcp_client_connect_finish (TB_MCP_CLIENT (source), result, &error)
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("%s", error->message);
}

static void
stop_client (TbToolSources *self,
             const char    *name)
{
  TbMcpClient *client = g_hash_table_lookup (self->clients, name);

  if (client == NULL)
    {
      g_hash_table_remove (self->entries, name);
      return;
    }
  tb_mcp_client_detach (client);
  tb_mcp_client_disconnect (client);
  g_hash_table_remove (self->clients, name);
  g_hash_table_remove (self->entries, name);
}

/* The system browser, through the OpenURI portal inside the Flatpak. */
static gboolean
show_uri (const char *uri,
          gpointer    user_data)
{
  gtk_show_uri (NULL, uri, GDK_CURRENT_TIME);
  return TRUE;
}

static gboolean
present_url_cb (TbMcpAuth     *auth,
                const char    *url,
                TbToolSources *self)
{
  if (self->launcher != NULL)
    return self->launcher (url, self->launcher_data);
  return show_uri (url, NULL);
}

static TbMcpProtocol
protocol_setting (TbToolSources *self)
{
  g_autofree char *text = g_settings_get_string (self->settings, "mcp-protocol");
  TbMcpProtocol protocol = TB_MCP_PROTOCOL_AUTO;

  tb_mcp_protocol_from_string (text, &protocol, NULL);
  return protocol;
}

/* Another revision: every server speaks it from its next start, which is
 * now for those that run or failed. */
static void
load_protocol (TbToolSources *self)
{
  TbMcpProtocol protocol = protocol_setting (self);
  GHashTableIter iter;
  gpointer client;

  g_hash_table_iter_init (&iter, self->clients);
  while (g_hash_table_iter_next (&iter, NULL, &client))
    {
      if (tb_mcp_client_get_protocol (client) == protocol)
        continue;
      tb_mcp_client_set_protocol (client, protocol);
      if (tb_mcp_client_get_state (client) != TB_MCP_CLIENT_STATE_DISCONNECTED)
        tb_mcp_client_connect_async (client, self->cancellable, connect_cb, NULL);
    }
}

static void
start_client (TbToolSources *self,
              const char    *name,
              JsonObject    *entry)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) start = tb_prefs_in_flatpak () ? tb_prefs_wrap_for_host (entry)
                                                       : json_object_ref (entry);
  TbMcpClient *client = tb_mcp_client_new_from_config (name, start, &error);

  if (client == NULL)
    {
      add_problem (self, error->message);
      g_hash_table_remove (self->entries, name);
      return;
    }
  g_hash_table_replace (self->clients, g_strdup (name), client);
  tb_mcp_client_set_tool_timeout_ms (client,
                                     g_settings_get_uint (self->settings,
                                                          "tool-timeout-seconds") * 1000);
  /* The window answers the server's questions through its dialogs
   * (tb_mcp_dialogs_attach_sources()); without one the server is told
   * that nobody can answer. */
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION
                                          | TB_MCP_CAPABILITY_SAMPLING);
  tb_mcp_client_set_protocol (client, protocol_setting (self));
  tb_mcp_client_attach (client, self->registry);
  /* An HTTP server that wants a sign-in: its page opens in the browser,
   * which comes back to the engine's listener on 127.0.0.1. */
  if (tb_mcp_client_get_auth (client) != NULL)
    {
      tb_mcp_auth_set_secret_store (tb_mcp_client_get_auth (client), self->store);
      g_signal_connect_object (tb_mcp_client_get_auth (client), "present-url",
                               G_CALLBACK (present_url_cb), self, 0);
    }
  g_signal_emit (self, signals[CLIENT_STARTED], 0, client);
  tb_mcp_client_connect_async (client, self->cancellable, connect_cb, NULL);
}

typedef struct
{
  TbToolSources *self;
  char          *name;
  char          *text;   /* the entry in the settings */
} Pending;

static void
pending_free (Pending *pending)
{
  g_object_unref (pending->self);
  g_free (pending->name);
  g_free (pending->text);
  g_free (pending);
}

static void
headers_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Pending *pending = user_data;
  TbToolSources *self = pending->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = tb_mcp_headers_load_finish (result, &error);

  /* Started only if the settings still want it as it was read. */
  if (g_cancellable_is_cancelled (self->cancellable)
      || g_strcmp0 (g_hash_table_lookup (self->entries, pending->name), pending->text) != 0
      || g_hash_table_contains (self->clients, pending->name))
    ;
  else if (entry == NULL)
    {
      add_problem (self, error->message);
      g_hash_table_remove (self->entries, pending->name);
    }
  else
    start_client (self, pending->name, entry);
  pending_free (pending);
}

static void
headers_moved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TbToolSources) self = user_data;
  g_autoptr(GError) error = NULL;

  self->moving = FALSE;
  if (tb_prefs_move_mcp_headers_finish (G_SETTINGS (object), result, &error) < 0
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("Moving MCP header values to the keyring: %s", error->message);
}

static void
load_mcp (TbToolSources *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->settings, "mcp-servers");
  g_autoptr(GHashTable) wanted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) running = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;
  GVariantIter items;
  const char *name, *entry;
  gboolean enabled;
  gboolean move = FALSE;

  g_variant_iter_init (&items, value);
  while (g_variant_iter_next (&items, "(&sb&s)", &name, &enabled, &entry))
    if (enabled)
      g_hash_table_replace (wanted, g_strdup (name), g_strdup (entry));

  /* Stop what was removed, turned off or changed. */
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (running, g_strdup (key));
  for (guint i = 0; i < running->len; i++)
    {
      const char *old = g_ptr_array_index (running, i);

      if (g_strcmp0 (g_hash_table_lookup (wanted, old), g_hash_table_lookup (self->entries, old))
          != 0)
        stop_client (self, old);
    }

  /* Start what is new. */
  g_hash_table_iter_init (&iter, wanted);
  while (g_hash_table_iter_next (&iter, &key, (gpointer *) &entry))
    {
      g_autoptr(JsonNode) node = NULL;
      JsonObject *object;
      Pending *pending;

      if (g_hash_table_contains (self->entries, key))
        continue;
      node = tb_json_parse (entry, -1, NULL);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_autofree char *text = g_strdup_printf (_("The MCP server “%s” has an entry that is "
                                                     "not a JSON object."), (char *) key);

          add_problem (self, text);
          continue;
        }
      object = json_node_get_object (node);
      g_hash_table_replace (self->entries, g_strdup (key), g_strdup (entry));
      move |= tb_mcp_headers_has_values (object);
      if (!tb_mcp_headers_has_kept (object))
        {
          start_client (self, key, object);
          continue;
        }
      pending = g_new0 (Pending, 1);
      pending->self = g_object_ref (self);
      pending->name = g_strdup (key);
      pending->text = g_strdup (entry);
      tb_mcp_headers_load_async (self->store, key, object, self->cancellable,
                                 headers_loaded_cb, pending);
    }

  /* Header values an earlier version kept in the settings: the server runs
   * with them now, and again with the keyring's once they moved. */
  if (move && !self->moving)
    {
      self->moving = TRUE;
      tb_prefs_move_mcp_headers_async (self->settings, self->store, self->cancellable,
                                       headers_moved_cb, g_object_ref (self));
    }
}

/* A person's word on what tools do; names no longer in the settings go
 * back to the tools' own hints. */
static void
load_hints (TbToolSources *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->settings, "tool-hints");
  g_autoptr(GHashTable) now = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  GVariantIter entries;
  const char *name;
  const char *text;

  g_variant_iter_init (&entries, value);
  while (g_variant_iter_next (&entries, "{&s&s}", &name, &text))
    {
      TbToolHints hints;

      if (!tb_tool_hints_from_string (text, &hints, NULL))
        continue;
      tb_tool_registry_set_hints (self->registry, name, hints);
      g_hash_table_add (now, g_strdup (name));
    }
  g_hash_table_iter_init (&iter, self->hinted);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    if (!g_hash_table_contains (now, name))
      tb_tool_registry_unset_hints (self->registry, name);
  g_hash_table_unref (self->hinted);
  self->hinted = g_steal_pointer (&now);
}

static void
settings_changed (GSettings     *settings,
                  const char    *key,
                  TbToolSources *self)
{
  if (g_strcmp0 (key, "tool-folders") == 0)
    {
      g_ptr_array_set_size (self->problems, 0);
      load_folders (self);
    }
  else if (g_strcmp0 (key, "sandbox-root") == 0)
    load_sandbox (self);
  else if (g_strcmp0 (key, "mcp-servers") == 0)
    load_mcp (self);
  else if (g_strcmp0 (key, "tool-hints") == 0)
    load_hints (self);
  else if (g_strcmp0 (key, "mcp-protocol") == 0)
    load_protocol (self);
}

static void
tb_tool_sources_dispose (GObject *object)
{
  TbToolSources *self = (TbToolSources *) object;

  g_cancellable_cancel (self->cancellable);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  if (self->clients != NULL)
    {
      GHashTableIter iter;
      gpointer client;

      g_hash_table_iter_init (&iter, self->clients);
      while (g_hash_table_iter_next (&iter, NULL, &client))
        {
          tb_mcp_client_detach (client);
          tb_mcp_client_disconnect (client);
        }
      g_hash_table_remove_all (self->clients);
    }
  if (self->registry != NULL)
    {
      unregister_all (self, self->manifest_tools);
      unregister_all (self, self->file_tools);
      unregister_plugins (self);
    }
  g_clear_object (&self->settings);
  g_clear_object (&self->registry);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tb_tool_sources_parent_class)->dispose (object);
}

static void
tb_tool_sources_finalize (GObject *object)
{
  TbToolSources *self = (TbToolSources *) object;

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->manifest_tools, g_ptr_array_unref);
  g_clear_pointer (&self->file_tools, g_ptr_array_unref);
  g_clear_object (&self->plugins);
  g_clear_object (&self->plugins_loading);
  g_clear_pointer (&self->plugins_dir, g_free);
  g_clear_pointer (&self->clients, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_pointer (&self->hinted, g_hash_table_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_tool_sources_parent_class)->finalize (object);
}

static void
tb_tool_sources_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbToolSources *self = TB_TOOL_SOURCES (object);

  switch (prop_id)
    {
    case PROP_PLUGINS_LOADING:
      g_value_set_boolean (value, self->plugins_loading != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_sources_class_init (TbToolSourcesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_tool_sources_dispose;
  object_class->finalize = tb_tool_sources_finalize;
  object_class->get_property = tb_tool_sources_get_property;

  /**
   * TbToolSources:plugins-loading:
   *
   * Whether the plugin folder is being loaded.
   */
  properties [PROP_PLUGINS_LOADING] =
    g_param_spec_boolean ("plugins-loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbToolSources::client-started:
   * @self: the sources
   * @client: the client of an MCP server, not yet connected
   *
   * Emitted for each MCP server the sources start (at first, and when one
   * is added, enabled or changed), before it connects.
   */
  signals[CLIENT_STARTED] =
    g_signal_new ("client-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, TB_TYPE_MCP_CLIENT);
}

static void
tb_tool_sources_init (TbToolSources *self)
{
  self->cancellable = g_cancellable_new ();
  self->manifest_tools = g_ptr_array_new_with_free_func (g_free);
  self->file_tools = g_ptr_array_new_with_free_func (g_free);
  self->plugins = g_list_store_new (TB_TYPE_PLUGIN);
  self->plugins_dir = tb_plugins_get_default_dir ();
  self->clients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->problems = g_ptr_array_new_with_free_func (g_free);
  self->hinted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * tb_tool_sources_new:
 * @registry: the registry to keep the tools in
 * @settings: the app's settings
 *
 * Loads the tool folders, the sandbox and the enabled MCP servers now, and
 * again whenever their settings change; secrets come from
 * tb_secret_store_get_default().
 *
 * Returns: (transfer full): the sources
 */
TbToolSources *
tb_tool_sources_new (TbToolRegistry *registry,
                     GSettings      *settings)
{
  return tb_tool_sources_new_with_store (registry, settings, tb_secret_store_get_default ());
}

/**
 * tb_tool_sources_new_with_store:
 * @registry: the registry to keep the tools in
 * @settings: the app's settings
 * @store: the keyring of the MCP servers' header values and sign-ins
 *
 * As tb_tool_sources_new(), with secrets from @store.
 *
 * Returns: (transfer full): the sources
 */
TbToolSources *
tb_tool_sources_new_with_store (TbToolRegistry *registry,
                                GSettings      *settings,
                                TbSecretStore  *store)
{
  TbToolSources *self;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (TB_IS_SECRET_STORE (store), NULL);

  self = g_object_new (TB_TYPE_TOOL_SOURCES, NULL);
  self->registry = g_object_ref (registry);
  self->settings = g_object_ref (settings);
  self->store = g_object_ref (store);
  load_folders (self);
  load_sandbox (self);
  load_mcp (self);
  load_plugins (self);
  load_hints (self);
  g_signal_connect (settings, "changed", G_CALLBACK (settings_changed), self);
  return self;
}

/**
 * tb_tool_sources_get_client:
 * @self: the sources
 * @name: an MCP server's name
 *
 * Returns: (transfer none) (nullable): the client of an enabled server
 */
TbMcpClient *
tb_tool_sources_get_client (TbToolSources *self,
                            const char    *name)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCES (self), NULL);

  return g_hash_table_lookup (self->clients, name);
}

/**
 * tb_tool_sources_restart:
 * @self: the sources
 * @name: an MCP server's name
 *
 * Stops the server and starts it again.
 */
void
tb_tool_sources_restart (TbToolSources *self,
                         const char    *name)
{
  TbMcpClient *client;

  g_return_if_fail (TB_IS_TOOL_SOURCES (self));

  client = g_hash_table_lookup (self->clients, name);
  if (client == NULL)
    return;
  tb_mcp_client_disconnect (client);
  tb_mcp_client_connect_async (client, self->cancellable, connect_cb, NULL);
}

/**
 * tb_tool_sources_get_problems:
 * @self: the sources
 *
 * Returns: (transfer full): what could not be loaded, a sentence each
 */
char **
tb_tool_sources_get_problems (TbToolSources *self)
{
  GStrvBuilder *builder;
  char **problems;

  g_return_val_if_fail (TB_IS_TOOL_SOURCES (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->problems->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->problems, i));
  problems = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return problems;
}

/**
 * tb_tool_sources_get_default:
 *
 * Returns: (transfer none) (nullable): the sources of the running app
 */
TbToolSources *
tb_tool_sources_get_default (void)
{
  return default_sources;
}

/**
 * tb_tool_sources_set_default:
 * @sources: (nullable): the sources of the running app
 *
 * Makes @sources the ones the preferences show; the caller keeps its
 * reference.
 */
void
tb_tool_sources_set_default (TbToolSources *sources)
{
  default_sources = sources;
}

/**
 * tb_tool_sources_list_clients:
 * @self: the sources
 *
 * Returns: (transfer container) (element-type TbMcpClient): the clients of
 *   the MCP servers started now
 */
GList *
tb_tool_sources_list_clients (TbToolSources *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCES (self), NULL);

  return g_hash_table_get_values (self->clients);
}

/**
 * tb_tool_sources_set_uri_launcher:
 * @self: the sources
 * @launcher: (nullable): what opens a server's sign-in page; %NULL for the
 *   system browser
 * @user_data: closure for @launcher
 *
 * For tests, which follow the page without a browser.
 */
void
tb_tool_sources_set_uri_launcher (TbToolSources *self,
                                  TbUriLauncher  launcher,
                                  gpointer       user_data)
{
  g_return_if_fail (TB_IS_TOOL_SOURCES (self));

  self->launcher = launcher;
  self->launcher_data = user_data;
}

/**
 * tb_tool_sources_get_plugins:
 * @self: the sources
 *
 * Returns: (transfer none): the plugins of the plugin folder, each a
 *   #TbPlugin with its state; empty while they load
 */
GListModel *
tb_tool_sources_get_plugins (TbToolSources *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCES (self), NULL);

  return G_LIST_MODEL (self->plugins);
}

/**
 * tb_tool_sources_get_plugins_dir:
 * @self: the sources
 *
 * Returns: the plugin folder, tb_plugins_get_default_dir()
 */
const char *
tb_tool_sources_get_plugins_dir (TbToolSources *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCES (self), NULL);

  return self->plugins_dir;
}

/**
 * tb_tool_sources_get_plugins_loading:
 * @self: the sources
 *
 * Returns: whether the plugin folder is being loaded
 */
gboolean
tb_tool_sources_get_plugins_loading (TbToolSources *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCES (self), FALSE);

  return self->plugins_loading != NULL;
}

/**
 * tb_tool_sources_reload_plugins:
 * @self: the sources
 *
 * Unregisters the plugins' tools and loads the plugin folder again, for
 * plugins added, changed or fixed since.
 */
void
tb_tool_sources_reload_plugins (TbToolSources *self)
{
  g_return_if_fail (TB_IS_TOOL_SOURCES (self));

  load_plugins (self);
}
