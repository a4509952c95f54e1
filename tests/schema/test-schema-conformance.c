/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-schema-conformance"

#include "config.h"

#include <string.h>
#include <toolbench.h>

#include "schema-suite-util.h"

/* Runs the official JSON-Schema-Test-Suite: draft-07 from Debian's
 * json-schema-test-suite package, draft 2020-12 from the copy beside the
 * project. Required tests must all pass, except those listed with a reason
 * in known-failures.txt; optional ones are counted and reported. */

typedef struct
{
  const char *name;      /* as in known-failures.txt */
  const char *folder;    /* under tests/ of the suite */
  TbSchemaDraft draft;   /* Debian's draft-07 files have no "$schema" */
} Draft;

static const Draft draft_2020 = { "draft2020-12", "draft2020-12", TB_SCHEMA_DRAFT_AUTO };
static const Draft draft_7 = { "draft7", "draft7", TB_SCHEMA_DRAFT_7 };

typedef struct
{
  TbSchemaRegistry *registry;
  GHashTable       *known;     /* "draft|file|group|test" → reason */
  GHashTable       *seen;      /* known ones that were run */
  guint             passed, failed, optional_passed, optional_failed, unexpected;
  GString          *report;
} Fixture;

static void
load_known_failures (Fixture *f)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "schema", "known-failures.txt",
                                                 NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  f->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  f->seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;

      if (lines[i][0] == '#' || g_strstrip (lines[i])[0] == '\0')
        continue;
      parts = g_strsplit (lines[i], " | ", 5);
      g_assert_cmpuint (g_strv_length (parts), ==, 5);
      g_hash_table_insert (f->known,
                           g_strjoin ("|", parts[0], parts[1], parts[2], parts[3], NULL),
                           g_strdup (parts[4]));
    }
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->registry = tb_schema_registry_new ();
  f->report = g_string_new (NULL);
  load_known_failures (f);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_assert_finalize_object (f->registry);
  g_hash_table_unref (f->known);
  g_hash_table_unref (f->seen);
  g_string_free (f->report, TRUE);
}

static void
run_file (Fixture     *f,
          const Draft *draft,
          const char  *path,
          const char  *shown,
          gboolean     optional,
          gboolean     assert_format)
{
  g_autoptr(JsonNode) root = schema_suite_load_json (path);
  JsonArray *groups = json_node_get_array (root);

  for (guint g = 0; g < json_array_get_length (groups); g++)
    {
      JsonObject *group = json_array_get_object_element (groups, g);
      const char *group_name = json_object_get_string_member (group, "description");
      JsonArray *tests = json_object_get_array_member (group, "tests");
      g_autoptr(GError) error = NULL;
      g_autoptr(TbSchema) schema = NULL;

      schema = tb_schema_new_full (json_object_get_member (group, "schema"),
                                   draft->draft,
                                   assert_format ? TB_SCHEMA_FLAGS_ASSERT_FORMAT
                                                 : TB_SCHEMA_FLAGS_NONE,
                                   f->registry, &error);

      for (guint t = 0; t < json_array_get_length (tests); t++)
        {
          JsonObject *test = json_array_get_object_element (tests, t);
          const char *test_name = json_object_get_string_member (test, "description");
          gboolean expected = json_object_get_boolean_member (test, "valid");
          g_autofree char *key = g_strjoin ("|", draft->name, shown, group_name, test_name, NULL);
          gboolean ok;
          g_autoptr(GPtrArray) errors = NULL;

          if (schema != NULL)
            {
              gboolean valid = tb_schema_validate (schema, json_object_get_member (test, "data"),
                                                   &errors);

              ok = valid == expected;
              /* An invalid verdict always comes with a reason, a valid one with none. */
              g_assert_cmpuint (errors->len > 0, ==, !valid);
            }
          else
            ok = FALSE;

          if (optional)
            {
              if (ok)
                f->optional_passed++;
              else
                f->optional_failed++;
              /* TB_SCHEMA_SHOW_OPTIONAL=1 lists the optional tests that fail. */
              if (!ok && g_getenv ("TB_SCHEMA_SHOW_OPTIONAL") != NULL)
                g_test_message ("optional, failed: %s", key);
              continue;
            }

          if (ok)
            f->passed++;
          else
            f->failed++;

          if (g_hash_table_contains (f->known, key))
            {
              g_hash_table_add (f->seen, g_hash_table_lookup (f->known, key));
              if (ok)
                {
                  g_string_append_printf (f->report, "  now passes, remove it from "
                                          "known-failures.txt: %s\n", key);
                  f->unexpected++;
                }
              continue;
            }

          if (!ok)
            {
              f->unexpected++;
              if (schema == NULL)
                g_string_append_printf (f->report, "  %s: the schema was refused: %s\n", key,
                                        error->message);
              else
                g_string_append_printf (f->report, "  %s: expected %s, got %s\n", key,
                                        expected ? "valid" : "invalid",
                                        expected ? "invalid" : "valid");
            }
        }
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char **) a, *(char **) b);
}

static void
run_tree (Fixture     *f,
          const Draft *draft,
          const char  *folder,
          const char  *prefix,
          gboolean     optional,
          gboolean     assert_format)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *entry = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (folder, entry, NULL);
      g_autofree char *shown = g_strconcat (prefix, entry, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *sub = g_strconcat (shown, "/", NULL);

          /* optional/format/ holds the format assertions */
          run_tree (f, draft, path, sub, TRUE, g_str_equal (entry, "format"));
        }
      else if (g_str_has_suffix (entry, ".json"))
        run_file (f, draft, path, shown, optional, assert_format);
    }
}

static void
run_draft (Fixture     *f,
           const Draft *draft,
           const char  *suite)
{
  g_autofree char *tests = g_build_filename (suite, "tests", draft->folder, NULL);
  g_autofree char *remotes = g_build_filename (suite, "remotes", NULL);
  GHashTableIter iter;
  gpointer key, reason;

  if (!g_file_test (tests, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *message =
        g_strdup_printf ("the %s tests of the JSON-Schema-Test-Suite are not at %s",
                         draft->name, tests);

      g_test_skip (message);
      return;
    }

  schema_suite_add_remotes (f->registry, remotes, "http://localhost:1234/");
  run_tree (f, draft, tests, "", FALSE, FALSE);

  g_test_message ("%s: %u passed, %u failed (required tests; %u listed in "
                  "known-failures.txt)", draft->name, f->passed, f->failed,
                  g_hash_table_size (f->seen));
  g_test_message ("%s optional: %u passed, %u failed", draft->name, f->optional_passed,
                  f->optional_failed);

  g_hash_table_iter_init (&iter, f->known);
  while (g_hash_table_iter_next (&iter, &key, &reason))
    if (g_str_has_prefix (key, draft->name) &&
        g_str_has_prefix ((char *) key + strlen (draft->name), "|") &&
        !g_hash_table_contains (f->seen, reason))
      {
        g_string_append_printf (f->report, "  listed but not in the suite: %s\n", (char *) key);
        f->unexpected++;
      }

  if (f->unexpected > 0)
    {
      g_test_message ("%s: %u unexpected results:\n%s", draft->name, f->unexpected,
                      f->report->str);
      g_test_fail ();
    }
}

static void
test_draft_2020 (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *suite = schema_suite_root_2020 ();

  if (suite == NULL)
    {
      g_test_skip ("TOOLBENCH_SOURCE_ROOT is not set, so the draft 2020-12 suite at "
                   "../shared/json-schema-test-suite cannot be found");
      return;
    }
  run_draft (f, &draft_2020, suite);
}

static void
test_draft_7 (Fixture       *f,
              gconstpointer  data)
{
  run_draft (f, &draft_7, DEBIAN_SUITE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/schema/conformance/draft2020-12", Fixture, NULL, setup, test_draft_2020,
              teardown);
  g_test_add ("/schema/conformance/draft7", Fixture, NULL, setup, test_draft_7, teardown);

  return g_test_run ();
}
