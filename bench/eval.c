/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-eval"

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>

/* Evaluation throughput: 200 offline scenarios (a tool that waits 10 ms
 * on a worker thread, as a real tool waits for its service, then a sum),
 * run with --jobs 1 — the reference — and side by side. Prints figures;
 * never passes or fails on time. */

#define SCENARIOS 200

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(gboolean *) user_data = TRUE;
}

static double
run (const char *dir,
     guint       jobs,
     guint      *passed)
{
  g_autoptr(TbEvalSuite) suite = tb_eval_suite_new ();
  g_autoptr(GError) error = NULL;
  gboolean done = FALSE;
  GListModel *cells;
  gint64 start;

  if (!tb_eval_suite_add_folder (suite, dir, &error))
    g_error ("%s", error->message);
  tb_eval_suite_set_jobs (suite, jobs);

  start = g_get_monotonic_time ();
  tb_eval_suite_run_async (suite, NULL, done_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);

  cells = tb_eval_suite_get_cells (suite);
  *passed = 0;
  for (guint i = 0; i < g_list_model_get_n_items (cells); i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);

      *passed += tb_eval_cell_get_status (cell) == TB_EVAL_CELL_PASSED;
    }
  return (g_get_monotonic_time () - start) / 1e6;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("tb-bench-eval-XXXXXX", NULL);
  guint jobs = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 0;
  guint passed_one, passed_many;
  double one, many;

  if (jobs == 0)
    jobs = MAX (g_get_num_processors (), 2);

  for (guint i = 0; i < SCENARIOS; i++)
    {
      g_autofree char *name = g_strdup_printf ("%03u.json", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text =
        g_strdup_printf ("{\"format\":\"toolbench-scenario\",\"version\":1,\"name\":\"s%03u\","
                         "\"prompt\":\"Wait, then add %u and 1\",\"max_iterations\":4,"
                         "\"tools\":[\"add\",{\"name\":\"wait\",\"sleep_ms\":10}],"
                         "\"script\":[{\"tool_calls\":[{\"name\":\"wait\",\"arguments\":{}}]},"
                         "{\"tool_calls\":[{\"name\":\"add\",\"arguments\":{\"a\":%u,\"b\":1}}]},"
                         "{\"text\":\"%u\"}],"
                         "\"expect\":{\"state\":\"finished\",\"text_contains\":\"%u\","
                         "\"not_called\":[\"echo\"]}}", i, i, i, i + 1, i + 1);

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
    }

  one = run (dir, 1, &passed_one);
  many = run (dir, jobs, &passed_many);

  g_print ("eval: %u offline scenarios (a 10 ms tool, a sum, an answer)\n", SCENARIOS);
  g_print ("eval: --jobs 1 (reference): %.1f scenarios/s (%.2f s, %u passed)\n",
           SCENARIOS / one, one, passed_one);
  g_print ("eval: --jobs %u: %.1f scenarios/s (%.2f s, %u passed)\n", jobs, SCENARIOS / many,
           many, passed_many);
  g_print ("eval: ratio %.2fx the reference\n", one / many);

  for (guint i = 0; i < SCENARIOS; i++)
    {
      g_autofree char *name = g_strdup_printf ("%03u.json", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
  return 0;
}
