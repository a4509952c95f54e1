/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define TB_TYPE_SCHEMA_ERROR (tb_schema_error_get_type ())

/**
 * TbSchemaError:
 * @instance_path: JSON Pointer to the offending value in the instance ("" is the root)
 * @schema_path: JSON Pointer to the keyword in the schema that failed
 * @keyword: the keyword ("required", "maximum", …)
 * @message: a sentence a person understands ("must be at most 10")
 *
 * One reason why an instance does not match a schema. The strings belong
 * to the error and are read-only: to change one, make a new error with
 * tb_schema_error_new().
 */
typedef struct
{
  char *instance_path;
  char *schema_path;
  char *keyword;
  char *message;
} TbSchemaError;

GType          tb_schema_error_get_type  (void) G_GNUC_CONST;
TbSchemaError *tb_schema_error_new       (const char          *instance_path,
                                          const char          *schema_path,
                                          const char          *keyword,
                                          const char          *message);
TbSchemaError *tb_schema_error_copy      (const TbSchemaError *self);
void           tb_schema_error_free      (TbSchemaError       *self);
char          *tb_schema_error_to_string (const TbSchemaError *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbSchemaError, tb_schema_error_free)

G_END_DECLS
