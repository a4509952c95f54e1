/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "../mcp/mcp-test-util.h"
#include "tb-mcp-dialogs.h"

/* server-everything's sampling tool asks the client for a model's answer.
 * The dialog offers "Ask the Model": the model drafts, the person reads the
 * draft and sends it; nothing reaches the server before Send. */

typedef struct
{
  GtkWindow        *parent;
  AdwMessageDialog *dialog;
  gboolean          answered_early;
  char             *status;
} State;

static gboolean
click_later (gpointer data)
{
  g_signal_emit_by_name (data, "clicked");
  return G_SOURCE_REMOVE;
}

static gboolean
send_later (gpointer data)
{
  State *state = data;

  g_free (state->status);
  state->status = g_strdup (tb_sampling_dialog_get_status (state->dialog));
  adw_message_dialog_response (state->dialog, "send");
  return G_SOURCE_REMOVE;
}

static void
answer_changed (GtkTextBuffer *buffer,
                State         *state)
{
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_str_equal (text, "A drafted answer."))
    g_idle_add (send_later, state);
}

static gboolean
sampling_cb (TbMcpClient        *client,
             TbMcpServerRequest *request,
             State              *state)
{
  g_autoptr(JsonNode) script = tb_json_parse ("[{\"text\": \"A drafted answer.\"}]", -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, NULL);
  GtkWidget *ask;

  state->dialog = tb_sampling_dialog_new (state->parent, request);
  ask = tb_sampling_dialog_get_ask_button (state->dialog);
  g_assert_false (gtk_widget_get_visible (ask));
  tb_sampling_dialog_set_provider (state->dialog, TB_PROVIDER (provider));
  g_assert_true (gtk_widget_get_visible (ask));
  g_assert_nonnull (strstr (tb_sampling_dialog_get_messages_text (state->dialog),
                            "say something"));
  g_signal_connect (tb_sampling_dialog_get_answer (state->dialog), "changed",
                    G_CALLBACK (answer_changed), state);
  gtk_window_present (GTK_WINDOW (state->dialog));

  /* Drafting sends nothing to the server. */
  state->answered_early = tb_mcp_server_request_is_answered (request);
  g_idle_add (click_later, ask);
  return TRUE;
}

static gboolean
has_elicitation_tool (gpointer data)
{
  return tb_tool_registry_contains (data, "trigger-elicitation-request");
}

static gboolean
has_sampling_tool (gpointer data)
{
  return tb_tool_registry_contains (data, "trigger-sampling-request");
}

static void
test_ask_the_model (void)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  State state = { 0 };
  GtkWidget *parent;

  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }

  parent = gtk_window_new ();
  state.parent = GTK_WINDOW (parent);
  gtk_window_present (state.parent);

  client = tb_mcp_client_new_stdio ("everything", (const char * const *) argv, NULL, NULL);
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_SAMPLING);
  tb_mcp_client_attach (client, registry);
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);
  g_signal_connect (client, "sampling-requested", G_CALLBACK (sampling_cb), &state);
  /* The server adds its sampling tool once it knows the client can answer. */
  g_assert_true (mcp_test_wait (has_sampling_tool, registry, 10000));

  result = mcp_test_call (registry, "trigger-sampling-request",
                          "{\"prompt\":\"say something\",\"maxTokens\":20}", NULL);
  g_assert_false (state.answered_early);
  g_assert_nonnull (strstr (state.status, "model's answer"));
  g_assert_true (tb_tool_result_get_ok (result));
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "A drafted answer."));

  g_clear_pointer (&state.status, g_free);
  tb_mcp_client_disconnect (client);
  gtk_window_destroy (state.parent);
}

/* Elicitation through the dialog: the form comes from the server's
 * requested schema, the person fills it in, and only Accept answers. */

typedef struct
{
  GtkWindow        *parent;
  AdwMessageDialog *dialog;
  gboolean          answered_early;
  gboolean          valid;
} Elicit;

static gboolean
accept_later (gpointer data)
{
  Elicit *elicit = data;

  adw_message_dialog_response (elicit->dialog, "accept");
  return G_SOURCE_REMOVE;
}

static gboolean
elicitation_cb (TbMcpClient        *client,
                TbMcpServerRequest *request,
                Elicit             *elicit)
{
  TbArgumentEditor *editor;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) values = NULL;
  g_autoptr(JsonNode) filled = NULL;
  g_autofree char *filled_text = NULL;

  elicit->dialog = tb_elicitation_dialog_new (elicit->parent, request);
  editor = tb_elicitation_dialog_get_editor (elicit->dialog);
  gtk_window_present (GTK_WINDOW (elicit->dialog));

  /* The form starts from the schema's defaults; the person types a name. */
  text = tb_argument_editor_get_text (editor);
  values = tb_json_parse (text, -1, NULL);
  g_assert_nonnull (values);
  filled = tb_json_copy (values);
  json_object_set_string_member (json_node_get_object (filled), "name", "Ada Lovelace");
  filled_text = tb_json_to_string (filled, FALSE);
  g_assert_true (tb_argument_editor_set_text (editor, filled_text, NULL));
  elicit->valid = tb_argument_editor_get_valid (editor);

  elicit->answered_early = tb_mcp_server_request_is_answered (request);
  g_idle_add (accept_later, elicit);
  return TRUE;
}

static void
test_elicitation_dialog (void)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  Elicit elicit = { 0 };

  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }

  elicit.parent = GTK_WINDOW (gtk_window_new ());
  gtk_window_present (elicit.parent);
  client = tb_mcp_client_new_stdio ("everything", (const char * const *) argv, NULL, NULL);
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
  tb_mcp_client_attach (client, registry);
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);
  g_signal_connect (client, "elicitation-requested", G_CALLBACK (elicitation_cb), &elicit);
  g_assert_true (mcp_test_wait (has_elicitation_tool, registry, 10000));

  result = mcp_test_call (registry, "trigger-elicitation-request", NULL, NULL);
  g_assert_false (elicit.answered_early);
  g_assert_true (elicit.valid);
  g_assert_true (tb_tool_result_get_ok (result));
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "Name: Ada Lovelace"));

  tb_mcp_client_disconnect (client);
  gtk_window_destroy (elicit.parent);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/mcp-dialogs/sampling/ask-the-model", test_ask_the_model);
  g_test_add_func ("/mcp-dialogs/elicitation/server-everything", test_elicitation_dialog);

  return g_test_run ();
}
