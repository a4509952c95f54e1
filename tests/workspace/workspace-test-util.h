/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <glib/gstdio.h>
#include <toolbench.h>

/* Small helpers shared by the workspace tests. */

static inline JsonNode *
parse_json (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (text, -1, &error);

  g_assert_no_error (error);
  return node;
}

static inline char *
node_text (JsonNode *node)
{
  return tb_json_to_string (node, FALSE);
}

static inline void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    {
      g_remove (path);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  g_rmdir (path);
}

static inline char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}
