/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-secret-store"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsecret/secret.h>

#include "tb-secret-store.h"

/**
 * TbSecretStore:
 *
 * Secrets in the Secret Service (GNOME Keyring, KeePassXC, …): the API keys
 * of provider endpoints and what signing in to MCP servers left. Each
 * #TbSecretKind has a schema whose two attributes name the thing (endpoint
 * or server) and its URL. When no keyring answers, or it stays locked, the
 * store switches to memory for the rest of the process and says why: a
 * secret is never written to a plain file, to GSettings or to a log.
 */

struct _TbSecretStore
{
  GObject     parent_instance;

  gboolean    in_memory;
  char       *fallback_message;
  GHashTable *memory;  /* "kind\nname\nurl" → secret */
};

G_DEFINE_FINAL_TYPE (TbSecretStore, tb_secret_store, G_TYPE_OBJECT)

/**
 * tb_secret_store_error_quark:
 *
 * The error domain of #TbSecretStoreError.
 *
 * Returns: the quark of %TB_SECRET_STORE_ERROR
 */
G_DEFINE_QUARK (tb-secret-store-error-quark, tb_secret_store_error)

/* What differs between the kinds of secret: the schema whose two
 * attributes name the thing and its URL, the label the keyring shows, and
 * the sentences for a request that names nothing or keeps nothing. */
typedef struct
{
  SecretSchema  schema;
  const char   *label;      /* a format with the name, then the URL */
  const char   *no_names;
  const char   *empty;
} KindInfo;

static const KindInfo kinds[] = {
  [TB_SECRET_KIND_API_KEY] = {
    { "io.github.toolbench.Toolbench.ApiKey", SECRET_SCHEMA_NONE,
      { { "endpoint", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "base-url", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { NULL, 0 } } },
    /* Translators: the label of a key in the keyring; %1$s is the endpoint's
     * name (e.g. "OpenAI"), %2$s its base URL. */
    N_("Toolbench API key for %1$s (%2$s)"),
    N_("A key belongs to a named endpoint with a base URL; give both first."),
    N_("The API key is empty; to forget a key, remove it instead."),
  },
  [TB_SECRET_KIND_MCP_AUTHORIZATION] = {
    { "io.github.toolbench.Toolbench.McpAuthorization", SECRET_SCHEMA_NONE,
      { { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { NULL, 0 } } },
    /* Translators: the label of a sign-in in the keyring; a server name, then its URL */
    N_("Toolbench sign-in to the MCP server %1$s (%2$s)"),
    N_("A sign-in belongs to a named MCP server with a URL; give both first."),
    N_("There is nothing to keep of the sign-in; to forget it, sign out instead."),
  },
  [TB_SECRET_KIND_MCP_HEADERS] = {
    { "io.github.toolbench.Toolbench.McpHeaders", SECRET_SCHEMA_NONE,
      { { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { NULL, 0 } } },
    /* Translators: the label of an MCP server's HTTP header values (API keys)
     * in the keyring; a server name, then its URL */
    N_("Toolbench headers for the MCP server %1$s (%2$s)"),
    N_("Header values belong to a named MCP server with a URL; give both first."),
    N_("There are no header values to keep; to forget them, remove the headers instead."),
  },
};

static const KindInfo *
kind_info (TbSecretKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kinds), &kinds[0]);

  return &kinds[kind];
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
 * Makes a store of secrets. Most programs share one
 * (tb_secret_store_get_default()) instead.
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
 * Gives the store shared by the whole process.
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
 * Makes a store that keeps secrets in memory only, for tests and wherever no
 * keyring should be involved.
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
 * Tells whether the store gave up on the keyring.
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
 * Tells a person why keys are not kept in the keyring, so that they know a
 * key will be asked for again in the next session.
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
memory_key (TbSecretKind  kind,
            const char   *name,
            const char   *url)
{
  return g_strdup_printf ("%d\n%s\n%s", kind, name, url);
}

typedef struct
{
  TbSecretKind  kind;
  char         *name;
  char         *url;
  char         *secret;
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->name);
  g_free (request->url);
  wipe_and_free (request->secret);
  g_free (request);
}

/* libsecret holds on to the attributes until the request is done, so they
 * point into the request's own copies, which live as long as its task. */
static GHashTable *
make_attributes (Request *request)
{
  GHashTable *attributes = g_hash_table_new (g_str_hash, g_str_equal);
  const SecretSchema *schema = &kind_info (request->kind)->schema;

  if (request->name != NULL)
    g_hash_table_insert (attributes, (gpointer) schema->attributes[0].name, request->name);
  if (request->url != NULL)
    g_hash_table_insert (attributes, (gpointer) schema->attributes[1].name, request->url);
  return attributes;
}

/* Turns a keyring failure into the process's memory mode, with a message a
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
  g_message ("Keeping secrets in memory: the keyring is not usable (%s)", error->message);
}

/* After a keyring request failed with @error: a cancelled request ends
 * @task with the cancellation and returns %FALSE; any other failure turns
 * the store to memory and returns %TRUE, for the caller to answer from
 * there. */
static gboolean
fall_back_unless_cancelled (TbSecretStore  *self,
                            GTask          *task,
                            GError        **error)
{
  if (g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (error));
      return FALSE;
    }
  fall_back (self, *error);
  return TRUE;
}

static gboolean
check_names (TbSecretKind   kind,
             const char    *name,
             const char    *url,
             GError       **error)
{
  if (name == NULL || *name == '\0' || url == NULL || *url == '\0')
    {
      g_set_error_literal (error, TB_SECRET_STORE_ERROR, TB_SECRET_STORE_ERROR_INVALID,
                           _(kind_info (kind)->no_names));
      return FALSE;
    }
  return TRUE;
}

static GTask *
start_request (TbSecretStore       *self,
               TbSecretKind         kind,
               const char          *name,
               const char          *url,
               const char          *secret,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data,
               gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Request *request = g_new0 (Request, 1);

  g_task_set_source_tag (task, source_tag);
  request->kind = kind;
  request->name = g_strdup (name);
  request->url = g_strdup (url);
  request->secret = g_strdup (secret);
  g_task_set_task_data (task, request, request_free);
  return task;
}

/* Ends @task with the error when @name or @url is missing. */
static gboolean
task_check_names (GTask        *task,
                  TbSecretKind  kind,
                  const char   *name,
                  const char   *url)
{
  g_autoptr(GError) error = NULL;

  if (!check_names (kind, name, url, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return FALSE;
    }
  return TRUE;
}

static void
save_in_memory (TbSecretStore *self,
                Request       *request)
{
  g_hash_table_replace (self->memory, memory_key (request->kind, request->name, request->url),
                        g_strdup (request->secret));
}

static void
store_cb (GObject      *source,
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
      if (!fall_back_unless_cancelled (self, task, &error))
        return;
      save_in_memory (self, request);
    }
  g_task_return_boolean (task, TRUE);
}

/**
 * tb_secret_store_store_async:
 * @self: the store
 * @kind: what the secret is for
 * @name: the endpoint's or server's name
 * @url: the endpoint's base URL or the server's URL
 * @secret: the secret, text
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the secret is kept
 * @user_data: closure data
 *
 * Keeps @secret under @kind, @name and @url, replacing what was kept
 * there. When the keyring fails the secret is kept in memory and the store
 * reports it through tb_secret_store_get_fallback_message(); it is not lost.
 */
void
tb_secret_store_store_async (TbSecretStore       *self,
                             TbSecretKind         kind,
                             const char          *name,
                             const char          *url,
                             const char          *secret,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (TB_IS_SECRET_STORE (self));

  task = start_request (self, kind, name, url, secret, cancellable, callback, user_data,
                        tb_secret_store_store_async);
  if (!task_check_names (task, kind, name, url))
    return;
  if (secret == NULL || *secret == '\0')
    {
      g_task_return_new_error (task, TB_SECRET_STORE_ERROR, TB_SECRET_STORE_ERROR_INVALID,
                               "%s", _(kind_info (kind)->empty));
      return;
    }
  if (self->in_memory)
    {
      save_in_memory (self, g_task_get_task_data (task));
      g_task_return_boolean (task, TRUE);
      return;
    }

  attributes = make_attributes (g_task_get_task_data (task));
  /* The formats are in the table above; each takes the name, then the URL. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  label = g_strdup_printf (_(kind_info (kind)->label), name, url);
#pragma GCC diagnostic pop
  secret_password_storev (&kind_info (kind)->schema, attributes,
                          SECRET_COLLECTION_DEFAULT, label, secret, cancellable, store_cb,
                          g_steal_pointer (&task));
}

/**
 * tb_secret_store_store_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Ends tb_secret_store_store_async().
 *
 * Returns: whether the secret is kept (in the keyring or in memory)
 */
gboolean
tb_secret_store_store_finish (TbSecretStore  *self,
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
  g_autofree char *id = memory_key (request->kind, request->name, request->url);

  return g_strdup (g_hash_table_lookup (self->memory, id));
}

static void
fetch_cb (GObject      *source,
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
      if (!fall_back_unless_cancelled (self, task, &error))
        return;
      g_task_return_pointer (task, lookup_in_memory (self, g_task_get_task_data (task)),
                             wipe_and_free);
      return;
    }

  copy = g_strdup (secret);
  secret_password_free (secret);
  g_task_return_pointer (task, copy, wipe_and_free);
}

/**
 * tb_secret_store_fetch_async:
 * @self: the store
 * @kind: what the secret is for
 * @name: the endpoint's or server's name
 * @url: the endpoint's base URL or the server's URL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the secret
 * @user_data: closure data
 *
 * Looks up the secret kept under @kind, @name and @url.
 */
void
tb_secret_store_fetch_async (TbSecretStore       *self,
                             TbSecretKind         kind,
                             const char          *name,
                             const char          *url,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;

  g_return_if_fail (TB_IS_SECRET_STORE (self));

  task = start_request (self, kind, name, url, NULL, cancellable, callback, user_data,
                        tb_secret_store_fetch_async);
  if (!task_check_names (task, kind, name, url))
    return;
  if (self->in_memory)
    {
      g_task_return_pointer (task, lookup_in_memory (self, g_task_get_task_data (task)),
                             wipe_and_free);
      return;
    }

  attributes = make_attributes (g_task_get_task_data (task));
  secret_password_lookupv (&kind_info (kind)->schema, attributes, cancellable, fetch_cb,
                           g_steal_pointer (&task));
}

/**
 * tb_secret_store_fetch_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Ends tb_secret_store_fetch_async().
 *
 * Returns: (transfer full) (nullable): the secret, or %NULL without an
 *   error when nothing is kept there
 */
char *
tb_secret_store_fetch_finish (TbSecretStore  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Removes what the request names from memory; a %NULL name or URL matches
 * any. */
static gboolean
forget_in_memory (TbSecretStore *self,
                  Request       *request)
{
  g_autofree char *prefix = g_strdup_printf ("%d\n", request->kind);
  GHashTableIter iter;
  const char *id;
  gboolean removed = FALSE;

  g_hash_table_iter_init (&iter, self->memory);
  while (g_hash_table_iter_next (&iter, (gpointer *) &id, NULL))
    {
      g_auto(GStrv) parts = NULL;

      if (!g_str_has_prefix (id, prefix))
        continue;
      parts = g_strsplit (id + strlen (prefix), "\n", 2);
      if (g_strv_length (parts) != 2)
        continue;
      if ((request->name == NULL || g_str_equal (parts[0], request->name)) &&
          (request->url == NULL || g_str_equal (parts[1], request->url)))
        {
          g_hash_table_iter_remove (&iter);
          removed = TRUE;
        }
    }
  return removed;
}

static void
forget_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TbSecretStore *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean removed;

  removed = secret_password_clear_finish (result, &error);
  if (error != NULL)
    {
      if (!fall_back_unless_cancelled (self, task, &error))
        return;
      removed = FALSE;
    }
  removed |= forget_in_memory (self, request);
  g_task_return_int (task, removed);
}

/**
 * tb_secret_store_forget_async:
 * @self: the store
 * @kind: what the secret is for
 * @name: (nullable): the endpoint's or server's name; %NULL for any
 * @url: (nullable): the endpoint's base URL or the server's URL; %NULL for
 *   any
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the secrets are gone
 * @user_data: closure data
 *
 * Forgets every secret of @kind kept under @name and @url, in the keyring
 * and in memory. At least one of @name and @url must be given.
 */
void
tb_secret_store_forget_async (TbSecretStore       *self,
                              TbSecretKind         kind,
                              const char          *name,
                              const char          *url,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;

  g_return_if_fail (TB_IS_SECRET_STORE (self));

  task = start_request (self, kind, name, url, NULL, cancellable, callback, user_data,
                        tb_secret_store_forget_async);
  if ((name == NULL || *name == '\0') && (url == NULL || *url == '\0'))
    {
      task_check_names (task, kind, NULL, NULL);
      return;
    }
  if (self->in_memory)
    {
      g_task_return_int (task, forget_in_memory (self, g_task_get_task_data (task)));
      return;
    }

  attributes = make_attributes (g_task_get_task_data (task));
  secret_password_clearv (&kind_info (kind)->schema, attributes, cancellable, forget_cb,
                          g_steal_pointer (&task));
}

/**
 * tb_secret_store_forget_finish:
 * @self: the store
 * @result: the result
 * @removed: (out) (optional): whether anything was kept there
 * @error: the error
 *
 * Ends tb_secret_store_forget_async().
 *
 * Returns: whether nothing of it is kept any more
 */
gboolean
tb_secret_store_forget_finish (TbSecretStore  *self,
                               GAsyncResult   *result,
                               gboolean       *removed,
                               GError        **error)
{
  gssize value;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  value = g_task_propagate_int (G_TASK (result), error);
  if (removed != NULL)
    *removed = value > 0;
  return value >= 0;
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
 * Keeps @key for the endpoint, as tb_secret_store_store_async() with
 * %TB_SECRET_KIND_API_KEY.
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
  tb_secret_store_store_async (self, TB_SECRET_KIND_API_KEY, endpoint, base_url, key,
                               cancellable, callback, user_data);
}

/**
 * tb_secret_store_save_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Ends tb_secret_store_save_async(), which keeps an endpoint's API key.
 *
 * Returns: whether the key is kept (in the keyring or in memory)
 */
gboolean
tb_secret_store_save_finish (TbSecretStore  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  return tb_secret_store_store_finish (self, result, error);
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
  tb_secret_store_fetch_async (self, TB_SECRET_KIND_API_KEY, endpoint, base_url, cancellable,
                               callback, user_data);
}

/**
 * tb_secret_store_lookup_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Ends tb_secret_store_lookup_async(), which reads an endpoint's API key.
 *
 * Returns: (transfer full) (nullable): the key, or %NULL without an error
 *   when the endpoint has none
 */
char *
tb_secret_store_lookup_finish (TbSecretStore  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  return tb_secret_store_fetch_finish (self, result, error);
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
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TB_IS_SECRET_STORE (self));

  if (!check_names (TB_SECRET_KIND_API_KEY, endpoint, base_url, &error))
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_set_source_tag (task, tb_secret_store_forget_async);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  tb_secret_store_forget_async (self, TB_SECRET_KIND_API_KEY, endpoint, base_url, cancellable,
                                callback, user_data);
}

/**
 * tb_secret_store_clear_finish:
 * @self: the store
 * @result: the result
 * @error: the error
 *
 * Ends tb_secret_store_clear_async(), which forgets an endpoint's API key.
 *
 * Returns: whether the key is gone
 */
gboolean
tb_secret_store_clear_finish (TbSecretStore  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  return tb_secret_store_forget_finish (self, result, NULL, error);
}
