/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>
#include <stdio.h>

#include "tb-cli.h"

int
tb_cli_usage_error (GOptionContext *context,
                    const char     *format,
                    ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("toolbench-cli: %s\n", message);
  if (context != NULL)
    g_printerr (_("Try “%s --help” for more information.\n"), g_get_prgname ());

  return TB_CLI_EXIT_USAGE;
}

/* The tools every subcommand sees: the demo tools for now; MCP servers,
 * manifests and the workspace tools join here as options grow. */
TbToolRegistry *
tb_cli_build_registry (GError **error)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();

  if (!tb_demo_tools_register (registry, error))
    return NULL;

  return g_steal_pointer (&registry);
}

/* Reads a whole file, or standard input for "-". */
char *
tb_cli_read_text (const char  *path_or_dash,
                  GError     **error)
{
  char *contents = NULL;

  if (g_strcmp0 (path_or_dash, "-") == 0)
    {
      g_autoptr(GInputStream) in = g_unix_input_stream_new (0, FALSE);
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

      if (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_NONE, NULL, error) < 0)
        return NULL;
      if (!g_output_stream_write_all (out, "", 1, NULL, NULL, error) ||
          !g_output_stream_close (out, NULL, error))
        return NULL;
      return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
    }

  if (!g_file_get_contents (path_or_dash, &contents, NULL, error))
    return NULL;
  return contents;
}

void
tb_cli_print_json (JsonNode *node,
                   gboolean  pretty)
{
  g_autofree char *text = tb_json_to_string (node, pretty);

  g_print ("%s\n", text);
}
