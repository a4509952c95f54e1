/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-eval-cell.h"
#include "tb-redact.h"

G_BEGIN_DECLS

/**
 * TbEvalSummary:
 * @model: the model
 * @runs: the cells of the model
 * @passed: how many passed
 * @errors: how many could not run
 * @calls: the calls its runs made
 * @invalid_calls: how many had arguments that were not valid
 * @iterations: the iterations its runs used
 * @input_tokens: the tokens read
 * @output_tokens: the tokens written
 * @duration_ms: the time its runs took, added up
 *
 * One line of an evaluation's summary table.
 */
typedef struct
{
  char    *model;
  guint    runs;
  guint    passed;
  guint    errors;
  guint    calls;
  guint    invalid_calls;
  guint    iterations;
  guint64  input_tokens;
  guint64  output_tokens;
  gint64   duration_ms;
} TbEvalSummary;

GPtrArray  *tb_eval_report_summarize   (GListModel  *cells);
JsonNode   *tb_eval_report_to_json     (GListModel  *cells);
char       *tb_eval_report_to_junit    (GListModel  *cells,
                                        const char  *suite_name);
char       *tb_eval_report_to_html     (GListModel  *cells,
                                        TbRedactor  *redactor);
GListModel *tb_eval_report_load        (const char  *path,
                                        GError     **error);

G_END_DECLS
