/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * TB_REDACTED:
 *
 * What a #TbRedactor writes in place of a secret.
 */
#define TB_REDACTED "[redacted]"

#define TB_TYPE_REDACTOR (tb_redactor_get_type())

G_DECLARE_FINAL_TYPE (TbRedactor, tb_redactor, TB, REDACTOR, GObject)

TbRedactor *tb_redactor_new                 (void);
void        tb_redactor_add_secret          (TbRedactor *self,
                                             const char *secret);
gboolean    tb_redactor_is_secret_name      (const char *member_name);
gboolean    tb_redactor_is_secret_parameter (const char *parameter_name);
char       *tb_redactor_redact_text         (TbRedactor *self,
                                             const char *text);
char       *tb_redactor_redact_url          (TbRedactor *self,
                                             const char *url);
JsonNode   *tb_redactor_redact_node         (TbRedactor *self,
                                             JsonNode   *node);
char       *tb_redactor_feed                (TbRedactor *self,
                                             GString    *held,
                                             const char *piece);

G_END_DECLS
