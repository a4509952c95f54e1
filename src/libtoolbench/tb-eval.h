/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include "tb-dispatch-loop.h"
#include "tb-scripted-provider.h"
#include "tb-tool-source-set.h"

#include "tb-eval-result.h"

G_BEGIN_DECLS

#define TB_EVAL_ERROR (tb_eval_error_quark ())

/**
 * TbEvalError:
 * @TB_EVAL_ERROR_INVALID: the scenario file is not a valid scenario.
 * @TB_EVAL_ERROR_NO_SCRIPT: an offline run needs a script the scenario lacks.
 * @TB_EVAL_ERROR_TOOLS: the tools the scenario needs did not all start.
 *
 * Why a scenario could not run. The messages name the scenario file and
 * what is wrong in it.
 */
typedef enum
{
  TB_EVAL_ERROR_INVALID,
  TB_EVAL_ERROR_NO_SCRIPT,
  TB_EVAL_ERROR_TOOLS,
} TbEvalError;


#define TB_TYPE_EVAL_SCENARIO (tb_eval_scenario_get_type())

G_DECLARE_FINAL_TYPE (TbEvalScenario, tb_eval_scenario, TB, EVAL_SCENARIO, GObject)

GQuark              tb_eval_error_quark              (void);
TbEvalScenario     *tb_eval_scenario_new_from_json   (JsonNode            *node,
                                                      GError             **error);
TbEvalScenario     *tb_eval_scenario_new_from_file   (const char          *path,
                                                      GError             **error);
const char         *tb_eval_scenario_get_name        (TbEvalScenario      *self);
const char         *tb_eval_scenario_get_path        (TbEvalScenario      *self);
TbToolSourceSet    *tb_eval_scenario_get_sources     (TbEvalScenario      *self);
gboolean            tb_eval_scenario_has_script      (TbEvalScenario      *self);
TbScriptedProvider *tb_eval_scenario_create_provider (TbEvalScenario      *self,
                                                      GError             **error);
TbToolRegistry     *tb_eval_scenario_build_registry  (TbEvalScenario      *self,
                                                      TbToolRegistry      *base,
                                                      GError             **error);
void                tb_eval_scenario_run_async       (TbEvalScenario      *self,
                                                      TbProvider          *provider,
                                                      TbToolSourceSet     *sources,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
TbEvalResult       *tb_eval_scenario_run_finish      (TbEvalScenario      *self,
                                                      GAsyncResult        *result,
                                                      GError             **error);

G_END_DECLS
