/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What one scenario run came to. */

#define G_LOG_DOMAIN "tb-eval"

#include "config.h"

#include "tb-eval-private.h"

G_DEFINE_BOXED_TYPE (TbEvalResult, tb_eval_result, tb_eval_result_ref, tb_eval_result_unref)

TbEvalResult *
_tb_eval_result_new (void)
{
  TbEvalResult *self = g_new0 (TbEvalResult, 1);

  self->ref_count = 1;
  self->failures = g_ptr_array_new_with_free_func (g_free);
  return self;
}

/**
 * tb_eval_result_ref:
 * @self: a result
 *
 * Takes a reference to a result.
 *
 * Returns: (transfer full): @self
 */
TbEvalResult *
tb_eval_result_ref (TbEvalResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

/**
 * tb_eval_result_unref:
 * @self: a result
 *
 * Drops a reference to a result, freeing it with the last one.
 */
void
tb_eval_result_unref (TbEvalResult *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_ptr_array_unref (self->failures);
  g_clear_object (&self->trace);
  g_free (self);
}
