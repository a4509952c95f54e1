/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Promise: a sandboxed file tool cannot reach outside its root — no "..",
 * absolute paths, symbolic or hard links out — and touches only regular
 * files and folders. Attacked through the engine and through
 * `toolbench-cli call --files-root`: a hard link to a file outside, a
 * device node, a FIFO that would block a worker, a reader racing a writer,
 * and the old escapes. Each asserts the sentence a person reads and that
 * the file outside still has its bytes. */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <toolbench.h>

#include "attack-util.h"

#include "../mcp/mcp-test-util.h"

#define SECRET "the outside file's own bytes\n"

typedef struct
{
  TbToolRegistry *registry;
  char           *top;
  char           *root;
  char           *secret;
} Fixture;

static char *
in_root (Fixture    *f,
         const char *name)
{
  return g_build_filename (f->root, name, NULL);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autofree char *outside = NULL;
  g_autofree char *notes = NULL;
  g_autoptr(GError) error = NULL;

  f->top = g_dir_make_tmp ("tb-attack-files-XXXXXX", NULL);
  f->root = g_build_filename (f->top, "root", NULL);
  outside = g_build_filename (f->top, "outside", NULL);
  f->secret = g_build_filename (outside, "secret.txt", NULL);
  g_assert_cmpint (g_mkdir (f->root, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (outside, 0755), ==, 0);
  g_assert_true (g_file_set_contents (f->secret, SECRET, -1, NULL));
  notes = in_root (f, "notes.txt");
  g_assert_true (g_file_set_contents (notes, "inside\n", -1, NULL));

  f->registry = tb_tool_registry_new ();
  tb_tool_registry_set_default_timeout_ms (f->registry, 20000);
  g_assert_true (tb_file_tools_register (f->registry, f->root, &error));
  g_assert_no_error (error);
}

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  TbToolRegistry *registry = f->registry;

  attack_remove_tree (f->top);
  g_free (f->top);
  g_free (f->root);
  g_free (f->secret);
  g_object_add_weak_pointer (G_OBJECT (registry), (gpointer *) &registry);
  g_object_unref (f->registry);
  g_assert_true (mcp_test_wait (pointer_is_null, &registry, 5000));
}

static void
assert_secret_intact (Fixture *f)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (f->secret, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, SECRET);
}

static void
assert_refused (TbToolResult *result,
                const char   *message)
{
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, message);
}

typedef struct
{
  int   status;
  char *out;
  char *err;
} Cli;

static void
cli_clear (Cli *cli)
{
  g_free (cli->out);
  g_free (cli->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Cli, cli_clear)

/* toolbench-cli call --files-root ROOT TOOL --args ARGS; FALSE (test
 * skipped) outside meson test. */
static gboolean
cli_call (Fixture    *f,
          Cli        *cli,
          const char *tool,
          const char *args)
{
  const char *program = g_getenv ("TOOLBENCH_CLI");
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  if (program == NULL)
    {
      g_test_skip ("TOOLBENCH_CLI is not set; run through meson test");
      return FALSE;
    }
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error, program, "call", "--files-root", f->root,
                              "--timeout-ms", "20000", tool, "--args", args, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &cli->out, &cli->err,
                                                &error));
  g_assert_no_error (error);
  cli->status = g_subprocess_get_exit_status (process);
  return TRUE;
}

/* The envelope `call` prints, for a refusal. */
static void
assert_cli_refused (Cli        *cli,
                    const char *message)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *first;

  g_assert_cmpint (cli->status, ==, 1);
  node = tb_json_parse (cli->out, -1, &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (json_node_get_object (node), "ok"));
  first = json_array_get_object_element (json_object_get_array_member (
            json_node_get_object (node), "errors"), 0);
  g_assert_cmpstr (json_object_get_string_member (first, "kind"), ==, "permission-denied");
  g_assert_cmpstr (json_object_get_string_member (first, "message"), ==, message);
}

#define HARD_LINK_REFUSED \
  "“hard.txt” is refused: it is a hard link to a file that may be outside the tool " \
  "folder; Toolbench reads and writes only files with one link"

static void
test_hard_link_out (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *hard = in_root (f, "hard.txt");
  g_autoptr(TbToolResult) read = NULL;
  g_autoptr(TbToolResult) write = NULL;
  g_auto(Cli) cli_read = { 0 };
  g_auto(Cli) cli_write = { 0 };
  GStatBuf st;

  if (link (f->secret, hard) != 0)
    {
      g_test_skip_printf ("cannot make a hard link here: %s", g_strerror (errno));
      return;
    }

  read = mcp_test_call (f->registry, "read_file", "{\"path\":\"hard.txt\"}", NULL);
  assert_refused (read, HARD_LINK_REFUSED);
  write = mcp_test_call (f->registry, "write_file",
                         "{\"path\":\"hard.txt\",\"content\":\"overwritten\"}", NULL);
  assert_refused (write, HARD_LINK_REFUSED);

  if (cli_call (f, &cli_read, "read_file", "{\"path\":\"hard.txt\"}"))
    {
      assert_cli_refused (&cli_read, HARD_LINK_REFUSED);
      g_assert_null (strstr (cli_read.out, "own bytes"));
      g_assert_true (cli_call (f, &cli_write, "write_file",
                               "{\"path\":\"hard.txt\",\"content\":\"overwritten\"}"));
      assert_cli_refused (&cli_write, HARD_LINK_REFUSED);
    }

  /* Nothing moved: the outside file has its bytes and both its names. */
  assert_secret_intact (f);
  g_assert_cmpint (g_stat (f->secret, &st), ==, 0);
  g_assert_cmpuint (st.st_nlink, ==, 2);
}

#define DEVICE_REFUSED \
  "“null” is refused: it is a device node, not a regular file; the file tools read and " \
  "write only regular files"

static void
test_device_node (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *node = in_root (f, "null");
  g_autoptr(TbToolResult) read = NULL;
  g_autoptr(TbToolResult) write = NULL;
  g_auto(Cli) cli = { 0 };
  GStatBuf st;

  if (mknod (node, S_IFCHR | 0666, makedev (1, 3)) != 0)
    {
      g_test_skip_printf ("mknod is not permitted here (%s); the device case needs root",
                          g_strerror (errno));
      return;
    }

  write = mcp_test_call (f->registry, "write_file",
                         "{\"path\":\"null\",\"content\":\"into the device\"}", NULL);
  assert_refused (write, DEVICE_REFUSED);
  read = mcp_test_call (f->registry, "read_file", "{\"path\":\"null\"}", NULL);
  assert_refused (read, DEVICE_REFUSED);
  if (cli_call (f, &cli, "write_file", "{\"path\":\"null\",\"content\":\"x\"}"))
    assert_cli_refused (&cli, DEVICE_REFUSED);

  /* Still the device, not replaced by a file. */
  g_assert_cmpint (g_lstat (node, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
}

#define FIFO_REFUSED \
  "“pipe” is refused: it is a named pipe (FIFO), not a regular file; the file tools read " \
  "and write only regular files"

static void
test_fifo (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *pipe = in_root (f, "pipe");
  g_autoptr(TbToolResult) read = NULL;
  g_autoptr(TbToolResult) write = NULL;
  g_autoptr(TbToolResult) list = NULL;
  g_autoptr(TbToolResult) after = NULL;
  g_auto(Cli) cli = { 0 };
  gint64 start;
  gint64 elapsed;

  g_assert_cmpint (mkfifo (pipe, 0644), ==, 0);

  /* Nobody writes to the FIFO: an open for reading would wait forever. */
  start = g_get_monotonic_time ();
  read = mcp_test_call (f->registry, "read_file", "{\"path\":\"pipe\"}", NULL);
  write = mcp_test_call (f->registry, "write_file",
                         "{\"path\":\"pipe\",\"content\":\"x\"}", NULL);
  list = mcp_test_call (f->registry, "list_dir", "{\"path\":\"pipe\"}", NULL);
  elapsed = g_get_monotonic_time () - start;
  g_test_message ("three calls on a FIFO took %" G_GINT64_FORMAT " µs", elapsed);

  assert_refused (read, FIFO_REFUSED);
  assert_refused (write, FIFO_REFUSED);
  g_assert_false (tb_tool_result_get_ok (list));
  g_assert_cmpstr (tb_tool_result_get_error (list), ==, "“pipe”: Not a directory");
  /* The limit is 20 s; a refusal takes no time. */
  g_assert_cmpint (elapsed, <, G_USEC_PER_SEC);

  /* No worker is left blocked: the tools still answer. */
  after = mcp_test_call (f->registry, "read_file", "{\"path\":\"notes.txt\"}", NULL);
  g_assert_true (tb_tool_result_get_ok (after));

  start = g_get_monotonic_time ();
  if (cli_call (f, &cli, "read_file", "{\"path\":\"pipe\"}"))
    {
      assert_cli_refused (&cli, FIFO_REFUSED);
      g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
    }
}

/* A reader in another thread reads the file while it is rewritten: it must
 * only ever see one whole version. */
#define VERSION_SIZE (256 * 1024)

typedef struct
{
  char     *path;
  gint      stop;
  guint     reads;
  guint     torn;
} Reader;

static gpointer
reader_thread (gpointer data)
{
  Reader *reader = data;

  while (!g_atomic_int_get (&reader->stop))
    {
      g_autofree char *contents = NULL;
      gsize length;

      if (!g_file_get_contents (reader->path, &contents, &length, NULL))
        {
          reader->torn++;
          continue;
        }
      reader->reads++;
      if (length != VERSION_SIZE ||
          strspn (contents, contents[0] == 'a' ? "a" : "b") != VERSION_SIZE)
        reader->torn++;
    }
  return NULL;
}

static void
test_write_replaces (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *a = g_strnfill (VERSION_SIZE, 'a');
  g_autofree char *b = g_strnfill (VERSION_SIZE, 'b');
  g_autofree char *path = in_root (f, "big.txt");
  Reader reader = { 0 };
  GThread *thread;
  GStatBuf st;
  guint entries = 0;
  g_autoptr(GDir) dir = NULL;

  g_assert_true (g_file_set_contents (path, a, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  reader.path = path;
  thread = g_thread_new ("reader", reader_thread, &reader);

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *args = g_strdup_printf ("{\"path\":\"big.txt\",\"content\":\"%s\"}",
                                               i % 2 == 0 ? b : a);
      g_autoptr(TbToolResult) result = mcp_test_call (f->registry, "write_file", args, NULL);

      g_assert_true (tb_tool_result_get_ok (result));
    }
  g_atomic_int_set (&reader.stop, 1);
  g_thread_join (thread);

  g_test_message ("%u reads during 40 writes, %u torn", reader.reads, reader.torn);
  g_assert_cmpuint (reader.reads, >, 0);
  g_assert_cmpuint (reader.torn, ==, 0);

  /* The permission bits stay, and no temporary file is left beside it. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  dir = g_dir_open (f->root, 0, NULL);
  while (g_dir_read_name (dir) != NULL)
    entries++;
  g_assert_cmpuint (entries, ==, 2);
}

/* The escapes that were refused before still are, word for word. */
static void
test_old_escapes (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *link = in_root (f, "secret-link");
  g_autofree char *dir_link = in_root (f, "escape");
  g_autofree char *outside = g_path_get_dirname (f->secret);
  g_autofree char *absolute = g_strdup_printf ("{\"path\":\"%s\"}", f->secret);
  g_autofree char *absolute_message = NULL;
  g_autofree char *dot_dot_message = NULL;
  g_autoptr(TbToolResult) through_link = NULL;
  g_autoptr(TbToolResult) write_link = NULL;
  g_autoptr(TbToolResult) planted = NULL;
  g_auto(Cli) dot_dot = { 0 };
  g_auto(Cli) abs_path = { 0 };
  g_autofree char *planted_path = g_build_filename (outside, "planted.txt", NULL);
  char real_root[4096];

  g_assert_cmpint (symlink (f->secret, link), ==, 0);
  g_assert_cmpint (symlink ("../outside", dir_link), ==, 0);
  g_assert_nonnull (realpath (f->root, real_root));

  through_link = mcp_test_call (f->registry, "read_file", "{\"path\":\"secret-link\"}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (through_link), ==,
                   TB_TOOL_FAILURE_PERMISSION_DENIED);
  g_assert_nonnull (strstr (tb_tool_result_get_error (through_link),
                            "outside the tool folder"));
  write_link = mcp_test_call (f->registry, "write_file",
                              "{\"path\":\"secret-link\",\"content\":\"x\"}", NULL);
  assert_refused (write_link,
                  "“secret-link” is refused: it is a symbolic link, or goes through a loop "
                  "of them");
  planted = mcp_test_call (f->registry, "write_file",
                           "{\"path\":\"escape/planted.txt\",\"content\":\"x\"}", NULL);
  assert_refused (planted, "“escape/planted.txt” is refused: it leads outside the tool "
                           "folder through a symbolic link");
  g_assert_false (g_file_test (planted_path, G_FILE_TEST_EXISTS));

  dot_dot_message = g_strdup_printf ("“../outside/secret.txt” is refused: “..” is not "
                                     "allowed; the file tools only reach inside %s", real_root);
  absolute_message = g_strdup_printf ("“%s” is refused: absolute paths are not allowed; give "
                                      "a path relative to the tool folder %s", f->secret,
                                      real_root);
  if (cli_call (f, &dot_dot, "read_file", "{\"path\":\"../outside/secret.txt\"}"))
    {
      assert_cli_refused (&dot_dot, dot_dot_message);
      g_assert_true (cli_call (f, &abs_path, "read_file", absolute));
      assert_cli_refused (&abs_path, absolute_message);
    }
  assert_secret_intact (f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/attack/file-tools/hard-link-out", Fixture, NULL, setup, test_hard_link_out,
              teardown);
  g_test_add ("/attack/file-tools/device-node", Fixture, NULL, setup, test_device_node,
              teardown);
  g_test_add ("/attack/file-tools/fifo", Fixture, NULL, setup, test_fifo, teardown);
  g_test_add ("/attack/file-tools/write-replaces", Fixture, NULL, setup, test_write_replaces,
              teardown);
  g_test_add ("/attack/file-tools/old-escapes", Fixture, NULL, setup, test_old_escapes,
              teardown);

  return g_test_run ();
}
