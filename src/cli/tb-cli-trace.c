/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "tb-cli.h"

/* A whole number the reader let through, 0 for anything else. */
static gint64
int_member (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return 0;
  return json_node_get_int (node);
}

static int
trace_show (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TbTraceReader) reader = NULL;
  g_auto(GStrv) problems = NULL;
  g_autoptr(TbTraceOutline) outline = tb_trace_outline_new ();
  gboolean json = FALSE;
  guint n;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the header and every event as JSON Lines"), NULL },
    { NULL }
  };

  context = tb_cli_context_new (_("TRACE"),
                                _("Show a trace: its header and a timeline of its events.\n\n"
                                  "Damaged lines are reported on standard error and left out; "
                                  "exit status 1 when the file cannot be read as a trace."),
                                entries);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc != 2)
    return tb_cli_usage_error (context, _("Name one trace file"));

  file = g_file_new_for_commandline_arg (argv[1]);
  reader = tb_trace_reader_open (file, &error);
  if (reader == NULL || !tb_trace_reader_index (reader, NULL, &error))
    return tb_cli_fail (error);

  n = tb_trace_reader_get_n_events (reader);

  if (json)
    {
      g_autoptr(JsonNode) header = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (header, tb_trace_reader_get_header (reader));
      tb_cli_print_json (header, FALSE);
    }
  else
    {
      JsonObject *header = tb_trace_reader_get_header (reader);
      JsonObject *provider = tb_json_object_get_object (header, "provider");
      JsonArray *tools = tb_json_object_get_array (header, "tools");

      g_print (_("Trace format %d, created %s\n"), tb_trace_reader_get_version (reader),
               tb_json_object_get_string (header, "created") ?: "?");
      if (provider != NULL)
        g_print (_("Provider: %s %s\n"),
                 tb_json_object_get_string (provider, "kind") ?: "?",
                 tb_json_object_get_string (provider, "model") ?: "");
      if (tools != NULL)
        g_print (g_dngettext (GETTEXT_PACKAGE, "%u tool\n", "%u tools\n",
                              json_array_get_length (tools)),
                 json_array_get_length (tools));
      g_print (g_dngettext (GETTEXT_PACKAGE, "%u event\n", "%u events\n", n), n);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, i, &error);

      if (event == NULL)
        {
          g_printerr ("toolbench-cli: %s\n", error->message);
          g_clear_error (&error);
          continue;
        }

      if (json)
        {
          g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

          json_node_set_object (node, event);
          tb_cli_print_json (node, FALSE);
        }
      else
        {
          /* The same sentences, under the same headings and indented the
           * same way, as the app's timeline. */
          TbTracePlace place;
          g_autofree char *summary = NULL;

          tb_trace_outline_add (outline, i, event, &place);
          summary = tb_trace_describe_event (event, place.call);
          if (place.opens_iteration)
            {
              g_autofree char *heading = tb_trace_describe_iteration (place.iteration);

              g_print ("%5s  %12s  %s\n", "", "", heading);
            }
          g_print ("%5" G_GINT64_FORMAT "  %10.3f s  %*s%s\n", int_member (event, "seq"),
                   int_member (event, "t") / 1e6, (int) place.depth * 2, "", summary);
        }
    }

  problems = tb_trace_reader_get_problems (reader);
  for (guint i = 0; problems[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), problems[i]);

  return TB_CLI_EXIT_OK;
}

static int
trace_export (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTrace) trace = NULL;
  g_autoptr(JsonNode) exported = NULL;
  g_autofree char *format_name = NULL;
  TbDefinitionFormat format;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name,
      N_("openai (default), anthropic or openai-responses"), N_("FORMAT") },
    { NULL }
  };

  context = tb_cli_context_new (_("TRACE"),
                                _("Print a trace's conversation as OpenAI- or Anthropic-style "
                                  "messages JSON, or as Responses input items, with its tool "
                                  "definitions, to paste into other tools. A messages array also "
                                  "works as a --script for run."), entries);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc != 2)
    return tb_cli_usage_error (context, _("Name one trace file"));

  if (format_name == NULL || g_str_equal (format_name, "openai"))
    format = TB_DEFINITION_FORMAT_OPENAI;
  else if (g_str_equal (format_name, "anthropic"))
    format = TB_DEFINITION_FORMAT_ANTHROPIC;
  else if (g_str_equal (format_name, "openai-responses"))
    format = TB_DEFINITION_FORMAT_OPENAI_RESPONSES;
  else
    return tb_cli_usage_error (context,
                               _("Unknown format “%s”: use openai, anthropic or openai-responses"),
                               format_name);

  trace = tb_cli_load_trace (argv[1], &error);
  if (trace == NULL)
    return tb_cli_fail (error);

  exported = tb_trace_export_messages (trace, format, &error);
  if (exported == NULL)
    return tb_cli_fail (error);

  tb_cli_print_json (exported, TRUE);
  return TB_CLI_EXIT_OK;
}

int
tb_cli_trace (int    argc,
              char **argv)
{
  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      FILE *stream = argc < 2 ? stderr : stdout;

      fprintf (stream, "%s\n", _("Usage: toolbench-cli trace show [--json] TRACE"));
      fprintf (stream, "%s\n\n",
               _("       toolbench-cli trace export [--format openai|anthropic|openai-responses] "
                 "TRACE"));
      fprintf (stream, "  show    %s\n", _("Show a trace's header and its events"));
      fprintf (stream, "  export  %s\n", _("Print its conversation as messages JSON"));
      return argc < 2 ? TB_CLI_EXIT_USAGE : TB_CLI_EXIT_OK;
    }

  if (g_str_equal (argv[1], "show"))
    {
      g_set_prgname ("toolbench-cli trace show");
      return trace_show (argc - 1, argv + 1);
    }

  if (g_str_equal (argv[1], "export"))
    {
      g_set_prgname ("toolbench-cli trace export");
      return trace_export (argc - 1, argv + 1);
    }

  return tb_cli_usage_error (NULL, _("Unknown trace command “%s”: use show or export"), argv[1]);
}
