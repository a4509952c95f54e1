/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What a trace says happened: its steps (each call with its decision and
 * result), the model's turns and the person's actions, read once for
 * replay and for comparing two runs. */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-replay-private.h"

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

void
_tb_replay_run_free (Run *run)
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

Run *
_tb_replay_run_read (TbTrace *trace)
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
