/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-cli.h"

/* toolbench-cli mcp ping|list|call: the MCP servers named with --mcp,
 * --mcp-config, or a URL given as the last argument (the form the MCP
 * conformance suite uses: it appends its server's URL to the command). */

static gboolean
is_url (const char *text)
{
  return g_str_has_prefix (text, "http://") || g_str_has_prefix (text, "https://");
}

/**
 * tb_cli_mcp_parse:
 * @context: the command's options
 * @argc: (inout): the arguments
 * @argv: (inout): the arguments
 * @n_required: how many arguments come before the optional SERVER
 * @missing: (nullable): what to say when they are not all there
 * @server: (out): the SERVER argument, or %NULL
 * @status: (out): the exit status on a usage error
 *
 * Parses the options of an mcp command, and its arguments.
 *
 * Returns: whether the command line is usable
 */
gboolean
tb_cli_mcp_parse (GOptionContext   *context,
                  int              *argc,
                  char           ***argv,
                  int               n_required,
                  const char       *missing,
                  const char      **server,
                  int              *status)
{
  g_autoptr(GError) error = NULL;

  if (!tb_cli_parse_options (context, argc, argv, TRUE, &error))
    {
      *status = tb_cli_usage_error (context, "%s", error->message);
      return FALSE;
    }
  if (*argc < 1 + n_required)
    {
      *status = tb_cli_usage_error (context, "%s", missing);
      return FALSE;
    }
  if (*argc > 2 + n_required)
    {
      *status = tb_cli_usage_error (context, _("Unexpected argument “%s”"),
                                    (*argv)[2 + n_required]);
      return FALSE;
    }
  *server = *argc > 1 + n_required ? (*argv)[1 + n_required] : NULL;
  return TRUE;
}

/* Starts the servers; returns the ones @server names (all when NULL). */
GPtrArray *
tb_cli_mcp_select_servers (GOptionContext  *context,
                           const char      *server,
                           TbToolRegistry **registry,
                           int             *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();
  GPtrArray *clients;

  if (server != NULL && is_url (server))
    {
      tb_cli_add_mcp_url (server);
      server = NULL;
    }

  *registry = tb_cli_build_registry (&error);
  if (*registry == NULL)
    {
      *status = tb_cli_fail (error);
      return NULL;
    }

  clients = tb_tool_session_get_mcp_clients (tb_cli_get_session ());
  if (clients->len == 0)
    {
      *status = tb_cli_usage_error (context, _("Name an MCP server with --mcp, --mcp-config or "
                                               "a URL"));
      return NULL;
    }
  for (guint i = 0; i < clients->len; i++)
    {
      TbMcpClient *client = g_ptr_array_index (clients, i);

      if (server == NULL || g_str_equal (server, tb_mcp_client_get_name (client)))
        g_ptr_array_add (chosen, client);
    }
  if (chosen->len == 0)
    {
      g_printerr (_("toolbench-cli: no MCP server is named “%s”\n"), server);
      *status = TB_CLI_EXIT_FAILED;
      return NULL;
    }
  return g_steal_pointer (&chosen);
}

static JsonObject *
ping_failure (const char *error)
{
  JsonObject *object = json_object_new ();

  json_object_set_boolean_member (object, "ok", FALSE);
  json_object_set_string_member (object, "error", error != NULL ? error : "");
  return object;
}

/* What `mcp ping --json` says of a server that answered. */
static JsonObject *
ping_answer (TbMcpClient *client,
             gint64       elapsed_us)
{
  JsonObject *object = json_object_new ();
  JsonNode *info = tb_mcp_client_get_server_info (client);
  JsonNode *capabilities = tb_mcp_client_get_server_capabilities (client);

  json_object_set_boolean_member (object, "ok", TRUE);
  json_object_set_double_member (object, "ms", elapsed_us / 1000.0);
  json_object_set_string_member (object, "protocol", tb_mcp_client_get_protocol_version (client));
  if (info != NULL)
    json_object_set_member (object, "serverInfo", json_node_copy (info));
  if (capabilities != NULL)
    json_object_set_member (object, "capabilities", json_node_copy (capabilities));
  if (tb_mcp_client_get_instructions (client) != NULL)
    json_object_set_string_member (object, "instructions",
                                   tb_mcp_client_get_instructions (client));
  return object;
}

static int
mcp_ping (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  const char *server = NULL;
  int status = TB_CLI_EXIT_OK;
  gboolean json = FALSE;
  g_autoptr(JsonObject) all = json_object_new ();
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print each server's answer time, protocol revision, identity (with its icons), "
         "capabilities and instructions as JSON"), NULL },
    { NULL }
  };

  context = tb_cli_context_new (_("[SERVER]"), _("Check that MCP servers answer."), entries);
  if (!tb_cli_mcp_parse (context, &argc, &argv, 0, NULL, &server, &status))
    return status;

  servers = tb_cli_mcp_select_servers (context, server, &registry, &status);
  if (servers == NULL)
    return status;

  for (guint i = 0; i < servers->len; i++)
    {
      TbMcpClient *client = g_ptr_array_index (servers, i);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) ping_error = NULL;
      JsonNode *info = tb_mcp_client_get_server_info (client);
      gint64 start;

      if (tb_mcp_client_get_state (client) != TB_MCP_CLIENT_STATE_CONNECTED)
        {
          if (json)
            json_object_set_object_member (all, tb_mcp_client_get_name (client),
                                           ping_failure (tb_mcp_client_get_error (client)));
          else
            g_print (_("%s: not connected: %s\n"), tb_mcp_client_get_name (client),
                     tb_mcp_client_get_error (client));
          status = TB_CLI_EXIT_FAILED;
          continue;
        }
      start = g_get_monotonic_time ();
      tb_mcp_client_ping_async (client, NULL, tb_cli_keep_result, &result);
      if (!tb_mcp_client_ping_finish (client, tb_cli_wait_for (&result), &ping_error))
        {
          if (json)
            json_object_set_object_member (all, tb_mcp_client_get_name (client),
                                           ping_failure (ping_error->message));
          else
            g_print (_("%s: no answer: %s\n"), tb_mcp_client_get_name (client),
                     ping_error->message);
          status = TB_CLI_EXIT_FAILED;
          continue;
        }
      if (json)
        {
          json_object_set_object_member (all, tb_mcp_client_get_name (client),
                                         ping_answer (client, g_get_monotonic_time () - start));
          continue;
        }
      /* Translators: server name, milliseconds, protocol revision, server's name and version */
      g_print (_("%s: answered in %.1f ms (protocol %s, %s %s)\n"),
               tb_mcp_client_get_name (client),
               (g_get_monotonic_time () - start) / 1000.0,
               tb_mcp_client_get_protocol_version (client),
               info != NULL && JSON_NODE_HOLDS_OBJECT (info)
                 ? (tb_json_object_get_string (json_node_get_object (info), "name") ?: "?") : "?",
               info != NULL && JSON_NODE_HOLDS_OBJECT (info)
                 ? (tb_json_object_get_string (json_node_get_object (info), "version") ?: "") : "");
    }
  if (json)
    tb_cli_print_json_object (all);
  return status;
}

static gboolean
tool_of (TbTool      *tool,
         TbMcpClient *client)
{
  g_autoptr(TbMcpClient) owner = NULL;

  if (!TB_IS_MCP_TOOL (tool))
    return FALSE;
  owner = tb_mcp_tool_get_client (TB_MCP_TOOL (tool));
  return owner == client;
}

static int
mcp_list (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  gboolean json = FALSE;
  const char *server = NULL;
  int status = TB_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the tool definitions exactly as the servers listed them"), NULL },
    { NULL }
  };

  context = tb_cli_context_new (_("[SERVER]"), _("List the tools of MCP servers."), entries);
  if (!tb_cli_mcp_parse (context, &argc, &argv, 0, NULL, &server, &status))
    return status;

  servers = tb_cli_mcp_select_servers (context, server, &registry, &status);
  if (servers == NULL)
    return status;

  if (json)
    {
      g_autoptr(JsonObject) all = json_object_new ();

      for (guint i = 0; i < servers->len; i++)
        {
          TbMcpClient *client = g_ptr_array_index (servers, i);
          g_autoptr(GPtrArray) tools = tb_mcp_client_get_tools (client);
          JsonArray *array = json_array_new ();

          for (guint j = 0; j < tools->len; j++)
            json_array_add_element (array, json_node_copy (g_ptr_array_index (tools, j)));
          json_object_set_array_member (all, tb_mcp_client_get_name (client), array);
          if (tb_mcp_client_get_state (client) != TB_MCP_CLIENT_STATE_CONNECTED)
            status = TB_CLI_EXIT_FAILED;
        }
      tb_cli_print_json_object (all);
      return status;
    }

  for (guint i = 0; i < servers->len; i++)
    {
      TbMcpClient *client = g_ptr_array_index (servers, i);

      if (tb_mcp_client_get_state (client) != TB_MCP_CLIENT_STATE_CONNECTED)
        {
          g_print (_("%s: not connected: %s\n"), tb_mcp_client_get_name (client),
                   tb_mcp_client_get_error (client));
          status = TB_CLI_EXIT_FAILED;
          continue;
        }
      g_print ("%s:\n", tb_mcp_client_get_name (client));
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (registry)); j++)
        {
          g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (registry), j);
          const char *description;
          g_autofree char *first_line = NULL;

          if (!tool_of (tool, client))
            continue;
          description = tb_tool_get_description (tool);
          first_line = g_strndup (description, strcspn (description, "\n"));
          g_print ("  %-32s %s\n", tb_tool_get_name (tool), first_line);
          if (tb_mcp_tool_get_schema_error (TB_MCP_TOOL (tool)) != NULL)
            g_print (_("  %-32s unusable input schema: %s\n"), "",
                     tb_mcp_tool_get_schema_error (TB_MCP_TOOL (tool)));
        }
    }
  return status;
}

static int
mcp_call (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autofree char *local_name = NULL;
  g_auto(TbCliCallOptions) options = { NULL };
  const char *server = NULL;
  int status = TB_CLI_EXIT_OK;

  context = tb_cli_context_new (_("TOOL [SERVER]"),
                                _("Call a tool of an MCP server by its name on the server.\n\n"
                                  "Exit status: 0 when the tool succeeded, 1 when it failed, "
                                  "2 on a usage error."), NULL);
  tb_cli_add_call_options (context, &options,
                           N_("Time limit of the call; progress from the server starts it "
                              "over (default: 30000)"));
  if (!tb_cli_mcp_parse (context, &argc, &argv, 1, _("Name the tool to call"), &server, &status))
    return status;
  if (!tb_cli_read_call_options (&options, &arguments, &error))
    return tb_cli_usage_error (context, "%s", error->message);

  servers = tb_cli_mcp_select_servers (context, server, &registry, &status);
  if (servers == NULL)
    return status;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (registry)) && !local_name; i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (registry), i);

      for (guint j = 0; j < servers->len && local_name == NULL; j++)
        if (tool_of (tool, g_ptr_array_index (servers, j)) &&
            g_str_equal (tb_mcp_tool_get_remote_name (TB_MCP_TOOL (tool)), argv[1]))
          local_name = g_strdup (tb_tool_get_name (tool));
    }
  if (local_name == NULL)
    {
      g_printerr (_("toolbench-cli: no connected MCP server has a tool named “%s”\n"), argv[1]);
      return TB_CLI_EXIT_FAILED;
    }

  return tb_cli_call_tool (registry, local_name, arguments, &options);
}

int
tb_cli_mcp (int    argc,
            char **argv)
{
  static const struct {
    const char *name;
    int (*run) (int argc, char **argv);
  } commands[] = {
    { "ping", mcp_ping },
    { "list", mcp_list },
    { "call", mcp_call },
    { "resources", tb_cli_mcp_resources },
    { "read", tb_cli_mcp_read },
    { "prompts", tb_cli_mcp_prompts },
    { "prompt", tb_cli_mcp_prompt },
    { "complete", tb_cli_mcp_complete },
    { "logout", tb_cli_mcp_logout },
  };

  if (argc >= 2)
    {
      for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
        {
          if (g_str_equal (argv[1], commands[i].name))
            {
              g_autofree char *prgname = g_strdup_printf ("toolbench-cli mcp %s",
                                                          commands[i].name);

              g_set_prgname (prgname);
              return commands[i].run (argc - 1, argv + 1);
            }
        }
    }

  g_printerr ("%s\n", _("Usage: toolbench-cli mcp ping|list|call|resources|read|prompts|prompt|complete|"
                           "logout [OPTION…]"));
  g_printerr ("%s\n", _("Run “toolbench-cli mcp COMMAND --help” for the options of a command."));
  return TB_CLI_EXIT_USAGE;
}
