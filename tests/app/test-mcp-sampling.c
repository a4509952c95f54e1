/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "../mcp/mcp-test-util.h"
#include "tb-elicitation-dialog-private.h"
#include "tb-mcp-dialogs.h"
#include "tb-sampling-dialog-private.h"
#include "tb-argument-editor-private.h"
#include "tb-schema-form-private.h"
#include "window-test-util.h"

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
  state->status = g_strdup (tb_sampling_dialog_get_status (TB_SAMPLING_DIALOG (state->dialog)));
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
  TbSamplingDialog *dialog;
  GtkWidget *ask;

  state->dialog = tb_sampling_dialog_new (state->parent, request);
  dialog = TB_SAMPLING_DIALOG (state->dialog);
  ask = tb_sampling_dialog_get_ask_button (dialog);
  g_assert_false (gtk_widget_get_visible (ask));
  tb_sampling_dialog_set_provider (dialog, TB_PROVIDER (provider));
  g_assert_true (gtk_widget_get_visible (ask));
  g_assert_nonnull (strstr (tb_sampling_dialog_get_messages_text (dialog), "say something"));
  g_signal_connect (tb_sampling_dialog_get_answer (dialog), "changed",
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
  editor = tb_elicitation_dialog_get_editor (TB_ELICITATION_DIALOG (elicit->dialog));
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

/* The dialog fits: server-everything's form is long (about 1,700 px laid
 * out in full), so it scrolls inside the dialog and the responses stay within
 * the parent window, at 1280×800 and at 600 px wide. */

typedef struct
{
  GtkWindow        *parent;
  AdwMessageDialog *dialog;
  int               width;
  int               height;
  graphene_rect_t   accept;
  double            content_upper;
  double            content_page;
  char             *number_text;
} Fit;

/* With TOOLBENCH_SCREENSHOTS set to a folder (build-aux/screenshots.sh),
 * the dialog is saved there as it is shown. */
static void
save_screenshot (GtkWidget  *window,
                 const char *name)
{
  const char *folder = g_getenv ("TOOLBENCH_SCREENSHOTS");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  int width = gtk_widget_get_width (window);
  int height = gtk_widget_get_height (window);

  if (folder == NULL)
    return;
  path = g_strdup_printf ("%s/%s.png", folder, name);
  paintable = gtk_widget_paintable_new (window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static gboolean
fit_cb (TbMcpClient        *client,
        TbMcpServerRequest *request,
        Fit                *fit)
{
  GtkScrolledWindow *content;
  GtkAdjustment *adjustment;
  GtkWidget *accept;
  TbArgumentEditor *editor;
  TbSchemaForm *form;

  fit->dialog = tb_elicitation_dialog_new (fit->parent, request);
  editor = tb_elicitation_dialog_get_editor (TB_ELICITATION_DIALOG (fit->dialog));
  gtk_window_present (GTK_WINDOW (fit->dialog));
  window_test_iterate (600);

  fit->width = gtk_widget_get_width (GTK_WIDGET (fit->dialog));
  fit->height = gtk_widget_get_height (GTK_WIDGET (fit->dialog));
  accept = window_test_find (GTK_WIDGET (fit->dialog), window_test_is_button, "_Accept");
  g_assert_nonnull (accept);
  g_assert_true (gtk_widget_get_mapped (accept));
  g_assert_true (gtk_widget_compute_bounds (accept, GTK_WIDGET (fit->dialog), &fit->accept));
  content = tb_elicitation_dialog_get_content (TB_ELICITATION_DIALOG (fit->dialog));
  adjustment = gtk_scrolled_window_get_vadjustment (content);
  fit->content_upper = gtk_adjustment_get_upper (adjustment);
  fit->content_page = gtk_adjustment_get_page_size (adjustment);
  save_screenshot (GTK_WIDGET (fit->dialog), gtk_widget_get_width (GTK_WIDGET (fit->parent)) < 800
                                             ? "elicitation-narrow" : "elicitation");

  /* The default 3.14 reads as a person would write it. */
  form = tb_argument_editor_get_form (editor);
  fit->number_text = g_strdup (gtk_editable_get_text (
                                 GTK_EDITABLE (tb_schema_form_get_input (form, "/number"))));
  /* The required name is empty, but nobody has been there yet: no red. */
  g_assert_false (tb_argument_editor_get_valid (editor));
  g_assert_null (tb_schema_form_get_field_error (form, "/name"));

  adw_message_dialog_response (fit->dialog, "decline");
  return TRUE;
}

static void
test_elicitation_fits (gconstpointer data)
{
  int parent_width = GPOINTER_TO_INT (data);
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  Fit fit = { 0 };

  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }

  fit.parent = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fit.parent, parent_width, 800);
  gtk_window_present (fit.parent);
  window_test_iterate (300);
  client = tb_mcp_client_new_stdio ("everything", (const char * const *) argv, NULL, NULL);
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
  tb_mcp_client_attach (client, registry);
  g_assert_true (mcp_test_connect (client, &error));
  g_assert_no_error (error);
  g_signal_connect (client, "elicitation-requested", G_CALLBACK (fit_cb), &fit);
  g_assert_true (mcp_test_wait (has_elicitation_tool, registry, 10000));

  result = mcp_test_call (registry, "trigger-elicitation-request", NULL, NULL);
  g_test_message ("dialog %d×%d, Accept at y %.0f–%.0f, content %.0f of %.0f px",
                  fit.width, fit.height, fit.accept.origin.y,
                  fit.accept.origin.y + fit.accept.size.height, fit.content_page,
                  fit.content_upper);
  g_assert_cmpint (fit.height, <=, 800);
  g_assert_cmpint (fit.width, <=, parent_width);
  g_assert_cmpfloat (fit.accept.origin.y + fit.accept.size.height, <=, fit.height);
  g_assert_cmpfloat (fit.accept.origin.x + fit.accept.size.width, <=, fit.width);
  g_assert_cmpfloat (fit.accept.origin.x, >=, 0);
  /* The form is longer than the room it has: it scrolls. */
  g_assert_cmpfloat (fit.content_upper, >, fit.content_page);
  g_assert_cmpstr (fit.number_text, ==, "3.14");
  text = mcp_test_output_text (result);
  g_assert_nonnull (strstr (text, "decline"));

  g_free (fit.number_text);
  tb_mcp_client_disconnect (client);
  gtk_window_destroy (fit.parent);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/mcp-dialogs/sampling/ask-the-model", test_ask_the_model);
  g_test_add_func ("/mcp-dialogs/elicitation/server-everything", test_elicitation_dialog);
  g_test_add_data_func ("/mcp-dialogs/elicitation/fits-1280x800", GINT_TO_POINTER (1280),
                        test_elicitation_fits);
  g_test_add_data_func ("/mcp-dialogs/elicitation/fits-600-wide", GINT_TO_POINTER (600),
                        test_elicitation_fits);

  return g_test_run ();
}
