/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>

#include "tb-eval.h"
#include "tb-eval-cell.h"
#include "tb-redact.h"

G_BEGIN_DECLS

/**
 * TbEvalProviderFunc:
 * @scenario: the scenario about to run
 * @model: the model of its column
 * @user_data: closure
 * @error: return location for why no provider could be made
 *
 * Makes the provider a scenario runs against for one model of the matrix,
 * such as an HTTP provider for the model named; called on the main context
 * for each run.
 *
 * Returns: (transfer full) (nullable): the provider for one run
 */
typedef TbProvider *(*TbEvalProviderFunc) (TbEvalScenario  *scenario,
                                           const char      *model,
                                           gpointer         user_data,
                                           GError         **error);

#define TB_TYPE_EVAL_SUITE (tb_eval_suite_get_type ())

G_DECLARE_FINAL_TYPE (TbEvalSuite, tb_eval_suite, TB, EVAL_SUITE, GObject)

TbEvalSuite *tb_eval_suite_new               (void);
gboolean     tb_eval_suite_add_folder        (TbEvalSuite         *self,
                                              const char          *dir,
                                              GError             **error);
void         tb_eval_suite_add_file          (TbEvalSuite         *self,
                                              const char          *path);
guint        tb_eval_suite_get_n_scenarios   (TbEvalSuite         *self);
void         tb_eval_suite_set_models        (TbEvalSuite         *self,
                                              const char * const  *models);
const char * const *tb_eval_suite_get_models (TbEvalSuite         *self);
void         tb_eval_suite_set_provider_func (TbEvalSuite         *self,
                                              TbEvalProviderFunc   func,
                                              gpointer             user_data,
                                              GDestroyNotify       destroy);
void         tb_eval_suite_set_sources       (TbEvalSuite         *self,
                                              TbToolSourceSet     *sources);
void         tb_eval_suite_set_jobs          (TbEvalSuite         *self,
                                              guint                jobs);
guint        tb_eval_suite_get_jobs          (TbEvalSuite         *self);
void         tb_eval_suite_set_trace_dir     (TbEvalSuite         *self,
                                              const char          *dir);
void         tb_eval_suite_set_redactor      (TbEvalSuite         *self,
                                              TbRedactor          *redactor);
GListModel  *tb_eval_suite_get_cells         (TbEvalSuite         *self);
void         tb_eval_suite_run_async         (TbEvalSuite         *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
gboolean     tb_eval_suite_run_finish        (TbEvalSuite         *self,
                                              GAsyncResult        *result,
                                              GError             **error);

G_END_DECLS
