/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "tb-cli.h"

static const TbCliCommand commands[] = {
  { "list", N_("List the registered tools"), tb_cli_list },
  { "call", N_("Call a tool with JSON arguments and print the result"), tb_cli_call },
  { "trace", N_("Show or export a trace file"), tb_cli_trace },
  { "replay", N_("Replay or fork a trace offline and report divergences"), tb_cli_replay },
  { "validate", N_("Validate a JSON document against a JSON Schema"), tb_cli_validate },
  { "facts", N_("Show, propose, confirm and lock the facts of a workspace"), tb_cli_facts },
  { "run", N_("Run the dispatch loop with a model and print the conversation"), tb_cli_run },
  { "eval", N_("Run evaluation scenarios and report how each model did"), tb_cli_eval },
  { "mcp", N_("Ping MCP servers, list their tools, call one"), tb_cli_mcp },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: toolbench-cli COMMAND [OPTION…]"));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “toolbench-cli COMMAND --help” for the options of a command."));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      print_usage (stderr);
      return TB_CLI_EXIT_USAGE;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return TB_CLI_EXIT_OK;
    }

  if (g_str_equal (argv[1], "--version"))
    {
      g_print ("toolbench-cli %s\n", PACKAGE_VERSION);
      return TB_CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (g_str_equal (argv[1], commands[i].name))
        {
          g_autofree char *prgname = g_strdup_printf ("toolbench-cli %s", commands[i].name);

          g_set_prgname (prgname);
          return commands[i].run (argc - 1, argv + 1);
        }
    }

  g_printerr (_("toolbench-cli: unknown command “%s”\n"), argv[1]);
  print_usage (stderr);
  return TB_CLI_EXIT_USAGE;
}
