/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-http-provider.h"

G_BEGIN_DECLS

/**
 * TB_OPENAI_DEFAULT_BASE_URL:
 *
 * OpenAI's public endpoint, which tb_openai_provider_new() uses when it is
 * given no base URL.
 */
#define TB_OPENAI_DEFAULT_BASE_URL "https://api.openai.com/v1"

#define TB_TYPE_OPENAI_PROVIDER (tb_openai_provider_get_type())

G_DECLARE_FINAL_TYPE (TbOpenaiProvider, tb_openai_provider, TB, OPENAI_PROVIDER, TbHttpProvider)

TbProvider *tb_openai_provider_new (const char *base_url,
                                    const char *model,
                                    const char *api_key);

G_END_DECLS
