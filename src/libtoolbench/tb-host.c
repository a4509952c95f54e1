/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-host"

#include "config.h"

#include "tb-host.h"

/* Inside a Flatpak, the programs a person points Toolbench at (command
 * tools, stdio MCP servers) live on the host, which the sandbox cannot
 * see: they run through `flatpak-spawn --host`, with their working folder
 * and environment passed as its options. */

/**
 * tb_host_in_flatpak:
 *
 * Returns: whether the process runs inside a Flatpak sandbox
 */
gboolean
tb_host_in_flatpak (void)
{
  /* The variable lets the tests stand in for the sandbox's marker file. */
  const char *info = g_getenv ("TOOLBENCH_FLATPAK_INFO");

  return g_file_test (info != NULL ? info : "/.flatpak-info", G_FILE_TEST_EXISTS);
}

/**
 * tb_host_wrap_argv:
 * @argv: the command to run
 * @cwd: (nullable): its working folder
 * @env: (nullable): `NAME=VALUE` entries to set for it
 *
 * Returns: (transfer full): `flatpak-spawn --host --watch-bus
 *   [--directory=CWD] [--env=NAME=VALUE…] ARGV…`; a command that already is
 *   flatpak-spawn is copied as it is
 */
char **
tb_host_wrap_argv (const char * const *argv,
                   const char         *cwd,
                   const char * const *env)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  if (g_strcmp0 (argv[0], "flatpak-spawn") == 0)
    return g_strdupv ((char **) argv);

  g_strv_builder_add (builder, "flatpak-spawn");
  g_strv_builder_add (builder, "--host");
  /* The host process ends with the app. */
  g_strv_builder_add (builder, "--watch-bus");
  if (cwd != NULL)
    {
      g_autofree char *option = g_strconcat ("--directory=", cwd, NULL);

      g_strv_builder_add (builder, option);
    }
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_autofree char *option = g_strconcat ("--env=", env[i], NULL);

      g_strv_builder_add (builder, option);
    }
  g_strv_builder_addv (builder, (const char **) argv);

  return g_strv_builder_end (builder);
}
