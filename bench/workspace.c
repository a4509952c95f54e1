/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>

/* How long the workspace takes to propose, commit and load as it grows.
 * Every change is an fsynced atomic save, so the figures include the disk. */

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
}

static void
measure (const char *dir,
         guint       n_pending)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_strdup_printf ("%s/bench-%u.json", dir, n_pending);
  g_autoptr(TbWorkspace) workspace = tb_workspace_new_for_path (path, &error);
  g_autoptr(TbWorkspace) again = NULL;
  g_autoptr(JsonNode) value = tb_json_node_new_string ("a value of some thirty characters");
  g_autoptr(TbConfirmation) confirmation = NULL;
  TbFactProposal *proposal = NULL;
  GStatBuf st;
  gint64 start;
  guint n_single = 20;

  g_assert_no_error (error);

  start = g_get_monotonic_time ();
  tb_workspace_freeze_saves (workspace);
  for (guint i = 0; i < n_pending; i++)
    {
      g_autofree char *key = g_strdup_printf ("bulk-%u", i);

      tb_workspace_propose (workspace, key, value, "bench", NULL, &error);
      g_assert_no_error (error);
    }
  tb_workspace_thaw_saves (workspace, &error);
  g_assert_no_error (error);
  g_print ("%6u pending: %u proposals in one batch %8.1f ms\n", n_pending, n_pending,
           seconds_since (start) * 1000);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_single; i++)
    {
      g_autofree char *key = g_strdup_printf ("single-%u", i);

      proposal = tb_workspace_propose (workspace, key, value, "bench", "call", &error);
      g_assert_no_error (error);
    }
  g_print ("%6u pending: one proposal, saved        %8.2f ms\n", n_pending,
           seconds_since (start) * 1000 / n_single);

  start = g_get_monotonic_time ();
  confirmation = tb_confirmation_new (workspace, proposal, "bench", &error);
  tb_workspace_commit (workspace, proposal, confirmation, &error);
  g_assert_no_error (error);
  g_print ("%6u pending: one commit, saved          %8.2f ms\n", n_pending,
           seconds_since (start) * 1000);

  start = g_get_monotonic_time ();
  again = tb_workspace_new_for_path (path, &error);
  g_assert_no_error (error);
  g_stat (path, &st);
  g_print ("%6u pending: load %7.1f KiB              %8.2f ms\n", n_pending,
           st.st_size / 1024.0, seconds_since (start) * 1000);

  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tb-bench-workspace-XXXXXX", &error);
  static const guint sizes[] = { 0, 100, 1000, 9900 };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    measure (dir, sizes[i]);
  g_rmdir (dir);

  return 0;
}
