/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A server's window under Xvfb: its Messages page lists the messages of a
 * real session with the in-tree fake server (stdio) and with an in-test
 * SoupServer (HTTP), narrows by direction, method and search, shows the
 * selected message whole with its HTTP exchange, copies and exports; a
 * server that floods it, a message larger than the client reads and text
 * that is not JSON; a narrow window. Every control has a name a screen
 * reader says, and GTK warns about nothing. */

#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>
#include <toolbench.h>

#include "tb-mcp-log-view-private.h"
#include "tb-mcp-server-window-private.h"
#include "tb-mcp-wire-view-private.h"
#include "window-test-util.h"
#include "../test-soup-util.h"

typedef struct
{
  TbToolRegistry    *registry;
  TbMcpClient       *client;
  TbMcpServerWindow *window;
  SoupServer        *server;
  char              *dir;
} Fixture;

/* GTK's warnings and criticals, recorded by the test's log writer. */
static GPtrArray *gtk_warnings;

static const char *
log_field (const GLogField *fields,
           gsize           n_fields,
           const char     *key)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, key) == 0)
      return fields[i].length < 0 ? fields[i].value : NULL;
  return NULL;
}

static GLogWriterOutput
record_gtk_warnings (GLogLevelFlags   log_level,
                     const GLogField *fields,
                     gsize            n_fields,
                     gpointer         user_data)
{
  if ((log_level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL)) != 0
      && g_strcmp0 (log_field (fields, n_fields, "GLIB_DOMAIN"), "Gtk") == 0)
    g_ptr_array_add (gtk_warnings, g_strdup (log_field (fields, n_fields, "MESSAGE") ?: "?"));
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

/* A sanitizer build unwinds every allocation in full: what takes a
 * fraction of a second elsewhere may take several there. */
static gboolean
sanitized (void)
{
  return g_getenv ("ASAN_OPTIONS") != NULL;
}

/* How long showing one message's detail may take. */
static gint64
detail_bound_us (void)
{
  return (sanitized () ? 10 : 2) * G_USEC_PER_SEC;
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
wait_for_result (GAsyncResult **result)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (*result == NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (*result);
}

static void
iterate_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

static TbMcpWireView *
view_of (Fixture *f)
{
  return tb_mcp_server_window_get_wire_view (f->window);
}

/* Until the gathered records are in the list and the filter is done. */
static void
settle (Fixture *f)
{
  gint64 start = g_get_monotonic_time ();
  /* Generous for sanitizer builds; a settled list returns at once. */
  gint64 end = start + 300 * G_USEC_PER_SEC;

  iterate_ms (150);
  while (!tb_mcp_wire_view_is_settled (view_of (f)) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  if (g_get_monotonic_time () - start > G_USEC_PER_SEC)
    g_test_message ("the list took %" G_GINT64_FORMAT " ms to settle",
                    (g_get_monotonic_time () - start) / 1000);
  g_assert_true (tb_mcp_wire_view_is_settled (view_of (f)));
  iterate_ms (50);
}

static void
connect_client (Fixture *f)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  tb_mcp_client_attach (f->client, f->registry);
  tb_mcp_client_connect_async (f->client, NULL, store_result, &result);
  wait_for_result (&result);
  g_assert_true (tb_mcp_client_connect_finish (f->client, result, &error));
  g_assert_no_error (error);
}

static void
setup_fake (Fixture       *f,
            gconstpointer  data)
{
  const char *server = g_getenv ("TB_FAKE_MCP_SERVER");
  const char *argv[] = { "/usr/bin/python3", server, NULL };

  gtk_warnings = g_ptr_array_new_with_free_func (g_free);
  f->registry = tb_tool_registry_new ();
  f->dir = g_dir_make_tmp ("tb-server-window-XXXXXX", NULL);
  if (server == NULL || !g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("Needs /usr/bin/python3 and tests/mcp/fake-mcp-server.py");
      return;
    }
  f->client = tb_mcp_client_new_stdio ("fake", argv, NULL, NULL);
  connect_client (f);
}

/* An MCP server over streamable HTTP, just enough for a session. */
static void
mcp_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) request = NULL;
  g_autofree char *answer = NULL;
  const char *method;
  gint64 id;

  if (!g_str_equal (soup_server_message_get_method (msg), "POST"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }
  bytes = soup_message_body_flatten (body);
  request = tb_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  g_assert_nonnull (request);
  method = json_object_get_string_member_with_default (json_node_get_object (request), "method",
                                                       "");
  id = json_object_get_int_member_with_default (json_node_get_object (request), "id", -1);
  if (id < 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      return;
    }
  if (g_str_equal (method, "initialize"))
    answer = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                              "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                              "\"serverInfo\":{\"name\":\"soup\",\"version\":\"1\"}}}", id);
  else
    answer = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ","
                              "\"result\":{\"tools\":[]}}", id);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Mcp-Session-Id", "window-session");
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, answer,
                                    strlen (answer));
}

static void
setup_http (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const char *headers[] = { "Authorization: Bearer window-token-321", NULL };

  gtk_warnings = g_ptr_array_new_with_free_func (g_free);
  f->registry = tb_tool_registry_new ();
  f->dir = g_dir_make_tmp ("tb-server-window-XXXXXX", NULL);
  f->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (f->server, "/mcp", mcp_handler, f, NULL);
  g_assert_true (soup_server_listen_local (f->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  url = g_strdup_printf ("http://127.0.0.1:%u/mcp", test_server_port (f->server));
  f->client = tb_mcp_client_new_http ("remote", url, headers);
  connect_client (f);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_unlink (child);
    }
  g_rmdir (path);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  iterate_ms (50);
  if (f->client != NULL)
    {
      tb_mcp_client_detach (f->client);
      tb_mcp_client_disconnect (f->client);
      g_clear_object (&f->client);
    }
  iterate_ms (50);
  if (f->server != NULL)
    {
      soup_server_disconnect (f->server);
      g_clear_object (&f->server);
    }
  g_clear_object (&f->registry);
  remove_tree (f->dir);
  g_free (f->dir);

  for (guint i = 0; i < gtk_warnings->len; i++)
    g_printerr ("Gtk warned: %s\n", (char *) g_ptr_array_index (gtk_warnings, i));
  g_assert_cmpuint (gtk_warnings->len, ==, 0);
  g_clear_pointer (&gtk_warnings, g_ptr_array_unref);
}

static void
open_window (Fixture *f,
             int      width,
             int      height)
{
  f->window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (f->client));
  /* A group of its own: the modal Preferences it is opened from would
   * otherwise take every click meant for it. */
  g_assert_true (gtk_window_has_group (GTK_WINDOW (f->window)));
  if (width > 0)
    gtk_window_set_default_size (GTK_WINDOW (f->window), width, height);
  gtk_window_present (GTK_WINDOW (f->window));
  settle (f);
}

static TbToolResult *
call (Fixture    *f,
      const char *name,
      const char *arguments_json)
{
  g_autoptr(JsonNode) arguments = arguments_json != NULL
                                  ? tb_json_parse (arguments_json, -1, NULL) : NULL;
  g_autoptr(GAsyncResult) result = NULL;

  tb_tool_registry_call_async (f->registry, name, NULL, arguments, NULL, NULL, store_result,
                               &result);
  wait_for_result (&result);
  return tb_tool_registry_call_finish (f->registry, result);
}

/* The rows that start with @prefix. */
static guint
count_rows (Fixture    *f,
            const char *prefix)
{
  TbMcpWireView *view = view_of (f);
  guint found = 0;

  for (guint i = 0; i < tb_mcp_wire_view_get_n_rows (view); i++)
    {
      g_autofree char *text = tb_mcp_wire_view_get_row_text (view, i);

      found += g_str_has_prefix (text, prefix);
    }
  return found;
}

static gint
find_row (Fixture    *f,
          const char *prefix)
{
  TbMcpWireView *view = view_of (f);

  for (guint i = 0; i < tb_mcp_wire_view_get_n_rows (view); i++)
    {
      g_autofree char *text = tb_mcp_wire_view_get_row_text (view, i);

      if (g_str_has_prefix (text, prefix))
        return i;
    }
  return -1;
}

/* Controls a screen reader names (GTK_A11Y=test). */
static gboolean
inside_named_owner (GtkWidget *widget)
{
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_DROP_DOWN (w) || GTK_IS_SEARCH_ENTRY (w) || GTK_IS_WINDOW_CONTROLS (w)
        || GTK_IS_POPOVER (w) || ADW_IS_VIEW_SWITCHER (w) || ADW_IS_VIEW_SWITCHER_BAR (w)
        || ADW_IS_VIEW_SWITCHER_TITLE (w) || GTK_IS_EXPANDER (w))
      return TRUE;
  return FALSE;
}

static void
assert_named (GtkWidget *widget,
              GString   *unnamed,
              guint     *checked)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if ((GTK_IS_BUTTON (widget) || GTK_IS_TEXT_VIEW (widget) || GTK_IS_DROP_DOWN (widget) ||
       GTK_IS_SEARCH_ENTRY (widget) || GTK_IS_LIST_VIEW (widget)) &&
      !inside_named_owner (widget))
    {
      (*checked)++;
      if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget),
                                             GTK_ACCESSIBLE_PROPERTY_LABEL) &&
          !gtk_test_accessible_has_relation (GTK_ACCESSIBLE (widget),
                                             GTK_ACCESSIBLE_RELATION_LABELLED_BY))
        g_string_append_printf (unnamed, " %s", G_OBJECT_TYPE_NAME (widget));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    assert_named (child, unnamed, checked);
}

/* The window opens on the session's messages; the filters narrow them. */
/* A widget of the type given, not one of a drop-down's popover. */
static gboolean
is_own (GtkWidget     *widget,
        gconstpointer  type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type)) &&
         gtk_widget_get_ancestor (widget, GTK_TYPE_POPOVER) == NULL;
}

static void
test_messages (Fixture       *f,
               gconstpointer  data)
{
  TbMcpWireView *view;
  g_autoptr(TbToolResult) echo = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *copied = NULL;
  g_auto(GStrv) methods = NULL;
  g_autoptr(GString) unnamed = g_string_new (NULL);
  GtkWidget *entry;
  GtkWidget *list;
  guint all, checked = 0;
  gint row;

  if (f->client == NULL)
    return;
  open_window (f, -1, -1);
  view = view_of (f);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "MCP Server “fake”");
  g_assert_cmpstr (tb_mcp_server_window_get_page (f->window), ==, "messages");
  /* The probe for the stateless revision, which this server refuses,
   * then the handshake. */
  g_assert_cmpint (find_row (f, "Sent server/discover #1, "), ==, 0);
  g_assert_cmpint (find_row (f, "Received error for server/discover #1, "), ==, 1);
  g_assert_cmpint (find_row (f, "Sent initialize #2, "), ==, 2);
  g_assert_cmpint (find_row (f, "Received result of initialize #2, "), ==, 3);
  g_assert_cmpint (find_row (f, "Sent notifications/initialized, "), >, 1);
  g_assert_cmpint (find_row (f, "Sent tools/list #3, "), >, 1);
  g_assert_cmpint (find_row (f, "Received result of tools/list #3, "), >, 1);
  methods = tb_mcp_wire_view_get_methods (view);
  g_assert_cmpstr (methods[0], ==, "All methods");
  g_assert_true (g_strv_contains ((const char * const *) methods, "initialize"));
  g_assert_true (g_strv_contains ((const char * const *) methods, "tools/list"));

  /* It grows with the session. */
  all = tb_mcp_wire_view_get_n_rows (view);
  echo = call (f, "echo", "{\"message\":\"to the window\"}");
  g_assert_true (tb_tool_result_get_ok (echo));
  settle (f);
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (view), ==, all + 2);
  all += 2;
  g_assert_cmpint (find_row (f, "Sent tools/call #4, "), ==, all - 2);
  g_assert_cmpint (find_row (f, "Received result of tools/call #4, "), ==, all - 1);

  /* Direction, method and search narrow the list. */
  tb_mcp_wire_view_set_filter (view, 2, NULL, NULL);
  settle (f);
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (view), <, all);
  g_assert_cmpuint (count_rows (f, "Received "), ==, tb_mcp_wire_view_get_n_rows (view));
  tb_mcp_wire_view_set_filter (view, 0, "tools/list", NULL);
  settle (f);
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (view), ==, 2);
  tb_mcp_wire_view_set_filter (view, 1, "tools/list", NULL);
  settle (f);
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (view), ==, 1);
  tb_mcp_wire_view_set_filter (view, 0, NULL, "TO THE WINDOW");
  settle (f);
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (view), ==, 2);
  tb_mcp_wire_view_set_filter (view, 0, NULL, NULL);
  settle (f);
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (view), ==, all);

  /* The selected message, whole and pretty; Copy copies it. */
  row = find_row (f, "Received result of initialize #2, ");
  tb_mcp_wire_view_select (view, row);
  settle (f);
  detail = tb_mcp_wire_view_get_detail_text (view);
  g_assert_nonnull (strstr (detail, "\n  \"result\" : {"));
  g_assert_nonnull (strstr (detail, "\"protocolVersion\" : \"2025-11-25\""));
  g_assert_true (g_str_has_prefix (tb_mcp_wire_view_get_note (view),
                                   "Received result of initialize #2, "));
  g_assert_null (tb_mcp_wire_view_get_http_text (view));
  copied = tb_mcp_wire_view_dup_copy_text (view);
  g_assert_cmpstr (copied, ==, detail);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "wire.copy", NULL));
  g_assert_cmpstr (tb_mcp_wire_view_get_status (view), ==, "The message is on the clipboard.");

  /* Down in the search goes to the first message, past the filters; Up
   * there goes back. */
  entry = window_test_find (GTK_WIDGET (view), is_own,
                            GSIZE_TO_POINTER (GTK_TYPE_SEARCH_ENTRY));
  list = window_test_find (GTK_WIDGET (view), is_own, GSIZE_TO_POINTER (GTK_TYPE_LIST_VIEW));
  gtk_widget_grab_focus (entry);
  g_assert_true (window_test_send_key (window_test_key_controller (entry), GDK_KEY_Down));
  g_assert_true (window_test_has_focus_in (list));
  g_assert_true (window_test_send_key (window_test_key_controller (list), GDK_KEY_Up));
  g_assert_true (window_test_has_focus_in (entry));

  /* The log is the other page. */
  tb_mcp_server_window_show_page (f->window, "log");
  settle (f);
  g_assert_cmpstr (tb_mcp_server_window_get_page (f->window), ==, "log");
  tb_mcp_server_window_show_page (f->window, "messages");
  settle (f);

  assert_named (GTK_WIDGET (f->window), unnamed, &checked);
  g_assert_cmpuint (checked, >=, 6);
  g_assert_cmpstr (unnamed->str, ==, "");
}

/* Export writes every record the client keeps, as --wire does; a file
 * that cannot be written is said, naming it. */
static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  TbMcpWireView *view;
  g_autofree char *path = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *said = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) nowhere = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GListModel *history;

  if (f->client == NULL)
    return;
  open_window (f, -1, -1);
  view = view_of (f);
  history = tb_mcp_client_get_wire_history (f->client);

  path = g_build_filename (f->dir, "fake-messages.jsonl", NULL);
  file = g_file_new_for_path (path);
  g_assert_true (tb_mcp_wire_view_export_to (view, file, &error));
  g_assert_no_error (error);
  said = g_strdup_printf ("Exported %u records to “%s”.", g_list_model_get_n_items (history),
                          path);
  g_assert_cmpstr (tb_mcp_wire_view_get_status (view), ==, said);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_suffix (contents, "\n"));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines) - 1, ==, g_list_model_get_n_items (history));
  for (guint i = 0; lines[i + 1] != NULL; i++)
    {
      g_autoptr(TbMcpWireRecord) kept = g_list_model_get_item (history, i);
      g_autofree char *line = tb_mcp_wire_record_to_line (kept);
      g_autoptr(JsonNode) node = tb_json_parse (lines[i], -1, &error);
      g_autoptr(TbMcpWireRecord) record = NULL;

      g_assert_no_error (error);
      record = tb_mcp_wire_record_new_from_json (node, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tb_mcp_wire_record_get_seq (record), ==, tb_mcp_wire_record_get_seq (kept));
      g_assert_true (g_str_has_prefix (line, lines[i]));
    }

  missing = g_build_filename (f->dir, "no", "such", "folder.jsonl", NULL);
  nowhere = g_file_new_for_path (missing);
  g_assert_false (tb_mcp_wire_view_export_to (view, nowhere, &error));
  expected = g_strdup_printf ("Cannot write the protocol log “%s”: No such file or directory",
                              missing);
  g_assert_cmpstr (error->message, ==, expected);
}

/* A flood of notifications: the list keeps the history's bound, the
 * window goes on answering, the newest message is there. */
static gboolean
tick_cb (gpointer user_data)
{
  gint64 *last = user_data;
  gint64 now = g_get_monotonic_time ();

  if (last[0] != 0)
    last[1] = MAX (last[1], now - last[0]);
  last[0] = now;
  return G_SOURCE_CONTINUE;
}

static void
test_flood (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  TbMcpWireView *view;
  gint64 ticks[2] = { 0, 0 };
  guint tick;
  guint rows;
  g_autofree char *last = NULL;
  g_autofree char *arguments = NULL;
  /* A sanitizer build unwinds every allocation in full, so one main loop
   * iteration that allocates much (the list taking a batch of rows) takes
   * seconds there: it floods past the history's bound too, but not five
   * times past it, waits longer, and says how long the window did not
   * answer without holding it to the bound of the other builds. */
  gboolean slow = sanitized ();
  guint count = slow ? 2 * TB_MCP_WIRE_HISTORY_MAX_RECORDS : 10000;

  if (f->client == NULL)
    return;
  if (slow)
    tb_tool_registry_set_default_timeout_ms (f->registry, 600 * 1000);
  open_window (f, -1, -1);
  view = view_of (f);

  tick = g_timeout_add (20, tick_cb, ticks);
  arguments = g_strdup_printf ("{\"count\": %u}", count);
  result = call (f, "flood", arguments);
  settle (f);
  g_source_remove (tick);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_test_message ("the longest the window did not answer: %" G_GINT64_FORMAT " ms",
                  ticks[1] / 1000);
  if (!slow)
    g_assert_cmpint (ticks[1], <, 2 * G_USEC_PER_SEC);

  rows = tb_mcp_wire_view_get_n_rows (view);
  g_assert_cmpuint (rows, <=, TB_MCP_WIRE_HISTORY_MAX_RECORDS);
  g_assert_cmpuint (rows, >, 1000);
  last = tb_mcp_wire_view_get_row_text (view, rows - 1);
  g_assert_true (g_str_has_prefix (last, "Received result of tools/call #4, "));
  g_assert_cmpuint (count_rows (f, "Received notifications/message, "), >=, rows - 2);
}

/* A result larger than a record keeps: its size on the row, the start of
 * it in the detail with a note saying so. */
static void
test_truncated (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  TbMcpWireView *view;
  g_autofree char *detail = NULL;
  g_autofree char *copied = NULL;
  gint64 start;
  gint row;

  if (f->client == NULL)
    return;
  open_window (f, -1, -1);
  view = view_of (f);
  result = call (f, "big", "{\"size\": 3000000}");
  g_assert_true (tb_tool_result_get_ok (result));
  settle (f);

  row = find_row (f, "Received result of tools/call #4, 3.0\302\240MB");
  g_assert_cmpint (row, >=, 0);
  start = g_get_monotonic_time ();
  tb_mcp_wire_view_select (view, row);
  iterate_ms (100);
  g_test_message ("the detail took %" G_GINT64_FORMAT " ms",
                  (g_get_monotonic_time () - start) / 1000);
  g_assert_cmpint (g_get_monotonic_time () - start, <, detail_bound_us ());
  settle (f);
  g_assert_nonnull (strstr (tb_mcp_wire_view_get_note (view),
                            "Only the first 262.1\302\240kB of this 3.0\302\240MB message are "
                            "kept, as text."));
  g_assert_nonnull (strstr (tb_mcp_wire_view_get_note (view),
                            "The first 65.5\302\240kB are shown here; Copy copies all of it."));
  g_assert_nonnull (strstr (tb_mcp_wire_view_get_note (view),
                            "Long lines are broken here to be shown; Copy copies the message as "
                            "it is."));
  detail = tb_mcp_wire_view_get_detail_text (view);
  g_assert_cmpuint (strlen (detail), <=, 64 * 1024 + 64);
  g_assert_true (g_str_has_prefix (detail, "{\"jsonrpc\": \"2.0\", \"id\": 4,"));
  copied = tb_mcp_wire_view_dup_copy_text (view);
  g_assert_cmpuint (strlen (copied), ==, TB_MCP_WIRE_MAX_TEXT);
}

/* A message larger than the client reads (50 MB): the client stops, the
 * row says how much came, the detail shows its start at once. */
static void
test_too_large (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  TbMcpWireView *view;
  g_autofree char *detail = NULL;
  gint64 start;
  gint row;

  if (f->client == NULL)
    return;
  open_window (f, -1, -1);
  view = view_of (f);
  result = call (f, "big", "{\"size\": 50000000}");
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_nonnull (strstr (tb_tool_result_get_error (result),
                            "sent a message larger than 32.0\302\240MiB"));
  settle (f);

  row = find_row (f, "Received not a JSON-RPC message, over 3");
  g_assert_cmpint (row, >=, 0);
  start = g_get_monotonic_time ();
  tb_mcp_wire_view_select (view, row);
  iterate_ms (100);
  g_test_message ("the detail took %" G_GINT64_FORMAT " ms",
                  (g_get_monotonic_time () - start) / 1000);
  g_assert_cmpint (g_get_monotonic_time () - start, <, detail_bound_us ());
  g_assert_nonnull (strstr (tb_mcp_wire_view_get_note (view),
                            "Not a JSON-RPC message: The message is larger than 32.0\302\240MiB, "
                            "the most the client reads"));
  detail = tb_mcp_wire_view_get_detail_text (view);
  g_assert_true (g_str_has_prefix (detail, "{\"jsonrpc\": \"2.0\", \"id\": 4,"));
  g_assert_cmpuint (strlen (detail), <=, 64 * 1024 + 64);
}

/* Text that is not JSON is listed as it came, marked. */
static void
test_invalid (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbToolResult) result = NULL;
  TbMcpWireView *view;
  g_autofree char *detail = NULL;
  gint row;

  if (f->client == NULL)
    return;
  open_window (f, -1, -1);
  view = view_of (f);
  result = call (f, "garbage", NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  settle (f);

  row = find_row (f, "Received not a JSON-RPC message, 23 bytes");
  g_assert_cmpint (row, >=, 0);
  tb_mcp_wire_view_select (view, row);
  settle (f);
  detail = tb_mcp_wire_view_get_detail_text (view);
  g_assert_cmpstr (detail, ==, "this is not json at all");
  g_assert_nonnull (strstr (tb_mcp_wire_view_get_note (view), "Not a JSON-RPC message: "));
}

/* Over HTTP a message shows the exchange that carried it, its status and
 * its headers, the credentials masked. */
static void
test_http (Fixture       *f,
           gconstpointer  data)
{
  TbMcpWireView *view;
  const char *http;
  gint row;

  open_window (f, -1, -1);
  view = view_of (f);
  row = find_row (f, "Sent initialize #2, ");
  g_assert_cmpint (row, ==, 2);
  tb_mcp_wire_view_select (view, row);
  settle (f);
  http = tb_mcp_wire_view_get_http_text (view);
  g_assert_nonnull (http);
  g_assert_true (g_str_has_prefix (http, "POST /mcp HTTP/1.1\n"));
  g_assert_nonnull (strstr (http, "\nAuthorization: [redacted]\n"));
  g_assert_nonnull (strstr (http, "\nHTTP/1.1 200 OK\n"));
  g_assert_nonnull (strstr (http, "\nMcp-Session-Id: window-session"));
  g_assert_null (strstr (http, "window-token-321"));
}

/* A narrow window: the page switcher goes to the bottom. */
static void
test_narrow (Fixture       *f,
             gconstpointer  data)
{
  if (f->client == NULL)
    return;
  open_window (f, 360, 560);
  g_test_message ("the narrow window is %d px wide", gtk_widget_get_width (GTK_WIDGET (f->window)));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 400);
  g_assert_true (tb_mcp_server_window_get_narrow (f->window));
  g_assert_cmpuint (tb_mcp_wire_view_get_n_rows (view_of (f)), >=, 5);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 900, 600);
  iterate_ms (300);
  g_assert_false (tb_mcp_server_window_get_narrow (f->window));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_log_set_writer_func (record_gtk_warnings, NULL, NULL);

  g_test_add ("/mcp-server-window/messages", Fixture, NULL, setup_fake, test_messages, teardown);
  g_test_add ("/mcp-server-window/export", Fixture, NULL, setup_fake, test_export, teardown);
  g_test_add ("/mcp-server-window/flood", Fixture, NULL, setup_fake, test_flood, teardown);
  g_test_add ("/mcp-server-window/truncated", Fixture, NULL, setup_fake, test_truncated,
              teardown);
  g_test_add ("/mcp-server-window/too-large", Fixture, NULL, setup_fake, test_too_large,
              teardown);
  g_test_add ("/mcp-server-window/invalid", Fixture, NULL, setup_fake, test_invalid, teardown);
  g_test_add ("/mcp-server-window/http", Fixture, NULL, setup_http, test_http, teardown);
  g_test_add ("/mcp-server-window/narrow", Fixture, NULL, setup_fake, test_narrow, teardown);

  return g_test_run ();
}
