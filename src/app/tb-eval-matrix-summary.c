/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-eval-matrix"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-eval-matrix-private.h"

/* One model's line of an evaluation's summary, in the words of the
 * table `toolbench-cli eval` prints; updated in place as runs end. */

enum {
  SUMMARY_PROP_0,
  SUMMARY_PROP_MODEL,
  SUMMARY_PROP_PASSED,
  SUMMARY_PROP_CALLS,
  SUMMARY_PROP_INVALID,
  SUMMARY_PROP_ITERATIONS,
  SUMMARY_PROP_DURATION,
  SUMMARY_PROP_TOKENS,
  SUMMARY_N_PROPS
};

struct _TbEvalMatrixSummary
{
  GObject  parent_instance;

  /* What each column says, by property; [0] is unused. */
  char    *text[SUMMARY_N_PROPS];
};

G_DEFINE_FINAL_TYPE (TbEvalMatrixSummary, tb_eval_matrix_summary, G_TYPE_OBJECT)

static GParamSpec *summary_properties [SUMMARY_N_PROPS];

static void
tb_eval_matrix_summary_finalize (GObject *object)
{
  TbEvalMatrixSummary *self = TB_EVAL_MATRIX_SUMMARY (object);

  for (guint i = 0; i < SUMMARY_N_PROPS; i++)
    g_free (self->text[i]);
  G_OBJECT_CLASS (tb_eval_matrix_summary_parent_class)->finalize (object);
}

static void
tb_eval_matrix_summary_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TbEvalMatrixSummary *self = TB_EVAL_MATRIX_SUMMARY (object);

  if (prop_id > SUMMARY_PROP_0 && prop_id < SUMMARY_N_PROPS)
    g_value_set_string (value, self->text[prop_id]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
tb_eval_matrix_summary_class_init (TbEvalMatrixSummaryClass *klass)
{
  static const char * const names[] = {
    NULL, "model", "passed", "calls", "invalid", "iterations", "duration", "tokens",
  };
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == SUMMARY_N_PROPS);

  object_class->finalize = tb_eval_matrix_summary_finalize;
  object_class->get_property = tb_eval_matrix_summary_get_property;

  for (guint i = 1; i < SUMMARY_N_PROPS; i++)
    summary_properties [i] =
      g_param_spec_string (names[i], NULL, NULL, NULL,
                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, SUMMARY_N_PROPS, summary_properties);
}

static void
tb_eval_matrix_summary_init (TbEvalMatrixSummary *self)
{
}

const char *
tb_eval_matrix_summary_get_model (TbEvalMatrixSummary *self)
{
  g_return_val_if_fail (TB_IS_EVAL_MATRIX_SUMMARY (self), NULL);
  return self->text[SUMMARY_PROP_MODEL];
}

static void
summary_take (TbEvalMatrixSummary *self,
              guint                prop,
              char                *text)
{
  if (g_strcmp0 (self->text[prop], text) == 0)
    {
      g_free (text);
      return;
    }
  g_free (self->text[prop]);
  self->text[prop] = text;
  g_object_notify_by_pspec (G_OBJECT (self), summary_properties [prop]);
}

void
_tb_eval_matrix_summary_update (TbEvalMatrixSummary *self,
                const TbEvalSummary *summary)
{
  g_autofree char *in = g_strdup_printf ("%" G_GUINT64_FORMAT, summary->input_tokens);
  g_autofree char *out = g_strdup_printf ("%" G_GUINT64_FORMAT, summary->output_tokens);

  g_object_freeze_notify (G_OBJECT (self));
  summary_take (self, SUMMARY_PROP_MODEL, g_strdup (summary->model));
  /* Translators: runs that passed, then all the model's runs */
  summary_take (self, SUMMARY_PROP_PASSED, g_strdup_printf (_("%u of %u"), summary->passed,
                                                            summary->runs));
  summary_take (self, SUMMARY_PROP_CALLS, g_strdup_printf ("%u", summary->calls));
  /* Translators: the share of calls whose arguments were not valid */
  summary_take (self, SUMMARY_PROP_INVALID,
                g_strdup_printf (_("%.0f %%"), summary->calls > 0
                                 ? 100.0 * summary->invalid_calls / summary->calls : 0.0));
  summary_take (self, SUMMARY_PROP_ITERATIONS, g_strdup_printf ("%u", summary->iterations));
  /* Translators: the time the model's runs took, in seconds */
  summary_take (self, SUMMARY_PROP_DURATION,
                g_strdup_printf (_("%.2f s"), summary->duration_ms / 1000.0));
  /* Translators: the tokens the model read, then those it wrote */
  summary_take (self, SUMMARY_PROP_TOKENS, g_strdup_printf (_("%s in, %s out"), in, out));
  g_object_thaw_notify (G_OBJECT (self));
}
