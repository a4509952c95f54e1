/* SPDX-License-Identifier: GPL-3.0-or-later */

/* toolbench-cli signing in to an HTTP MCP server (fetch mode) against
 * tb-test-oauth-server.c: what it prints, its options' mistakes, a
 * sign-in that fails, and `mcp logout`. Run by run-with-keyring.sh
 * (TB_TEST_KEYRING=1), the next run reuses what the first kept in the
 * keyring until `mcp logout` forgets it; without a keyring each run keeps
 * its sign-in in memory and says so. */

#include "config.h"

#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"
#include "tb-test-oauth-server.h"

typedef struct
{
  TbTestOAuthServer *server;
  char              *spec;
} Fixture;

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
  f->spec = g_strdup_printf ("oauth=%s", f->server->mcp_url);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_free (f->spec);
  tb_test_oauth_server_free (f->server);
}

typedef struct
{
  gboolean  done;
  char     *out;
  char     *err;
} Output;

static void
communicated_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Output *output = user_data;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), result, &output->out,
                                        &output->err, NULL);
  output->done = TRUE;
}

static gboolean
output_done (gpointer data)
{
  return ((Output *) data)->done;
}

/* Runs toolbench-cli while this process serves the servers. */
static int
run_cli (const char * const  *args,
         const char          *secret,
         char               **out,
         char               **err)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  Output output = { FALSE, NULL, NULL };

  g_ptr_array_add (argv, (gpointer) g_getenv ("TOOLBENCH_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_unsetenv (launcher, "TOOLBENCH_OAUTH_CLIENT_SECRET");
  if (secret != NULL)
    g_subprocess_launcher_setenv (launcher, "TOOLBENCH_OAUTH_CLIENT_SECRET", secret, TRUE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, communicated_cb, &output);
  g_assert_true (mcp_test_wait (output_done, &output, 60000));
  g_subprocess_wait (process, NULL, NULL);
  *out = output.out;
  *err = output.err;
  g_test_message ("stdout: %s\nstderr: %s", output.out, output.err);
  return g_subprocess_get_exit_status (process);
}

static void
logout (Fixture *f)
{
  const char *args[] = { "mcp", "logout", "oauth", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (args, NULL, &out, &err), ==, 0);
}

static void
test_sign_in (Fixture       *f,
              gconstpointer  data)
{
  const char *list[] = { "mcp", "list", "--mcp", f->spec, "--oauth-authorize=fetch", NULL };
  const char *call[] = { "--mcp", f->spec, "--oauth-authorize", "fetch", "call", "whoami",
                         NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out2 = NULL;
  g_autofree char *err2 = NULL;

  g_assert_cmpint (run_cli (list, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "oauth:\n  whoami"));
  g_assert_nonnull (strstr (err, "toolbench-cli: signing in to the MCP server “oauth” without a "
                                 "browser at http://127.0.0.1:"));
  g_assert_nonnull (strstr (err, "toolbench-cli: signed in to the MCP server “oauth” as "
                                 "client-1\n"));
  if (!keyring_expected ())
    g_assert_nonnull (strstr (err, "toolbench-cli: No keyring is running ("));
  /* The token never reaches the terminal. */
  g_assert_nonnull (f->server->last_bearer);
  g_assert_null (strstr (out, f->server->last_bearer));
  g_assert_null (strstr (err, f->server->last_bearer));
  g_assert_cmpuint (f->server->n_authorize, ==, 1);

  /* `call`, options before the command: the same shared options. */
  g_assert_cmpint (run_cli (call, NULL, &out2, &err2), ==, 0);
  g_assert_nonnull (strstr (out2, "scope: "));
  /* The second run reuses the keyring's sign-in; without one, it signs in. */
  g_assert_cmpuint (f->server->n_authorize, ==, keyring_expected () ? 1 : 2);
  if (keyring_expected ())
    logout (f);
}

/* With a keyring: kept between runs until `mcp logout`. */
static void
test_logout (Fixture       *f,
             gconstpointer  data)
{
  const char *list[] = { "mcp", "list", "--mcp", f->spec, "--oauth-authorize=fetch", NULL };
  const char *out_args[] = { "mcp", "logout", "oauth", NULL };
  const char *url_args[] = { "mcp", "logout", f->server->mcp_url, NULL };
  const char *none[] = { "mcp", "logout", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  /* No name: a usage error. */
  status = run_cli (none, NULL, &out, &err);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "toolbench-cli: Name the MCP server to sign out of\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Nothing kept yet: a sentence, and success. */
  g_assert_cmpint (run_cli (out_args, NULL, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "Nothing was kept for the MCP server “oauth”; there is nothing to "
                            "sign out of.\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  if (!keyring_expected ())
    {
      g_test_skip ("Keeping sign-ins between runs needs the keyring of run-with-keyring.sh");
      return;
    }

  g_assert_cmpint (run_cli (list, NULL, &out, &err), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (out_args, NULL, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "Signed out of the MCP server “oauth”: its tokens and client "
                            "registration are forgotten.\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Signed out: the next run signs in (and registers) again. */
  g_assert_cmpint (run_cli (list, NULL, &out, &err), ==, 0);
  g_assert_cmpuint (f->server->n_authorize, ==, 2);
  g_assert_cmpuint (f->server->n_register, ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* By URL works as well. */
  g_assert_cmpint (run_cli (url_args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Signed out of the MCP server"));
}

static void
test_failure (Fixture       *f,
              gconstpointer  data)
{
  const char *list[] = { "mcp", "list", "--mcp", f->spec, "--oauth-authorize=fetch", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;

  f->server->token_without_access_token = TRUE;
  g_assert_cmpint (run_cli (list, NULL, &out, &err), ==, 1);
  expected = g_strdup_printf ("oauth: not connected: The MCP server “oauth” did not complete the "
                              "initialization: The token endpoint %s/token answered without an "
                              "access_token\n", f->server->issuer);
  g_assert_cmpstr (out, ==, expected);
}

static void
test_bad_options (Fixture       *f,
                  gconstpointer  data)
{
  const char *mode[] = { "mcp", "list", "--mcp", f->spec, "--oauth-authorize=carrier-pigeon",
                         NULL };
  const char *secret[] = { "mcp", "list", "--mcp", f->spec, NULL };
  const char *key[] = { "mcp", "list", "--mcp", f->spec, "--oauth-client-id=pre",
                        "--oauth-client-key=/nonexistent/key.pem", NULL };
  const char *metadata[] = { "list", "--oauth-client-metadata-url=http://example.com/c.json",
                             NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (mode, NULL, &out, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "toolbench-cli: --oauth-authorize takes browser or fetch, "
                                        "not “carrier-pigeon”\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (secret, "s3cret", &out, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "toolbench-cli: $TOOLBENCH_OAUTH_CLIENT_SECRET is set, "
                                        "but no --oauth-client-id\n"));
  g_assert_null (strstr (err, "s3cret"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (key, NULL, &out, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "toolbench-cli: --oauth-client-key: Failed to open file "
                                        "“/nonexistent/key.pem”: No such file or directory\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (metadata, NULL, &out, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "toolbench-cli: --oauth-client-metadata-url must be an "
                                        "https:// URL, not “http://example.com/c.json”\n"));
  g_assert_cmpuint (f->server->n_mcp, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  if (!keyring_expected ())
    {
      home = g_dir_make_tmp ("tb-cli-oauth-home-XXXXXX", NULL);
      g_setenv ("HOME", home, TRUE);
      g_setenv ("XDG_DATA_HOME", home, TRUE);
      g_setenv ("XDG_CONFIG_HOME", home, TRUE);
      g_setenv ("XDG_CACHE_HOME", home, TRUE);
      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
    }
  if (g_getenv ("TOOLBENCH_CLI") == NULL)
    {
      g_printerr ("TOOLBENCH_CLI is not set\n");
      return 1;
    }

  g_test_add ("/cli/oauth/sign-in", Fixture, NULL, fixture_setup, test_sign_in,
              fixture_teardown);
  g_test_add ("/cli/oauth/logout", Fixture, NULL, fixture_setup, test_logout, fixture_teardown);
  g_test_add ("/cli/oauth/failure", Fixture, NULL, fixture_setup, test_failure,
              fixture_teardown);
  g_test_add ("/cli/oauth/bad-options", Fixture, NULL, fixture_setup, test_bad_options,
              fixture_teardown);

  status = g_test_run ();
  if (home != NULL)
    {
      g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", home);

      (void) system (cmd);
    }
  return status;
}
