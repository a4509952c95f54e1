/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-dialogs"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-elicitation-dialog.h"
#include "tb-mcp-dialogs.h"

/* MCP servers asking the person: an `elicitation/create` request becomes a
 * dialog with a form generated from its requested schema (the Tool page's
 * argument editor) and Accept / Decline / Cancel; a `sampling/createMessage`
 * request shows the messages the server wants completed and lets the person
 * write the answer, or decline. Closing a dialog cancels; a request the
 * server withdraws closes its dialog without an answer. Nothing is answered
 * without the person. */

#define OPEN_DIALOG_KEY "tb-mcp-open-dialog"

static void
on_withdrawn (TbMcpServerRequest *request,
              AdwMessageDialog   *dialog)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
forget_dialog (AdwMessageDialog *dialog)
{
  TbMcpServerRequest *request = g_object_get_data (G_OBJECT (dialog), "tb-request");
  GtkWindow *parent = g_object_get_data (G_OBJECT (dialog), "tb-parent");

  if (request != NULL)
    g_signal_handlers_disconnect_by_func (request, on_withdrawn, dialog);
  if (parent != NULL && g_object_get_data (G_OBJECT (parent), OPEN_DIALOG_KEY) == dialog)
    g_object_set_data (G_OBJECT (parent), OPEN_DIALOG_KEY, NULL);
}

static const char *
server_name (TbMcpServerRequest *request)
{
  TbMcpClient *client = tb_mcp_server_request_get_client (request);

  return client != NULL ? tb_mcp_client_get_name (client) : "?";
}

static AdwMessageDialog *
dialog_new (GtkWindow          *parent,
            TbMcpServerRequest *request,
            const char         *heading,
            const char         *body)
{
  /* Both may quote the server; its control characters show as escapes. */
  g_autofree char *shown_heading = tb_text_escape_controls (heading, -1);
  g_autofree char *shown_body = body != NULL ? tb_text_escape_controls (body, -1) : NULL;
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, shown_heading,
                                                                         shown_body));

  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  g_object_set_data_full (G_OBJECT (dialog), "tb-request", g_object_ref (request),
                          g_object_unref);
  g_signal_connect_object (request, "withdrawn", G_CALLBACK (on_withdrawn), dialog, 0);
  g_signal_connect (dialog, "destroy", G_CALLBACK (forget_dialog), NULL);
  if (parent != NULL)
    {
      /* The dialog lives no longer than its parent. */
      g_object_set_data (G_OBJECT (parent), OPEN_DIALOG_KEY, dialog);
      g_object_set_data (G_OBJECT (dialog), "tb-parent", parent);
      gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
    }
  return dialog;
}

/* A scroller that grows with its content up to what fits on @parent's
 * screen, then scrolls. */
static GtkWidget *
fitting_scroller_new (GtkWindow *parent,
                      GtkWidget *child)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), child);
  gtk_widget_set_name (scroller, "dialog-content");
  return scroller;
}

static GtkWidget *
message_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (NULL);

  tb_label_set_outside_text (GTK_LABEL (label), text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return label;
}

/* Sampling. */

static void on_ask_clicked (GtkButton        *button,
                            AdwMessageDialog *dialog);

static char *
sampling_messages_text (TbMcpServerRequest *request)
{
  JsonNode *params = tb_mcp_server_request_get_params (request);
  GString *text = g_string_new (NULL);
  JsonObject *object;
  JsonArray *messages;
  const char *system;

  if (params == NULL || !JSON_NODE_HOLDS_OBJECT (params))
    return g_string_free (text, FALSE);
  object = json_node_get_object (params);
  system = tb_json_object_get_string (object, "systemPrompt");
  if (system != NULL)
    g_string_append_printf (text, _("System: %s\n"), system);
  messages = tb_json_object_get_array (object, "messages");
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
on_sampling_response (AdwMessageDialog *dialog,
                      const char       *response,
                      gpointer          user_data)
{
  TbMcpServerRequest *request = g_object_get_data (G_OBJECT (dialog), "tb-request");

  if (tb_mcp_server_request_is_answered (request))
    return;
  if (g_str_equal (response, "send"))
    {
      GtkTextBuffer *buffer = tb_sampling_dialog_get_answer (dialog);
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) result = NULL;
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
      result = json_builder_get_root (builder);
      tb_mcp_server_request_respond (request, result);
    }
  else
    tb_mcp_server_request_decline (request);
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
set_status (AdwMessageDialog *dialog,
            const char       *text)
{
  gtk_label_set_text (GTK_LABEL (g_object_get_data (G_OBJECT (dialog), "tb-status")), text);
}

static void
ask_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(AdwMessageDialog) dialog = user_data;
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *ask = g_object_get_data (G_OBJECT (dialog), "tb-ask");

  response = tb_provider_complete_finish (TB_PROVIDER (object), result, &error);
  gtk_widget_set_sensitive (ask, TRUE);
  if (response == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The model did not answer: %s"), error->message);

      set_status (dialog, text);
      return;
    }

  gtk_text_buffer_set_text (tb_sampling_dialog_get_answer (dialog),
                            tb_message_get_text (response->message) ?: "", -1);
  set_status (dialog, _("This is the model's answer. Read it, change it if you like, then send "
                        "it or decline."));
}

static void
on_ask_clicked (GtkButton        *button,
                AdwMessageDialog *dialog)
{
  TbMcpServerRequest *request = g_object_get_data (G_OBJECT (dialog), "tb-request");
  TbProvider *provider = g_object_get_data (G_OBJECT (dialog), "tb-provider");
  JsonNode *params = tb_mcp_server_request_get_params (request);
  JsonObject *object = params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                       ? json_node_get_object (params) : NULL;
  JsonArray *messages = tb_json_object_get_array (object, "messages");
  const char *system = tb_json_object_get_string (object, "systemPrompt");
  g_autoptr(TbProviderRequest) provider_request = tb_provider_request_new ();
  g_autoptr(GError) error = NULL;
  gint64 max_tokens = 0;

  if (provider == NULL)
    return;

  /* The request's limit is a guint: 4294967296 must not become 0. */
  if (!tb_json_object_get_int_in_range (object, "maxTokens", 1, G_MAXUINT, &max_tokens, &error))
    {
      g_autofree char *status = g_strdup_printf (_("The server’s request cannot be sent to the "
                                                   "model: %s"), error->message);

      set_status (dialog, status);
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

  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  set_status (dialog, _("Asking the model…"));
  tb_provider_complete_async (provider, provider_request, NULL, ask_done, g_object_ref (dialog));
}

/**
 * tb_sampling_dialog_set_provider:
 * @dialog: a dialog from tb_sampling_dialog_new()
 * @provider: (nullable): the model the person may ask to draft the answer
 */
void
tb_sampling_dialog_set_provider (AdwMessageDialog *dialog,
                                 TbProvider       *provider)
{
  g_object_set_data_full (G_OBJECT (dialog), "tb-provider",
                          provider != NULL ? g_object_ref (provider) : NULL,
                          provider != NULL ? g_object_unref : NULL);
  gtk_widget_set_visible (tb_sampling_dialog_get_ask_button (dialog), provider != NULL);
}

/**
 * tb_sampling_dialog_get_ask_button:
 *
 * Returns: (transfer none): the "Ask the Model" button
 */
GtkWidget *
tb_sampling_dialog_get_ask_button (AdwMessageDialog *dialog)
{
  return g_object_get_data (G_OBJECT (dialog), "tb-ask");
}

/**
 * tb_sampling_dialog_get_status:
 *
 * Returns: what the dialog says about asking the model ("" before)
 */
const char *
tb_sampling_dialog_get_status (AdwMessageDialog *dialog)
{
  return gtk_label_get_text (GTK_LABEL (g_object_get_data (G_OBJECT (dialog), "tb-status")));
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
  g_autofree char *messages = NULL;
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label;
  GtkWidget *view = gtk_text_view_new ();
  GtkWidget *frame = gtk_frame_new (NULL);

  g_return_val_if_fail (TB_IS_MCP_SERVER_REQUEST (request), NULL);

  messages = sampling_messages_text (request);
  heading = g_strdup_printf (_("“%s” Asks for a Model's Answer"), server_name (request));
  dialog = dialog_new (parent, request, heading,
                       _("Write the answer yourself, ask the model to draft it, or decline. "
                         "Nothing is sent until you press Send."));
  label = message_label_new (messages);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_widget_set_size_request (view, 360, 100);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Your answer"), -1);
  gtk_frame_set_child (GTK_FRAME (frame), view);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), frame);
  {
    GtkWidget *ask = gtk_button_new_with_label (_("Ask the Model"));
    GtkWidget *status = gtk_label_new (NULL);

    /* Shown once a model is there to ask (tb_sampling_dialog_set_provider()). */
    gtk_widget_set_visible (ask, FALSE);
    gtk_widget_set_halign (ask, GTK_ALIGN_START);
    gtk_widget_set_name (ask, "sampling-ask");
    gtk_widget_set_tooltip_text (ask, _("Send these messages to the model of the Loop page and "
                                        "put its answer here for you to read before sending"));
    gtk_label_set_xalign (GTK_LABEL (status), 0);
    gtk_label_set_wrap (GTK_LABEL (status), TRUE);
    gtk_widget_add_css_class (status, "dim-label");
    gtk_box_append (GTK_BOX (box), ask);
    gtk_box_append (GTK_BOX (box), status);
    g_object_set_data (G_OBJECT (dialog), "tb-ask", ask);
    g_object_set_data (G_OBJECT (dialog), "tb-status", status);
    g_signal_connect (ask, "clicked", G_CALLBACK (on_ask_clicked), dialog);
  }
  /* The server's messages may be long; they scroll, the responses stay. */
  adw_message_dialog_set_extra_child (dialog, fitting_scroller_new (parent, box));
  tb_dialog_fit_content (GTK_WINDOW (dialog),
                         GTK_SCROLLED_WINDOW (adw_message_dialog_get_extra_child (dialog)));
  g_object_set_data (G_OBJECT (dialog), "tb-messages", label);
  g_object_set_data (G_OBJECT (dialog), "tb-answer", gtk_text_view_get_buffer (
                                                       GTK_TEXT_VIEW (view)));

  adw_message_dialog_add_responses (dialog,
                                    "decline", _("_Decline"),
                                    "send", _("_Send Answer"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "send", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_close_response (dialog, "decline");
  g_signal_connect (dialog, "response", G_CALLBACK (on_sampling_response), NULL);
  return dialog;
}

const char *
tb_sampling_dialog_get_messages_text (AdwMessageDialog *dialog)
{
  GtkLabel *label = g_object_get_data (G_OBJECT (dialog), "tb-messages");

  return label != NULL ? gtk_label_get_label (label) : NULL;
}

/**
 * tb_sampling_dialog_get_answer:
 * @dialog: a dialog from tb_sampling_dialog_new()
 *
 * Returns: (transfer none): the buffer of the person's answer
 */
GtkTextBuffer *
tb_sampling_dialog_get_answer (AdwMessageDialog *dialog)
{
  return g_object_get_data (G_OBJECT (dialog), "tb-answer");
}

/**
 * tb_mcp_dialog_get_content:
 * @dialog: a dialog from tb_sampling_dialog_new()
 *
 * Returns: (transfer none): the #GtkScrolledWindow holding what the server
 *   sent and the person's answer; it scrolls once the screen is full
 */
GtkScrolledWindow *
tb_mcp_dialog_get_content (AdwMessageDialog *dialog)
{
  g_return_val_if_fail (ADW_IS_MESSAGE_DIALOG (dialog), NULL);

  return GTK_SCROLLED_WINDOW (adw_message_dialog_get_extra_child (dialog));
}

/* Wiring a client to a window. */

static gboolean
on_elicitation (TbMcpClient        *client,
                TbMcpServerRequest *request,
                GtkWindow          *window)
{
  AdwMessageDialog *dialog = tb_elicitation_dialog_new (window, request);

  g_object_set_data (G_OBJECT (window), OPEN_DIALOG_KEY, dialog);
  g_object_set_data (G_OBJECT (dialog), "tb-parent", window);
  g_signal_connect (dialog, "destroy", G_CALLBACK (forget_dialog), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

typedef struct
{
  TbMcpProviderFunc func;
  gpointer          user_data;
} ProviderFunc;

/**
 * tb_mcp_dialogs_set_provider_func:
 * @window: a window with attached clients
 * @func: (nullable): gives the model a sampling dialog may ask
 * @user_data: closure for @func
 */
void
tb_mcp_dialogs_set_provider_func (GtkWindow         *window,
                                  TbMcpProviderFunc  func,
                                  gpointer           user_data)
{
  ProviderFunc *provider_func = NULL;

  g_return_if_fail (GTK_IS_WINDOW (window));

  if (func != NULL)
    {
      provider_func = g_new0 (ProviderFunc, 1);
      provider_func->func = func;
      provider_func->user_data = user_data;
    }
  g_object_set_data_full (G_OBJECT (window), "tb-mcp-provider-func", provider_func, g_free);
}

static gboolean
on_sampling (TbMcpClient        *client,
             TbMcpServerRequest *request,
             GtkWindow          *window)
{
  AdwMessageDialog *dialog = tb_sampling_dialog_new (window, request);
  ProviderFunc *provider_func = g_object_get_data (G_OBJECT (window), "tb-mcp-provider-func");

  if (provider_func != NULL)
    {
      g_autoptr(TbProvider) provider = provider_func->func (window, provider_func->user_data);

      tb_sampling_dialog_set_provider (dialog, provider);
    }
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/**
 * tb_mcp_dialogs_attach:
 * @window: the window the dialogs belong to
 * @client: an MCP client
 *
 * Answers the client's elicitation and sampling requests through dialogs
 * on @window, for as long as the window lives. Set the client's
 * capabilities so that the server knows it may ask.
 */
void
tb_mcp_dialogs_attach (GtkWindow   *window,
                       TbMcpClient *client)
{
  g_return_if_fail (GTK_IS_WINDOW (window));
  g_return_if_fail (TB_IS_MCP_CLIENT (client));

  g_signal_connect_object (client, "elicitation-requested", G_CALLBACK (on_elicitation),
                           window, 0);
  g_signal_connect_object (client, "sampling-requested", G_CALLBACK (on_sampling), window, 0);
}

/**
 * tb_mcp_dialogs_get_open:
 * @window: a window
 *
 * Returns: (transfer none) (nullable): the request dialog open on @window
 */
AdwMessageDialog *
tb_mcp_dialogs_get_open (GtkWindow *window)
{
  return g_object_get_data (G_OBJECT (window), OPEN_DIALOG_KEY);
}

static void
on_client_started (TbToolSources *sources,
                   TbMcpClient   *client,
                   GtkWindow     *window)
{
  tb_mcp_dialogs_attach (window, client);
}

/**
 * tb_mcp_dialogs_attach_sources:
 * @window: the window the dialogs belong to
 * @sources: the MCP servers of the preferences
 *
 * Answers the requests of every server @sources runs, and of those it
 * starts later (added, enabled or changed in the preferences), through
 * dialogs of @window, for as long as @window exists.
 */
void
tb_mcp_dialogs_attach_sources (GtkWindow     *window,
                               TbToolSources *sources)
{
  g_autoptr(GList) clients = NULL;

  g_return_if_fail (GTK_IS_WINDOW (window));
  g_return_if_fail (TB_IS_TOOL_SOURCES (sources));

  clients = tb_tool_sources_list_clients (sources);
  for (GList *l = clients; l != NULL; l = l->next)
    tb_mcp_dialogs_attach (window, l->data);
  g_signal_connect_object (sources, "client-started", G_CALLBACK (on_client_started), window,
                           0);
}
