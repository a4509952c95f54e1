/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Where a run's tools come from: the demo tools always, then the file
 * tools, command-tool manifests, a workspace and MCP servers. The CLI
 * fills one from its options, an evaluation scenario from its own top
 * level; opening it starts everything and gives a TbToolSession. Opening
 * the same sources twice starts everything twice, so that parallel runs
 * share no process and no workspace. */

#define G_LOG_DOMAIN "tb-tool-source-set"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tb-command-tool.h"
#include "tb-demo-tools.h"
#include "tb-file-tools.h"
#include "tb-json.h"
#include "tb-mcp-client.h"
#include "tb-mcp-config-private.h"
#include "tb-plugin.h"
#include "tb-tool-session-private.h"
#include "tb-tool-source-set.h"

typedef struct
{
  char       *name;
  char      **argv;
  char       *url;
  JsonObject *entry;
  char       *base_dir;
} Server;

struct _TbToolSourceSet
{
  GObject              parent_instance;

  GPtrArray           *servers;
  GPtrArray           *problems;
  GPtrArray           *tools_dirs;
  GPtrArray           *plugins_dirs;
  char                *files_root;
  char                *workspace;
  gboolean             private_workspace;
  TbElicitationAnswer  elicitation;
  TbMcpProtocol        protocol;
  TbMcpAuthSetupFunc   auth_setup;
  gpointer             auth_setup_data;
  TbMcpWireWriter     *wire_writer;
};

/**
 * TbToolSourceSet:
 *
 * Where a run's tools come from: the demo tools always, then the file
 * tools, command-tool manifests, a workspace and MCP servers. The CLI fills
 * one from its options, an evaluation scenario from its top level.
 * tb_tool_source_set_open_async() starts everything and gives a
 * #TbToolSession; opening the same sources twice starts everything twice, so
 * that parallel runs share no process and no workspace.
 */
G_DEFINE_FINAL_TYPE (TbToolSourceSet, tb_tool_source_set, G_TYPE_OBJECT)

static void
server_free (gpointer data)
{
  Server *server = data;

  g_free (server->name);
  g_strfreev (server->argv);
  g_free (server->url);
  g_clear_pointer (&server->entry, json_object_unref);
  g_free (server->base_dir);
  g_free (server);
}

static Server *
server_copy (const Server *server)
{
  Server *copy = g_new0 (Server, 1);

  copy->name = g_strdup (server->name);
  copy->argv = g_strdupv (server->argv);
  copy->url = g_strdup (server->url);
  copy->entry = server->entry != NULL ? json_object_ref (server->entry) : NULL;
  copy->base_dir = g_strdup (server->base_dir);
  return copy;
}

static void
tb_tool_source_set_finalize (GObject *object)
{
  TbToolSourceSet *self = (TbToolSourceSet *)object;

  g_clear_pointer (&self->servers, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->tools_dirs, g_ptr_array_unref);
  g_clear_pointer (&self->plugins_dirs, g_ptr_array_unref);
  g_free (self->files_root);
  g_free (self->workspace);
  g_clear_object (&self->wire_writer);

  G_OBJECT_CLASS (tb_tool_source_set_parent_class)->finalize (object);
}

static void
tb_tool_source_set_class_init (TbToolSourceSetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_tool_source_set_finalize;
}

static void
tb_tool_source_set_init (TbToolSourceSet *self)
{
  self->servers = g_ptr_array_new_with_free_func (server_free);
  self->problems = g_ptr_array_new_with_free_func (g_free);
  self->tools_dirs = g_ptr_array_new_with_free_func (g_free);
  self->plugins_dirs = g_ptr_array_new_with_free_func (g_free);
}

/**
 * tb_tool_source_set_new:
 *
 * Makes an empty set of tool sources; opened, it offers the demo tools only.
 *
 * Returns: (transfer full): the new sources
 */
TbToolSourceSet *
tb_tool_source_set_new (void)
{
  return g_object_new (TB_TYPE_TOOL_SOURCE_SET, NULL);
}

/**
 * tb_tool_source_set_copy:
 * @self: sources
 *
 * Copies the sources, so that a scenario can add its own to those of the
 * command line without changing them.
 *
 * Returns: (transfer full): the same sources, to add more to
 */
TbToolSourceSet *
tb_tool_source_set_copy (TbToolSourceSet *self)
{
  TbToolSourceSet *copy;

  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), NULL);

  copy = tb_tool_source_set_new ();
  tb_tool_source_set_add_all (copy, self);
  copy->auth_setup = self->auth_setup;
  copy->auth_setup_data = self->auth_setup_data;
  copy->private_workspace = self->private_workspace;
  return copy;
}

/**
 * tb_tool_source_set_add_all:
 * @other: more sources
 * @self: sources
 *
 * Adds the servers, manifest folders and problems of @other; its files
 * root, workspace, elicitation answer and protocol log, when it has them,
 * replace these, and its sign-in setup when these have none.
 */
void
tb_tool_source_set_add_all (TbToolSourceSet *self,
                            TbToolSourceSet *other)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (other));

  for (guint i = 0; i < other->servers->len; i++)
    g_ptr_array_add (self->servers, server_copy (g_ptr_array_index (other->servers, i)));
  for (guint i = 0; i < other->problems->len; i++)
    g_ptr_array_add (self->problems, g_strdup (g_ptr_array_index (other->problems, i)));
  for (guint i = 0; i < other->tools_dirs->len; i++)
    g_ptr_array_add (self->tools_dirs, g_strdup (g_ptr_array_index (other->tools_dirs, i)));
  for (guint i = 0; i < other->plugins_dirs->len; i++)
    g_ptr_array_add (self->plugins_dirs, g_strdup (g_ptr_array_index (other->plugins_dirs, i)));
  if (other->files_root != NULL)
    tb_tool_source_set_set_files_root (self, other->files_root);
  if (other->workspace != NULL)
    tb_tool_source_set_set_workspace (self, other->workspace, other->private_workspace);
  if (other->elicitation != TB_ELICITATION_ANSWER_NONE)
    self->elicitation = other->elicitation;
  if (other->protocol != TB_MCP_PROTOCOL_AUTO)
    self->protocol = other->protocol;
  if (self->auth_setup == NULL)
    {
      self->auth_setup = other->auth_setup;
      self->auth_setup_data = other->auth_setup_data;
    }
  if (other->wire_writer != NULL)
    tb_tool_source_set_set_wire_writer (self, other->wire_writer);
}

/**
 * tb_tool_source_set_set_auth_setup:
 * @func: (nullable) (scope forever): called with the #TbMcpAuth of every
 *   HTTP server before it connects
 * @user_data: closure data, alive as long as the sources and their copies
 * @self: sources
 *
 * How the HTTP servers of these sources sign in.
 */
void
tb_tool_source_set_set_auth_setup (TbToolSourceSet    *self,
                                   TbMcpAuthSetupFunc  func,
                                   gpointer            user_data)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));

  self->auth_setup = func;
  self->auth_setup_data = user_data;
}

static char *
resolve (const char *path,
         const char *base_dir)
{
  if (base_dir == NULL || g_path_is_absolute (path))
    return g_strdup (path);
  return g_build_filename (base_dir, path, NULL);
}

/**
 * tb_tool_source_set_add_mcp_config:
 * @config: `{"mcpServers": {NAME: ENTRY, …}}`, see tb_mcp_config_load()
 * @base_dir: (nullable): the folder relative paths are relative to: a
 *   server without a `cwd` starts there, a relative `cwd` or command path
 *   is resolved from there
 * @error: return location for a %TB_MCP_ERROR_CONFIG error when @config
 *   has no server table
 * @self: sources
 *
 * Broken entries are remembered and reported by every session opened
 * from these sources; the others start.
 *
 * Returns: %TRUE when @config has a server table
 */
gboolean
tb_tool_source_set_add_mcp_config (TbToolSourceSet  *self,
                                JsonNode       *config,
                                const char     *base_dir,
                                GError        **error)
{
  g_autoptr(GPtrArray) checked = NULL;
  g_auto(GStrv) problems = NULL;
  JsonObject *servers = NULL;
  g_autoptr(GList) members = NULL;

  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), FALSE);
  g_return_val_if_fail (config != NULL, FALSE);

  /* The same rules as everywhere else a configuration is read. */
  checked = tb_mcp_config_load (config, &problems, error);
  if (checked == NULL)
    return FALSE;
  for (guint i = 0; problems[i] != NULL; i++)
    g_ptr_array_add (self->problems, g_strdup (problems[i]));

  servers = tb_json_object_get_object (json_node_get_object (config), "mcpServers");
  if (servers == NULL)
    servers = tb_json_object_get_object (json_node_get_object (config), "servers");
  for (guint i = 0; i < checked->len; i++)
    {
      const char *name = tb_mcp_client_get_name (g_ptr_array_index (checked, i));
      Server *server = g_new0 (Server, 1);

      server->name = g_strdup (name);
      server->entry = json_object_ref (tb_json_object_get_object (servers, name));
      server->base_dir = g_strdup (base_dir);
      g_ptr_array_add (self->servers, server);
    }
  return TRUE;
}

/**
 * tb_tool_source_set_add_mcp_config_file:
 * @path: a configuration file; its servers start in the current folder
 *   unless they name a `cwd`, as other clients of such files do
 * @self: sources
 * @error: return location for an error naming the file
 *
 * Adds the servers of an MCP configuration file, in the format other MCP
 * clients use (`{"mcpServers": {…}}`).
 *
 * Returns: %TRUE when the file was read; %FALSE with @error set otherwise
 */
gboolean
tb_tool_source_set_add_mcp_config_file (TbToolSourceSet  *self,
                                     const char     *path,
                                     GError        **error)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  node = _tb_mcp_config_parse_file (path, error);
  if (node == NULL)
    return FALSE;
  return tb_tool_source_set_add_mcp_config (self, node, NULL, error);
}

/**
 * tb_tool_source_set_add_mcp_spec:
 * @spec: `NAME=COMMAND [ARG…]` (split like a shell would, run without
 *   one) or `NAME=URL` for streamable HTTP
 * @self: sources
 * @error: return location for an error saying what is wrong with @spec
 *
 * Adds one MCP server as a person writes it on the command line
 * (`--mcp NAME=COMMAND`).
 *
 * Returns: %TRUE when @spec names a server; %FALSE with @error set otherwise
 */
gboolean
tb_tool_source_set_add_mcp_spec (TbToolSourceSet  *self,
                              const char     *spec,
                              GError        **error)
{
  const char *eq;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) local_error = NULL;
  Server *server;

  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  eq = strchr (spec, '=');
  if (eq == NULL || eq == spec || eq[1] == '\0')
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("--mcp needs NAME=COMMAND or NAME=URL, not “%s”"), spec);
      return FALSE;
    }

  server = g_new0 (Server, 1);
  server->name = g_strndup (spec, eq - spec);
  if (g_str_has_prefix (eq + 1, "http://") || g_str_has_prefix (eq + 1, "https://"))
    server->url = g_strdup (eq + 1);
  else if (!g_shell_parse_argv (eq + 1, NULL, &server->argv, &local_error))
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
                   _("The command of --mcp %s cannot be split into words: %s"), server->name,
                   local_error->message);
      server_free (server);
      return FALSE;
    }
  g_ptr_array_add (self->servers, server);
  return TRUE;
}

/**
 * tb_tool_source_set_add_mcp_url:
 * @name: (nullable): the server's name; the URL's host when %NULL
 * @url: a streamable HTTP endpoint
 * @self: sources
 *
 * Adds one MCP server reached over streamable HTTP.
 */
void
tb_tool_source_set_add_mcp_url (TbToolSourceSet *self,
                             const char    *name,
                             const char    *url)
{
  Server *server;

  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));
  g_return_if_fail (url != NULL);

  server = g_new0 (Server, 1);
  if (name == NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

      name = uri != NULL && g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : "server";
      server->name = g_strdup (name);
    }
  else
    server->name = g_strdup (name);
  server->url = g_strdup (url);
  g_ptr_array_add (self->servers, server);
}

/**
 * tb_tool_source_set_add_tools_dir:
 * @self: sources
 * @dir: a folder of command-tool manifests (`*.json`)
 *
 * Adds the command tools a folder of manifests describes; manifests that
 * cannot be read become problems of the session, the others load.
 */
void
tb_tool_source_set_add_tools_dir (TbToolSourceSet *self,
                               const char    *dir)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));
  g_return_if_fail (dir != NULL);

  g_ptr_array_add (self->tools_dirs, g_strdup (dir));
}

/**
 * tb_tool_source_set_add_plugins_dir:
 * @dir: (nullable): a plugin folder; %NULL for the one the app loads,
 *   tb_plugins_get_default_dir()
 *
 * Adds the tools of the Python and JavaScript plugins in @dir, loaded by
 * tb_plugins_load_async(); a plugin that fails is one of the session's
 * problems.
 */
void
tb_tool_source_set_add_plugins_dir (TbToolSourceSet *self,
                                    const char      *dir)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));

  g_ptr_array_add (self->plugins_dirs,
                   dir != NULL ? g_strdup (dir) : tb_plugins_get_default_dir ());
}

/**
 * tb_tool_source_set_set_files_root:
 * @dir: (nullable): the folder read_file, write_file and list_dir are
 *   confined to, or %NULL for no file tools
 * @self: sources
 *
 * Gives the sessions the file tools (tb_file_tools_new()), confined to @dir.
 */
void
tb_tool_source_set_set_files_root (TbToolSourceSet *self,
                                const char    *dir)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));

  g_free (self->files_root);
  self->files_root = g_strdup (dir);
}

/**
 * tb_tool_source_set_get_files_root:
 * @self: sources
 *
 * Gives the folder the file tools are confined to.
 *
 * Returns: (nullable): the folder, or %NULL when the sources have no file tools
 */
const char *
tb_tool_source_set_get_files_root (TbToolSourceSet *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), NULL);
  return self->files_root;
}

/**
 * tb_tool_source_set_set_workspace:
 * @path: (nullable): a workspace file whose facts and draft tools the
 *   session offers
 * @private_copy: open a copy of it in a folder of its own, removed when
 *   the session closes, so that runs side by side cannot see each other's
 *   proposals and the file itself never changes
 * @self: sources
 *
 * Gives the sessions a workspace and the tools that read and propose its
 * facts.
 */
void
tb_tool_source_set_set_workspace (TbToolSourceSet *self,
                               const char    *path,
                               gboolean       private_copy)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));

  g_free (self->workspace);
  self->workspace = g_strdup (path);
  self->private_workspace = private_copy;
}

/**
 * tb_tool_source_set_get_workspace:
 * @self: sources
 *
 * Gives the workspace file the sources name.
 *
 * Returns: (nullable): the path of the workspace file, or %NULL
 */
const char *
tb_tool_source_set_get_workspace (TbToolSourceSet *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), NULL);
  return self->workspace;
}

/**
 * tb_tool_source_set_set_elicitation:
 * @self: sources
 * @answer: what to answer
 *
 * Says how the sessions answer a server's elicitation request when nobody
 * is there to answer it, as in the CLI and in evaluations.
 */
void
tb_tool_source_set_set_elicitation (TbToolSourceSet       *self,
                                 TbElicitationAnswer  answer)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));
  self->elicitation = answer;
}

/**
 * tb_tool_source_set_set_mcp_protocol:
 * @self: the sources
 * @protocol: which MCP protocol revisions the servers may speak
 *
 * Applies to every MCP client a session opens from these sources;
 * `toolbench-cli --mcp-protocol` sets it. The default is
 * %TB_MCP_PROTOCOL_AUTO.
 */
void
tb_tool_source_set_set_mcp_protocol (TbToolSourceSet *self,
                                     TbMcpProtocol    protocol)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));
  self->protocol = protocol;
}

/**
 * tb_tool_source_set_set_wire_writer:
 * @self: the sources
 * @writer: (nullable): where the MCP servers' messages go as they happen
 *
 * Every MCP client a session opens from these sources writes its
 * protocol view (every message, every HTTP exchange) to @writer, from the
 * first message of its handshake on. `toolbench-cli --wire` sets it.
 */
void
tb_tool_source_set_set_wire_writer (TbToolSourceSet *self,
                                    TbMcpWireWriter *writer)
{
  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));
  g_return_if_fail (writer == NULL || TB_IS_MCP_WIRE_WRITER (writer));

  g_set_object (&self->wire_writer, writer);
}

/**
 * tb_tool_source_set_get_wire_writer:
 * @self: sources
 *
 * Gives the writer that receives every MCP message and HTTP exchange of the
 * servers these sources start (`--wire`).
 *
 * Returns: (transfer none) (nullable): the writer of the protocol log
 */
TbMcpWireWriter *
tb_tool_source_set_get_wire_writer (TbToolSourceSet *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), NULL);
  return self->wire_writer;
}

/**
 * tb_tool_source_set_parse_elicitation:
 * @text: `accept-defaults`, `decline` or `cancel`
 * @answer: (out): the answer
 *
 * Reads an elicitation answer as a person writes it on the command line
 * (`--elicitation`).
 *
 * Returns: whether @text names an answer
 */
gboolean
tb_tool_source_set_parse_elicitation (const char          *text,
                                   TbElicitationAnswer *answer)
{
  static const char * const names[] = { "accept-defaults", "decline", "cancel" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i]) == 0)
      {
        *answer = TB_ELICITATION_ANSWER_ACCEPT_DEFAULTS + i;
        return TRUE;
      }
  return FALSE;
}

/**
 * tb_tool_source_set_get_n_servers:
 * @self: sources
 *
 * Counts the MCP servers the sources will start.
 *
 * Returns: the number of MCP servers
 */
guint
tb_tool_source_set_get_n_servers (TbToolSourceSet *self)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), 0);
  return self->servers->len;
}

static gboolean
invalid_member (GError     **error,
                const char  *member,
                const char  *shape)
{
  g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_CONFIG,
               /* Translators: “tools_dirs” must be an array of folder names */
               _("“%s” must be %s"), member, shape);
  return FALSE;
}

/**
 * tb_tool_source_set_add_from_json:
 * @object: an object that may hold `mcpServers`, `tools_dirs`,
 *   `files_root` and `workspace` (an evaluation scenario's top level)
 * @base_dir: (nullable): the folder relative paths are relative to
 * @self: sources
 * @error: return location for an error naming the member that is wrong
 *
 * Adds the sources an evaluation scenario names at its top level.
 *
 * A workspace named here is opened as a private copy.
 *
 * Returns: %TRUE when @object was usable; %FALSE with @error set otherwise
 */
gboolean
tb_tool_source_set_add_from_json (TbToolSourceSet  *self,
                               JsonObject     *object,
                               const char     *base_dir,
                               GError        **error)
{
  JsonNode *node;

  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), FALSE);
  g_return_val_if_fail (object != NULL, FALSE);

  if (json_object_has_member (object, "mcpServers"))
    {
      g_autoptr(JsonNode) config = tb_json_node_new_object ();

      json_object_set_member (json_node_get_object (config), "mcpServers",
                              json_node_copy (json_object_get_member (object, "mcpServers")));
      if (!tb_tool_source_set_add_mcp_config (self, config, base_dir, error))
        return FALSE;
    }

  if ((node = json_object_get_member (object, "tools_dirs")) != NULL)
    {
      JsonArray *dirs = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

      if (dirs == NULL)
        return invalid_member (error, "tools_dirs", _("an array of folder names"));
      for (guint i = 0; i < json_array_get_length (dirs); i++)
        {
          JsonNode *element = json_array_get_element (dirs, i);
          const char *dir = JSON_NODE_HOLDS_VALUE (element) &&
                            json_node_get_value_type (element) == G_TYPE_STRING
                            ? json_node_get_string (element) : NULL;
          g_autofree char *path = NULL;

          if (dir == NULL)
            return invalid_member (error, "tools_dirs", _("an array of folder names"));
          path = resolve (dir, base_dir);
          tb_tool_source_set_add_tools_dir (self, path);
        }
    }

  if ((node = json_object_get_member (object, "files_root")) != NULL)
    {
      g_autofree char *path = NULL;

      if (tb_json_object_get_string (object, "files_root") == NULL)
        return invalid_member (error, "files_root", _("a folder name"));
      path = resolve (tb_json_object_get_string (object, "files_root"), base_dir);
      tb_tool_source_set_set_files_root (self, path);
    }

  if ((node = json_object_get_member (object, "workspace")) != NULL)
    {
      g_autofree char *path = NULL;

      if (tb_json_object_get_string (object, "workspace") == NULL)
        return invalid_member (error, "workspace", _("a workspace file name"));
      path = resolve (tb_json_object_get_string (object, "workspace"), base_dir);
      tb_tool_source_set_set_workspace (self, path, TRUE);
    }

  return TRUE;
}

/* ---- opening --------------------------------------------------------------- */

typedef struct
{
  TbToolSession *session;
  guint          waiting;
} Opening;

static void
opening_free (gpointer data)
{
  Opening *opening = data;

  g_clear_object (&opening->session);
  g_free (opening);
}

static TbMcpClient *
client_for (Server  *server,
            GError **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;
  const char *cwd;
  const char *command;

  if (server->url != NULL)
    return tb_mcp_client_new_http (server->name, server->url, NULL);
  if (server->argv != NULL)
    return tb_mcp_client_new_stdio (server->name, (const char * const *) server->argv, NULL,
                                    NULL);
  if (server->base_dir == NULL)
    return tb_mcp_client_new_from_config (server->name, server->entry, error);

  /* Relative to the file that named the server. */
  json_object_iter_init (&iter, server->entry);
  while (json_object_iter_next (&iter, &member, &value))
    json_object_set_member (entry, member, json_node_copy (value));
  cwd = tb_json_object_get_string (entry, "cwd");
  command = tb_json_object_get_string (entry, "command");
  if (command != NULL && !g_path_is_absolute (command) && strchr (command, '/') != NULL)
    {
      g_autofree char *path = resolve (command, server->base_dir);

      json_object_set_string_member (entry, "command", path);
    }
  if (tb_json_object_get_string (entry, "url") == NULL)
    {
      g_autofree char *dir = resolve (cwd != NULL ? cwd : ".", server->base_dir);

      json_object_set_string_member (entry, "cwd", dir);
    }
  return tb_mcp_client_new_from_config (server->name, entry, error);
}

static void
one_opened (GTask *task)
{
  Opening *opening = g_task_get_task_data (task);

  if (--opening->waiting > 0)
    return;

  if (g_task_return_error_if_cancelled (task))
    {
      tb_tool_session_close (opening->session);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&opening->session), g_object_unref);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Opening *opening = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!tb_mcp_client_connect_finish (TB_MCP_CLIENT (object), result, &error))
    _tb_tool_session_add_server_error (opening->session, error->message);
  one_opened (task);
}

static void
plugins_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Opening *opening = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) plugins = tb_plugins_load_finish (result, &error);

  if (plugins == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _tb_tool_session_add_problem (opening->session, error->message);
  for (guint i = 0; plugins != NULL && i < g_list_model_get_n_items (plugins); i++)
    {
      g_autoptr(TbPlugin) plugin = g_list_model_get_item (plugins, i);
      g_autofree char *text = NULL;

      if (tb_plugin_get_message (plugin) == NULL)
        continue;
      /* Translators: a plugin's file name, then what went wrong */
      text = g_strdup_printf (_("Plugin %s: %s"), tb_plugin_get_name (plugin),
                              tb_plugin_get_message (plugin));
      _tb_tool_session_add_problem (opening->session, text);
    }
  one_opened (task);
}

static TbWorkspace *
open_workspace (TbToolSourceSet  *self,
                char          **private_dir,
                GError        **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *name = NULL;
  gsize length;
  TbWorkspace *workspace;

  if (!self->private_workspace)
    return tb_workspace_new_for_path (self->workspace, error);

  if (!g_file_get_contents (self->workspace, &contents, &length, error))
    return NULL;
  dir = g_dir_make_tmp ("toolbench-workspace-XXXXXX", error);
  if (dir == NULL)
    return NULL;
  name = g_path_get_basename (self->workspace);
  copy = g_build_filename (dir, name, NULL);
  if (!g_file_set_contents (copy, contents, length, error))
    {
      g_rmdir (dir);
      return NULL;
    }
  workspace = tb_workspace_new_for_path (copy, error);
  if (workspace == NULL)
    {
      g_unlink (copy);
      g_rmdir (dir);
      return NULL;
    }
  *private_dir = g_steal_pointer (&dir);
  return workspace;
}

/**
 * tb_tool_source_set_open_async:
 * @self: the sources
 * @cancellable: (nullable): stops the servers that are starting
 * @callback: called when every server answered its handshake or failed
 * @user_data: closure
 *
 * Builds a registry of the demo tools and every source, and starts the
 * MCP servers side by side. A server that does not start, a manifest that
 * does not load, does not fail the session: they are in its problems and
 * server errors. A files root or a workspace that cannot be opened does.
 */
void
tb_tool_source_set_open_async (TbToolSourceSet       *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(GError) error = NULL;
  Opening *opening;

  g_return_if_fail (TB_IS_TOOL_SOURCE_SET (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_tool_source_set_open_async);
  opening = g_new0 (Opening, 1);
  g_task_set_task_data (task, opening, opening_free);
  opening->session = _tb_tool_session_new (registry);

  for (guint i = 0; i < self->problems->len; i++)
    _tb_tool_session_add_problem (opening->session, g_ptr_array_index (self->problems, i));

  if (!tb_demo_tools_register (registry, &error) ||
      (self->files_root != NULL && !tb_file_tools_register (registry, self->files_root, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  for (guint i = 0; i < self->tools_dirs->len; i++)
    {
      g_auto(GStrv) problems = NULL;
      g_autoptr(GError) local_error = NULL;

      tb_command_tools_load_dir (registry, g_ptr_array_index (self->tools_dirs, i), &problems,
                                 &local_error);
      if (local_error != NULL)
        _tb_tool_session_add_problem (opening->session, local_error->message);
      for (guint j = 0; problems != NULL && problems[j] != NULL; j++)
        _tb_tool_session_add_problem (opening->session, problems[j]);
    }

  if (self->workspace != NULL)
    {
      g_autofree char *private_dir = NULL;
      g_autoptr(TbWorkspace) workspace = open_workspace (self, &private_dir, &error);

      if (workspace == NULL)
        {
          g_prefix_error (&error, _("The workspace “%s” cannot be opened: "), self->workspace);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      _tb_tool_session_set_workspace (opening->session, workspace, private_dir);
      if (!tb_workspace_register_tools (workspace, registry, &error))
        {
          tb_tool_session_close (opening->session);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  for (guint i = 0; i < self->servers->len; i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(TbMcpClient) client = client_for (g_ptr_array_index (self->servers, i),
                                                  &local_error);

      if (client == NULL)
        {
          _tb_tool_session_add_server_error (opening->session, local_error->message);
          continue;
        }
      tb_mcp_client_set_protocol (client, self->protocol);
      if (self->elicitation != TB_ELICITATION_ANSWER_NONE)
        {
          tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
          _tb_tool_session_answer_elicitations (opening->session, client, self->elicitation);
        }
      if (self->auth_setup != NULL && tb_mcp_client_get_auth (client) != NULL)
        self->auth_setup (tb_mcp_client_get_auth (client), self->auth_setup_data);
      if (self->wire_writer != NULL)
        tb_mcp_wire_writer_watch (self->wire_writer, client);
      _tb_tool_session_add_client (opening->session, client);
      tb_mcp_client_attach (client, registry);
    }

  /* One more for this function, so that nothing finishes the task before
   * everything has started. */
  opening->waiting = tb_tool_session_get_mcp_clients (opening->session)->len +
                     self->plugins_dirs->len + 1;
  for (guint i = 0; i < self->plugins_dirs->len; i++)
    tb_plugins_load_async (registry, g_ptr_array_index (self->plugins_dirs, i), cancellable,
                           plugins_loaded_cb, g_object_ref (task));
  for (guint i = 0, n = tb_tool_session_get_mcp_clients (opening->session)->len; i < n; i++)
    tb_mcp_client_connect_async (g_ptr_array_index (tb_tool_session_get_mcp_clients (opening->session), i),
                                 cancellable, connect_cb, g_object_ref (task));
  one_opened (task);
}

/**
 * tb_tool_source_set_open_finish:
 * @self: sources
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Ends tb_tool_source_set_open_async(). Sources that could not be used do
 * not fail it: the session lists them (tb_tool_session_get_problems() and
 * tb_tool_session_get_server_errors()).
 *
 * Returns: (transfer full) (nullable): the session; close it with
 *   tb_tool_session_close() when the run is over
 */
TbToolSession *
tb_tool_source_set_open_finish (TbToolSourceSet  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (TB_IS_TOOL_SOURCE_SET (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
