/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-http-provider.h"

G_BEGIN_DECLS

/**
 * TB_OLLAMA_DEFAULT_BASE_URL:
 *
 * Where a local Ollama server listens by default, which
 * tb_ollama_provider_new() uses when it is given no base URL.
 */
#define TB_OLLAMA_DEFAULT_BASE_URL "http://localhost:11434"

#define TB_TYPE_OLLAMA_PROVIDER (tb_ollama_provider_get_type())

G_DECLARE_FINAL_TYPE (TbOllamaProvider, tb_ollama_provider, TB, OLLAMA_PROVIDER, TbHttpProvider)

TbProvider *tb_ollama_provider_new (const char *base_url,
                                    const char *model,
                                    const char *api_key);

G_END_DECLS
