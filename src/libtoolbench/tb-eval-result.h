/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>

#include "tb-loop-types.h"
#include "tb-trace.h"

G_BEGIN_DECLS

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
 * @input_tokens: the tokens the provider said it read, summed over the run
 * @output_tokens: the tokens it said it wrote
 * @duration_ms: how long the run took, from opening its tools to its end
 *
 * What one scenario run came to: whether every expectation held, what did
 * not, and what the run took. Reference-counted; the fields are read-only.
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
  guint64      input_tokens;
  guint64      output_tokens;
  gint64       duration_ms;

  /*< private >*/
  gint         ref_count;
} TbEvalResult;

GType         tb_eval_result_get_type (void) G_GNUC_CONST;
TbEvalResult *tb_eval_result_ref      (TbEvalResult *self);
void          tb_eval_result_unref    (TbEvalResult *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbEvalResult, tb_eval_result_unref)

G_END_DECLS
