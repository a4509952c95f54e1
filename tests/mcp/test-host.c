/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>

/* Inside a Flatpak, command tools run on the host through flatpak-spawn.
 * A stand-in flatpak-spawn on PATH and a stand-in marker file let the test
 * take that path for real: the command must arrive through flatpak-spawn,
 * with its folder and environment passed as options. */

static const char *fake_spawn =
  "#!/bin/sh\n"
  "[ \"$1\" = --host ] || { echo 'not --host' >&2; exit 9; }\n"
  "shift\n"
  "while [ $# -gt 0 ]; do\n"
  "  case \"$1\" in\n"
  "    --watch-bus) ;;\n"
  "    --directory=*) cd \"${1#--directory=}\" || exit 8 ;;\n"
  "    --env=*) export \"${1#--env=}\" ;;\n"
  "    *) break ;;\n"
  "  esac\n"
  "  shift\n"
  "done\n"
  "export THROUGH_FLATPAK_SPAWN=yes\n"
  "exec \"$@\"\n";

static void
test_wrap_argv (void)
{
  const char *argv[] = { "python3", "tool.py", "--fast", NULL };
  const char *env[] = { "A=1", "B=two words", NULL };
  const char *already[] = { "flatpak-spawn", "--host", "ls", NULL };
  g_auto(GStrv) wrapped = tb_host_wrap_argv (argv, "/srv/tools", env);
  g_auto(GStrv) same = tb_host_wrap_argv (already, NULL, NULL);
  g_auto(GStrv) bare = tb_host_wrap_argv (argv, NULL, NULL);

  g_assert_cmpstrv (wrapped, ((const char *[]) { "flatpak-spawn", "--host", "--watch-bus",
                                                 "--directory=/srv/tools", "--env=A=1",
                                                 "--env=B=two words", "python3", "tool.py",
                                                 "--fast", NULL }));
  g_assert_cmpstrv (same, already);
  g_assert_cmpstrv (bare, ((const char *[]) { "flatpak-spawn", "--host", "--watch-bus",
                                              "python3", "tool.py", "--fast", NULL }));
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(TbToolResult **) user_data = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object), result);
}

static void
test_command_tool_through_host (void)
{
  g_autofree char *dir = g_dir_make_tmp ("toolbench-host-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *spawn = g_build_filename (bin, "flatpak-spawn", NULL);
  g_autofree char *marker = g_build_filename (dir, "flatpak-info", NULL);
  g_autofree char *work = g_build_filename (dir, "work", NULL);
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  g_autofree char *manifest_text = NULL;
  g_autoptr(JsonNode) manifest = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(GError) error = NULL;
  TbToolResult *result = NULL;
  JsonObject *output;

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (work, 0755), ==, 0);
  g_assert_true (g_file_set_contents (spawn, fake_spawn, -1, NULL));
  g_assert_cmpint (g_chmod (spawn, 0755), ==, 0);
  g_assert_true (g_file_set_contents (marker, "[Application]\n", -1, NULL));

  manifest_text = g_strdup_printf (
    "{\"name\": \"where\", \"description\": \"Says where it runs.\","
    " \"parameters\": {\"type\": \"object\"},"
    " \"command\": [\"sh\", \"-c\", \"cat >/dev/null; printf '{\\\"cwd\\\":\\\"%%s\\\","
    "\\\"greeting\\\":\\\"%%s\\\",\\\"spawned\\\":\\\"%%s\\\"}' \\\"$(pwd)\\\" "
    "\\\"$GREETING\\\" \\\"$THROUGH_FLATPAK_SPAWN\\\"\"],"
    " \"cwd\": \"%s\", \"env\": {\"GREETING\": \"hello host\"}}", work);
  manifest = tb_json_parse (manifest_text, -1, &error);
  g_assert_no_error (error);
  tool = tb_command_tool_new_from_json (manifest, dir, "manifest:test", &error);
  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (registry, tool, NULL));

  g_setenv ("TOOLBENCH_FLATPAK_INFO", marker, TRUE);
  g_setenv ("PATH", path, TRUE);
  g_assert_true (tb_host_in_flatpak ());

  tb_tool_registry_call_async (registry, "where", NULL, NULL, NULL, NULL, call_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_unsetenv ("TOOLBENCH_FLATPAK_INFO");

  g_assert_true (tb_tool_result_get_ok (result));
  output = json_node_get_object (tb_tool_result_get_output (result));
  g_assert_cmpstr (tb_json_object_get_string (output, "spawned"), ==, "yes");
  g_assert_cmpstr (tb_json_object_get_string (output, "greeting"), ==, "hello host");
  g_assert_cmpstr (tb_json_object_get_string (output, "cwd"), ==, work);
  g_object_unref (result);

  g_unlink (spawn);
  g_unlink (marker);
  g_rmdir (bin);
  g_rmdir (work);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/host/wrap-argv", test_wrap_argv);
  g_test_add_func ("/host/command-tool-through-host", test_command_tool_through_host);

  return g_test_run ();
}
