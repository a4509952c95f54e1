/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-dispatch-loop.h"
#include "tb-scripted-provider.h"

G_BEGIN_DECLS

#define TB_EVAL_ERROR (tb_eval_error_quark ())

/**
 * TbEvalError:
 * @TB_EVAL_ERROR_INVALID: the scenario file is not a valid scenario.
 * @TB_EVAL_ERROR_NO_SCRIPT: an offline run needs a script the scenario lacks.
 */
typedef enum
{
  TB_EVAL_ERROR_INVALID,
  TB_EVAL_ERROR_NO_SCRIPT,
} TbEvalError;

#define TB_TYPE_EVAL_RESULT (tb_eval_result_get_type ())

/**
 * TbEvalResult:
 * @passed: whether every expectation held
 * @failures: (element-type utf8): one sentence per expectation that did not hold
 * @calls: how many calls the model made
 * @invalid_calls: how many of them had arguments that were not valid
 * @iterations: the iterations used
 * @state: how the loop ended
 * @trace: the run's trace
 */
typedef struct
{
  gboolean     passed;
  GPtrArray   *failures;
  guint        calls;
  guint        invalid_calls;
  guint        iterations;
  TbLoopState  state;
  TbTrace     *trace;

  /*< private >*/
  gint         ref_count;
} TbEvalResult;

GType         tb_eval_result_get_type (void) G_GNUC_CONST;
TbEvalResult *tb_eval_result_ref      (TbEvalResult *self);
void          tb_eval_result_unref    (TbEvalResult *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbEvalResult, tb_eval_result_unref)

#define TB_TYPE_EVAL_SCENARIO (tb_eval_scenario_get_type())

G_DECLARE_FINAL_TYPE (TbEvalScenario, tb_eval_scenario, TB, EVAL_SCENARIO, GObject)

GQuark              tb_eval_error_quark              (void);
TbEvalScenario     *tb_eval_scenario_new_from_json   (JsonNode            *node,
                                                      GError             **error);
TbEvalScenario     *tb_eval_scenario_new_from_file   (const char          *path,
                                                      GError             **error);
const char         *tb_eval_scenario_get_name        (TbEvalScenario      *self);
gboolean            tb_eval_scenario_has_script      (TbEvalScenario      *self);
TbScriptedProvider *tb_eval_scenario_create_provider (TbEvalScenario      *self,
                                                      GError             **error);
TbToolRegistry     *tb_eval_scenario_build_registry  (TbEvalScenario      *self,
                                                      TbToolRegistry      *base,
                                                      GError             **error);
void                tb_eval_scenario_run_async       (TbEvalScenario      *self,
                                                      TbProvider          *provider,
                                                      TbToolRegistry      *base,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
TbEvalResult       *tb_eval_scenario_run_finish      (TbEvalScenario      *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);

G_END_DECLS
