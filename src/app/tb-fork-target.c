/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-fork-target"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-fork-target.h"

/* Where a fork at a timeline row starts: the step, what it edits, and the
 * recorded value to start from, found in a trace read whole or, for a
 * large file, from its index one event at a time. */

/* How many events the trace has, read whole or from its index. */
static guint
n_events (TbTrace       *trace,
          TbTraceReader *reader)
{
  if (trace != NULL)
    return tb_trace_get_n_events (trace);
  return reader != NULL ? tb_trace_reader_get_n_events (reader) : 0;
}

/* The event at @position of the shown trace with its @type: from the trace
 * read whole, or read from a large file's index on its own. */
static JsonObject *
event_at (TbTrace        *trace,
          TbTraceReader  *reader,
          guint           position,
          const char    **type)
{
  JsonObject *object;

  if (trace != NULL)
    {
      TbTraceEvent *event;

      if (position >= tb_trace_get_n_events (trace))
        return NULL;
      event = tb_trace_get_event (trace, position);
      *type = tb_trace_event_get_event_type (event);
      return json_object_ref (tb_trace_event_get_payload (event));
    }
  if (reader == NULL)
    return NULL;
  object = tb_trace_reader_read_event (reader, position, NULL);
  if (object == NULL || tb_json_object_get_string (object, "type") == NULL)
    {
      g_clear_pointer (&object, json_object_unref);
      return NULL;
    }
  *type = tb_json_object_get_string (object, "type");
  return object;
}

/**
 * tb_fork_target_find:
 * @trace: (nullable): the trace read whole, or %NULL to read from @reader
 * @reader: (nullable): a large trace's indexed reader
 *
 * What a fork changes at the event at @position: a
 * call's arguments, a call's result or a model's turn, with the recorded
 * value to start from. */
gboolean
tb_fork_target_find (TbTrace        *trace,
                     TbTraceReader  *reader,
                     guint           position,
                     guint          *step,
                     TbReplayEdit   *edit,
                     char          **heading,
                     JsonNode      **value,
                     GError        **error)
{
  g_autoptr(GHashTable) calls = NULL;
  guint n_calls = 0, n_turns = 0;
  g_autoptr(JsonObject) payload = NULL;
  const char *type = NULL;

  if (position >= n_events (trace, reader))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("There is no such event in the trace."));
      return FALSE;
    }
  calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* One event at a time: a large file is read from its index, and what
   * is kept is the call ids before the event. */
  for (guint i = 0; i < position; i++)
    {
      const char *t = NULL;
      g_autoptr(JsonObject) p = event_at (trace, reader, i, &t);

      if (p == NULL)
        continue;

      if (g_str_equal (t, "tool-call"))
        {
          JsonObject *call = tb_json_object_get_object (p, "call");
          const char *id = call != NULL ? tb_json_object_get_string (call, "id") : NULL;

          if (id != NULL)
            g_hash_table_insert (calls, g_strdup (id), GUINT_TO_POINTER (n_calls + 1));
          n_calls++;
        }
      else if (g_str_equal (t, "message")
               && g_strcmp0 (tb_json_object_get_string (p, "origin"), "model") == 0)
        n_turns++;
    }

  payload = event_at (trace, reader, position, &type);
  if (payload == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("This event of the trace cannot be read."));
      return FALSE;
    }
  if (g_str_equal (type, "tool-call"))
    {
      JsonObject *call = tb_json_object_get_object (payload, "call");
      JsonNode *arguments = call != NULL ? json_object_get_member (call, "arguments") : NULL;

      *step = n_calls;
      *edit = TB_REPLAY_EDIT_ARGUMENTS;
      /* Translators: %u is the call's number in the run, %s the tool's name */
      *heading = g_strdup_printf (_("Call %u, %s: the arguments it runs with"), n_calls + 1,
                                  call != NULL ? tb_json_object_get_string (call, "name") : "?");
      *value = arguments != NULL ? json_node_copy (arguments)
                                 : tb_json_node_new_object ();
      return TRUE;
    }
  if (g_str_equal (type, "tool-result"))
    {
      const char *id = tb_json_object_get_string (payload, "call_id");
      guint index = id != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (calls, id)) : 0;
      JsonObject *result = tb_json_object_get_object (payload, "result");
      JsonNode *output = result != NULL ? json_object_get_member (result, "output") : NULL;

      if (index == 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("The trace does not hold the call this result answers."));
          return FALSE;
        }
      *step = index - 1;
      *edit = TB_REPLAY_EDIT_RESULT;
      /* Translators: %u is the call's number in the run, %s the tool's name */
      *heading = g_strdup_printf (_("Call %u, %s: the result it gives instead of running"),
                                  index, tb_json_object_get_string (payload, "name") ?: "?");
      *value = output != NULL ? json_node_copy (output) : json_node_new (JSON_NODE_NULL);
      return TRUE;
    }
  if (g_str_equal (type, "message")
      && g_strcmp0 (tb_json_object_get_string (payload, "origin"), "model") == 0
      && json_object_get_member (payload, "message") != NULL)
    {
      *step = n_turns;
      *edit = TB_REPLAY_EDIT_MODEL_TURN;
      /* Translators: %u is the model turn's number in the run */
      *heading = g_strdup_printf (_("Model turn %u: what the model says instead"), n_turns + 1);
      *value = json_node_copy (json_object_get_member (payload, "message"));
      return TRUE;
    }
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("A fork changes a call's arguments, a call's result or a model "
                         "turn; this event is none of them."));
  return FALSE;
}
