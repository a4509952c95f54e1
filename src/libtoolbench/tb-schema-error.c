/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include "tb-schema-error.h"

G_DEFINE_BOXED_TYPE (TbSchemaError, tb_schema_error, tb_schema_error_copy, tb_schema_error_free)

TbSchemaError *
tb_schema_error_new (const char *instance_path,
                     const char *schema_path,
                     const char *keyword,
                     const char *message)
{
  TbSchemaError *self = g_new0 (TbSchemaError, 1);

  self->instance_path = g_strdup (instance_path != NULL ? instance_path : "");
  self->schema_path = g_strdup (schema_path != NULL ? schema_path : "");
  self->keyword = g_strdup (keyword != NULL ? keyword : "");
  self->message = g_strdup (message != NULL ? message : "");

  return self;
}

TbSchemaError *
tb_schema_error_copy (const TbSchemaError *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return tb_schema_error_new (self->instance_path, self->schema_path,
                              self->keyword, self->message);
}

void
tb_schema_error_free (TbSchemaError *self)
{
  if (self == NULL)
    return;

  g_free (self->instance_path);
  g_free (self->schema_path);
  g_free (self->keyword);
  g_free (self->message);
  g_free (self);
}

/**
 * tb_schema_error_to_string:
 *
 * Returns: (transfer full): "/path: message", or "message" at the root
 */
char *
tb_schema_error_to_string (const TbSchemaError *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->instance_path[0] == '\0')
    return g_strdup (self->message);
  return g_strdup_printf ("%s: %s", self->instance_path, self->message);
}
