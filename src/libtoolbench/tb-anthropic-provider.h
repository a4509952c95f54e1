/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-http-provider.h"

G_BEGIN_DECLS

/**
 * TB_ANTHROPIC_DEFAULT_BASE_URL:
 *
 * Anthropic's public endpoint, which tb_anthropic_provider_new() uses when
 * it is given no base URL.
 */
#define TB_ANTHROPIC_DEFAULT_BASE_URL "https://api.anthropic.com"

/**
 * TB_ANTHROPIC_API_VERSION:
 *
 * The version of the Messages API the provider speaks, sent in the
 * `anthropic-version` header of every request.
 */
#define TB_ANTHROPIC_API_VERSION "2023-06-01"

/**
 * TB_ANTHROPIC_DEFAULT_MAX_TOKENS:
 *
 * The output limit sent when a request sets none: the Messages API
 * requires `max_tokens`.
 */
#define TB_ANTHROPIC_DEFAULT_MAX_TOKENS 4096

#define TB_TYPE_ANTHROPIC_PROVIDER (tb_anthropic_provider_get_type())

G_DECLARE_FINAL_TYPE (TbAnthropicProvider, tb_anthropic_provider, TB, ANTHROPIC_PROVIDER,
                      TbHttpProvider)

TbProvider *tb_anthropic_provider_new (const char *base_url,
                                       const char *model,
                                       const char *api_key);

G_END_DECLS
