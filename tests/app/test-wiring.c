/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The parts of the window that meet the preferences: the Loop page's
 * provider and model selectors (an endpoint on a local server, asked with
 * its key from the store), the defaults of new runs, and the demo when
 * nothing is configured. */

#define G_LOG_DOMAIN "test-wiring"

#include "config.h"

#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-loop-page-private.h"
#include "tb-elicitation-dialog-private.h"
#include "tb-mcp-dialogs.h"
#include "tb-tool-sources.h"
#include "tb-trace-page-private.h"
#include "tb-welcome-page.h"
#include "tb-prefs.h"
#include "tb-secret-store.h"
#include "tb-test-http.h"
#include "tb-window.h"
#include "tb-mcp-dialogs-private.h"
#include "tb-argument-editor-private.h"
#include "window-test-util.h"

typedef struct
{
  GSettings      *settings;
  TbToolRegistry *registry;
  TbWindow       *window;
  TbLoopPage     *page;
  TestServer     *server;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  f->settings = g_settings_new (APPLICATION_ID);
  g_object_get (f->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (f->settings, keys[i]);
  f->server = test_server_new ("Authorization");
  f->registry = tb_tool_registry_new ();
  g_assert_true (tb_demo_tools_register (f->registry, NULL));
  f->window = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  f->page = tb_window_get_loop_page (f->window);
  tb_window_set_page (f->window, "loop");
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->page)));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  window_test_iterate (50);
  g_assert_finalize_object (f->window);
  g_assert_finalize_object (f->registry);
  test_server_free (f->server);
  g_clear_object (&f->settings);
}

static void
click (Fixture    *f,
       const char *name)
{
  GtkWidget *button = tb_loop_page_get_button (f->page, name);

  g_assert_nonnull (button);
  WAIT_UNTIL (gtk_widget_get_mapped (button));
  WAIT_UNTIL (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  window_test_iterate (20);
  WAIT_UNTIL (!tb_loop_page_get_busy (f->page));
}

static char *
item_text (GtkDropDown *dropdown,
           guint        position)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (dropdown),
                                                           position);

  return g_strdup (gtk_string_object_get_string (item));
}

static void
test_demo_default (Fixture       *f,
                   gconstpointer  data)
{
  GtkDropDown *dropdown = tb_loop_page_get_provider_dropdown (f->page);
  g_autofree char *first = NULL;

  g_settings_set_uint (f->settings, "loop-iteration-cap", 7);
  tb_loop_page_set_settings (f->page, f->settings);

  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 1);
  first = item_text (dropdown, 0);
  g_assert_cmpstr (first, ==, "Demo (offline)");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (tb_loop_page_get_model_entry (f->page))));
  g_assert_cmpstr (tb_loop_page_get_iteration_text (f->page), ==, "Iteration 0 of 7");

  /* The default policy of the preferences is "ask": the demo's calls wait. */
  click (f, "continue");
  g_assert_cmpint (tb_dispatch_loop_get_approval_policy (tb_loop_page_get_loop (f->page)), ==,
                   TB_APPROVAL_POLICY_ASK);
  g_assert_cmpstr (tb_loop_page_get_state_text (f->page), ==, "Calls wait for your decision");
  g_assert_cmpuint (tb_loop_page_get_n_pending (f->page), >, 0);
  g_assert_cmpuint (f->server->bodies->len, ==, 0);
}

static void
saved_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tb_secret_store_save_finish (TB_SECRET_STORE (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static const char answer_stream[] =
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Two and \"}}]}"
  "\n\n"
  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"three make five.\"},"
  "\"finish_reason\":\"stop\"}]}\n\n"
  "data: [DONE]\n\n";

static void
test_endpoint (Fixture       *f,
               gconstpointer  data)
{
  GtkDropDown *dropdown = tb_loop_page_get_provider_dropdown (f->page);
  GtkEditable *model = tb_loop_page_get_model_entry (f->page);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *row = NULL;
  gboolean saved = FALSE;
  JsonObject *sent;

  g_settings_set_string (f->settings, "approval-policy", "approve-all");
  tb_loop_page_set_settings (f->page, f->settings);
  tb_secret_store_save_async (tb_secret_store_get_default (), "Local", f->server->base_url,
                              "sk-wire", NULL, saved_cb, &saved);
  WAIT_UNTIL (saved);

  /* The list follows the preferences. */
  g_assert_true (tb_prefs_save_provider (f->settings, NULL, "Local", "openai",
                                         f->server->base_url, "small-model", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 2);
  name = item_text (dropdown, 1);
  g_assert_cmpstr (name, ==, "Local");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);

  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpstr (gtk_editable_get_text (model), ==, "small-model");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (model)));
  gtk_editable_set_text (model, "other-model");
  WAIT_UNTIL (!tb_loop_page_get_key_pending (f->page));

  test_server_reply_full (f->server, REPLY_SSE, 200, answer_stream, NULL);
  click (f, "continue");
  g_assert_cmpstr (tb_loop_page_get_error_text (f->page), ==, "");
  g_assert_cmpstr (tb_loop_page_get_state_text (f->page), ==, "Finished");

  g_assert_cmpuint (f->server->bodies->len, ==, 1);
  sent = test_server_request (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "model"), ==, "other-model");
  g_assert_cmpstr (g_ptr_array_index (f->server->auth, 0), ==, "Bearer sk-wire");
  row = tb_loop_page_get_row_text (f->page, 1);
  g_assert_cmpstr (row, ==, "Model: Two and three make five.");

  /* Removing the endpoint goes back to the demo. */
  g_assert_true (tb_prefs_remove_provider (f->settings, "Local", &error));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
}

static void
store_result (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
has_tool (Fixture    *f,
          const char *name)
{
  g_autoptr(TbTool) tool = tb_tool_registry_lookup (f->registry, name);

  return tool != NULL;
}

/* Calls the fake server's elicit tool and answers its question through the
 * dialog the window opens. */
static void
elicit_through_dialog (Fixture    *f,
                       const char *name)
{
  g_autoptr(GAsyncResult) called = NULL;
  g_autoptr(TbToolResult) result = NULL;
  g_autofree char *answer = NULL;
  AdwMessageDialog *dialog;
  TbArgumentEditor *editor;

  tb_tool_registry_call_async (f->registry, "elicit", NULL, NULL, NULL, NULL, store_result,
                               &called);
  WAIT_UNTIL (tb_mcp_dialogs_get_open (GTK_WINDOW (f->window)) != NULL);
  dialog = tb_mcp_dialogs_get_open (GTK_WINDOW (f->window));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (f->window));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "“fake” Asks You");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, "Your name?");
  editor = tb_elicitation_dialog_get_editor (TB_ELICITATION_DIALOG (dialog));
  gtk_editable_set_text (GTK_EDITABLE (tb_schema_form_get_input (
                                         tb_argument_editor_get_form (editor), "/name")),
                         name);
  window_test_iterate (50);
  /* Nothing is answered before the person decides. */
  g_assert_null (called);
  adw_message_dialog_response (dialog, "accept");
  gtk_window_close (GTK_WINDOW (dialog));

  WAIT_UNTIL (called != NULL);
  result = tb_tool_registry_call_finish (f->registry, called);
  g_assert_true (tb_tool_result_get_ok (result));
  answer = tb_json_to_string (tb_tool_result_get_output (result), FALSE);
  g_test_message ("answer: %s", answer);
  g_assert_nonnull (strstr (answer, "accept"));
  g_assert_nonnull (strstr (answer, name));
}

static void
test_mcp_dialogs (Fixture       *f,
                  gconstpointer  data)
{
  const char *server = g_getenv ("TB_FAKE_MCP_SERVER");
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autoptr(TbToolSources) sources = NULL;
  g_autofree char *entry = NULL;
  g_autoptr(GError) error = NULL;
  TbMcpClient *client;

  if (server == NULL || python == NULL)
    {
      g_test_skip ("Needs python3 and tests/mcp/fake-mcp-server.py");
      return;
    }
  sources = tb_tool_sources_new (f->registry, f->settings);
  tb_mcp_dialogs_attach_sources (GTK_WINDOW (f->window), sources);

  /* A server added in the preferences after the window took the sources. */
  entry = g_strdup_printf ("{\"command\": \"python3\", \"args\": [\"%s\"]}", server);
  g_assert_true (tb_prefs_save_mcp_server (f->settings, NULL, "fake", TRUE, entry, &error));
  g_assert_no_error (error);
  client = tb_tool_sources_get_client (sources, "fake");
  g_assert_nonnull (client);
  WAIT_UNTIL (has_tool (f, "elicit")
              && tb_mcp_client_get_state (client) == TB_MCP_CLIENT_STATE_CONNECTED);
  elicit_through_dialog (f, "Ada");

  /* Restarted from the preferences: still answered through the window. */
  tb_tool_sources_restart (sources, "fake");
  WAIT_UNTIL (tb_mcp_client_get_state (client) == TB_MCP_CLIENT_STATE_CONNECTED
              && has_tool (f, "elicit"));
  elicit_through_dialog (f, "Grace Hopper");

  g_object_run_dispose (G_OBJECT (sources));
}

static const char live_answer[] =
  "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
  "\"message\":{\"role\":\"assistant\",\"content\":\"A live answer after the fork.\"},"
  "\"finish_reason\":\"stop\"}]}";

/* The welcome page opens the bundled trace in the Trace page; a fork of it
 * continues scripted, or live with the Loop page's endpoint. */
static void
test_sample_trace_fork (Fixture       *f,
                        gconstpointer  data)
{
  TbTracePage *trace_page = tb_window_get_trace_page (f->window);
  AdwViewStack *stack = tb_window_get_view_stack (f->window);
  GtkDropDown *dropdown = tb_loop_page_get_provider_dropdown (f->page);
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *sent = NULL;
  g_autoptr(JsonNode) request = NULL;
  GtkWidget *open;
  guint scripted_steps;

  tb_loop_page_set_settings (f->page, f->settings);
  g_assert_true (tb_welcome_page_offer (f->window));
  window_test_iterate (50);
  open = window_test_find_named (GTK_WIDGET (f->window), "welcome-open-trace");
  g_assert_nonnull (open);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (open)), ==, "_Open the Sample Trace");
  g_signal_emit_by_name (open, "clicked");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "trace");
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page)
              && g_strcmp0 (tb_trace_page_get_title (trace_page), "demo-trace.jsonl") == 0);
  g_assert_cmpstr (tb_trace_page_get_title (trace_page), ==, "demo-trace.jsonl");
  /* The file has a header line and 22 events. */
  g_assert_cmpuint (tb_trace_page_get_n_events (trace_page), ==, 22);
  first = tb_trace_page_get_event_row_text (trace_page, 0);
  g_test_message ("first event: %s", first);
  g_assert_nonnull (strstr (first, "You: "));

  /* Scripted: the recorded turns go on after the changed call. */
  g_assert_true (tb_trace_page_fork (trace_page, 1, TB_REPLAY_EDIT_ARGUMENTS,
                                     "{\"text\": \"forked\"}", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
  g_assert_cmpstr (tb_trace_page_get_status_text (trace_page), ==, "");
  g_assert_cmpint (tb_replay_report_get_first_divergence (tb_trace_page_get_report (trace_page)),
                   ==, 1);
  scripted_steps = tb_trace_page_get_n_report_rows (trace_page);
  g_assert_cmpuint (f->server->bodies->len, ==, 0);

  /* Live: the turn after the fork goes to the endpoint selected on the
   * Loop page, with everything the fork changed. */
  g_assert_true (tb_prefs_save_provider (f->settings, NULL, "Local", "openai",
                                         f->server->base_url, "small-model", &error));
  gtk_drop_down_set_selected (dropdown, 1);
  WAIT_UNTIL (!tb_loop_page_get_key_pending (f->page));
  tb_trace_page_set_fork_live (trace_page, TRUE);
  /* Live tools too: the echo call runs with the changed text. */
  tb_trace_page_set_live (trace_page, TRUE);
  test_server_reply (f->server, 200, "application/json", live_answer);
  g_assert_true (tb_trace_page_fork (trace_page, 1, TB_REPLAY_EDIT_ARGUMENTS,
                                     "{\"text\": \"forked\"}", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!tb_trace_page_get_busy (trace_page));
  g_test_message ("status: %s", tb_trace_page_get_status_text (trace_page));
  g_assert_cmpstr (tb_trace_page_get_status_text (trace_page), ==, "");
  g_assert_cmpuint (f->server->bodies->len, ==, 1);
  request = json_node_init_object (json_node_alloc (), test_server_request (f->server, 0));
  sent = json_to_string (request, FALSE);
  g_test_message ("sent: %s", sent);
  g_assert_nonnull (strstr (sent, "small-model"));
  g_assert_nonnull (strstr (sent, "\"content\":\"forked\""));
  g_assert_cmpuint (tb_trace_page_get_n_report_rows (trace_page), >, 0);
  g_test_message ("steps: scripted %u, live %u", scripted_steps,
                  tb_trace_page_get_n_report_rows (trace_page));
}

int
main (int   argc,
      char *argv[])
{
  /* No keyring: keys stay in the store's memory, and no bus is started. */
  /* Where the welcome page copies the sample trace. */
  g_setenv ("XDG_CACHE_HOME", g_getenv ("G_TEST_BUILDDIR") != NULL
            ? g_getenv ("G_TEST_BUILDDIR") : g_get_tmp_dir (), TRUE);
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  g_test_add ("/wiring/loop-demo-default", Fixture, NULL, setup, test_demo_default, teardown);
  g_test_add ("/wiring/loop-endpoint", Fixture, NULL, setup, test_endpoint, teardown);
  g_test_add ("/wiring/mcp-dialogs", Fixture, NULL, setup, test_mcp_dialogs, teardown);
  g_test_add ("/wiring/sample-trace-fork", Fixture, NULL, setup, test_sample_trace_fork,
              teardown);
  return g_test_run ();
}
