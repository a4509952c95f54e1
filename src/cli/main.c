/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

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
  { "mcp", N_("Ping MCP servers, list their tools, call one, sign out of one"), tb_cli_mcp },
  { "models", N_("Ask a provider for its models, as “Test connection” does"), tb_cli_models },
  { "plugins", N_("List the Python and JavaScript plugins, their tools or why they failed"),
    tb_cli_plugins },
};

static void
print_usage (gboolean to_stderr)
{
  g_autoptr(GString) usage = g_string_new (NULL);

  g_string_append_printf (usage, "%s\n", _("Usage: toolbench-cli COMMAND [OPTION…]"));
  g_string_append_printf (usage, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (usage, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  g_string_append_printf (usage, "\n%s\n",
                          _("Run “toolbench-cli COMMAND --help” for the options of a command."));
  g_string_append_printf (usage, "%s\n",
                          _("The tool-source options (--mcp, --mcp-config, --tools-dir, "
                            "--plugins, --plugins-dir, --files-root, --workspace, --elicitation, --wire) may also come "
                            "before the command."));
  if (to_stderr)
    g_printerr ("%s", usage->str);
  else
    g_print ("%s", usage->str);
}

/* Everything printed goes through here: what servers, tools and models
 * wrote is quoted in messages, and their control characters must not
 * drive the terminal (set its title, clear it, fake text); keys in the
 * environment never reach it either. */
static void
print_escaped (FILE       *stream,
               const char *text)
{
  g_autofree char *clean = tb_redactor_redact_text (tb_cli_get_output_redactor (), text);
  g_autofree char *escaped = tb_text_escape_controls (clean, -1);
  const char *charset;

  /* As GLib's own handler does: the console may not speak UTF-8. */
  if (!g_get_console_charset (&charset))
    {
      g_autofree char *converted =
        g_convert_with_fallback (escaped, -1, charset, "UTF-8", "?", NULL, NULL, NULL);

      if (converted != NULL)
        {
          fputs (converted, stream);
          fflush (stream);
          return;
        }
    }
  fputs (escaped, stream);
  fflush (stream);
}

static void
print_handler (const char *text)
{
  print_escaped (stdout, text);
}

static void
printerr_handler (const char *text)
{
  print_escaped (stderr, text);
}

/* Warnings quote outside text too. */
static GLogWriterOutput
log_writer (GLogLevelFlags   log_level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  g_autofree GLogField *copy = g_memdup2 (fields, n_fields * sizeof *fields);
  g_autofree char *escaped = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (copy[i].key, "MESSAGE") == 0 && escaped == NULL && copy[i].value != NULL)
      {
        escaped = tb_text_escape_controls (copy[i].value, copy[i].length);
        copy[i].value = escaped;
        copy[i].length = -1;
      }

  return g_log_writer_default (log_level, copy, n_fields, user_data);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char **reordered = NULL;
  int leading;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_print_handler (print_handler);
  g_set_printerr_handler (printerr_handler);
  g_log_set_writer_func (log_writer, NULL, NULL);

  if (argc < 2)
    {
      print_usage (TRUE);
      return TB_CLI_EXIT_USAGE;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_usage (FALSE);
      return TB_CLI_EXIT_OK;
    }

  if (g_str_equal (argv[1], "--version"))
    {
      g_print ("toolbench-cli %s\n", PACKAGE_VERSION);
      return TB_CLI_EXIT_OK;
    }

  /* `toolbench-cli --mcp-config c.json run …` means
   * `toolbench-cli run … --mcp-config c.json`: the tool-source options may
   * come before the command, and are moved behind what it takes. */
  leading = 1;
  while (leading < argc && argv[leading][0] == '-')
    {
      gboolean takes_value = FALSE;

      if (!tb_cli_is_tool_source_option (argv[leading], &takes_value))
        {
          g_printerr (_("toolbench-cli: “%s” is not an option that may come before the "
                        "command; only the tool-source options may\n"), argv[leading]);
          print_usage (TRUE);
          return TB_CLI_EXIT_USAGE;
        }
      leading += takes_value ? 2 : 1;
    }
  if (leading >= argc)
    {
      g_printerr ("%s\n", _("toolbench-cli: name a command after the tool-source options"));
      print_usage (TRUE);
      return TB_CLI_EXIT_USAGE;
    }
  if (leading > 1)
    {
      /* After everything the command takes, so that `mcp ping` keeps its
       * verb in front; before a "--", so that they stay options. */
      int end = leading + 1;
      int n = 0;

      while (end < argc && !g_str_equal (argv[end], "--"))
        end++;
      reordered = g_new0 (char *, argc + 1);
      reordered[n++] = argv[0];
      for (int i = leading; i < end; i++)
        reordered[n++] = argv[i];
      for (int i = 1; i < leading; i++)
        reordered[n++] = argv[i];
      for (int i = end; i < argc; i++)
        reordered[n++] = argv[i];
      argv = reordered;
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
  print_usage (TRUE);
  return TB_CLI_EXIT_USAGE;
}
