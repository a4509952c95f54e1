/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What an evaluation's cells come to, in the forms people and CI systems
 * read: a summary per model, JSON (which tb_eval_report_load() reads back),
 * JUnit XML and a self-contained HTML page. */

#define G_LOG_DOMAIN "tb-eval"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-eval-private.h"
#include "tb-eval-report.h"
#include "tb-json.h"
#include "tb-junit-report.h"
#include "tb-provider-private.h"
#include "tb-trace-describe.h"

#define REPORT_FORMAT "toolbench-eval-report"

static void
summary_free (gpointer data)
{
  TbEvalSummary *summary = data;

  g_free (summary->model);
  g_free (summary);
}

/**
 * tb_eval_report_summarize:
 * @cells: the cells, #TbEvalCell items
 *
 * Counts, model by model, how many scenarios passed, failed or could not
 * run, and how many calls and tokens the runs took.
 *
 * Returns: (transfer container) (element-type TbEvalSummary): one summary
 *   per model, in the order the models first appear
 */
GPtrArray *
tb_eval_report_summarize (GListModel *cells)
{
  GPtrArray *summaries = g_ptr_array_new_with_free_func (summary_free);

  for (guint i = 0; i < g_list_model_get_n_items (cells); i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);
      TbEvalResult *result = tb_eval_cell_get_result (cell);
      TbEvalSummary *summary = NULL;

      for (guint j = 0; j < summaries->len && summary == NULL; j++)
        if (g_str_equal (((TbEvalSummary *) g_ptr_array_index (summaries, j))->model,
                         tb_eval_cell_get_model (cell)))
          summary = g_ptr_array_index (summaries, j);
      if (summary == NULL)
        {
          summary = g_new0 (TbEvalSummary, 1);
          summary->model = g_strdup (tb_eval_cell_get_model (cell));
          g_ptr_array_add (summaries, summary);
        }

      summary->runs++;
      if (tb_eval_cell_get_status (cell) == TB_EVAL_CELL_PASSED)
        summary->passed++;
      if (tb_eval_cell_get_status (cell) == TB_EVAL_CELL_ERROR)
        summary->errors++;
      if (result == NULL)
        continue;
      summary->calls += result->calls;
      summary->invalid_calls += result->invalid_calls;
      summary->iterations += result->iterations;
      summary->input_tokens += result->input_tokens;
      summary->output_tokens += result->output_tokens;
      summary->duration_ms += result->duration_ms;
    }
  return summaries;
}

static JsonObject *
cell_to_json (TbEvalCell *cell)
{
  JsonObject *row = json_object_new ();
  TbEvalResult *result = tb_eval_cell_get_result (cell);

  json_object_set_string_member (row, "model", tb_eval_cell_get_model (cell));
  json_object_set_string_member (row, "scenario", tb_eval_cell_get_scenario (cell));
  if (tb_eval_cell_get_path (cell) != NULL)
    json_object_set_string_member (row, "file", tb_eval_cell_get_path (cell));
  json_object_set_string_member (row, "status", tb_eval_cell_get_status_name (cell));
  json_object_set_boolean_member (row, "passed",
                                  tb_eval_cell_get_status (cell) == TB_EVAL_CELL_PASSED);
  if (tb_eval_cell_get_error (cell) != NULL)
    json_object_set_string_member (row, "error", tb_eval_cell_get_error (cell));
  if (result != NULL)
    {
      JsonArray *failures = json_array_new ();

      json_object_set_int_member (row, "calls", result->calls);
      json_object_set_int_member (row, "invalid_calls", result->invalid_calls);
      json_object_set_double_member (row, "invalid_argument_rate",
                                     result->calls > 0
                                     ? (double) result->invalid_calls / result->calls : 0.0);
      json_object_set_int_member (row, "iterations", result->iterations);
      json_object_set_string_member (row, "state", tb_loop_state_to_string (result->state));
      json_object_set_int_member (row, "input_tokens", result->input_tokens);
      json_object_set_int_member (row, "output_tokens", result->output_tokens);
      json_object_set_int_member (row, "duration_ms", result->duration_ms);
      for (guint i = 0; i < result->failures->len; i++)
        json_array_add_string_element (failures, g_ptr_array_index (result->failures, i));
      json_object_set_array_member (row, "failures", failures);
    }
  if (tb_eval_cell_get_trace_path (cell) != NULL)
    json_object_set_string_member (row, "trace", tb_eval_cell_get_trace_path (cell));
  return row;
}

/**
 * tb_eval_report_to_json:
 * @cells: the cells, #TbEvalCell items
 *
 * Writes the results of an evaluation as the report `toolbench-cli eval
 * --json` prints and `--json-file` saves.
 *
 * Returns: (transfer full): `{"format": "toolbench-eval-report",
 *   "version": 1, "results": […], "models": […]}` (see docs/eval.md)
 */
JsonNode *
tb_eval_report_to_json (GListModel *cells)
{
  g_autoptr(GPtrArray) summaries = tb_eval_report_summarize (cells);
  JsonNode *node = tb_json_node_new_object ();
  JsonObject *root = json_node_get_object (node);
  JsonArray *results = json_array_new ();
  JsonArray *models = json_array_new ();

  json_object_set_string_member (root, "format", REPORT_FORMAT);
  json_object_set_int_member (root, "version", 1);
  for (guint i = 0; i < g_list_model_get_n_items (cells); i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);

      json_array_add_object_element (results, cell_to_json (cell));
    }
  for (guint i = 0; i < summaries->len; i++)
    {
      TbEvalSummary *summary = g_ptr_array_index (summaries, i);
      JsonObject *row = json_object_new ();

      json_object_set_string_member (row, "model", summary->model);
      json_object_set_int_member (row, "runs", summary->runs);
      json_object_set_int_member (row, "passed", summary->passed);
      json_object_set_int_member (row, "errors", summary->errors);
      json_object_set_int_member (row, "calls", summary->calls);
      json_object_set_double_member (row, "invalid_argument_rate",
                                     summary->calls > 0
                                     ? (double) summary->invalid_calls / summary->calls : 0.0);
      json_object_set_int_member (row, "iterations", summary->iterations);
      json_object_set_int_member (row, "input_tokens", summary->input_tokens);
      json_object_set_int_member (row, "output_tokens", summary->output_tokens);
      json_object_set_int_member (row, "duration_ms", summary->duration_ms);
      json_array_add_object_element (models, row);
    }
  json_object_set_array_member (root, "results", results);
  json_object_set_array_member (root, "models", models);
  return node;
}

/* ---- JUnit XML -------------------------------------------------------------- */

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text != NULL ? text : "", -1);

  g_string_append (out, escaped);
}

static void
append_seconds (GString *out,
                gint64   ms)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.3f", ms / 1000.0));
}

/**
 * tb_eval_report_to_junit:
 * @cells: the cells, #TbEvalCell items
 * @suite_name: the name of the whole (`toolbench eval`)
 *
 * One `<testsuite>` per model, one `<testcase>` per scenario: a
 * `<failure>` whose message is the first expectation that did not hold, an
 * `<error>` when it could not run, `<skipped>` when it was stopped first.
 *
 * Returns: (transfer full): the XML document
 */
char *
tb_eval_report_to_junit (GListModel *cells,
                         const char *suite_name)
{
  g_autoptr(TbJunitReport) report = tb_junit_report_new (suite_name);

  for (guint i = 0; i < g_list_model_get_n_items (cells); i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);
      TbEvalResult *result = tb_eval_cell_get_result (cell);
      g_autofree char *detail = NULL;
      TbJunitOutcome outcome;

      switch (tb_eval_cell_get_status (cell))
        {
        case TB_EVAL_CELL_PASSED: outcome = TB_JUNIT_PASSED; break;
        case TB_EVAL_CELL_FAILED: outcome = TB_JUNIT_FAILED; break;
        case TB_EVAL_CELL_ERROR: outcome = TB_JUNIT_ERROR; break;
        case TB_EVAL_CELL_NOT_RUN:
        case TB_EVAL_CELL_WAITING:
        case TB_EVAL_CELL_RUNNING:
        default: outcome = TB_JUNIT_SKIPPED; break;
        }
      if (result != NULL && result->failures->len > 0)
        {
          GString *lines = g_string_new (NULL);

          for (guint j = 0; j < result->failures->len; j++)
            g_string_append_printf (lines, "%s\n",
                                    (const char *) g_ptr_array_index (result->failures, j));
          detail = g_string_free (lines, FALSE);
        }
      tb_junit_report_add_case (report, tb_eval_cell_get_model (cell),
                                tb_eval_cell_get_scenario (cell),
                                result != NULL ? result->duration_ms : 0, outcome,
                                outcome == TB_JUNIT_SKIPPED
                                ? _("the evaluation was stopped before this run ended")
                                : tb_eval_cell_get_message (cell),
                                detail);
    }
  return tb_junit_report_to_string (report);
}

/* ---- HTML ------------------------------------------------------------------- */

static void
append_html (GString    *out,
             TbRedactor *redactor,
             const char *text)
{
  g_autofree char *clean = redactor != NULL ? tb_redactor_redact_text (redactor, text)
                                            : g_strdup (text);

  append_escaped (out, clean);
}

static void
append_conversation (GString    *out,
                     TbRedactor *redactor,
                     TbTrace    *trace)
{
  g_string_append (out, "<ol class=\"events\">\n");
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      g_autoptr(JsonNode) json = tb_trace_event_to_json (event);
      JsonObject *payload = tb_trace_event_get_payload (event);
      const char *type = tb_trace_event_get_event_type (event);
      g_autofree char *said = tb_trace_describe_event (json_node_get_object (json), NULL);
      g_autofree char *detail = NULL;

      if (g_str_equal (type, "message"))
        detail = g_strdup (tb_json_object_get_string (tb_json_object_get_object (payload,
                                                                                 "message"),
                                                      "text"));
      else if (g_str_equal (type, "tool-call"))
        {
          JsonObject *call = tb_json_object_get_object (payload, "call");
          JsonNode *arguments = call != NULL ? json_object_get_member (call, "arguments") : NULL;

          if (arguments != NULL)
            detail = tb_json_to_string (arguments, TRUE);
        }
      else if (g_str_equal (type, "tool-result"))
        detail = g_strdup (tb_json_object_get_string (payload, "content"));

      g_string_append_printf (out, "<li class=\"%s\"><span class=\"type\">", type);
      append_escaped (out, type);
      g_string_append (out, "</span> ");
      append_html (out, redactor, said);
      if (detail != NULL && *detail != '\0')
        {
          g_string_append (out, "<pre>");
          append_html (out, redactor, detail);
          g_string_append (out, "</pre>");
        }
      g_string_append (out, "</li>\n");
    }
  g_string_append (out, "</ol>\n");
}

/**
 * tb_eval_report_to_html:
 * @cells: the cells, #TbEvalCell items
 * @redactor: (nullable): keeps keys out of the page
 *
 * A page that needs nothing beside it: the summary, a matrix of scenarios
 * × models whose cells link to their run's conversation further down.
 *
 * Returns: (transfer full): the HTML document
 */
char *
tb_eval_report_to_html (GListModel *cells,
                        TbRedactor *redactor)
{
  g_autoptr(GPtrArray) summaries = tb_eval_report_summarize (cells);
  g_autoptr(GPtrArray) scenarios = g_ptr_array_new ();
  GString *out = g_string_new (NULL);
  guint n = g_list_model_get_n_items (cells);

  g_string_append (out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<title>");
  append_escaped (out, _("Toolbench evaluation"));
  g_string_append (out,
                   "</title>\n<style>\n"
                   "body{font-family:Cantarell,system-ui,sans-serif;margin:2em;color:#222}\n"
                   "table{border-collapse:collapse;margin-bottom:2em}\n"
                   "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}\n"
                   "td.passed{background:#d7f5dd}td.failed{background:#fbd5d5}\n"
                   "td.error,td.not-run{background:#fdebc8}\n"
                   "pre{white-space:pre-wrap;background:#f4f4f4;padding:.4em;margin:.2em 0}\n"
                   ".type{font-family:monospace;color:#666}\n"
                   "section{border-top:1px solid #ccc;margin-top:1.5em}\n"
                   "</style>\n</head>\n<body>\n<h1>");
  append_escaped (out, _("Toolbench evaluation"));
  g_string_append (out, "</h1>\n<h2>");
  append_escaped (out, _("Summary"));
  g_string_append_printf (out, "</h2>\n<table>\n<tr><th>%s</th><th>%s</th><th>%s</th>"
                          "<th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                          _("Model"), _("Passed"), _("Calls"), _("Invalid arguments"),
                          _("Iterations"), _("Time (s)"), _("Tokens in / out"));
  for (guint i = 0; i < summaries->len; i++)
    {
      TbEvalSummary *summary = g_ptr_array_index (summaries, i);

      g_string_append (out, "<tr><td>");
      append_escaped (out, summary->model);
      g_string_append_printf (out, "</td><td>%u / %u</td><td>%u</td><td>%.0f%%</td><td>%u</td>"
                              "<td>", summary->passed, summary->runs, summary->calls,
                              summary->calls > 0 ? 100.0 * summary->invalid_calls / summary->calls
                                                 : 0.0,
                              summary->iterations);
      append_seconds (out, summary->duration_ms);
      g_string_append_printf (out, "</td><td>%" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT
                              "</td></tr>\n", summary->input_tokens, summary->output_tokens);
    }
  g_string_append (out, "</table>\n<h2>");
  append_escaped (out, _("Scenarios × models"));
  g_string_append (out, "</h2>\n<table>\n<tr><th></th>");
  for (guint i = 0; i < summaries->len; i++)
    {
      g_string_append (out, "<th>");
      append_escaped (out, ((TbEvalSummary *) g_ptr_array_index (summaries, i))->model);
      g_string_append (out, "</th>");
    }
  g_string_append (out, "</tr>\n");

  /* Rows in the order the scenarios first appear. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);
      const char *path = tb_eval_cell_get_path (cell);
      gboolean seen = FALSE;

      for (guint j = 0; j < scenarios->len && !seen; j++)
        seen = g_strcmp0 (g_ptr_array_index (scenarios, j), path) == 0;
      if (!seen)
        g_ptr_array_add (scenarios, (gpointer) path);
    }
  for (guint r = 0; r < scenarios->len; r++)
    {
      gboolean named = FALSE;

      g_string_append (out, "<tr>");
      for (guint c = 0; c < summaries->len; c++)
        for (guint i = 0; i < n; i++)
          {
            g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);

            if (g_strcmp0 (tb_eval_cell_get_path (cell), g_ptr_array_index (scenarios, r)) != 0 ||
                !g_str_equal (tb_eval_cell_get_model (cell),
                              ((TbEvalSummary *) g_ptr_array_index (summaries, c))->model))
              continue;
            if (!named)
              {
                g_string_append (out, "<th>");
                append_escaped (out, tb_eval_cell_get_scenario (cell));
                g_string_append (out, "</th>");
                named = TRUE;
              }
            g_string_append_printf (out, "<td class=\"%s\"><a href=\"#run-%u\">%s</a></td>",
                                    tb_eval_cell_get_status_name (cell), i,
                                    tb_eval_cell_get_status_name (cell));
          }
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</table>\n");

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);
      TbEvalResult *result = tb_eval_cell_get_result (cell);

      g_string_append_printf (out, "<section id=\"run-%u\">\n<h3>", i);
      append_escaped (out, tb_eval_cell_get_scenario (cell));
      g_string_append (out, " — ");
      append_escaped (out, tb_eval_cell_get_model (cell));
      g_string_append_printf (out, " — %s</h3>\n", tb_eval_cell_get_status_name (cell));
      if (tb_eval_cell_get_error (cell) != NULL)
        {
          g_string_append (out, "<p>");
          append_html (out, redactor, tb_eval_cell_get_error (cell));
          g_string_append (out, "</p>\n");
        }
      if (result != NULL && result->failures->len > 0)
        {
          g_string_append (out, "<ul>\n");
          for (guint j = 0; j < result->failures->len; j++)
            {
              g_string_append (out, "<li>");
              append_html (out, redactor, g_ptr_array_index (result->failures, j));
              g_string_append (out, "</li>\n");
            }
          g_string_append (out, "</ul>\n");
        }
      if (result != NULL && result->trace != NULL)
        append_conversation (out, redactor, result->trace);
      g_string_append (out, "</section>\n");
    }
  g_string_append (out, "</body>\n</html>\n");
  return g_string_free (out, FALSE);
}

/* ---- reading a report back -------------------------------------------------- */

static guint
get_count (JsonObject *row,
           const char *member)
{
  gint64 value = 0;

  if (!tb_json_object_get_int_in_range (row, member, 0, G_MAXUINT, &value, NULL))
    return 0;
  return (guint) value;
}

/**
 * tb_eval_report_load:
 * @path: a report written with `toolbench-cli eval --json`
 * @error: return location for an error
 *
 * The cells come back with their outcome and the path of their trace
 * when one was saved; the traces themselves are not read.
 *
 * Returns: (transfer full) (nullable): the cells, a #GListModel of
 *   #TbEvalCell
 */
GListModel *
tb_eval_report_load (const char  *path,
                     GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GListStore) cells = g_list_store_new (TB_TYPE_EVAL_CELL);
  JsonObject *root;
  JsonArray *results;

  node = tb_json_parse_file (path, TB_JSON_MAX_SIZE, error);
  if (node == NULL)
    {
      /* Which file, for the person who picked it. */
      g_prefix_error (error, _("“%s” cannot be read as an evaluation report: "), path);
      return NULL;
    }
  root = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  results = root != NULL ? tb_json_object_get_array (root, "results") : NULL;
  if (root == NULL || g_strcmp0 (tb_json_object_get_string (root, "format"), REPORT_FORMAT) != 0 ||
      results == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” is not an evaluation report (toolbench-cli eval --json)"), path);
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *row = _tb_json_array_get_object (results, i);
      const char *status = row != NULL ? tb_json_object_get_string (row, "status") : NULL;
      g_autoptr(TbEvalCell) cell = NULL;

      if (row == NULL || tb_json_object_get_string (row, "model") == NULL ||
          tb_json_object_get_string (row, "scenario") == NULL || status == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Result %u of “%s” lacks its model, scenario or status"), i + 1, path);
          return NULL;
        }
      cell = tb_eval_cell_new (tb_json_object_get_string (row, "model"),
                               tb_json_object_get_string (row, "scenario"),
                               tb_json_object_get_string (row, "file"));
      tb_eval_cell_set_trace_path (cell, tb_json_object_get_string (row, "trace"));

      if (g_str_equal (status, "passed") || g_str_equal (status, "failed"))
        {
          g_autoptr(TbEvalResult) result = _tb_eval_result_new ();
          JsonArray *failures = tb_json_object_get_array (row, "failures");

          result->passed = g_str_equal (status, "passed");
          result->calls = get_count (row, "calls");
          result->invalid_calls = get_count (row, "invalid_calls");
          result->iterations = get_count (row, "iterations");
          result->input_tokens = get_count (row, "input_tokens");
          result->output_tokens = get_count (row, "output_tokens");
          result->duration_ms = get_count (row, "duration_ms");
          tb_loop_state_from_string (tb_json_object_get_string (row, "state"), &result->state);
          for (guint j = 0; failures != NULL && j < json_array_get_length (failures); j++)
            {
              JsonNode *element = json_array_get_element (failures, j);

              if (JSON_NODE_HOLDS_VALUE (element) &&
                  json_node_get_value_type (element) == G_TYPE_STRING)
                g_ptr_array_add (result->failures, g_strdup (json_node_get_string (element)));
            }
          /* A "failed" row whose failures were lost still fails. */
          if (!result->passed && result->failures->len == 0)
            g_ptr_array_add (result->failures, g_strdup (_("the report gives no reason")));
          tb_eval_cell_set_result (cell, result);
        }
      else if (g_str_equal (status, "error"))
        tb_eval_cell_set_error (cell, tb_json_object_get_string (row, "error"));
      else
        tb_eval_cell_set_not_run (cell);
      g_list_store_append (cells, cell);
    }
  return G_LIST_MODEL (g_steal_pointer (&cells));
}
