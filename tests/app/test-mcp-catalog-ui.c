/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A server's Resources and Prompts pages, its log level and its icon,
 * under Xvfb: against the real server-everything (resources, templates,
 * completions, prompts into the Loop page) and against
 * tests/app/catalog-mcp-server.py for what it does not do (an image
 * resource, subscriptions, content of an unknown kind, a server without
 * capabilities, 10,000 resources, a listing that fails). GTK warns about
 * nothing. */

#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>
#include <string.h>

#include "../mcp/mcp-test-util.h"
#include "tb-mcp-icon.h"
#include "tb-mcp-log-view-private.h"
#include "tb-mcp-prompts-view-private.h"
#include "tb-mcp-resource-row.h"
#include "tb-mcp-resources-view-private.h"
#include "tb-mcp-server-row.h"
#include "tb-mcp-server-window-private.h"
#include "tb-app-util.h"
#include "tb-loop-page-private.h"
#include "tb-resource-view-private.h"
#include "tb-resource-window-private.h"
#include "tb-window.h"
#include "../test-soup-util.h"
#include "window-test-util.h"
#include "tb-mcp-argument-entry-private.h"

typedef struct
{
  TbToolRegistry    *registry;
  TbMcpClient       *client;
  TbMcpServerWindow *window;
} Fixture;

static GPtrArray *gtk_warnings;

static const char *
log_field (const GLogField *fields,
           gsize            n_fields,
           const char      *key)
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

typedef gboolean (*Condition) (gpointer data);

static void
wait_until (Condition condition,
            gpointer  data)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (!condition (data) && g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  g_assert_true (condition (data));
}

/* The search is applied after a pause in typing. */
static gboolean
one_row (gpointer view)
{
  return tb_mcp_resources_view_get_n_rows (view) == 1;
}

typedef struct
{
  const char *text;
  gboolean    searched;
} Search;

static gboolean
search_done (gpointer data)
{
  return ((Search *) data)->searched;
}

static void
on_search_changed (GtkEditable *entry,
                   Search      *search)
{
  /* Replacing the text empties the entry first, which is searched at once. */
  if (g_str_equal (gtk_editable_get_text (entry), search->text))
    search->searched = TRUE;
}

/* Types @text into a search entry and waits until it is searched for: the
 * entry does so after a pause in typing, which a slow build (a
 * sanitizer's) reaches after more than a fixed pause. */
static void
search_for (GtkEditable *entry,
            const char  *text)
{
  Search search = { text, FALSE };
  gulong id = g_signal_connect (entry, "search-changed", G_CALLBACK (on_search_changed),
                                &search);

  gtk_editable_set_text (entry, text);
  wait_until (search_done, &search);
  g_signal_handler_disconnect (entry, id);
}

static void
setup_with (Fixture    *f,
            char      **argv,
            const char *reason)
{
  g_autoptr(GError) error = NULL;

  gtk_warnings = g_ptr_array_new_with_free_func (g_free);
  f->registry = tb_tool_registry_new ();
  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }
  f->client = tb_mcp_client_new_stdio ("catalog", (const char * const *) argv, NULL, NULL);
  tb_mcp_client_attach (f->client, f->registry);
  if (!mcp_test_connect (f->client, &error))
    g_error ("the server did not start: %s", error->message);
}

static void
setup_everything (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);

  setup_with (f, argv, reason);
}

/* catalog-mcp-server.py in the mode the test's data names. */
static void
setup_script (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "catalog-mcp-server.py", NULL);
  char *argv[] = { (char *) "/usr/bin/python3", script, (char *) data, NULL };

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    setup_with (f, NULL, "Needs /usr/bin/python3");
  else
    setup_with (f, argv, NULL);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  while (g_list_model_get_n_items (toplevels) > 0)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, 0);

      gtk_window_destroy (window);
    }
  window_test_iterate (50);
  if (f->client != NULL)
    {
      tb_mcp_client_detach (f->client);
      tb_mcp_client_disconnect (f->client);
      g_clear_object (&f->client);
    }
  window_test_iterate (50);
  g_clear_object (&f->registry);

  for (guint i = 0; i < gtk_warnings->len; i++)
    g_printerr ("Gtk warned: %s\n", (char *) g_ptr_array_index (gtk_warnings, i));
  g_assert_cmpuint (gtk_warnings->len, ==, 0);
  g_clear_pointer (&gtk_warnings, g_ptr_array_unref);
}

static gboolean
resources_settled (gpointer data)
{
  return tb_mcp_resources_view_is_settled (data);
}

static gboolean
prompts_settled (gpointer data)
{
  return tb_mcp_prompts_view_is_settled (data);
}

static TbMcpResourcesView *
open_resources (Fixture *f)
{
  TbMcpResourcesView *view;

  f->window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (f->client));
  gtk_window_present (GTK_WINDOW (f->window));
  tb_mcp_server_window_show_page (f->window, "resources");
  view = tb_mcp_server_window_get_resources_view (f->window);
  wait_until (resources_settled, view);
  window_test_iterate (50);
  return view;
}

static TbMcpPromptsView *
open_prompts (Fixture *f)
{
  TbMcpPromptsView *view;

  f->window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (f->client));
  gtk_window_present (GTK_WINDOW (f->window));
  tb_mcp_server_window_show_page (f->window, "prompts");
  view = tb_mcp_server_window_get_prompts_view (f->window);
  wait_until (prompts_settled, view);
  window_test_iterate (50);
  return view;
}

/* How many messages of the session went out with @method. */
static guint
count_sent (Fixture    *f,
            const char *method)
{
  GListModel *history = tb_mcp_client_get_wire_history (f->client);
  guint found = 0;

  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      found += tb_mcp_wire_record_get_direction (record) == TB_MCP_WIRE_DIRECTION_SENT
               && g_strcmp0 (tb_mcp_wire_record_get_method (record), method) == 0;
    }
  return found;
}

static const char *
last_sent_text (Fixture    *f,
                const char *method)
{
  GListModel *history = tb_mcp_client_get_wire_history (f->client);
  const char *text = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (history); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (history, i);

      if (tb_mcp_wire_record_get_direction (record) == TB_MCP_WIRE_DIRECTION_SENT
          && g_strcmp0 (tb_mcp_wire_record_get_method (record), method) == 0)
        text = tb_mcp_wire_record_get_text (record);
    }
  return text;
}

static gboolean
window_loaded (gpointer data)
{
  const char *page = tb_resource_view_get_page (tb_resource_window_get_view (data));

  return g_strcmp0 (page, "loading") != 0;
}

static TbResourceView *
wait_for_window (TbMcpResourcesView *view,
                 const char         *uri)
{
  TbResourceWindow *window = tb_mcp_resources_view_get_window (view, uri);

  g_assert_nonnull (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  wait_until (window_loaded, window);
  return tb_resource_window_get_view (window);
}

static gboolean
entry_settled (gpointer data)
{
  return tb_mcp_argument_entry_is_settled (data);
}

/* Types @text as a person does: the entry asks for suggestions after a
 * pause. */
static void
type_into (TbMcpArgumentEntry *entry,
           const char         *text)
{
  gtk_widget_grab_focus (GTK_WIDGET (tb_mcp_argument_entry_get_editable (entry)));
  gtk_editable_set_text (tb_mcp_argument_entry_get_editable (entry), text);
  window_test_iterate (20);
  wait_until (entry_settled, entry);
}

static gboolean
strv_has (char       **values,
          const char  *value)
{
  return values != NULL && g_strv_contains ((const char * const *) values, value);
}

/* ---- server-everything ------------------------------------------------------- */

static void
test_everything_resources (Fixture       *f,
                           gconstpointer  data)
{
  TbMcpResourcesView *view;
  g_autofree char *first = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *doc_uri = NULL;
  TbResourceView *resource;
  guint all;
  gint row;

  if (f->client == NULL)
    return;
  view = open_resources (f);
  g_assert_cmpstr (tb_mcp_resources_view_get_state (view), ==, "list");
  all = tb_mcp_resources_view_get_n_rows (view);
  g_assert_cmpuint (all, >, 3);
  first = tb_mcp_resources_view_get_row_text (view, 0);
  g_test_message ("first row: %s", first);

  /* Search narrows by URI; the templates stay findable by theirs. */
  search_for (tb_mcp_resources_view_get_search_entry (view), "ARCHITECTURE");
  g_assert_cmpuint (tb_mcp_resources_view_get_n_rows (view), >=, 1);
  g_assert_cmpuint (tb_mcp_resources_view_get_n_rows (view), <, all);
  shown = tb_mcp_resources_view_get_row_text (view, 0);
  g_assert_nonnull (strstr (shown, "architecture.md"));
  g_assert_nonnull (strstr (shown, "text/markdown"));

  /* A text resource opens in a resource window. */
  doc_uri = g_strdup (strchr (shown, '\n') + 1);
  *strchr (doc_uri, '\n') = '\0';
  /* Enter in the search opens the first match. */
  g_signal_emit_by_name (tb_mcp_resources_view_get_search_entry (view), "activate");
  resource = wait_for_window (view, doc_uri);
  g_assert_cmpstr (tb_resource_view_get_page (resource), ==, "text");
  g_clear_pointer (&shown, g_free);
  shown = tb_resource_view_dup_text (resource);
  g_assert_nonnull (strstr (shown, "Architecture"));

  search_for (tb_mcp_resources_view_get_search_entry (view), "no such thing at all");
  g_assert_cmpuint (tb_mcp_resources_view_get_n_rows (view), ==, 0);
  g_assert_cmpstr (tb_mcp_resources_view_get_state (view), ==, "status");
  g_assert_cmpstr (tb_mcp_resources_view_get_status_title (view), ==, "No Matching Resources");

  /* A template: its form has one entry per variable; Open expands it and
   * reads the blob it names. */
  search_for (tb_mcp_resources_view_get_search_entry (view), "dynamic/blob");
  row = tb_mcp_resources_view_find_row (view, "demo://resource/dynamic/blob/{resourceId}");
  g_assert_cmpint (row, >=, 0);
  tb_mcp_resources_view_activate_row (view, row);
  g_assert_cmpstr (tb_mcp_resources_view_get_page (view), ==, "template");
  g_assert_cmpuint (tb_mcp_resources_view_get_n_fields (view), ==, 1);
  g_assert_cmpstr (tb_mcp_argument_entry_get_argument (tb_mcp_resources_view_get_field (view, 0)),
                   ==, "resourceId");
  type_into (tb_mcp_resources_view_get_field (view, 0), "4");
  {
    g_auto(GStrv) suggestions =
      tb_mcp_argument_entry_dup_suggestions (tb_mcp_resources_view_get_field (view, 0));

    /* server-everything completes an id only with itself: nothing to add. */
    g_assert_cmpuint (g_strv_length (suggestions), ==, 0);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "resources.open-template",
                                             NULL));
  resource = wait_for_window (view, "demo://resource/dynamic/blob/4");
  g_assert_cmpstr (tb_resource_view_get_page (resource), ==, "text");
  g_clear_pointer (&shown, g_free);
  shown = tb_resource_view_dup_text (resource);
  g_assert_true (g_str_has_prefix (shown, "Resource 4: This is a base64 blob"));
  g_assert_null (tb_mcp_resources_view_get_template_message (view));
}

static void
test_everything_prompts (Fixture       *f,
                         gconstpointer  data)
{
  TbMcpPromptsView *view;
  TbMcpPromptForm *form;
  TbMcpArgumentEntry *department;
  TbMcpArgumentEntry *name;
  g_autoptr(TbWindow) main_window = NULL;
  TbLoopPage *loop_page;
  GListModel *messages;
  g_autoptr(TbMessage) first = NULL;
  g_auto(GStrv) suggestions = NULL;
  guint all;

  if (f->client == NULL)
    return;
  view = open_prompts (f);
  g_assert_cmpstr (tb_mcp_prompts_view_get_state (view), ==, "list");
  all = tb_mcp_prompts_view_get_n_rows (view);
  g_assert_cmpuint (all, >=, 4);
  search_for (tb_mcp_prompts_view_get_search_entry (view), "team");
  g_assert_cmpuint (tb_mcp_prompts_view_get_n_rows (view), ==, 1);

  /* Completions as suggestions, the first argument as the context of the
   * second. */
  g_assert_true (tb_mcp_prompts_view_select (view, "completable-prompt"));
  g_assert_cmpstr (tb_mcp_prompts_view_get_page (view), ==, "prompt");
  form = tb_mcp_prompts_view_get_form (view);
  department = tb_mcp_prompt_form_get_field (form, "department");
  name = tb_mcp_prompt_form_get_field (form, "name");
  g_assert_true (tb_mcp_argument_entry_get_required (department));
  type_into (department, "S");
  suggestions = tb_mcp_argument_entry_dup_suggestions (department);
  g_assert_true (strv_has (suggestions, "Sales"));
  g_assert_true (strv_has (suggestions, "Support"));
  g_assert_false (strv_has (suggestions, "Engineering"));
  g_clear_pointer (&suggestions, g_strfreev);
  type_into (department, "Sales");
  type_into (name, "");
  suggestions = tb_mcp_argument_entry_dup_suggestions (name);
  g_assert_true (strv_has (suggestions, "David"));
  g_assert_true (strv_has (suggestions, "Eve"));
  g_assert_false (strv_has (suggestions, "Alice"));

  /* A missing required argument is named, and nothing is sent. */
  gtk_widget_activate_action (GTK_WIDGET (view), "prompts.back", NULL);
  search_for (tb_mcp_prompts_view_get_search_entry (view), "");
  g_assert_true (tb_mcp_prompts_view_select (view, "args-prompt"));
  form = tb_mcp_prompts_view_get_form (view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.get", NULL));
  g_assert_cmpstr (tb_mcp_prompt_form_get_message (form), ==,
                   "The prompt “args-prompt” needs a value for “city”");
  g_assert_cmpuint (tb_mcp_prompt_form_get_n_requests (form), ==, 0);
  g_assert_cmpuint (count_sent (f, "prompts/get"), ==, 0);

  gtk_editable_set_text (tb_mcp_argument_entry_get_editable (
                           tb_mcp_prompt_form_get_field (form, "city")), "Lisbon");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.get", NULL));
  wait_until ((Condition) tb_mcp_prompt_form_is_settled, form);
  g_assert_null (tb_mcp_prompt_form_get_message (form));
  g_assert_cmpstr (tb_mcp_prompt_form_get_result_text (form), ==,
                   "user:\nWhat's weather in Lisbon?\n");

  /* Use in Loop: the messages start the main window's Loop page. */
  main_window = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  gtk_window_present (GTK_WINDOW (main_window));
  window_test_iterate (100);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.use-in-loop", NULL));
  g_assert_null (tb_mcp_prompt_form_get_message (form));
  loop_page = tb_window_get_loop_page (main_window);
  g_assert_nonnull (tb_loop_page_get_loop (loop_page));
  messages = tb_dispatch_loop_get_messages (tb_loop_page_get_loop (loop_page));
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 1);
  first = g_list_model_get_item (messages, 0);
  g_assert_cmpint (tb_message_get_role (first), ==, TB_MESSAGE_ROLE_USER);
  g_assert_cmpstr (tb_message_get_text (first), ==, "What's weather in Lisbon?");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (tb_window_get_view_stack (main_window)),
                   ==, "loop");
  window_test_iterate (100);
  g_assert_cmpuint (tb_loop_page_get_n_rows (loop_page), ==, 1);
  gtk_window_destroy (GTK_WINDOW (main_window));
}

/* ---- catalog-mcp-server.py --------------------------------------------------- */

static gboolean
row_updated (gpointer data)
{
  g_autofree char *text = tb_mcp_resources_view_get_row_text (data, 0);

  return strstr (text, "Updated") != NULL;
}

/* Activates the first suggestion of @entry, as a click on it does. */
static void
pick_first_suggestion (TbMcpArgumentEntry *entry)
{
  GtkWidget *list = window_test_find (GTK_WIDGET (entry), window_test_is_a, GSIZE_TO_POINTER (GTK_TYPE_LIST_BOX));
  GtkListBoxRow *row;

  g_assert_nonnull (list);
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0);
  g_assert_nonnull (row);
  g_signal_emit_by_name (list, "row-activated", row);
}

static void
test_rich_resources (Fixture       *f,
                     gconstpointer  data)
{
  TbMcpResourcesView *view;
  TbResourceView *resource;
  g_autofree char *row = NULL;
  g_autofree char *shown = NULL;
  gint position;

  if (f->client == NULL)
    return;
  view = open_resources (f);
  g_assert_cmpuint (tb_mcp_resources_view_get_n_rows (view), ==, 4);
  row = tb_mcp_resources_view_get_row_text (view, 0);
  g_assert_cmpstr (row, ==, "Welcome Note\nnote://welcome\ntext/plain · 13 bytes");
  g_clear_pointer (&row, g_free);
  row = tb_mcp_resources_view_get_row_text (view, 2);
  g_assert_cmpstr (row, ==, "shopping\nnote://shopping\ntext/markdown");
  g_clear_pointer (&row, g_free);
  row = tb_mcp_resources_view_get_row_text (view, 3);
  g_assert_cmpstr (row, ==, "Note in a Folder\nnote://{folder}/{name}\nTemplate · text/plain");

  /* Search looks in descriptions too. */
  gtk_editable_set_text (tb_mcp_resources_view_get_search_entry (view), "pixel");
  wait_until (one_row, view);
  g_assert_cmpuint (tb_mcp_resources_view_get_n_rows (view), ==, 1);

  /* An image resource shows as an image. */
  tb_mcp_resources_view_activate_row (view, 0);
  resource = wait_for_window (view, "picture://dot.png");
  g_assert_cmpstr (tb_resource_view_get_page (resource), ==, "image");

  /* Subscribing: the server's update marks the row and re-reads the
   * window. */
  search_for (tb_mcp_resources_view_get_search_entry (view), "");
  position = tb_mcp_resources_view_find_row (view, "note://welcome");
  g_assert_cmpint (position, ==, 0);
  tb_mcp_resources_view_set_subscribed (view, position, TRUE);
  wait_until (row_updated, view);
  g_assert_cmpuint (count_sent (f, "resources/subscribe"), ==, 1);
  g_assert_null (tb_mcp_resources_view_get_message (view));
  tb_mcp_resources_view_activate_row (view, position);
  resource = wait_for_window (view, "note://welcome");
  shown = tb_resource_view_dup_text (resource);
  g_assert_cmpstr (shown, ==, "Hello, reader");
  g_clear_pointer (&row, g_free);
  row = tb_mcp_resources_view_get_row_text (view, 0);
  g_assert_null (strstr (row, "Updated"));
}

static void
test_template_empty (Fixture       *f,
                     gconstpointer  data)
{
  TbMcpResourcesView *view;
  TbResourceView *resource;
  g_auto(GStrv) suggestions = NULL;
  guint reads;

  if (f->client == NULL)
    return;
  view = open_resources (f);
  tb_mcp_resources_view_activate_row (view, 3);
  g_assert_cmpstr (tb_mcp_resources_view_get_page (view), ==, "template");
  g_assert_cmpuint (tb_mcp_resources_view_get_n_fields (view), ==, 2);
  type_into (tb_mcp_resources_view_get_field (view, 1), "list");
  reads = count_sent (f, "resources/read");

  /* The empty variable is named; nothing is read. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "resources.open-template",
                                             NULL));
  g_assert_cmpstr (tb_mcp_resources_view_get_template_message (view), ==,
                   "Fill in “folder”: the template needs every variable.");
  window_test_iterate (100);
  g_assert_cmpuint (count_sent (f, "resources/read"), ==, reads);
  g_assert_null (tb_mcp_resources_view_get_window (view, "note:///list"));
  g_assert_cmpstr (tb_mcp_argument_entry_get_text (tb_mcp_resources_view_get_field (view, 1)),
                   ==, "list");

  /* The variable's completions, then the filled-in template. */
  type_into (tb_mcp_resources_view_get_field (view, 0), "w");
  suggestions = tb_mcp_argument_entry_dup_suggestions (tb_mcp_resources_view_get_field (view, 0));
  g_assert_cmpuint (g_strv_length (suggestions), ==, 1);
  g_assert_cmpstr (suggestions[0], ==, "work");
  g_assert_nonnull (strstr (last_sent_text (f, "completion/complete"), "\"ref/resource\""));
  /* Picking the suggestion puts it in the entry and closes the list. */
  pick_first_suggestion (tb_mcp_resources_view_get_field (view, 0));
  g_assert_cmpstr (tb_mcp_argument_entry_get_text (tb_mcp_resources_view_get_field (view, 0)),
                   ==, "work");
  g_clear_pointer (&suggestions, g_strfreev);
  suggestions = tb_mcp_argument_entry_dup_suggestions (tb_mcp_resources_view_get_field (view, 0));
  g_assert_cmpuint (g_strv_length (suggestions), ==, 0);
  type_into (tb_mcp_resources_view_get_field (view, 0), "work");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "resources.open-template",
                                             NULL));
  g_assert_null (tb_mcp_resources_view_get_template_message (view));
  resource = wait_for_window (view, "note://work/list");
  {
    g_autofree char *shown = tb_resource_view_dup_text (resource);

    g_assert_cmpstr (shown, ==, "The note at note://work/list");
  }
}

/* The one resource window open, or NULL. */
static TbResourceWindow *
only_resource_window (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();
  TbResourceWindow *found = NULL;

  for (GList *l = windows; l != NULL; l = l->next)
    if (TB_IS_RESOURCE_WINDOW (l->data))
      {
        g_assert_null (found);
        found = l->data;
      }
  return found;
}

static gboolean
shows_text (TbResourceWindow *window,
            const char       *text)
{
  g_autofree char *shown = tb_resource_view_dup_text (tb_resource_window_get_view (window));

  return g_strcmp0 (shown, text) == 0;
}

static gboolean
shows_inline_note (gpointer window)
{
  return shows_text (window, "Carried along");
}

static gboolean
shows_welcome_note (gpointer window)
{
  return shows_text (window, "Hello, reader");
}

static void
test_unknown_content (Fixture       *f,
                      gconstpointer  data)
{
  TbMcpPromptsView *view;
  TbMcpPromptForm *form;
  TbResourceWindow *window;
  const char *text;

  if (f->client == NULL)
    return;
  view = open_prompts (f);
  g_assert_cmpuint (tb_mcp_prompts_view_get_n_rows (view), ==, 2);
  g_assert_true (tb_mcp_prompts_view_select (view, "strange"));
  form = tb_mcp_prompts_view_get_form (view);
  g_assert_cmpuint (tb_mcp_prompt_form_get_n_fields (form), ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.get", NULL));
  wait_until ((Condition) tb_mcp_prompt_form_is_settled, form);
  text = tb_mcp_prompt_form_get_result_text (form);
  g_test_message ("%s", text);
  /* The content MCP has no name for is shown as its JSON, not dropped. */
  g_assert_true (g_str_has_prefix (text, "user:\nLook at this:\nuser:\n{"));
  g_assert_nonnull (strstr (text, "\"type\" : \"hologram\""));
  g_assert_nonnull (strstr (text, "\"frames\" : 3"));
  g_assert_nonnull (strstr (text, "assistant:\n[image (image/png, 70 bytes)]\n"));
  g_assert_nonnull (strstr (text, "user:\nEmbedded resource note://inline\n"
                                  "user:\nLink to the resource note://welcome\n"));

  /* Each Open button shows its own resource: the embedded one as it came,
   * the linked one as the server reads it; a target past the result's
   * resources opens nothing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.open-resource", "u", 0));
  window = only_resource_window ();
  wait_until (shows_inline_note, window);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.open-resource", "u", 1));
  window = only_resource_window ();
  wait_until (shows_welcome_note, window);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.open-resource", "u", 7));
  g_assert_null (only_resource_window ());
}

static void
test_log_level (Fixture       *f,
                gconstpointer  data)
{
  TbMcpLogView *log_view;
  GtkDropDown *dropdown;

  if (f->client == NULL)
    return;
  f->window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (f->client));
  gtk_window_present (GTK_WINDOW (f->window));
  tb_mcp_server_window_show_page (f->window, "log");
  log_view = tb_mcp_server_window_get_log_view (f->window);
  dropdown = tb_mcp_log_view_get_level_dropdown (log_view);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dropdown)));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, GTK_INVALID_LIST_POSITION);
  g_assert_cmpuint (count_sent (f, "logging/setLevel"), ==, 0);

  gtk_drop_down_set_selected (dropdown, 3);
  window_test_iterate (20);
  wait_until ((Condition) tb_mcp_log_view_level_is_settled, log_view);
  g_assert_cmpuint (count_sent (f, "logging/setLevel"), ==, 1);
  g_assert_nonnull (strstr (last_sent_text (f, "logging/setLevel"), "\"level\":\"warning\""));
  g_assert_null (tb_mcp_log_view_get_level_status (log_view));

  /* A level the server refuses is said in the page, with its words. */
  gtk_drop_down_set_selected (dropdown, 6);
  window_test_iterate (20);
  wait_until ((Condition) tb_mcp_log_view_level_is_settled, log_view);
  g_test_message ("%s", tb_mcp_log_view_get_level_status (log_view));
  g_assert_true (g_str_has_prefix (tb_mcp_log_view_get_level_status (log_view),
                                   "The server did not take the level “alert”: "));
  g_assert_nonnull (strstr (tb_mcp_log_view_get_level_status (log_view),
                            "Level alert is not supported here"));
}

/* The row that shows the resource at @uri, under @widget. */
static gboolean
is_resource_row_of (GtkWidget     *widget,
                    gconstpointer  uri)
{
  TbMcpResource *resource;

  if (!TB_IS_MCP_RESOURCE_ROW (widget))
    return FALSE;
  resource = tb_mcp_resource_row_get_resource (TB_MCP_RESOURCE_ROW (widget));
  return resource != NULL && g_strcmp0 (tb_mcp_resource_get_uri (resource), uri) == 0;
}

static TbMcpResourceRow *
find_resource_row (GtkWidget  *widget,
                   const char *uri)
{
  return (TbMcpResourceRow *) window_test_find (widget, is_resource_row_of, uri);
}

/* Closing the window ends the subscriptions it made. */
static void
test_unsubscribe (Fixture       *f,
                  gconstpointer  data)
{
  TbMcpResourcesView *view;
  TbMcpResourceRow *row;
  GtkWidget *toggle;

  if (f->client == NULL)
    return;
  view = open_resources (f);
  /* The row's toggle subscribes, as a click on it does. */
  window_test_iterate (100);
  row = find_resource_row (GTK_WIDGET (view), "note://welcome");
  g_assert_nonnull (row);
  toggle = gtk_widget_get_last_child (GTK_WIDGET (row));
  g_assert_true (GTK_IS_TOGGLE_BUTTON (toggle));
  g_assert_true (gtk_widget_get_visible (toggle));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  wait_until (row_updated, view);
  g_assert_cmpuint (count_sent (f, "resources/unsubscribe"), ==, 0);
  gtk_window_destroy (GTK_WINDOW (f->window));
  f->window = NULL;
  window_test_iterate (200);
  g_assert_cmpuint (count_sent (f, "resources/unsubscribe"), ==, 1);
  g_assert_nonnull (strstr (last_sent_text (f, "resources/unsubscribe"), "note://welcome"));
}

static gboolean
has_paintable (gpointer data)
{
  return gtk_image_get_storage_type (data) == GTK_IMAGE_PAINTABLE;
}

static void
test_icon (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(JsonArray) icons = NULL;
  GtkWidget *row;
  GtkWidget *list;
  GtkWidget *window;
  GtkWidget *image;

  if (f->client == NULL)
    return;
  icons = tb_mcp_client_get_server_icons (f->client);
  g_assert_nonnull (icons);
  g_assert_cmpuint (json_array_get_length (icons), ==, 1);

  f->window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (f->client));
  gtk_window_present (GTK_WINDOW (f->window));
  wait_until (has_paintable, tb_mcp_server_window_get_icon (f->window));

  /* The server's row in the preferences shows it too. */
  window = gtk_window_new ();
  list = gtk_list_box_new ();
  row = tb_mcp_server_row_new ("catalog", "python3 catalog-mcp-server.py", TRUE, f->client);
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  gtk_window_set_child (GTK_WINDOW (window), list);
  gtk_window_present (GTK_WINDOW (window));
  image = window_test_find_named (row, "mcp-server-icon");
  g_assert_nonnull (image);
  g_assert_true (gtk_widget_get_visible (image));
  wait_until (has_paintable, image);
}

static void
test_none (Fixture       *f,
           gconstpointer  data)
{
  TbMcpResourcesView *resources;
  TbMcpPromptsView *prompts;
  GtkDropDown *dropdown;
  g_autoptr(JsonArray) icons = NULL;

  if (f->client == NULL)
    return;
  resources = open_resources (f);
  g_assert_cmpstr (tb_mcp_resources_view_get_state (resources), ==, "status");
  g_assert_cmpstr (tb_mcp_resources_view_get_status_title (resources), ==,
                   "This server offers no resources");
  tb_mcp_server_window_show_page (f->window, "prompts");
  prompts = tb_mcp_server_window_get_prompts_view (f->window);
  wait_until (prompts_settled, prompts);
  g_assert_cmpstr (tb_mcp_prompts_view_get_state (prompts), ==, "status");
  g_assert_cmpstr (tb_mcp_prompts_view_get_status_title (prompts), ==,
                   "This server offers no prompts");
  g_assert_cmpuint (count_sent (f, "resources/list"), ==, 0);
  g_assert_cmpuint (count_sent (f, "prompts/list"), ==, 0);

  dropdown = tb_mcp_log_view_get_level_dropdown (tb_mcp_server_window_get_log_view (f->window));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dropdown)));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (dropdown)),
                            "declared no logging capability"));

  /* No icon: the fallback stays. */
  icons = tb_mcp_client_get_server_icons (f->client);
  g_assert_null (icons);
  g_assert_cmpint (gtk_image_get_storage_type (tb_mcp_server_window_get_icon (f->window)), ==,
                   GTK_IMAGE_ICON_NAME);
}

/* No completions capability: no request, no suggestions, the form works. */
static void
test_plain (Fixture       *f,
            gconstpointer  data)
{
  TbMcpPromptsView *view;
  TbMcpPromptForm *form;
  TbMcpArgumentEntry *name;
  g_auto(GStrv) suggestions = NULL;

  if (f->client == NULL)
    return;
  view = open_prompts (f);
  g_assert_true (tb_mcp_prompts_view_select (view, "greet"));
  form = tb_mcp_prompts_view_get_form (view);
  name = tb_mcp_prompt_form_get_field (form, "name");
  type_into (name, "A");
  window_test_iterate (400);
  suggestions = tb_mcp_argument_entry_dup_suggestions (name);
  g_assert_cmpuint (g_strv_length (suggestions), ==, 0);
  g_assert_cmpuint (count_sent (f, "completion/complete"), ==, 0);
  type_into (name, "Ada");
  /* Enter in an argument gets the prompt. */
  g_signal_emit_by_name (tb_mcp_argument_entry_get_editable (name), "activate");
  wait_until ((Condition) tb_mcp_prompt_form_is_settled, form);
  g_assert_cmpstr (tb_mcp_prompt_form_get_result_text (form), ==,
                   "A greeting\nuser:\nSay hello to Ada\n");
  g_assert_nonnull (strstr (last_sent_text (f, "prompts/get"), "\"name\":\"Ada\""));
  g_assert_null (strstr (last_sent_text (f, "prompts/get"), "mood"));
}

static void
test_broken (Fixture       *f,
             gconstpointer  data)
{
  TbMcpResourcesView *view;

  if (f->client == NULL)
    return;
  view = open_resources (f);
  g_assert_cmpstr (tb_mcp_resources_view_get_state (view), ==, "status");
  g_assert_cmpstr (tb_mcp_resources_view_get_status_title (view), ==,
                   "Could Not List the Resources");
  /* The server's words are shown as they are, not read as markup. */
  g_assert_nonnull (strstr (tb_mcp_resources_view_get_status_text (view),
                            "The catalog database is locked by <backup> & cannot be read"));
}

static gboolean
rows_shown (gpointer data)
{
  TbMcpResourcesView *view = data;

  return tb_mcp_resources_view_is_settled (view)
         && g_strcmp0 (tb_mcp_resources_view_get_state (view), "list") == 0;
}

static void
test_many (Fixture       *f,
           gconstpointer  data)
{
  TbMcpResourcesView *view;
  g_autofree char *last = NULL;
  gint64 start;
  gint64 listed;
  gint64 shown;
  gint64 searched;

  if (f->client == NULL)
    return;
  f->window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (f->client));
  gtk_window_present (GTK_WINDOW (f->window));
  window_test_iterate (100);
  view = tb_mcp_server_window_get_resources_view (f->window);
  start = g_get_monotonic_time ();
  tb_mcp_server_window_show_page (f->window, "resources");
  wait_until (rows_shown, view);
  listed = g_get_monotonic_time ();
  /* The rows on screen are made and drawn in the next frames. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  window_test_iterate (16);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  shown = g_get_monotonic_time ();
  g_test_message ("10,000 resources: listed in %" G_GINT64_FORMAT " ms (100 pages), rows shown "
                  "%" G_GINT64_FORMAT " ms after the listing, %" G_GINT64_FORMAT " ms in all",
                  (listed - start) / 1000, (shown - listed) / 1000, (shown - start) / 1000);
  g_assert_cmpuint (tb_mcp_resources_view_get_n_rows (view), ==, 10000);
  g_assert_cmpuint (count_sent (f, "resources/list"), ==, 100);
  last = tb_mcp_resources_view_get_row_text (view, 9999);
  g_assert_cmpstr (last, ==, "item-09999\nmany://09999\n");
  /* The templates' "method not found" is said, the resources still show. */
  g_assert_nonnull (strstr (tb_mcp_resources_view_get_message (view),
                            "could not list its resource templates"));

  start = g_get_monotonic_time ();
  search_for (tb_mcp_resources_view_get_search_entry (view), "09999");
  searched = g_get_monotonic_time ();
  g_test_message ("searching 10,000 resources took %" G_GINT64_FORMAT " ms with the search "
                  "entry's delay", (searched - start) / 1000);
  g_assert_cmpuint (tb_mcp_resources_view_get_n_rows (view), ==, 1);
}

/* Controls a screen reader names (GTK_A11Y=test). */
static gboolean
inside_named_owner (GtkWidget *widget)
{
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_DROP_DOWN (w) || GTK_IS_SEARCH_ENTRY (w) || GTK_IS_WINDOW_CONTROLS (w)
        || GTK_IS_POPOVER (w) || ADW_IS_VIEW_SWITCHER (w) || ADW_IS_VIEW_SWITCHER_BAR (w)
        || ADW_IS_VIEW_SWITCHER_TITLE (w))
      return TRUE;
  return FALSE;
}

static void
collect_unnamed (GtkWidget *widget,
                 GString   *unnamed,
                 guint     *checked)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if ((GTK_IS_BUTTON (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_SEARCH_ENTRY (widget)
       || GTK_IS_LIST_VIEW (widget) || GTK_IS_ENTRY (widget) || GTK_IS_PICTURE (widget)
       || GTK_IS_TEXT_VIEW (widget))
      && !inside_named_owner (widget))
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
    collect_unnamed (child, unnamed, checked);
}

static void
assert_named (Fixture    *f,
              const char *where)
{
  g_autoptr(GString) unnamed = g_string_new (NULL);
  guint checked = 0;

  window_test_iterate (300);
  collect_unnamed (GTK_WIDGET (f->window), unnamed, &checked);
  g_test_message ("%s: %u controls checked", where, checked);
  g_assert_cmpuint (checked, >, 1);
  g_assert_cmpstr (unnamed->str, ==, "");
}

static gboolean
is_list_view (GtkWidget     *widget,
              gconstpointer  data)
{
  return GTK_IS_LIST_VIEW (widget);
}

/* Down in a page's search goes to its first row, and Up there back: the
 * prompts and the resources lists alike. */
static void
test_search_down (Fixture       *f,
                  gconstpointer  data)
{
  TbMcpPromptsView *prompts;
  TbMcpResourcesView *resources;
  GtkWidget *pages[2];

  if (f->client == NULL)
    return;
  prompts = open_prompts (f);
  resources = tb_mcp_server_window_get_resources_view (f->window);
  tb_mcp_server_window_show_page (f->window, "resources");
  wait_until (resources_settled, resources);
  pages[0] = GTK_WIDGET (prompts);
  pages[1] = GTK_WIDGET (resources);

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      GtkWidget *entry = GTK_WIDGET (i == 0 ? tb_mcp_prompts_view_get_search_entry (prompts)
                                            : tb_mcp_resources_view_get_search_entry (resources));
      GtkWidget *list = window_test_find (pages[i], is_list_view, NULL);

      tb_mcp_server_window_show_page (f->window, i == 0 ? "prompts" : "resources");
      window_test_iterate (50);
      gtk_widget_grab_focus (entry);
      g_assert_true (window_test_send_key (window_test_key_controller (entry), GDK_KEY_Down));
      g_assert_true (window_test_has_focus_in (list));
      g_assert_true (window_test_send_key (window_test_key_controller (list), GDK_KEY_Up));
      g_assert_true (window_test_has_focus_in (entry));
    }
}

/* Every control of the pages has a name; a narrow window keeps them. */
static void
test_a11y_narrow (Fixture       *f,
                  gconstpointer  data)
{
  TbMcpResourcesView *resources;
  TbMcpPromptsView *prompts;
  TbMcpPromptForm *form;

  if (f->client == NULL)
    return;
  f->window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (f->client));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 600);
  gtk_window_present (GTK_WINDOW (f->window));
  tb_mcp_server_window_show_page (f->window, "resources");
  resources = tb_mcp_server_window_get_resources_view (f->window);
  wait_until (resources_settled, resources);
  assert_named (f, "resources");
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 400);
  g_assert_true (tb_mcp_server_window_get_narrow (f->window));
  tb_mcp_resources_view_activate_row (resources, 3);
  type_into (tb_mcp_resources_view_get_field (resources, 0), "");
  assert_named (f, "template");

  tb_mcp_server_window_show_page (f->window, "prompts");
  prompts = tb_mcp_server_window_get_prompts_view (f->window);
  wait_until (prompts_settled, prompts);
  assert_named (f, "prompts");
  g_assert_true (tb_mcp_prompts_view_select (prompts, "strange"));
  form = tb_mcp_prompts_view_get_form (prompts);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (form), "prompt.get", NULL));
  wait_until ((Condition) tb_mcp_prompt_form_is_settled, form);
  assert_named (f, "prompt");

  tb_mcp_server_window_show_page (f->window, "log");
  assert_named (f, "log");
}

/* ---- icons over HTTP ----------------------------------------------------------- */

static void
icon_handler (SoupServer        *server,
              SoupServerMessage *msg,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  static const char png[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5E"
    "rkJggg==";

  if (g_str_equal (path, "/icon.png"))
    {
      gsize length;
      guchar *data = g_base64_decode (png, &length);

      soup_server_message_set_response (msg, "image/png", SOUP_MEMORY_TAKE, (char *) data,
                                        length);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
    }
  else if (g_str_equal (path, "/huge.png"))
    {
      /* Chunked, so that only reading tells its size. */
      soup_message_headers_set_encoding (soup_server_message_get_response_headers (msg),
                                         SOUP_ENCODING_CHUNKED);
      for (guint i = 0; i < 40; i++)
        soup_message_body_append_take (soup_server_message_get_response_body (msg),
                                       g_malloc0 (16384), 16384);
      soup_message_body_complete (soup_server_message_get_response_body (msg));
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
    }
  else
    soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

static GdkPaintable *
load_icon (const char  *src,
           GError     **error)
{
  g_autoptr(JsonArray) icons = json_array_new ();
  g_autoptr(JsonObject) icon = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;

  json_object_set_string_member (icon, "src", src);
  json_array_add_object_element (icons, json_object_ref (icon));
  tb_mcp_icon_load_async (icons, NULL, store_result, &result);
  wait_until (has_result, &result);
  return tb_mcp_icon_load_finish (result, error);
}

static void
test_icon_http (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autofree char *base = NULL;
  g_autofree char *url = NULL;

  soup_server_add_handler (server, NULL, icon_handler, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  base = g_strdup_printf ("http://127.0.0.1:%u", test_server_port (server));

  url = g_strconcat (base, "/icon.png", NULL);
  paintable = load_icon (url, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==, 1);
  g_clear_object (&paintable);
  g_clear_pointer (&url, g_free);

  url = g_strconcat (base, "/huge.png", NULL);
  paintable = load_icon (url, &error);
  g_assert_null (paintable);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpstr (error->message, ==, "The server’s icon is larger than 256 KiB");
  g_clear_error (&error);
  g_clear_pointer (&url, g_free);

  url = g_strconcat (base, "/missing.png", NULL);
  paintable = load_icon (url, &error);
  g_assert_null (paintable);
  g_assert_cmpstr (error->message, ==, "The server’s icon could not be fetched: HTTP 404");
  g_clear_error (&error);

  paintable = load_icon ("data:image/png;base64,bm90IGFuIGltYWdl", &error);
  g_assert_null (paintable);
  g_assert_nonnull (error);
  g_clear_error (&error);

  paintable = load_icon ("file:///etc/passwd", &error);
  g_assert_null (paintable);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  soup_server_disconnect (server);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tb-no-bus", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  tb_app_init ();
  g_log_set_writer_func (record_gtk_warnings, NULL, NULL);

  g_test_add ("/mcp-catalog-ui/everything/resources", Fixture, NULL, setup_everything,
              test_everything_resources, teardown);
  g_test_add ("/mcp-catalog-ui/everything/prompts", Fixture, NULL, setup_everything,
              test_everything_prompts, teardown);
  g_test_add ("/mcp-catalog-ui/resources", Fixture, "rich", setup_script, test_rich_resources,
              teardown);
  g_test_add ("/mcp-catalog-ui/template-empty", Fixture, "rich", setup_script,
              test_template_empty, teardown);
  g_test_add ("/mcp-catalog-ui/unknown-content", Fixture, "rich", setup_script,
              test_unknown_content, teardown);
  g_test_add ("/mcp-catalog-ui/log-level", Fixture, "rich", setup_script, test_log_level,
              teardown);
  g_test_add ("/mcp-catalog-ui/unsubscribe", Fixture, "rich", setup_script, test_unsubscribe,
              teardown);
  g_test_add ("/mcp-catalog-ui/icon", Fixture, "rich", setup_script, test_icon, teardown);
  g_test_add ("/mcp-catalog-ui/search-down", Fixture, "rich", setup_script, test_search_down,
              teardown);
  g_test_add ("/mcp-catalog-ui/a11y-narrow", Fixture, "rich", setup_script, test_a11y_narrow,
              teardown);
  g_test_add ("/mcp-catalog-ui/no-capabilities", Fixture, "none", setup_script, test_none,
              teardown);
  g_test_add ("/mcp-catalog-ui/no-completions", Fixture, "plain", setup_script, test_plain,
              teardown);
  g_test_add ("/mcp-catalog-ui/listing-fails", Fixture, "broken", setup_script, test_broken,
              teardown);
  g_test_add ("/mcp-catalog-ui/many", Fixture, "many", setup_script, test_many, teardown);
  g_test_add_func ("/mcp-catalog-ui/icon-http", test_icon_http);
  return g_test_run ();
}
