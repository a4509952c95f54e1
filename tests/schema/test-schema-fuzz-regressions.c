/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-schema-fuzz-regressions"

#include "config.h"

#include <toolbench.h>

/* Replays every input kept in fuzz-regressions/ (crashes and hangs the
 * fuzzer found, and the inputs that exercise the fixes) through the fuzz
 * target's own checks, so a fixed bug stays fixed without clang. */

#include "../../fuzz/fuzz-schema.c"

static void
replay (gconstpointer data)
{
  const char *path = data;
  g_autofree char *contents = NULL;
  gsize length;
  gint64 start;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  start = g_get_monotonic_time ();
  LLVMFuzzerTestOneInput ((const guint8 *) contents, length);
  /* A hang is a bug too. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *folder = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);

  folder = g_test_build_filename (G_TEST_DIST, "schema", "fuzz-regressions", NULL);
  dir = g_dir_open (folder, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_assert_cmpuint (names->len, >, 0);

  for (guint i = 0; i < names->len; i++)
    {
      const char *entry = g_ptr_array_index (names, i);
      g_autofree char *test_path = g_strconcat ("/schema/fuzz-regression/", entry, NULL);

      g_test_add_data_func_full (test_path, g_build_filename (folder, entry, NULL), replay,
                                 g_free);
    }

  return g_test_run ();
}
