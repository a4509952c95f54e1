/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tb-cli.h"

/* Signing in to HTTP MCP servers from the command line: the --oauth-*
 * options (checked once, files read once), the setup every server's
 * TbMcpAuth gets (mode, client, what is said on standard error while
 * signing in), and `mcp logout`. A client secret comes from
 * --oauth-client-secret or, better since ps does not show it, from
 * $TOOLBENCH_OAUTH_CLIENT_SECRET; it joins the secrets the output
 * redactor hides. */

#define SECRET_VARIABLE "TOOLBENCH_OAUTH_CLIENT_SECRET"
#define MAX_FILE (64 * 1024)

static struct
{
  gboolean       checked;
  TbMcpAuthMode  mode;
  char          *client_id;
  char          *client_secret;
  char          *client_metadata_url;
  char          *client_key;
  char          *id_token;
  char          *idp_token_endpoint;
  char          *idp_client_id;
  char          *assertion;
  gboolean       told_memory;
} oauth;

static char *
read_small_file (const char  *option,
                 const char  *path,
                 GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: an option, then why its file cannot be read */
                   _("%s: %s"), option, local_error->message);
      return NULL;
    }
  if (length > MAX_FILE || !g_utf8_validate (contents, length, NULL) ||
      strlen (contents) != length)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: “%s” is not a small text file"), option, path);
      return NULL;
    }
  return g_strstrip (g_steal_pointer (&contents));
}

/**
 * tb_cli_oauth_check_options:
 *
 * Checks the --oauth-* options once and keeps what they name.
 *
 * Returns: whether they are usable
 */
gboolean
tb_cli_oauth_check_options (const TbCliOAuthOptions  *options,
                            GError                  **error)
{
  const char *secret;

  if (oauth.checked)
    return TRUE;

  if (options->authorize == NULL || g_str_equal (options->authorize, "browser"))
    oauth.mode = TB_MCP_AUTH_MODE_BROWSER;
  else if (g_str_equal (options->authorize, "fetch"))
    oauth.mode = TB_MCP_AUTH_MODE_FETCH;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--oauth-authorize takes browser or fetch, not “%s”"), options->authorize);
      return FALSE;
    }

  secret = options->client_secret != NULL ? options->client_secret : g_getenv (SECRET_VARIABLE);
  if (secret != NULL && *secret != '\0' && options->client_id == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           options->client_secret != NULL
                             ? _("--oauth-client-secret needs --oauth-client-id")
                             : _("$TOOLBENCH_OAUTH_CLIENT_SECRET is set, but no "
                                 "--oauth-client-id"));
      return FALSE;
    }
  if (options->assertion_file != NULL && options->client_id == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--oauth-assertion-file needs --oauth-client-id"));
      return FALSE;
    }
  if (options->client_key_file != NULL && options->client_id == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--oauth-client-key needs --oauth-client-id"));
      return FALSE;
    }
  if (options->client_metadata_url != NULL &&
      !g_str_has_prefix (options->client_metadata_url, "https://"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--oauth-client-metadata-url must be an https:// URL, not “%s”"),
                   options->client_metadata_url);
      return FALSE;
    }
  if ((options->id_token_file != NULL) != (options->idp_token_endpoint != NULL))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--oauth-id-token-file and --oauth-idp-token-endpoint go "
                             "together"));
      return FALSE;
    }

  if (options->client_key_file != NULL)
    {
      g_autoptr(TbMcpAuth) probe = tb_mcp_auth_new ("probe", "https://localhost/");
      g_autoptr(GError) key_error = NULL;

      oauth.client_key = read_small_file ("--oauth-client-key", options->client_key_file, error);
      if (oauth.client_key == NULL)
        return FALSE;
      if (!tb_mcp_auth_set_client_key (probe, oauth.client_key, &key_error))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--oauth-client-key: %s",
                       key_error->message);
          return FALSE;
        }
    }
  if (options->id_token_file != NULL)
    {
      oauth.id_token = read_small_file ("--oauth-id-token-file", options->id_token_file, error);
      if (oauth.id_token == NULL)
        return FALSE;
      tb_redactor_add_secret (tb_cli_get_output_redactor (), oauth.id_token);
    }

  if (options->assertion_file != NULL)
    {
      oauth.assertion = read_small_file ("--oauth-assertion-file", options->assertion_file, error);
      if (oauth.assertion == NULL)
        return FALSE;
      tb_redactor_add_secret (tb_cli_get_output_redactor (), oauth.assertion);
    }

  oauth.client_id = g_strdup (options->client_id);
  oauth.client_secret = secret != NULL && *secret != '\0' ? g_strdup (secret) : NULL;
  oauth.client_metadata_url = g_strdup (options->client_metadata_url);
  oauth.idp_token_endpoint = g_strdup (options->idp_token_endpoint);
  oauth.idp_client_id = g_strdup (options->idp_client_id);
  if (oauth.client_secret != NULL)
    tb_redactor_add_secret (tb_cli_get_output_redactor (), oauth.client_secret);
  oauth.checked = TRUE;
  return TRUE;
}

static gboolean
present_url_cb (TbMcpAuth  *auth,
                const char *url,
                gpointer    user_data)
{
  if (tb_mcp_auth_get_mode (auth) == TB_MCP_AUTH_MODE_FETCH)
    /* Translators: a server name, then a URL */
    g_printerr (_("toolbench-cli: signing in to the MCP server “%s” without a browser at %s\n"),
                tb_mcp_auth_get_server_name (auth), url);
  else
    g_printerr (_("toolbench-cli: sign in to the MCP server “%s” in your browser; if none "
                  "opens, open this address:\n%s\n"),
                tb_mcp_auth_get_server_name (auth), url);
  return FALSE;
}

static void
state_cb (TbMcpAuth  *auth,
          GParamSpec *pspec,
          gpointer    user_data)
{
  TbSecretStore *store = tb_mcp_auth_get_secret_store (auth);

  if (tb_mcp_auth_get_state (auth) != TB_MCP_AUTH_STATE_SIGNED_IN)
    return;
  /* A sign-in a person saw start, rather than tokens read back. */
  if (tb_mcp_auth_get_authorization_url (auth) != NULL)
    /* Translators: a server name, then who signed in */
    g_printerr (_("toolbench-cli: signed in to the MCP server “%s” as %s\n"),
                tb_mcp_auth_get_server_name (auth), tb_mcp_auth_get_account (auth));
  if (tb_secret_store_is_in_memory (store) && !oauth.told_memory)
    {
      oauth.told_memory = TRUE;
      g_printerr ("toolbench-cli: %s\n", tb_secret_store_get_fallback_message (store));
    }
}

/**
 * tb_cli_setup_auth:
 *
 * What the --oauth-* options say, for one server's #TbMcpAuth.
 */
void
tb_cli_setup_auth (TbMcpAuth *auth,
                   gpointer   user_data)
{
  tb_mcp_auth_set_mode (auth, oauth.mode);
  tb_mcp_auth_set_client (auth, oauth.client_id, oauth.client_secret);
  tb_mcp_auth_set_client_metadata_url (auth, oauth.client_metadata_url);
  if (oauth.client_key != NULL)
    tb_mcp_auth_set_client_key (auth, oauth.client_key, NULL);
  if (oauth.id_token != NULL)
    tb_mcp_auth_set_identity_assertion (auth, oauth.idp_token_endpoint, oauth.idp_client_id,
                                        oauth.id_token);
  tb_mcp_auth_set_assertion (auth, oauth.assertion);
  g_signal_connect (auth, "present-url", G_CALLBACK (present_url_cb), NULL);
  g_signal_connect (auth, "notify::state", G_CALLBACK (state_cb), NULL);
}

/**
 * tb_cli_mcp_logout:
 *
 * `mcp logout NAME|URL`: forgets the tokens and the client registration
 * kept for a server, whatever URL (or name) it had.
 */
int
tb_cli_mcp_logout (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TbSecretStore *store = tb_secret_store_get_default ();
  gboolean removed = FALSE;
  gboolean is_url;

  context = tb_cli_context_new (_("NAME|URL"),
                                _("Forget the tokens and the client registration kept for an "
                                  "MCP server, in the keyring and in memory."), NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc < 2)
    return tb_cli_usage_error (context, _("Name the MCP server to sign out of"));
  if (argc > 2)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[2]);

  is_url = g_str_has_prefix (argv[1], "http://") || g_str_has_prefix (argv[1], "https://");
  tb_secret_store_forget_async (store, TB_SECRET_KIND_MCP_AUTHORIZATION,
                                is_url ? NULL : argv[1], is_url ? argv[1] : NULL, NULL,
                                tb_cli_keep_result, &result);
  if (!tb_secret_store_forget_finish (store, tb_cli_wait_for (&result), &removed, &error))
    return tb_cli_fail (error);
  if (removed)
    /* Translators: a server name or URL */
    g_print (_("Signed out of the MCP server “%s”: its tokens and client registration are "
               "forgotten.\n"), argv[1]);
  else
    g_print (_("Nothing was kept for the MCP server “%s”; there is nothing to sign out of.\n"),
             argv[1]);
  if (tb_secret_store_is_in_memory (store))
    g_printerr ("toolbench-cli: %s\n", tb_secret_store_get_fallback_message (store));
  return TB_CLI_EXIT_OK;
}
