/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-message-row"

#include "config.h"

#include <glib/gi18n.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-message-row.h"

/* One message of the Loop page's conversation: what it says (with what a
 * person decided about the call it answers), and under the JSON expander
 * the message and the wire bodies of its turn. Both texts come from
 * models and tools, so their control characters are shown, not obeyed.
 * A long message shows its start and Show More: a label lays out all it
 * holds, and 120,000 characters took six seconds. */

/* About twenty-five lines of the page. */
#define SUMMARY_SHOWN_CHARS 2000

struct _TbMessageRow
{
  GtkListBoxRow  parent_instance;

  char          *summary;
  char          *text;       /* the summary without the note, shown cut */
  char          *note;
  char          *json;
  char          *reasoning;

  GtkLabel      *summary_label;
  GtkToggleButton *more_button;
  GtkExpander   *reasoning_expander;
  GtkLabel      *reasoning_label;
  GtkExpander   *json_expander;
  GtkTextView   *json_view;
};

G_DEFINE_FINAL_TYPE (TbMessageRow, tb_message_row, GTK_TYPE_LIST_BOX_ROW)

static void
tb_message_row_dispose (GObject *object)
{
  TbMessageRow *self = (TbMessageRow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MESSAGE_ROW);

  G_OBJECT_CLASS (tb_message_row_parent_class)->dispose (object);
}

static void
tb_message_row_finalize (GObject *object)
{
  TbMessageRow *self = (TbMessageRow *) object;

  g_free (self->summary);
  g_free (self->text);
  g_free (self->note);
  g_free (self->json);
  g_free (self->reasoning);

  G_OBJECT_CLASS (tb_message_row_parent_class)->finalize (object);
}

/* The summary, or its start with Show More; the note stays whole. */
static void
show_summary (TbMessageRow *self)
{
  if (self->text == NULL)
    return;
  tb_label_set_start (self->summary_label, self->more_button, self->text, self->note,
                      SUMMARY_SHOWN_CHARS);
  /* The row, which takes the focus in the list, is read as what it says. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  gtk_label_get_label (self->summary_label), -1);
}

/* The JSON is in its view only while the expander is open: it holds the
 * turn's wire bodies, and a request body is one line that holds the whole
 * conversation. A text view lays out a line whole, so long lines are
 * broken (the view wraps them anyway); tb_message_row_get_json() keeps
 * them. Expanding a turn with a 120,000-character result took 3.1 s of
 * layout in a label; broken, in a text view, 0.27 s. */
static void
show_json (TbMessageRow *self)
{
  g_autofree char *lines = NULL;
  gboolean broken = FALSE;

  if (gtk_expander_get_expanded (self->json_expander) && self->json != NULL)
    lines = tb_text_break_long_lines (self->json, &broken);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->json_view),
                            lines != NULL ? lines : "", -1);
}

static void
tb_message_row_class_init (TbMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_message_row_dispose;
  object_class->finalize = tb_message_row_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, more_button);
  gtk_widget_class_bind_template_callback (widget_class, show_summary);
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, reasoning_expander);
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, reasoning_label);
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, json_expander);
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, json_view);
  gtk_widget_class_bind_template_callback (widget_class, show_json);
}

static void
tb_message_row_init (TbMessageRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_expander_keep_focus_out (self->json_expander);
  tb_expander_keep_focus_out (self->reasoning_expander);
}

static GtkWidget *
message_row_new (const char       *summary,
                 const char       *note,
                 const char       *json,
                 TbMessageRowKind  kind)
{
  TbMessageRow *self = g_object_new (TB_TYPE_MESSAGE_ROW, NULL);

  self->text = tb_text_escape_controls (summary, -1);
  self->note = note != NULL ? tb_text_escape_controls (note, -1) : NULL;
  self->summary = g_strjoin ("\n", self->text, self->note, NULL);
  self->json = tb_text_escape_controls (json, -1);
  if (kind == TB_MESSAGE_ROW_ERROR)
    gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "error");
  else if (kind == TB_MESSAGE_ROW_MODEL)
    gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "tb-model-turn");
  show_summary (self);
  return GTK_WIDGET (self);
}

/**
 * tb_message_row_new:
 * @summary: what the message says, in one or more lines
 * @json: the message's JSON and the wire bodies of its turn
 * @kind: how the summary is styled
 *
 * Returns: (transfer floating): a new row
 */
GtkWidget *
tb_message_row_new (const char       *summary,
                    const char       *json,
                    TbMessageRowKind  kind)
{
  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (json != NULL, NULL);

  return message_row_new (summary, NULL, json, kind);
}

static char *
json_text (JsonNode *node)
{
  return node != NULL ? tb_json_to_string (node, TRUE) : g_strdup ("null");
}

/* What the row says, in one or more lines. */
static char *
message_summary (TbMessage *message)
{
  GString *text = g_string_new (NULL);
  const char *body = tb_message_get_text (message);

  switch (tb_message_get_role (message))
    {
    case TB_MESSAGE_ROLE_SYSTEM:
      g_string_append_printf (text, _("System: %s"), body != NULL ? body : "");
      break;
    case TB_MESSAGE_ROLE_USER:
      g_string_append_printf (text, _("You: %s"), body != NULL ? body : "");
      break;
    case TB_MESSAGE_ROLE_ASSISTANT:
      if (body != NULL && *body != '\0')
        g_string_append_printf (text, _("Model: %s"), body);
      for (guint i = 0; i < tb_message_get_n_tool_calls (message); i++)
        {
          TbToolCall *call = tb_message_get_tool_call (message, i);
          JsonNode *arguments = tb_tool_call_get_arguments (call);
          g_autofree char *args = NULL;

          args = arguments != NULL ? tb_json_to_string (arguments, FALSE)
                                   : g_strdup (tb_tool_call_get_raw_arguments (call));
          if (text->len > 0)
            g_string_append_c (text, '\n');
          g_string_append_printf (text, _("Calls %s %s"), tb_tool_call_get_name (call),
                                  args != NULL ? args : "");
        }
      if (text->len == 0)
        g_string_append (text, _("Model: (empty turn)"));
      break;
    case TB_MESSAGE_ROLE_TOOL:
      if (tb_message_get_is_error (message))
        g_string_append_printf (text, _("Error from %s: %s"), tb_message_get_tool_name (message),
                                body != NULL ? body : "");
      else
        g_string_append_printf (text, _("Result of %s: %s"), tb_message_get_tool_name (message),
                                body != NULL ? body : "");
      break;
    default:
      break;
    }
  return g_string_free (text, FALSE);
}

/* The message's JSON, followed by the wire bodies recorded for its turn:
 * the request and response events since the previous message. The loop
 * appends a message to its list before it records it, so the events at
 * the end of the trace are this turn's. */
static char *
message_wire_json (TbMessage  *message,
                   TbTrace    *trace,
                   TbRedactor *redactor)
{
  GString *text = g_string_new (NULL);
  g_autoptr(JsonNode) raw = tb_message_to_json (message);
  g_autoptr(JsonNode) node = tb_redactor_redact_node (redactor, raw);
  g_autofree char *message_text = json_text (node);
  guint n = tb_trace_get_n_events (trace);
  g_autoptr(GPtrArray) wire = g_ptr_array_new ();

  g_string_append_printf (text, "%s\n%s", _("Message"), message_text);
  /* Wire bodies belong to model turns; a message restored after a failed
   * turn must not take that turn's. */
  if (tb_message_get_role (message) != TB_MESSAGE_ROLE_ASSISTANT)
    n = 0;
  for (guint i = n; i > 0; i--)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i - 1);
      const char *type = tb_trace_event_get_event_type (event);

      if (g_str_equal (type, "message"))
        break;
      if (g_str_equal (type, "request") || g_str_equal (type, "response"))
        g_ptr_array_insert (wire, 0, event);
    }
  for (guint i = 0; i < wire->len; i++)
    {
      TbTraceEvent *event = g_ptr_array_index (wire, i);
      JsonObject *payload = tb_trace_event_get_payload (event);
      JsonNode *body = json_object_get_member (payload, "body");
      g_autofree char *body_text = NULL;

      if (body != NULL && JSON_NODE_HOLDS_VALUE (body)
          && json_node_get_value_type (body) == G_TYPE_STRING)
        body_text = tb_redactor_redact_text (redactor, json_node_get_string (body));
      else
        {
          g_autoptr(JsonNode) clean = body != NULL ? tb_redactor_redact_node (redactor, body)
                                                   : NULL;

          body_text = json_text (clean);
        }
      g_string_append_printf (text, "\n\n%s\n%s",
                              g_str_equal (tb_trace_event_get_event_type (event), "request")
                              ? _("Request on the wire") : _("Response on the wire"),
                              body_text);
    }
  return g_string_free (text, FALSE);
}

/* For a tool's result, what was decided about its call when a person
 * (or a rejecting policy) changed what the model asked for: the result
 * alone does not say that the model was told something else. */
static char *
decision_note (TbMessage *message,
               TbTrace   *trace)
{
  const char *call_id = tb_message_get_tool_call_id (message);

  if (tb_message_get_role (message) != TB_MESSAGE_ROLE_TOOL || call_id == NULL)
    return NULL;
  for (guint i = tb_trace_get_n_events (trace); i > 0; i--)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i - 1);
      JsonObject *payload = tb_trace_event_get_payload (event);
      const char *decision;

      if (!g_str_equal (tb_trace_event_get_event_type (event), "decision")
          || g_strcmp0 (tb_json_object_get_string (payload, "call_id"), call_id) != 0)
        continue;
      decision = tb_json_object_get_string (payload, "decision");
      if (g_strcmp0 (decision, "edit") == 0)
        {
          JsonNode *ran = json_object_get_member (payload, "arguments");
          JsonNode *sent = json_object_get_member (payload, "model_arguments");
          g_autofree char *ran_text = ran != NULL ? tb_json_to_string (ran, FALSE) : NULL;
          g_autofree char *sent_text = sent != NULL ? tb_json_to_string (sent, FALSE)
                                                    : g_strdup (_("(not JSON)"));

          return g_strdup_printf (_("Edited by you: ran with %s instead of %s"),
                                  ran_text != NULL ? ran_text : "", sent_text);
        }
      if (g_strcmp0 (decision, "skip") == 0)
        return g_strdup (_("Skipped by you: the model was told your result, the tool did not run"));
      if (g_strcmp0 (decision, "reject") == 0)
        return g_strcmp0 (tb_json_object_get_string (payload, "by"), "policy") == 0
               ? g_strdup (_("Rejected by the run's policy: the model was told, the tool did "
                             "not run"))
               : g_strdup (_("Rejected by you: the model was told you declined, the tool did "
                             "not run"));
      return NULL;
    }
  return NULL;
}

/**
 * tb_message_row_new_for_message:
 * @message: a message of a run's conversation
 * @trace: the run's trace, with the wire bodies and decisions of its turn
 * @redactor: what hides the provider's key in the wire bodies
 *
 * Returns: (transfer floating): a new row saying what @message says
 */
GtkWidget *
tb_message_row_new_for_message (TbMessage  *message,
                                TbTrace    *trace,
                                TbRedactor *redactor)
{
  g_autofree char *summary = NULL;
  g_autofree char *note = NULL;
  g_autofree char *wire = NULL;
  TbMessageRowKind kind = TB_MESSAGE_ROW_PLAIN;
  TbMessageRow *row;

  g_return_val_if_fail (TB_IS_MESSAGE (message), NULL);
  g_return_val_if_fail (TB_IS_TRACE (trace), NULL);
  g_return_val_if_fail (TB_IS_REDACTOR (redactor), NULL);

  summary = message_summary (message);
  note = decision_note (message, trace);
  wire = message_wire_json (message, trace, redactor);
  if (tb_message_get_role (message) == TB_MESSAGE_ROLE_TOOL && tb_message_get_is_error (message))
    kind = TB_MESSAGE_ROW_ERROR;
  else if (tb_message_get_role (message) == TB_MESSAGE_ROLE_ASSISTANT)
    kind = TB_MESSAGE_ROW_MODEL;
  row = TB_MESSAGE_ROW (message_row_new (summary, note, wire, kind));
  /* What the model thought, collapsed: it can be long, and it is not what
   * the model said. */
  if (tb_message_get_reasoning (message) != NULL)
    {
      row->reasoning = tb_text_escape_controls (tb_message_get_reasoning (message), -1);
      gtk_label_set_label (row->reasoning_label, row->reasoning);
      gtk_widget_set_visible (GTK_WIDGET (row->reasoning_expander), TRUE);
    }
  return GTK_WIDGET (row);
}

/**
 * tb_message_row_get_reasoning:
 * @self: a message row
 *
 * Returns: (nullable): the reasoning its collapsed expander shows
 *   (control characters shown), %NULL when the turn had none
 */
const char *
tb_message_row_get_reasoning (TbMessageRow *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE_ROW (self), NULL);
  return self->reasoning;
}

/**
 * tb_message_row_get_summary:
 * @self: a message row
 *
 * Returns: what the row says (control characters shown)
 */
const char *
tb_message_row_get_summary (TbMessageRow *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE_ROW (self), NULL);
  return self->summary;
}

/**
 * tb_message_row_get_json:
 * @self: a message row
 *
 * Returns: the JSON its expander shows (control characters shown)
 */
const char *
tb_message_row_get_json (TbMessageRow *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE_ROW (self), NULL);
  return self->json;
}
