/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-prefs-mcp"

#include "config.h"

#include <glib/gi18n.h>

#include "toolbench.h"
#include "tb-mcp-headers.h"
#include "tb-prefs-private.h"

/* The MCP servers of the preferences: each is a row (name, enabled, entry
 * JSON) of the "mcp-servers" setting, checked before it is saved. Values of
 * HTTP headers (API keys) never reach the setting: saving and importing put
 * them in the keyring first (tb-mcp-headers.c), and the entry keeps
 * TB_MCP_HEADER_KEPT in their place; removing a server forgets them and
 * its sign-in. */

/**
 * tb_prefs_in_flatpak:
 *
 * Returns: whether the app runs inside a Flatpak sandbox
 */
gboolean
tb_prefs_in_flatpak (void)
{
  return tb_host_in_flatpak ();
}

/**
 * tb_prefs_wrap_for_host:
 * @entry: one entry of an `mcpServers` object
 *
 * Inside a Flatpak, a stdio MCP server is a program of the host: the entry
 * is rewritten to run it through `flatpak-spawn --host`, with its working
 * directory and environment passed as flatpak-spawn options. Entries with a
 * URL, and commands that already are flatpak-spawn, are returned as they
 * are.
 *
 * Returns: (transfer full): the entry to start
 */
JsonObject *
tb_prefs_wrap_for_host (JsonObject *entry)
{
  JsonObject *wrapped;
  JsonArray *args;
  const char *command = tb_json_object_get_string (entry, "command");
  const char *cwd = tb_json_object_get_string (entry, "cwd");
  JsonNode *env = json_object_get_member (entry, "env");
  JsonNode *old_args = json_object_get_member (entry, "args");

  if (command == NULL || g_strcmp0 (command, "flatpak-spawn") == 0)
    return json_object_ref (entry);

  wrapped = json_object_new ();
  args = json_array_new ();
  json_object_set_string_member (wrapped, "command", "flatpak-spawn");
  json_array_add_string_element (args, "--host");
  /* The host process ends with the app. */
  json_array_add_string_element (args, "--watch-bus");
  if (cwd != NULL)
    {
      g_autofree char *option = g_strconcat ("--directory=", cwd, NULL);

      json_array_add_string_element (args, option);
    }
  if (env != NULL && JSON_NODE_HOLDS_OBJECT (env))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, json_node_get_object (env));
      while (json_object_iter_next (&iter, &name, &value))
        if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
          {
            g_autofree char *option = g_strdup_printf ("--env=%s=%s", name,
                                                       json_node_get_string (value));

            json_array_add_string_element (args, option);
          }
    }
  json_array_add_string_element (args, command);
  if (old_args != NULL && JSON_NODE_HOLDS_ARRAY (old_args))
    {
      JsonArray *array = json_node_get_array (old_args);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
            json_array_add_string_element (args, json_node_get_string (item));
        }
    }
  json_object_set_array_member (wrapped, "args", args);
  return wrapped;
}

/**
 * tb_prefs_check_mcp_entry:
 * @name: the server's name
 * @entry: one entry of an `mcpServers` object
 * @error: the error
 *
 * Checks the entry the way the MCP client reads it, and that a stdio
 * server's command is installed.
 *
 * Returns: whether the entry is usable
 */
gboolean
tb_prefs_check_mcp_entry (const char  *name,
                          JsonObject  *entry,
                          GError     **error)
{
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *command;

  if (name == NULL || *name == '\0')
    {
      g_set_error_literal (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                           _("The MCP server has no name; give it one."));
      return FALSE;
    }
  client = tb_mcp_client_new_from_config (name, entry, &local_error);
  if (client == NULL)
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG, "%s", local_error->message);
      return FALSE;
    }
  /* Inside a Flatpak the command is a program of the host, which the
   * sandbox cannot see; a missing one shows when the server starts. */
  if (!tb_prefs_in_flatpak ()
      && json_object_has_member (entry, "command")
      && (command = tb_json_object_get_string (entry, "command")) != NULL)
    {
      g_autofree char *found = NULL;

      if (g_path_is_absolute (command))
        found = g_file_test (command, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (command) : NULL;
      else
        found = g_find_program_in_path (command);
      if (found == NULL)
        {
          g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                       _("The MCP server “%s” runs “%s”, which is not installed or not in "
                         "the PATH; install it or give its full path."), name, command);
          return FALSE;
        }
    }
  return TRUE;
}

typedef struct
{
  char     *name;
  gboolean  enabled;
  char     *entry;
} McpRow;

static void
mcp_row_free (gpointer data)
{
  McpRow *row = data;

  if (row == NULL)
    return;
  g_free (row->name);
  g_free (row->entry);
  g_free (row);
}

static GPtrArray *
read_mcp (GSettings *settings)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, "mcp-servers");
  GPtrArray *rows = g_ptr_array_new_with_free_func (mcp_row_free);
  GVariantIter iter;
  const char *name, *entry;
  gboolean enabled;

  g_variant_iter_init (&iter, value);
  while (g_variant_iter_next (&iter, "(&sb&s)", &name, &enabled, &entry))
    {
      McpRow *row = g_new0 (McpRow, 1);

      row->name = g_strdup (name);
      row->enabled = enabled;
      row->entry = g_strdup (entry);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

static void
write_mcp (GSettings *settings,
           GPtrArray *rows)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sbs)"));
  for (guint i = 0; i < rows->len; i++)
    {
      McpRow *row = g_ptr_array_index (rows, i);

      g_variant_builder_add (&builder, "(sbs)", row->name, row->enabled, row->entry);
    }
  g_settings_set_value (settings, "mcp-servers", g_variant_builder_end (&builder));
}

static JsonObject *
parse_mcp_entry (const char  *name,
                 const char  *text,
                 GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (text, -1, &local_error);

  if (node == NULL)
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                   _("The entry of the MCP server “%s” is not JSON: %s"), name,
                   local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                   _("The entry of the MCP server “%s” must be a JSON object with "
                     "“command” or “url”."), name);
      return NULL;
    }
  return json_object_ref (json_node_get_object (node));
}

static JsonObject *
find_entry (GPtrArray  *rows,
            const char *name)
{
  int index = name != NULL ? _tb_prefs_find_named (rows, name) : -1;
  g_autoptr(JsonNode) node = NULL;

  if (index < 0)
    return NULL;
  node = tb_json_parse (((McpRow *) g_ptr_array_index (rows, index))->entry, -1, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_ref (json_node_get_object (node));
}

static gboolean
check_slot (GPtrArray   *rows,
            const char  *old_name,
            const char  *name,
            int         *replace,
            GError     **error)
{
  switch (_tb_prefs_find_slot (rows, old_name, name, replace))
    {
    case TB_PREFS_SLOT_GONE:
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_NOT_FOUND,
                   _("The MCP server “%s” is gone; add it again."), old_name);
      return FALSE;
    case TB_PREFS_SLOT_TAKEN:
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_EXISTS,
                   _("An MCP server named “%s” already exists; choose another name."), name);
      return FALSE;
    case TB_PREFS_SLOT_FREE:
    default:
      return TRUE;
    }
}

/* The checks of saving a server, before anything is kept: a name, an entry
 * that runs, a place for the name. */
static JsonObject *
prepare_server (GSettings   *settings,
                const char  *old_name,
                const char  *name,
                const char  *entry_json,
                char       **clean_name,
                GError     **error)
{
  g_autoptr(GPtrArray) rows = read_mcp (settings);
  g_autoptr(JsonObject) entry = NULL;
  g_autofree char *stripped = g_strstrip (g_strdup (name != NULL ? name : ""));
  int replace;

  if (*stripped == '\0')
    {
      g_set_error_literal (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                           _("The MCP server has no name; give it one."));
      return NULL;
    }
  entry = parse_mcp_entry (stripped, entry_json != NULL ? entry_json : "", error);
  if (entry == NULL || !tb_prefs_check_mcp_entry (stripped, entry, error)
      || !check_slot (rows, old_name, stripped, &replace, error))
    return NULL;
  *clean_name = g_steal_pointer (&stripped);
  return g_steal_pointer (&entry);
}

static gboolean
write_server (GSettings   *settings,
              const char  *old_name,
              const char  *name,
              gboolean     enabled,
              JsonObject  *entry,
              GError     **error)
{
  g_autoptr(GPtrArray) rows = read_mcp (settings);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), entry);
  int replace;
  McpRow *row;

  if (!check_slot (rows, old_name, name, &replace, error))
    return FALSE;
  row = g_new0 (McpRow, 1);
  row->name = g_strdup (name);
  row->enabled = enabled;
  row->entry = tb_json_to_string (node, FALSE);
  _tb_prefs_put_named (rows, replace, row);
  write_mcp (settings, rows);
  return TRUE;
}

/**
 * tb_prefs_save_mcp_server:
 * @settings: the app's settings
 * @old_name: (nullable): the server being edited, %NULL to add
 * @name: the server's name
 * @enabled: whether the app starts it
 * @entry_json: the JSON text of its `mcpServers` entry
 * @error: the error
 *
 * Saves a server whose headers, if any, are kept in the keyring already
 * (TB_MCP_HEADER_KEPT); an entry with header values is refused, as they
 * would land in the settings: tb_prefs_save_mcp_server_async() keeps them.
 *
 * Returns: whether the server is saved; nothing changes on error
 */
gboolean
tb_prefs_save_mcp_server (GSettings   *settings,
                          const char  *old_name,
                          const char  *name,
                          gboolean     enabled,
                          const char  *entry_json,
                          GError     **error)
{
  g_autofree char *clean_name = NULL;
  g_autoptr(JsonObject) entry = prepare_server (settings, old_name, name, entry_json,
                                                &clean_name, error);

  if (entry == NULL)
    return FALSE;
  if (tb_mcp_headers_has_values (entry))
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                   _("The MCP server “%s” has header values, which belong in the keyring; "
                     "save it from the Preferences window."), clean_name);
      return FALSE;
    }
  return write_server (settings, old_name, clean_name, enabled, entry, error);
}

typedef struct
{
  GSettings *settings;
  char      *old_name;
  char      *name;
  gboolean   enabled;
} Save;

static void
save_free (gpointer data)
{
  Save *save = data;

  g_clear_object (&save->settings);
  g_free (save->old_name);
  g_free (save->name);
  g_free (save);
}

static void
kept_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Save *save = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = tb_mcp_headers_keep_finish (result, &error);

  if (entry == NULL
      || !write_server (save->settings, save->old_name, save->name, save->enabled, entry,
                        &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * tb_prefs_save_mcp_server_async:
 * @settings: the app's settings
 * @store: the keyring for the values of the server's HTTP headers
 * @old_name: (nullable): the server being edited, %NULL to add
 * @name: the server's name
 * @enabled: whether the app starts it
 * @entry_json: the JSON text of its `mcpServers` entry; a header whose
 *   value is TB_MCP_HEADER_KEPT keeps the value in the keyring
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the server is saved
 * @user_data: closure data
 *
 * Checks the server as tb_prefs_save_mcp_server() does, puts its header
 * values in the keyring, then saves the entry with TB_MCP_HEADER_KEPT in
 * their place.
 */
void
tb_prefs_save_mcp_server_async (GSettings           *settings,
                                TbSecretStore       *store,
                                const char          *old_name,
                                const char          *name,
                                gboolean             enabled,
                                const char          *entry_json,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonObject) old_entry = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *clean_name = NULL;
  Save *save;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (TB_IS_SECRET_STORE (store));

  task = g_task_new (settings, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_prefs_save_mcp_server_async);
  entry = prepare_server (settings, old_name, name, entry_json, &clean_name, &error);
  if (entry == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  rows = read_mcp (settings);
  old_entry = find_entry (rows, old_name);
  save = g_new0 (Save, 1);
  save->settings = g_object_ref (settings);
  save->old_name = g_strdup (old_name);
  save->name = g_strdup (clean_name);
  save->enabled = enabled;
  g_task_set_task_data (task, save, save_free);
  tb_mcp_headers_keep_async (store, old_name, old_entry, clean_name, entry, cancellable,
                             kept_cb, g_steal_pointer (&task));
}

/**
 * tb_prefs_save_mcp_server_finish:
 * @settings: the app's settings
 * @result: the result
 * @error: the error: the entry, the name, or the keyring
 *
 * Returns: whether the server is saved; the settings are unchanged on error
 */
gboolean
tb_prefs_save_mcp_server_finish (GSettings     *settings,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, settings), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The index of the server called @name in @rows, or -1 with @error set. */
static int
find_server (GPtrArray   *rows,
             const char  *name,
             GError     **error)
{
  int index = _tb_prefs_find_named (rows, name);

  if (index < 0)
    g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_NOT_FOUND,
                 _("There is no MCP server named “%s”."), name);
  return index;
}

/**
 * tb_prefs_set_mcp_enabled:
 * @settings: the app's settings
 * @name: the server's name
 * @enabled: whether the app starts it
 * @error: the error
 *
 * Returns: whether the server exists
 */
gboolean
tb_prefs_set_mcp_enabled (GSettings   *settings,
                          const char  *name,
                          gboolean     enabled,
                          GError     **error)
{
  g_autoptr(GPtrArray) rows = read_mcp (settings);
  int index = find_server (rows, name, error);

  if (index < 0)
    return FALSE;
  ((McpRow *) g_ptr_array_index (rows, index))->enabled = enabled;
  write_mcp (settings, rows);
  return TRUE;
}

/**
 * tb_prefs_remove_mcp_server:
 * @settings: the app's settings
 * @name: the server's name
 * @error: the error
 *
 * Removes the server from the settings; what the keyring keeps for it
 * stays (tb_prefs_remove_mcp_server_async() forgets it too).
 *
 * Returns: whether the server existed and is removed
 */
gboolean
tb_prefs_remove_mcp_server (GSettings   *settings,
                            const char  *name,
                            GError     **error)
{
  g_autoptr(GPtrArray) rows = read_mcp (settings);
  int index = find_server (rows, name, error);

  if (index < 0)
    return FALSE;
  g_ptr_array_remove_index (rows, index);
  write_mcp (settings, rows);
  return TRUE;
}

static void
forgot_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_mcp_headers_forget_finish (result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * tb_prefs_remove_mcp_server_async:
 * @settings: the app's settings
 * @store: the keyring
 * @name: the server's name
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when nothing of the server is kept
 * @user_data: closure data
 *
 * Removes the server from the settings at once, then forgets its header
 * values and its sign-in in the keyring.
 */
void
tb_prefs_remove_mcp_server_async (GSettings           *settings,
                                  TbSecretStore       *store,
                                  const char          *name,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (TB_IS_SECRET_STORE (store));

  task = g_task_new (settings, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_prefs_remove_mcp_server_async);
  if (!tb_prefs_remove_mcp_server (settings, name, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  tb_mcp_headers_forget_async (store, name, cancellable, forgot_cb, g_steal_pointer (&task));
}

/**
 * tb_prefs_remove_mcp_server_finish:
 * @settings: the app's settings
 * @result: the result
 * @error: the error
 *
 * Returns: whether the server is removed and nothing of it is kept
 */
gboolean
tb_prefs_remove_mcp_server_finish (GSettings     *settings,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, settings), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The usable servers of a configuration, by name, in its order; the others
 * are named in @problems. */
static GPtrArray *
read_config (const char    *text,
             gssize         length,
             GStrvBuilder  *problems,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (mcp_row_free);
  g_autoptr(GList) names = NULL;
  JsonObject *servers;

  root = tb_json_parse (text, length, &local_error);
  if (root == NULL)
    {
      g_set_error (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                   _("The MCP configuration is not JSON (%s); nothing was imported."),
                   local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root)
      || !json_object_has_member (json_node_get_object (root), "mcpServers")
      || !JSON_NODE_HOLDS_OBJECT (json_object_get_member (json_node_get_object (root),
                                                          "mcpServers")))
    {
      g_set_error_literal (error, TB_PREFS_ERROR, TB_PREFS_ERROR_MCP_CONFIG,
                           _("The MCP configuration has no “mcpServers” object; nothing was "
                             "imported."));
      return NULL;
    }

  servers = json_object_get_object_member (json_node_get_object (root), "mcpServers");
  names = json_object_get_members (servers);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *member = json_object_get_member (servers, name);
      g_autoptr(GError) entry_error = NULL;
      McpRow *row;

      if (!JSON_NODE_HOLDS_OBJECT (member))
        {
          g_autofree char *problem =
            g_strdup_printf (_("The server “%s” is not described by an object; it was left "
                               "out."), name);

          g_strv_builder_add (problems, problem);
          continue;
        }
      if (!tb_prefs_check_mcp_entry (name, json_node_get_object (member), &entry_error))
        {
          g_autofree char *problem = g_strdup_printf (_("%s It was left out."),
                                                      entry_error->message);

          g_strv_builder_add (problems, problem);
          continue;
        }

      row = g_new0 (McpRow, 1);
      row->name = g_strdup (name);
      row->enabled = TRUE;
      row->entry = tb_json_to_string (member, FALSE);
      g_ptr_array_add (rows, row);
    }
  return g_steal_pointer (&rows);
}

typedef struct
{
  GSettings     *settings;
  TbSecretStore *store;
  GPtrArray     *rows;      /* McpRow, their headers kept one by one */
  guint          next;
  GStrvBuilder  *problems;
  GStrv          found;     /* the problems, once imported */
} Import;

static void
import_free (gpointer data)
{
  Import *import = data;

  g_clear_object (&import->settings);
  g_clear_object (&import->store);
  g_clear_pointer (&import->rows, g_ptr_array_unref);
  g_clear_pointer (&import->problems, g_strv_builder_unref);
  g_strfreev (import->found);
  g_free (import);
}

static void keep_next (GTask *task);

static void
import_kept_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  Import *import = g_task_get_task_data (task);
  McpRow *row = g_ptr_array_index (import->rows, import->next);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = tb_mcp_headers_keep_finish (result, &error);

  if (entry == NULL)
    {
      g_autofree char *problem = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          g_object_unref (task);
          return;
        }
      problem = g_strdup_printf (_("%s It was left out."), error->message);
      g_strv_builder_add (import->problems, problem);
      g_ptr_array_remove_index (import->rows, import->next);
    }
  else
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), entry);

      g_free (row->entry);
      row->entry = tb_json_to_string (node, FALSE);
      import->next++;
    }
  keep_next (task);
}

/* Keeps the header values of each imported server in turn, then writes the
 * servers to the settings at once. */
static void
keep_next (GTask *task)
{
  Import *import = g_task_get_task_data (task);
  g_autoptr(GPtrArray) rows = NULL;

  while (import->next < import->rows->len)
    {
      McpRow *row = g_ptr_array_index (import->rows, import->next);
      g_autoptr(JsonNode) node = tb_json_parse (row->entry, -1, NULL);
      g_autoptr(GPtrArray) current = read_mcp (import->settings);
      g_autoptr(JsonObject) old_entry = find_entry (current, row->name);

      if (!tb_mcp_headers_has_values (json_node_get_object (node))
          && !tb_mcp_headers_has_kept (json_node_get_object (node)))
        {
          import->next++;
          continue;
        }
      tb_mcp_headers_keep_async (import->store, old_entry != NULL ? row->name : NULL,
                                 old_entry, row->name, json_node_get_object (node),
                                 g_task_get_cancellable (task), import_kept_cb, task);
      return;
    }

  rows = read_mcp (import->settings);
  for (guint i = 0; i < import->rows->len; i++)
    {
      McpRow *row = g_ptr_array_index (import->rows, i);

      _tb_prefs_put_named (rows, _tb_prefs_find_named (rows, row->name),
                           g_steal_pointer (&import->rows->pdata[i]));
    }
  if (import->rows->len > 0)
    write_mcp (import->settings, rows);
  import->found = g_strv_builder_end (import->problems);
  g_task_return_int (task, import->rows->len);
  g_object_unref (task);
}

/**
 * tb_prefs_import_mcp_config_async:
 * @settings: the app's settings
 * @store: the keyring for the values of the servers' HTTP headers
 * @text: the text of a configuration with an `mcpServers` object
 * @length: its length, or -1 when nul-terminated
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the servers are imported
 * @user_data: closure data
 *
 * Adds every usable server of the configuration, enabled, replacing servers
 * of the same name; header values go to the keyring. A server that is not
 * usable (bad shape, missing command) is left out and named in the
 * problems; the servers already configured stay.
 */
void
tb_prefs_import_mcp_config_async (GSettings           *settings,
                                  TbSecretStore       *store,
                                  const char          *text,
                                  gssize               length,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GTask *task;
  g_autoptr(GError) error = NULL;
  Import *import;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (TB_IS_SECRET_STORE (store));
  g_return_if_fail (text != NULL);

  task = g_task_new (settings, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_prefs_import_mcp_config_async);
  import = g_new0 (Import, 1);
  import->settings = g_object_ref (settings);
  import->store = g_object_ref (store);
  import->problems = g_strv_builder_new ();
  g_task_set_task_data (task, import, import_free);
  import->rows = read_config (text, length, import->problems, &error);
  if (import->rows == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  keep_next (task);
}

/**
 * tb_prefs_import_mcp_config_finish:
 * @settings: the app's settings
 * @result: the result
 * @problems: (out) (optional) (transfer full): one sentence per server that
 *   was not imported
 * @error: the error when the text is not a configuration at all
 *
 * Returns: how many servers were imported
 */
guint
tb_prefs_import_mcp_config_finish (GSettings     *settings,
                                   GAsyncResult  *result,
                                   GStrv         *problems,
                                   GError       **error)
{
  Import *import;
  gssize imported;

  g_return_val_if_fail (g_task_is_valid (result, settings), 0);

  import = g_task_get_task_data (G_TASK (result));
  if (problems != NULL)
    *problems = import->found != NULL ? g_strdupv (import->found) : NULL;
  imported = g_task_propagate_int (G_TASK (result), error);
  return imported > 0 ? imported : 0;
}

typedef struct
{
  GSettings     *settings;
  TbSecretStore *store;
  GPtrArray     *rows;   /* the rows with header values, as they were */
  guint          next;
  guint          moved;
} Move;

static void
move_free (gpointer data)
{
  Move *move = data;

  g_clear_object (&move->settings);
  g_clear_object (&move->store);
  g_clear_pointer (&move->rows, g_ptr_array_unref);
  g_free (move);
}

static void move_next (GTask *task);

static void
moved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GTask *task = user_data;
  Move *move = g_task_get_task_data (task);
  McpRow *row = g_ptr_array_index (move->rows, move->next++);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = tb_mcp_headers_keep_finish (result, &error);
  g_autoptr(GPtrArray) rows = NULL;
  int index;

  /* Without a keyring the values stay where they are rather than be lost
   * when Toolbench quits. */
  if (entry == NULL || tb_secret_store_is_in_memory (move->store))
    {
      if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          g_object_unref (task);
          return;
        }
      if (error != NULL)
        g_message ("The headers of the MCP server “%s” stay in the settings: %s", row->name,
                   error->message);
      move_next (task);
      return;
    }

  /* Only an entry nobody changed meanwhile is replaced. */
  rows = read_mcp (move->settings);
  index = _tb_prefs_find_named (rows, row->name);
  if (index >= 0 && g_strcmp0 (((McpRow *) g_ptr_array_index (rows, index))->entry,
                               row->entry) == 0)
    {
      McpRow *now = g_ptr_array_index (rows, index);
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), entry);

      g_free (now->entry);
      now->entry = tb_json_to_string (node, FALSE);
      write_mcp (move->settings, rows);
      move->moved++;
    }
  move_next (task);
}

static void
move_next (GTask *task)
{
  Move *move = g_task_get_task_data (task);
  McpRow *row;
  g_autoptr(JsonNode) node = NULL;

  if (move->next >= move->rows->len)
    {
      g_task_return_int (task, move->moved);
      g_object_unref (task);
      return;
    }
  row = g_ptr_array_index (move->rows, move->next);
  node = tb_json_parse (row->entry, -1, NULL);
  tb_mcp_headers_keep_async (move->store, row->name, json_node_get_object (node), row->name,
                             json_node_get_object (node), g_task_get_cancellable (task),
                             moved_cb, task);
}

/**
 * tb_prefs_move_mcp_headers_async:
 * @settings: the app's settings
 * @store: the keyring
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when every server's header values are in the keyring
 * @user_data: closure data
 *
 * Moves header values that an earlier version kept in the settings into
 * the keyring, leaving TB_MCP_HEADER_KEPT in their place. When only memory
 * can keep secrets, the values stay in the settings.
 */
void
tb_prefs_move_mcp_headers_async (GSettings           *settings,
                                 TbSecretStore       *store,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task;
  Move *move;
  g_autoptr(GPtrArray) rows = NULL;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (TB_IS_SECRET_STORE (store));

  task = g_task_new (settings, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_prefs_move_mcp_headers_async);
  move = g_new0 (Move, 1);
  move->settings = g_object_ref (settings);
  move->store = g_object_ref (store);
  move->rows = g_ptr_array_new_with_free_func (mcp_row_free);
  g_task_set_task_data (task, move, move_free);
  rows = read_mcp (settings);
  for (guint i = 0; i < rows->len; i++)
    {
      McpRow *row = g_ptr_array_index (rows, i);
      g_autoptr(JsonNode) node = tb_json_parse (row->entry, -1, NULL);

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node)
          && tb_mcp_headers_has_values (json_node_get_object (node)))
        g_ptr_array_add (move->rows, g_steal_pointer (&rows->pdata[i]));
    }
  move_next (task);
}

/**
 * tb_prefs_move_mcp_headers_finish:
 * @settings: the app's settings
 * @result: the result
 * @error: the error
 *
 * Returns: how many servers now keep their header values in the keyring,
 *   or -1 on error
 */
int
tb_prefs_move_mcp_headers_finish (GSettings     *settings,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, settings), -1);

  return g_task_propagate_int (G_TASK (result), error);
}

/**
 * tb_prefs_get_mcp_config:
 * @settings: the app's settings
 * @enabled_only: leave out the servers that are turned off
 *
 * Returns: (transfer full): `{"mcpServers": {…}}` as tb_mcp_config_load()
 *   reads it
 */
JsonNode *
tb_prefs_get_mcp_config (GSettings *settings,
                         gboolean   enabled_only)
{
  g_autoptr(GPtrArray) rows = read_mcp (settings);
  JsonObject *root = json_object_new ();
  JsonObject *servers = json_object_new ();
  JsonNode *node;

  for (guint i = 0; i < rows->len; i++)
    {
      McpRow *row = g_ptr_array_index (rows, i);
      JsonNode *entry;

      if (enabled_only && !row->enabled)
        continue;
      entry = tb_json_parse (row->entry, -1, NULL);
      if (entry != NULL && JSON_NODE_HOLDS_OBJECT (entry))
        json_object_set_member (servers, row->name, entry);
      else if (entry != NULL)
        json_node_unref (entry);
    }
  json_object_set_object_member (root, "mcpServers", servers);
  node = json_node_init_object (json_node_alloc (), root);
  json_object_unref (root);
  return node;
}
