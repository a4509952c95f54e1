/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-secret-store"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "tb-secret-store.h"

/* API keys of provider endpoints, kept in the Secret Service (GNOME Keyring,
 * KeePassXC, …) under a schema whose attributes name the endpoint and its
 * base URL. When no keyring answers, or it stays locked, the store switches
 * to memory for the rest of the session and says why: a key is never written
 * to a plain file, to GSettings or to a log. */

struct _TbSecretStore
{
  GObject     parent_instance;

  gboolean    in_memory;
  char       *fallback_message;
  GHashTable *memory;  /* "endpoint\nbase-url" → key */
};

G_DEFINE_FINAL_TYPE (TbSecretStore, tb_secret_store, G_TYPE_OBJECT)

G_DEFINE_QUARK (tb-secret-store-error-quark, tb_secret_store_error)

static const SecretSchema *
tb_secret_store_get_schema (void)
{
  static const SecretSchema schema = {
    "io.github.toolbench.Toolbench.ApiKey", SECRET_SCHEMA_NONE,
    {
      { "endpoint", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "base-url", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

static void
wipe_and_free (gpointer data)
{
  char *text = data;

  if (text == NULL)
    return;
  memset (text, 0, strlen (text));
  g_free (text);
}

static void
tb_secret_store_finalize (GObject *object)
{
  TbSecretStore *self = (TbSecretStore *) object;

  g_clear_pointer (&self->memory, g_hash_table_unref);
  g_clear_pointer (&self->fallback_message, g_free);

  G_OBJECT_CLASS (tb_secret_store_parent_class)->finalize (object);
}

static void
tb_secret_store_class_init (TbSecretStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_secret_store_finalize;
}

static void
tb_secret_store_init (TbSecretStore *self)
{
  self->memory = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, wipe_and_free);
}

/**
 * tb_secret_store_new:
 *
 * Returns: (transfer full): a store that uses the Secret Service and falls
 *   back to memory when it is absent or locked
 */
TbSecretStore *
tb_secret_store_new (void)
{
  return g_object_new (TB_TYPE_SECRET_STORE, NULL);
}

/**
 * tb_secret_store_get_default:
 *
 * Returns: (transfer none): the store the app shares for its whole run, so
 *   keys kept in memory survive closing the preferences
 */
TbSecretStore *
tb_secret_store_get_default (void)
{
  static TbSecretStore *store;

  if (g_once_init_enter (&store))
    g_once_init_leave (&store, tb_secret_store_new ());
  return store;
}

/**
 * tb_secret_store_new_in_memory:
 * @reason: the sentence tb_secret_store_get_fallback_message() returns
 *
 * Returns: (transfer full): a store that never talks to a keyring
 */
TbSecretStore *
tb_secret_store_new_in_memory (const char *reason)
{
  TbSecretStore *self = tb_secret_store_new ();

  self->in_memory = TRUE;
  self->fallback_message = g_strdup (reason);
  return self;
}

/**
 * tb_secret_store_is_in_memory:
 * @self: the store
 *
 * Returns: whether keys live only in memory for this session
 */
gboolean
tb_secret_store_is_in_memory (TbSecretStore *self)
{
  g_return_val_if_fail (TB_IS_SECRET_STORE (self), FALSE);

  return self->in_memory;
}

/**
 * tb_secret_store_get_fallback_message:
 * @self: the store
 *
 * Returns: (nullable): why keys are kept in memory, a sentence to show where
 *   the person enters a key; %NULL while the keyring works
 */
const char *
tb_secret_store_get_fallback_message (TbSecretStore *self)
{
  g_return_val_if_fail (TB_IS_SECRET_STORE (self), NULL);

  return self->fallback_message;
}

static char *
memory_key (const char *endpoint,
            const char *base_url)
{
  return g_strconcat (endpoint, "\n", base_url, NULL);
}

static GHashTable *
make_attributes (const char *endpoint,
                 const char *base_url)
{
  GHashTable *attributes = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (attributes, (gpointer) "endpoint", (gpointer) endpoint);
  g_hash_table_insert (attributes, (gpointer) "base-url", (gpointer) base_url);
  return attributes;
}

/* Turns a keyring failure into the session's memory mode, with a message a
 * person can act on. */
static void
fall_back (TbSecretStore *self,
           const GError  *error)
{
  if (self->in_memory)
    return;

  self->in_memory = TRUE;
  g_free (self->fallback_message);
  if (error->domain == SECRET_ERROR)
    self->fallback_message =
      g_strdup_printf (_("The keyring is locked or refused the key (%s). Keys are kept in "
                         "memory until Toolbench quits; unlock the keyring and enter them "
                         "again to keep them."), error->message);
  else
    self->fallback_message =
      g_strdup_printf (_("No keyring is running (%s). Keys are kept in memory until "
                         "Toolbench quits; start a Secret Service such as GNOME Keyring "
                         "to keep them."), error->message);
  g_message ("Keeping API keys in memory: the keyring is not usable (%s)", error->message);
}

static gboolean
check_names (const char  *endpoint,
             const char  *base_url,
             GError     **error)
{
  if (endpoint == NULL || *endpoint == '\0' || base_url == NULL || *base_url == '\0')
    {
      g_set_error_literal (error, TB_SECRET_STORE_ERROR, TB_SECRET_STORE_ERROR_INVALID,
                           _("A key belongs to a named endpoint with a base URL; give both "
                             "first."));
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  char *endpoint;
  char *base_url;
  char *key;
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->endpoint);
  g_free (request->base_url);
  wipe_and_free (request->key);
  g_free (request);
}

static GTask *
start_request (TbSecretStore       *self,
               const char          *endpoint,
               const char          *base_url,
               const char          *key,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data,
               gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Request *request = g_new0 (Request, 1);

  g_task_set_source_tag (task, source_tag);
  request->endpoint = g_strdup (endpoint);
  request->base_url = g_strdup (base_url);
  request->key = g_strdup (key);
  g_task_set_task_data (task, request, request_free);
  return task;
}

static void
save_in_memory (TbSecretStore *self,
                Request       *request)
{
  g_hash_table_replace (self->memory, memory_key (request->endpoint, request->base_url),
                        g_strdup (request->key));
}

static void
save_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbSecretStore *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!secret_password_store_finish (result, &error))
    {
      if (error == NULL)
        error = g_error_new_literal (SECRET_ERROR, SECRET_ERROR_IS_LOCKED,
                                     _("The keyring did not take the key"));
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      fall_back (self, error);
      save_in_memory (self, request);
    }
  g_task_return_boolean (task, TRUE);
}

/**
 * tb_secret_store_save_async:
 * @self: the store
 * @endpoint: the endpoint's name
 * @base_url: the endpoint's base URL
 * @key: the API key
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the key is kept
 * @user_data: closure data
 *
 * Keeps @key for the endpoint. When the keyring fails the key is kept in
 * memory and the store reports it through
 * tb_secret_store_get_fallback_message(); the key is not lost.
 */
void
tb_secret_store_save_async (TbSecretStore       *self,
                            const char          *endpoint,
                            const char          *base_url,
                            const char          *key,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (TB_IS_SECRET_STORE (self));

  task = start_request (self, endpoint, base_url, key, cancellable, callback, user_data,
                        tb_secret_store_save_async);
  if (!check_names (endpoint, base_url, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (key == NULL || *key == '\0')
    {
      g_task_return_new_error (task, TB_SECRET_STORE_ERROR, TB_SECRET_STORE_ERROR_INVALID,
                               _("The API key is empty; to forget a key, remove it "
                                 "instead."));
      return;
    }
  if (self->in_memory)
    {
      save_in_memory (self, g_task_get_task_data (task));
      g_task_return_boolean (task, TRUE);
      return;
    }

  attributes = make_attributes (endpoint, base_url);
  /* Translators: the label of a key in the keyring, e.g. "Toolbench API key for OpenAI". */
  label = g_strdup_printf (_("Toolbench API key for %s"), endpoint);
  secret_password_storev (tb_secret_store_get_schema (), attributes, SECRET_COLLECTION_DEFAULT,
                          label, key, cancellable, save_cb, g_steal_pointer (&task));
}

/**
 * tb_secret_store_save_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Returns: whether the key is kept (in the keyring or in memory)
 */
gboolean
tb_secret_store_save_finish (TbSecretStore  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
lookup_in_memory (TbSecretStore *self,
                  Request       *request)
{
  g_autofree char *id = memory_key (request->endpoint, request->base_url);

  return g_strdup (g_hash_table_lookup (self->memory, id));
}

static void
lookup_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbSecretStore *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  char *secret = secret_password_lookup_finish (result, &error);
  char *copy;

  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      fall_back (self, error);
      g_task_return_pointer (task, lookup_in_memory (self, g_task_get_task_data (task)),
                             wipe_and_free);
      return;
    }

  copy = g_strdup (secret);
  secret_password_free (secret);
  g_task_return_pointer (task, copy, wipe_and_free);
}

/**
 * tb_secret_store_lookup_async:
 * @self: the store
 * @endpoint: the endpoint's name
 * @base_url: the endpoint's base URL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the key
 * @user_data: closure data
 *
 * Looks up the key of an endpoint.
 */
void
tb_secret_store_lookup_async (TbSecretStore       *self,
                              const char          *endpoint,
                              const char          *base_url,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TB_IS_SECRET_STORE (self));

  task = start_request (self, endpoint, base_url, NULL, cancellable, callback, user_data,
                        tb_secret_store_lookup_async);
  if (!check_names (endpoint, base_url, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (self->in_memory)
    {
      g_task_return_pointer (task, lookup_in_memory (self, g_task_get_task_data (task)),
                             wipe_and_free);
      return;
    }

  attributes = make_attributes (endpoint, base_url);
  secret_password_lookupv (tb_secret_store_get_schema (), attributes, cancellable, lookup_cb,
                           g_steal_pointer (&task));
}

/**
 * tb_secret_store_lookup_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Returns: (transfer full) (nullable): the key, or %NULL without an error
 *   when the endpoint has none
 */
char *
tb_secret_store_lookup_finish (TbSecretStore  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
clear_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbSecretStore *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *id = memory_key (request->endpoint, request->base_url);

  secret_password_clear_finish (result, &error);
  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      fall_back (self, error);
    }
  g_hash_table_remove (self->memory, id);
  g_task_return_boolean (task, TRUE);
}

/**
 * tb_secret_store_clear_async:
 * @self: the store
 * @endpoint: the endpoint's name
 * @base_url: the endpoint's base URL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the key is gone
 * @user_data: closure data
 *
 * Forgets the key of an endpoint, in the keyring and in memory.
 */
void
tb_secret_store_clear_async (TbSecretStore       *self,
                             const char          *endpoint,
                             const char          *base_url,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TB_IS_SECRET_STORE (self));

  task = start_request (self, endpoint, base_url, NULL, cancellable, callback, user_data,
                        tb_secret_store_clear_async);
  if (!check_names (endpoint, base_url, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (self->in_memory)
    {
      g_autofree char *id = memory_key (endpoint, base_url);

      g_hash_table_remove (self->memory, id);
      g_task_return_boolean (task, TRUE);
      return;
    }

  attributes = make_attributes (endpoint, base_url);
  secret_password_clearv (tb_secret_store_get_schema (), attributes, cancellable, clear_cb,
                          g_steal_pointer (&task));
}

/**
 * tb_secret_store_clear_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Returns: whether the key is gone
 */
gboolean
tb_secret_store_clear_finish (TbSecretStore  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
