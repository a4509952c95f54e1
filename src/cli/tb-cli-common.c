/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Where the tools come from, shared by every subcommand that builds a
 * registry: the option group fills these, tb_cli_build_registry() reads
 * them. */
static char **mcp_configs;
static char **mcp_commands;
static char **tools_dirs;
static char *files_root;
static char *elicitation;
static GPtrArray *mcp_clients;

/**
 * tb_cli_tool_source_group:
 *
 * Returns: (transfer full): the options that add tools — `--mcp-config`,
 *   `--mcp`, `--tools-dir`, `--files-root` and `--elicitation` — for a
 *   subcommand's #GOptionContext
 */
GOptionGroup *
tb_cli_tool_source_group (void)
{
  static const GOptionEntry entries[] = {
    { "mcp-config", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &mcp_configs,
      N_("Start the MCP servers of a configuration file ({\"mcpServers\": …}); repeatable"),
      N_("FILE") },
    { "mcp", 0, 0, G_OPTION_ARG_STRING_ARRAY, &mcp_commands,
      N_("Start an MCP server: NAME=COMMAND [ARG…] (split like a shell would, but run "
         "without one) or NAME=URL for streamable HTTP; repeatable"), N_("NAME=COMMAND") },
    { "tools-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &tools_dirs,
      N_("Load the command tools described by the JSON manifests in a folder; repeatable"),
      N_("DIR") },
    { "files-root", 0, 0, G_OPTION_ARG_FILENAME, &files_root,
      N_("Add read_file, write_file and list_dir, confined to this folder"), N_("DIR") },
    { "elicitation", 0, 0, G_OPTION_ARG_STRING, &elicitation,
      N_("Answer MCP servers that ask for input: accept-defaults, decline or cancel "
         "(default: tell them nobody can answer)"), N_("ANSWER") },
    { NULL }
  };
  GOptionGroup *group;

  group = g_option_group_new ("tools", _("Tool sources:"), _("Show the options that add tools"),
                              NULL, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  return group;
}

/**
 * tb_cli_get_mcp_clients:
 *
 * Returns: (transfer none) (element-type TbMcpClient): the MCP servers
 *   tb_cli_build_registry() started, in the order they were given
 */
GPtrArray *
tb_cli_get_mcp_clients (void)
{
  if (mcp_clients == NULL)
    mcp_clients = g_ptr_array_new_with_free_func (g_object_unref);
  return mcp_clients;
}

static void
stop_servers (void)
{
  /* Servers are child processes: stop them rather than leave them behind. */
  for (guint i = 0; mcp_clients != NULL && i < mcp_clients->len; i++)
    tb_mcp_client_disconnect (g_ptr_array_index (mcp_clients, i));
}

static gboolean
elicitation_cb (TbMcpClient        *client,
                TbMcpServerRequest *request,
                gpointer            user_data)
{
  JsonObject *params = json_node_get_object (tb_mcp_server_request_get_params (request));
  const char *message = json_object_get_string_member_with_default (params, "message", "");

  g_printerr (_("toolbench-cli: the MCP server “%s” asks: %s\n"),
              tb_mcp_client_get_name (client), message);
  if (g_strcmp0 (elicitation, "accept-defaults") == 0)
    {
      g_autoptr(JsonNode) content =
        tb_mcp_elicitation_defaults (json_object_get_member (params, "requestedSchema"));
      g_autofree char *shown = tb_json_to_string (content, FALSE);

      g_printerr (_("toolbench-cli: answered: accept, with the defaults %s\n"), shown);
      tb_mcp_server_request_accept (request, content);
    }
  else if (g_strcmp0 (elicitation, "decline") == 0)
    {
      g_printerr (_("toolbench-cli: answered: decline\n"));
      tb_mcp_server_request_decline (request);
    }
  else
    {
      g_printerr (_("toolbench-cli: answered: cancel\n"));
      tb_mcp_server_request_cancel (request);
    }
  return TRUE;
}

static TbMcpClient *
client_from_option (const char  *spec,
                    GError     **error)
{
  const char *eq = strchr (spec, '=');
  g_autofree char *name = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) local_error = NULL;

  if (eq == NULL || eq == spec || eq[1] == '\0')
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("--mcp needs NAME=COMMAND or NAME=URL, not “%s”"), spec);
      return NULL;
    }
  name = g_strndup (spec, eq - spec);
  if (g_str_has_prefix (eq + 1, "http://") || g_str_has_prefix (eq + 1, "https://"))
    return tb_mcp_client_new_http (name, eq + 1, NULL);
  if (!g_shell_parse_argv (eq + 1, NULL, &argv, &local_error))
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("The command of --mcp %s cannot be split into words: %s"), name,
                   local_error->message);
      return NULL;
    }
  return tb_mcp_client_new_stdio (name, (const char * const *) argv, NULL, NULL);
}

/**
 * tb_cli_add_mcp_url:
 * @url: a streamable HTTP endpoint given on the command line
 *
 * Adds a server for tb_cli_build_registry() to start, named after the
 * URL's host.
 */
void
tb_cli_add_mcp_url (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  g_ptr_array_add (tb_cli_get_mcp_clients (),
                   tb_mcp_client_new_http (host != NULL ? host : "server", url, NULL));
}

typedef struct
{
  guint    waiting;
  gboolean failed;
} Connecting;

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Connecting *state = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_mcp_client_connect_finish (TB_MCP_CLIENT (object), result, &error))
    {
      g_printerr ("toolbench-cli: %s\n", error->message);
      state->failed = TRUE;
    }
  state->waiting--;
}

/* The tools every subcommand sees: the demo tools, then the file tools,
 * the manifests and the MCP servers that the options name. A source that
 * fails is reported on stderr and the others still load. */
TbToolRegistry *
tb_cli_build_registry (GError **error)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  GPtrArray *clients = tb_cli_get_mcp_clients ();
  Connecting state = { 0 };
  static gboolean exit_hook;

  if (!tb_demo_tools_register (registry, error))
    return NULL;

  if (files_root != NULL && !tb_file_tools_register (registry, files_root, error))
    return NULL;

  for (guint i = 0; tools_dirs != NULL && tools_dirs[i] != NULL; i++)
    {
      g_auto(GStrv) problems = NULL;
      g_autoptr(GError) local_error = NULL;

      tb_command_tools_load_dir (registry, tools_dirs[i], &problems, &local_error);
      if (local_error != NULL)
        g_printerr ("toolbench-cli: %s\n", local_error->message);
      for (guint j = 0; problems != NULL && problems[j] != NULL; j++)
        g_printerr ("toolbench-cli: %s\n", problems[j]);
    }

  for (guint i = 0; mcp_configs != NULL && mcp_configs[i] != NULL; i++)
    {
      g_auto(GStrv) problems = NULL;
      g_autoptr(GPtrArray) loaded = tb_mcp_config_load_file (mcp_configs[i], &problems, error);

      if (loaded == NULL)
        return NULL;
      for (guint j = 0; problems[j] != NULL; j++)
        g_printerr ("toolbench-cli: %s\n", problems[j]);
      for (guint j = 0; j < loaded->len; j++)
        g_ptr_array_add (clients, g_object_ref (g_ptr_array_index (loaded, j)));
    }
  for (guint i = 0; mcp_commands != NULL && mcp_commands[i] != NULL; i++)
    {
      TbMcpClient *client = client_from_option (mcp_commands[i], error);

      if (client == NULL)
        return NULL;
      g_ptr_array_add (clients, client);
    }

  if (clients->len > 0 && !exit_hook)
    {
      atexit (stop_servers);
      exit_hook = TRUE;
    }

  for (guint i = 0; i < clients->len; i++)
    {
      TbMcpClient *client = g_ptr_array_index (clients, i);

      if (elicitation != NULL)
        {
          tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
          g_signal_connect (client, "elicitation-requested", G_CALLBACK (elicitation_cb), NULL);
        }
      tb_mcp_client_attach (client, registry);
      state.waiting++;
      tb_mcp_client_connect_async (client, NULL, connect_cb, &state);
    }
  while (state.waiting > 0)
    g_main_context_iteration (NULL, TRUE);

  return g_steal_pointer (&registry);
}

/* Checks the values of the shared options once they are parsed. */
gboolean
tb_cli_check_tool_source_options (GError **error)
{
  if (elicitation != NULL && !g_str_equal (elicitation, "accept-defaults") &&
      !g_str_equal (elicitation, "decline") && !g_str_equal (elicitation, "cancel"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--elicitation takes accept-defaults, decline or cancel, not “%s”"),
                   elicitation);
      return FALSE;
    }
  return TRUE;
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

static TbRedactor *
tb_cli_new_redactor_for_defaults (void)
{
  static const char * const defaults[] = { "openai", "anthropic", "gemini" };
  TbRedactor *redactor = tb_redactor_new ();

  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    tb_redactor_add_secret (redactor, g_getenv (tb_cli_default_key_variable (defaults[i])));
  return redactor;
}

/**
 * tb_cli_new_redactor:
 * @key_variable: (nullable): the environment variable a command was told
 *   to read its key from
 *
 * Returns: (transfer full): a redactor that knows the keys in the
 *   environment: the one in @key_variable and those in the variables the
 *   providers read by default, whichever provider a run used
 */
TbRedactor *
tb_cli_new_redactor (const char *key_variable)
{
  TbRedactor *redactor = tb_cli_new_redactor_for_defaults ();

  if (key_variable != NULL)
    {
      tb_redactor_add_secret (redactor, g_getenv (key_variable));
      tb_redactor_add_secret (tb_cli_get_output_redactor (), g_getenv (key_variable));
    }
  return redactor;
}

/**
 * tb_cli_get_output_redactor:
 *
 * The last line of defence: everything the CLI prints passes through
 * this redactor (see main.c), so that a key in the environment never
 * reaches the terminal, whichever command printed it and wherever it
 * came from (a foreign trace shown with `trace show`, a tool's output).
 *
 * Returns: (transfer none): the redactor of everything printed
 */
TbRedactor *
tb_cli_get_output_redactor (void)
{
  static TbRedactor *output;

  if (g_once_init_enter (&output))
    g_once_init_leave (&output, tb_cli_new_redactor_for_defaults ());
  return output;
}

void
tb_cli_print_json (JsonNode *node,
                   gboolean  pretty)
{
  g_autofree char *text = tb_json_to_string (node, pretty);

  /* json-glib escapes C0 controls; the print handler (main.c) writes DEL
   * and C1 controls as \u escapes, so what is printed stays JSON. */
  g_print ("%s\n", text);
}

/* Loads a whole trace, saying on standard error what was wrong with it
 * (damaged lines left out, events out of order). */
TbTrace *
tb_cli_load_trace (const char  *path,
                   GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_auto(GStrv) problems = NULL;
  TbTrace *trace;

  trace = tb_trace_load (file, NULL, &problems, error);
  for (guint i = 0; trace != NULL && problems[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), problems[i]);
  return trace;
}
