/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <glib.h>
#include <glib/gstdio.h>

/* Removes a test's folder and everything in it, without following
 * symbolic links out of it. Shared by the suites that make folders. */
static inline void
test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_remove (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      test_remove_tree (child);
    }
  g_rmdir (path);
}
