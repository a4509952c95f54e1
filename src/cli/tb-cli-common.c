/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <errno.h>
#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
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

/**
 * tb_cli_fail:
 * @error: what failed
 *
 * Prints @error's message on standard error, as every command reports
 * what failed.
 *
 * Returns: %TB_CLI_EXIT_FAILED, for the command to exit with
 */
int
tb_cli_fail (const GError *error)
{
  g_printerr ("toolbench-cli: %s\n", error->message);
  return TB_CLI_EXIT_FAILED;
}

/**
 * tb_cli_context_new:
 * @parameters: (nullable): what follows the command's options in its
 *   usage line, translated
 * @summary: what the command does, translated, for --help
 * @entries: (nullable): the command's own options
 *
 * Returns: (transfer full): the option context of a command
 */
GOptionContext *
tb_cli_context_new (const char         *parameters,
                    const char         *summary,
                    const GOptionEntry *entries)
{
  GOptionContext *context = g_option_context_new (parameters);

  g_option_context_set_summary (context, summary);
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  return context;
}

/* Where the tools come from, shared by every subcommand that builds a
 * registry: the option group fills these (before or after the
 * subcommand's name, see main.c), tb_cli_get_tool_sources() turns them
 * into a TbToolSourceSet, tb_cli_build_registry() opens it. */
static char **mcp_configs;
static char **mcp_commands;
static char **tools_dirs;
static char **plugins_dirs;
static gboolean plugins;
static char *files_root;
static char *workspace_path;
static char *elicitation;
static char **hint_specs;
static GPtrArray *mcp_urls;
static TbToolSession *session;
static char *wire_path;
static TbMcpWireWriter *wire_writer;

/* How HTTP servers sign in (tb-cli-oauth.c reads these). */
static char *oauth_authorize;
static char *oauth_client_id;
static char *oauth_client_secret;
static char *oauth_client_metadata_url;
static char *oauth_client_key;
static char *oauth_id_token_file;
static char *oauth_idp_token_endpoint;
static char *oauth_idp_client_id;
static char *oauth_assertion_file;
static char *mcp_protocol;

/**
 * tb_cli_tool_source_group:
 *
 * Returns: (transfer full): the options that add tools — `--mcp-config`,
 *   `--mcp`, `--tools-dir`, `--files-root`, `--workspace` and
 *   `--elicitation` — for a subcommand's #GOptionContext
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
    { "plugins", 0, 0, G_OPTION_ARG_NONE, &plugins,
      N_("Load the Python and JavaScript plugins the app loads (toolbench/plugins in the "
         "user's data folder)"), NULL },
    { "plugins-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &plugins_dirs,
      N_("Load the Python and JavaScript plugins of a folder; repeatable"), N_("DIR") },
    { "files-root", 0, 0, G_OPTION_ARG_FILENAME, &files_root,
      N_("Add read_file, write_file and list_dir, confined to this folder"), N_("DIR") },
    { "workspace", 'w', 0, G_OPTION_ARG_FILENAME, &workspace_path,
      N_("Offer the facts and draft tools of this workspace file"), N_("FILE") },
    { "hint", 0, 0, G_OPTION_ARG_STRING_ARRAY, &hint_specs,
      N_("Say what a tool does, in place of its own hints: TOOL=read-only, destructive, "
         "idempotent or open-world, several separated by commas, or TOOL= for none; "
         "repeatable"), N_("TOOL=HINTS") },
    { "elicitation", 0, 0, G_OPTION_ARG_STRING, &elicitation,
      N_("Answer MCP servers that ask for input: accept-defaults, decline or cancel "
         "(default: tell them nobody can answer)"), N_("ANSWER") },
    { "oauth-authorize", 0, 0, G_OPTION_ARG_STRING, &oauth_authorize,
      N_("How HTTP servers that need a sign-in get it: browser (print the address and open "
         "it, the default) or fetch (follow it without a browser, for test servers and CI)"),
      N_("MODE") },
    { "oauth-client-id", 0, 0, G_OPTION_ARG_STRING, &oauth_client_id,
      N_("Sign in as this client, registered with the authorization server beforehand"),
      N_("ID") },
    { "oauth-client-secret", 0, 0, G_OPTION_ARG_STRING, &oauth_client_secret,
      N_("The secret of --oauth-client-id (better: the variable "
         "TOOLBENCH_OAUTH_CLIENT_SECRET, which ps does not show)"), N_("SECRET") },
    { "oauth-client-metadata-url", 0, 0, G_OPTION_ARG_STRING, &oauth_client_metadata_url,
      N_("Sign in with this client ID metadata document where the authorization server "
         "takes them"), N_("URL") },
    { "oauth-client-key", 0, 0, G_OPTION_ARG_FILENAME, &oauth_client_key,
      N_("Authenticate --oauth-client-id with the private key in this PEM file "
         "(private_key_jwt)"), N_("FILE") },
    { "oauth-id-token-file", 0, 0, G_OPTION_ARG_FILENAME, &oauth_id_token_file,
      N_("Sign in with the identity provider's ID token in this file, exchanged at "
         "--oauth-idp-token-endpoint for an identity assertion"), N_("FILE") },
    { "oauth-idp-token-endpoint", 0, 0, G_OPTION_ARG_STRING, &oauth_idp_token_endpoint,
      N_("The identity provider's token endpoint, for --oauth-id-token-file"), N_("URL") },
    { "oauth-idp-client-id", 0, 0, G_OPTION_ARG_STRING, &oauth_idp_client_id,
      N_("Toolbench's client ID at the identity provider, for --oauth-id-token-file"),
      N_("ID") },
    { "mcp-protocol", 0, 0, G_OPTION_ARG_STRING, &mcp_protocol,
      N_("The MCP protocol revision to speak: auto (2026-07-28 when the server speaks it, "
         "else the initialize handshake; the default), 2026-07-28 or 2025-11-25"),
      N_("REVISION") },
    { "oauth-assertion-file", 0, 0, G_OPTION_ARG_FILENAME, &oauth_assertion_file,
      N_("Sign in with the JWT assertion in this file (a workload identity token), as "
         "--oauth-client-id"), N_("FILE") },
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
 * tb_cli_add_tool_source_options:
 * @context: the options of a command that opens tool sources
 *
 * Adds the tool-source group (tb_cli_tool_source_group()) and `--wire`,
 * which is listed with the command's own options so that `--help` shows
 * it.
 */
void
tb_cli_add_tool_source_options (GOptionContext *context)
{
  static const GOptionEntry entries[] = {
    { "wire", 0, 0, G_OPTION_ARG_FILENAME, &wire_path,
      N_("Write every message to and from the MCP servers, and every HTTP exchange, to FILE "
         "as JSON Lines as they happen (credentials masked)"), N_("FILE") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, tb_cli_tool_source_group ());
}

/* The options of the group that take a value, for main.c to move the
 * ones given before the subcommand behind it. */
gboolean
tb_cli_is_tool_source_option (const char *arg,
                              gboolean   *takes_value)
{
  static const char * const names[] = {
    "--mcp-config", "--mcp", "--tools-dir", "--plugins-dir", "--files-root", "--workspace", "--elicitation",
    "--oauth-authorize", "--oauth-client-id", "--oauth-client-secret",
    "--oauth-client-metadata-url", "--oauth-client-key", "--oauth-id-token-file",
    "--oauth-idp-token-endpoint", "--oauth-idp-client-id", "--oauth-assertion-file",
    "--wire", "--mcp-protocol",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gsize len = strlen (names[i]);

      if (strncmp (arg, names[i], len) == 0 && (arg[len] == '\0' || arg[len] == '='))
        {
          *takes_value = arg[len] == '\0';
          return TRUE;
        }
    }
  if (g_str_equal (arg, "--plugins"))
    {
      *takes_value = FALSE;
      return TRUE;
    }
  if (g_str_equal (arg, "-w"))
    {
      *takes_value = TRUE;
      return TRUE;
    }
  return FALSE;
}

/**
 * tb_cli_get_workspace_path:
 *
 * Returns: (nullable): the file given with --workspace
 */
const char *
tb_cli_get_workspace_path (void)
{
  return workspace_path;
}

/**
 * tb_cli_get_session:
 *
 * Returns: (transfer none) (nullable): what tb_cli_build_registry() opened
 */
TbToolSession *
tb_cli_get_session (void)
{
  return session;
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
  if (mcp_urls == NULL)
    mcp_urls = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (mcp_urls, g_strdup (url));
}

/**
 * tb_cli_get_tool_sources:
 * @private_workspace: open --workspace as a copy (evaluation runs)
 *
 * Returns: (transfer full) (nullable): the sources the options name, or
 *   %NULL with @error when one cannot be used (a configuration file that
 *   cannot be read, an --mcp that is not NAME=COMMAND)
 */
TbToolSourceSet *
tb_cli_get_tool_sources (gboolean   private_workspace,
                         GError   **error)
{
  g_autoptr(TbToolSourceSet) sources = tb_tool_source_set_new ();
  TbElicitationAnswer answer = TB_ELICITATION_ANSWER_NONE;

  if (!tb_cli_check_tool_source_options (error))
    return NULL;
  if (elicitation != NULL)
    tb_tool_source_set_parse_elicitation (elicitation, &answer);
  tb_tool_source_set_set_elicitation (sources, answer);
  if (mcp_protocol != NULL)
    {
      TbMcpProtocol protocol = TB_MCP_PROTOCOL_AUTO;

      tb_mcp_protocol_from_string (mcp_protocol, &protocol, NULL);
      tb_tool_source_set_set_mcp_protocol (sources, protocol);
    }
  tb_tool_source_set_set_wire_writer (sources, wire_writer);
  tb_tool_source_set_set_files_root (sources, files_root);
  tb_tool_source_set_set_workspace (sources, workspace_path, private_workspace);
  for (guint i = 0; tools_dirs != NULL && tools_dirs[i] != NULL; i++)
    tb_tool_source_set_add_tools_dir (sources, tools_dirs[i]);
  if (plugins)
    tb_tool_source_set_add_plugins_dir (sources, NULL);
  for (guint i = 0; plugins_dirs != NULL && plugins_dirs[i] != NULL; i++)
    tb_tool_source_set_add_plugins_dir (sources, plugins_dirs[i]);
  for (guint i = 0; mcp_configs != NULL && mcp_configs[i] != NULL; i++)
    if (!tb_tool_source_set_add_mcp_config_file (sources, mcp_configs[i], error))
      return NULL;
  for (guint i = 0; mcp_commands != NULL && mcp_commands[i] != NULL; i++)
    if (!tb_tool_source_set_add_mcp_spec (sources, mcp_commands[i], error))
      return NULL;
  for (guint i = 0; mcp_urls != NULL && i < mcp_urls->len; i++)
    tb_tool_source_set_add_mcp_url (sources, NULL, g_ptr_array_index (mcp_urls, i));
  tb_tool_source_set_set_auth_setup (sources, tb_cli_setup_auth, NULL);
  return g_steal_pointer (&sources);
}

static void
close_session (void)
{
  /* Servers are child processes: stop them rather than leave them behind. */
  if (session != NULL)
    tb_tool_session_close (session);
}

static void
notice_cb (TbToolSession *self,
           const char    *text,
           gpointer       user_data)
{
  g_printerr ("toolbench-cli: %s\n", text);
}

/**
 * tb_cli_keep_result:
 * @user_data: a `GAsyncResult *` that is %NULL until the operation ends
 *
 * The callback of an operation the command waits for with
 * tb_cli_wait_for().
 */
void
tb_cli_keep_result (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/**
 * tb_cli_wait_for:
 * @result: what tb_cli_keep_result() sets
 *
 * Runs the main context until the operation has ended.
 *
 * Returns: (transfer none): the operation's result
 */
GAsyncResult *
tb_cli_wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

/**
 * tb_cli_open_session:
 * @sources: what to open
 * @cancellable: (nullable): stops the servers that are starting
 * @error: return location for an error
 *
 * Opens @sources, waiting on the main context, and says on standard error
 * what was left out and which servers did not start.
 *
 * Returns: (transfer full) (nullable): the session
 */
TbToolSession *
tb_cli_open_session (TbToolSourceSet  *sources,
                     GCancellable     *cancellable,
                     GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(TbToolSession) opened = NULL;
  const char * const *lines;

  tb_tool_source_set_open_async (sources, cancellable, tb_cli_keep_result, &result);
  opened = tb_tool_source_set_open_finish (sources, tb_cli_wait_for (&result), error);
  if (opened == NULL)
    return NULL;

  lines = tb_tool_session_get_problems (opened);
  for (guint i = 0; lines[i] != NULL; i++)
    g_printerr ("toolbench-cli: %s\n", lines[i]);
  lines = tb_tool_session_get_server_errors (opened);
  for (guint i = 0; lines[i] != NULL; i++)
    g_printerr ("toolbench-cli: %s\n", lines[i]);
  g_signal_connect (opened, "notice", G_CALLBACK (notice_cb), NULL);
  return g_steal_pointer (&opened);
}

/* The tools every subcommand sees: the demo tools, then the file tools,
 * the manifests, the workspace and the MCP servers that the options name.
 * A source that fails is reported on stderr and the others still load. */
TbToolRegistry *
tb_cli_build_registry (GError **error)
{
  g_autoptr(TbToolSourceSet) sources = tb_cli_get_tool_sources (FALSE, error);
  static gboolean exit_hook;

  if (sources == NULL)
    return NULL;
  g_clear_object (&session);
  session = tb_cli_open_session (sources, NULL, error);
  if (session == NULL)
    return NULL;
  for (guint i = 0; hint_specs != NULL && hint_specs[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (hint_specs[i], strcspn (hint_specs[i], "="));
      TbToolHints hints = TB_TOOL_HINT_NONE;

      /* Checked when the options were parsed. */
      tb_tool_hints_from_string (hint_specs[i] + strlen (name) + 1, &hints, NULL);
      tb_tool_registry_set_hints (tb_tool_session_get_registry (session), name, hints);
    }
  if (!exit_hook)
    {
      atexit (close_session);
      exit_hook = TRUE;
    }
  return g_object_ref (tb_tool_session_get_registry (session));
}

static void
wire_failed_cb (TbMcpWireWriter *writer,
                const GError    *error,
                gpointer         user_data)
{
  g_printerr ("toolbench-cli: %s\n", error->message);
}

/* --wire: the file is made before anything runs, so that a file that
 * cannot be written is a usage error and no server starts for nothing. */
static gboolean
open_wire (GError **error)
{
  g_autoptr(GError) local_error = NULL;

  if (wire_path == NULL || wire_writer != NULL)
    return TRUE;
  wire_writer = tb_mcp_wire_writer_new_for_path (wire_path, &local_error);
  if (wire_writer == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           local_error->message);
      return FALSE;
    }
  tb_mcp_wire_writer_set_redactor (wire_writer, tb_cli_get_output_redactor ());
  g_signal_connect (wire_writer, "failed", G_CALLBACK (wire_failed_cb), NULL);
  return TRUE;
}

/**
 * tb_cli_parse_options:
 * @context: a command's options
 * @argc: the arguments' count, changed to what remains
 * @argv: the arguments, changed to what remains
 * @tool_sources: whether the command takes the tool source options
 *   (--mcp, --tools-dir, --workspace, …)
 * @error: return location for a usage error
 *
 * Parses a command's options, with the tool source options when it takes
 * them, and checks the values the parser cannot.
 *
 * Returns: whether the options are usable
 */
gboolean
tb_cli_parse_options (GOptionContext   *context,
                      int              *argc,
                      char           ***argv,
                      gboolean          tool_sources,
                      GError          **error)
{
  if (tool_sources)
    tb_cli_add_tool_source_options (context);
  if (!g_option_context_parse (context, argc, argv, error))
    return FALSE;
  return !tool_sources || tb_cli_check_tool_source_options (error);
}

/* Checks the values of the shared options once they are parsed. */
gboolean
tb_cli_check_tool_source_options (GError **error)
{
  TbElicitationAnswer answer = TB_ELICITATION_ANSWER_NONE;
  TbCliOAuthOptions oauth = {
    .authorize = oauth_authorize,
    .client_id = oauth_client_id,
    .client_secret = oauth_client_secret,
    .client_metadata_url = oauth_client_metadata_url,
    .client_key_file = oauth_client_key,
    .id_token_file = oauth_id_token_file,
    .idp_token_endpoint = oauth_idp_token_endpoint,
    .idp_client_id = oauth_idp_client_id,
    .assertion_file = oauth_assertion_file,
  };

  if (!tb_cli_oauth_check_options (&oauth, error))
    return FALSE;
  if (mcp_protocol != NULL)
    {
      TbMcpProtocol protocol;
      g_autoptr(GError) protocol_error = NULL;

      if (!tb_mcp_protocol_from_string (mcp_protocol, &protocol, &protocol_error))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--mcp-protocol: %s",
                       protocol_error->message);
          return FALSE;
        }
    }

  if (elicitation != NULL && !tb_tool_source_set_parse_elicitation (elicitation, &answer))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--elicitation takes accept-defaults, decline or cancel, not “%s”"),
                   elicitation);
      return FALSE;
    }
  for (guint i = 0; hint_specs != NULL && hint_specs[i] != NULL; i++)
    {
      const char *equals = strchr (hint_specs[i], '=');
      TbToolHints hints;

      if (equals == NULL || equals == hint_specs[i])
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--hint takes TOOL=HINTS, such as write_file=destructive, not “%s”"),
                       hint_specs[i]);
          return FALSE;
        }
      if (!tb_tool_hints_from_string (equals + 1, &hints, error))
        return FALSE;
    }
  return open_wire (error);
}

/* Checked before anything runs: a report that cannot be written after an
 * hour of runs would lose them. */
gboolean
tb_cli_check_writable (const char  *path,
                       GError     **error)
{
  FILE *file;

  if (path == NULL || g_str_equal (path, "-"))
    return TRUE;
  file = g_fopen (path, "a");
  if (file == NULL)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot write “%s”: %s"), path, g_strerror (saved));
      return FALSE;
    }
  fclose (file);
  return TRUE;
}

/* Whether @url names this machine: local servers (Ollama, llama.cpp, a
 * test's fake) need no key. */
gboolean
tb_cli_is_local_url (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  return g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "localhost") == 0 ||
         g_strcmp0 (host, "::1") == 0;
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
  const char * const *kinds = tb_provider_kinds ();
  TbRedactor *redactor = tb_redactor_new ();

  for (guint i = 0; kinds[i] != NULL; i++)
    tb_redactor_add_secret (redactor, g_getenv (tb_provider_kind_get_key_variable (kinds[i])));
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

/**
 * tb_cli_print_json_object:
 * @object: what a command prints with --json
 *
 * Prints @object as indented JSON, as tb_cli_print_json() does.
 */
void
tb_cli_print_json_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  tb_cli_print_json (node, TRUE);
}

/**
 * tb_cli_print_json_array:
 * @array: what a command prints with --json
 *
 * Prints @array as indented JSON, as tb_cli_print_json() does.
 */
void
tb_cli_print_json_array (JsonArray *array)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), array);

  tb_cli_print_json (node, TRUE);
}

static TbTrace *
warn_of_problems (TbTrace  *trace,
                  char    **problems)
{
  for (guint i = 0; trace != NULL && problems[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), problems[i]);
  return trace;
}

/* Loads a whole trace, saying on standard error what was wrong with it
 * (damaged lines left out, events out of order). */
TbTrace *
tb_cli_load_trace (const char  *path,
                   GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_auto(GStrv) problems = NULL;
  TbTrace *trace = tb_trace_load (file, NULL, &problems, error);

  return warn_of_problems (trace, problems);
}

/* Opens a trace to be read through once, as a replay reads it: its
 * events stay in the file (tb_trace_open()). */
TbTrace *
tb_cli_open_trace (const char  *path,
                   GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_auto(GStrv) problems = NULL;
  TbTrace *trace = tb_trace_open (file, NULL, &problems, error);

  return warn_of_problems (trace, problems);
}

struct _TbCliInterrupt
{
  GCancellable *cancellable;
  char         *notice;
  guint         sigint;
  guint         sigterm;
};

static gboolean
interrupted_cb (gpointer user_data)
{
  TbCliInterrupt *watch = user_data;

  if (watch->notice != NULL && !g_cancellable_is_cancelled (watch->cancellable))
    g_printerr ("%s\n", watch->notice);
  g_cancellable_cancel (watch->cancellable);
  return G_SOURCE_CONTINUE;
}

/**
 * tb_cli_interrupt_watch:
 * @cancellable: what Ctrl+C and SIGTERM cancel
 * @notice: (nullable): what to print when they first do
 *
 * Returns: (transfer full): the watch, to end with tb_cli_interrupt_unwatch()
 */
TbCliInterrupt *
tb_cli_interrupt_watch (GCancellable *cancellable,
                        const char   *notice)
{
  TbCliInterrupt *watch = g_new0 (TbCliInterrupt, 1);

  watch->cancellable = g_object_ref (cancellable);
  watch->notice = g_strdup (notice);
  watch->sigint = g_unix_signal_add (SIGINT, interrupted_cb, watch);
  watch->sigterm = g_unix_signal_add (SIGTERM, interrupted_cb, watch);
  return watch;
}

void
tb_cli_interrupt_unwatch (TbCliInterrupt *watch)
{
  if (watch == NULL)
    return;
  g_source_remove (watch->sigint);
  g_source_remove (watch->sigterm);
  g_object_unref (watch->cancellable);
  g_free (watch->notice);
  g_free (watch);
}

/**
 * tb_cli_read_arguments:
 * @text: (nullable): the value of --args
 * @file: (nullable): the value of --args-file, "-" for standard input
 * @arguments: (out) (transfer full) (nullable): the arguments, %NULL when
 *   neither was given
 * @error: a sentence for a usage error
 *
 * The arguments of a call, as `call` and `mcp call` take them.
 *
 * Returns: whether the arguments (or their absence) are usable
 */
gboolean
tb_cli_read_arguments (const char  *text,
                       const char  *file,
                       JsonNode   **arguments,
                       GError     **error)
{
  g_autofree char *read = NULL;
  g_autoptr(GError) local_error = NULL;

  *arguments = NULL;
  if (text != NULL && file != NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("Give the arguments with --args or --args-file, not both"));
      return FALSE;
    }
  if (file != NULL && (text = read = tb_cli_read_text (file, &local_error)) == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Cannot read the arguments: %s"), local_error->message);
      return FALSE;
    }
  if (text != NULL && (*arguments = tb_json_parse (text, -1, &local_error)) == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("The arguments are not usable: %s"), local_error->message);
      return FALSE;
    }
  return TRUE;
}
