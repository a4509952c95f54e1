/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Signing in to an MCP server over HTTP, end to end: a TbMcpClient in
 * fetch mode against the authorization server and protected MCP server of
 * tb-test-oauth-server.c. Each bad input asserts the sentence a person
 * sees, and that what the keyring kept for the server is as it was.
 *
 * Run plainly, no keyring answers (the session bus points nowhere) and the
 * store keeps sign-ins in memory; run by run-with-keyring.sh
 * (TB_TEST_KEYRING=1) they go to a real GNOME Keyring. Either way the
 * token must be in the store and in no file under $HOME. */

#include "config.h"

#include <glib/gstdio.h>
#include <libsecret/secret.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"
#include "tb-test-oauth-server.h"
#include "../test-soup-util.h"

#define NAME "oauth"

typedef struct
{
  TbTestOAuthServer *server;
  TbSecretStore     *store;
} Fixture;

static char *home;

static gboolean
keyring_expected (void)
{
  return g_strcmp0 (g_getenv ("TB_TEST_KEYRING"), "1") == 0;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->server = tb_test_oauth_server_new ();
  f->store = tb_secret_store_new ();
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  /* Leave the keyring as it was found. */
  tb_secret_store_forget_async (f->store, TB_SECRET_KIND_MCP_AUTHORIZATION, NAME, NULL, NULL,
                                mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 10000));
  g_assert_true (tb_secret_store_forget_finish (f->store, result, NULL, NULL));
  g_clear_object (&f->store);
  tb_test_oauth_server_free (f->server);
}

static TbMcpClient *
new_client (Fixture *f)
{
  TbMcpClient *client = tb_mcp_client_new_http (NAME, f->server->mcp_url, NULL);
  TbMcpAuth *auth = tb_mcp_client_get_auth (client);

  g_assert_nonnull (auth);
  tb_mcp_auth_set_secret_store (auth, f->store);
  tb_mcp_auth_set_mode (auth, TB_MCP_AUTH_MODE_FETCH);
  return client;
}

static char *
kept (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *text;

  tb_secret_store_fetch_async (f->store, TB_SECRET_KIND_MCP_AUTHORIZATION, NAME,
                               f->server->mcp_url, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 10000));
  text = tb_secret_store_fetch_finish (f->store, result, &error);
  g_assert_no_error (error);
  return text;
}

/* What an earlier sign-in left: a token the server no longer takes. */
static char *
keep_old_sign_in (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text =
    g_strdup_printf ("{\"format\":\"toolbench-mcp-authorization\",\"version\":1,"
                     "\"resource\":\"%s\",\"access_token\":\"at-old\","
                     "\"token_type\":\"Bearer\",\"account\":\"old@example.org\"}",
                     f->server->mcp_url);

  tb_secret_store_store_async (f->store, TB_SECRET_KIND_MCP_AUTHORIZATION, NAME,
                               f->server->mcp_url, text, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 10000));
  g_assert_true (tb_secret_store_store_finish (f->store, result, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&text);
}

static gboolean
file_contains (const char *path,
               const char *needle)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  gsize n = strlen (needle);

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return FALSE;
  for (gsize i = 0; i + n <= length; i++)
    if (memcmp (contents + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

/* Returns the first file under @dir that holds @needle. */
static char *
find_in_files (const char *dir,
               const char *needle)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *found = NULL;

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        found = find_in_files (path, needle);
      else if (file_contains (path, needle))
        found = g_strdup (path);
      if (found != NULL)
        return g_steal_pointer (&found);
    }
  return NULL;
}

static void
assert_log_clean (TbMcpClient *client,
                  const char  *token)
{
  g_auto(GStrv) log = tb_mcp_client_get_log (client);

  for (guint i = 0; log[i] != NULL; i++)
    g_assert_null (strstr (log[i], token));
  if (tb_mcp_client_get_error (client) != NULL)
    g_assert_null (strstr (tb_mcp_client_get_error (client), token));
}

static void
test_sign_in (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *output = NULL;
  g_autofree char *file = NULL;
  TbMcpAuth *auth = tb_mcp_client_get_auth (client);
  const char *token;

  g_free (f->server->id_token_email);
  f->server->id_token_email = g_strdup ("ada@example.org");
  g_free (f->server->scopes_supported);
  f->server->scopes_supported = g_strdup ("tools");
  g_assert_cmpint (tb_mcp_auth_get_state (auth), ==, TB_MCP_AUTH_STATE_SIGNED_OUT);

  tb_mcp_client_attach (client, registry);
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);

  /* One sign-in: registered, authorized with PKCE, the resource and the
   * resource metadata's scope, then every request with the token. */
  g_assert_cmpuint (f->server->n_register, ==, 1);
  g_assert_cmpuint (f->server->n_authorize, ==, 1);
  g_assert_cmpuint (f->server->n_token_code, ==, 1);
  g_assert_cmpstr (f->server->last_scope, ==, "tools");
  g_assert_cmpstr (f->server->last_resource, ==, f->server->mcp_url);
  g_assert_cmpstr (f->server->last_token_resource, ==, f->server->mcp_url);
  g_assert_cmpint (tb_mcp_auth_get_state (auth), ==, TB_MCP_AUTH_STATE_SIGNED_IN);
  g_assert_cmpstr (tb_mcp_auth_get_account (auth), ==, "ada@example.org");
  g_assert_cmpstr (tb_mcp_auth_get_scope (auth), ==, "tools");
  g_assert_null (tb_mcp_auth_get_error (auth));

  result = mcp_test_call (registry, "whoami", "{}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  output = mcp_test_output_text (result);
  g_assert_nonnull (strstr (output, "scope: tools"));

  /* The token is in the store, and in no file, log or message. */
  token = f->server->last_bearer;
  g_assert_true (g_str_has_prefix (token, "at-"));
  text = kept (f);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, token));
  g_assert_null (strstr (text, "id_token"));
  g_assert_true (tb_secret_store_is_in_memory (f->store) != keyring_expected ());
  file = find_in_files (home, token);
  g_assert_null (file);
  assert_log_clean (client, token);

  /* Nor in the protocol view: the exchanges that carried it show it masked. */
  {
    GListModel *history = tb_mcp_client_get_wire_history (client);
    guint masked = 0;

    for (guint i = 0; i < g_list_model_get_n_items (history); i++)
      {
        g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);
        g_autofree char *line = tb_mcp_wire_record_to_line (record);
        JsonObject *http = tb_mcp_wire_record_get_http (record);
        JsonArray *headers = http != NULL ? tb_json_object_get_array (http, "request_headers")
                                          : NULL;

        g_assert_null (strstr (line, token));
        for (guint j = 0; headers != NULL && j < json_array_get_length (headers); j++)
          {
            JsonArray *pair = json_array_get_array_element (headers, j);

            if (g_ascii_strcasecmp (json_array_get_string_element (pair, 0),
                                    "Authorization") == 0)
              {
                g_assert_cmpstr (json_array_get_string_element (pair, 1), ==, "[redacted]");
                masked++;
              }
          }
      }
    g_assert_cmpuint (masked, >, 0);
  }

  if (keyring_expected ())
    {
      /* A second store (the next start) finds it in the keyring. */
      g_autoptr(TbSecretStore) second = tb_secret_store_new ();
      g_autoptr(GAsyncResult) fetched = NULL;
      g_autofree char *again = NULL;

      tb_secret_store_fetch_async (second, TB_SECRET_KIND_MCP_AUTHORIZATION, NAME,
                                   f->server->mcp_url, NULL, mcp_test_store_result, &fetched);
      g_assert_true (mcp_test_wait (mcp_test_pointer_set, &fetched, 10000));
      again = tb_secret_store_fetch_finish (second, fetched, &error);
      g_assert_no_error (error);
      g_assert_nonnull (strstr (again, token));
    }
  tb_mcp_client_disconnect (client);
}

/* The next client (the next run) uses what was kept: no new sign-in. */
static void
test_reuse (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TbMcpClient) first = new_client (f);
  g_autoptr(TbMcpClient) second = new_client (f);
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_test_connect (first, &error));
  g_assert_no_error (error);
  tb_mcp_client_disconnect (first);
  g_assert_cmpuint (f->server->n_authorize, ==, 1);

  g_assert_true (mcp_test_connect (second, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->server->n_authorize, ==, 1);
  g_assert_cmpuint (f->server->n_register, ==, 1);
  g_assert_cmpint (tb_mcp_auth_get_state (tb_mcp_client_get_auth (second)), ==,
                   TB_MCP_AUTH_STATE_SIGNED_IN);
  tb_mcp_client_disconnect (second);
}

/* An expired access token: the refresh token gets a new one, no sign-in. */
static void
test_refresh (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *old = NULL;
  g_autofree char *text = NULL;

  tb_mcp_client_attach (client, registry);
  g_assert_true (mcp_test_connect (client, &error));
  old = g_strdup (f->server->last_bearer);
  tb_test_oauth_server_revoke_access (f->server);

  result = mcp_test_call (registry, "whoami", "{}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpuint (f->server->n_token_refresh, ==, 1);
  g_assert_cmpuint (f->server->n_authorize, ==, 1);
  g_assert_cmpstr (f->server->last_bearer, !=, old);
  text = kept (f);
  g_assert_nonnull (strstr (text, f->server->last_bearer));
  g_assert_null (strstr (text, old));
  tb_mcp_client_disconnect (client);
}

/* An expired refresh token: sign in again, and keep the new sign-in. */
static void
test_refresh_expired (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  tb_mcp_client_attach (client, registry);
  g_assert_true (mcp_test_connect (client, &error));
  tb_test_oauth_server_revoke_access (f->server);
  f->server->refuse_refresh = TRUE;

  result = mcp_test_call (registry, "whoami", "{}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpuint (f->server->n_token_refresh, ==, 1);
  g_assert_cmpuint (f->server->n_authorize, ==, 2);
  /* The registration kept from the first sign-in served again. */
  g_assert_cmpuint (f->server->n_register, ==, 1);
  text = kept (f);
  g_assert_nonnull (strstr (text, f->server->last_bearer));
  tb_mcp_client_disconnect (client);
}

/* Connects, expecting a failure whose message is @expected (or starts
 * with @expected and ends with @suffix), and checks that what was kept
 * before is still kept. */
static void
assert_fails (Fixture    *f,
              const char *expected,
              const char *suffix,
              gboolean    signed_in)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(GError) error = NULL;
  g_autofree char *before = keep_old_sign_in (f);
  g_autofree char *after = NULL;
  g_autofree char *prefix = NULL;
  TbMcpAuth *auth = tb_mcp_client_get_auth (client);

  g_assert_false (mcp_test_connect (client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_AUTHORIZATION);
  prefix = g_strdup_printf ("The MCP server “%s” did not complete the initialization: %s", NAME,
                            expected);
  if (suffix == NULL)
    g_assert_cmpstr (error->message, ==, prefix);
  else
    {
      if (!g_str_has_prefix (error->message, prefix) || !g_str_has_suffix (error->message, suffix))
        g_error ("unexpected message: %s", error->message);
    }
  g_assert_cmpint (tb_mcp_client_get_state (client), ==, TB_MCP_CLIENT_STATE_FAILED);
  g_assert_nonnull (tb_mcp_auth_get_error (auth));

  after = kept (f);
  if (signed_in)
    /* The sign-in worked, the server refused its token: kept all the same. */
    g_assert_nonnull (strstr (after, f->server->last_bearer));
  else
    /* Nothing lost: the old sign-in is kept as it was. */
    g_assert_cmpstr (after, ==, before);
}

static void
assert_sign_in_fails (Fixture    *f,
                      const char *expected,
                      const char *suffix)
{
  assert_fails (f, expected, suffix, FALSE);
}

static void
test_metadata_html (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *expected = NULL;
  g_autoptr(GUri) issuer = g_uri_parse (f->server->issuer, G_URI_FLAGS_NONE, NULL);

  f->server->metadata_html = TRUE;
  expected = g_strdup_printf ("Authorization server metadata at "
                              "http://127.0.0.1:%d/.well-known/oauth-authorization-server/tenant "
                              "is not JSON (it is text/html)", g_uri_get_port (issuer));
  assert_sign_in_fails (f, expected, NULL);
  g_assert_cmpuint (f->server->n_authorize, ==, 0);
}

static void
test_issuer_mismatch (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *expected = NULL;
  g_autoptr(GUri) issuer = g_uri_parse (f->server->issuer, G_URI_FLAGS_NONE, NULL);

  f->server->issuer_mismatch = TRUE;
  expected = g_strdup_printf ("The authorization server metadata at "
                              "http://127.0.0.1:%d/.well-known/oauth-authorization-server/tenant "
                              "names the issuer “https://evil.example/tenant”, not %s; it is not "
                              "used", g_uri_get_port (issuer), f->server->issuer);
  assert_sign_in_fails (f, expected, NULL);
  g_assert_cmpuint (f->server->n_register, ==, 0);
  g_assert_cmpuint (f->server->n_authorize, ==, 0);
}

static void
test_no_s256 (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *expected = NULL;
  g_autoptr(GUri) issuer = g_uri_parse (f->server->issuer, G_URI_FLAGS_NONE, NULL);

  f->server->no_s256 = TRUE;
  expected = g_strdup_printf ("The authorization server %s does not support PKCE with S256 (its "
                              "metadata at http://127.0.0.1:%d/.well-known/"
                              "oauth-authorization-server/tenant lists other methods); Toolbench "
                              "does not sign in without it", f->server->issuer,
                              g_uri_get_port (issuer));
  assert_sign_in_fails (f, expected, NULL);
  g_assert_cmpuint (f->server->n_authorize, ==, 0);
}

static void
test_wrong_state (Fixture       *f,
                  gconstpointer  data)
{
  f->server->wrong_state = TRUE;
  assert_sign_in_fails (f, "The answer that came back to http://127.0.0.1:",
                        "/callback does not carry the state of this sign-in; it was discarded. "
                        "Sign in again.");
  /* The code that came with it was not exchanged. */
  g_assert_cmpuint (f->server->n_authorize, ==, 1);
  g_assert_cmpuint (f->server->n_token_code, ==, 0);
}

static void
test_denied (Fixture       *f,
             gconstpointer  data)
{
  f->server->deny = TRUE;
  assert_sign_in_fails (f, "The authorization server refused the sign-in: access_denied (The "
                        "person said no)", NULL);
}

static void
test_authorize_page (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *expected = NULL;

  f->server->authorize_page = TRUE;
  expected = g_strdup_printf ("The authorization endpoint shows a page at %s/authorize?",
                              f->server->issuer);
  assert_sign_in_fails (f, expected, " (HTTP 200, text/html) instead of sending Toolbench back: "
                        "signing in there needs a person in a browser");
}

static void
test_token_without_access_token (Fixture       *f,
                                 gconstpointer  data)
{
  g_autofree char *expected = NULL;

  f->server->token_without_access_token = TRUE;
  expected = g_strdup_printf ("The token endpoint %s/token answered without an access_token",
                              f->server->issuer);
  assert_sign_in_fails (f, expected, NULL);
}

/* The server refuses every token: the client stops, and says why. */
static void
test_unauthorized_loop (Fixture       *f,
                        gconstpointer  data)
{
  f->server->always_unauthorized = TRUE;
  assert_fails (f, "The MCP server “" NAME "” refused the request 3 times although Toolbench "
                "got a new token each time, so it stopped (HTTP 401, invalid_token: No valid "
                "token); the server may not accept the tokens of the authorization server it "
                "names", NULL, TRUE);
  /* Bounded: no token, the kept token, the token of one sign-in. */
  g_assert_cmpuint (f->server->n_mcp, ==, 3);
  g_assert_cmpuint (f->server->n_authorize, ==, 1);
}

/* Odd spacing, an escaped quote, a second scheme, an empty list item. */
static void
test_odd_challenge (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(GError) error = NULL;

  f->server->odd_challenge = TRUE;
  f->server->required_scope = g_strdup ("tools");
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (f->server->last_scope, ==, "tools");
  g_assert_cmpuint (f->server->n_resource_metadata, ==, 1);
  tb_mcp_client_disconnect (client);
}

/* A 403 naming a scope the token lacks: sign in again with it. */
static void
test_step_up (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(GError) error = NULL;

  g_free (f->server->scopes_supported);
  f->server->scopes_supported = g_strdup ("tools");
  g_assert_true (mcp_test_connect (client, &error));
  tb_mcp_client_disconnect (client);
  g_assert_cmpstr (f->server->last_scope, ==, "tools");

  f->server->required_scope = g_strdup ("admin");
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->server->n_authorize, ==, 2);
  g_assert_cmpstr (f->server->last_scope, ==, "tools admin");
  g_assert_cmpstr (tb_mcp_auth_get_scope (tb_mcp_client_get_auth (client)), ==, "tools admin");
  tb_mcp_client_disconnect (client);
}

static void
serve_foreign_metadata (SoupServer        *server,
                        SoupServerMessage *msg,
                        const char        *path,
                        GHashTable        *query,
                        gpointer           user_data)
{
  const char *text = user_data;

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, text,
                                    strlen (text));
}

/* Resource metadata on another host than the server's: usable only when
 * its resource names the server (RFC 9728 §3.3). */
static void
test_foreign_resource_metadata (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(SoupServer) other = soup_server_new (NULL, NULL);
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string ("127.0.0.2");
  g_autoptr(GSocketAddress) socket_address = g_inet_socket_address_new (address, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *foreign = NULL;
  g_autofree char *honest = NULL;
  g_autofree char *expected = NULL;
  guint port;

  if (!soup_server_listen (other, socket_address, 0, &error))
    {
      g_test_skip ("cannot listen on 127.0.0.2");
      return;
    }
  port = test_server_port (other);
  foreign = g_strdup_printf ("{\"resource\":\"http://127.0.0.2:%u/mcp\","
                             "\"authorization_servers\":[\"%s\"]}", port, f->server->issuer);
  honest = g_strdup_printf ("{\"resource\":\"%s\",\"authorization_servers\":[\"%s\"]}",
                            f->server->mcp_url, f->server->issuer);
  soup_server_add_handler (other, "/foreign", serve_foreign_metadata, foreign, NULL);
  soup_server_add_handler (other, "/honest", serve_foreign_metadata, honest, NULL);

  f->server->resource_metadata_url = g_strdup_printf ("http://127.0.0.2:%u/foreign", port);
  expected = g_strdup_printf ("The protected resource metadata at http://127.0.0.2:%u/foreign is "
                              "for “http://127.0.0.2:%u/mcp”, not for the MCP server at %s; it is "
                              "not used", port, port, f->server->mcp_url);
  assert_sign_in_fails (f, expected, NULL);
  g_assert_cmpuint (f->server->n_server_metadata, ==, 0);
  g_assert_cmpuint (f->server->n_authorize, ==, 0);

  /* Where it is kept does not matter, what it says does. */
  g_free (f->server->resource_metadata_url);
  f->server->resource_metadata_url = g_strdup_printf ("http://127.0.0.2:%u/honest", port);
  {
    g_autoptr(TbMcpClient) client = new_client (f);

    g_assert_true (mcp_test_connect (client, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (f->server->n_authorize, ==, 1);
    tb_mcp_client_disconnect (client);
  }
  soup_server_disconnect (other);
}

typedef struct
{
  char     *url;
  gboolean  cancel;
} Presented;

static gboolean
cancel_idle (gpointer user_data)
{
  tb_mcp_auth_cancel (user_data);
  return G_SOURCE_REMOVE;
}

/* A browser that never comes back. */
static gboolean
present_url_cb (TbMcpAuth  *auth,
                const char *url,
                gpointer    user_data)
{
  Presented *presented = user_data;

  g_free (presented->url);
  presented->url = g_strdup (url);
  if (presented->cancel)
    g_idle_add (cancel_idle, auth);
  return TRUE;
}

static void
test_redirect_never_comes (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(GError) error = NULL;
  g_autofree char *before = keep_old_sign_in (f);
  g_autofree char *after = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GHashTable) query = NULL;
  TbMcpAuth *auth = tb_mcp_client_get_auth (client);
  Presented presented = { NULL, FALSE };
  const char *message;

  tb_mcp_auth_set_mode (auth, TB_MCP_AUTH_MODE_BROWSER);
  tb_mcp_auth_set_redirect_timeout_ms (auth, 300);
  g_signal_connect (auth, "present-url", G_CALLBACK (present_url_cb), &presented);

  g_assert_false (mcp_test_connect (client, &error));
  message = error->message;
  if (!g_str_has_prefix (message, "The MCP server “" NAME "” did not complete the "
                         "initialization: The sign-in did not finish within 1 second: the browser "
                         "never came back to http://127.0.0.1:") ||
      !g_str_has_suffix (message, "/callback. Sign in again."))
    g_error ("unexpected message: %s", message);

  /* What the person would have opened. */
  g_assert_nonnull (presented.url);
  g_assert_true (g_str_has_prefix (presented.url, f->server->issuer));
  uri = g_uri_parse (presented.url, G_URI_FLAGS_ENCODED_QUERY, NULL);
  query = soup_form_decode (g_uri_get_query (uri));
  g_assert_cmpstr (g_hash_table_lookup (query, "response_type"), ==, "code");
  g_assert_cmpstr (g_hash_table_lookup (query, "code_challenge_method"), ==, "S256");
  g_assert_cmpstr (g_hash_table_lookup (query, "resource"), ==, f->server->mcp_url);
  g_assert_cmpuint (strlen (g_hash_table_lookup (query, "state")), >=, 32);
  g_assert_null (tb_mcp_auth_get_authorization_url (auth));
  after = kept (f);
  g_assert_cmpstr (after, ==, before);

  /* Cancelled instead: says so at once. */
  g_clear_error (&error);
  tb_mcp_auth_set_redirect_timeout_ms (auth, 0);
  presented.cancel = TRUE;
  g_assert_false (mcp_test_connect (client, &error));
  g_assert_cmpstr (error->message, ==, "The MCP server “" NAME "” did not complete the "
                   "initialization: The sign-in was cancelled");
  g_clear_pointer (&after, g_free);
  after = kept (f);
  g_assert_cmpstr (after, ==, before);
  g_free (presented.url);
}

static void
sign_out_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_sign_out (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = new_client (f);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TbMcpAuth *auth = tb_mcp_client_get_auth (client);
  gboolean removed = FALSE;

  g_assert_true (mcp_test_connect (client, &error));
  tb_mcp_client_disconnect (client);

  tb_mcp_auth_sign_out_async (auth, NULL, sign_out_cb, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 10000));
  g_assert_true (tb_mcp_auth_sign_out_finish (auth, result, &removed, &error));
  g_assert_true (removed);
  g_assert_cmpint (tb_mcp_auth_get_state (auth), ==, TB_MCP_AUTH_STATE_SIGNED_OUT);
  g_assert_null (tb_mcp_auth_get_account (auth));
  text = kept (f);
  g_assert_null (text);

  /* Signing out again: nothing was kept. */
  g_clear_object (&result);
  tb_mcp_auth_sign_out_async (auth, NULL, sign_out_cb, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 10000));
  g_assert_true (tb_mcp_auth_sign_out_finish (auth, result, &removed, &error));
  g_assert_false (removed);
}

/* The app's way: sign in from a button, before connecting. */
static void
test_explicit_sign_in (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbMcpAuth) auth = tb_mcp_auth_new (NAME, f->server->mcp_url);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  tb_mcp_auth_set_secret_store (auth, f->store);
  tb_mcp_auth_set_mode (auth, TB_MCP_AUTH_MODE_FETCH);
  tb_mcp_auth_sign_in_async (auth, NULL, mcp_test_store_result, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 30000));
  g_assert_true (tb_mcp_auth_sign_in_finish (auth, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (tb_mcp_auth_get_state (auth), ==, TB_MCP_AUTH_STATE_SIGNED_IN);
  g_assert_cmpstr (tb_mcp_auth_get_account (auth), ==, "client-1");

  /* What another object finds when it loads. */
  {
    g_autoptr(TbMcpAuth) other = tb_mcp_auth_new (NAME, f->server->mcp_url);
    g_autoptr(GAsyncResult) loaded = NULL;

    tb_mcp_auth_set_secret_store (other, f->store);
    tb_mcp_auth_load_async (other, NULL, mcp_test_store_result, &loaded);
    g_assert_true (mcp_test_wait (mcp_test_pointer_set, &loaded, 10000));
    g_assert_true (tb_mcp_auth_load_finish (other, loaded, &error));
    g_assert_cmpint (tb_mcp_auth_get_state (other), ==, TB_MCP_AUTH_STATE_SIGNED_IN);
    g_assert_cmpstr (tb_mcp_auth_get_account (other), ==, "client-1");
  }
}

/* A server given its own Authorization header is not signed in to. */
static void
test_own_header (Fixture       *f,
                 gconstpointer  data)
{
  const char *headers[] = { "Authorization: Bearer configured", NULL };
  g_autoptr(TbMcpClient) client = tb_mcp_client_new_http (NAME, f->server->mcp_url, headers);
  g_autoptr(GError) error = NULL;

  g_assert_null (tb_mcp_client_get_auth (client));
  g_assert_false (mcp_test_connect (client, &error));
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_HTTP);
  g_assert_cmpuint (f->server->n_authorize, ==, 0);
  g_assert_cmpstr (f->server->last_bearer, ==, "configured");
}

static void
add (const char *path,
     void      (*func) (Fixture *, gconstpointer))
{
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  if (!keyring_expected ())
    {
      /* No keyring, and no file of the person's touched. */
      home = g_dir_make_tmp ("tb-oauth-home-XXXXXX", NULL);
      g_setenv ("HOME", home, TRUE);
      g_setenv ("XDG_DATA_HOME", home, TRUE);
      g_setenv ("XDG_CONFIG_HOME", home, TRUE);
      g_setenv ("XDG_CACHE_HOME", home, TRUE);
      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
    }
  else
    home = g_strdup (g_get_home_dir ());

  add ("/mcp/oauth/sign-in", test_sign_in);
  add ("/mcp/oauth/reuse", test_reuse);
  add ("/mcp/oauth/refresh", test_refresh);
  add ("/mcp/oauth/refresh-expired", test_refresh_expired);
  add ("/mcp/oauth/step-up", test_step_up);
  add ("/mcp/oauth/odd-challenge", test_odd_challenge);
  add ("/mcp/oauth/explicit-sign-in", test_explicit_sign_in);
  add ("/mcp/oauth/sign-out", test_sign_out);
  add ("/mcp/oauth/own-header", test_own_header);
  add ("/mcp/oauth/bad/metadata-html", test_metadata_html);
  add ("/mcp/oauth/bad/issuer-mismatch", test_issuer_mismatch);
  add ("/mcp/oauth/bad/no-s256", test_no_s256);
  add ("/mcp/oauth/bad/wrong-state", test_wrong_state);
  add ("/mcp/oauth/bad/denied", test_denied);
  add ("/mcp/oauth/bad/authorize-page", test_authorize_page);
  add ("/mcp/oauth/bad/token-without-access-token", test_token_without_access_token);
  add ("/mcp/oauth/bad/unauthorized-loop", test_unauthorized_loop);
  add ("/mcp/oauth/bad/foreign-resource-metadata", test_foreign_resource_metadata);
  add ("/mcp/oauth/bad/redirect-never-comes", test_redirect_never_comes);

  status = g_test_run ();
  secret_service_disconnect ();
  if (!keyring_expected ())
    {
      g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", home);

      (void) system (cmd);
    }
  return status;
}
