/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-anthropic-provider.h"
#include "tb-gemini-provider.h"
#include "tb-openai-provider.h"
#include "tb-provider-kind.h"

/* The one place that knows which wire formats exist: the app's
 * preferences and the CLI's --provider both make providers here. */

static const char *const kinds[] = { "openai", "anthropic", "gemini", NULL };

/**
 * tb_provider_kinds:
 *
 * Returns: (transfer none) (array zero-terminated=1): the kinds of HTTP
 *   provider tb_provider_new_for_kind() makes
 */
const char * const *
tb_provider_kinds (void)
{
  return (const char * const *) kinds;
}

/**
 * tb_provider_new_for_kind:
 * @kind: a wire format: "openai" (and compatible servers), "anthropic" or "gemini"
 * @base_url: (nullable): the endpoint; %NULL for the kind's public one
 * @model: (nullable): the model, or %NULL to set it later with
 *   tb_http_provider_set_model(); a request without one fails with
 *   %TB_PROVIDER_ERROR_CONFIG
 * @api_key: (nullable): the key; never logged or recorded
 * @error: return location for a %TB_PROVIDER_ERROR_CONFIG error
 *
 * Returns: (transfer full) (nullable): the provider, or %NULL with @error
 *   set when @kind is unknown
 */
TbProvider *
tb_provider_new_for_kind (const char  *kind,
                          const char  *base_url,
                          const char  *model,
                          const char  *api_key,
                          GError     **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (kind == NULL || !g_strv_contains (kinds, kind))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) kinds);

      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONFIG,
                   /* Translators: a provider kind, then the known ones */
                   _("Unknown provider “%s”: use one of %s"), kind ? kind : "", known);
      return NULL;
    }
  if (g_str_equal (kind, "anthropic"))
    return tb_anthropic_provider_new (base_url, model, api_key);
  if (g_str_equal (kind, "gemini"))
    return tb_gemini_provider_new (base_url, model, api_key);
  return tb_openai_provider_new (base_url, model, api_key);
}
