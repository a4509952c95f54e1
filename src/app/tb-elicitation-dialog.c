/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-elicitation-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-elicitation-dialog-private.h"

/* An MCP server's `elicitation/create` request, asked of the person: the
 * server's message and a form generated from its requested schema (the
 * Tool page's argument editor), with Accept (only while the values are
 * valid), Decline and Cancel. Closing the dialog cancels; a request the
 * server withdraws closes the dialog without an answer. Nothing is
 * answered without the person. */

/* Characters of a server's message shown as the dialog's body. */
#define LONG_MESSAGE 300

struct _TbElicitationDialog
{
  AdwMessageDialog    parent_instance;

  GtkScrolledWindow  *content;
  GtkTextView        *message_view;
  GtkLabel           *reason_label;
  TbArgumentEditor   *editor;

  TbMcpServerRequest *request;
  /* Whether the form could be built from the requested schema. */
  gboolean            usable;
};

G_DEFINE_FINAL_TYPE (TbElicitationDialog, tb_elicitation_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum { PROP_0, PROP_REQUEST, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
update_accept (TbElicitationDialog *self)
{
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "accept",
                                           self->usable
                                           && tb_argument_editor_get_valid (self->editor));
}

static void
fit_content (TbElicitationDialog *self)
{
  tb_dialog_fit_content (GTK_WINDOW (self), self->content);
}

static void
on_withdrawn (TbElicitationDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
show_request (TbElicitationDialog *self)
{
  JsonNode *params = tb_mcp_server_request_get_params (self->request);
  JsonObject *object = params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                       ? json_node_get_object (params) : NULL;
  JsonNode *schema = object != NULL ? json_object_get_member (object, "requestedSchema") : NULL;
  const char *message = tb_json_object_get_string (object, "message");
  TbMcpClient *client = tb_mcp_server_request_get_client (self->request);
  g_autoptr(JsonNode) defaults = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *shown = NULL;

  /* Translators: %s is the name of the MCP server that asks. */
  heading = g_strdup_printf (_("“%s” Asks You"),
                             client != NULL ? tb_mcp_client_get_name (client) : "?");
  /* The server's words; its control characters show as escapes. */
  shown = tb_text_escape_controls (heading, -1);
  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), shown);
  if (message == NULL)
    message = _("The server asks for some values.");
  /* A short message is the dialog's body; a long one scrolls with the
   * form, so however long either is, the responses stay on the screen. */
  if (g_utf8_strlen (message, -1) <= LONG_MESSAGE)
    {
      g_autofree char *body = tb_text_escape_controls (message, -1);

      adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), body);
    }
  else
    {
      g_autofree char *escaped = tb_text_escape_controls (message, -1);

      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->message_view), escaped, -1);
      gtk_widget_set_visible (GTK_WIDGET (self->message_view), TRUE);
    }

  defaults = tb_mcp_elicitation_defaults (schema);
  self->usable = tb_argument_editor_set_schema (self->editor, schema, defaults, &error);
  if (!self->usable)
    {
      /* The person still sees what was asked, and why there is no form;
       * only Decline and Cancel can answer. */
      g_autofree char *reason = g_strdup_printf (_("The requested values cannot be shown: %s"),
                                                 error->message);

      tb_label_set_outside_text (self->reason_label, reason);
      gtk_widget_set_visible (GTK_WIDGET (self->reason_label), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->editor), FALSE);
    }
  update_accept (self);
}

static void
tb_elicitation_dialog_response (AdwMessageDialog *dialog,
                                const char       *response)
{
  TbElicitationDialog *self = TB_ELICITATION_DIALOG (dialog);

  if (!tb_mcp_server_request_is_answered (self->request))
    {
      if (g_str_equal (response, "accept"))
        {
          g_autoptr(JsonNode) content = tb_argument_editor_get_arguments (self->editor);

          tb_mcp_server_request_accept (self->request, content);
        }
      else if (g_str_equal (response, "decline"))
        tb_mcp_server_request_decline (self->request);
      else
        tb_mcp_server_request_cancel (self->request);
    }

  if (ADW_MESSAGE_DIALOG_CLASS (tb_elicitation_dialog_parent_class)->response != NULL)
    ADW_MESSAGE_DIALOG_CLASS (tb_elicitation_dialog_parent_class)->response (dialog, response);
}

static void
tb_elicitation_dialog_constructed (GObject *object)
{
  TbElicitationDialog *self = (TbElicitationDialog *) object;

  G_OBJECT_CLASS (tb_elicitation_dialog_parent_class)->constructed (object);

  g_assert (TB_IS_MCP_SERVER_REQUEST (self->request));
  g_signal_connect_object (self->request, "withdrawn", G_CALLBACK (on_withdrawn), self,
                           G_CONNECT_SWAPPED);
  show_request (self);
  fit_content (self);
}

static void
tb_elicitation_dialog_dispose (GObject *object)
{
  TbElicitationDialog *self = (TbElicitationDialog *) object;

  /* Withdrawn after the dialog was closed: nothing left to close. */
  if (self->request != NULL)
    g_signal_handlers_disconnect_by_data (self->request, self);
  g_clear_object (&self->request);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_ELICITATION_DIALOG);

  G_OBJECT_CLASS (tb_elicitation_dialog_parent_class)->dispose (object);
}

static void
tb_elicitation_dialog_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TbElicitationDialog *self = TB_ELICITATION_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_value_set_object (value, self->request);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_elicitation_dialog_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  TbElicitationDialog *self = TB_ELICITATION_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      self->request = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_elicitation_dialog_class_init (TbElicitationDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwMessageDialogClass *dialog_class = ADW_MESSAGE_DIALOG_CLASS (klass);

  object_class->constructed = tb_elicitation_dialog_constructed;
  object_class->dispose = tb_elicitation_dialog_dispose;
  object_class->get_property = tb_elicitation_dialog_get_property;
  object_class->set_property = tb_elicitation_dialog_set_property;
  dialog_class->response = tb_elicitation_dialog_response;

  /**
   * TbElicitationDialog:request:
   *
   * The `elicitation/create` request the dialog answers.
   */
  properties [PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL, TB_TYPE_MCP_SERVER_REQUEST,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TB_TYPE_ARGUMENT_EDITOR);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-elicitation-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TbElicitationDialog, content);
  gtk_widget_class_bind_template_child (widget_class, TbElicitationDialog, message_view);
  gtk_widget_class_bind_template_child (widget_class, TbElicitationDialog, reason_label);
  gtk_widget_class_bind_template_child (widget_class, TbElicitationDialog, editor);
  gtk_widget_class_bind_template_callback (widget_class, update_accept);
}

static void
tb_elicitation_dialog_init (TbElicitationDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The room the content has depends on the window the dialog is for. */
  g_signal_connect (self, "notify::transient-for", G_CALLBACK (fit_content), NULL);
}

/**
 * tb_elicitation_dialog_new:
 * @parent: (nullable): the window it belongs to
 * @request: an `elicitation/create` request
 *
 * Returns: (transfer floating): the dialog, not yet presented
 */
AdwMessageDialog *
tb_elicitation_dialog_new (GtkWindow          *parent,
                           TbMcpServerRequest *request)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (TB_IS_MCP_SERVER_REQUEST (request), NULL);

  return g_object_new (TB_TYPE_ELICITATION_DIALOG,
                       "transient-for", parent,
                       "request", request,
                       NULL);
}

/**
 * tb_elicitation_dialog_get_editor:
 * @self: an elicitation dialog
 *
 * Returns: (transfer none): the form of the requested values
 */
TbArgumentEditor *
tb_elicitation_dialog_get_editor (TbElicitationDialog *self)
{
  g_return_val_if_fail (TB_IS_ELICITATION_DIALOG (self), NULL);

  return self->editor;
}

/* The server's message as the dialog shows it: its body when short, else
 * the text under it. */
char *
tb_elicitation_dialog_dup_message (TbElicitationDialog *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_ELICITATION_DIALOG (self), NULL);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->message_view)))
    return g_strdup (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (self)));
  buffer = gtk_text_view_get_buffer (self->message_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * tb_elicitation_dialog_get_content:
 * @self: an elicitation dialog
 *
 * Returns: (transfer none): the scrolled window holding what the server
 *   sent and the form; it scrolls once the screen is full
 */
GtkScrolledWindow *
tb_elicitation_dialog_get_content (TbElicitationDialog *self)
{
  g_return_val_if_fail (TB_IS_ELICITATION_DIALOG (self), NULL);

  return self->content;
}
