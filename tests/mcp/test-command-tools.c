/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Command tools from JSON manifests: arguments on stdin, the result on
 * stdout, stderr and exit status as failures, no shell. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

typedef struct
{
  TbToolRegistry *registry;
  char           *dir;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->registry = tb_tool_registry_new ();
  f->dir = g_dir_make_tmp ("tb-manifests-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
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

  remove_tree (f->dir);
  g_free (f->dir);
  /* A call stopped at its time limit finishes once its command is reaped. */
  g_object_add_weak_pointer (G_OBJECT (registry), (gpointer *) &registry);
  g_object_unref (f->registry);
  g_assert_true (mcp_test_wait (pointer_is_null, &registry, 5000));
}

static void
write_file (Fixture    *f,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

static void
load (Fixture *f,
      guint    expected)
{
  g_auto(GStrv) problems = NULL;
  g_autoptr(GError) error = NULL;
  guint loaded = tb_command_tools_load_dir (f->registry, f->dir, &problems, &error);

  g_assert_no_error (error);
  for (guint i = 0; problems[i] != NULL; i++)
    g_test_message ("problem: %s", problems[i]);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_cmpuint (loaded, ==, expected);
}

static void
test_json_and_text (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TbToolResult) json = NULL;
  g_autoptr(TbToolResult) text = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autofree char *source = NULL;
  g_autofree char *real_dir = g_canonicalize_filename (f->dir, NULL);

  write_file (f, "cat.json",
              "{\"name\":\"cat\",\"description\":\"Gives back its arguments\","
              "\"parameters\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}},"
              "\"command\":[\"/bin/cat\"]}");
  write_file (f, "hello.json",
              "{\"name\":\"hello\",\"title\":\"Hello\",\"command\":[\"/bin/echo\",\"hello world\"],"
              "\"annotations\":{\"readOnlyHint\":true,\"openWorldHint\":false}}");
  load (f, 2);

  tool = tb_tool_registry_lookup (f->registry, "cat");
  source = g_strdup_printf ("manifest:%s/cat.json", real_dir);
  g_assert_cmpstr (tb_tool_get_source (tool), ==, source);
  /* A manifest says what its tool does as MCP servers do. */
  g_assert_cmpint (tb_tool_get_hints (tool), ==, TB_TOOL_HINT_NONE);
  g_assert_null (tb_tool_get_title (tool));
  g_clear_object (&tool);
  tool = tb_tool_registry_lookup (f->registry, "hello");
  g_assert_cmpint (tb_tool_get_hints (tool), ==, TB_TOOL_HINT_READ_ONLY);
  g_assert_cmpstr (tb_tool_get_title (tool), ==, "Hello");

  json = mcp_test_call (f->registry, "cat", "{\"n\":42}", NULL);
  g_assert_true (tb_tool_result_get_ok (json));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (
                     tb_tool_result_get_output (json)), "n"), ==, 42);

  text = mcp_test_call (f->registry, "hello", NULL, NULL);
  g_assert_true (tb_tool_result_get_ok (text));
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (text)), ==, "hello world");
}

static void
test_no_shell (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;

  write_file (f, "literal.json",
              "{\"name\":\"literal\",\"command\":[\"/bin/echo\",\"$HOME; echo injected\"]}");
  load (f, 1);
  result = mcp_test_call (f->registry, "literal", NULL, NULL);
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (result)), ==,
                   "$HOME; echo injected");
}

static void
test_failures (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TbToolResult) status = NULL;
  g_autoptr(TbToolResult) warned = NULL;
  g_autoptr(TbToolResult) silent = NULL;
  g_autoptr(TbToolResult) bytes = NULL;
  g_autoptr(TbToolResult) missing = NULL;

  write_file (f, "a.json", "{\"name\":\"exit4\","
              "\"command\":[\"/bin/sh\",\"-c\",\"echo oops >&2; exit 4\"]}");
  write_file (f, "b.json", "{\"name\":\"warns\","
              "\"command\":[\"/bin/sh\",\"-c\",\"echo careful >&2; echo fine\"]}");
  write_file (f, "c.json", "{\"name\":\"silent\",\"command\":[\"/bin/sh\",\"-c\",\"exit 2\"]}");
  write_file (f, "d.json", "{\"name\":\"bytes\","
              "\"command\":[\"/bin/sh\",\"-c\",\"printf 'bad \\\\377\\\\376 end' >&2; exit 1\"]}");
  write_file (f, "e.json", "{\"name\":\"missing\",\"command\":[\"/nonexistent/tool\"]}");
  load (f, 5);

  status = mcp_test_call (f->registry, "exit4", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (status), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_cmpstr (tb_tool_result_get_error (status), ==, "oops");
  g_assert_cmpint (json_object_get_int_member (tb_tool_result_get_metadata (status),
                                               "exit-status"), ==, 4);

  warned = mcp_test_call (f->registry, "warns", NULL, NULL);
  g_assert_cmpstr (tb_tool_result_get_error (warned), ==, "careful");

  silent = mcp_test_call (f->registry, "silent", NULL, NULL);
  g_assert_cmpstr (tb_tool_result_get_error (silent), ==,
                   "The command of “silent” exited with status 2");

  bytes = mcp_test_call (f->registry, "bytes", NULL, NULL);
  g_assert_true (g_utf8_validate (tb_tool_result_get_error (bytes), -1, NULL));
  g_assert_true (g_str_has_prefix (tb_tool_result_get_error (bytes), "bad "));
  g_assert_true (g_str_has_suffix (tb_tool_result_get_error (bytes), " end"));

  missing = mcp_test_call (f->registry, "missing", NULL, NULL);
  g_assert_nonnull (strstr (tb_tool_result_get_error (missing),
                            "The command of “missing” could not be started (/nonexistent/tool)"));
}

static void
test_timeout (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  gint64 start = g_get_monotonic_time ();

  write_file (f, "slow.json",
              "{\"name\":\"slow\",\"command\":[\"/bin/sleep\",\"20\"],\"timeout-ms\":300}");
  load (f, 1);
  result = mcp_test_call (f->registry, "slow", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_env_cwd_relative (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) script = NULL;
  g_autofree char *sub = g_build_filename (f->dir, "sub", NULL);
  g_autofree char *tool_path = g_build_filename (f->dir, "tool.sh", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *real_sub = NULL;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  real_sub = g_canonicalize_filename (sub, NULL);
  write_file (f, "env.json", "{\"name\":\"env\","
              "\"command\":[\"/bin/sh\",\"-c\",\"echo $FOO; pwd\"],"
              "\"env\":{\"FOO\":\"bar\"},\"cwd\":\"sub\"}");
  write_file (f, "tool.sh", "#!/bin/sh\nread line\necho \"got $line\"\n");
  g_assert_cmpint (g_chmod (tool_path, 0755), ==, 0);
  write_file (f, "script.json", "{\"name\":\"script\",\"command\":[\"./tool.sh\"]}");
  load (f, 2);

  result = mcp_test_call (f->registry, "env", NULL, NULL);
  expected = g_strdup_printf ("bar\n%s", real_sub);
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (result)), ==, expected);

  script = mcp_test_call (f->registry, "script", "{\"x\":1}", NULL);
  g_assert_cmpstr (json_node_get_string (tb_tool_result_get_output (script)), ==,
                   "got {\"x\":1}");
}

static void
test_too_much_output (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;

  write_file (f, "flood.json", "{\"name\":\"flood\","
              "\"command\":[\"/bin/sh\",\"-c\",\"head -c 20000000 /dev/zero\"]}");
  load (f, 1);
  result = mcp_test_call (f->registry, "flood", NULL, NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The command of “flood” printed more than 16.0\302\240MiB and was stopped");
}

static void
test_broken_folder (Fixture       *f,
                    gconstpointer  data)
{
  g_auto(GStrv) problems = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *deep = NULL;
  g_autofree char *real_dir = g_canonicalize_filename (f->dir, NULL);
  g_autofree char *expected = NULL;
  guint loaded;

  deep = g_strconcat ("{\"name\":\"deep\",\"command\":[\"x\"],\"parameters\":",
                      "{\"a\":", NULL);
  for (guint i = 0; i < 600; i++)
    {
      char *longer = g_strconcat (deep, "[", NULL);

      g_free (deep);
      deep = longer;
    }

  write_file (f, "1-good.json", "{\"name\":\"good\",\"command\":[\"/bin/true\"]}");
  write_file (f, "2-syntax.json", "{\"name\":");
  write_file (f, "3-array.json", "[1, 2]");
  write_file (f, "4-no-command.json", "{\"name\":\"nocommand\"}");
  write_file (f, "5-bad-name.json", "{\"name\":\"bad name\",\"command\":[\"/bin/true\"]}");
  write_file (f, "6-dup.json", "{\"name\":\"good\",\"command\":[\"/bin/true\"]}");
  write_file (f, "7-deep.json", deep);
  write_file (f, "8-timeout.json", "{\"name\":\"t\",\"command\":[\"x\"],\"timeout-ms\":-5}");
  write_file (f, "9-params.json", "{\"name\":\"p\",\"command\":[\"x\"],\"parameters\":[]}");
  write_file (f, "notes.txt", "not a manifest");

  loaded = tb_command_tools_load_dir (f->registry, f->dir, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loaded, ==, 1);
  g_assert_true (tb_tool_registry_contains (f->registry, "good"));
  g_assert_cmpuint (g_strv_length (problems), ==, 8);

  expected = g_strdup_printf ("manifest:%s/3-array.json: a manifest must be a JSON object",
                              real_dir);
  g_assert_cmpstr (problems[1], ==, expected);
  g_free (expected);
  expected = g_strdup_printf ("manifest:%s/4-no-command.json: “command” must be a non-empty "
                              "array of strings (an argv)", real_dir);
  g_assert_cmpstr (problems[2], ==, expected);
  g_assert_nonnull (strstr (problems[0], "2-syntax.json: "));
  g_assert_nonnull (strstr (problems[3], "has a character that is not allowed"));
  g_assert_nonnull (strstr (problems[4], "6-dup.json: A tool named “good” is already "
                                         "registered"));
  g_assert_nonnull (strstr (problems[5], "7-deep.json: "));
  g_assert_nonnull (strstr (problems[6], "“timeout-ms” must be a positive whole number"));
  g_assert_nonnull (strstr (problems[7], "“parameters” must be a JSON Schema object"));

  /* A folder that is not there is an error of its own. */
  g_clear_pointer (&problems, g_strfreev);
  g_assert_cmpuint (tb_command_tools_load_dir (f->registry, "/nonexistent/tools", &problems,
                                               &error), ==, 0);
  g_assert_error (error, TB_MANIFEST_ERROR, TB_MANIFEST_ERROR_READ);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/command-tools/json-and-text", Fixture, NULL, setup, test_json_and_text, teardown);
  g_test_add ("/command-tools/no-shell", Fixture, NULL, setup, test_no_shell, teardown);
  g_test_add ("/command-tools/failures", Fixture, NULL, setup, test_failures, teardown);
  g_test_add ("/command-tools/timeout", Fixture, NULL, setup, test_timeout, teardown);
  g_test_add ("/command-tools/env-cwd-relative", Fixture, NULL, setup, test_env_cwd_relative,
              teardown);
  g_test_add ("/command-tools/too-much-output", Fixture, NULL, setup, test_too_much_output,
              teardown);
  g_test_add ("/command-tools/broken-folder", Fixture, NULL, setup, test_broken_folder, teardown);

  return g_test_run ();
}
