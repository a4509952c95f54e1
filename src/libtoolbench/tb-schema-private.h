/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include "tb-schema.h"

G_BEGIN_DECLS

typedef struct _TbSchemaRegex TbSchemaRegex;

TbSchemaRegex *_tb_schema_regex_new      (const char     *ecma_pattern,
                                          GError        **error);
int       _tb_schema_regex_match         (TbSchemaRegex  *self,
                                          const char     *subject,
                                          gsize           length);
void      _tb_schema_regex_free          (TbSchemaRegex  *self);
char     *_tb_schema_regex_translate     (const char  *ecma_pattern,
                                          GError     **error);
gboolean  _tb_schema_format_is_checked   (const char  *format);
gboolean  _tb_schema_format_check        (const char  *format,
                                          const char  *value);
char     *_tb_schema_uri_resolve         (const char  *base,
                                          const char  *reference);
JsonNode *_tb_schema_builtin_lookup      (const char  *uri);
TbSchemaError *_tb_schema_error_new_len  (const char  *instance_path,
                                          gsize        instance_path_len,
                                          const char  *schema_path,
                                          gsize        schema_path_len,
                                          const char  *keyword,
                                          gsize        keyword_len,
                                          const char  *message,
                                          gsize        message_len);

G_END_DECLS
