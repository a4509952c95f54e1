/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-http-provider.h"

G_BEGIN_DECLS

#define TB_ANTHROPIC_DEFAULT_BASE_URL "https://api.anthropic.com"
#define TB_ANTHROPIC_API_VERSION "2023-06-01"
#define TB_ANTHROPIC_DEFAULT_MAX_TOKENS 4096

#define TB_TYPE_ANTHROPIC_PROVIDER (tb_anthropic_provider_get_type())

G_DECLARE_FINAL_TYPE (TbAnthropicProvider, tb_anthropic_provider, TB, ANTHROPIC_PROVIDER,
                      TbHttpProvider)

TbProvider *tb_anthropic_provider_new (const char *base_url,
                                       const char *model,
                                       const char *api_key);

G_END_DECLS
