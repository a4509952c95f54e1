/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-provider"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-anthropic-provider.h"
#include "tb-gemini-provider.h"
#include "tb-ollama-provider.h"
#include "tb-openai-provider.h"
#include "tb-openai-responses-provider.h"
#include "tb-provider-kind.h"

/* The one place that knows which wire formats exist. The app's
 * preferences (the kind list, labels, "Test connection"), the CLI's
 * --provider and the key variables it reads by default all come from this
 * table: adding a provider is one row here and its class. */

typedef struct
{
  const char *kind;
  const char *label;          /* for people; translated when shown */
  const char *base_url;       /* the public endpoint */
  const char *key_variable;   /* the environment variable the CLI reads */
  GType     (*get_type) (void);
} KindInfo;

static const KindInfo kind_table[] = {
  { "openai", N_("OpenAI-compatible"), TB_OPENAI_DEFAULT_BASE_URL, "OPENAI_API_KEY",
    tb_openai_provider_get_type },
  { "openai-responses", N_("OpenAI Responses"), TB_OPENAI_RESPONSES_DEFAULT_BASE_URL,
    "OPENAI_API_KEY", tb_openai_responses_provider_get_type },
  { "anthropic", N_("Anthropic"), TB_ANTHROPIC_DEFAULT_BASE_URL, "ANTHROPIC_API_KEY",
    tb_anthropic_provider_get_type },
  { "gemini", N_("Gemini"), TB_GEMINI_DEFAULT_BASE_URL, "GEMINI_API_KEY",
    tb_gemini_provider_get_type },
  /* A local server needs no key; ollama.com's API takes one in this variable. */
  { "ollama", N_("Ollama"), TB_OLLAMA_DEFAULT_BASE_URL, "OLLAMA_API_KEY",
    tb_ollama_provider_get_type },
};

static const KindInfo *
lookup (const char *kind)
{
  for (guint i = 0; kind != NULL && i < G_N_ELEMENTS (kind_table); i++)
    if (g_str_equal (kind_table[i].kind, kind))
      return &kind_table[i];
  return NULL;
}

/**
 * tb_provider_kinds:
 *
 * Lists the kinds of HTTP provider, which the app's preferences, the CLI's
 * `--provider` and the models call all offer.
 *
 * Returns: (transfer none) (array zero-terminated=1): the kinds of HTTP
 *   provider tb_provider_new_for_kind() makes, in the order people see them
 */
const char * const *
tb_provider_kinds (void)
{
  static const char **kinds = NULL;

  if (g_once_init_enter (&kinds))
    {
      const char **names = g_new0 (const char *, G_N_ELEMENTS (kind_table) + 1);

      for (guint i = 0; i < G_N_ELEMENTS (kind_table); i++)
        names[i] = kind_table[i].kind;
      g_once_init_leave (&kinds, names);
    }
  return (const char * const *) kinds;
}

/**
 * tb_provider_kind_is_known:
 * @kind: (nullable): a kind
 *
 * Tells whether a word names a kind of HTTP provider.
 *
 * Returns: whether tb_provider_new_for_kind() makes providers of @kind
 */
gboolean
tb_provider_kind_is_known (const char *kind)
{
  return lookup (kind) != NULL;
}

/**
 * tb_provider_kind_get_label:
 * @kind: (nullable): a kind
 *
 * Gives a kind's name as the preferences show it, such as
 * "OpenAI-compatible".
 *
 * Returns: (transfer none): the kind's name for people, translated, or
 *   @kind itself when it is not known
 */
const char *
tb_provider_kind_get_label (const char *kind)
{
  const KindInfo *info = lookup (kind);

  return info != NULL ? g_dgettext (GETTEXT_PACKAGE, info->label) : kind;
}

/**
 * tb_provider_kind_get_default_base_url:
 * @kind: (nullable): a kind
 *
 * Gives the endpoint a kind of provider uses when no base URL is given.
 *
 * Returns: (transfer none) (nullable): the kind's public endpoint, or
 *   %NULL when @kind is not known
 */
const char *
tb_provider_kind_get_default_base_url (const char *kind)
{
  const KindInfo *info = lookup (kind);

  return info != NULL ? info->base_url : NULL;
}

/**
 * tb_provider_kind_get_key_variable:
 * @kind: (nullable): a kind
 *
 * Gives the environment variable the CLI reads a kind's key from, such as
 * `OPENAI_API_KEY`.
 *
 * Returns: (transfer none) (nullable): the environment variable that holds
 *   the kind's key by default, or %NULL when @kind is not known
 */
const char *
tb_provider_kind_get_key_variable (const char *kind)
{
  const KindInfo *info = lookup (kind);

  return info != NULL ? info->key_variable : NULL;
}

/**
 * tb_provider_kind_describe_known:
 *
 * Lists the kinds of provider for an error message about an unknown one.
 *
 * Returns: (transfer full): the known kinds as a list for a sentence,
 *   "openai, openai-responses, anthropic, gemini, ollama"
 */
char *
tb_provider_kind_describe_known (void)
{
  return g_strjoinv (", ", (char **) tb_provider_kinds ());
}

/**
 * tb_provider_new_for_kind:
 * @kind: a wire format, one of tb_provider_kinds()
 * @base_url: (nullable): the endpoint; %NULL for the kind's public one
 * @model: (nullable): the model, or %NULL to set it later with
 *   tb_http_provider_set_model(); a request without one fails with
 *   %TB_PROVIDER_ERROR_CONFIG
 * @api_key: (nullable): the key; never logged or recorded
 * @error: return location for a %TB_PROVIDER_ERROR_CONFIG error
 *
 * Makes an HTTP provider of a kind named by a word, as the CLI's
 * `--provider` and the app's preferences do.
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
  const KindInfo *info;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = lookup (kind);
  if (info == NULL)
    {
      g_autofree char *known = tb_provider_kind_describe_known ();

      g_set_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_CONFIG,
                   /* Translators: a provider kind, then the known ones */
                   _("Unknown provider “%s”: use one of %s"), kind ? kind : "", known);
      return NULL;
    }
  return g_object_new (info->get_type (),
                       "base-url", base_url != NULL ? base_url : info->base_url,
                       "model", model,
                       "api-key", api_key,
                       NULL);
}
