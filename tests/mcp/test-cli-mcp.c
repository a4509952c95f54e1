/* SPDX-License-Identifier: GPL-3.0-or-later */

/* toolbench-cli with --mcp, --mcp-config, --tools-dir, --files-root,
 * --elicitation and the mcp ping|list|call subcommands, run as a person
 * would, against the in-tree fake MCP server. */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
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

/* The lines of a --wire file, each read back as a record; the file ends
 * with a whole line. */
static GPtrArray *
read_wire (const char *path)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *records = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (*contents == '\0' || g_str_has_suffix (contents, "\n"));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (lines[i], -1, &error);
      TbMcpWireRecord *record;

      g_assert_no_error (error);
      record = tb_mcp_wire_record_new_from_json (node, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tb_mcp_wire_record_get_seq (record), ==, i + 1);
      g_ptr_array_add (records, record);
    }
  return records;
}

static gboolean
has_record (GPtrArray          *records,
            TbMcpWireDirection  direction,
            TbMcpWireKind       kind,
            const char         *method,
            const char         *id)
{
  for (guint i = 0; i < records->len; i++)
    {
      TbMcpWireRecord *record = g_ptr_array_index (records, i);

      if (tb_mcp_wire_record_get_direction (record) == direction &&
          tb_mcp_wire_record_get_kind (record) == kind &&
          g_strcmp0 (tb_mcp_wire_record_get_method (record), method) == 0 &&
          g_strcmp0 (tb_mcp_wire_record_get_id (record), id) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A file's lines without their times, which differ from run to run. */
static char *
lines_without_times (const char *path)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GString *out = g_string_new (NULL);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (lines[i], -1, NULL);
      g_autofree char *text = NULL;

      json_object_remove_member (json_node_get_object (node), "time");
      text = tb_json_to_string (node, FALSE);
      g_string_append_printf (out, "%s\n", text);
    }
  return g_string_free (out, FALSE);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The same call as `mcp call echo`, made with the engine and its writer. */
static void
write_engine_wire (Fixture    *f,
                   const char *path)
{
  g_autoptr(TbToolSourceSet) sources = tb_tool_source_set_new ();
  g_autoptr(TbMcpWireWriter) writer = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(TbToolSession) session = NULL;
  g_autoptr(TbToolResult) echo = NULL;
  g_autoptr(GError) error = NULL;

  writer = tb_mcp_wire_writer_new_for_path (path, &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_source_set_add_mcp_spec (sources, f->server, &error));
  tb_tool_source_set_set_wire_writer (sources, writer);
  tb_tool_source_set_open_async (sources, NULL, opened_cb, &result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &result, 30000));
  session = tb_tool_source_set_open_finish (sources, result, &error);
  g_assert_no_error (error);
  echo = mcp_test_call (tb_tool_session_get_registry (session), "fake.echo",
                        "{\"message\":\"wired\"}", NULL);
  g_assert_true (tb_tool_result_get_ok (echo));
  tb_tool_session_close (session);
  g_assert_true (tb_mcp_wire_writer_close (writer, &error));
  g_assert_no_error (error);
}

/* --wire writes the protocol view as JSON Lines, the same lines the
 * engine's writer does; before the command too, and for list. */
static void
test_wire (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "wire.jsonl", NULL);
  g_autofree char *engine_path = g_build_filename (f->dir, "engine.jsonl", NULL);
  g_autofree char *cli_lines = NULL;
  g_autofree char *engine_lines = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) listed = NULL;

  if (!run (f, "mcp", "call", "echo", "--args", "{\"message\":\"wired\"}", "--wire", path,
            "--mcp", f->server, NULL))
    return;
  g_assert_cmpint (f->status, ==, 0);
  records = read_wire (path);
  /* The probe for the stateless revision, refused by this server, then the
   * handshake. */
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_SENT, TB_MCP_WIRE_KIND_REQUEST,
                             "server/discover", "1"));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_RECEIVED, TB_MCP_WIRE_KIND_ERROR,
                             "server/discover", "1"));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_SENT, TB_MCP_WIRE_KIND_REQUEST,
                             "initialize", "2"));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_RECEIVED, TB_MCP_WIRE_KIND_RESULT,
                             "initialize", "2"));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_SENT,
                             TB_MCP_WIRE_KIND_NOTIFICATION, "notifications/initialized", NULL));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_SENT, TB_MCP_WIRE_KIND_REQUEST,
                             "tools/list", "3"));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_RECEIVED, TB_MCP_WIRE_KIND_RESULT,
                             "tools/list", "3"));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_SENT, TB_MCP_WIRE_KIND_REQUEST,
                             "tools/call", "4"));
  g_assert_true (has_record (records, TB_MCP_WIRE_DIRECTION_RECEIVED, TB_MCP_WIRE_KIND_RESULT,
                             "tools/call", "4"));

  write_engine_wire (f, engine_path);
  cli_lines = lines_without_times (path);
  engine_lines = lines_without_times (engine_path);
  g_assert_cmpstr (cli_lines, ==, engine_lines);

  /* Before the command, as the other tool-source options may be. */
  run (f, "--wire", path, "list", "--mcp", f->server, NULL);
  g_assert_cmpint (f->status, ==, 0);
  listed = read_wire (path);
  g_assert_true (has_record (listed, TB_MCP_WIRE_DIRECTION_RECEIVED, TB_MCP_WIRE_KIND_RESULT,
                             "tools/list", "3"));

  run (f, "mcp", "call", "--help", NULL);
  g_assert_nonnull (strstr (f->out, "--wire=FILE"));
}

/* A --wire file that cannot be written is a usage error that names it,
 * before any server starts. */
static void
test_wire_unwritable (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *script = mcp_test_fake_server ();
  g_autofree char *marker = g_build_filename (f->dir, "started", NULL);
  g_autofree char *path = g_build_filename (f->dir, "missing", "wire.jsonl", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *server = g_strdup_printf ("fake=/bin/sh -c \"touch %s; exec /usr/bin/python3 "
                                             "%s\"", marker, script);

  if (!run (f, "mcp", "call", "echo", "--wire", path, "--mcp", server, NULL))
    return;
  g_assert_cmpint (f->status, ==, 2);
  expected = g_strdup_printf ("toolbench-cli: Cannot write the protocol log “%s”: No such file "
                              "or directory\n", path);
  g_assert_true (g_str_has_prefix (f->err, expected));
  g_assert_cmpstr (f->out, ==, "");
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));

  g_clear_pointer (&expected, g_free);
  run (f, "run", "--prompt", "hi", "-n", "1", "--wire", f->dir, "--mcp", server, NULL);
  g_assert_cmpint (f->status, ==, 2);
  expected = g_strdup_printf ("toolbench-cli: Cannot write the protocol log “%s”: Is a "
                              "directory\n", f->dir);
  g_assert_true (g_str_has_prefix (f->err, expected));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
}

static gboolean
file_has (gpointer data)
{
  const char * const *what = data;
  g_autofree char *contents = NULL;

  return g_file_get_contents (what[0], &contents, NULL, NULL) && strstr (contents, what[1]);
}

/* A CLI killed in the middle of a call leaves whole lines. */
static void
test_wire_killed (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "killed.jsonl", NULL);
  const char *cli = g_getenv ("TOOLBENCH_CLI");
  const char *wanted[] = { path, "\"method\":\"tools/call\"", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  TbMcpWireRecord *last;

  if (cli == NULL || !g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("needs TOOLBENCH_CLI and /usr/bin/python3");
      return;
    }
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                              G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                              cli, "mcp", "call", "hang", "--wire", path, "--mcp", f->server,
                              NULL);
  g_assert_no_error (error);
  g_assert_true (mcp_test_wait (file_has, wanted, 30000));
  g_subprocess_send_signal (process, SIGKILL);
  g_assert_true (g_subprocess_wait (process, NULL, NULL));

  records = read_wire (path);
  g_assert_cmpuint (records->len, >=, 5);
  last = g_ptr_array_index (records, records->len - 1);
  g_assert_cmpstr (tb_mcp_wire_record_get_method (last), ==, "tools/call");
  g_assert_cmpint (tb_mcp_wire_record_get_direction (last), ==, TB_MCP_WIRE_DIRECTION_SENT);
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
  g_test_add ("/cli/mcp/wire", Fixture, NULL, setup, test_wire, teardown);
  g_test_add ("/cli/mcp/wire-unwritable", Fixture, NULL, setup, test_wire_unwritable, teardown);
  g_test_add ("/cli/mcp/wire-killed", Fixture, NULL, setup, test_wire_killed, teardown);

  return g_test_run ();
}
