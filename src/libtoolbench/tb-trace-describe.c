/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-describe"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-json.h"
#include "tb-replay.h"
#include "tb-text.h"
#include "tb-trace-describe.h"

/*
 * The sentences a timeline shows for a trace's events ("You: What is
 * 2 + 3?", "Model calls add {a: 2, b: 3}", "add → 5 in 111 µs"), and where
 * it puts them: under their iteration, a call under the model turn that
 * asked for it, a decision and a result under their call. The app's Trace
 * page and `toolbench-cli trace show` both use these, so they say the same.
 */

/* How many characters of a text or a value a line shows. */
#define PREVIEW_CHARS 80

/* A text on one line: whitespace runs become one space and other control
 * characters are escaped, so a line cannot be broken or spoofed. */
static char *
one_line (const char *text,
          guint       max_chars)
{
  g_autoptr(GString) flat = g_string_new (NULL);
  g_autofree char *escaped = NULL;
  guint chars = 0;
  gboolean space = FALSE;

  if (text == NULL)
    return g_strdup ("");
  if (!g_utf8_validate (text, -1, NULL))
    return g_strdup ("?");
  for (const char *p = text; *p != '\0' && chars <= max_chars; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
        {
          space = flat->len > 0;
          continue;
        }
      if (space)
        {
          g_string_append_c (flat, ' ');
          chars++;
          space = FALSE;
        }
      g_string_append_unichar (flat, c);
      chars++;
    }
  if (chars > max_chars)
    {
      g_string_truncate (flat, g_utf8_offset_to_pointer (flat->str, max_chars - 1) - flat->str);
      g_string_append (flat, "…");
    }
  escaped = tb_text_escape_controls (flat->str, -1);
  return g_steal_pointer (&escaped);
}

static gboolean
is_plain_key (const char *key)
{
  if (*key == '\0' || g_ascii_isdigit (*key))
    return FALSE;
  for (const char *p = key; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

/* JSON the way a person writes it in a sentence: {a: 2, b: "x"}. It stops
 * once the line is long enough, so a huge value costs no more than a
 * short one. */
static void
append_value (GString  *out,
              JsonNode *node,
              gsize     limit)
{
  if (out->len > limit)
    return;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      g_string_append (out, "null");
      return;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);
      gboolean first = TRUE;

      g_string_append_c (out, '{');
      for (GList *l = members; l != NULL && out->len <= limit; l = l->next)
        {
          if (!first)
            g_string_append (out, ", ");
          first = FALSE;
          if (is_plain_key (l->data))
            g_string_append (out, l->data);
          else
            {
              g_autoptr(JsonNode) key = json_node_init_string (json_node_alloc (), l->data);
              g_autofree char *quoted = tb_json_to_string (key, FALSE);

              g_string_append (out, quoted);
            }
          g_string_append (out, ": ");
          append_value (out, json_object_get_member (object, l->data), limit);
        }
      g_string_append_c (out, '}');
      return;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      g_string_append_c (out, '[');
      for (guint i = 0; i < n && out->len <= limit; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_value (out, json_array_get_element (array, i), limit);
        }
      g_string_append_c (out, ']');
      return;
    }
  {
    g_autofree char *text = tb_json_to_string (node, FALSE);

    g_string_append (out, text);
  }
}

static char *
short_value (JsonNode *node)
{
  g_autoptr(GString) out = g_string_new (NULL);

  append_value (out, node, PREVIEW_CHARS * 4);
  return one_line (out->str, PREVIEW_CHARS);
}

/* A result's output: a string as it is (it is what the tool said), other
 * values as JSON. */
static char *
short_output (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node)
      && json_node_get_value_type (node) == G_TYPE_STRING)
    return one_line (json_node_get_string (node), PREVIEW_CHARS);
  return short_value (node);
}

static char *
format_duration (gint64 us)
{
  if (us < 1000)
    /* Translators: microseconds */
    return g_strdup_printf (_("%d µs"), (int) MAX (us, 0));
  if (us < 1000 * 1000)
    /* Translators: milliseconds */
    return g_strdup_printf (_("%d ms"), (int) (us / 1000));
  if (us < 60 * G_USEC_PER_SEC)
    /* Translators: seconds, with one decimal */
    return g_strdup_printf (_("%.1f s"), us / (double) G_USEC_PER_SEC);
  /* Translators: minutes and seconds */
  return g_strdup_printf (_("%d min %d s"), (int) MIN (us / (60 * G_USEC_PER_SEC), G_MAXINT),
                          (int) ((us / G_USEC_PER_SEC) % 60));
}

static const char *
name_of (JsonObject *event,
         JsonObject *call)
{
  return tb_json_object_get_string (call, "name")
         ?: tb_json_object_get_string (event, "name")
         ?: _("a call");
}

/* "a = 7, b.c = 1": what an edit changed, from the diff of the call's
 * arguments and the edited ones. */
static char *
describe_edit (JsonObject *event,
               JsonObject *call)
{
  JsonNode *edited = json_object_get_member (event, "arguments");
  JsonNode *original = call != NULL ? json_object_get_member (call, "arguments") : NULL;
  g_autoptr(JsonArray) diff = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  if (edited == NULL)
    return g_strdup ("");
  if (original == NULL)
    return short_value (edited);
  diff = tb_json_diff (original, edited);
  for (guint i = 0; i < json_array_get_length (diff) && out->len < PREVIEW_CHARS * 4; i++)
    {
      JsonObject *change = json_array_get_object_element (diff, i);
      const char *path = tb_json_object_get_string (change, "path");
      JsonNode *now = json_object_get_member (change, "replayed");
      g_autofree char *where = NULL;

      if (path == NULL)
        continue;
      where = g_strdup (*path == '/' ? path + 1 : path);
      g_strdelimit (where, "/", '.');
      if (out->len > 0)
        g_string_append (out, ", ");
      if (*where == '\0')
        g_string_append (out, _("all of them"));
      else
        g_string_append (out, where);
      if (now == NULL)
        /* Translators: after a member's name: the edit took it out */
        g_string_append (out, _(" removed"));
      else
        {
          g_string_append (out, " = ");
          append_value (out, now, PREVIEW_CHARS * 4);
        }
    }
  if (out->len == 0)
    return g_strdup (_("no change"));
  return one_line (out->str, PREVIEW_CHARS);
}

static char *
describe_decision (JsonObject *event,
                   JsonObject *call)
{
  const char *decision = tb_json_object_get_string (event, "decision") ?: "?";
  const char *by = tb_json_object_get_string (event, "by");
  const char *name = name_of (event, call);
  gboolean person = g_strcmp0 (by, "person") == 0;
  const char *who = g_strcmp0 (by, "policy") == 0 ? _("Policy")
                    : g_strcmp0 (by, "loop") == 0 ? _("The loop")
                    : _("Someone");
  g_autofree char *reason = one_line (tb_json_object_get_string (event, "reason"),
                                      PREVIEW_CHARS);

  if (g_str_equal (decision, "approve"))
    return person ? g_strdup_printf (_("You approved %s"), name)
                  /* Translators: who (Policy, The loop), then a tool's name */
                  : g_strdup_printf (_("%s approved %s"), who, name);
  if (g_str_equal (decision, "edit"))
    {
      g_autofree char *change = describe_edit (event, call);

      /* Translators: a tool's name, then what changed: "a = 7" */
      return person ? g_strdup_printf (_("You edited %s: %s"), name, change)
                    : g_strdup_printf (_("%s edited %s: %s"), who, name, change);
    }
  if (g_str_equal (decision, "skip"))
    {
      g_autofree char *output = short_output (json_object_get_member (event, "output"));

      /* Translators: a tool's name, then the output given in its place */
      return person ? g_strdup_printf (_("You skipped %s and answered %s"), name, output)
                    : g_strdup_printf (_("%s skipped %s and answered %s"), who, name, output);
    }
  if (g_str_equal (decision, "reject"))
    {
      if (*reason != '\0')
        return person ? g_strdup_printf (_("You rejected %s: %s"), name, reason)
                      : g_strdup_printf (_("%s rejected %s: %s"), who, name, reason);
      return person ? g_strdup_printf (_("You rejected %s"), name)
                    : g_strdup_printf (_("%s rejected %s"), who, name);
    }
  if (g_str_equal (decision, "manual-turn"))
    return g_strdup (_("You wrote the model's next turn"));
  if (g_str_equal (decision, "extend"))
    {
      gint64 added = 0, max = 0;

      tb_json_object_get_int_in_range (event, "added", 0, G_MAXINT, &added, NULL);
      tb_json_object_get_int_in_range (event, "max_iterations", 0, G_MAXINT, &max, NULL);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "You allowed %d more iteration (%d in all)",
                                           "You allowed %d more iterations (%d in all)",
                                           (gulong) added),
                              (int) added, (int) max);
    }
  return g_strdup_printf (_("Decision: %s"), decision);
}

static char *
describe_message (JsonObject *event)
{
  JsonObject *message = tb_json_object_get_object (event, "message");
  const char *origin = tb_json_object_get_string (event, "origin");
  const char *role = tb_json_object_get_string (message, "role");
  JsonArray *calls = tb_json_object_get_array (message, "tool_calls");
  g_autofree char *text = one_line (tb_json_object_get_string (message, "text"), PREVIEW_CHARS);

  if (g_strcmp0 (role, "system") == 0)
    return g_strdup_printf (_("System: %s"), text);
  if (g_strcmp0 (role, "tool") == 0 || g_strcmp0 (origin, "tool") == 0)
    {
      const char *name = tb_json_object_get_string (message, "name") ?: _("a tool");
      JsonNode *is_error = message != NULL ? json_object_get_member (message, "is_error") : NULL;

      if (is_error != NULL && JSON_NODE_HOLDS_VALUE (is_error)
          && json_node_get_value_type (is_error) == G_TYPE_BOOLEAN
          && json_node_get_boolean (is_error))
        /* Translators: a tool's name, then the error text the model read */
        return g_strdup_printf (_("The model reads %s's error: %s"), name, text);
      /* Translators: a tool's name, then the text the model read */
      return g_strdup_printf (_("The model reads %s: %s"), name, text);
    }
  if (g_strcmp0 (origin, "model") == 0 || g_strcmp0 (role, "assistant") == 0)
    {
      const char *who = g_strcmp0 (origin, "person") == 0 ? _("You, as the model") : _("Model");
      guint n = calls != NULL ? json_array_get_length (calls) : 0;

      if (*text != '\0')
        /* Translators: who ("Model"), then what it said */
        return g_strdup_printf (_("%s: %s"), who, text);
      if (n > 0)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s asks for %u tool call",
                                             "%s asks for %u tool calls", n), who, n);
      return g_strdup_printf (_("%s says nothing"), who);
    }
  /* Translators: what the person said to the model */
  return g_strdup_printf (_("You: %s"), text);
}

static char *
describe_result (JsonObject *event,
                 JsonObject *call)
{
  JsonObject *result = tb_json_object_get_object (event, "result");
  const char *name = name_of (event, call);
  gint64 us = 0;
  g_autofree char *took = NULL;

  tb_json_object_get_int_in_range (result, "duration_us", 0, G_MAXINT64, &us, NULL);
  took = format_duration (us);
  if (result != NULL && tb_json_object_get_boolean (result, "ok", FALSE))
    {
      g_autofree char *output = short_output (json_object_get_member (result, "output"));

      /* Translators: a tool's name, its output, how long it took */
      return g_strdup_printf (_("%s → %s in %s"), name, output, took);
    }
  {
    g_autofree char *error = one_line (tb_json_object_get_string (result, "error"),
                                       PREVIEW_CHARS);
    const char *kind = tb_json_object_get_string (result, "kind") ?: "?";

    /* Translators: a tool's name, the failure kind, how long it took, the error */
    return g_strdup_printf (_("%s failed (%s) in %s: %s"), name, kind, took, error);
  }
}

static char *
describe_end (JsonObject *event)
{
  const char *state = tb_json_object_get_string (event, "state") ?: "?";
  g_autofree char *reason = one_line (tb_json_object_get_string (event, "reason"),
                                      PREVIEW_CHARS);
  JsonObject *error = tb_json_object_get_object (event, "error");
  g_autofree char *message = one_line (tb_json_object_get_string (error, "message")
                                       ?: tb_json_object_get_string (event, "error"),
                                       PREVIEW_CHARS);
  gint64 max = 0;

  if (g_str_equal (state, "finished"))
    return *reason != '\0' ? g_strdup_printf (_("Finished: %s"), reason)
                           : g_strdup (_("Finished"));
  if (g_str_equal (state, "limit-reached"))
    {
      tb_json_object_get_int_in_range (event, "max_iterations", 0, G_MAXINT, &max, NULL);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Stopped at the cap of %d iteration",
                                           "Stopped at the cap of %d iterations", (gulong) max),
                              (int) max);
    }
  if (g_str_equal (state, "failed"))
    return g_strdup_printf (_("Failed: %s"), *message != '\0' ? message : reason);
  if (g_str_equal (state, "cancelled"))
    return g_strdup (_("Cancelled"));
  return g_strdup_printf (_("Ended: %s"), state);
}

/* A progress figure as a person reads it: 3, not 3.0 */
static char *
progress_figure (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node)
      && (json_node_get_value_type (node) == G_TYPE_DOUBLE
          || json_node_get_value_type (node) == G_TYPE_INT64))
    return tb_json_format_double (json_node_get_double (node));
  return g_strdup ("?");
}

/* "add: 3 of 4, Working", "add: progress 2.5, Working" without a total */
static char *
describe_progress (JsonObject *event)
{
  const char *name = tb_json_object_get_string (event, "name") ?: "?";
  JsonNode *total = json_object_get_member (event, "total");
  g_autofree char *done = progress_figure (json_object_get_member (event, "progress"));
  g_autofree char *message = NULL;
  g_autofree char *text = NULL;

  if (total != NULL)
    {
      g_autofree char *all = progress_figure (total);

      /* Translators: a tool's name, then how far it is: 3 of 4 */
      text = g_strdup_printf (_("%s: %s of %s"), name, done, all);
    }
  else
    {
      /* Translators: a tool's name, then how far it is, in the tool's own unit */
      text = g_strdup_printf (_("%s: progress %s"), name, done);
    }
  if (tb_json_object_get_string (event, "message") == NULL)
    return g_steal_pointer (&text);
  message = one_line (tb_json_object_get_string (event, "message"), PREVIEW_CHARS);
  /* Translators: a tool's progress, then the message the tool sent with it */
  return g_strdup_printf (_("%s, %s"), text, message);
}

/* "MCP everything → tools/call #3, 142 bytes" */
static char *
describe_mcp_message (JsonObject *event)
{
  const char *kind = tb_json_object_get_string (event, "kind") ?: "";
  const char *direction = tb_json_object_get_string (event, "direction") ?: "";
  g_autofree char *server = one_line (tb_json_object_get_string (event, "server"), 40);
  g_autofree char *method = one_line (tb_json_object_get_string (event, "method"), PREVIEW_CHARS);
  JsonNode *id_node = json_object_get_member (event, "id");
  g_autofree char *id = NULL;
  g_autofree char *what = NULL;
  g_autofree char *size = NULL;
  gint64 bytes = 0;

  if (id_node != NULL && JSON_NODE_HOLDS_VALUE (id_node))
    {
      g_autofree char *raw = tb_json_to_string (id_node, FALSE);
      g_autofree char *shown = one_line (raw, 40);

      id = g_strdup_printf (" #%s", shown);
    }
  if (g_str_equal (kind, "result"))
    /* Translators: a JSON-RPC method, such as tools/call */
    what = g_strdup_printf (_("result of %s"), *method != '\0' ? method : "?");
  else if (g_str_equal (kind, "error"))
    /* Translators: a JSON-RPC method, such as tools/call */
    what = g_strdup_printf (_("error for %s"), *method != '\0' ? method : "?");
  else if (g_str_equal (kind, "invalid"))
    what = g_strdup (_("not a JSON-RPC message"));
  else if (g_str_equal (kind, "batch"))
    what = g_strdup (_("a batch of messages"));
  else
    what = g_strdup (*method != '\0' ? method : "?");

  tb_json_object_get_int_in_range (event, "size", 0, G_MAXINT64, &bytes, NULL);
  size = g_format_size (bytes);
  /* Translators: “MCP”, a server's name, an arrow (→ sent to it, ← received
   * from it), what the message is with its id (tools/call #3), its size */
  return g_strdup_printf (_("MCP %s %s %s%s, %s"), *server != '\0' ? server : "?",
                          g_str_equal (direction, "sent") ? "→" : "←", what,
                          id != NULL ? id : "", size);
}

/**
 * tb_trace_describe_event:
 * @event: an event as a trace line holds it (with `type`)
 * @call: (nullable): for a decision or a result, the `call` member of its
 *   tool-call event (see #TbTracePlace), which names the tool and gives
 *   the arguments an edit changed
 *
 * Says who did what, in one line a person reads: "You: What is 2 + 3?",
 * "Model calls add {a: 2, b: 3}", "You edited add: a = 7",
 * "add → 10 in 1 ms", "Policy rejected echo". Values are cut short and
 * control characters escaped.
 *
 * Returns: (transfer full): the sentence
 */
char *
tb_trace_describe_event (JsonObject *event,
                         JsonObject *call)
{
  const char *type;

  g_return_val_if_fail (event != NULL, NULL);

  type = tb_json_object_get_string (event, "type") ?: "?";

  if (g_str_equal (type, "message"))
    return describe_message (event);
  if (g_str_equal (type, "request"))
    return g_strdup_printf (_("Request to %s"),
                            tb_json_object_get_string (event, "provider") ?: _("the model"));
  if (g_str_equal (type, "response"))
    {
      const char *body = tb_json_object_get_string (event, "body");
      g_autofree char *size = g_format_size (body != NULL ? strlen (body) : 0);
      gint64 status = 0;

      tb_json_object_get_int_in_range (event, "status", 0, G_MAXINT, &status, NULL);
      /* Translators: an HTTP status, then a size such as "1.2 kB" */
      return g_strdup_printf (_("Response %d, %s"), (int) status, size);
    }
  if (g_str_equal (type, "model-turn"))
    {
      g_autofree char *reason = one_line (tb_json_object_get_string (event, "finish_reason"),
                                          PREVIEW_CHARS);

      return *reason != '\0' ? g_strdup_printf (_("Model turn ends: %s"), reason)
                             : g_strdup (_("Model turn ends"));
    }
  if (g_str_equal (type, "tool-call"))
    {
      JsonObject *called = tb_json_object_get_object (event, "call");
      const char *name = tb_json_object_get_string (called, "name") ?: "?";
      const char *parse_error = tb_json_object_get_string (called, "parse_error");
      JsonNode *offered = json_object_get_member (event, "offered");
      g_autofree char *text = NULL;

      if (parse_error != NULL)
        {
          g_autofree char *why = one_line (parse_error, PREVIEW_CHARS);

          text = g_strdup_printf (_("Model calls %s with arguments that are not JSON: %s"),
                                  name, why);
        }
      else
        {
          g_autofree char *arguments = short_value (json_object_get_member (called,
                                                                            "arguments"));

          /* Translators: a tool's name, then its arguments: {a: 2, b: 3} */
          text = g_strdup_printf (_("Model calls %s %s"), name, arguments);
        }
      if (offered != NULL && JSON_NODE_HOLDS_VALUE (offered)
          && json_node_get_value_type (offered) == G_TYPE_BOOLEAN
          && !json_node_get_boolean (offered))
        return g_strdup_printf (_("%s, a tool it was not offered"), text);
      return g_steal_pointer (&text);
    }
  if (g_str_equal (type, "decision"))
    return describe_decision (event, call);
  if (g_str_equal (type, "tool-result"))
    return describe_result (event, call);
  if (g_str_equal (type, "tool-progress"))
    return describe_progress (event);
  if (g_str_equal (type, "mcp-message"))
    return describe_mcp_message (event);
  if (g_str_equal (type, "proposal"))
    {
      JsonObject *proposal = tb_json_object_get_object (event, "proposal");
      g_autofree char *value = short_value (json_object_get_member (proposal, "value"));

      return g_strdup_printf (_("Model proposes %s = %s"),
                              tb_json_object_get_string (proposal, "key") ?: "?", value);
    }
  if (g_str_equal (type, "commit"))
    {
      g_autofree char *value = short_value (json_object_get_member (event, "value"));

      return g_strdup_printf (_("You confirmed %s = %s"),
                              tb_json_object_get_string (event, "key") ?: "?", value);
    }
  if (g_str_equal (type, "proposal-rejected"))
    return g_strdup_printf (_("The proposal for %s was rejected"),
                            tb_json_object_get_string (event, "key") ?: "?");
  if (g_str_equal (type, "proposal-superseded"))
    return g_strdup_printf (_("The proposal for %s was superseded"),
                            tb_json_object_get_string (event, "key") ?: "?");
  if (g_str_equal (type, "pause"))
    return g_strdup (_("Paused for the pending proposals"));
  if (g_str_equal (type, "resume"))
    return g_strdup (_("Resumed"));
  if (g_str_equal (type, "warning") || g_str_equal (type, "error"))
    {
      g_autofree char *message = one_line (tb_json_object_get_string (event, "message"),
                                           PREVIEW_CHARS);

      return g_str_equal (type, "warning") ? g_strdup_printf (_("Warning: %s"), message)
                                           : g_strdup_printf (_("Error: %s"), message);
    }
  if (g_str_equal (type, "incomplete"))
    {
      g_autofree char *reason = one_line (tb_json_object_get_string (event, "reason"),
                                          PREVIEW_CHARS);

      /* Translators: an event type such as "tool-result", then why */
      return g_strdup_printf (_("Not recorded: a %s event: %s"),
                              tb_json_object_get_string (event, "event_type") ?: "?", reason);
    }
  if (g_str_equal (type, "end"))
    return describe_end (event);
  return one_line (type, PREVIEW_CHARS);
}

/**
 * tb_trace_describe_iteration:
 * @iteration: an iteration of the loop
 *
 * Writes the heading a timeline shows above the events of one iteration.
 *
 * Returns: (transfer full): the heading of its events in a timeline
 */
char *
tb_trace_describe_iteration (guint iteration)
{
  if (iteration == 0)
    return g_strdup (_("Before the first request"));
  return g_strdup_printf (_("Iteration %u"), iteration);
}

/**
 * tb_trace_describe_kind:
 * @event: an event
 *
 * Sorts an event into the groups a timeline filters by.
 *
 * Returns: what a timeline filters it by
 */
TbTraceKind
tb_trace_describe_kind (JsonObject *event)
{
  static const struct { const char *type; TbTraceKind kind; } kinds[] = {
    { "message", TB_TRACE_KIND_CONVERSATION },
    { "tool-call", TB_TRACE_KIND_CALL },
    { "tool-result", TB_TRACE_KIND_CALL },
    { "tool-progress", TB_TRACE_KIND_CALL },
    { "decision", TB_TRACE_KIND_DECISION },
    { "request", TB_TRACE_KIND_WIRE },
    { "response", TB_TRACE_KIND_WIRE },
    { "model-turn", TB_TRACE_KIND_WIRE },
    { "mcp-message", TB_TRACE_KIND_WIRE },
    { "proposal", TB_TRACE_KIND_FACTS },
    { "commit", TB_TRACE_KIND_FACTS },
    { "proposal-rejected", TB_TRACE_KIND_FACTS },
    { "proposal-superseded", TB_TRACE_KIND_FACTS },
    { "warning", TB_TRACE_KIND_PROBLEM },
    { "error", TB_TRACE_KIND_PROBLEM },
    { "incomplete", TB_TRACE_KIND_PROBLEM },
  };
  const char *type;

  g_return_val_if_fail (event != NULL, TB_TRACE_KIND_OTHER);

  type = tb_json_object_get_string (event, "type");
  for (guint i = 0; type != NULL && i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (kinds[i].type, type))
      return kinds[i].kind;
  return TB_TRACE_KIND_OTHER;
}

/* Where events go. Only the calls of the current model turn are kept, so
 * the outline costs the same for the millionth event as for the first. */

typedef struct
{
  guint       position;
  JsonObject *call;
} Call;

struct _TbTraceOutline
{
  gboolean    has_iteration;
  guint       iteration;
  gint        turn;        /* the model message the calls belong to, or -1 */
  GHashTable *calls;       /* id → Call */
};

static void
call_free (gpointer data)
{
  Call *call = data;

  json_object_unref (call->call);
  g_free (call);
}

/**
 * tb_trace_outline_new: (skip)
 *
 * An outline is built by C code as events arrive; bindings read a trace's
 * shape from tb_trace_describe_event() and friends instead.
 *
 * Returns: (transfer full): an outline to add a trace's events to, in order
 */
TbTraceOutline *
tb_trace_outline_new (void)
{
  TbTraceOutline *self = g_new0 (TbTraceOutline, 1);

  self->turn = -1;
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, call_free);
  return self;
}

/**
 * tb_trace_outline_free: (skip)
 * @self: (nullable): an outline
 *
 * Frees an outline.
 */
void
tb_trace_outline_free (TbTraceOutline *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->calls);
  g_free (self);
}

/**
 * tb_trace_outline_add: (skip)
 * @self: an outline
 * @position: the event's position in the trace (from 0)
 * @event: the event
 * @place: (out caller-allocates): where it goes
 *
 * Places the next event: under its iteration; a tool call under the
 * model's message that asked for it; a decision, a result and the tool
 * message the model read under their call. The end of the run stands at
 * the top.
 */
void
tb_trace_outline_add (TbTraceOutline *self,
                      guint           position,
                      JsonObject     *event,
                      TbTracePlace   *place)
{
  const char *type;
  const char *call_id = NULL;
  gint64 iteration = 0;
  Call *call;

  g_return_if_fail (self != NULL);
  g_return_if_fail (event != NULL);
  g_return_if_fail (place != NULL);

  type = tb_json_object_get_string (event, "type") ?: "?";
  tb_json_object_get_int_in_range (event, "iteration", 0, G_MAXUINT, &iteration, NULL);

  memset (place, 0, sizeof *place);
  place->parent = -1;
  place->iteration = iteration;

  if (g_str_equal (type, "end"))
    return;

  place->in_iteration = TRUE;
  place->depth = 1;
  if (!self->has_iteration || self->iteration != iteration)
    {
      self->has_iteration = TRUE;
      self->iteration = iteration;
      self->turn = -1;
      g_hash_table_remove_all (self->calls);
      place->opens_iteration = TRUE;
    }

  if (g_str_equal (type, "message")
      && g_strcmp0 (tb_json_object_get_string (event, "origin"), "model") == 0)
    {
      self->turn = position;
      g_hash_table_remove_all (self->calls);
      return;
    }

  if (g_str_equal (type, "tool-call"))
    {
      JsonObject *called = tb_json_object_get_object (event, "call");
      const char *id = tb_json_object_get_string (called, "id");

      if (self->turn >= 0)
        {
          place->parent = self->turn;
          place->depth = 2;
        }
      if (id != NULL)
        {
          call = g_new0 (Call, 1);
          call->position = position;
          call->call = json_object_ref (called);
          g_hash_table_replace (self->calls, g_strdup (id), call);
        }
      return;
    }

  if (g_str_equal (type, "decision") || g_str_equal (type, "tool-result")
      || g_str_equal (type, "tool-progress") || g_str_equal (type, "mcp-message"))
    call_id = tb_json_object_get_string (event, "call_id");
  else if (g_str_equal (type, "message"))
    call_id = tb_json_object_get_string (tb_json_object_get_object (event, "message"),
                                         "tool_call_id");
  call = call_id != NULL ? g_hash_table_lookup (self->calls, call_id) : NULL;
  if (call != NULL)
    {
      place->parent = call->position;
      place->depth = self->turn >= 0 ? 3 : 2;
      place->call = call->call;
    }
}
