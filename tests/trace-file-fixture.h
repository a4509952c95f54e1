/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gio/gio.h>
#include <glib/gstdio.h>

/* A fresh folder with the path of a trace file in it, for the tests that
 * write and read traces; the folder and whatever was written there go at
 * the end. */
typedef struct
{
  char  *dir;
  char  *path;
  GFile *file;
} TraceFileFixture;

static inline void
trace_file_fixture_setup (TraceFileFixture *f,
                          gconstpointer     data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("toolbench-trace-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "run.jsonl", NULL);
  f->file = g_file_new_for_path (f->path);
}

static inline void
trace_file_fixture_teardown (TraceFileFixture *f,
                             gconstpointer     data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_clear_object (&f->file);
  g_clear_pointer (&f->path, g_free);
  g_clear_pointer (&f->dir, g_free);
}
