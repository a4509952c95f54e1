/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-headers"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tb-mcp-headers.h"

/* The HTTP headers a person gives a remote MCP server usually carry an API
 * key. Their values live in the keyring (one item per server, a JSON object
 * of header name to value); the settings keep the header names with
 * TB_MCP_HEADER_KEPT in place of each value. Saving splits an entry into
 * the two, starting a server fills the values back in. */

static JsonObject *
headers_of (JsonObject *entry)
{
  JsonNode *node;

  if (tb_json_object_get_string (entry, "url") == NULL)
    return NULL;
  node = json_object_get_member (entry, "headers");
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static gboolean
is_kept (JsonNode *value)
{
  return JSON_NODE_HOLDS_VALUE (value)
         && json_node_get_value_type (value) == G_TYPE_STRING
         && g_str_equal (json_node_get_string (value), TB_MCP_HEADER_KEPT);
}

static gboolean
is_value (JsonNode *value)
{
  return JSON_NODE_HOLDS_VALUE (value)
         && json_node_get_value_type (value) == G_TYPE_STRING
         && !is_kept (value);
}

static gboolean
any_value (JsonNode *value)
{
  return TRUE;
}

/* The headers of an entry, in order, that @match picks: every walk over
 * them below, so that an entry without headers (a local server, or one
 * whose headers are not an object) is handled once. */
typedef struct
{
  JsonObjectIter   iter;
  gboolean         has_headers;
  gboolean       (*match) (JsonNode *);
} HeaderWalk;

static void
header_walk_init (HeaderWalk  *walk,
                  JsonObject  *entry,
                  gboolean   (*match) (JsonNode *))
{
  JsonObject *headers = headers_of (entry);

  walk->has_headers = headers != NULL;
  walk->match = match;
  if (headers != NULL)
    json_object_iter_init_ordered (&walk->iter, headers);
}

static gboolean
header_walk_next (HeaderWalk  *walk,
                  const char **name,
                  JsonNode   **value)
{
  const char *member;
  JsonNode *node;

  while (walk->has_headers && json_object_iter_next_ordered (&walk->iter, &member, &node))
    if (walk->match (node))
      {
        *name = member;
        *value = node;
        return TRUE;
      }
  walk->has_headers = FALSE;
  return FALSE;
}

static gboolean
any_header (JsonObject *entry,
            gboolean  (*match) (JsonNode *))
{
  HeaderWalk walk;
  const char *name;
  JsonNode *value;

  header_walk_init (&walk, entry, match);
  return header_walk_next (&walk, &name, &value);
}

/**
 * tb_mcp_headers_has_values:
 * @entry: an `mcpServers` entry
 *
 * Returns: whether a header of the remote server's entry holds a value,
 *   not TB_MCP_HEADER_KEPT
 */
gboolean
tb_mcp_headers_has_values (JsonObject *entry)
{
  return any_header (entry, is_value);
}

/**
 * tb_mcp_headers_has_kept:
 * @entry: an `mcpServers` entry
 *
 * Returns: whether a header of the remote server's entry is kept in the
 *   keyring
 */
gboolean
tb_mcp_headers_has_kept (JsonObject *entry)
{
  return any_header (entry, is_kept);
}

static JsonObject *
copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autoptr(JsonNode) copy = tb_json_copy (node);

  return json_object_ref (json_node_get_object (copy));
}

/**
 * tb_mcp_headers_split:
 * @entry: an `mcpServers` entry
 * @values: (out) (transfer full): the header values it holds, by name
 *
 * Returns: (transfer full): a copy of @entry with TB_MCP_HEADER_KEPT in
 *   place of every header value
 */
JsonObject *
tb_mcp_headers_split (JsonObject  *entry,
                      JsonObject **values)
{
  JsonObject *split = copy_object (entry);
  HeaderWalk walk;
  const char *name;
  JsonNode *value;

  *values = json_object_new ();
  header_walk_init (&walk, split, is_value);
  while (header_walk_next (&walk, &name, &value))
    {
      json_object_set_string_member (*values, name, json_node_get_string (value));
      json_node_set_string (value, TB_MCP_HEADER_KEPT);
    }
  return split;
}

static gboolean
missing_value (const char  *server,
               const char  *header,
               GError     **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("The header “%s” of the MCP server “%s” is not in the keyring any more; "
                 "edit the server in Preferences and type its value again."), header, server);
  return FALSE;
}

/* Puts the values of the kept headers of @entry, from @values, in place. */
static gboolean
fill_in_place (const char  *server,
               JsonObject  *entry,
               JsonObject  *values,
               GError     **error)
{
  HeaderWalk walk;
  const char *name;
  JsonNode *value;

  header_walk_init (&walk, entry, is_kept);
  while (header_walk_next (&walk, &name, &value))
    {
      const char *kept = values != NULL ? tb_json_object_get_string (values, name) : NULL;

      if (kept == NULL)
        return missing_value (server, name, error);
      json_node_set_string (value, kept);
    }
  return TRUE;
}

/**
 * tb_mcp_headers_fill:
 * @name: the server's name, for the error
 * @entry: an `mcpServers` entry
 * @values: (nullable): header values by name, as the keyring keeps them
 * @error: the error when a kept header has no value in @values
 *
 * Returns: (transfer full) (nullable): a copy of @entry with the values of
 *   the kept headers in place
 */
JsonObject *
tb_mcp_headers_fill (const char  *name,
                     JsonObject  *entry,
                     JsonObject  *values,
                     GError     **error)
{
  g_autoptr(JsonObject) filled = copy_object (entry);

  if (!fill_in_place (name, filled, values, error))
    return NULL;
  return g_steal_pointer (&filled);
}

static JsonObject *
parse_values (const char  *server,
              const char  *text,
              GError     **error)
{
  g_autoptr(JsonNode) node = NULL;

  if (text == NULL)
    return NULL;
  node = tb_json_parse (text, -1, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The keyring holds something unreadable for the headers of the MCP "
                     "server “%s”; edit the server in Preferences and type their values "
                     "again."), server);
      return NULL;
    }
  return json_object_ref (json_node_get_object (node));
}

static void
wipe_free (char *text)
{
  if (text != NULL)
    memset (text, 0, strlen (text));
  g_free (text);
}

/* Text that held a secret is zeroed before it is freed. */
typedef char char_wiped;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (char_wiped, wipe_free)

typedef struct
{
  TbSecretStore *store;
  char          *name;
  char          *url;
  char          *old_name;
  char          *old_url;
  JsonObject    *stored;   /* the entry for the settings */
  JsonObject    *values;   /* every header value, for the keyring */
  GStrv          kept;     /* headers whose value stays as it is kept */
} Keep;

static void
keep_free (gpointer data)
{
  Keep *keep = data;

  g_clear_object (&keep->store);
  g_free (keep->name);
  g_free (keep->url);
  g_free (keep->old_name);
  g_free (keep->old_url);
  g_clear_pointer (&keep->stored, json_object_unref);
  g_clear_pointer (&keep->values, json_object_unref);
  g_strfreev (keep->kept);
  g_free (keep);
}

static void
return_stored (GTask *task)
{
  Keep *keep = g_task_get_task_data (task);

  g_task_return_pointer (task, json_object_ref (keep->stored),
                         (GDestroyNotify) json_object_unref);
}

/* Whether the keyring failed to forget; @task then returns its error. */
static gboolean
forget_failed (GTask        *task,
               GObject      *store,
               GAsyncResult *result)
{
  g_autoptr(GError) error = NULL;

  if (tb_secret_store_forget_finish (TB_SECRET_STORE (store), result, NULL, &error))
    return FALSE;
  g_task_return_error (task, g_steal_pointer (&error));
  return TRUE;
}

static void
forgot_old_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  if (!forget_failed (task, object, result))
    return_stored (task);
}

/* What was kept under the server's old name or URL goes, now that it is
 * kept under the new ones. */
static void
forget_old (GTask *task)
{
  Keep *keep = g_task_get_task_data (task);

  if (keep->old_name == NULL || keep->old_url == NULL
      || (g_strcmp0 (keep->old_name, keep->name) == 0
          && g_strcmp0 (keep->old_url, keep->url) == 0))
    {
      return_stored (task);
      g_object_unref (task);
      return;
    }
  tb_secret_store_forget_async (keep->store, TB_SECRET_KIND_MCP_HEADERS, keep->old_name,
                                keep->old_url, g_task_get_cancellable (task), forgot_old_cb,
                                task);
}

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_secret_store_store_finish (TB_SECRET_STORE (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  forget_old (task);
}

static void
cleared_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_secret_store_forget_finish (TB_SECRET_STORE (object), result, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  forget_old (task);
}

static void
commit (GTask *task)
{
  Keep *keep = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (keep->url == NULL)
    forget_old (task);
  else if (json_object_get_size (keep->values) > 0)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), keep->values);
      g_autoptr(char_wiped) text = tb_json_to_string (node, FALSE);

      tb_secret_store_store_async (keep->store, TB_SECRET_KIND_MCP_HEADERS, keep->name,
                                   keep->url, text, cancellable, stored_cb, task);
    }
  else
    tb_secret_store_forget_async (keep->store, TB_SECRET_KIND_MCP_HEADERS, keep->name,
                                  keep->url, cancellable, cleared_cb, task);
}

static void
old_values_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  Keep *keep = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(char_wiped) text = tb_secret_store_fetch_finish (TB_SECRET_STORE (object), result,
                                                             &error);
  g_autoptr(JsonObject) old = NULL;

  g_autoptr(JsonObject) values = json_object_new ();
  HeaderWalk walk;
  const char *header;
  JsonNode *node;

  if (error == NULL)
    old = parse_values (keep->name, text, &error);

  /* In the entry's order: the kept values from before, the typed ones. */
  header_walk_init (&walk, keep->stored, any_value);
  while (error == NULL && header_walk_next (&walk, &header, &node))
    {
      gboolean was_kept = g_strv_contains ((const char * const *) keep->kept, header);
      const char *value = tb_json_object_get_string (was_kept ? old : keep->values, header);

      if (value == NULL && was_kept)
        missing_value (keep->name, header, &error);
      else if (value != NULL)
        json_object_set_string_member (values, header, value);
    }
  if (error == NULL)
    {
      json_object_unref (keep->values);
      keep->values = g_steal_pointer (&values);
    }
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  commit (task);
}

static GStrv
kept_names (JsonObject *entry)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  HeaderWalk walk;
  const char *name;
  JsonNode *value;

  header_walk_init (&walk, entry, is_kept);
  while (header_walk_next (&walk, &name, &value))
    g_strv_builder_add (builder, name);
  return g_strv_builder_end (builder);
}

/**
 * tb_mcp_headers_keep_async:
 * @store: the keyring
 * @old_name: (nullable): the server's name before, %NULL for a new server
 * @old_entry: (nullable): its entry before
 * @name: the server's name
 * @entry: its entry as the person gave it: header values typed, or
 *   TB_MCP_HEADER_KEPT to keep the one in the keyring
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the keyring holds every value
 * @user_data: closure data
 *
 * Keeps the header values of @entry in the keyring under @name and its URL,
 * and forgets those kept under the old name or URL.
 */
void
tb_mcp_headers_keep_async (TbSecretStore       *store,
                           const char          *old_name,
                           JsonObject          *old_entry,
                           const char          *name,
                           JsonObject          *entry,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task;
  Keep *keep;

  g_return_if_fail (TB_IS_SECRET_STORE (store));
  g_return_if_fail (name != NULL && entry != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_headers_keep_async);
  keep = g_new0 (Keep, 1);
  keep->store = g_object_ref (store);
  keep->name = g_strdup (name);
  keep->url = g_strdup (tb_json_object_get_string (entry, "url"));
  keep->old_name = g_strdup (old_name);
  if (old_entry != NULL && headers_of (old_entry) != NULL)
    keep->old_url = g_strdup (tb_json_object_get_string (old_entry, "url"));
  keep->stored = tb_mcp_headers_split (entry, &keep->values);
  keep->kept = kept_names (entry);
  g_task_set_task_data (task, keep, keep_free);

  /* Only a server that had headers kept can keep a value as it is. */
  if (keep->kept[0] == NULL)
    {
      commit (task);
      return;
    }
  if (keep->old_name == NULL || keep->old_url == NULL)
    {
      g_autoptr(GError) error = NULL;

      missing_value (name, keep->kept[0], &error);
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  tb_secret_store_fetch_async (store, TB_SECRET_KIND_MCP_HEADERS, keep->old_name, keep->old_url,
                               cancellable, old_values_cb, task);
}

/**
 * tb_mcp_headers_keep_finish:
 * @result: the result
 * @error: the error
 *
 * Returns: (transfer full) (nullable): the entry for the settings, every
 *   header value replaced by TB_MCP_HEADER_KEPT
 */
JsonObject *
tb_mcp_headers_keep_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  char       *name;
  JsonObject *entry;
} Load;

static void
load_free (gpointer data)
{
  Load *load = data;

  g_free (load->name);
  g_clear_pointer (&load->entry, json_object_unref);
  g_free (load);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Load *load = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(char_wiped) text = tb_secret_store_fetch_finish (TB_SECRET_STORE (object), result,
                                                             &error);
  g_autoptr(JsonObject) values = NULL;
  JsonObject *filled = NULL;

  if (error == NULL)
    values = parse_values (load->name, text, &error);
  if (error == NULL)
    filled = tb_mcp_headers_fill (load->name, load->entry, values, &error);
  if (filled == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, filled, (GDestroyNotify) json_object_unref);
}

/**
 * tb_mcp_headers_load_async:
 * @store: the keyring
 * @name: the server's name
 * @entry: its entry in the settings
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the entry to start
 * @user_data: closure data
 *
 * Fills in the values of the headers kept in the keyring.
 */
void
tb_mcp_headers_load_async (TbSecretStore       *store,
                           const char          *name,
                           JsonObject          *entry,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Load *load;

  g_return_if_fail (TB_IS_SECRET_STORE (store));
  g_return_if_fail (name != NULL && entry != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_headers_load_async);
  if (!tb_mcp_headers_has_kept (entry))
    {
      g_task_return_pointer (task, copy_object (entry), (GDestroyNotify) json_object_unref);
      return;
    }
  load = g_new0 (Load, 1);
  load->name = g_strdup (name);
  load->entry = json_object_ref (entry);
  g_task_set_task_data (task, load, load_free);
  tb_secret_store_fetch_async (store, TB_SECRET_KIND_MCP_HEADERS, name,
                               tb_json_object_get_string (entry, "url"), cancellable, load_cb,
                               g_steal_pointer (&task));
}

/**
 * tb_mcp_headers_load_finish:
 * @result: the result
 * @error: the error, a sentence naming the header that is not in the
 *   keyring
 *
 * Returns: (transfer full) (nullable): the entry with its header values
 */
JsonObject *
tb_mcp_headers_load_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
forgot_sign_in_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  if (!forget_failed (task, object, result))
    g_task_return_boolean (task, TRUE);
}

static void
forgot_headers_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  if (forget_failed (task, object, result))
    return;
  tb_secret_store_forget_async (TB_SECRET_STORE (object), TB_SECRET_KIND_MCP_AUTHORIZATION,
                                g_task_get_task_data (task), NULL,
                                g_task_get_cancellable (task), forgot_sign_in_cb,
                                g_object_ref (task));
}

/**
 * tb_mcp_headers_forget_async:
 * @store: the keyring
 * @name: a server's name
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when nothing of the server is kept
 * @user_data: closure data
 *
 * Forgets what the keyring keeps for a server that is removed: its header
 * values and its sign-in, whatever its URL was.
 */
void
tb_mcp_headers_forget_async (TbSecretStore       *store,
                             const char          *name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (TB_IS_SECRET_STORE (store));
  g_return_if_fail (name != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_mcp_headers_forget_async);
  g_task_set_task_data (task, g_strdup (name), g_free);
  tb_secret_store_forget_async (store, TB_SECRET_KIND_MCP_HEADERS, name, NULL, cancellable,
                                forgot_headers_cb, task);
}

/**
 * tb_mcp_headers_forget_finish:
 * @result: the result
 * @error: the error
 *
 * Returns: whether nothing of the server is kept any more
 */
gboolean
tb_mcp_headers_forget_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
