/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-http-provider.h"

G_BEGIN_DECLS

/**
 * TB_OPENAI_RESPONSES_DEFAULT_BASE_URL:
 *
 * OpenAI's public endpoint, which tb_openai_responses_provider_new() uses
 * when it is given no base URL.
 */
#define TB_OPENAI_RESPONSES_DEFAULT_BASE_URL "https://api.openai.com/v1"

#define TB_TYPE_OPENAI_RESPONSES_PROVIDER (tb_openai_responses_provider_get_type())

G_DECLARE_FINAL_TYPE (TbOpenaiResponsesProvider, tb_openai_responses_provider, TB,
                      OPENAI_RESPONSES_PROVIDER, TbHttpProvider)

TbProvider *tb_openai_responses_provider_new (const char *base_url,
                                              const char *model,
                                              const char *api_key);
gboolean    tb_openai_responses_provider_get_use_previous_response_id
                                             (TbOpenaiResponsesProvider *self);
void        tb_openai_responses_provider_set_use_previous_response_id
                                             (TbOpenaiResponsesProvider *self,
                                              gboolean                   use);

G_END_DECLS
