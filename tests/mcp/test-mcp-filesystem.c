/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The MCP client against the real @modelcontextprotocol/server-filesystem,
 * beside the built-in file tools whose names it shares. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  TbToolRegistry *registry;
  TbMcpClient    *client;
  char           *dir;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_autofree char *note = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) base = NULL;
  g_auto(GStrv) argv = NULL;

  f->registry = tb_tool_registry_new ();
  f->dir = g_dir_make_tmp ("tb-fs-XXXXXX", NULL);
  note = g_build_filename (f->dir, "note.txt", NULL);
  g_assert_true (g_file_set_contents (note, "hello\n", -1, NULL));

  /* The built-in tools come first and keep their names. */
  g_assert_true (tb_file_tools_register (f->registry, f->dir, &error));
  g_assert_no_error (error);

  base = mcp_test_server_argv ("server-filesystem", "dist/index.js", NULL, &reason);
  if (base == NULL)
    {
      g_test_skip (reason);
      return;
    }
  g_strv_builder_addv (builder, (const char **) base);
  g_strv_builder_add (builder, f->dir);
  argv = g_strv_builder_end (builder);

  f->client = tb_mcp_client_new_stdio ("filesystem", (const char * const *) argv, NULL, NULL);
  tb_mcp_client_attach (f->client, f->registry);
  if (!mcp_test_connect (f->client, &error))
    g_error ("server-filesystem did not start: %s", error->message);
}

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
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
  TbToolRegistry *registry = f->registry;

  if (f->client != NULL)
    {
      TbMcpClient *client = f->client;

      tb_mcp_client_detach (client);
      tb_mcp_client_disconnect (client);
      g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &client);
      g_clear_object (&f->client);
      g_assert_true (mcp_test_wait (pointer_is_null, &client, 5000));
    }
  remove_tree (f->dir);
  g_free (f->dir);
  g_object_add_weak_pointer (G_OBJECT (registry), (gpointer *) &registry);
  g_object_unref (f->registry);
  g_assert_true (mcp_test_wait (pointer_is_null, &registry, 5000));
}

static void
test_names (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TbTool) builtin = NULL;
  g_autoptr(TbTool) remote = NULL;

  if (f->client == NULL)
    return;
  builtin = tb_tool_registry_lookup (f->registry, "read_file");
  g_assert_cmpstr (tb_tool_get_source (builtin), ==, "builtin");
  /* The server's read_file and write_file clash with the built-ins. */
  remote = tb_tool_registry_lookup (f->registry, "filesystem.read_file");
  g_assert_true (TB_IS_MCP_TOOL (remote));
  g_assert_cmpstr (tb_mcp_tool_get_remote_name (TB_MCP_TOOL (remote)), ==, "read_file");
  g_assert_true (tb_tool_registry_contains (f->registry, "filesystem.write_file"));
  g_assert_true (tb_tool_registry_contains (f->registry, "read_text_file"));
  g_assert_true (tb_tool_registry_contains (f->registry, "list_directory"));
  /* The server marks writing destructive: a loop asks a person first. */
  g_assert_true (tb_tool_registry_get_hints (f->registry, "filesystem.write_file", NULL) &
                 TB_TOOL_HINT_DESTRUCTIVE);
  g_assert_true (tb_tool_registry_get_hints (f->registry, "read_text_file", NULL) &
                 TB_TOOL_HINT_READ_ONLY);
}

static void
test_read_inside_and_out (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *inside = NULL;
  g_autoptr(TbToolResult) read = NULL;
  g_autoptr(TbToolResult) outside = NULL;
  g_autofree char *text = NULL;

  if (f->client == NULL)
    return;
  inside = g_strdup_printf ("{\"path\":\"%s/note.txt\"}", f->dir);
  read = mcp_test_call (f->registry, "read_text_file", inside, NULL);
  g_assert_true (tb_tool_result_get_ok (read));
  text = mcp_test_output_text (read);
  g_assert_nonnull (strstr (text, "hello"));

  outside = mcp_test_call (f->registry, "read_text_file", "{\"path\":\"/etc/passwd\"}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (outside), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_nonnull (strstr (tb_tool_result_get_error (outside), "Access denied"));
}

static void
test_write_then_read_builtin (Fixture       *f,
                              gconstpointer  data)
{
  g_autofree char *arguments = NULL;
  g_autoptr(TbToolResult) written = NULL;
  g_autoptr(TbToolResult) read = NULL;

  if (f->client == NULL)
    return;
  arguments = g_strdup_printf ("{\"path\":\"%s/from-server.txt\",\"content\":\"written by the "
                               "server\\n\"}", f->dir);
  written = mcp_test_call (f->registry, "filesystem.write_file", arguments, NULL);
  g_assert_true (tb_tool_result_get_ok (written));

  read = mcp_test_call (f->registry, "read_file", "{\"path\":\"from-server.txt\"}", NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (
                     tb_tool_result_get_output (read)), "content"), ==,
                   "written by the server\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mcp/filesystem/names", Fixture, NULL, setup, test_names, teardown);
  g_test_add ("/mcp/filesystem/read", Fixture, NULL, setup, test_read_inside_and_out, teardown);
  g_test_add ("/mcp/filesystem/write", Fixture, NULL, setup, test_write_then_read_builtin,
              teardown);

  return g_test_run ();
}
