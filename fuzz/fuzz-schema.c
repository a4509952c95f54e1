/* SPDX-License-Identifier: GPL-3.0-or-later */

#ifndef G_LOG_DOMAIN
#define G_LOG_DOMAIN "fuzz-schema"
#endif

#include "config.h"

#include <string.h>
#include <toolbench.h>

#include "schema-suite-util.h"

/* Input: a schema, a NUL byte, an instance. Without a NUL byte the text is
 * both the schema and the instance. Both go through tb_json_parse() like
 * every JSON text from outside, then the schema is compiled (with and
 * without format assertion) and the instance validated both ways; the
 * instance's text is also validated as text, which must say exactly what
 * parsing it and validating the tree says. */

static void
compare_text (TbSchema   *schema,
              const char *text,
              gsize       length)
{
  for (guint flags = 0; flags < 2; flags++)
    {
      g_autoptr(GError) parse_error = NULL;
      g_autoptr(GError) text_error = NULL;
      g_autoptr(JsonNode) node = tb_json_parse (text, length, &parse_error);
      g_autoptr(GPtrArray) tree_errors = NULL;
      g_autoptr(GPtrArray) text_errors = NULL;
      g_autofree char *tree_said = NULL;
      g_autofree char *text_said = NULL;
      gboolean tree_ok = FALSE, text_ok;

      if (node != NULL)
        tree_ok = tb_schema_validate_full (schema, node, flags, &tree_errors);
      text_ok = tb_schema_validate_text (schema, text, length, flags, &text_errors, &text_error);
      g_assert (text_ok == tree_ok);
      g_assert (text_ok == tb_schema_validate_text (schema, text, length, flags, NULL, NULL));
      g_assert ((node == NULL) == (text_error != NULL));
      if (node == NULL)
        {
          g_assert (text_errors == NULL);
          g_assert (g_str_equal (parse_error->message, text_error->message));
          continue;
        }
      tree_said = schema_errors_describe (tree_errors);
      text_said = schema_errors_describe (text_errors);
      g_assert (g_str_equal (tree_said, text_said));
    }
}

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static void
ignore_log (const char     *domain,
            GLogLevelFlags  level,
            const char     *message,
            gpointer        user_data)
{
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static gboolean initialized;
  const guint8 *nul = memchr (data, '\0', size);
  gsize schema_len = nul != NULL ? (gsize) (nul - data) : size;
  g_autoptr(JsonNode) schema_json = NULL;
  g_autoptr(JsonNode) instance = NULL;

  if (!initialized)
    {
      /* Criticals are bugs: let them abort. Debug messages are noise. */
      g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
      g_log_set_handler (NULL, G_LOG_LEVEL_DEBUG | G_LOG_LEVEL_INFO, ignore_log, NULL);
      initialized = TRUE;
    }

  if (size > 64 * 1024)
    return 0;

  schema_json = tb_json_parse ((const char *) data, schema_len, NULL);
  if (schema_json == NULL)
    return 0;
  if (nul != NULL)
    instance = tb_json_parse ((const char *) nul + 1, size - schema_len - 1, NULL);
  if (instance == NULL)
    instance = json_node_ref (schema_json);

  for (guint flags = 0; flags < 2; flags++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TbSchema) schema = tb_schema_new_full (schema_json, TB_SCHEMA_DRAFT_AUTO, flags,
                                                       NULL, &error);
      g_autoptr(GPtrArray) errors = NULL;
      g_autoptr(GPtrArray) first = NULL;
      gboolean valid, valid_first;

      if (schema == NULL)
        {
          g_assert (error != NULL && error->message[0] != '\0');
          continue;
        }
      valid = tb_schema_validate (schema, instance, &errors);
      valid_first = tb_schema_validate_full (schema, instance, TB_SCHEMA_VALIDATE_FIRST_ERROR,
                                             &first);
      /* The verdict never depends on how many errors are collected. */
      g_assert (valid == valid_first);
      g_assert (valid == (errors->len == 0));
      g_assert (valid == (first->len == 0));
      g_assert (valid == tb_schema_validate (schema, instance, NULL));
      if (nul != NULL)
        compare_text (schema, (const char *) nul + 1, size - schema_len - 1);
      else
        compare_text (schema, (const char *) data, size);
      for (guint i = 0; i < errors->len; i++)
        {
          TbSchemaError *e = g_ptr_array_index (errors, i);

          g_assert (g_utf8_validate (e->message, -1, NULL));
          g_assert (e->instance_path != NULL && e->schema_path != NULL);
        }
    }

  return 0;
}
