/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <stdio.h>
#include <toolbench.h>

/* Saves the workspace FILE over and over, each time with a large draft
 * entry made of one repeated letter, and says "saving N" on stdout just
 * before each save. The atomicity test kills it at random moments. */

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = NULL;
  gsize size;

  if (argc != 3)
    {
      g_printerr ("usage: workspace-writer FILE SIZE\n");
      return 2;
    }

  size = g_ascii_strtoull (argv[2], NULL, 10);
  workspace = tb_workspace_new_for_path (argv[1], &error);
  if (workspace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  for (guint n = 0; ; n++)
    {
      g_autofree char *text = g_strnfill (size, 'a' + n % 26);
      g_autoptr(JsonNode) value = tb_json_node_new_string (text);

      tb_workspace_freeze_saves (workspace);
      for (guint i = 0; i < 8; i++)
        {
          g_autofree char *key = g_strdup_printf ("part%u", i);

          if (!tb_workspace_set_draft_value (workspace, key, value, &error))
            {
              g_printerr ("%s\n", error->message);
              return 1;
            }
        }
      printf ("saving %u\n", n);
      fflush (stdout);
      if (!tb_workspace_thaw_saves (workspace, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }

  return 0;
}
