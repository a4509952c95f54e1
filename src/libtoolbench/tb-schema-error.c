/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema"

#include "config.h"

#include <string.h>

#include "tb-schema-private.h"

G_DEFINE_BOXED_TYPE (TbSchemaError, tb_schema_error, tb_schema_error_copy, tb_schema_error_free)

/* One allocation holds the struct and its four strings, in this order,
 * right behind it: making and freeing an error is one malloc and one free.
 * tb_schema_error_free() recognises the layout by instance_path starting
 * right after the struct; an error whose fields were allocated one by one
 * (by hand, through a binding) is freed field by field. */
TbSchemaError *
_tb_schema_error_new_len (const char *instance_path,
                          gsize       instance_path_len,
                          const char *schema_path,
                          gsize       schema_path_len,
                          const char *keyword,
                          gsize       keyword_len,
                          const char *message,
                          gsize       message_len)
{
  TbSchemaError *self = g_malloc (sizeof (TbSchemaError) + instance_path_len + schema_path_len +
                                  keyword_len + message_len + 4);
  char *p = (char *) (self + 1);

  self->instance_path = p;
  memcpy (p, instance_path, instance_path_len);
  p += instance_path_len;
  *p++ = '\0';
  self->schema_path = p;
  memcpy (p, schema_path, schema_path_len);
  p += schema_path_len;
  *p++ = '\0';
  self->keyword = p;
  memcpy (p, keyword, keyword_len);
  p += keyword_len;
  *p++ = '\0';
  self->message = p;
  memcpy (p, message, message_len);
  p[message_len] = '\0';
  return self;
}

/**
 * tb_schema_error_new:
 * @instance_path: JSON Pointer to the value that does not match; %NULL for the root
 * @schema_path: JSON Pointer to the keyword that failed; %NULL for ""
 * @keyword: the keyword that failed, such as "required"; %NULL for ""
 * @message: the sentence a person reads; %NULL for ""
 *
 * Makes an error, as the validator does; the strings are copied.
 *
 * Returns: (transfer full): the new error; free it with tb_schema_error_free()
 */
TbSchemaError *
tb_schema_error_new (const char *instance_path,
                     const char *schema_path,
                     const char *keyword,
                     const char *message)
{
  instance_path = instance_path != NULL ? instance_path : "";
  schema_path = schema_path != NULL ? schema_path : "";
  keyword = keyword != NULL ? keyword : "";
  message = message != NULL ? message : "";

  return _tb_schema_error_new_len (instance_path, strlen (instance_path),
                                   schema_path, strlen (schema_path),
                                   keyword, strlen (keyword),
                                   message, strlen (message));
}

/**
 * tb_schema_error_copy:
 * @self: an error
 *
 * Copies an error, for keeping it beyond the array it came in.
 *
 * Returns: (transfer full): a new error with the same paths, keyword and message
 */
TbSchemaError *
tb_schema_error_copy (const TbSchemaError *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return tb_schema_error_new (self->instance_path, self->schema_path,
                              self->keyword, self->message);
}

/**
 * tb_schema_error_free:
 * @self: an error, or %NULL
 *
 * Frees an error and its strings; %NULL is ignored.
 */
void
tb_schema_error_free (TbSchemaError *self)
{
  if (self == NULL)
    return;

  if (self->instance_path != (char *) (self + 1))
    {
      g_free (self->instance_path);
      g_free (self->schema_path);
      g_free (self->keyword);
      g_free (self->message);
    }
  g_free (self);
}

/**
 * tb_schema_error_to_string:
 * @self: an error
 *
 * Writes the error as a line to show a person: the place in the instance,
 * then the sentence.
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
