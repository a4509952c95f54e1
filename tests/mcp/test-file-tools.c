/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The sandboxed file tools: what they do inside their root, and that
 * nothing outside it is reachable. meson runs this program twice: with the
 * kernel's openat2(RESOLVE_BENEATH), and with --fallback, which sets
 * TOOLBENCH_FILE_TOOLS_NO_OPENAT2 (before any thread exists) so that the
 * tools take the realpath + O_NOFOLLOW path. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  TbToolRegistry *registry;
  char           *top;
  char           *root;
  char           *outside;
} Fixture;

static void
put (const char *dir,
     const char *name,
     const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

static void
link_to (const char *target,
         const char *dir,
         const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (symlink (target, path), ==, 0);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sub = NULL;

  f->top = g_dir_make_tmp ("tb-files-XXXXXX", NULL);
  f->root = g_build_filename (f->top, "root", NULL);
  f->outside = g_build_filename (f->top, "outside", NULL);
  sub = g_build_filename (f->root, "sub", NULL);
  g_assert_cmpint (g_mkdir (f->root, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (f->outside, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);

  put (f->root, "notes.txt", "one\ntwo\nthree\nfour\nfive\n");
  put (sub, "inner.txt", "inside\n");
  put (f->outside, "secret.txt", "do not read\n");
  {
    g_autofree char *path = g_build_filename (f->root, "blob.bin", NULL);

    g_assert_true (g_file_set_contents (path, "\xff\xfe\x00\x01", 4, NULL));
  }
  link_to ("../outside", f->root, "escape");
  link_to ("../outside/secret.txt", f->root, "secret-link");
  link_to (f->outside, f->root, "absolute-escape");
  link_to ("sub", f->root, "inner-link");
  link_to ("loop-b", f->root, "loop-a");
  link_to ("loop-a", f->root, "loop-b");

  f->registry = tb_tool_registry_new ();
  g_assert_true (tb_file_tools_register (f->registry, f->root, &error));
  g_assert_no_error (error);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (!g_file_test (child, G_FILE_TEST_IS_SYMLINK) && g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
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

  remove_tree (f->top);
  g_free (f->top);
  g_free (f->root);
  g_free (f->outside);
  g_object_add_weak_pointer (G_OBJECT (registry), (gpointer *) &registry);
  g_object_unref (f->registry);
  g_assert_true (mcp_test_wait (pointer_is_null, &registry, 5000));
}

static TbToolResult *
call (Fixture    *f,
      const char *tool,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static TbToolResult *
call (Fixture    *f,
      const char *tool,
      const char *format,
      ...)
{
  g_autofree char *arguments = NULL;
  va_list args;

  va_start (args, format);
  arguments = g_strdup_vprintf (format, args);
  va_end (args);
  return mcp_test_call (f->registry, tool, arguments, NULL);
}

static void
assert_refused (TbToolResult *result,
                const char   *fragment)
{
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
  if (strstr (tb_tool_result_get_error (result), fragment) == NULL)
    g_error ("“%s” does not say “%s”", tb_tool_result_get_error (result), fragment);
}

static void
test_read (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(TbToolResult) whole = call (f, "read_file", "{\"path\":\"notes.txt\"}");
  g_autoptr(TbToolResult) part = call (f, "read_file",
                                       "{\"path\":\"notes.txt\",\"start_line\":2,\"end_line\":3}");
  g_autoptr(TbToolResult) inner = call (f, "read_file", "{\"path\":\"inner-link/inner.txt\"}");
  g_autoptr(TbToolResult) blob = call (f, "read_file", "{\"path\":\"blob.bin\"}");
  g_autoptr(TbToolResult) missing = call (f, "read_file", "{\"path\":\"nope.txt\"}");
  JsonObject *output;

  g_assert_true (tb_tool_result_get_ok (whole));
  output = json_node_get_object (tb_tool_result_get_output (whole));
  g_assert_cmpstr (json_object_get_string_member (output, "content"), ==,
                   "one\ntwo\nthree\nfour\nfive\n");
  g_assert_cmpint (json_object_get_int_member (output, "total_lines"), ==, 5);

  output = json_node_get_object (tb_tool_result_get_output (part));
  g_assert_cmpstr (json_object_get_string_member (output, "content"), ==, "two\nthree\n");
  g_assert_cmpint (json_object_get_int_member (output, "end_line"), ==, 3);

  /* A link that stays inside the root is followed. */
  g_assert_true (tb_tool_result_get_ok (inner));
  output = json_node_get_object (tb_tool_result_get_output (inner));
  g_assert_cmpstr (json_object_get_string_member (output, "content"), ==, "inside\n");

  g_assert_cmpstr (tb_tool_result_get_error (blob), ==,
                   "“blob.bin” is not a text file (it is not valid UTF-8)");
  g_assert_nonnull (strstr (tb_tool_result_get_error (missing), "“nope.txt”: "));
}

static void
test_write_and_list (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbToolResult) written = call (f, "write_file",
                                          "{\"path\":\"sub/new.txt\",\"content\":\"fresh\\n\"}");
  g_autoptr(TbToolResult) back = call (f, "read_file", "{\"path\":\"sub/new.txt\"}");
  g_autoptr(TbToolResult) no_dir = call (f, "write_file",
                                         "{\"path\":\"nodir/x.txt\",\"content\":\"x\"}");
  g_autoptr(TbToolResult) listed = call (f, "list_dir", "{}");
  g_autoptr(TbToolResult) listed_sub = call (f, "list_dir", "{\"path\":\"sub\"}");
  JsonArray *entries;
  JsonObject *first;

  /* Writing replaces files: a loop asks a person first; reading does not. */
  g_assert_true (tb_tool_registry_get_hints (f->registry, "write_file", NULL) &
                 TB_TOOL_HINT_DESTRUCTIVE);
  g_assert_true (tb_tool_registry_get_hints (f->registry, "read_file", NULL) &
                 TB_TOOL_HINT_READ_ONLY);
  g_assert_true (tb_tool_registry_get_hints (f->registry, "list_dir", NULL) &
                 TB_TOOL_HINT_READ_ONLY);

  g_assert_true (tb_tool_result_get_ok (written));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (
                     tb_tool_result_get_output (written)), "bytes"), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (
                     tb_tool_result_get_output (back)), "content"), ==, "fresh\n");
  g_assert_false (tb_tool_result_get_ok (no_dir));
  g_assert_nonnull (strstr (tb_tool_result_get_error (no_dir), "No such file or directory"));

  entries = json_object_get_array_member (json_node_get_object (
              tb_tool_result_get_output (listed)), "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 9);
  first = json_array_get_object_element (entries, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "absolute-escape");
  g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "symlink");
  first = json_array_get_object_element (entries, 6);
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "notes.txt");
  g_assert_cmpint (json_object_get_int_member (first, "size"), ==, 24);

  entries = json_object_get_array_member (json_node_get_object (
              tb_tool_result_get_output (listed_sub)), "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 2);
}

static void
test_dot_dot (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbToolResult) read = call (f, "read_file", "{\"path\":\"../outside/secret.txt\"}");
  g_autoptr(TbToolResult) hidden = call (f, "read_file", "{\"path\":\"sub/../../outside/x\"}");
  g_autoptr(TbToolResult) write = call (f, "write_file",
                                        "{\"path\":\"../outside/new.txt\",\"content\":\"x\"}");
  g_autoptr(TbToolResult) list = call (f, "list_dir", "{\"path\":\"..\"}");
  g_autofree char *not_created = g_build_filename (f->outside, "new.txt", NULL);

  assert_refused (read, "“..” is not allowed");
  assert_refused (hidden, "“..” is not allowed");
  assert_refused (write, "“..” is not allowed");
  assert_refused (list, "“..” is not allowed");
  g_assert_false (g_file_test (not_created, G_FILE_TEST_EXISTS));
}

static void
test_absolute (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbToolResult) read = call (f, "read_file", "{\"path\":\"/etc/passwd\"}");
  g_autoptr(TbToolResult) list = call (f, "list_dir", "{\"path\":\"/\"}");
  g_autoptr(TbToolResult) empty = call (f, "read_file", "{\"path\":\"\"}");

  assert_refused (read, "absolute paths are not allowed");
  assert_refused (list, "absolute paths are not allowed");
  assert_refused (empty, "give a path relative to the tool folder");
}

static void
test_symlink_out (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbToolResult) through_dir = call (f, "read_file",
                                              "{\"path\":\"escape/secret.txt\"}");
  g_autoptr(TbToolResult) file_link = call (f, "read_file", "{\"path\":\"secret-link\"}");
  g_autoptr(TbToolResult) absolute = call (f, "read_file",
                                           "{\"path\":\"absolute-escape/secret.txt\"}");
  g_autoptr(TbToolResult) list = call (f, "list_dir", "{\"path\":\"escape\"}");
  g_autoptr(TbToolResult) write_dir = call (f, "write_file",
                                            "{\"path\":\"escape/planted.txt\",\"content\":\"x\"}");
  g_autoptr(TbToolResult) write_link = call (f, "write_file",
                                             "{\"path\":\"secret-link\",\"content\":\"gone\"}");
  g_autofree char *secret = g_build_filename (f->outside, "secret.txt", NULL);
  g_autofree char *planted = g_build_filename (f->outside, "planted.txt", NULL);
  g_autofree char *contents = NULL;

  assert_refused (through_dir, "outside the tool folder");
  assert_refused (file_link, "outside the tool folder");
  assert_refused (absolute, "outside the tool folder");
  assert_refused (list, "outside the tool folder");
  g_assert_cmpint (tb_tool_result_get_kind (write_dir), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
  /* Never written through a link (O_NOFOLLOW). */
  g_assert_cmpint (tb_tool_result_get_kind (write_link), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
  g_assert_false (g_file_test (planted, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (secret, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "do not read\n");
}

static void
test_symlink_loop (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbToolResult) read = call (f, "read_file", "{\"path\":\"loop-a\"}");
  g_autoptr(TbToolResult) list = call (f, "list_dir", "{\"path\":\"loop-b\"}");

  assert_refused (read, "loop");
  assert_refused (list, "loop");
}

static void
test_long_names (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *name = g_strnfill (300, 'n');
  g_autofree char *long_path = NULL;
  g_autoptr(TbToolResult) long_name = NULL;
  g_autoptr(TbToolResult) very_long = NULL;
  GString *path = g_string_new (NULL);

  long_name = call (f, "write_file", "{\"path\":\"%s\",\"content\":\"x\"}", name);
  assert_refused (long_name, "longer than 255 bytes");

  while (path->len < 5000)
    g_string_append (path, "abcdefgh/");
  long_path = g_string_free (path, FALSE);
  very_long = call (f, "read_file", "{\"path\":\"%s\"}", long_path);
  assert_refused (very_long, "longer than 4096 bytes");
}

/* Only regular files with one link; writes replace the file. */
static void
test_special_files (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *secret = g_build_filename (f->outside, "secret.txt", NULL);
  g_autofree char *hard = g_build_filename (f->root, "hard.txt", NULL);
  g_autofree char *pipe = g_build_filename (f->root, "pipe", NULL);
  g_autofree char *notes = g_build_filename (f->root, "notes.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(TbToolResult) read_hard = NULL;
  g_autoptr(TbToolResult) write_hard = NULL;
  g_autoptr(TbToolResult) read_pipe = NULL;
  g_autoptr(TbToolResult) write_pipe = NULL;
  g_autoptr(TbToolResult) rewrite = NULL;
  g_autoptr(TbToolResult) folder = NULL;
  GStatBuf before;
  GStatBuf after;

  g_assert_cmpint (link (secret, hard), ==, 0);
  g_assert_cmpint (mkfifo (pipe, 0644), ==, 0);

  read_hard = call (f, "read_file", "{\"path\":\"hard.txt\"}");
  write_hard = call (f, "write_file", "{\"path\":\"hard.txt\",\"content\":\"x\"}");
  assert_refused (read_hard, "Toolbench reads and writes only files with one link");
  assert_refused (write_hard, "Toolbench reads and writes only files with one link");
  g_assert_true (g_file_get_contents (secret, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "do not read\n");

  read_pipe = call (f, "read_file", "{\"path\":\"pipe\"}");
  write_pipe = call (f, "write_file", "{\"path\":\"pipe\",\"content\":\"x\"}");
  assert_refused (read_pipe, "it is a named pipe (FIFO), not a regular file");
  assert_refused (write_pipe, "it is a named pipe (FIFO), not a regular file");

  /* A new file takes the old one's place. */
  g_assert_cmpint (g_stat (notes, &before), ==, 0);
  rewrite = call (f, "write_file", "{\"path\":\"notes.txt\",\"content\":\"new\\n\"}");
  g_assert_true (tb_tool_result_get_ok (rewrite));
  g_assert_cmpint (g_stat (notes, &after), ==, 0);
  g_assert_cmpuint (before.st_ino, !=, after.st_ino);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (notes, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "new\n");

  folder = call (f, "write_file", "{\"path\":\"sub/\",\"content\":\"x\"}");
  assert_refused (folder, "give the path of a file, not of a folder");
}

int
main (int   argc,
      char *argv[])
{
  const char *v = argc > 1 && g_str_equal (argv[1], "--fallback") ? "fallback" : "openat2";
  g_autofree char *read = g_strdup_printf ("/file-tools/%s/read", v);
  g_autofree char *write = g_strdup_printf ("/file-tools/%s/write-and-list", v);
  g_autofree char *dot_dot = g_strdup_printf ("/file-tools/%s/dot-dot", v);
  g_autofree char *absolute = g_strdup_printf ("/file-tools/%s/absolute", v);
  g_autofree char *out = g_strdup_printf ("/file-tools/%s/symlink-out", v);
  g_autofree char *loop = g_strdup_printf ("/file-tools/%s/symlink-loop", v);
  g_autofree char *names = g_strdup_printf ("/file-tools/%s/long-names", v);
  g_autofree char *special = g_strdup_printf ("/file-tools/%s/special-files", v);

  if (g_str_equal (v, "fallback"))
    {
      g_setenv ("TOOLBENCH_FILE_TOOLS_NO_OPENAT2", "1", TRUE);
      argv[1] = argv[0];
      argc--;
      argv++;
    }
  g_test_init (&argc, &argv, NULL);

  g_test_add (read, Fixture, NULL, setup, test_read, teardown);
  g_test_add (write, Fixture, NULL, setup, test_write_and_list, teardown);
  g_test_add (dot_dot, Fixture, NULL, setup, test_dot_dot, teardown);
  g_test_add (absolute, Fixture, NULL, setup, test_absolute, teardown);
  g_test_add (out, Fixture, NULL, setup, test_symlink_out, teardown);
  g_test_add (loop, Fixture, NULL, setup, test_symlink_loop, teardown);
  g_test_add (names, Fixture, NULL, setup, test_long_names, teardown);
  g_test_add (special, Fixture, NULL, setup, test_special_files, teardown);

  return g_test_run ();
}
