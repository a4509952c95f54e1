/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <adwaita.h>
#include <toolbench.h>

#include "tb-app-util.h"
#define WINDOW_TEST_WAIT_SECONDS (g_getenv ("ASAN_OPTIONS") != NULL ? 300 : 60)
#include "window-test-util.h"
#include "../test-files-util.h"
#include "tb-eval-cell-view-private.h"
#include "tb-eval-view-private.h"
#include "tb-trace-page-private.h"

/* Evaluations on the Trace page: a report written by `toolbench-cli eval`
 * opened, a folder of scenarios run, the matrix they show, a run's trace
 * opened from its cell, and the sentences a person reads when the file or
 * the folder is not what was wanted. */

/* The scenarios of tests/loop, in the order of their files. */
static const char * const scenarios[] = {
  "single-call", "multi-step", "invalid-then-corrected", "unknown-tool", "hidden-tool",
  "tool-timeout", "stop-loop", "iteration-cap", "cancel-mid-request", "parallel-calls",
};

typedef struct
{
  GtkWindow   *window;
  TbTracePage *page;
  char        *dir;
  char        *scenarios;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("toolbench-eval-view-XXXXXX", NULL);
  f->scenarios = g_test_build_filename (G_TEST_DIST, "..", "loop", "scenarios", NULL);
  /* The test holds the window, to see it finalized. */
  f->window = g_object_ref (GTK_WINDOW (gtk_window_new ()));
  f->page = TB_TRACE_PAGE (tb_trace_page_new ());
  gtk_window_set_child (f->window, GTK_WIDGET (f->page));
  gtk_window_set_default_size (f->window, 1000, 900);
  gtk_window_present (f->window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->page)));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  window_test_destroy (f->window);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->scenarios);
}

/* Runs toolbench-cli eval over the scenarios of tests/loop, writing the
 * JSON report to @report and, with @traces, every run's trace there. */
static void
cli_eval (Fixture    *f,
          const char *report,
          const char *traces)
{
  const char *program = g_getenv ("TOOLBENCH_CLI");
  const char *argv[] = {
    program, "eval", "--scenarios", f->scenarios, "--json-file", report,
    traces != NULL ? "--traces" : NULL, traces, NULL,
  };
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_nonnull (program);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
open_report (Fixture    *f,
             const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tb_trace_page_open_eval_report_file (f->page, file);
  g_assert_true (tb_trace_page_get_eval_busy (f->page));
  WAIT_UNTIL (!tb_trace_page_get_eval_busy (f->page));
  window_test_iterate (100);
}

static TbEvalView *
view (Fixture *f)
{
  return tb_trace_page_get_eval_view (f->page);
}

static TbEvalCellView *
cell_widget (Fixture *f,
             guint    row)
{
  GtkWidget *widget = tb_eval_view_get_cell_widget (view (f), row, 0);

  g_assert_nonnull (widget);
  return TB_EVAL_CELL_VIEW (widget);
}

static guint
n_rows (Fixture *f)
{
  return g_list_model_get_n_items (tb_eval_matrix_get_rows (tb_eval_view_get_matrix (view (f))));
}

/* The matrix as a person sees it: ten scenarios down, one model across,
 * each cell saying in words how its run went. */
static void
assert_all_passed (Fixture *f)
{
  TbEvalMatrix *matrix = tb_eval_view_get_matrix (view (f));
  GListModel *rows = tb_eval_matrix_get_rows (matrix);
  const char * const *models = tb_eval_matrix_get_models (matrix);

  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (view (f))));
  g_assert_false (tb_eval_view_get_empty (view (f)));
  g_assert_cmpuint (g_strv_length ((char **) models), ==, 1);
  g_assert_cmpstr (tb_eval_view_get_column_title (view (f), 0), ==, "scripted");
  g_assert_null (tb_eval_view_get_column_title (view (f), 1));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, G_N_ELEMENTS (scenarios));
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    {
      g_autoptr(TbEvalMatrixRow) row = g_list_model_get_item (rows, i);
      TbEvalCellView *cell = cell_widget (f, i);

      g_assert_cmpstr (tb_eval_matrix_row_get_scenario (row), ==, scenarios[i]);
      g_assert_true (tb_eval_cell_view_get_cell (cell) == tb_eval_matrix_row_get_cell (row, 0));
      g_assert_cmpstr (tb_eval_cell_view_get_status_text (cell), ==, "Passed");
      g_assert_cmpstr (tb_eval_cell_view_get_detail_text (cell), ==, "");
      g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (cell)));
    }
  g_assert_cmpstr (tb_eval_view_get_progress_text (view (f)), ==, "");

  /* The summary says what toolbench-cli eval prints under its table. */
  {
    GListModel *summaries = tb_eval_matrix_get_summaries (matrix);
    g_autoptr(TbEvalMatrixSummary) line = g_list_model_get_item (summaries, 0);
    g_autofree char *model = NULL, *passed = NULL, *calls = NULL, *invalid = NULL;
    g_autofree char *iterations = NULL, *tokens = NULL;

    g_assert_cmpuint (g_list_model_get_n_items (summaries), ==, 1);
    g_object_get (line, "model", &model, "passed", &passed, "calls", &calls,
                  "invalid", &invalid, "iterations", &iterations, "tokens", &tokens, NULL);
    g_assert_cmpstr (model, ==, "scripted");
    g_assert_cmpstr (passed, ==, "10 of 10");
    g_assert_cmpstr (calls, ==, "19");
    g_assert_cmpstr (invalid, ==, "11 %");
    g_assert_cmpstr (iterations, ==, "23");
    g_assert_cmpstr (tokens, ==, "0 in, 0 out");
  }
}

/* A report written with --traces: the matrix, then a cell's trace opened
 * in the page, as Enter on the cell does. */
static void
test_report (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *report = g_build_filename (f->dir, "report.json", NULL);
  g_autofree char *traces = g_build_filename (f->dir, "traces", NULL);
  g_autofree char *trace_path = g_build_filename (traces, "scripted--02-multi-step.jsonl", NULL);
  g_autoptr(GFile) trace_file = g_file_new_for_path (trace_path);
  g_autoptr(TbTrace) expected = NULL;
  TbEvalCellView *cell;

  cli_eval (f, report, traces);
  g_assert_null (tb_trace_page_get_eval_title (f->page));
  open_report (f, report);
  g_assert_cmpstr (tb_trace_page_get_eval_title (f->page), ==, "report.json");
  g_assert_cmpstr (tb_trace_page_get_status_text (f->page), ==, "");
  assert_all_passed (f);

  /* Nothing runs: there is nothing to cancel. */
  g_assert_false (gtk_widget_is_visible (tb_trace_page_get_button (f->page,
                                                                    "cancel-evaluation")));

  cell = cell_widget (f, 1);
  g_assert_cmpstr (tb_eval_cell_get_trace_path (tb_eval_cell_view_get_cell (cell)), ==,
                   trace_path);
  /* A button's activation (Enter, Space) clicks it a moment later. */
  g_assert_true (gtk_widget_activate (GTK_WIDGET (cell)));
  WAIT_UNTIL (g_strcmp0 (tb_trace_page_get_title (f->page),
                         "scripted--02-multi-step.jsonl") == 0);
  WAIT_UNTIL (!tb_trace_page_get_busy (f->page));
  expected = tb_trace_load (trace_file, NULL, NULL, NULL);
  g_assert_nonnull (expected);
  g_assert_cmpuint (tb_trace_page_get_n_events (f->page), ==, tb_trace_get_n_events (expected));
  g_assert_cmpuint (tb_trace_page_get_n_events (f->page), >, 4);
  {
    g_autofree char *first = tb_trace_page_get_row (f->page, 0, NULL, NULL);

    g_assert_cmpstr (first, ==, "Before the first request");
  }
  /* The matrix stays, to open another run. */
  g_assert_cmpuint (n_rows (f), ==, G_N_ELEMENTS (scenarios));

  /* Enter on a row opens its one cell too. */
  g_signal_emit_by_name (gtk_widget_get_ancestor (GTK_WIDGET (cell), GTK_TYPE_COLUMN_VIEW),
                         "activate", 0);
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, "scripted--01-single-call.jsonl");
  WAIT_UNTIL (!tb_trace_page_get_busy (f->page));

  /* Closed, the evaluation goes; the trace stays. */
  gtk_widget_activate_action (tb_trace_page_get_button (f->page, "close-evaluation"),
                              "eval.close", NULL);
  g_assert_null (tb_trace_page_get_eval_title (f->page));
  g_assert_null (tb_eval_view_get_cells (view (f)));
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, "scripted--01-single-call.jsonl");
}

/* Without --traces, a cell has no trace to open, and says so. */
static void
test_report_without_traces (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *report = g_build_filename (f->dir, "report.json", NULL);

  cli_eval (f, report, NULL);
  open_report (f, report);
  g_assert_cmpuint (n_rows (f), ==, G_N_ELEMENTS (scenarios));
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    {
      TbEvalCellView *cell = cell_widget (f, i);

      g_assert_cmpstr (tb_eval_cell_view_get_status_text (cell), ==, "Passed");
      g_assert_cmpstr (tb_eval_cell_view_get_detail_text (cell), ==,
                       "No trace was saved for this run");
      g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (cell)), ==,
                       "No trace was saved for this run");
      g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (cell)));
    }
  /* Insensitive, it takes no click; were it clicked, nothing would open. */
  g_signal_emit_by_name (cell_widget (f, 0), "clicked");
  g_assert_false (tb_eval_view_activate_cell (view (f),
                                              tb_eval_cell_view_get_cell (cell_widget (f, 0))));
  window_test_iterate (50);
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, "No run yet");
  g_assert_cmpuint (tb_trace_page_get_n_events (f->page), ==, 0);
}

/* Failed and could-not-run cells say so in words, with their first
 * reason under it. */
static void
test_report_failures (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *report = g_build_filename (f->dir, "report.json", NULL);
  const char *text =
    "{\"format\": \"toolbench-eval-report\", \"version\": 1, \"results\": ["
    "{\"model\": \"m1\", \"scenario\": \"a\", \"file\": \"a.json\", \"status\": \"passed\","
    " \"calls\": 2, \"invalid_calls\": 0, \"iterations\": 2, \"duration_ms\": 1500,"
    " \"input_tokens\": 120, \"output_tokens\": 30, \"failures\": []},"
    "{\"model\": \"m1\", \"scenario\": \"b\", \"file\": \"b.json\", \"status\": \"failed\","
    " \"calls\": 2, \"invalid_calls\": 1, \"iterations\": 3, \"duration_ms\": 500,"
    " \"failures\": [\"expected a call to add, got none\", \"the answer lacks 5\"]},"
    "{\"model\": \"m2\", \"scenario\": \"a\", \"file\": \"a.json\", \"status\": \"error\","
    " \"error\": \"The key in $KEY was refused\"},"
    "{\"model\": \"m2\", \"scenario\": \"b\", \"file\": \"b.json\", \"status\": \"not-run\"}"
    "]}";
  TbEvalCellView *cell;

  g_assert_true (g_file_set_contents (report, text, -1, NULL));
  open_report (f, report);
  g_assert_cmpuint (n_rows (f), ==, 2);
  g_assert_cmpstr (tb_eval_view_get_column_title (view (f), 0), ==, "m1");
  g_assert_cmpstr (tb_eval_view_get_column_title (view (f), 1), ==, "m2");

  cell = TB_EVAL_CELL_VIEW (tb_eval_view_get_cell_widget (view (f), 1, 0));
  g_assert_cmpstr (tb_eval_cell_view_get_status_text (cell), ==, "Failed");
  g_assert_cmpstr (tb_eval_cell_view_get_detail_text (cell), ==,
                   "expected a call to add, got none");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (cell)), ==,
                   "expected a call to add, got none\nNo trace was saved for this run");
  cell = TB_EVAL_CELL_VIEW (tb_eval_view_get_cell_widget (view (f), 0, 1));
  g_assert_cmpstr (tb_eval_cell_view_get_status_text (cell), ==, "Could not run");
  g_assert_cmpstr (tb_eval_cell_view_get_detail_text (cell), ==, "The key in $KEY was refused");
  cell = TB_EVAL_CELL_VIEW (tb_eval_view_get_cell_widget (view (f), 1, 1));
  g_assert_cmpstr (tb_eval_cell_view_get_status_text (cell), ==, "Not run");

  {
    GListModel *summaries = tb_eval_matrix_get_summaries (tb_eval_view_get_matrix (view (f)));
    g_autoptr(TbEvalMatrixSummary) first = g_list_model_get_item (summaries, 0);
    g_autoptr(TbEvalMatrixSummary) second = g_list_model_get_item (summaries, 1);
    g_autofree char *passed = NULL, *invalid = NULL, *duration = NULL, *tokens = NULL;
    g_autofree char *passed2 = NULL;

    g_object_get (first, "passed", &passed, "invalid", &invalid, "duration", &duration,
                  "tokens", &tokens, NULL);
    g_assert_cmpstr (passed, ==, "1 of 2");
    g_assert_cmpstr (invalid, ==, "25 %");
    g_assert_cmpstr (duration, ==, "2.00 s");
    g_assert_cmpstr (tokens, ==, "120 in, 30 out");
    g_object_get (second, "passed", &passed2, NULL);
    g_assert_cmpstr (passed2, ==, "0 of 2");
  }
}

/* A report of no runs shows the empty state. */
static void
test_report_empty (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *report = g_build_filename (f->dir, "empty.json", NULL);

  g_assert_true (g_file_set_contents (report, "{\"format\": \"toolbench-eval-report\", "
                                      "\"version\": 1, \"results\": []}", -1, NULL));
  open_report (f, report);
  g_assert_cmpstr (tb_trace_page_get_eval_title (f->page), ==, "empty.json");
  g_assert_true (tb_eval_view_get_empty (view (f)));
}

/* The folder run here: cells fill in as the runs end, all ten pass, and a
 * cell opens the trace kept in memory. */
static void
test_run_folder (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GFile) folder = g_file_new_for_path (f->scenarios);
  GtkWidget *cancel = tb_trace_page_get_button (f->page, "cancel-evaluation");
  TbEvalCell *cell;
  TbEvalResult *result;

  tb_trace_page_run_scenario_folder (f->page, folder);
  g_assert_true (tb_trace_page_get_eval_busy (f->page));
  g_assert_cmpstr (tb_trace_page_get_eval_title (f->page), ==, "scenarios");
  g_assert_cmpuint (n_rows (f), ==, G_N_ELEMENTS (scenarios));
  g_assert_true (gtk_widget_get_visible (cancel));
  g_assert_true (gtk_widget_is_sensitive (cancel));
  g_assert_true (g_str_has_suffix (tb_eval_view_get_progress_text (view (f)),
                                   " of 10 runs done"));

  WAIT_UNTIL (!tb_trace_page_get_eval_busy (f->page));
  window_test_iterate (100);
  g_assert_false (gtk_widget_get_visible (cancel));
  g_assert_cmpstr (tb_trace_page_get_status_text (f->page), ==, "");
  assert_all_passed (f);

  cell = tb_eval_cell_view_get_cell (cell_widget (f, 2));
  result = tb_eval_cell_get_result (cell);
  g_assert_nonnull (result->trace);
  g_assert_null (tb_eval_cell_get_trace_path (cell));
  g_assert_true (gtk_widget_activate (GTK_WIDGET (cell_widget (f, 2))));
  WAIT_UNTIL (tb_trace_page_get_trace (f->page) == result->trace);
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, "invalid-then-corrected with scripted");
  g_assert_cmpuint (tb_trace_page_get_n_events (f->page), ==,
                    tb_trace_get_n_events (result->trace));
  g_assert_cmpuint (tb_trace_page_get_n_events (f->page), >, 4);
}

/* Cancel stops the run: every cell ends with an outcome, none waits. */
static void
test_cancel_run (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GFile) folder = g_file_new_for_path (f->scenarios);

  tb_trace_page_run_scenario_folder (f->page, folder);
  g_assert_true (tb_trace_page_get_eval_busy (f->page));
  g_signal_emit_by_name (tb_trace_page_get_button (f->page, "cancel-evaluation"), "clicked");
  WAIT_UNTIL (!tb_trace_page_get_eval_busy (f->page));
  window_test_iterate (50);
  g_assert_cmpstr (tb_trace_page_get_status_text (f->page), ==, "");
  g_assert_cmpstr (tb_eval_view_get_progress_text (view (f)), ==, "");
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    {
      const char *status = tb_eval_cell_view_get_status_text (cell_widget (f, i));

      g_assert_true (g_strv_contains ((const char * const[]) { "Passed", "Failed",
                                                               "Could not run", "Not run",
                                                               NULL }, status));
    }
}

/* A file that is not a report, or a folder with no scenario, is said in a
 * sentence; the evaluation and the trace shown stay as they were. */
static void
test_bad_input (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *report = g_build_filename (f->dir, "report.json", NULL);
  g_autofree char *traces = g_build_filename (f->dir, "traces", NULL);
  g_autofree char *other = g_build_filename (f->dir, "settings.json", NULL);
  g_autofree char *broken = g_build_filename (f->dir, "broken.json", NULL);
  g_autofree char *empty_dir = g_build_filename (f->dir, "no-scenarios", NULL);
  g_autofree char *missing_dir = g_build_filename (f->dir, "missing", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *title = NULL;
  guint n_events;

  cli_eval (f, report, traces);
  open_report (f, report);
  g_signal_emit_by_name (cell_widget (f, 0), "clicked");
  WAIT_UNTIL (!tb_trace_page_get_busy (f->page));
  title = g_strdup (tb_trace_page_get_title (f->page));
  n_events = tb_trace_page_get_n_events (f->page);
  g_assert_cmpuint (n_events, >, 0);

  /* JSON, but not a report. */
  g_assert_true (g_file_set_contents (other, "{\"theme\": \"dark\"}", -1, NULL));
  open_report (f, other);
  expected = g_strdup_printf ("“%s” is not an evaluation report (toolbench-cli eval --json)",
                              other);
  g_assert_cmpstr (tb_trace_page_get_status_text (f->page), ==, expected);
  g_assert_true (gtk_widget_is_visible (tb_trace_page_get_button (f->page, "close-evaluation")));
  g_assert_cmpstr (tb_trace_page_get_eval_title (f->page), ==, "report.json");
  assert_all_passed (f);
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, title);
  g_assert_cmpuint (tb_trace_page_get_n_events (f->page), ==, n_events);

  /* Not JSON at all: the reader's sentence. */
  g_assert_true (g_file_set_contents (broken, "{\"format\": ", -1, NULL));
  open_report (f, broken);
  /* The sentence names the file a person picked. */
  g_assert_nonnull (strstr (tb_trace_page_get_status_text (f->page), broken));
  g_assert_nonnull (strstr (tb_trace_page_get_status_text (f->page),
                            "cannot be read as an evaluation report"));
  g_assert_cmpstr (tb_trace_page_get_status_text (f->page), !=, expected);
  g_assert_cmpstr (tb_trace_page_get_eval_title (f->page), ==, "report.json");

  /* A folder holding no scenario, and one that is not there. */
  g_assert_cmpint (g_mkdir (empty_dir, 0700), ==, 0);
  {
    g_autoptr(GFile) folder = g_file_new_for_path (empty_dir);
    g_autofree char *sentence = g_strdup_printf ("The folder “%s” holds no scenario (*.json)",
                                                 empty_dir);

    tb_trace_page_run_scenario_folder (f->page, folder);
    g_assert_false (tb_trace_page_get_eval_busy (f->page));
    g_assert_cmpstr (tb_trace_page_get_status_text (f->page), ==, sentence);
  }
  {
    g_autoptr(GFile) folder = g_file_new_for_path (missing_dir);

    tb_trace_page_run_scenario_folder (f->page, folder);
    g_assert_false (tb_trace_page_get_eval_busy (f->page));
    g_assert_nonnull (strstr (tb_trace_page_get_status_text (f->page), missing_dir));
  }
  g_assert_cmpstr (tb_trace_page_get_eval_title (f->page), ==, "report.json");
  assert_all_passed (f);
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, title);
  g_assert_cmpuint (tb_trace_page_get_n_events (f->page), ==, n_events);
}

/* The Evaluation menu offers both, as actions of the page. */
static void
test_menu (Fixture       *f,
           gconstpointer  data)
{
  GtkMenuButton *button = GTK_MENU_BUTTON (tb_trace_page_get_button (f->page, "evaluation"));
  GMenuModel *menu = gtk_menu_button_get_menu_model (button);
  g_autofree char *first = NULL, *second = NULL;
  g_autofree char *first_label = NULL, *second_label = NULL;
  GMenuModel *section;

  g_assert_nonnull (menu);
  section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_assert_nonnull (section);
  g_assert_cmpint (g_menu_model_get_n_items (section), ==, 2);
  g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_ACTION, "s", &first);
  g_menu_model_get_item_attribute (section, 1, G_MENU_ATTRIBUTE_ACTION, "s", &second);
  g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_LABEL, "s", &first_label);
  g_menu_model_get_item_attribute (section, 1, G_MENU_ATTRIBUTE_LABEL, "s", &second_label);
  g_assert_cmpstr (first, ==, "trace.open-eval-report");
  g_assert_cmpstr (second, ==, "trace.run-scenario-folder");
  g_assert_cmpstr (first_label, ==, "_Open Evaluation Report…");
  g_assert_cmpstr (second_label, ==, "_Run Scenario Folder…");
  g_object_unref (section);
  /* Nothing to cancel or close yet. */
  g_assert_false (gtk_widget_is_visible (tb_trace_page_get_button (f->page,
                                                                    "close-evaluation")));
  g_assert_null (tb_trace_page_get_eval_title (f->page));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  tb_app_init ();
  g_test_add ("/eval-view/report", Fixture, NULL, setup, test_report, teardown);
  g_test_add ("/eval-view/report-without-traces", Fixture, NULL, setup,
              test_report_without_traces, teardown);
  g_test_add ("/eval-view/report-failures", Fixture, NULL, setup, test_report_failures,
              teardown);
  g_test_add ("/eval-view/report-empty", Fixture, NULL, setup, test_report_empty, teardown);
  g_test_add ("/eval-view/run-folder", Fixture, NULL, setup, test_run_folder, teardown);
  g_test_add ("/eval-view/cancel-run", Fixture, NULL, setup, test_cancel_run, teardown);
  g_test_add ("/eval-view/bad-input", Fixture, NULL, setup, test_bad_input, teardown);
  g_test_add ("/eval-view/menu", Fixture, NULL, setup, test_menu, teardown);
  return g_test_run ();
}
