/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What a trace says happened: its steps (each call with its decision and
 * result), the model's turns and the person's actions, read once for
 * replay and for comparing two runs. What is kept is where each of them
 * is in the trace; their contents are read back when needed (from the
 * file, for a recorded trace), so a long run is not held in memory. */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-replay-private.h"
#include "tb-trace-private.h"

void
_tb_replay_run_unref (Run *run)
{
  if (!g_atomic_int_dec_and_test (&run->ref_count))
    return;

  g_clear_object (&run->trace);
  g_array_unref (run->steps);
  g_array_unref (run->turns);
  g_array_unref (run->actions);
  g_free (run->end_state);
  g_free (run->answer);
  g_clear_error (&run->error);
  g_free (run->incomplete);
  g_free (run);
}

Run *
_tb_replay_run_ref (Run *run)
{
  g_atomic_int_inc (&run->ref_count);
  return run;
}

guint
_tb_replay_run_n_steps (Run *run)
{
  return run->steps->len;
}

guint
_tb_replay_run_n_turns (Run *run)
{
  return run->turns->len;
}

const Step *
_tb_replay_run_get_step (Run   *run,
                         guint  index)
{
  return index < run->steps->len ? &g_array_index (run->steps, Step, index) : NULL;
}

/* The payload of the event at @position, with a reference: an event read
 * back from the file lives only as long as the trace keeps it. */
static JsonObject *
dup_payload (Run   *run,
             guint  position)
{
  TbTraceEvent *event;

  if (position == NO_EVENT)
    return NULL;
  event = tb_trace_get_event (run->trace, position);
  return event != NULL ? json_object_ref (tb_trace_event_get_payload (event)) : NULL;
}

/* The object @member of the payload of the event at @position. */
static JsonObject *
dup_payload_object (Run        *run,
                    guint       position,
                    const char *member)
{
  g_autoptr(JsonObject) payload = dup_payload (run, position);
  JsonObject *object = payload != NULL ? tb_json_object_get_object (payload, member) : NULL;

  return object != NULL ? json_object_ref (object) : NULL;
}

static JsonObject *
dup_call (Run   *run,
          guint  index)
{
  const Step *step = _tb_replay_run_get_step (run, index);

  return step != NULL ? dup_payload_object (run, step->call, "call") : NULL;
}

char *
_tb_replay_run_dup_call_id (Run   *run,
                            guint  index)
{
  g_autoptr(JsonObject) call = dup_call (run, index);

  return g_strdup (tb_json_object_get_string (call, "id"));
}

char *
_tb_replay_run_dup_name (Run   *run,
                         guint  index)
{
  g_autoptr(JsonObject) call = dup_call (run, index);

  return g_strdup (tb_json_object_get_string (call, "name"));
}

/* What ran: the edited arguments, or the model's. */
JsonNode *
_tb_replay_run_dup_arguments (Run   *run,
                              guint  index)
{
  const Step *step = _tb_replay_run_get_step (run, index);
  g_autoptr(JsonObject) call = dup_call (run, index);
  JsonNode *arguments = call != NULL ? json_object_get_member (call, "arguments") : NULL;

  if (step != NULL && step->decision_kind == DECISION_EDIT)
    {
      g_autoptr(JsonObject) decision = dup_payload (run, step->decision);
      JsonNode *edited = decision != NULL ? json_object_get_member (decision, "arguments") : NULL;

      if (edited != NULL)
        return json_node_ref (edited);
    }
  return arguments != NULL ? json_node_ref (arguments) : json_node_new (JSON_NODE_NULL);
}

JsonObject *
_tb_replay_run_dup_result (Run   *run,
                           guint  index)
{
  const Step *step = _tb_replay_run_get_step (run, index);

  return step != NULL ? dup_payload_object (run, step->result, "result") : NULL;
}

JsonObject *
_tb_replay_run_dup_decision (Run   *run,
                             guint  index)
{
  const Step *step = _tb_replay_run_get_step (run, index);

  return step != NULL ? dup_payload (run, step->decision) : NULL;
}

/* The "message" of the message event at @position. */
JsonNode *
_tb_replay_run_dup_message (Run   *run,
                            guint  position)
{
  g_autoptr(JsonObject) payload = dup_payload (run, position);
  JsonNode *message = payload != NULL ? json_object_get_member (payload, "message") : NULL;

  return message != NULL ? json_node_ref (message) : NULL;
}

JsonNode *
_tb_replay_run_dup_turn (Run   *run,
                         guint  index)
{
  if (index >= run->turns->len)
    return NULL;
  return _tb_replay_run_dup_message (run, g_array_index (run->turns, guint, index));
}

/* The first step of @turn: the steps are in the order of their turns. */
static guint
first_step_of_turn (Run   *run,
                    guint  turn)
{
  guint low = 0;
  guint high = run->steps->len;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (g_array_index (run->steps, Step, middle).turn < turn)
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

/* Which step is the call @call_id of @turn: the first of that turn with
 * that id, or -1. */
gint
_tb_replay_run_find_step (Run        *run,
                          guint       turn,
                          const char *call_id)
{
  for (guint i = first_step_of_turn (run, turn);
       i < run->steps->len && g_array_index (run->steps, Step, i).turn == turn; i++)
    {
      g_autofree char *id = _tb_replay_run_dup_call_id (run, i);

      if (g_strcmp0 (id, call_id) == 0)
        return i;
    }
  return -1;
}

static DecisionKind
decision_kind (const char *decision)
{
  if (decision == NULL)
    return DECISION_NONE;
  if (g_str_equal (decision, "approve"))
    return DECISION_APPROVE;
  if (g_str_equal (decision, "edit"))
    return DECISION_EDIT;
  if (g_str_equal (decision, "skip"))
    return DECISION_SKIP;
  if (g_str_equal (decision, "reject"))
    return DECISION_REJECT;
  return DECISION_OTHER;
}

/* The step a decision or result names: the latest call with that id,
 * looked up among the calls of the latest turn first (where it is but in
 * odd traces), then further back. */
static Step *
find_step (Run        *run,
           GHashTable *turn_calls,
           const char *call_id)
{
  gpointer value;

  if (call_id == NULL)
    return NULL;
  if (g_hash_table_lookup_extended (turn_calls, call_id, NULL, &value))
    return &g_array_index (run->steps, Step, GPOINTER_TO_UINT (value));

  for (guint i = run->steps->len; i > 0; i--)
    {
      g_autofree char *id = _tb_replay_run_dup_call_id (run, i - 1);

      if (g_strcmp0 (id, call_id) == 0)
        return &g_array_index (run->steps, Step, i - 1);
    }
  return NULL;
}

static gboolean
is_read_type (const char *type)
{
  static const char * const read_types[] = {
    "message", "tool-call", "decision", "tool-result", "incomplete", "end",
  };

  for (guint i = 0; i < G_N_ELEMENTS (read_types); i++)
    if (g_str_equal (type, read_types[i]))
      return TRUE;
  return FALSE;
}

/* Reading a run event by event: all at once from a trace
 * (_tb_replay_run_read()), or as a replay's own run appends them. */
struct _RunReader
{
  Run        *run;
  gboolean    ran_since_end;
  guint       n_read;
  /* The call ids of the latest turn → their step: what decisions and
   * results name, kept for one turn only. */
  GHashTable *turn_calls;
};

RunReader *
_tb_replay_run_reader_new (TbTrace *trace)
{
  RunReader *reader = g_new0 (RunReader, 1);
  Run *run = g_new0 (Run, 1);

  run->ref_count = 1;
  run->trace = g_object_ref (trace);
  run->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  run->turns = g_array_new (FALSE, FALSE, sizeof (guint));
  run->actions = g_array_new (FALSE, TRUE, sizeof (Action));
  reader->run = run;
  reader->turn_calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return reader;
}

void
_tb_replay_run_reader_free (RunReader *reader)
{
  g_clear_pointer (&reader->run, _tb_replay_run_unref);
  g_hash_table_unref (reader->turn_calls);
  g_free (reader);
}

guint
_tb_replay_run_reader_get_n_read (RunReader *reader)
{
  return reader->n_read;
}

/* The trace's next event: the reader takes them in order. */
void
_tb_replay_run_reader_add (RunReader    *reader,
                           TbTraceEvent *event)
{
  Run *run = reader->run;
  guint i = reader->n_read++;
  const char *type = tb_trace_event_get_event_type (event);
  g_autoptr(JsonObject) payload = NULL;

  /* The wire's requests and responses, the model's turns and the rest
   * say nothing a replay needs: their payloads, the largest of a run,
   * are not parsed. What is parsed is not kept with the event. */
  if (!is_read_type (type))
    return;
  payload = _tb_trace_event_dup_payload (event);

  if (g_str_equal (type, "message"))
    {
      JsonObject *message = tb_json_object_get_object (payload, "message");
      const char *role = tb_json_object_get_string (message, "role");
      const char *origin = tb_json_object_get_string (payload, "origin");

      if (message == NULL || role == NULL)
        return;

      if (g_str_equal (role, "assistant"))
        {
          const char *text = tb_json_object_get_string (message, "text");

          g_array_append_val (run->turns, i);
          g_free (run->answer);
          run->answer = g_strdup (text != NULL ? text : "");
          reader->ran_since_end = TRUE;
          g_hash_table_remove_all (reader->turn_calls);
        }
      else if ((g_str_equal (role, "user") || g_str_equal (role, "system")) &&
               g_strcmp0 (origin, "tool") != 0)
        {
          Action action = { ACTION_ADD_MESSAGE, i, 0 };

          g_array_append_val (run->actions, action);
        }
    }
  else if (g_str_equal (type, "tool-call"))
    {
      JsonObject *call = tb_json_object_get_object (payload, "call");
      JsonNode *offered = json_object_get_member (payload, "offered");
      const char *id = tb_json_object_get_string (call, "id");
      Step step = { i, NO_EVENT, NO_EVENT, 0, DECISION_NONE, TRUE };

      if (call == NULL)
        return;

      step.turn = run->turns->len > 0 ? run->turns->len - 1 : 0;
      step.offered = offered == NULL || !JSON_NODE_HOLDS_VALUE (offered) ||
                     json_node_get_boolean (offered);
      g_array_append_val (run->steps, step);
      /* The latest call with an id is the one its events name. */
      if (id != NULL)
        g_hash_table_insert (reader->turn_calls, g_strdup (id),
                             GUINT_TO_POINTER (run->steps->len - 1));
    }
  else if (g_str_equal (type, "decision"))
    {
      const char *decision = tb_json_object_get_string (payload, "decision");

      if (g_strcmp0 (decision, "extend") == 0)
        {
          g_autoptr(GError) event_error = NULL;
          gint64 added = 1;
          Action action = { ACTION_EXTEND, NO_EVENT, 1 };

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
      else if (decision != NULL)
        {
          Step *step = find_step (run, reader->turn_calls,
                                  tb_json_object_get_string (payload, "call_id"));

          if (step != NULL)
            {
              step->decision = i;
              step->decision_kind = decision_kind (decision);
            }
        }
    }
  else if (g_str_equal (type, "tool-result"))
    {
      if (tb_json_object_get_object (payload, "result") != NULL)
        {
          Step *step = find_step (run, reader->turn_calls,
                                  tb_json_object_get_string (payload, "call_id"));

          if (step != NULL)
            step->result = i;
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
      Action action = { ACTION_RUN, NO_EVENT, 0 };

      g_array_append_val (run->actions, action);
      g_free (run->end_state);
      run->end_state = g_strdup (tb_json_object_get_string (payload, "state"));
      reader->ran_since_end = FALSE;
    }
}

/* The run read, once every event has been added; the reader is freed. */
Run *
_tb_replay_run_reader_finish (RunReader *reader)
{
  Run *run = g_steal_pointer (&reader->run);
  TbTrace *trace = run->trace;
  g_autoptr(GError) local_error = NULL;

  /* The loop's cap is a guint: a larger number must not wrap to 0. A
   * header that cannot be replayed says so before any of its events. */
  if (!tb_json_object_get_int_in_range (tb_trace_get_header (trace), "max_iterations",
                                        1, G_MAXUINT, &run->max_iterations, &local_error))
    {
      g_clear_error (&run->error);
      run->error = g_error_new (TB_REPLAY_ERROR, TB_REPLAY_ERROR_INVALID_TRACE,
                                /* Translators: %s says which number is wrong */
                                _("The trace header cannot be replayed: %s"),
                                local_error->message);
    }

  /* A run cut off before its end (a crash) still replays what it had. */
  if (reader->ran_since_end)
    {
      Action action = { ACTION_RUN, NO_EVENT, 0 };

      g_array_append_val (run->actions, action);
      if (run->incomplete == NULL)
        run->incomplete = g_strdup (_("The trace stops before the run ended: there is no "
                                      "“end” event after the last model turn."));
    }
  if (run->incomplete == NULL && tb_trace_get_problems (trace)[0] != NULL)
    run->incomplete = g_strdup (tb_trace_get_problems (trace)[0]);

  if (run->max_iterations <= 0)
    run->max_iterations = MAX (run->turns->len, 1);

  _tb_replay_run_reader_free (reader);
  return run;
}

Run *
_tb_replay_run_read (TbTrace *trace)
{
  RunReader *reader = _tb_replay_run_reader_new (trace);
  guint n = tb_trace_get_n_events (trace);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbTraceEvent) event = g_object_ref (tb_trace_get_event (trace, i));

      _tb_replay_run_reader_add (reader, event);
    }
  return _tb_replay_run_reader_finish (reader);
}
