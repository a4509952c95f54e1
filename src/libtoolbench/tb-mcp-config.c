/* SPDX-License-Identifier: GPL-3.0-or-later */

/* MCP servers from configuration: the "mcpServers" object other MCP hosts
 * use, read into clients. */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-mcp-config-private.h"

static char **
strv_from_array (JsonNode    *node,
                 const char  *server,
                 const char  *member,
                 GError     **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("The server “%s”: “%s” must be an array of strings"), server, member);
      return NULL;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                       _("The server “%s”: “%s” must be an array of strings"), server, member);
          return NULL;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }
  return g_strv_builder_end (builder);
}

static char **
strv_from_map (JsonNode    *node,
               const char  *server,
               const char  *member,
               const char  *separator,
               GError     **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("The server “%s”: “%s” must be an object of strings"), server, member);
      return NULL;
    }
  json_object_iter_init (&iter, json_node_get_object (node));
  while (json_object_iter_next (&iter, &key, &value))
    {
      g_autofree char *entry = NULL;

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                       _("The server “%s”: “%s” must be an object of strings"), server, member);
          return NULL;
        }
      entry = g_strconcat (key, separator, json_node_get_string (value), NULL);
      g_strv_builder_add (builder, entry);
    }
  return g_strv_builder_end (builder);
}

/**
 * tb_mcp_client_new_from_config:
 * @name: the server's name (the key in `mcpServers`)
 * @entry: `{"command", "args", "env", "cwd"}` or `{"url", "headers"}`,
 *   optionally with `"type"` (`stdio`, `http`, `streamable-http`)
 * @error: return location for a %TB_MCP_ERROR_CONFIG error
 *
 * Makes a client from one entry of an MCP configuration file, in the format
 * other MCP clients use: a command to start, or a URL.
 *
 * Returns: (transfer full) (nullable): a disconnected client
 */
TbMcpClient *
tb_mcp_client_new_from_config (const char  *name,
                               JsonObject  *entry,
                               GError     **error)
{
  const char *type = tb_json_object_get_string (entry, "type");
  const char *command = tb_json_object_get_string (entry, "command");
  const char *url = tb_json_object_get_string (entry, "url");

  g_return_val_if_fail (entry != NULL, NULL);

  if (type != NULL && g_str_equal (type, "sse"))
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("The server “%s” uses the old HTTP+SSE transport, which is not supported; "
                     "use its streamable HTTP endpoint"), name);
      return NULL;
    }

  if (url != NULL && command == NULL)
    {
      g_auto(GStrv) headers = NULL;
      JsonNode *node = json_object_get_member (entry, "headers");

      if (!g_str_has_prefix (url, "http://") && !g_str_has_prefix (url, "https://"))
        {
          g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                       _("The server “%s”: the URL “%s” is not an http:// or https:// URL"),
                       name, url);
          return NULL;
        }
      if (node != NULL && !(headers = strv_from_map (node, name, "headers", ": ", error)))
        return NULL;
      return tb_mcp_client_new_http (name, url, (const char * const *) headers);
    }

  if (command != NULL)
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) args = NULL;
      g_auto(GStrv) env = NULL;
      g_auto(GStrv) argv = NULL;
      JsonNode *node;

      if ((node = json_object_get_member (entry, "args")) != NULL &&
          !(args = strv_from_array (node, name, "args", error)))
        return NULL;
      if ((node = json_object_get_member (entry, "env")) != NULL &&
          !(env = strv_from_map (node, name, "env", "=", error)))
        return NULL;
      g_strv_builder_add (builder, command);
      if (args != NULL)
        g_strv_builder_addv (builder, (const char **) args);
      argv = g_strv_builder_end (builder);
      return tb_mcp_client_new_stdio (name, (const char * const *) argv,
                                      (const char * const *) env,
                                      tb_json_object_get_string (entry, "cwd"));
    }

  g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
               _("The server “%s” has neither a “command” nor a “url”"), name);
  return NULL;
}

/**
 * tb_mcp_config_load:
 * @config: `{"mcpServers": {NAME: ENTRY, …}}` (or `{"servers": …}`)
 * @problems: (out) (optional) (transfer full): one sentence per entry that
 *   was left out
 * @error: return location for an error when @config has no server table
 *
 * Entries with `"disabled": true` are skipped; broken entries are reported
 * in @problems and the others load.
 *
 * Returns: (transfer container) (element-type TbMcpClient): the clients
 */
GPtrArray *
tb_mcp_config_load (JsonNode  *config,
                    GStrv     *problems,
                    GError   **error)
{
  g_autoptr(GPtrArray) clients = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GStrvBuilder) found = g_strv_builder_new ();
  JsonNode *servers = NULL;
  g_autoptr(GList) members = NULL;

  g_return_val_if_fail (config != NULL, NULL);

  if (JSON_NODE_HOLDS_OBJECT (config))
    {
      servers = json_object_get_member (json_node_get_object (config), "mcpServers");
      if (servers == NULL)
        servers = json_object_get_member (json_node_get_object (config), "servers");
    }
  if (servers == NULL || !JSON_NODE_HOLDS_OBJECT (servers))
    {
      g_set_error_literal (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                           _("The MCP configuration has no “mcpServers” object"));
      return NULL;
    }

  /* In file order, so that clashing tool names resolve the same way each time. */
  members = json_object_get_members (json_node_get_object (servers));
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autoptr(GError) local_error = NULL;
      const char *name = l->data;
      JsonNode *entry = json_object_get_member (json_node_get_object (servers), name);
      TbMcpClient *client;
      JsonNode *disabled;

      if (!JSON_NODE_HOLDS_OBJECT (entry))
        {
          g_autofree char *text =
            g_strdup_printf (_("The server “%s” is not described by an object"), name);

          g_strv_builder_add (found, text);
          continue;
        }
      disabled = json_object_get_member (json_node_get_object (entry), "disabled");
      if (disabled != NULL && JSON_NODE_HOLDS_VALUE (disabled) &&
          json_node_get_value_type (disabled) == G_TYPE_BOOLEAN &&
          json_node_get_boolean (disabled))
        continue;

      client = tb_mcp_client_new_from_config (name, json_node_get_object (entry), &local_error);
      if (client == NULL)
        g_strv_builder_add (found, local_error->message);
      else
        g_ptr_array_add (clients, client);
    }

  if (problems != NULL)
    *problems = g_strv_builder_end (found);
  return g_steal_pointer (&clients);
}

/* Reads an MCP configuration file as JSON, with an error that says whether
 * the file could not be read or is not JSON. */
JsonNode *
_tb_mcp_config_parse_file (const char  *path,
                           GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local_error = NULL;

  node = tb_json_parse_file (path, 16 * 1024 * 1024, &local_error);
  if (node == NULL && local_error->domain == G_FILE_ERROR)
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("Cannot read the MCP configuration: %s"), local_error->message);
      return NULL;
    }
  if (node == NULL)
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("The MCP configuration “%s” is not usable: %s"), path, local_error->message);
      return NULL;
    }
  return g_steal_pointer (&node);
}

/**
 * tb_mcp_config_load_file:
 * @path: a JSON file in the shape of tb_mcp_config_load()
 * @problems: (out) (optional) (transfer full): one sentence per entry that was left out
 * @error: return location for an error naming the file
 *
 * Reads an MCP configuration file and makes a client for each server in it,
 * as tb_mcp_config_load() does.
 *
 * Returns: (transfer container) (element-type TbMcpClient) (nullable):
 *   the clients, or %NULL when the file cannot be read or parsed
 */
GPtrArray *
tb_mcp_config_load_file (const char  *path,
                         GStrv       *problems,
                         GError     **error)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  node = _tb_mcp_config_parse_file (path, error);
  if (node == NULL)
    return NULL;
  return tb_mcp_config_load (node, problems, error);
}
