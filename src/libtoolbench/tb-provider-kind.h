/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-provider.h"

G_BEGIN_DECLS

const char * const *tb_provider_kinds                     (void);
gboolean            tb_provider_kind_is_known             (const char  *kind);
const char         *tb_provider_kind_get_label            (const char  *kind);
const char         *tb_provider_kind_get_default_base_url (const char  *kind);
const char         *tb_provider_kind_get_key_variable     (const char  *kind);
char               *tb_provider_kind_describe_known       (void);
TbProvider         *tb_provider_new_for_kind              (const char  *kind,
                                                           const char  *base_url,
                                                           const char  *model,
                                                           const char  *api_key,
                                                           GError     **error);

G_END_DECLS
