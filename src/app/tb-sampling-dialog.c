/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-sampling-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-sampling-dialog-private.h"

/* An MCP server's `sampling/createMessage` request, asked of the person:
 * the messages the server wants completed, an answer the person writes
 * (or asks the model of the Loop page to draft, then reads and changes),
 * Send Answer or Decline. Closing the dialog declines; a request the
 * server withdraws closes the dialog without an answer. Nothing reaches
 * the server before Send. */

struct _TbSamplingDialog
{
  AdwMessageDialog    parent_instance;

  GtkScrolledWindow  *content;
  GtkLabel           *messages_label;
  GtkTextView        *answer_view;
  GtkWidget          *ask_button;
  GtkLabel           *status_label;

  TbMcpServerRequest *request;
  TbProvider         *provider;
  /* Whether the model is drafting the answer. */
  gboolean            asking;
};

G_DEFINE_FINAL_TYPE (TbSamplingDialog, tb_sampling_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum { PROP_0, PROP_REQUEST, PROP_PROVIDER, N_PROPS };
static GParamSpec *properties [N_PROPS];

static JsonObject *
request_params (TbSamplingDialog *self)
{
  JsonNode *params = tb_mcp_server_request_get_params (self->request);

  return params != NULL && JSON_NODE_HOLDS_OBJECT (params) ? json_node_get_object (params)
                                                           : NULL;
}

static char *
messages_text (JsonObject *params)
{
  GString *text = g_string_new (NULL);
  JsonArray *messages = tb_json_object_get_array (params, "messages");
  const char *system = tb_json_object_get_string (params, "systemPrompt");

  if (system != NULL)
    g_string_append_printf (text, _("System: %s\n"), system);
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *content = message != NULL ? tb_json_object_get_object (message, "content")
                                            : NULL;
      const char *role = message != NULL ? tb_json_object_get_string (message, "role") : NULL;
      const char *body = content != NULL ? tb_json_object_get_string (content, "text") : NULL;
      g_autofree char *other = NULL;

      if (body == NULL)
        body = other = tb_json_to_string (node, FALSE);
      g_string_append_printf (text, "%s: %s\n", role != NULL ? role : "?", body);
    }
  return g_string_free (text, FALSE);
}

static void
update_ask (TbSamplingDialog *self)
{
  gtk_widget_set_visible (self->ask_button, self->provider != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sampling.ask",
                                 self->provider != NULL && !self->asking);
}

static void
fit_content (TbSamplingDialog *self)
{
  tb_dialog_fit_content (GTK_WINDOW (self), self->content);
}

static void
on_withdrawn (TbSamplingDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

/* Asking the model: the server's messages go to the provider as they are,
 * and its answer lands in the editable answer for the person to review. */

static TbMessage *
sampling_message (JsonObject *message)
{
  const char *role = tb_json_object_get_string (message, "role");
  JsonObject *content = tb_json_object_get_object (message, "content");
  const char *text = tb_json_object_get_string (content, "text");

  if (text == NULL)
    return NULL;
  return tb_message_new (g_strcmp0 (role, "assistant") == 0 ? TB_MESSAGE_ROLE_ASSISTANT
                                                            : TB_MESSAGE_ROLE_USER, text);
}

static void
ask_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TbSamplingDialog) self = user_data;
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = tb_provider_complete_finish (TB_PROVIDER (object), result, &error);
  self->asking = FALSE;
  /* Closed and disposed while the model drafted: nothing shows the answer. */
  if (self->answer_view == NULL)
    return;
  update_ask (self);
  if (response == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The model did not answer: %s"), error->message);

      gtk_label_set_text (self->status_label, text);
      return;
    }

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->answer_view),
                            tb_message_get_text (response->message) ?: "", -1);
  gtk_label_set_text (self->status_label,
                      _("This is the model's answer. Read it, change it if you like, then send "
                        "it or decline."));
}

static void
ask_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  TbSamplingDialog *self = TB_SAMPLING_DIALOG (widget);
  JsonObject *params = request_params (self);
  JsonArray *messages = tb_json_object_get_array (params, "messages");
  const char *system = tb_json_object_get_string (params, "systemPrompt");
  g_autoptr(TbProviderRequest) provider_request = tb_provider_request_new ();
  g_autoptr(GError) error = NULL;
  gint64 max_tokens = 0;

  if (self->provider == NULL || self->asking)
    return;

  /* The request's limit is a guint: 4294967296 must not become 0. */
  if (!tb_json_object_get_int_in_range (params, "maxTokens", 1, G_MAXUINT, &max_tokens, &error))
    {
      g_autofree char *status = g_strdup_printf (_("The server’s request cannot be sent to the "
                                                   "model: %s"), error->message);

      gtk_label_set_text (self->status_label, status);
      return;
    }

  if (system != NULL)
    {
      g_autoptr(TbMessage) message = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, system);

      tb_provider_request_add_message (provider_request, message);
    }
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      g_autoptr(TbMessage) message = JSON_NODE_HOLDS_OBJECT (node)
                                     ? sampling_message (json_node_get_object (node)) : NULL;

      if (message != NULL)
        tb_provider_request_add_message (provider_request, message);
    }
  provider_request->max_tokens = (guint) max_tokens;

  self->asking = TRUE;
  update_ask (self);
  gtk_label_set_text (self->status_label, _("Asking the model…"));
  tb_provider_complete_async (self->provider, provider_request, NULL, ask_done,
                              g_object_ref (self));
}

static JsonNode *
answer_result (TbSamplingDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->answer_view);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *answer = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  answer = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "assistant");
  json_builder_set_member_name (builder, "content");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "text");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, answer);
  json_builder_end_object (builder);
  /* The answer was written by a person, not a model. */
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, "person");
  json_builder_set_member_name (builder, "stopReason");
  json_builder_add_string_value (builder, "endTurn");
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static void
tb_sampling_dialog_response (AdwMessageDialog *dialog,
                             const char       *response)
{
  TbSamplingDialog *self = TB_SAMPLING_DIALOG (dialog);

  if (!tb_mcp_server_request_is_answered (self->request))
    {
      if (g_str_equal (response, "send"))
        {
          g_autoptr(JsonNode) result = answer_result (self);

          tb_mcp_server_request_respond (self->request, result);
        }
      else
        tb_mcp_server_request_decline (self->request);
    }

  if (ADW_MESSAGE_DIALOG_CLASS (tb_sampling_dialog_parent_class)->response != NULL)
    ADW_MESSAGE_DIALOG_CLASS (tb_sampling_dialog_parent_class)->response (dialog, response);
}

static void
tb_sampling_dialog_constructed (GObject *object)
{
  TbSamplingDialog *self = (TbSamplingDialog *) object;
  TbMcpClient *client;
  g_autofree char *heading = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *messages = NULL;

  G_OBJECT_CLASS (tb_sampling_dialog_parent_class)->constructed (object);

  g_assert (TB_IS_MCP_SERVER_REQUEST (self->request));
  g_signal_connect_object (self->request, "withdrawn", G_CALLBACK (on_withdrawn), self,
                           G_CONNECT_SWAPPED);

  client = tb_mcp_server_request_get_client (self->request);
  /* Translators: %s is the name of the MCP server that asks. */
  heading = g_strdup_printf (_("“%s” Asks for a Model's Answer"),
                             client != NULL ? tb_mcp_client_get_name (client) : "?");
  /* It quotes the server; its control characters show as escapes. */
  shown = tb_text_escape_controls (heading, -1);
  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), shown);
  messages = messages_text (request_params (self));
  tb_label_set_outside_text (self->messages_label, messages);
  fit_content (self);
}

static void
tb_sampling_dialog_dispose (GObject *object)
{
  TbSamplingDialog *self = (TbSamplingDialog *) object;

  /* Withdrawn after the dialog was closed: nothing left to close. */
  if (self->request != NULL)
    g_signal_handlers_disconnect_by_data (self->request, self);
  g_clear_object (&self->request);
  g_clear_object (&self->provider);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_SAMPLING_DIALOG);

  G_OBJECT_CLASS (tb_sampling_dialog_parent_class)->dispose (object);
}

static void
tb_sampling_dialog_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TbSamplingDialog *self = TB_SAMPLING_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      g_value_set_object (value, self->request);
      break;
    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_sampling_dialog_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  TbSamplingDialog *self = TB_SAMPLING_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REQUEST:
      self->request = g_value_dup_object (value);
      break;
    case PROP_PROVIDER:
      tb_sampling_dialog_set_provider (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_sampling_dialog_class_init (TbSamplingDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwMessageDialogClass *dialog_class = ADW_MESSAGE_DIALOG_CLASS (klass);

  object_class->constructed = tb_sampling_dialog_constructed;
  object_class->dispose = tb_sampling_dialog_dispose;
  object_class->get_property = tb_sampling_dialog_get_property;
  object_class->set_property = tb_sampling_dialog_set_property;
  dialog_class->response = tb_sampling_dialog_response;

  /**
   * TbSamplingDialog:request:
   *
   * The `sampling/createMessage` request the dialog answers.
   */
  properties [PROP_REQUEST] =
    g_param_spec_object ("request", NULL, NULL, TB_TYPE_MCP_SERVER_REQUEST,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * TbSamplingDialog:provider:
   *
   * The model the person may ask to draft the answer; without one there
   * is no "Ask the Model".
   */
  properties [PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL, TB_TYPE_PROVIDER,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbSamplingDialog|sampling.ask:
   *
   * Sends the server's messages to the provider and puts its answer in
   * the editable answer; nothing goes to the server.
   */
  gtk_widget_class_install_action (widget_class, "sampling.ask", NULL, ask_action);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-sampling-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TbSamplingDialog, content);
  gtk_widget_class_bind_template_child (widget_class, TbSamplingDialog, messages_label);
  gtk_widget_class_bind_template_child (widget_class, TbSamplingDialog, answer_view);
  gtk_widget_class_bind_template_child (widget_class, TbSamplingDialog, ask_button);
  gtk_widget_class_bind_template_child (widget_class, TbSamplingDialog, status_label);
}

static void
tb_sampling_dialog_init (TbSamplingDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  update_ask (self);
  /* The room the content has depends on the window the dialog is for. */
  g_signal_connect (self, "notify::transient-for", G_CALLBACK (fit_content), NULL);
}

/**
 * tb_sampling_dialog_new:
 * @parent: (nullable): the window it belongs to
 * @request: a `sampling/createMessage` request
 *
 * Returns: (transfer floating): the dialog, not yet presented
 */
AdwMessageDialog *
tb_sampling_dialog_new (GtkWindow          *parent,
                        TbMcpServerRequest *request)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (TB_IS_MCP_SERVER_REQUEST (request), NULL);

  return g_object_new (TB_TYPE_SAMPLING_DIALOG,
                       "transient-for", parent,
                       "request", request,
                       NULL);
}

/**
 * tb_sampling_dialog_get_provider:
 * @self: a sampling dialog
 *
 * Returns: (transfer none) (nullable): the model the person may ask
 */
TbProvider *
tb_sampling_dialog_get_provider (TbSamplingDialog *self)
{
  g_return_val_if_fail (TB_IS_SAMPLING_DIALOG (self), NULL);

  return self->provider;
}

/**
 * tb_sampling_dialog_set_provider:
 * @self: a sampling dialog
 * @provider: (nullable): the model the person may ask to draft the answer
 */
void
tb_sampling_dialog_set_provider (TbSamplingDialog *self,
                                 TbProvider       *provider)
{
  g_return_if_fail (TB_IS_SAMPLING_DIALOG (self));
  g_return_if_fail (provider == NULL || TB_IS_PROVIDER (provider));

  if (g_set_object (&self->provider, provider))
    {
      update_ask (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PROVIDER]);
    }
}

/**
 * tb_sampling_dialog_get_messages_text:
 * @self: a sampling dialog
 *
 * Returns: the server's messages as the dialog shows them
 */
const char *
tb_sampling_dialog_get_messages_text (TbSamplingDialog *self)
{
  g_return_val_if_fail (TB_IS_SAMPLING_DIALOG (self), NULL);

  return gtk_label_get_label (self->messages_label);
}

/**
 * tb_sampling_dialog_get_answer:
 * @self: a sampling dialog
 *
 * Returns: (transfer none): the buffer of the person's answer
 */
GtkTextBuffer *
tb_sampling_dialog_get_answer (TbSamplingDialog *self)
{
  g_return_val_if_fail (TB_IS_SAMPLING_DIALOG (self), NULL);

  return gtk_text_view_get_buffer (self->answer_view);
}

/**
 * tb_sampling_dialog_get_ask_button:
 * @self: a sampling dialog
 *
 * Returns: (transfer none): the "Ask the Model" button
 */
GtkWidget *
tb_sampling_dialog_get_ask_button (TbSamplingDialog *self)
{
  g_return_val_if_fail (TB_IS_SAMPLING_DIALOG (self), NULL);

  return self->ask_button;
}

/**
 * tb_sampling_dialog_get_status:
 * @self: a sampling dialog
 *
 * Returns: what the dialog says about asking the model ("" before)
 */
const char *
tb_sampling_dialog_get_status (TbSamplingDialog *self)
{
  g_return_val_if_fail (TB_IS_SAMPLING_DIALOG (self), NULL);

  return gtk_label_get_text (self->status_label);
}
