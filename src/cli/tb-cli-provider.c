/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-cli.h"

/* The provider a command talks to: --provider, --base-url and
 * --api-key-env, the same in run, eval and models, the kinds listed below
 * the options, and the provider made from them with the key read from the
 * environment. */

/**
 * tb_cli_add_provider_options:
 * @context: a command's options
 * @options: where the values go
 * @provider_help: what --provider says, which differs by command
 *
 * Adds --provider, --base-url and --api-key-env to @context and lists the
 * provider kinds below the options.
 */
void
tb_cli_add_provider_options (GOptionContext       *context,
                             TbCliProviderOptions *options,
                             const char           *provider_help)
{
  const GOptionEntry entries[] = {
    { "provider", 'p', 0, G_OPTION_ARG_STRING, &options->kind, provider_help, N_("KIND") },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &options->base_url,
      N_("The provider's base URL (default: the kind's public endpoint)"), N_("URL") },
    { "api-key-env", 0, 0, G_OPTION_ARG_STRING, &options->key_variable,
      N_("The environment variable holding the key (default: the kind's, listed below)"),
      N_("VAR") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  tb_cli_describe_provider_kinds (context);
}

/**
 * tb_cli_check_provider_kind:
 * @options: the parsed options
 * @allow_scripted: whether scripted is a kind here
 * @error: return location for a usage error
 *
 * Returns: whether --provider names a known kind (or none was given)
 */
gboolean
tb_cli_check_provider_kind (const TbCliProviderOptions  *options,
                            gboolean                     allow_scripted,
                            GError                     **error)
{
  g_autofree char *known = NULL;

  if (options->kind == NULL || tb_provider_kind_is_known (options->kind) ||
      (allow_scripted && g_str_equal (options->kind, "scripted")))
    return TRUE;

  known = tb_provider_kind_describe_known ();
  if (allow_scripted)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _("Unknown provider “%s”: use %s or scripted"), options->kind, known);
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _("Unknown provider “%s”: use one of %s"), options->kind, known);
  return FALSE;
}

/**
 * tb_cli_provider_options_get_key_variable:
 * @options: the parsed options
 *
 * Returns: the variable the key is read from: --api-key-env, else the
 *   kind's
 */
const char *
tb_cli_provider_options_get_key_variable (const TbCliProviderOptions *options)
{
  if (options->key_variable != NULL)
    return options->key_variable;
  return tb_provider_kind_get_key_variable (options->kind);
}

void
tb_cli_provider_options_clear (TbCliProviderOptions *options)
{
  g_clear_pointer (&options->kind, g_free);
  g_clear_pointer (&options->base_url, g_free);
  g_clear_pointer (&options->key_variable, g_free);
}

/**
 * tb_cli_provider_options_has_key:
 * @options: the parsed options, with a live kind
 *
 * Local servers (Ollama, llama.cpp, a test's fake) need no key; remote ones
 * do. A kind whose own endpoint is local (Ollama's) needs none without
 * --base-url.
 *
 * Returns: whether the key variable is set, or the endpoint needs none
 */
gboolean
tb_cli_provider_options_has_key (const TbCliProviderOptions *options)
{
  const char *key = g_getenv (tb_cli_provider_options_get_key_variable (options));

  if (key != NULL && *key != '\0')
    return TRUE;
  return tb_cli_is_local_url (options->base_url != NULL
                              ? options->base_url
                              : tb_provider_kind_get_default_base_url (options->kind));
}

/**
 * tb_cli_make_provider:
 * @options: --provider (scripted when %NULL), --base-url, --api-key-env
 * @model: (nullable): the model; required but for scripted
 * @script: (nullable): the script for scripted; %NULL for the demo
 * @error: return location for an error whose message is for the person;
 *   in %G_OPTION_ERROR for a usage error
 *
 * The key is read from the environment only; it is never printed.
 */
TbProvider *
tb_cli_make_provider (const TbCliProviderOptions  *options,
                      const char                  *model,
                      const char                  *script,
                      GError                     **error)
{
  const char *kind = options->kind;
  const char *key_variable;

  if (kind == NULL || g_str_equal (kind, "scripted"))
    {
      if (script == NULL)
        return TB_PROVIDER (tb_scripted_provider_new_demo ());
      return TB_PROVIDER (tb_scripted_provider_new_from_file (script, error));
    }

  if (!tb_cli_check_provider_kind (options, TRUE, error))
    return NULL;
  if (model == NULL || *model == '\0')
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("The %s provider needs --model"), kind);
      return NULL;
    }

  key_variable = tb_cli_provider_options_get_key_variable (options);
  if (!tb_cli_provider_options_has_key (options))
    g_printerr (_("warning: $%s is not set; the provider will probably refuse the request\n"),
                key_variable);

  return tb_provider_new_for_kind (kind, options->base_url, model, g_getenv (key_variable),
                                   error);
}

/**
 * tb_cli_describe_provider_kinds:
 * @context: the options of a command that takes --provider
 *
 * Lists the provider kinds below the options, each with its name for
 * people and the variable its key is read from.
 */
void
tb_cli_describe_provider_kinds (GOptionContext *context)
{
  const char * const *kinds = tb_provider_kinds ();
  g_autoptr(GString) text = g_string_new (_("Provider kinds, and where each one's key is read "
                                             "from:"));

  for (guint i = 0; kinds[i] != NULL; i++)
    g_string_append_printf (text, "\n  %-18s %-20s $%s", kinds[i],
                            tb_provider_kind_get_label (kinds[i]),
                            tb_provider_kind_get_key_variable (kinds[i]));
  g_option_context_set_description (context, text->str);
}
