/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-cli.h"

/* toolbench-cli mcp resources|read|prompts|prompt|complete: what MCP
 * servers offer besides tools, as the app shows it. Exit status: 0 done,
 * 1 when a server failed, 2 on a usage error. */

/* The one server a command talks to: the named one, or the only one. */
static TbMcpClient *
one_server (GOptionContext  *context,
            const char      *server,
            TbToolRegistry **registry,
            int             *status)
{
  g_autoptr(GPtrArray) servers = tb_cli_mcp_select_servers (context, server, registry, status);

  if (servers == NULL)
    return NULL;
  if (servers->len > 1)
    {
      *status = tb_cli_usage_error (context, _("Name the MCP server: there are %u"),
                                    servers->len);
      return NULL;
    }
  return servers->pdata[0];
}

static void
print_resource (TbMcpResource *resource)
{
  const char *uri = tb_mcp_resource_is_template (resource)
                    ? tb_mcp_resource_get_uri_template (resource)
                    : tb_mcp_resource_get_uri (resource);
  const char *mime = tb_mcp_resource_get_mime_type (resource);

  g_print ("  %s  %s%s%s%s\n", uri, tb_mcp_resource_get_display_name (resource),
           mime != NULL ? " (" : "", mime != NULL ? mime : "", mime != NULL ? ")" : "");
}

static JsonNode *
resource_to_json (TbMcpResource *resource)
{
  JsonObject *object = json_object_new ();

  if (tb_mcp_resource_is_template (resource))
    json_object_set_string_member (object, "uriTemplate",
                                   tb_mcp_resource_get_uri_template (resource));
  else
    json_object_set_string_member (object, "uri", tb_mcp_resource_get_uri (resource));
  json_object_set_string_member (object, "name", tb_mcp_resource_get_name (resource));
  if (tb_mcp_resource_get_title (resource) != NULL)
    json_object_set_string_member (object, "title", tb_mcp_resource_get_title (resource));
  if (tb_mcp_resource_get_mime_type (resource) != NULL)
    json_object_set_string_member (object, "mimeType", tb_mcp_resource_get_mime_type (resource));
  if (tb_mcp_resource_get_size (resource) >= 0)
    json_object_set_int_member (object, "size", tb_mcp_resource_get_size (resource));
  return tb_json_node_take_object (object);
}

static JsonArray *
resources_to_json (GPtrArray *resources)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < resources->len; i++)
    json_array_add_element (array, resource_to_json (resources->pdata[i]));
  return array;
}

int
tb_cli_mcp_resources (int    argc,
                      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) all = json_object_new ();
  gboolean json = FALSE;
  const char *server = NULL;
  int status = TB_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print {server: {resources, resourceTemplates}} as JSON"), NULL },
    { NULL }
  };

  context = tb_cli_context_new (_("[SERVER]"),
                                _("List the resources and resource templates of MCP "
                                  "servers."), entries);
  if (!tb_cli_mcp_parse (context, &argc, &argv, 0, NULL, &server, &status))
    return status;
  servers = tb_cli_mcp_select_servers (context, server, &registry, &status);
  if (servers == NULL)
    return status;

  for (guint i = 0; i < servers->len; i++)
    {
      TbMcpClient *client = servers->pdata[i];
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GPtrArray) resources = NULL;
      g_autoptr(GPtrArray) templates = NULL;
      JsonObject *entry;

      tb_mcp_client_list_resources_async (client, NULL, tb_cli_keep_result, &result);
      resources = tb_mcp_client_list_resources_finish (client, tb_cli_wait_for (&result), &error);
      g_clear_object (&result);
      if (resources != NULL)
        {
          tb_mcp_client_list_resource_templates_async (client, NULL, tb_cli_keep_result, &result);
          templates = tb_mcp_client_list_resource_templates_finish (client,
                                                                    tb_cli_wait_for (&result),
                                                                    &error);
        }
      if (templates == NULL)
        {
          status = tb_cli_fail (error);
          g_clear_error (&error);
          continue;
        }

      if (!json)
        {
          g_print ("%s:\n", tb_mcp_client_get_name (client));
          for (guint j = 0; j < resources->len; j++)
            print_resource (resources->pdata[j]);
          for (guint j = 0; j < templates->len; j++)
            print_resource (templates->pdata[j]);
          continue;
        }
      entry = json_object_new ();
      json_object_set_array_member (entry, "resources", resources_to_json (resources));
      json_object_set_array_member (entry, "resourceTemplates", resources_to_json (templates));
      json_object_set_object_member (all, tb_mcp_client_get_name (client), entry);
    }
  if (json)
    tb_cli_print_json_object (all);
  return status;
}

int
tb_cli_mcp_read (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonArray) contents = NULL;
  g_autofree char *output = NULL;
  gboolean json = FALSE;
  TbMcpClient *client;
  const char *server = NULL;
  int status = TB_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the contents as the server sent them"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the contents to FILE (binary resources need it)"), N_("FILE") },
    { NULL }
  };

  context = tb_cli_context_new (_("URI [SERVER]"), _("Read a resource of an MCP server."),
                                entries);
  if (!tb_cli_mcp_parse (context, &argc, &argv, 1, _("Name the resource’s URI"), &server, &status))
    return status;
  if (!tb_cli_check_writable (output, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  client = one_server (context, server, &registry, &status);
  if (client == NULL)
    return status;

  tb_mcp_client_read_resource_async (client, argv[1], NULL, tb_cli_keep_result, &result);
  contents = tb_mcp_client_read_resource_finish (client, tb_cli_wait_for (&result), &error);
  if (contents == NULL)
    return tb_cli_fail (error);
  if (json)
    {
      tb_cli_print_json_array (contents);
      return TB_CLI_EXIT_OK;
    }

  for (guint i = 0; i < json_array_get_length (contents); i++)
    {
      JsonNode *element = json_array_get_element (contents, i);
      g_autoptr(GBytes) bytes = NULL;
      JsonObject *object;
      const char *mime;
      gsize size;
      const char *data;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      object = json_node_get_object (element);
      bytes = tb_mcp_resource_contents_get_bytes (object, &error);
      if (bytes == NULL)
        return tb_cli_fail (error);
      data = g_bytes_get_data (bytes, &size);
      mime = tb_json_object_get_string (object, "mimeType");
      if (output != NULL)
        {
          if (!g_file_set_contents (output, data, size, &error))
            return tb_cli_fail (error);
          /* Translators: bytes written, the MIME type, then a file name */
          g_printerr (_("toolbench-cli: wrote %u bytes (%s) to %s\n"), (guint) size,
                      mime != NULL ? mime : "?", output);
          return TB_CLI_EXIT_OK;
        }
      if (tb_json_object_get_string (object, "text") == NULL)
        {
          g_printerr (_("toolbench-cli: “%s” is binary (%s, %u bytes); write it to a file "
                        "with --output\n"),
                      tb_json_object_get_string (object, "uri"), mime != NULL ? mime : "?",
                      (guint) size);
          status = TB_CLI_EXIT_FAILED;
          continue;
        }
      g_print ("%.*s%s", (int) size, data, size > 0 && data[size - 1] == '\n' ? "" : "\n");
    }
  return status;
}

static GPtrArray *
list_prompts (TbMcpClient  *client,
              GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_mcp_client_list_prompts_async (client, NULL, tb_cli_keep_result, &result);
  return tb_mcp_client_list_prompts_finish (client, tb_cli_wait_for (&result), error);
}

int
tb_cli_mcp_prompts (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GError) error = NULL;
  const char *server = NULL;
  int status = TB_CLI_EXIT_OK;

  context = tb_cli_context_new (_("[SERVER]"), _("List the prompts of MCP servers and "
                                                 "their arguments (* required)."), NULL);
  if (!tb_cli_mcp_parse (context, &argc, &argv, 0, NULL, &server, &status))
    return status;
  servers = tb_cli_mcp_select_servers (context, server, &registry, &status);
  if (servers == NULL)
    return status;

  for (guint i = 0; i < servers->len; i++)
    {
      TbMcpClient *client = servers->pdata[i];
      g_autoptr(GPtrArray) prompts = list_prompts (client, &error);

      if (prompts == NULL)
        {
          status = tb_cli_fail (error);
          g_clear_error (&error);
          continue;
        }
      g_print ("%s:\n", tb_mcp_client_get_name (client));
      for (guint j = 0; j < prompts->len; j++)
        {
          TbMcpPrompt *prompt = prompts->pdata[j];
          g_autoptr(GString) line = g_string_new (NULL);

          g_string_append_printf (line, "  %s(", tb_mcp_prompt_get_name (prompt));
          for (guint k = 0; k < tb_mcp_prompt_get_n_arguments (prompt); k++)
            g_string_append_printf (line, "%s%s%s", k > 0 ? ", " : "",
                                    tb_mcp_prompt_get_argument_name (prompt, k),
                                    tb_mcp_prompt_get_argument_required (prompt, k) ? "*" : "");
          g_string_append_printf (line, ")  %s", tb_mcp_prompt_get_display_name (prompt));
          g_print ("%s\n", line->str);
        }
    }
  return status;
}

static TbMcpPrompt *
find_prompt (TbMcpClient  *client,
             const char   *name,
             GError      **error)
{
  g_autoptr(GPtrArray) prompts = list_prompts (client, error);

  for (guint i = 0; prompts != NULL && i < prompts->len; i++)
    if (g_str_equal (tb_mcp_prompt_get_name (prompts->pdata[i]), name))
      return g_object_ref (prompts->pdata[i]);
  if (prompts != NULL)
    g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_REMOTE,
                 _("The server “%s” has no prompt named “%s”"), tb_mcp_client_get_name (client),
                 name);
  return NULL;
}

static const char *
role_name (TbMessageRole role)
{
  return role == TB_MESSAGE_ROLE_USER ? "user" : "assistant";
}

int
tb_cli_mcp_prompt (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(TbMcpPrompt) prompt = NULL;
  g_autofree char *args_text = NULL;
  g_autofree char *args_file = NULL;
  gboolean json = FALSE;
  JsonObject *values;
  TbMcpClient *client;
  const char *server = NULL;
  int status = TB_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "args", 'a', 0, G_OPTION_ARG_STRING, &args_text,
      N_("The arguments as a JSON object of strings (default: {})"), N_("JSON") },
    { "args-file", 0, 0, G_OPTION_ARG_FILENAME, &args_file,
      N_("Read the arguments from a file, or - for standard input"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the result as the server sent it"), NULL },
    { NULL }
  };

  context = tb_cli_context_new (_("NAME [SERVER]"),
                                _("Fill in a prompt of an MCP server and print its "
                                  "messages."), entries);
  if (!tb_cli_mcp_parse (context, &argc, &argv, 1, _("Name the prompt"), &server, &status))
    return status;
  if (!tb_cli_read_arguments (args_text, args_file, &arguments, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  client = one_server (context, server, &registry, &status);
  if (client == NULL)
    return status;

  prompt = find_prompt (client, argv[1], &error);
  if (prompt == NULL)
    return tb_cli_fail (error);
  values = arguments != NULL ? json_node_get_object (arguments) : NULL;
  if (!tb_mcp_prompt_check_arguments (prompt, values, &error))
    return tb_cli_usage_error (context, "%s", error->message);

  tb_mcp_client_get_prompt_async (client, argv[1], values, NULL, tb_cli_keep_result, &result);
  answer = tb_mcp_client_get_prompt_finish (client, tb_cli_wait_for (&result), &error);
  if (answer == NULL)
    return tb_cli_fail (error);
  if (json)
    {
      tb_cli_print_json_object (answer);
      return TB_CLI_EXIT_OK;
    }
  messages = tb_mcp_prompt_result_to_messages (answer, &error);
  if (messages == NULL)
    return tb_cli_fail (error);
  for (guint i = 0; i < messages->len; i++)
    g_print ("%s: %s\n", role_name (tb_message_get_role (messages->pdata[i])),
             tb_message_get_text (messages->pdata[i]));
  return status;
}

int
tb_cli_mcp_complete (int    argc,
                     char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) context_values = NULL;
  g_auto(GStrv) values = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *template = NULL;
  g_autofree char *context_text = NULL;
  gboolean has_more = FALSE;
  TbMcpClient *client;
  int status = TB_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "prompt", 0, 0, G_OPTION_ARG_STRING, &prompt,
      N_("Complete an argument of this prompt"), N_("NAME") },
    { "template", 0, 0, G_OPTION_ARG_STRING, &template,
      N_("Complete a variable of this resource template"), N_("URI-TEMPLATE") },
    { "context", 0, 0, G_OPTION_ARG_STRING, &context_text,
      N_("The other arguments' values, as a JSON object"), N_("JSON") },
    { NULL }
  };

  context = tb_cli_context_new (_("ARGUMENT [VALUE] [SERVER]"),
                                _("Ask an MCP server how to complete a prompt argument or a "
                                  "template variable; one suggestion per line."), entries);
  if (!tb_cli_parse_options (context, &argc, &argv, TRUE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if ((prompt == NULL) == (template == NULL))
    return tb_cli_usage_error (context, _("Give either --prompt or --template"));
  if (argc < 2)
    return tb_cli_usage_error (context, _("Name the argument to complete"));
  if (argc > 4)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[4]);
  if (context_text != NULL && !tb_cli_read_arguments (context_text, NULL, &context_values, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  client = one_server (context, argc > 3 ? argv[3] : NULL, &registry, &status);
  if (client == NULL)
    return status;

  tb_mcp_client_complete_async (client,
                                prompt != NULL ? TB_MCP_COMPLETION_PROMPT
                                               : TB_MCP_COMPLETION_RESOURCE_TEMPLATE,
                                prompt != NULL ? prompt : template, argv[1],
                                argc > 2 ? argv[2] : "",
                                context_values != NULL ? json_node_get_object (context_values)
                                                       : NULL,
                                NULL, tb_cli_keep_result, &result);
  values = tb_mcp_client_complete_finish (client, tb_cli_wait_for (&result), &has_more, &error);
  if (values == NULL)
    return tb_cli_fail (error);
  for (guint i = 0; values[i] != NULL; i++)
    g_print ("%s\n", values[i]);
  if (has_more)
    g_printerr ("%s\n", _("toolbench-cli: the server has more suggestions"));
  return status;
}
