/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-mcp-tool.h"
#include "tb-tool-private.h"

/* Keeping a registry in step with a server's tools: each listed tool is
 * registered under a local name (the server's, or prefixed by the server's
 * name when another tool has it), changed definitions replace the old
 * ones, and tools the server no longer lists are unregistered. */

char *
_tb_mcp_sanitize_name (const char *name)
{
  GString *out = g_string_new (NULL);

  for (const char *p = name; *p != '\0' && out->len < TB_TOOL_NAME_MAX; p++)
    {
      char c = *p;

      g_string_append_c (out, (g_ascii_isalnum (c) || c == '_' || c == '.' || c == '-') ? c : '_');
    }
  return g_string_free (out, FALSE);
}

static char *
choose_local_name (TbMcpClient *self,
                   const char  *remote)
{
  g_autofree char *plain = _tb_mcp_sanitize_name (remote);
  g_autofree char *joined = NULL;
  g_autofree char *prefixed = NULL;

  if (!tb_tool_registry_contains (self->registry, plain))
    return g_steal_pointer (&plain);

  joined = g_strdup_printf ("%s.%s", self->name, remote);
  prefixed = _tb_mcp_sanitize_name (joined);
  return tb_tool_registry_suggest_name (self->registry, prefixed);
}

/* A name with a control character (a NUL arrives as U+FFFD) could not be
 * called back by the name the server knows, and would be shown to a
 * person with its controls. */
static gboolean
remote_name_usable (const char *name)
{
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c) || c == 0xFFFD)
        return FALSE;
    }
  return TRUE;
}

static void
register_tool (TbMcpClient *self,
               JsonNode    *definition)
{
  JsonObject *object = json_node_get_object (definition);
  const char *remote = tb_json_object_get_string (object, "name");
  g_autofree char *local = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(GError) error = NULL;

  if (remote != NULL && !remote_name_usable (remote))
    {
      _tb_mcp_client_log (self, "client", "warning",
                  _("The server offers a tool whose name has a control character; it was "
                    "left out"));
      return;
    }

  local = choose_local_name (self, remote);
  tool = _tb_mcp_tool_new (self, local, object);
  if (tool == NULL)
    return;
  if (!tb_tool_registry_register (self->registry, tool, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The tool “%s” was not registered: %s"),
                                               remote, error->message);

      _tb_mcp_client_log (self, "client", "warning", text);
      return;
    }
  g_hash_table_insert (self->registered, g_strdup (remote), g_strdup (local));
}

void
_tb_mcp_client_sync_registry (TbMcpClient *self)
{
  g_autoptr(GHashTable) wanted = NULL;
  g_autoptr(GPtrArray) gone = NULL;
  GHashTableIter iter;
  const char *remote;
  const char *local;

  if (self->registry == NULL || self->tools == NULL)
    return;

  wanted = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < self->tools->len; i++)
    {
      JsonNode *def = g_ptr_array_index (self->tools, i);

      g_hash_table_insert (wanted, (gpointer) tb_json_object_get_string (json_node_get_object (def),
                                                                  "name"), def);
    }

  /* Removed or changed tools leave; changed ones come back below. */
  gone = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_iter_init (&iter, self->registered);
  while (g_hash_table_iter_next (&iter, (gpointer *) &remote, (gpointer *) &local))
    {
      JsonNode *def = g_hash_table_lookup (wanted, remote);
      g_autoptr(TbTool) tool = tb_tool_registry_lookup (self->registry, local);

      if (tool == NULL || def == NULL || !TB_IS_MCP_TOOL (tool) ||
          !tb_json_equal (def, _tb_mcp_tool_get_definition (tool)))
        g_ptr_array_add (gone, g_strdup (remote));
    }
  for (guint i = 0; i < gone->len; i++)
    {
      const char *name = g_ptr_array_index (gone, i);
      g_autofree char *registered_as = g_strdup (g_hash_table_lookup (self->registered, name));
      g_autoptr(TbTool) tool = tb_tool_registry_lookup (self->registry, registered_as);

      g_hash_table_remove (self->registered, name);
      if (tool != NULL && TB_IS_MCP_TOOL (tool))
        {
          g_autoptr(TbMcpClient) owner = tb_mcp_tool_get_client (TB_MCP_TOOL (tool));

          if (owner == self)
            tb_tool_registry_unregister (self->registry, registered_as, NULL);
        }
    }

  for (guint i = 0; i < self->tools->len; i++)
    {
      JsonNode *def = g_ptr_array_index (self->tools, i);
      const char *name = tb_json_object_get_string (json_node_get_object (def), "name");

      if (!g_hash_table_contains (self->registered, name))
        register_tool (self, def);
    }
}

/**
 * tb_mcp_client_attach:
 * @self: a client
 * @registry: the registry to keep the server's tools in
 *
 * Registers the server's tools now (when connected) and after every
 * connection and list change.
 */
void
tb_mcp_client_attach (TbMcpClient    *self,
                      TbToolRegistry *registry)
{
  g_return_if_fail (TB_IS_MCP_CLIENT (self));
  g_return_if_fail (TB_IS_TOOL_REGISTRY (registry));

  tb_mcp_client_detach (self);
  self->registry = g_object_ref (registry);
  _tb_mcp_client_sync_registry (self);
}

/**
 * tb_mcp_client_detach:
 * @self: a client
 *
 * Unregisters the server's tools.
 */
void
tb_mcp_client_detach (TbMcpClient *self)
{
  GHashTableIter iter;
  const char *local;

  g_return_if_fail (TB_IS_MCP_CLIENT (self));

  if (self->registry == NULL)
    return;
  g_hash_table_iter_init (&iter, self->registered);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &local))
    {
      g_autoptr(TbTool) tool = tb_tool_registry_lookup (self->registry, local);

      if (tool != NULL && TB_IS_MCP_TOOL (tool))
        tb_tool_registry_unregister (self->registry, local, NULL);
    }
  g_hash_table_remove_all (self->registered);
  g_clear_object (&self->registry);
}

