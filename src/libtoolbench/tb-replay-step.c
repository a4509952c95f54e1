/* SPDX-License-Identifier: GPL-3.0-or-later */

/* One step of a replay's report: a call with its result, or how the run
 * ended, as recorded and as replayed, with their difference. */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-replay-private.h"

/**
 * TbReplayStep:
 *
 * One step of a replay's comparison: a tool call with its result, or how
 * the run ended, as recorded and as replayed, with the differences.
 */
G_DEFINE_FINAL_TYPE (TbReplayStep, tb_replay_step, G_TYPE_OBJECT)

/**
 * tb_replay_status_to_string:
 * @status: a status
 *
 * Names a step's status in the words the report's JSON uses.
 *
 * Returns: the status's name, such as "same" or "different-result"
 */
const char *
tb_replay_status_to_string (TbReplayStatus status)
{
  switch (status)
    {
    case TB_REPLAY_SAME: return "same";
    case TB_REPLAY_DIFFERENT_CALL: return "different-call";
    case TB_REPLAY_DIFFERENT_ARGUMENTS: return "different-arguments";
    case TB_REPLAY_DIFFERENT_RESULT: return "different-result";
    case TB_REPLAY_MISSING: return "missing";
    case TB_REPLAY_EXTRA: return "extra";
    default: return "unknown";
    }
}

static void
tb_replay_step_finalize (GObject *object)
{
  TbReplayStep *self = (TbReplayStep *)object;

  g_free (self->kind);
  g_clear_pointer (&self->recorded, json_object_unref);
  g_clear_pointer (&self->replayed, json_object_unref);
  g_clear_pointer (&self->diff, json_array_unref);

  G_OBJECT_CLASS (tb_replay_step_parent_class)->finalize (object);
}

static void
tb_replay_step_class_init (TbReplayStepClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_replay_step_finalize;
}

static void
tb_replay_step_init (TbReplayStep *self)
{
}

/**
 * tb_replay_step_get_index:
 * @self: a step
 *
 * Gives the step's place in the report.
 *
 * Returns: the index, from 0
 */
guint
tb_replay_step_get_index (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), 0);
  return self->index;
}

/**
 * tb_replay_step_get_status:
 * @self: a step
 *
 * Tells how the step compares.
 *
 * Returns: the step's status
 */
TbReplayStatus
tb_replay_step_get_status (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), TB_REPLAY_SAME);
  return self->status;
}

/**
 * tb_replay_step_get_kind:
 * @self: a step
 *
 * Tells a tool call from the end of the run.
 *
 * Returns: "call" for a tool call with its result, "end" for how the run ended
 */
const char *
tb_replay_step_get_kind (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), NULL);
  return self->kind;
}

/**
 * tb_replay_step_get_recorded:
 * @self: a step
 *
 * Gives the step as the recorded run had it.
 *
 * Returns: (transfer none) (nullable): `{name, arguments, result}` of a
 *   call or `{state, answer}` of the end, as recorded; %NULL when missing
 */
JsonObject *
tb_replay_step_get_recorded (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), NULL);
  return self->recorded;
}

/**
 * tb_replay_step_get_replayed:
 * @self: a step
 *
 * Gives the step as the new run had it.
 *
 * Returns: (transfer none) (nullable): the same for the replay
 */
JsonObject *
tb_replay_step_get_replayed (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), NULL);
  return self->replayed;
}

/**
 * tb_replay_step_get_diff:
 * @self: a step
 *
 * Lists where the recorded and the replayed step differ.
 *
 * Returns: (transfer none): see tb_json_diff(); empty for a step that is the same
 */
JsonArray *
tb_replay_step_get_diff (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), NULL);
  return self->diff;
}

static char *
short_json (JsonNode *node,
            gsize     limit)
{
  g_autofree char *text = tb_json_to_string (node, FALSE);

  if (strlen (text) <= limit)
    return g_steal_pointer (&text);
  return g_strdup_printf ("%.*s…", (int) limit, text);
}

/**
 * tb_replay_step_describe:
 * @self: a step
 *
 * Describes the step for a person, as the report's text does.
 *
 * Returns: (transfer full): one line a person reads: what the step was and,
 *   for a divergence, where the two runs differ
 */
char *
tb_replay_step_describe (TbReplayStep *self)
{
  JsonObject *any;
  GString *text;

  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), NULL);

  any = self->recorded != NULL ? self->recorded : self->replayed;
  text = g_string_new (NULL);

  if (g_str_equal (self->kind, "end"))
    g_string_append_printf (text, _("end: %s"),
                            tb_json_object_get_string (any, "state") ?: "?");
  else
    {
      g_autofree char *arguments = short_json (json_object_get_member (any, "arguments"), 60);

      g_string_append_printf (text, "%s %s", tb_json_object_get_string (any, "name") ?: "?",
                              arguments);
    }

  if (self->diff != NULL && json_array_get_length (self->diff) > 0)
    {
      JsonObject *first = json_array_get_object_element (self->diff, 0);
      JsonNode *recorded = json_object_get_member (first, "recorded");
      JsonNode *replayed = json_object_get_member (first, "replayed");
      g_autofree char *a = recorded != NULL ? short_json (recorded, 60) : g_strdup (_("nothing"));
      g_autofree char *b = replayed != NULL ? short_json (replayed, 60) : g_strdup (_("nothing"));

      /* Translators: a JSON Pointer, then the recorded and the replayed value */
      g_string_append_printf (text, _(" — at %s: recorded %s, replayed %s"),
                              tb_json_object_get_string (first, "path"), a, b);
      if (json_array_get_length (self->diff) > 1)
        g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " (and %u more difference)",
                                                   " (and %u more differences)",
                                                   json_array_get_length (self->diff) - 1),
                                json_array_get_length (self->diff) - 1);
    }

  return g_string_free (text, FALSE);
}
