/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A replay's report: two runs compared step by step. */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-replay-private.h"

static void report_list_model_iface_init (GListModelInterface *iface);

/**
 * TbReplayReport:
 *
 * What a replay found: the recorded run and the new one compared step by
 * step (#TbReplayStep), each step one tool call with its result, plus a last
 * step for how the run ended.
 */
G_DEFINE_FINAL_TYPE_WITH_CODE (TbReplayReport, tb_replay_report, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      report_list_model_iface_init))

static TbReplayStep *make_report_step (TbReplayReport *self,
                                       guint           index);

static GType
report_get_item_type (GListModel *model)
{
  return TB_TYPE_REPLAY_STEP;
}

static guint
report_get_n_items (GListModel *model)
{
  return TB_REPLAY_REPORT (model)->statuses->len;
}

static gpointer
report_get_item (GListModel *model,
                 guint       position)
{
  TbReplayReport *self = TB_REPLAY_REPORT (model);

  if (position >= self->statuses->len)
    return NULL;
  return make_report_step (self, position);
}

static void
report_list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = report_get_item_type;
  iface->get_n_items = report_get_n_items;
  iface->get_item = report_get_item;
}

static void
tb_replay_report_finalize (GObject *object)
{
  TbReplayReport *self = TB_REPLAY_REPORT (object);

  g_clear_pointer (&self->recorded, _tb_replay_run_unref);
  g_clear_pointer (&self->replayed, _tb_replay_run_unref);
  g_clear_pointer (&self->statuses, g_byte_array_unref);
  g_clear_pointer (&self->incomplete, g_free);
  for (guint i = 0; i < G_N_ELEMENTS (self->made); i++)
    g_clear_object (&self->made[i]);

  G_OBJECT_CLASS (tb_replay_report_parent_class)->finalize (object);
}

static void
tb_replay_report_class_init (TbReplayReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_replay_report_finalize;
}

static void
tb_replay_report_init (TbReplayReport *self)
{
  self->statuses = g_byte_array_new ();
  self->first_divergence = -1;
}

/* The parts of a result that say what a tool did; duration and metadata
 * change from run to run without meaning anything. */
static JsonNode *
comparable_result (JsonObject *result)
{
  JsonObject *out = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  const char *members[] = { "ok", "kind", "output", "error", "warnings" };

  for (guint i = 0; result != NULL && i < G_N_ELEMENTS (members); i++)
    {
      JsonNode *member = json_object_get_member (result, members[i]);

      if (member != NULL)
        json_object_set_member (out, members[i], json_node_ref (member));
    }
  json_node_take_object (node, out);
  return node;
}

/* A step as the report shows it, read from the run's trace. */
static JsonObject *
step_summary (Run   *run,
              guint  index)
{
  JsonObject *object = json_object_new ();
  g_autofree char *call_id = _tb_replay_run_dup_call_id (run, index);
  g_autofree char *name = _tb_replay_run_dup_name (run, index);
  g_autoptr(JsonObject) result = _tb_replay_run_dup_result (run, index);

  json_object_set_string_member (object, "call_id", call_id ?: "");
  json_object_set_string_member (object, "name", name ?: "");
  json_object_set_member (object, "arguments", _tb_replay_run_dup_arguments (run, index));
  json_object_set_member (object, "result", comparable_result (result));
  return object;
}

static JsonObject *
end_summary (Run *run)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "state", run->end_state ?: "unfinished");
  json_object_set_string_member (object, "answer", run->answer ?: "");
  return object;
}

static TbReplayStep *
make_step (guint       index,
           const char *kind,
           JsonObject *recorded,
           JsonObject *replayed)
{
  TbReplayStep *step = g_object_new (TB_TYPE_REPLAY_STEP, NULL);
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;

  step->index = index;
  step->kind = g_strdup (kind);
  step->recorded = recorded;
  step->replayed = replayed;

  if (recorded == NULL)
    {
      step->status = TB_REPLAY_EXTRA;
      step->diff = json_array_new ();
      return step;
    }
  if (replayed == NULL)
    {
      step->status = TB_REPLAY_MISSING;
      step->diff = json_array_new ();
      return step;
    }

  a = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (a, recorded);
  b = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (b, replayed);

  /* Call ids are the model's; they say nothing about what the tool did. */
  json_object_remove_member (recorded, "call_id");
  json_object_remove_member (replayed, "call_id");
  step->diff = tb_json_diff (a, b);

  if (json_array_get_length (step->diff) == 0)
    step->status = TB_REPLAY_SAME;
  else if (g_str_equal (kind, "end"))
    step->status = TB_REPLAY_DIFFERENT_RESULT;
  else if (g_strcmp0 (tb_json_object_get_string (recorded, "name"),
                      tb_json_object_get_string (replayed, "name")) != 0)
    step->status = TB_REPLAY_DIFFERENT_CALL;
  else if (!tb_json_equal (json_object_get_member (recorded, "arguments"),
                           json_object_get_member (replayed, "arguments")))
    step->status = TB_REPLAY_DIFFERENT_ARGUMENTS;
  else
    step->status = TB_REPLAY_DIFFERENT_RESULT;

  return step;
}

/* Step @index of the two runs compared, made again from their traces. */
static TbReplayStep *
compare_step (Run   *recorded,
              Run   *replayed,
              guint  index)
{
  guint n = MAX (_tb_replay_run_n_steps (recorded), _tb_replay_run_n_steps (replayed));

  if (index == n)
    return make_step (n, "end", end_summary (recorded), end_summary (replayed));
  return make_step (index, "call",
                    index < _tb_replay_run_n_steps (recorded) ? step_summary (recorded, index)
                                                              : NULL,
                    index < _tb_replay_run_n_steps (replayed) ? step_summary (replayed, index)
                                                              : NULL);
}

/* A step with a reference; the last 64 made stay valid for
 * tb_replay_report_get_step()'s callers. */
static TbReplayStep *
make_report_step (TbReplayReport *self,
                  guint           index)
{
  guint slot;

  for (guint i = 0; i < G_N_ELEMENTS (self->made); i++)
    if (self->made[i] != NULL && self->made[i]->index == index)
      return g_object_ref (self->made[i]);

  slot = self->made_next;
  self->made_next = (slot + 1) % G_N_ELEMENTS (self->made);
  g_clear_object (&self->made[slot]);
  self->made[slot] = compare_step (self->recorded, self->replayed, index);
  return g_object_ref (self->made[slot]);
}

/* Compares the runs a step at a time, keeping each step's status only:
 * a step is made again from the traces when someone looks at it, so a
 * report of any length takes a byte a step. */
static TbReplayReport *
compare_runs (Run *recorded,
              Run *replayed)
{
  TbReplayReport *report = g_object_new (TB_TYPE_REPLAY_REPORT, NULL);
  guint n = MAX (_tb_replay_run_n_steps (recorded), _tb_replay_run_n_steps (replayed));

  report->recorded = _tb_replay_run_ref (recorded);
  report->replayed = _tb_replay_run_ref (replayed);
  report->incomplete = g_strdup (recorded->incomplete);

  for (guint i = 0; i <= n; i++)
    {
      g_autoptr(TbReplayStep) step = compare_step (recorded, replayed, i);
      guint8 status = step->status;

      g_byte_array_append (report->statuses, &status, 1);
      if (step->status != TB_REPLAY_SAME)
        {
          if (report->first_divergence < 0)
            report->first_divergence = i;
          report->n_divergences++;
        }
    }
  return report;
}

/**
 * tb_replay_report_new_compare:
 * @recorded: a trace
 * @replayed: another trace (a replay or fork of it, or any other run)
 *
 * Lines up the two runs' tool calls in order and says for each whether it
 * is the same, and where it differs. The report reads a step's details
 * from the traces when they are asked for: keep the traces as they are.
 *
 * Returns: (transfer full): the report
 */
TbReplayReport *
tb_replay_report_new_compare (TbTrace *recorded,
                              TbTrace *replayed)
{
  g_autoptr(Run) a = NULL;
  g_autoptr(Run) b = NULL;

  g_return_val_if_fail (TB_IS_TRACE (recorded), NULL);
  g_return_val_if_fail (TB_IS_TRACE (replayed), NULL);

  a = _tb_replay_run_read (recorded);
  b = _tb_replay_run_read (replayed);
  return compare_runs (a, b);
}

/* As tb_replay_report_new_compare() with both runs already read (a
 * replay reads its own as it runs), so that no trace is read twice. */
TbReplayReport *
_tb_replay_report_new_compare_runs (Run *recorded,
                                    Run *replayed)
{
  return compare_runs (recorded, replayed);
}

/**
 * tb_replay_report_get_incomplete:
 * @self: a report
 *
 * A replay confirms a run only when the recorded trace holds all of it.
 *
 * Returns: (nullable): why the recorded trace is incomplete (an event
 *   could not be recorded, lines were damaged, the trace stops before the
 *   run ended), or %NULL when it is whole
 */
const char *
tb_replay_report_get_incomplete (TbReplayReport *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), NULL);
  return self->incomplete;
}

/**
 * tb_replay_report_get_n_steps:
 * @self: a report
 *
 * Counts the steps compared.
 *
 * Returns: the number of steps
 */
guint
tb_replay_report_get_n_steps (TbReplayReport *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), 0);
  return self->statuses->len;
}

/**
 * tb_replay_report_get_step:
 * @self: a report
 * @index: the step's index, less than tb_replay_report_get_n_steps()
 *
 * Gives one step of the comparison.
 *
 * The step is made from the two traces when asked for; it stays valid
 * while fewer than 64 other steps are asked for (take a reference to keep
 * it longer).
 *
 * Returns: (transfer none) (nullable): the step
 */
TbReplayStep *
tb_replay_report_get_step (TbReplayReport *self,
                           guint           index)
{
  g_autoptr(TbReplayStep) step = NULL;

  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), NULL);

  if (index >= self->statuses->len)
    return NULL;
  step = make_report_step (self, index);
  return step;   /* the report holds another reference */
}

/**
 * tb_replay_report_get_first_divergence:
 * @self: a report
 *
 * Finds where the new run first went another way than the recorded one.
 *
 * Returns: the index of the first step that is not the same, or -1
 */
gint
tb_replay_report_get_first_divergence (TbReplayReport *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), -1);
  return self->first_divergence;
}

/**
 * tb_replay_report_get_n_divergences:
 * @self: a report
 *
 * Counts the steps that are not the same in both runs.
 *
 * Returns: the number of steps that differ
 */
guint
tb_replay_report_get_n_divergences (TbReplayReport *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), 0);
  return self->n_divergences;
}

/**
 * tb_replay_report_to_json:
 * @self: a report
 *
 * Writes the report for programs, as `toolbench-cli replay --json` prints it.
 *
 * Returns: (transfer full): `{"steps": [{index, kind, status, recorded,
 *   replayed, diff}], "first_divergence": N|null, "divergences": N}`
 */
JsonNode *
tb_replay_report_to_json (TbReplayReport *self)
{
  JsonObject *object = json_object_new ();
  JsonArray *steps = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  gint first;

  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), NULL);

  for (guint i = 0; i < self->statuses->len; i++)
    {
      g_autoptr(TbReplayStep) step = make_report_step (self, i);
      JsonObject *entry = json_object_new ();

      json_object_set_int_member (entry, "index", step->index);
      json_object_set_string_member (entry, "kind", step->kind);
      json_object_set_string_member (entry, "status", tb_replay_status_to_string (step->status));
      if (step->recorded != NULL)
        json_object_set_object_member (entry, "recorded", json_object_ref (step->recorded));
      if (step->replayed != NULL)
        json_object_set_object_member (entry, "replayed", json_object_ref (step->replayed));
      json_object_set_array_member (entry, "diff", json_array_ref (step->diff));
      json_array_add_object_element (steps, entry);
    }

  json_object_set_array_member (object, "steps", steps);
  first = tb_replay_report_get_first_divergence (self);
  if (first >= 0)
    json_object_set_int_member (object, "first_divergence", first);
  else
    json_object_set_null_member (object, "first_divergence");
  json_object_set_int_member (object, "divergences", tb_replay_report_get_n_divergences (self));
  if (self->incomplete != NULL)
    json_object_set_string_member (object, "incomplete", self->incomplete);
  else
    json_object_set_null_member (object, "incomplete");

  json_node_take_object (node, object);
  return node;
}

/**
 * tb_replay_report_to_text:
 * @self: a report
 *
 * Writes the report for people: one line a step, with where the runs
 * differ.
 *
 * Returns: (transfer full): the report as a person reads it in a terminal
 */
char *
tb_replay_report_to_text (TbReplayReport *self)
{
  GString *text = g_string_new (NULL);
  gint first;
  guint n;

  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), NULL);

  first = tb_replay_report_get_first_divergence (self);
  for (guint i = 0; i < self->statuses->len; i++)
    {
      g_autoptr(TbReplayStep) step = make_report_step (self, i);
      g_autofree char *line = tb_replay_step_describe (step);

      g_string_append_printf (text, "%s step %-3u %-19s %s\n",
                              (gint) i == first ? ">" : " ", step->index + 1,
                              tb_replay_status_to_string (step->status), line);
    }

  n = tb_replay_report_get_n_divergences (self);
  if (self->incomplete != NULL)
    g_string_append_printf (text, _("The recorded trace is incomplete, so the replay cannot "
                                    "confirm the run: %s\n"), self->incomplete);
  if (n == 0 && self->incomplete != NULL)
    g_string_append (text, _("No divergence in what was recorded.\n"));
  else if (n == 0)
    g_string_append (text, _("No divergence: the replay did what the recorded run did.\n"));
  else
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "%u divergence; the first at step %d.\n",
                                               "%u divergences; the first at step %d.\n", n),
                            n, first + 1);

  return g_string_free (text, FALSE);
}
