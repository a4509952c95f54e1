/* SPDX-License-Identifier: GPL-3.0-or-later */

/* toolbench-cli with --mcp, --mcp-config, --tools-dir, --files-root,
 * --elicitation and the mcp ping|list|call subcommands, run as a person
 * would, against the in-tree fake MCP server. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  char *dir;
  char *server;
  int   status;
  char *out;
  char *err;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autofree char *script = mcp_test_fake_server ();

  f->dir = g_dir_make_tmp ("tb-cli-mcp-XXXXXX", NULL);
  f->server = g_strdup_printf ("fake=/usr/bin/python3 %s", script);
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

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->server);
  g_free (f->out);
  g_free (f->err);
}

/* Runs toolbench-cli with the NULL-terminated arguments. */
static gboolean
run (Fixture    *f,
     const char *first,
     ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  va_list args;

  if (cli == NULL || !g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("needs TOOLBENCH_CLI and /usr/bin/python3");
      return FALSE;
    }
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &f->out, &f->err, &f->status, &error));
  g_assert_no_error (error);
  f->status = WIFEXITED (f->status) ? WEXITSTATUS (f->status) : -1;
  return TRUE;
}

static void
test_ping_list (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(JsonNode) listed = NULL;

  if (!run (f, "mcp", "ping", "--mcp", f->server, NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  g_assert_true (g_str_has_prefix (f->out, "fake: answered in "));
  g_assert_nonnull (strstr (f->out, "(protocol 2025-11-25, fake 1.0)"));

  run (f, "mcp", "list", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 0);
  /* The demo tools already have "echo": the server's gets its prefix. */
  g_assert_nonnull (strstr (f->out, "  fake.echo "));
  g_assert_nonnull (strstr (f->out, "  garbage "));

  run (f, "mcp", "list", "--json", "fake", "--mcp", f->server, NULL);
  listed = tb_json_parse (f->out, -1, NULL);
  g_assert_nonnull (listed);
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (
                       json_object_get_array_member (json_node_get_object (listed), "fake"), 0),
                     "name"), ==, "echo");

  run (f, "mcp", "ping", "nobody", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->err, "no MCP server is named “nobody”"));

  run (f, "mcp", "ping", NULL);
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "Name an MCP server with --mcp, --mcp-config or a URL"));
}

static void
test_call (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(JsonNode) envelope = NULL;

  if (!run (f, "mcp", "call", "echo", "--args", "{\"message\":\"hi\"}", "--mcp", f->server,
            NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  envelope = tb_json_parse (f->out, -1, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (envelope), "data"), ==,
                   "Echo: hi");

  run (f, "mcp", "call", "crash", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->out, "The MCP server “fake” exited with status 3"));

  run (f, "mcp", "call", "no-such-tool", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->err, "no connected MCP server has a tool named “no-such-tool”"));

  /* The plain call command sees the same tools under their registered names. */
  run (f, "call", "fake.echo", "--args", "{\"message\":\"plain\"}", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "Echo: plain"));

  /* Both take the same call options: arguments the schema refuses are
   * stopped before the server, and sent anyway with --no-validate. */
  run (f, "mcp", "call", "echo", "--args", "{\"message\":7}", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_null (strstr (f->out, "Echo: 7"));
  run (f, "mcp", "call", "echo", "--no-validate", "--args", "{\"message\":7}",
       "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "Echo: 7"));
  g_assert_nonnull (strstr (f->err, "the arguments were sent without being validated"));
  run (f, "mcp", "call", "echo", "--timeout-ms=-1", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "--timeout-ms must be a positive number"));
}

static void
test_config_file (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *script = mcp_test_fake_server ();
  g_autofree char *config = g_build_filename (f->dir, "mcp.json", NULL);
  g_autofree char *text =
    g_strdup_printf ("{\"mcpServers\":{\"configured\":{\"command\":\"/usr/bin/python3\","
                     "\"args\":[\"%s\"]},\"broken\":{\"args\":[]}}}", script);

  g_assert_true (g_file_set_contents (config, text, -1, NULL));
  if (!run (f, "mcp", "ping", "--mcp-config", config, NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  g_assert_true (g_str_has_prefix (f->out, "configured: answered in "));
  g_assert_nonnull (strstr (f->err, "The server “broken” has neither a “command” nor a “url”"));
}

static void
test_tools_dir_and_files (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *tools = g_build_filename (f->dir, "tools", NULL);
  g_autofree char *root = g_build_filename (f->dir, "root", NULL);
  g_autofree char *manifest = g_build_filename (tools, "upper.json", NULL);
  g_autofree char *note = g_build_filename (root, "note.txt", NULL);

  g_assert_cmpint (g_mkdir (tools, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (root, 0755), ==, 0);
  g_assert_true (g_file_set_contents (manifest,
                                      "{\"name\":\"upper\",\"command\":[\"/usr/bin/tr\","
                                      "\"a-z\",\"A-Z\"]}", -1, NULL));
  g_assert_true (g_file_set_contents (note, "hello\n", -1, NULL));

  if (!run (f, "call", "upper", "--args", "{\"word\":\"quiet\"}", "--tools-dir", tools, NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "\"WORD\" : \"QUIET\""));

  run (f, "call", "read_file", "--args", "{\"path\":\"note.txt\"}", "--files-root", root, NULL);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->out, "\"content\" : \"hello\\n\""));

  run (f, "call", "read_file", "--args", "{\"path\":\"../tools/upper.json\"}",
       "--files-root", root, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->out, "“..” is not allowed"));
}

static void
test_elicitation (Fixture       *f,
                  gconstpointer  data)
{
  if (!run (f, "mcp", "call", "elicit", "--elicitation=accept-defaults", "--mcp", f->server,
            NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  g_assert_nonnull (strstr (f->err, "the MCP server “fake” asks: Your name?"));
  g_assert_nonnull (strstr (f->err, "answered: accept, with the defaults {\"name\":\"Grace\"}"));
  g_assert_nonnull (strstr (f->out, "\\\"action\\\": \\\"accept\\\""));

  run (f, "mcp", "call", "elicit", "--elicitation=decline", "--mcp", f->server, NULL);
  g_assert_nonnull (strstr (f->out, "\\\"action\\\": \\\"decline\\\""));

  /* Without the option the capability is not declared and the server is
   * told nobody can answer. */
  run (f, "mcp", "call", "elicit", "--mcp", f->server, NULL);
  g_assert_nonnull (strstr (f->out, "-32601"));
}

/* Resources, prompts and completions of the reference server, and a server
 * that has none. */
static void
test_catalog (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autofree char *server = NULL;
  g_autofree char *blob = g_build_filename (f->dir, "blob.bin", NULL);
  g_autoptr(JsonNode) listed = NULL;
  g_autofree char *contents = NULL;

  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }
  server = g_strdup_printf ("everything=%s %s stdio", argv[0], argv[1]);

  if (!run (f, "mcp", "resources", "--json", "--mcp", server, NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  listed = tb_json_parse (f->out, -1, NULL);
  g_assert_nonnull (tb_json_pointer_get (listed, "/everything/resourceTemplates/0/uriTemplate"));

  run (f, "mcp", "read", "demo://resource/dynamic/text/2", "--mcp", server, NULL);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_true (g_str_has_prefix (f->out, "Resource 2: "));

  run (f, "mcp", "read", "demo://resource/dynamic/blob/2", "--mcp", server, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->err, "is binary"));
  g_assert_nonnull (strstr (f->err, "write it to a file with --output"));
  run (f, "mcp", "read", "demo://resource/dynamic/blob/2", "--output", blob, "--mcp", server,
       NULL);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_true (g_file_get_contents (blob, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "Resource 2: "));

  run (f, "mcp", "prompts", "--mcp", server, NULL);
  g_assert_nonnull (strstr (f->out, "  args-prompt(city*, state)  Arguments Prompt\n"));
  run (f, "mcp", "prompt", "args-prompt", "--args", "{\"city\":\"Oslo\"}", "--mcp", server, NULL);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, "user: What's weather in Oslo?\n");
  run (f, "mcp", "prompt", "args-prompt", "--mcp", server, NULL);
  g_assert_cmpint (f->status, ==, 2);
  g_assert_nonnull (strstr (f->err, "The prompt “args-prompt” needs a value for “city”"));
  run (f, "mcp", "prompt", "nope", "--mcp", server, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->err, "The server “everything” has no prompt named “nope”"));

  run (f, "mcp", "complete", "--prompt", "completable-prompt", "name",
       "--context", "{\"department\":\"Sales\"}", "--mcp", server, NULL);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpstr (f->out, ==, "David\nEve\nFrank\n");

  run (f, "mcp", "resources", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_nonnull (strstr (f->err, "The server “fake” offers no resources"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cli/mcp/ping-list", Fixture, NULL, setup, test_ping_list, teardown);
  g_test_add ("/cli/mcp/call", Fixture, NULL, setup, test_call, teardown);
  g_test_add ("/cli/mcp/config-file", Fixture, NULL, setup, test_config_file, teardown);
  g_test_add ("/cli/mcp/tools-dir-and-files", Fixture, NULL, setup, test_tools_dir_and_files,
              teardown);
  g_test_add ("/cli/mcp/elicitation", Fixture, NULL, setup, test_elicitation, teardown);
  g_test_add ("/cli/mcp/catalog", Fixture, NULL, setup, test_catalog, teardown);

  return g_test_run ();
}
