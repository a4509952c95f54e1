/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-message.h"
#include "tb-replay.h"
#include "tb-scripted-provider.h"
#include "tb-tool-call.h"

/*
 * Replay re-runs a recorded loop offline: the model's recorded turns come
 * back from a scripted provider, the person's recorded decisions (edit,
 * skip, reject, extend the cap) are made again, and the tools either run
 * again (live) or give back their recorded results. The new run is a trace
 * of its own, and the two are compared step by step: a step is one tool
 * call with its result, plus a last step for how the run ended.
 *
 * A fork is a replay with one edit at one step — other arguments, another
 * result, or another model turn — that continues either with the rest of
 * the recorded turns or with a live provider from the fork on.
 */

G_DEFINE_QUARK (tb-replay-error-quark, tb_replay_error)

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

/* ---- JSON diff ------------------------------------------------------------ */

static void
diff_add (JsonArray  *diff,
          const char *path,
          JsonNode   *recorded,
          JsonNode   *replayed)
{
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (entry, "path", path[0] != '\0' ? path : "");
  if (recorded != NULL)
    json_object_set_member (entry, "recorded", tb_json_copy (recorded));
  if (replayed != NULL)
    json_object_set_member (entry, "replayed", tb_json_copy (replayed));
  json_array_add_object_element (diff, entry);
}

static char *
child_path (const char *path,
            const char *key)
{
  g_autofree char *escaped = tb_json_pointer_escape (key);

  return g_strdup_printf ("%s/%s", path, escaped);
}

static void
diff_nodes (JsonArray  *diff,
            const char *path,
            JsonNode   *a,
            JsonNode   *b,
            guint       remaining)
{
  if (tb_json_equal (a, b))
    return;

  if (remaining > 0 && JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b))
    {
      JsonObject *oa = json_node_get_object (a);
      JsonObject *ob = json_node_get_object (b);
      g_autoptr(GList) names_a = json_object_get_members (oa);
      g_autoptr(GList) names_b = json_object_get_members (ob);

      for (const GList *l = names_a; l != NULL; l = l->next)
        {
          g_autofree char *sub = child_path (path, l->data);

          diff_nodes (diff, sub, json_object_get_member (oa, l->data),
                      json_object_get_member (ob, l->data), remaining - 1);
        }
      for (const GList *l = names_b; l != NULL; l = l->next)
        if (!json_object_has_member (oa, l->data))
          {
            g_autofree char *sub = child_path (path, l->data);

            diff_add (diff, sub, NULL, json_object_get_member (ob, l->data));
          }
      return;
    }

  if (remaining > 0 && JSON_NODE_HOLDS_ARRAY (a) && JSON_NODE_HOLDS_ARRAY (b))
    {
      JsonArray *aa = json_node_get_array (a);
      JsonArray *ab = json_node_get_array (b);
      guint na = json_array_get_length (aa);
      guint nb = json_array_get_length (ab);

      for (guint i = 0; i < MAX (na, nb); i++)
        {
          g_autofree char *sub = g_strdup_printf ("%s/%u", path, i);

          diff_nodes (diff, sub, i < na ? json_array_get_element (aa, i) : NULL,
                      i < nb ? json_array_get_element (ab, i) : NULL, remaining - 1);
        }
      return;
    }

  diff_add (diff, path, a, b);
}

/**
 * tb_json_diff:
 * @recorded: (nullable): one value
 * @replayed: (nullable): the other
 *
 * Returns: (transfer full): the differences, one object per changed place:
 *   `{"path": JSON Pointer, "recorded": …, "replayed": …}` (a side is absent
 *   where the value is missing); empty when the values are equal
 */
JsonArray *
tb_json_diff (JsonNode *recorded,
              JsonNode *replayed)
{
  JsonArray *diff = json_array_new ();

  diff_nodes (diff, "", recorded, replayed, TB_JSON_MAX_WALK_DEPTH);
  return diff;
}

/* ---- what a trace says happened ------------------------------------------ */

typedef enum { ACTION_ADD_MESSAGE, ACTION_EXTEND, ACTION_RUN } ActionKind;

typedef struct
{
  ActionKind  kind;
  JsonNode   *message;
  guint       extend_by;
} Action;

typedef struct
{
  char       *call_id;
  char       *name;
  JsonNode   *arguments;
  JsonObject *result;
  char       *decision;
  JsonObject *decision_payload;
  guint       turn;
  gboolean    offered;
} Step;

typedef struct
{
  GPtrArray  *steps;     /* Step */
  GPtrArray  *turns;     /* JsonNode: assistant messages */
  GArray     *actions;   /* Action */
  char       *end_state;
  char       *answer;
  gint64      max_iterations;
  GError     *error;     /* the trace cannot be replayed */
  char       *incomplete;  /* why the trace cannot confirm the run */
} Run;

static void
step_free (Step *step)
{
  g_free (step->call_id);
  g_free (step->name);
  g_clear_pointer (&step->arguments, json_node_unref);
  g_clear_pointer (&step->result, json_object_unref);
  g_free (step->decision);
  g_clear_pointer (&step->decision_payload, json_object_unref);
  g_free (step);
}

static void
action_clear (Action *action)
{
  g_clear_pointer (&action->message, json_node_unref);
}

static void
run_free (Run *run)
{
  g_ptr_array_unref (run->steps);
  g_ptr_array_unref (run->turns);
  g_array_unref (run->actions);
  g_free (run->end_state);
  g_free (run->answer);
  g_clear_error (&run->error);
  g_free (run->incomplete);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

static Step *
find_step (Run        *run,
           const char *call_id)
{
  /* Latest first: a model may reuse an id in a later turn. */
  for (guint i = run->steps->len; i > 0; i--)
    {
      Step *step = g_ptr_array_index (run->steps, i - 1);

      if (g_strcmp0 (step->call_id, call_id) == 0)
        return step;
    }
  return NULL;
}

static Run *
read_run (TbTrace *trace)
{
  Run *run = g_new0 (Run, 1);
  guint n = tb_trace_get_n_events (trace);
  gboolean ran_since_end = FALSE;
  g_autoptr(GError) local_error = NULL;

  run->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) step_free);
  run->turns = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  run->actions = g_array_new (FALSE, TRUE, sizeof (Action));
  g_array_set_clear_func (run->actions, (GDestroyNotify) action_clear);

  /* The loop's cap is a guint: a larger number must not wrap to 0. */
  if (!tb_json_object_get_int_in_range (tb_trace_get_header (trace), "max_iterations",
                                        1, G_MAXUINT, &run->max_iterations, &local_error))
    run->error = g_error_new (TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_TRACE,
                              /* Translators: %s says which number is wrong */
                              _("The trace header cannot be replayed: %s"),
                              local_error->message);

  for (guint i = 0; i < n; i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      const char *type = tb_trace_event_get_event_type (event);
      JsonObject *payload = tb_trace_event_get_payload (event);

      if (g_str_equal (type, "message"))
        {
          JsonObject *message = tb_json_object_get_object (payload, "message");
          const char *role = tb_json_object_get_string (message, "role");
          const char *origin = tb_json_object_get_string (payload, "origin");

          if (message == NULL || role == NULL)
            continue;

          if (g_str_equal (role, "assistant"))
            {
              JsonNode *node = json_node_new (JSON_NODE_OBJECT);
              const char *text = tb_json_object_get_string (message, "text");

              json_node_set_object (node, message);
              g_ptr_array_add (run->turns, node);
              g_free (run->answer);
              run->answer = g_strdup (text != NULL ? text : "");
              ran_since_end = TRUE;
            }
          else if ((g_str_equal (role, "user") || g_str_equal (role, "system")) &&
                   g_strcmp0 (origin, "tool") != 0)
            {
              Action action = { ACTION_ADD_MESSAGE, json_node_new (JSON_NODE_OBJECT), 0 };

              json_node_set_object (action.message, message);
              g_array_append_val (run->actions, action);
            }
        }
      else if (g_str_equal (type, "tool-call"))
        {
          JsonObject *call = tb_json_object_get_object (payload, "call");
          JsonNode *offered = json_object_get_member (payload, "offered");
          Step *step;

          if (call == NULL)
            continue;

          step = g_new0 (Step, 1);
          step->call_id = g_strdup (tb_json_object_get_string (call, "id"));
          step->name = g_strdup (tb_json_object_get_string (call, "name"));
          step->arguments = json_object_get_member (call, "arguments") != NULL
                            ? tb_json_copy (json_object_get_member (call, "arguments"))
                            : json_node_new (JSON_NODE_NULL);
          step->turn = run->turns->len > 0 ? run->turns->len - 1 : 0;
          step->offered = offered == NULL || !JSON_NODE_HOLDS_VALUE (offered) ||
                          json_node_get_boolean (offered);
          g_ptr_array_add (run->steps, step);
        }
      else if (g_str_equal (type, "decision"))
        {
          const char *decision = tb_json_object_get_string (payload, "decision");
          Step *step = find_step (run, tb_json_object_get_string (payload, "call_id"));

          if (g_strcmp0 (decision, "extend") == 0)
            {
              g_autoptr(GError) event_error = NULL;
              gint64 added = 1;
              Action action = { ACTION_EXTEND, NULL, 1 };

              if (!tb_json_object_get_int_in_range (payload, "added", 1, G_MAXUINT, &added,
                                                    &event_error) && run->error == NULL)
                run->error = g_error_new (TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_TRACE,
                                          /* Translators: %lu is an event number, %s why */
                                          _("Event %lu of the trace cannot be replayed: %s"),
                                          (gulong) tb_trace_event_get_seq (event),
                                          event_error->message);
              action.extend_by = (guint) added;
              g_array_append_val (run->actions, action);
            }
          else if (step != NULL && decision != NULL)
            {
              JsonNode *arguments = json_object_get_member (payload, "arguments");

              g_free (step->decision);
              step->decision = g_strdup (decision);
              g_clear_pointer (&step->decision_payload, json_object_unref);
              step->decision_payload = json_object_ref (payload);
              /* What ran is what the trace compares. */
              if (g_str_equal (decision, "edit") && arguments != NULL)
                {
                  json_node_unref (step->arguments);
                  step->arguments = tb_json_copy (arguments);
                }
            }
        }
      else if (g_str_equal (type, "tool-result"))
        {
          Step *step = find_step (run, tb_json_object_get_string (payload, "call_id"));
          JsonObject *result = tb_json_object_get_object (payload, "result");

          if (step != NULL && result != NULL)
            {
              g_clear_pointer (&step->result, json_object_unref);
              step->result = json_object_ref (result);
            }
        }
      else if (g_str_equal (type, "incomplete") && run->incomplete == NULL)
        {
          const char *reason = tb_json_object_get_string (payload, "reason");

          run->incomplete = g_strdup (reason != NULL ? reason
                                                     : _("An event could not be recorded."));
        }
      else if (g_str_equal (type, "end"))
        {
          Action action = { ACTION_RUN, NULL, 0 };

          g_array_append_val (run->actions, action);
          g_free (run->end_state);
          run->end_state = g_strdup (tb_json_object_get_string (payload, "state"));
          ran_since_end = FALSE;
        }
    }

  /* A run cut off before its end (a crash) still replays what it had. */
  if (ran_since_end)
    {
      Action action = { ACTION_RUN, NULL, 0 };

      g_array_append_val (run->actions, action);
      if (run->incomplete == NULL)
        run->incomplete = g_strdup (_("The trace stops before the run ended: there is no "
                                      "“end” event after the last model turn."));
    }
  if (run->incomplete == NULL && tb_trace_get_problems (trace)[0] != NULL)
    run->incomplete = g_strdup (tb_trace_get_problems (trace)[0]);

  if (run->max_iterations <= 0)
    run->max_iterations = MAX (run->turns->len, 1);

  return run;
}

/* ---- steps and reports ---------------------------------------------------- */

struct _TbReplayStep
{
  GObject         parent_instance;
  guint           index;
  TbReplayStatus  status;
  char           *kind;
  JsonObject     *recorded;
  JsonObject     *replayed;
  JsonArray      *diff;
};

G_DEFINE_FINAL_TYPE (TbReplayStep, tb_replay_step, G_TYPE_OBJECT)

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

guint
tb_replay_step_get_index (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), 0);
  return self->index;
}

TbReplayStatus
tb_replay_step_get_status (TbReplayStep *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_STEP (self), TB_REPLAY_SAME);
  return self->status;
}

/**
 * tb_replay_step_get_kind:
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

struct _TbReplayReport
{
  GObject    parent_instance;
  GPtrArray *steps;
  char      *incomplete;
};

static void report_list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbReplayReport, tb_replay_report, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      report_list_model_iface_init))

static GType
report_get_item_type (GListModel *model)
{
  return TB_TYPE_REPLAY_STEP;
}

static guint
report_get_n_items (GListModel *model)
{
  return TB_REPLAY_REPORT (model)->steps->len;
}

static gpointer
report_get_item (GListModel *model,
                 guint       position)
{
  TbReplayReport *self = TB_REPLAY_REPORT (model);

  if (position >= self->steps->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->steps, position));
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
  g_clear_pointer (&TB_REPLAY_REPORT (object)->steps, g_ptr_array_unref);
  g_clear_pointer (&TB_REPLAY_REPORT (object)->incomplete, g_free);

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
  self->steps = g_ptr_array_new_with_free_func (g_object_unref);
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

static JsonObject *
step_summary (Step *step)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "call_id", step->call_id ?: "");
  json_object_set_string_member (object, "name", step->name ?: "");
  json_object_set_member (object, "arguments", json_node_ref (step->arguments));
  json_object_set_member (object, "result", comparable_result (step->result));
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

static TbReplayReport *
compare_runs (Run *recorded,
              Run *replayed)
{
  TbReplayReport *report = g_object_new (TB_TYPE_REPLAY_REPORT, NULL);
  guint n = MAX (recorded->steps->len, replayed->steps->len);

  report->incomplete = g_strdup (recorded->incomplete);

  for (guint i = 0; i < n; i++)
    {
      Step *a = i < recorded->steps->len ? g_ptr_array_index (recorded->steps, i) : NULL;
      Step *b = i < replayed->steps->len ? g_ptr_array_index (replayed->steps, i) : NULL;

      g_ptr_array_add (report->steps,
                       make_step (i, "call", a != NULL ? step_summary (a) : NULL,
                                  b != NULL ? step_summary (b) : NULL));
    }

  g_ptr_array_add (report->steps, make_step (n, "end", end_summary (recorded),
                                             end_summary (replayed)));
  return report;
}

/**
 * tb_replay_report_new_compare:
 * @recorded: a trace
 * @replayed: another trace (a replay or fork of it, or any other run)
 *
 * Lines up the two runs' tool calls in order and says for each whether it
 * is the same, and where it differs.
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

  a = read_run (recorded);
  b = read_run (replayed);
  return compare_runs (a, b);
}

/**
 * tb_replay_report_get_incomplete:
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

guint
tb_replay_report_get_n_steps (TbReplayReport *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), 0);
  return self->steps->len;
}

/**
 * tb_replay_report_get_step:
 *
 * Returns: (transfer none) (nullable): the step
 */
TbReplayStep *
tb_replay_report_get_step (TbReplayReport *self,
                           guint           index)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), NULL);
  return index < self->steps->len ? g_ptr_array_index (self->steps, index) : NULL;
}

/**
 * tb_replay_report_get_first_divergence:
 *
 * Returns: the index of the first step that is not the same, or -1
 */
gint
tb_replay_report_get_first_divergence (TbReplayReport *self)
{
  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), -1);

  for (guint i = 0; i < self->steps->len; i++)
    if (TB_REPLAY_STEP (g_ptr_array_index (self->steps, i))->status != TB_REPLAY_SAME)
      return i;
  return -1;
}

guint
tb_replay_report_get_n_divergences (TbReplayReport *self)
{
  guint n = 0;

  g_return_val_if_fail (TB_IS_REPLAY_REPORT (self), 0);

  for (guint i = 0; i < self->steps->len; i++)
    n += TB_REPLAY_STEP (g_ptr_array_index (self->steps, i))->status != TB_REPLAY_SAME;
  return n;
}

/**
 * tb_replay_report_to_json:
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

  for (guint i = 0; i < self->steps->len; i++)
    {
      TbReplayStep *step = g_ptr_array_index (self->steps, i);
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
  for (guint i = 0; i < self->steps->len; i++)
    {
      TbReplayStep *step = g_ptr_array_index (self->steps, i);
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

/* ---- recorded tools ------------------------------------------------------- */

/* A tool that gives back, in order, the results the trace recorded for
 * calls of its name. */

#define TB_TYPE_RECORDED_TOOL (tb_recorded_tool_get_type ())
G_DECLARE_FINAL_TYPE (TbRecordedTool, tb_recorded_tool, TB, RECORDED_TOOL, TbTool)

struct _TbRecordedTool
{
  TbTool  parent_instance;
  GQueue  results;
};

G_DEFINE_FINAL_TYPE (TbRecordedTool, tb_recorded_tool, TB_TYPE_TOOL)

static void
tb_recorded_tool_invoke_async (TbTool              *tool,
                               JsonNode            *arguments,
                               JsonObject          *context,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  TbRecordedTool *self = TB_RECORDED_TOOL (tool);
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);
  g_autoptr(JsonObject) recorded = g_queue_pop_head (&self->results);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  TbToolResult *result;

  if (recorded == NULL)
    {
      g_task_return_new_error (task, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                               _("The trace holds no further recorded result for “%s”"),
                               tb_tool_get_name (tool));
      return;
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, recorded);
  result = tb_tool_result_from_json (node, &error);
  if (result == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
tb_recorded_tool_finalize (GObject *object)
{
  TbRecordedTool *self = (TbRecordedTool *)object;

  g_queue_clear_full (&self->results, (GDestroyNotify) json_object_unref);

  G_OBJECT_CLASS (tb_recorded_tool_parent_class)->finalize (object);
}

static void
tb_recorded_tool_class_init (TbRecordedToolClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_recorded_tool_finalize;
  TB_TOOL_CLASS (klass)->invoke_async = tb_recorded_tool_invoke_async;
}

static void
tb_recorded_tool_init (TbRecordedTool *self)
{
  g_queue_init (&self->results);
}

static TbToolRegistry *
recorded_registry (TbTrace *trace,
                   Run     *run)
{
  TbToolRegistry *registry = tb_tool_registry_new ();
  JsonArray *tools = tb_json_object_get_array (tb_trace_get_header (trace), "tools");

  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonNode *element = json_array_get_element (tools, i);
      JsonObject *definition = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element)
                                                                : NULL;
      const char *name = tb_json_object_get_string (definition, "name");
      JsonNode *parameters = definition != NULL ? json_object_get_member (definition, "parameters")
                                                : NULL;
      g_autoptr(TbRecordedTool) tool = NULL;

      if (name == NULL)
        continue;

      /* A recorded tool never times out: its answer is already there. */
      tool = g_initable_new (TB_TYPE_RECORDED_TOOL, NULL, NULL,
                             "name", name,
                             "description", tb_json_object_get_string (definition, "description"),
                             "parameters", parameters != NULL && JSON_NODE_HOLDS_OBJECT (parameters)
                                           ? parameters : NULL,
                             "source", "trace",
                             NULL);
      if (tool == NULL)
        continue;

      /* Only calls that ran produced a result the tool must give again;
       * skipped and rejected calls are decided again without running. */
      for (guint j = 0; j < run->steps->len; j++)
        {
          Step *step = g_ptr_array_index (run->steps, j);

          if (step->result != NULL && step->offered && g_strcmp0 (step->name, name) == 0 &&
              g_strcmp0 (step->decision, "skip") != 0 && g_strcmp0 (step->decision, "reject") != 0)
            g_queue_push_tail (&tool->results, json_object_ref (step->result));
        }

      tb_tool_registry_register (registry, TB_TOOL (tool), NULL);
    }

  return registry;
}

/* ---- a provider that plays recorded turns, then asks a live one --------- */

#define TB_TYPE_FORK_PROVIDER (tb_fork_provider_get_type ())
G_DECLARE_FINAL_TYPE (TbForkProvider, tb_fork_provider, TB, FORK_PROVIDER, GObject)

struct _TbForkProvider
{
  GObject             parent_instance;
  TbScriptedProvider *scripted;
  TbProvider         *live;
  guint               n_scripted;
  guint               n_asked;
};

static void fork_provider_iface_init (TbProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbForkProvider, tb_fork_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TB_TYPE_PROVIDER, fork_provider_iface_init))

static TbProvider *
fork_provider_current (TbForkProvider *self)
{
  if (self->live == NULL || self->n_asked < self->n_scripted)
    return TB_PROVIDER (self->scripted);
  return self->live;
}

static const char *
fork_provider_get_kind (TbProvider *provider)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);

  return self->live != NULL ? tb_provider_get_kind (self->live) : "scripted";
}

static JsonObject *
fork_provider_describe (TbProvider *provider)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);
  JsonObject *object = self->live != NULL ? tb_provider_describe (self->live) : json_object_new ();

  json_object_set_int_member (object, "replayed_turns", self->n_scripted);
  if (self->live == NULL)
    json_object_set_string_member (object, "kind", "scripted");
  return object;
}

static void
forward_complete (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  TbProviderResponse *response;

  response = tb_provider_complete_finish (TB_PROVIDER (object), result, &error);
  if (response == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, response, (GDestroyNotify) tb_provider_response_unref);
}

static void
fork_provider_complete_async (TbProvider          *provider,
                              TbProviderRequest   *request,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  TbProvider *current = fork_provider_current (self);

  g_task_set_source_tag (task, fork_provider_complete_async);
  self->n_asked++;
  tb_provider_complete_async (current, request, cancellable, forward_complete,
                              g_steal_pointer (&task));
}

static TbProviderResponse *
fork_provider_complete_finish (TbProvider    *provider,
                               GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
fork_provider_iface_init (TbProviderInterface *iface)
{
  iface->get_kind = fork_provider_get_kind;
  iface->describe = fork_provider_describe;
  iface->complete_async = fork_provider_complete_async;
  iface->complete_finish = fork_provider_complete_finish;
}

static void
forward_wire_request (TbProvider *inner,
                      const char *url,
                      const char *body,
                      TbProvider *self)
{
  tb_provider_emit_wire_request (self, url, body);
}

static void
forward_wire_response (TbProvider *inner,
                       guint       status,
                       const char *body,
                       TbProvider *self)
{
  tb_provider_emit_wire_response (self, status, body);
}

static void
forward_text_delta (TbProvider *inner,
                    const char *delta,
                    TbProvider *self)
{
  tb_provider_emit_text_delta (self, delta);
}

static void
tb_fork_provider_dispose (GObject *object)
{
  TbForkProvider *self = (TbForkProvider *)object;

  if (self->scripted != NULL)
    g_signal_handlers_disconnect_by_data (self->scripted, self);
  if (self->live != NULL)
    g_signal_handlers_disconnect_by_data (self->live, self);
  g_clear_object (&self->scripted);
  g_clear_object (&self->live);

  G_OBJECT_CLASS (tb_fork_provider_parent_class)->dispose (object);
}

static void
tb_fork_provider_class_init (TbForkProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tb_fork_provider_dispose;
}

static void
tb_fork_provider_init (TbForkProvider *self)
{
}

static TbProvider *
fork_provider_new (TbScriptedProvider *scripted,
                   TbProvider         *live,
                   guint               n_scripted)
{
  TbForkProvider *self = g_object_new (TB_TYPE_FORK_PROVIDER, NULL);

  self->scripted = g_object_ref (scripted);
  self->live = live != NULL ? g_object_ref (live) : NULL;
  self->n_scripted = n_scripted;

  g_signal_connect (scripted, "wire-request", G_CALLBACK (forward_wire_request), self);
  g_signal_connect (scripted, "wire-response", G_CALLBACK (forward_wire_response), self);
  g_signal_connect (scripted, "text-delta", G_CALLBACK (forward_text_delta), self);
  if (live != NULL)
    {
      g_signal_connect (live, "wire-request", G_CALLBACK (forward_wire_request), self);
      g_signal_connect (live, "wire-response", G_CALLBACK (forward_wire_response), self);
      g_signal_connect (live, "text-delta", G_CALLBACK (forward_text_delta), self);
    }

  return TB_PROVIDER (self);
}

/* ---- the replay ----------------------------------------------------------- */

struct _TbReplay
{
  GObject          parent_instance;

  TbTrace         *recorded;
  TbToolRegistry  *registry;
  TbProvider      *live;
  char            *parent;

  guint            fork_step;
  TbReplayEdit     fork_edit;
  JsonNode        *fork_value;

  Run             *run;
  GHashTable      *steps_by_call;
  TbDispatchLoop  *loop;
  GTask           *task;
  guint            next_action;
  gulong           pending_id;
};

G_DEFINE_FINAL_TYPE (TbReplay, tb_replay, G_TYPE_OBJECT)

static void
tb_replay_dispose (GObject *object)
{
  TbReplay *self = (TbReplay *)object;

  if (self->loop != NULL)
    g_clear_signal_handler (&self->pending_id, self->loop);

  G_OBJECT_CLASS (tb_replay_parent_class)->dispose (object);
}

static void
tb_replay_finalize (GObject *object)
{
  TbReplay *self = (TbReplay *)object;

  g_clear_object (&self->recorded);
  g_clear_object (&self->registry);
  g_clear_object (&self->live);
  g_clear_object (&self->loop);
  g_clear_pointer (&self->parent, g_free);
  g_clear_pointer (&self->fork_value, json_node_unref);
  g_clear_pointer (&self->run, run_free);
  g_clear_pointer (&self->steps_by_call, g_hash_table_unref);

  G_OBJECT_CLASS (tb_replay_parent_class)->finalize (object);
}

static void
tb_replay_class_init (TbReplayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_replay_dispose;
  object_class->finalize = tb_replay_finalize;
}

static void
tb_replay_init (TbReplay *self)
{
}

/**
 * tb_replay_new:
 * @recorded: the trace to replay
 *
 * Returns: (transfer full): a replay that re-executes tools with the
 *   results recorded in @recorded, until tb_replay_set_registry() gives
 *   it live tools
 */
TbReplay *
tb_replay_new (TbTrace *recorded)
{
  TbReplay *self;

  g_return_val_if_fail (TB_IS_TRACE (recorded), NULL);

  self = g_object_new (TB_TYPE_REPLAY, NULL);
  self->recorded = g_object_ref (recorded);
  self->run = read_run (recorded);
  return self;
}

/**
 * tb_replay_set_registry:
 * @registry: (nullable): tools to run for real; %NULL gives back the
 *   recorded results instead
 */
void
tb_replay_set_registry (TbReplay       *self,
                        TbToolRegistry *registry)
{
  g_return_if_fail (TB_IS_REPLAY (self));
  g_return_if_fail (self->loop == NULL);

  g_set_object (&self->registry, registry);
}

/**
 * tb_replay_set_live_provider:
 * @provider: (nullable): the model to ask after the fork step; without
 *   one every turn is the recorded one
 */
void
tb_replay_set_live_provider (TbReplay   *self,
                             TbProvider *provider)
{
  g_return_if_fail (TB_IS_REPLAY (self));
  g_return_if_fail (self->loop == NULL);

  g_set_object (&self->live, provider);
}

/**
 * tb_replay_set_parent:
 * @trace_name: (nullable): how the recorded trace is known (its file name),
 *   written into the new trace's header
 */
void
tb_replay_set_parent (TbReplay   *self,
                      const char *trace_name)
{
  g_return_if_fail (TB_IS_REPLAY (self));

  g_free (self->parent);
  self->parent = g_strdup (trace_name);
}

/**
 * tb_replay_set_fork:
 * @self: a replay
 * @step: the step to change: a call's index (0 for the first tool call of
 *   the run) for %TB_REPLAY_EDIT_ARGUMENTS and %TB_REPLAY_EDIT_RESULT, a
 *   model turn's index for %TB_REPLAY_EDIT_MODEL_TURN
 * @edit: what to change
 * @value: the new arguments (an object), the output the call gives instead
 *   of running, or the model's turn (a message as tb_message_to_json() writes)
 * @error: return location for %TB_REPLAY_ERROR_INVALID_FORK
 *
 * Makes this replay a fork: everything before @step happens as recorded.
 *
 * Returns: %TRUE when the step and the value fit the trace
 */
gboolean
tb_replay_set_fork (TbReplay      *self,
                    guint          step,
                    TbReplayEdit   edit,
                    JsonNode      *value,
                    GError       **error)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), FALSE);
  g_return_val_if_fail (self->loop == NULL, FALSE);

  if (edit == TB_REPLAY_EDIT_MODEL_TURN)
    {
      g_autoptr(TbMessage) message = NULL;

      if (step >= self->run->turns->len)
        {
          g_set_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                       _("The trace has %u model turns; there is no turn %u to change"),
                       self->run->turns->len, step + 1);
          return FALSE;
        }
      message = value != NULL ? tb_message_from_json (value, NULL) : NULL;
      if (message == NULL || tb_message_get_role (message) != TB_MESSAGE_ROLE_ASSISTANT)
        {
          g_set_error_literal (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                               _("A model turn must be an assistant message"));
          return FALSE;
        }
    }
  else if (edit != TB_REPLAY_EDIT_NONE)
    {
      if (step >= self->run->steps->len)
        {
          g_set_error (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                       _("The trace has %u tool calls; there is no step %u to change"),
                       self->run->steps->len, step + 1);
          return FALSE;
        }
      if (edit == TB_REPLAY_EDIT_ARGUMENTS && (value == NULL || !JSON_NODE_HOLDS_OBJECT (value)))
        {
          g_set_error_literal (error, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_FORK,
                               _("The edited arguments must be a JSON object"));
          return FALSE;
        }
    }

  self->fork_step = step;
  self->fork_edit = edit;
  g_clear_pointer (&self->fork_value, json_node_unref);
  self->fork_value = value != NULL ? tb_json_copy (value) : json_node_new (JSON_NODE_NULL);
  return TRUE;
}

/**
 * tb_replay_get_trace:
 *
 * Returns: (transfer none) (nullable): the new run's trace, once running
 */
TbTrace *
tb_replay_get_trace (TbReplay *self)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), NULL);
  return self->loop != NULL ? tb_dispatch_loop_get_trace (self->loop) : NULL;
}

/**
 * tb_replay_get_loop:
 *
 * Returns: (transfer none) (nullable): the loop of the new run, once running
 */
TbDispatchLoop *
tb_replay_get_loop (TbReplay *self)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), NULL);
  return self->loop;
}

static char *
step_key (guint       turn,
          const char *call_id)
{
  return g_strdup_printf ("%u:%s", turn, call_id != NULL ? call_id : "");
}

/* Which recorded step a pending call is: the same id in the same turn.
 * Looked up once per call, so a long run replays in linear time. */
static gint
step_index_of (TbReplay   *self,
               const char *call_id,
               guint       turn)
{
  g_autofree char *key = step_key (turn, call_id);
  gpointer value;

  if (self->steps_by_call == NULL)
    {
      self->steps_by_call = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 0; i < self->run->steps->len; i++)
        {
          Step *step = g_ptr_array_index (self->run->steps, i);
          char *step_id = step_key (step->turn, step->call_id);

          /* The first of two calls with one id in a turn wins. */
          if (g_hash_table_contains (self->steps_by_call, step_id))
            g_free (step_id);
          else
            g_hash_table_insert (self->steps_by_call, step_id, GUINT_TO_POINTER (i + 1));
        }
    }

  value = g_hash_table_lookup (self->steps_by_call, key);
  return value != NULL ? (gint) GPOINTER_TO_UINT (value) - 1 : -1;
}

static void
call_pending_cb (TbDispatchLoop *loop,
                 TbPendingCall  *pending,
                 TbReplay       *self)
{
  TbToolCall *call = tb_pending_call_get_call (pending);
  guint turn = tb_dispatch_loop_get_iteration (loop) - 1;
  gint index = step_index_of (self, tb_tool_call_get_id (call), turn);
  Step *step;

  if (index < 0)
    return;   /* Past the recording (a live fork): the policy decides. */

  if ((guint) index == self->fork_step)
    {
      if (self->fork_edit == TB_REPLAY_EDIT_ARGUMENTS)
        {
          g_autoptr(GError) error = NULL;

          /* Arguments the schema refuses still run: the fork is the experiment. */
          if (!tb_pending_call_edit (pending, self->fork_value, &error))
            g_debug ("Fork arguments refused: %s", error->message);
          return;
        }
      if (self->fork_edit == TB_REPLAY_EDIT_RESULT)
        {
          tb_pending_call_skip (pending, self->fork_value);
          return;
        }
    }

  step = g_ptr_array_index (self->run->steps, index);
  /* The recorded edit is what ran, even one a person ran against the
   * schema's advice. */
  if (g_strcmp0 (step->decision, "edit") == 0)
    tb_pending_call_edit_anyway (pending,
                                 json_object_get_member (step->decision_payload, "arguments"),
                                 NULL);
  else if (g_strcmp0 (step->decision, "skip") == 0)
    tb_pending_call_skip (pending, json_object_get_member (step->decision_payload, "output"));
  else if (g_strcmp0 (step->decision, "reject") == 0)
    tb_pending_call_reject (pending, tb_json_object_get_string (step->decision_payload, "reason"));
  else
    tb_pending_call_approve (pending);
}

static void next_action (TbReplay *self);

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(TbReplay) self = user_data;
  g_autoptr(GError) error = NULL;

  tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->task);

      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A run that failed is still a run to compare: the report says so. */
  next_action (self);
}

static void
next_action (TbReplay *self)
{
  while (self->next_action < self->run->actions->len)
    {
      Action *action = &g_array_index (self->run->actions, Action, self->next_action++);
      g_autoptr(GError) error = NULL;

      switch (action->kind)
        {
        case ACTION_ADD_MESSAGE:
          {
            g_autoptr(TbMessage) message = tb_message_from_json (action->message, NULL);

            if (message != NULL && !tb_dispatch_loop_add_message (self->loop, message, &error))
              g_debug ("Replay could not add a message: %s", error->message);
          }
          break;

        case ACTION_EXTEND:
          tb_dispatch_loop_extend (self->loop, action->extend_by, NULL);
          break;

        case ACTION_RUN:
          if (tb_loop_state_is_end (tb_dispatch_loop_get_state (self->loop)) &&
              tb_dispatch_loop_get_state (self->loop) != TB_LOOP_STATE_FINISHED)
            continue;   /* The replay ended earlier than the recording. */
          tb_dispatch_loop_run_async (self->loop, g_task_get_cancellable (self->task),
                                      run_cb, g_object_ref (self));
          return;

        default:
          g_assert_not_reached ();
        }
    }

  {
    g_autoptr(GTask) task = g_steal_pointer (&self->task);
    TbReplayReport *report = tb_replay_report_new_compare (self->recorded,
                                                           tb_dispatch_loop_get_trace (self->loop));

    g_task_return_pointer (task, report, g_object_unref);
  }
}

/**
 * tb_replay_run_async:
 * @self: a replay
 * @cancellable: (nullable): stops the replay
 * @callback: called with the report
 * @user_data: closure
 *
 * Runs the replay (or fork) to its end and compares it with the recording.
 * A replay runs once.
 */
void
tb_replay_run_async (TbReplay            *self,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TbScriptedProvider) scripted = NULL;
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbToolRegistry) registry = NULL;
  guint n_scripted;
  JsonObject *header;

  g_return_if_fail (TB_IS_REPLAY (self));
  g_return_if_fail (self->loop == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_replay_run_async);

  if (self->run->error != NULL)
    {
      g_task_return_error (task, g_error_copy (self->run->error));
      return;
    }

  if (self->run->turns->len == 0 && self->run->actions->len == 0)
    {
      g_task_return_new_error (task, TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_TRACE,
                               _("The trace holds no run to replay: it has no messages and no "
                                 "model turns"));
      return;
    }

  scripted = tb_scripted_provider_new ();
  for (guint i = 0; i < self->run->turns->len; i++)
    {
      JsonNode *turn = g_ptr_array_index (self->run->turns, i);
      g_autoptr(TbMessage) message = NULL;

      if (self->fork_edit == TB_REPLAY_EDIT_MODEL_TURN && i == self->fork_step)
        turn = self->fork_value;
      message = tb_message_from_json (turn, NULL);
      if (message == NULL)
        message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "");
      tb_scripted_provider_append_response (scripted, message, NULL);
    }

  /* With a live model, the recording plays up to the fork step's turn. */
  n_scripted = self->run->turns->len;
  if (self->live != NULL)
    {
      if (self->fork_edit == TB_REPLAY_EDIT_MODEL_TURN)
        n_scripted = self->fork_step + 1;
      else if (self->fork_edit != TB_REPLAY_EDIT_NONE)
        n_scripted = ((Step *) g_ptr_array_index (self->run->steps, self->fork_step))->turn + 1;
    }
  provider = fork_provider_new (scripted, self->live, n_scripted);

  registry = self->registry != NULL ? g_object_ref (self->registry)
                                    : recorded_registry (self->recorded, self->run);

  self->loop = tb_dispatch_loop_new (registry, provider, self->run->max_iterations);
  tb_dispatch_loop_set_approval_policy (self->loop, TB_APPROVAL_POLICY_APPROVE_ALL);
  self->pending_id = g_signal_connect (self->loop, "call-pending",
                                       G_CALLBACK (call_pending_cb), self);

  header = tb_trace_get_header (tb_dispatch_loop_get_trace (self->loop));
  if (self->fork_edit != TB_REPLAY_EDIT_NONE)
    {
      static const char *edits[] = { "none", "arguments", "result", "model-turn" };
      JsonObject *parent = json_object_new ();

      json_object_set_string_member (parent, "trace", self->parent ?: "");
      /* Counted from 1, as the report and the command line count steps. */
      json_object_set_int_member (parent, "step", self->fork_step + 1);
      json_object_set_string_member (parent, "edit", edits[self->fork_edit]);
      json_object_set_object_member (header, "parent", parent);
    }
  else if (self->parent != NULL)
    {
      json_object_set_string_member (header, "replay_of", self->parent);
    }

  self->task = g_steal_pointer (&task);
  self->next_action = 0;
  next_action (self);
}

/**
 * tb_replay_run_finish:
 *
 * Returns: (transfer full) (nullable): the step-by-step comparison
 */
TbReplayReport *
tb_replay_run_finish (TbReplay      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (TB_IS_REPLAY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
