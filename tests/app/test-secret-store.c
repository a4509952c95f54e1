/* SPDX-License-Identifier: GPL-3.0-or-later */

/* API keys through the Secret Service. Run plainly, the session bus points
 * nowhere and the store must fall back to memory with a clear message and
 * lose no key. Run by run-with-keyring.sh (dbus-run-session with an unlocked
 * gnome-keyring), TB_TEST_KEYRING=1 and the keys must reach the keyring and
 * come back from a second store. */

#include "config.h"

#include <libsecret/secret.h>

#include <toolbench.h>

typedef struct
{
  TbSecretStore *store;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->store = tb_secret_store_new ();
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_assert_finalize_object (f->store);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static gboolean
save (TbSecretStore *store,
      const char    *endpoint,
      const char    *url,
      const char    *key,
      GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_secret_store_save_async (store, endpoint, url, key, NULL, done_cb, &result);
  return tb_secret_store_save_finish (store, wait_for (&result), error);
}

static char *
lookup (TbSecretStore *store,
        const char    *endpoint,
        const char    *url,
        GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_secret_store_lookup_async (store, endpoint, url, NULL, done_cb, &result);
  return tb_secret_store_lookup_finish (store, wait_for (&result), error);
}

static gboolean
clear (TbSecretStore *store,
       const char    *endpoint,
       const char    *url,
       GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_secret_store_clear_async (store, endpoint, url, NULL, done_cb, &result);
  return tb_secret_store_clear_finish (store, wait_for (&result), error);
}

static gboolean
keyring_expected (void)
{
  return g_strcmp0 (g_getenv ("TB_TEST_KEYRING"), "1") == 0;
}

static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  g_autofree char *other = NULL;
  g_autofree char *none = NULL;

  g_assert_true (save (f->store, "Local", "http://127.0.0.1:11434/v1", "sk-one", &error));
  g_assert_no_error (error);
  g_assert_true (save (f->store, "Cloud", "https://api.openai.com/v1", "sk-two", &error));
  g_assert_no_error (error);

  if (keyring_expected ())
    {
      g_assert_false (tb_secret_store_is_in_memory (f->store));
      g_assert_null (tb_secret_store_get_fallback_message (f->store));
    }
  else
    {
      const char *message = tb_secret_store_get_fallback_message (f->store);

      g_assert_true (tb_secret_store_is_in_memory (f->store));
      g_assert_nonnull (message);
      g_assert_true (g_str_has_prefix (message, "No keyring is running ("));
      g_assert_true (g_str_has_suffix (message, "). Keys are kept in memory until Toolbench "
                                                "quits; start a Secret Service such as GNOME "
                                                "Keyring to keep them."));
    }

  /* The key saved while falling back is not lost. */
  key = lookup (f->store, "Local", "http://127.0.0.1:11434/v1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (key, ==, "sk-one");
  other = lookup (f->store, "Cloud", "https://api.openai.com/v1", &error);
  g_assert_cmpstr (other, ==, "sk-two");
  /* Same name, other URL: another endpoint. */
  none = lookup (f->store, "Local", "http://127.0.0.1:8080/v1", &error);
  g_assert_no_error (error);
  g_assert_null (none);

  /* Saving again replaces. */
  g_assert_true (save (f->store, "Local", "http://127.0.0.1:11434/v1", "sk-three", &error));
  g_clear_pointer (&key, g_free);
  key = lookup (f->store, "Local", "http://127.0.0.1:11434/v1", &error);
  g_assert_cmpstr (key, ==, "sk-three");

  if (keyring_expected ())
    {
      /* A second store (the next start of the app) finds it in the keyring. */
      g_autoptr(TbSecretStore) second = tb_secret_store_new ();
      g_autofree char *again = lookup (second, "Local", "http://127.0.0.1:11434/v1", &error);

      g_assert_no_error (error);
      g_assert_cmpstr (again, ==, "sk-three");
      g_assert_false (tb_secret_store_is_in_memory (second));
    }

  g_assert_true (clear (f->store, "Local", "http://127.0.0.1:11434/v1", &error));
  g_assert_true (clear (f->store, "Cloud", "https://api.openai.com/v1", &error));
  g_assert_no_error (error);
  g_clear_pointer (&key, g_free);
  key = lookup (f->store, "Local", "http://127.0.0.1:11434/v1", &error);
  g_assert_no_error (error);
  g_assert_null (key);
}

static void
test_bad_input (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (save (f->store, "", "http://127.0.0.1/v1", "k", &error));
  g_assert_error (error, TB_SECRET_STORE_ERROR, TB_SECRET_STORE_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "A key belongs to a named endpoint with a base URL; give both first.");
  g_clear_error (&error);
  g_assert_false (save (f->store, "Local", "http://127.0.0.1/v1", "", &error));
  g_assert_error (error, TB_SECRET_STORE_ERROR, TB_SECRET_STORE_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "The API key is empty; to forget a key, remove it instead.");
}

static void
test_in_memory (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbSecretStore) store = tb_secret_store_new_in_memory ("Testing.");
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;

  g_assert_true (tb_secret_store_is_in_memory (store));
  g_assert_cmpstr (tb_secret_store_get_fallback_message (store), ==, "Testing.");
  g_assert_true (save (store, "A", "http://127.0.0.1/v1", "secret", &error));
  key = lookup (store, "A", "http://127.0.0.1/v1", &error);
  g_assert_cmpstr (key, ==, "secret");
}

static gboolean
store_kind (TbSecretStore *store,
            TbSecretKind   kind,
            const char    *name,
            const char    *url,
            const char    *secret,
            GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_secret_store_store_async (store, kind, name, url, secret, NULL, done_cb, &result);
  return tb_secret_store_store_finish (store, wait_for (&result), error);
}

static char *
fetch_kind (TbSecretStore *store,
            TbSecretKind   kind,
            const char    *name,
            const char    *url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *secret;

  tb_secret_store_fetch_async (store, kind, name, url, NULL, done_cb, &result);
  secret = tb_secret_store_fetch_finish (store, wait_for (&result), &error);
  g_assert_no_error (error);
  return secret;
}

static gboolean
forget_kind (TbSecretStore *store,
             TbSecretKind   kind,
             const char    *name,
             const char    *url,
             GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  gboolean removed = FALSE;

  tb_secret_store_forget_async (store, kind, name, url, NULL, done_cb, &result);
  g_assert_true (tb_secret_store_forget_finish (store, wait_for (&result), &removed, error));
  return removed;
}

/* MCP sign-ins beside API keys: each kind apart, forgotten by name or URL
 * alone, and a forget that says whether anything was kept. */
static void
test_kinds (Fixture       *f,
            gconstpointer  data)
{
  const TbSecretKind mcp = TB_SECRET_KIND_MCP_AUTHORIZATION;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  g_autofree char *one = NULL;
  g_autofree char *two = NULL;
  g_autofree char *gone = NULL;

  g_assert_true (save (f->store, "notes", "https://a.example/mcp", "sk-key", &error));
  g_assert_true (store_kind (f->store, mcp, "notes", "https://a.example/mcp", "{\"t\":1}",
                             &error));
  g_assert_true (store_kind (f->store, mcp, "notes", "https://b.example/mcp", "{\"t\":2}",
                             &error));
  g_assert_no_error (error);

  one = fetch_kind (f->store, mcp, "notes", "https://a.example/mcp");
  two = fetch_kind (f->store, mcp, "notes", "https://b.example/mcp");
  g_assert_cmpstr (one, ==, "{\"t\":1}");
  g_assert_cmpstr (two, ==, "{\"t\":2}");

  /* By name alone: both URLs; the API key of the same name stays. */
  g_assert_true (forget_kind (f->store, mcp, "notes", NULL, &error));
  g_assert_no_error (error);
  gone = fetch_kind (f->store, mcp, "notes", "https://b.example/mcp");
  g_assert_null (gone);
  key = lookup (f->store, "notes", "https://a.example/mcp", &error);
  g_assert_cmpstr (key, ==, "sk-key");
  g_assert_false (forget_kind (f->store, mcp, "notes", NULL, &error));
  g_assert_no_error (error);

  /* By URL alone. */
  g_assert_true (store_kind (f->store, mcp, "other", "https://c.example/mcp", "x", &error));
  g_assert_true (forget_kind (f->store, mcp, NULL, "https://c.example/mcp", &error));
  g_assert_true (clear (f->store, "notes", "https://a.example/mcp", &error));

  /* Bad input: a sentence, nothing kept. */
  g_assert_false (store_kind (f->store, mcp, "", "https://a.example/mcp", "x", &error));
  g_assert_error (error, TB_SECRET_STORE_ERROR, TB_SECRET_STORE_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "A sign-in belongs to a named MCP server with a URL; give both first.");
  g_clear_error (&error);
  g_assert_false (store_kind (f->store, mcp, "notes", "https://a.example/mcp", "", &error));
  g_assert_cmpstr (error->message, ==,
                   "There is nothing to keep of the sign-in; to forget it, sign out instead.");
}

/* A locked keyring whose unlock prompt cannot be shown: the key is kept in
 * memory and the message says the keyring is locked. */
static void
test_locked (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretCollection) collection = NULL;
  g_autoptr(TbSecretStore) store = NULL;
  g_autolist(GDBusProxy) objects = NULL;
  g_autofree char *key = NULL;
  const char *message;

  if (!keyring_expected ())
    {
      g_test_skip ("Needs the keyring of run-with-keyring.sh");
      return;
    }

  service = secret_service_get_sync (SECRET_SERVICE_NONE, NULL, &error);
  g_assert_no_error (error);
  collection = secret_collection_for_alias_sync (service, SECRET_COLLECTION_DEFAULT,
                                                 SECRET_COLLECTION_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (collection);
  objects = g_list_append (NULL, g_object_ref (collection));
  secret_service_lock_sync (service, objects, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (secret_collection_get_locked (collection));

  store = tb_secret_store_new ();
  g_assert_true (save (store, "Locked", "http://127.0.0.1/v1", "sk-locked", &error));
  g_assert_no_error (error);
  g_assert_true (tb_secret_store_is_in_memory (store));
  message = tb_secret_store_get_fallback_message (store);
  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, "The keyring is locked or refused the key"));
  key = lookup (store, "Locked", "http://127.0.0.1/v1", &error);
  g_assert_cmpstr (key, ==, "sk-locked");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  if (!keyring_expected ())
    g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);

  g_test_add ("/secret-store/round-trip", Fixture, NULL, fixture_setup, test_round_trip,
              fixture_teardown);
  g_test_add ("/secret-store/bad-input", Fixture, NULL, fixture_setup, test_bad_input,
              fixture_teardown);
  g_test_add ("/secret-store/locked", Fixture, NULL, fixture_setup, test_locked,
              fixture_teardown);
  g_test_add ("/secret-store/in-memory", Fixture, NULL, fixture_setup, test_in_memory,
              fixture_teardown);
  g_test_add ("/secret-store/kinds", Fixture, NULL, fixture_setup, test_kinds,
              fixture_teardown);

  status = g_test_run ();
  /* Let libsecret drop its connection to the bus before exit. */
  secret_service_disconnect ();
  return status;
}
