/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <toolbench.h>

/* Reading the official JSON-Schema-Test-Suite, for the tests that run it:
 * draft-07 from Debian's json-schema-test-suite package, draft 2020-12
 * from the copy beside the project. */

#define DEBIAN_SUITE "/usr/share/json-schema-test-suite"

/* The draft 2020-12 suite beside the project, or %NULL when the tests do
 * not know where the project is (TOOLBENCH_SOURCE_ROOT unset). */
static inline char *
schema_suite_root_2020 (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");

  if (root == NULL)
    return NULL;
  return g_build_filename (root, "..", "shared", "json-schema-test-suite", NULL);
}

/* Every field of every error, one error a line: what the tree and the text
 * validators must agree on to the letter. */
static inline char *
schema_errors_describe (GPtrArray *errors)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; errors != NULL && i < errors->len; i++)
    {
      TbSchemaError *e = g_ptr_array_index (errors, i);

      g_string_append_printf (out, "%s|%s|%s|%s\n", e->instance_path, e->schema_path,
                              e->keyword, e->message);
    }
  return g_string_free (out, FALSE);
}

/* A file of the suite, which must be JSON. */
static inline JsonNode *
schema_suite_load_json (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  JsonNode *node;

  g_file_get_contents (path, &text, &len, &error);
  g_assert_no_error (error);
  node = tb_json_parse (text, len, &error);
  g_assert_no_error (error);
  return node;
}

/* Adds the schemas of the suite's remotes folder (and its subfolders) to
 * @registry under @prefix, where the suite's tests refer to them; each
 * must be a schema the registry takes. */
static inline void
schema_suite_add_remotes (TbSchemaRegistry *registry,
                          const char       *folder,
                          const char       *prefix)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autofree char *uri = g_strconcat (prefix, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *sub = g_strconcat (uri, "/", NULL);

          schema_suite_add_remotes (registry, path, sub);
        }
      else if (g_str_has_suffix (name, ".json"))
        {
          g_autoptr(JsonNode) node = schema_suite_load_json (path);
          g_autoptr(GError) error = NULL;

          tb_schema_registry_add (registry, uri, node, &error);
          g_assert_no_error (error);
        }
    }
}
