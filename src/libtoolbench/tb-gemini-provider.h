/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-http-provider.h"

G_BEGIN_DECLS

/**
 * TB_GEMINI_DEFAULT_BASE_URL:
 *
 * Google's public endpoint of the Gemini API, which
 * tb_gemini_provider_new() uses when it is given no base URL.
 */
#define TB_GEMINI_DEFAULT_BASE_URL "https://generativelanguage.googleapis.com/v1beta"

#define TB_TYPE_GEMINI_PROVIDER (tb_gemini_provider_get_type())

G_DECLARE_FINAL_TYPE (TbGeminiProvider, tb_gemini_provider, TB, GEMINI_PROVIDER, TbHttpProvider)

TbProvider *tb_gemini_provider_new (const char *base_url,
                                    const char *model,
                                    const char *api_key);

G_END_DECLS
