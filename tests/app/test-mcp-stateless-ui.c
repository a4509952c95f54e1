/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "../mcp/mcp-test-util.h"
#include "tb-argument-editor-private.h"
#include "tb-elicitation-dialog-private.h"
#include "tb-loop-page-private.h"
#include "tb-app-util.h"
#include "tb-mcp-dialogs.h"
#include "tb-mcp-dialogs-private.h"
#include "tb-schema-form-private.h"
#include "tb-window.h"
#include "window-test-util.h"

/* A server of MCP 2026-07-28 (tests/mcp/stateless-server.c, over stdio)
 * asks the person inside its results: a multi round-trip request and a
 * task waiting for input open the same elicitation dialog as a request of
 * the handshake revisions, once, however often the task is polled; a task
 * runs in the Loop page's pending call with its status message. */

typedef WindowFixture Fixture;

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static TbMcpClient *
start_server (Fixture *f)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = g_path_get_dirname (self);
  g_autofree char *path = g_build_filename (dir, "..", "mcp", "stateless-server", NULL);
  const char *argv[] = { path, NULL };
  g_autoptr(GAsyncResult) connected = NULL;
  g_autoptr(GError) error = NULL;
  TbMcpClient *client;

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE));
  client = tb_mcp_client_new_stdio ("modern", argv, NULL, NULL);
  tb_mcp_client_set_capabilities (client, TB_MCP_CAPABILITY_ELICITATION);
  tb_mcp_client_attach (client, f->registry);
  tb_mcp_dialogs_attach (GTK_WINDOW (f->window), client);
  tb_mcp_client_connect_async (client, NULL, store_result, &connected);
  WAIT_UNTIL (connected != NULL);
  g_assert_true (tb_mcp_client_connect_finish (client, connected, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tb_mcp_client_get_protocol_version (client), ==,
                   TB_MCP_PROTOCOL_VERSION_STATELESS);
  return client;
}

static void
stop_server (TbMcpClient *client)
{
  tb_mcp_client_disconnect (client);
  tb_mcp_client_detach (client);
  window_test_iterate (100);
  g_object_unref (client);
}

/* Calls @tool, answers the dialog that opens with @value at @pointer, and
 * returns the call's text. */
static char *
call_and_answer (Fixture    *f,
                 const char *tool,
                 const char *body,
                 const char *pointer,
                 const char *value)
{
  g_autoptr(GAsyncResult) called = NULL;
  g_autoptr(TbToolResult) result = NULL;
  AdwMessageDialog *dialog;
  TbArgumentEditor *editor;

  tb_tool_registry_call_async (f->registry, tool, NULL, NULL, NULL, NULL, store_result, &called);
  WAIT_UNTIL (tb_mcp_dialogs_get_open (GTK_WINDOW (f->window)) != NULL);
  dialog = tb_mcp_dialogs_get_open (GTK_WINDOW (f->window));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "“modern” Asks You");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, body);
  /* The task is polled meanwhile: the question is not asked twice. */
  window_test_iterate (200);
  g_assert_true (tb_mcp_dialogs_get_open (GTK_WINDOW (f->window)) == dialog);
  g_assert_null (called);

  editor = tb_elicitation_dialog_get_editor (TB_ELICITATION_DIALOG (dialog));
  gtk_editable_set_text (GTK_EDITABLE (tb_schema_form_get_input (
                                         tb_argument_editor_get_form (editor), pointer)),
                         value);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "accept"));
  adw_message_dialog_response (dialog, "accept");
  gtk_window_close (GTK_WINDOW (dialog));

  WAIT_UNTIL (called != NULL);
  result = tb_tool_registry_call_finish (f->registry, called);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_null (tb_mcp_dialogs_get_open (GTK_WINDOW (f->window)));
  return mcp_test_output_text (result);
}

static void
test_input_required (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbMcpClient) client = start_server (f);
  g_autofree char *asks = call_and_answer (f, "asks", "Sure?", "/answer", "yes");
  g_autofree char *task = call_and_answer (f, "task_asks", "Please enter your name.", "/name",
                                           "Ada");

  g_assert_cmpstr (asks, ==, "s-1: accept with yes");
  g_assert_cmpstr (task, ==, "Hello, Ada!");
  stop_server (g_steal_pointer (&client));
}

static void
test_task_progress (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(JsonNode) turns = tb_json_parse (
    "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
    "{\"tool_calls\":[{\"id\":\"t1\",\"name\":\"slow\",\"arguments\":{}}]},"
    "{\"text\":\"The task is done.\"}]}", -1, NULL);
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (turns, NULL);
  g_autoptr(TbMcpClient) client = start_server (f);
  g_autoptr(GtkProgressBar) bar = NULL;
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *approve;

  tb_loop_page_set_provider (f->page, TB_PROVIDER (provider));
  g_signal_emit_by_name (tb_loop_page_get_button (f->page, "step"), "clicked");
  WAIT_UNTIL (tb_loop_page_get_n_pending (f->page) == 1);
  bar = g_object_ref (tb_loop_page_get_pending_progress (f->page, 0));
  approve = tb_loop_page_get_pending_button (f->page, 0, "approve");
  WAIT_UNTIL (gtk_widget_get_mapped (approve));
  g_signal_emit_by_name (approve, "clicked");
  g_signal_emit_by_name (tb_loop_page_get_button (f->page, "step"), "clicked");

  /* The bar shows the task's status messages as they come. */
  while (tb_loop_page_get_busy (f->page) || seen->len == 0)
    {
      const char *text = gtk_widget_get_visible (GTK_WIDGET (bar))
                         ? gtk_progress_bar_get_text (bar) : NULL;

      if (text != NULL && (seen->len == 0 ||
                           g_strcmp0 (g_ptr_array_index (seen, seen->len - 1), text) != 0))
        g_ptr_array_add (seen, g_strdup (text));
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_cmpuint (seen->len, >=, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (seen, 0), "step "));
  {
    g_autofree char *row = tb_loop_page_get_row_text (f->page, 2);

    g_test_message ("row: %s", row);
    g_assert_nonnull (strstr (row, "done after 3 polls"));
  }
  stop_server (g_steal_pointer (&client));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  window_test_add ("/mcp-dialogs/stateless/input-required", test_input_required);
  window_test_add ("/loop-page/stateless/task-progress", test_task_progress);
  return g_test_run ();
}
