/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-cli.h"

/* toolbench-cli models: the preferences' "Test connection" and model list
 * without the app. One GET with the key from the environment; the names
 * go to standard output, one per line (or as JSON), what the endpoint
 * answered to standard error. Exit status: 0 connected, 1 the endpoint
 * failed, 2 usage error. */

int
tb_cli_models (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(TbCliProviderOptions) provider_options = { NULL };
  g_autofree char *report = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbRedactor) redactor = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) models = NULL;
  const char *key_variable;
  gboolean json = FALSE;
  int timeout_ms = 0;
  const GOptionEntry entries[] = {
    { "timeout-ms", 0, 0, G_OPTION_ARG_INT, &timeout_ms,
      N_("How long to wait for the answer (default: 60000)"), N_("MS") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the names as a JSON array"), NULL },
    { NULL }
  };

  context = tb_cli_context_new (NULL,
                                _("Ask a provider's endpoint for its models, with the key "
                                  "from the environment, as “Test connection” in the "
                                  "preferences does.\n\n"
                                  "Exit status: 0 connected, 1 when the endpoint failed, "
                                  "2 on a usage error."), NULL);
  tb_cli_add_provider_options (context, &provider_options,
                               N_("A provider kind listed below (required)"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!tb_cli_parse_options (context, &argc, &argv, FALSE, &error) ||
      !tb_cli_check_provider_kind (&provider_options, FALSE, &error))
    return tb_cli_usage_error (context, "%s", error->message);
  if (argc > 1)
    return tb_cli_usage_error (context, _("Unexpected argument “%s”"), argv[1]);
  if (provider_options.kind == NULL)
    return tb_cli_usage_error (context, _("Name the provider kind with --provider"));
  if (timeout_ms < 0)
    return tb_cli_usage_error (context, _("--timeout-ms must be a positive number"));

  key_variable = tb_cli_provider_options_get_key_variable (&provider_options);
  redactor = tb_cli_new_redactor (key_variable);
  provider = tb_provider_new_for_kind (provider_options.kind, provider_options.base_url, NULL,
                                       g_getenv (key_variable), &error);
  g_assert (provider != NULL);
  if (timeout_ms > 0)
    tb_http_provider_set_timeout_ms (TB_HTTP_PROVIDER (provider), timeout_ms);

  tb_http_provider_list_models_async (TB_HTTP_PROVIDER (provider), NULL, tb_cli_keep_result,
                                      &result);
  models = tb_http_provider_list_models_finish (TB_HTTP_PROVIDER (provider),
                                                tb_cli_wait_for (&result), &report, &error);
  if (models == NULL)
    {
      g_autofree char *message = tb_redactor_redact_text (redactor, error->message);

      g_autofree char *shown = tb_text_escape_controls (message, -1);

      g_printerr ("toolbench-cli: %s\n", shown);
      if (!tb_cli_provider_options_has_key (&provider_options))
        g_printerr (_("toolbench-cli: $%s is not set; the endpoint may want a key.\n"),
                    key_variable);
      return TB_CLI_EXIT_FAILED;
    }

  {
    g_autofree char *shown = tb_text_escape_controls (report, -1);

    g_printerr ("%s\n", shown);
  }
  if (json)
    {
      g_autoptr(JsonArray) array = json_array_new ();

      for (guint i = 0; models[i] != NULL; i++)
        json_array_add_string_element (array, models[i]);
      tb_cli_print_json_array (array);
    }
  else
    {
      /* Names come from a server: no control character reaches the terminal. */
      for (guint i = 0; models[i] != NULL; i++)
        {
          g_autofree char *shown = tb_text_escape_controls (models[i], -1);

          g_print ("%s\n", shown);
        }
    }
  return TB_CLI_EXIT_OK;
}
