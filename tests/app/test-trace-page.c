/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <toolbench.h>

#include "tb-app-util.h"
/* Large files are read and replayed, slowly under a sanitizer. */
#define WINDOW_TEST_WAIT_SECONDS (g_getenv ("ASAN_OPTIONS") != NULL ? 600 : 60)
#include "window-test-util.h"
#include "tb-timeline-row.h"
#include "tb-trace-page-private.h"
#include "tb-fork-editor-private.h"
#include "tb-timeline-row-private.h"
#include "tb-replay-report-view-private.h"

/* The Trace page's timeline: the rows say what `toolbench-cli trace show`
 * says, grouped the same way; they can be filtered; a large file stays a
 * view over its index. */

typedef struct
{
  GtkWindow   *window;
  TbTracePage *page;
  char        *dir;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("toolbench-trace-page-XXXXXX", NULL);
  f->window = GTK_WINDOW (gtk_window_new ());
  f->page = TB_TRACE_PAGE (tb_trace_page_new ());
  gtk_window_set_child (f->window, GTK_WIDGET (f->page));
  gtk_window_set_default_size (f->window, 1000, 700);
  gtk_window_present (f->window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->page)));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  gtk_window_destroy (f->window);
  window_test_iterate (50);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
}

static char *
cli (const char *first,
     ...)
{
  const char *program = g_getenv ("TOOLBENCH_CLI");
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  va_list ap;

  g_assert_nonnull (program);
  g_ptr_array_add (args, (char *) program);
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&out);
}

static void
open_and_wait (Fixture    *f,
               const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tb_trace_page_open_file (f->page, file);
  /* Read, and the rows of MCP messages closed: that is done in an idle,
   * which a slow build reaches after more than a fixed pause. */
  WAIT_UNTIL (!tb_trace_page_get_busy (f->page) && f->page->close_groups_id == 0);
  window_test_iterate (100);
}

/* Every event row says what trace show prints for it, as deep in the tree
 * as trace show indents it, and the headings are the same. */
static void
test_cli_parity (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "demo.jsonl", NULL);
  g_autofree char *run = cli ("run", "-n", "10", "-q", "--prompt", "What is 2 + 3?",
                              "--trace", path, NULL);
  g_autofree char *shown = cli ("trace", "show", path, NULL);
  g_auto(GStrv) lines = g_strsplit (shown, "\n", -1);
  g_autoptr(GPtrArray) headings = g_ptr_array_new ();
  guint n_rows, n_events = 0, checked = 0;

  open_and_wait (f, path);
  n_rows = tb_trace_page_get_n_rows (f->page);
  g_assert_cmpuint (n_rows, >, 22);

  for (guint i = 0; i < n_rows; i++)
    {
      guint depth = 0;
      gint event = -2;
      g_autofree char *text = tb_trace_page_get_row (f->page, i, &depth, &event);

      if (event < 0)
        {
          g_assert_cmpuint (depth, ==, 0);
          g_ptr_array_add (headings, g_strdup (text));
          continue;
        }
      n_events++;
      for (guint l = 0; lines[l] != NULL; l++)
        {
          gint64 seq;
          char *rest;

          if (strlen (lines[l]) < 21 || lines[l][4] == ' ')
            continue;
          seq = g_ascii_strtoll (lines[l], &rest, 10);
          if (seq != event + 1)
            continue;
          /* "  12       0.024 s  " then two spaces a level, then the sentence */
          g_assert_cmpstr (lines[l] + 21 + 2 * depth, ==, text);
          g_assert_cmpint (lines[l][21 + 2 * depth - 1], ==, ' ');
          checked++;
        }
    }
  g_assert_cmpuint (n_events, ==, 22);
  g_assert_cmpuint (checked, ==, 22);

  /* The headings, in the same order. */
  {
    guint h = 0;

    for (guint l = 0; lines[l] != NULL; l++)
      if (g_str_has_prefix (lines[l], "                     ") && lines[l][21] != ' ')
        g_assert_cmpstr (lines[l] + 21, ==, g_ptr_array_index (headings, h++));
    g_assert_cmpuint (h, ==, headings->len);
    g_assert_cmpuint (h, ==, 4);
  }
  g_ptr_array_foreach (headings, (GFunc) g_free, NULL);

  /* What a person reads, in order. */
  {
    g_autofree char *first = tb_trace_page_get_row (f->page, 0, NULL, NULL);
    g_autofree char *second = tb_trace_page_get_row (f->page, 1, NULL, NULL);
    g_autofree char *call = tb_trace_page_get_event_row_text (f->page, 5);
    g_autofree char *result = tb_trace_page_get_event_row_text (f->page, 7);

    g_assert_cmpstr (first, ==, "Before the first request");
    g_assert_cmpstr (second, ==, "You: What is 2 + 3?");
    g_assert_cmpstr (call, ==, "Model calls add {a: 2, b: 3}");
    g_assert_true (g_str_has_prefix (result, "add → 5 in "));
  }
  g_assert_nonnull (run);
}

static void
test_filter (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "demo.jsonl", NULL);
  g_autofree char *run = cli ("run", "-n", "10", "-q", "--prompt", "What is 2 + 3?",
                              "--trace", path, NULL);
  g_autofree char *detail = NULL;

  open_and_wait (f, path);

  /* Decisions only: the two approvals, no headings. */
  tb_trace_page_set_filter (f->page, TB_TRACE_KIND_DECISION, NULL);
  g_assert_cmpuint (tb_trace_page_get_n_rows (f->page), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *text = tb_trace_page_get_row (f->page, i, NULL, NULL);

      g_assert_true (g_str_has_prefix (text, "Policy approved "));
    }

  /* Search: the rows that name echo, whatever their case. */
  tb_trace_page_set_filter (f->page, -1, "ECHO");
  g_assert_cmpuint (tb_trace_page_get_n_rows (f->page), ==, 5);
  for (guint i = 0; i < tb_trace_page_get_n_rows (f->page); i++)
    {
      g_autofree char *text = tb_trace_page_get_row (f->page, i, NULL, NULL);

      g_assert_nonnull (strstr (text, "echo"));
    }

  /* Back to everything; a response's body shows as JSON, not a string. */
  tb_trace_page_set_filter (f->page, -1, NULL);
  g_assert_cmpuint (tb_trace_page_get_n_rows (f->page), ==, 26);
  tb_trace_page_select_event (f->page, 2);
  g_assert_cmpint (tb_trace_page_get_selected_event (f->page), ==, 2);
  detail = tb_trace_page_get_detail_text (f->page);
  g_assert_nonnull (strstr (detail, "\"body\" : {"));
  g_assert_nonnull (strstr (detail, "\"name\" : \"add\""));
  g_assert_nonnull (run);
}

/* Down in the search goes to the first row of the timeline (not to the
 * kind filter under the search), and Up on that row back. */
static void
test_search_down (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "demo.jsonl", NULL);
  g_autofree char *run = cli ("run", "-n", "10", "-q", "--prompt", "What is 2 + 3?",
                              "--trace", path, NULL);
  GtkWidget *entry = GTK_WIDGET (f->page->search_entry);
  GtkWidget *timeline = GTK_WIDGET (f->page->timeline_view);
  GtkWidget *first = NULL;

  g_assert_nonnull (run);
  open_and_wait (f, path);
  gtk_editable_set_text (GTK_EDITABLE (entry), "echo");
  WAIT_UNTIL (tb_trace_page_get_n_rows (f->page) == 5);
  window_test_iterate (50);
  gtk_widget_grab_focus (entry);

  g_assert_true (window_test_send_key (window_test_key_controller (entry), GDK_KEY_Down));
  for (GtkWidget *child = gtk_widget_get_first_child (timeline); child != NULL && first == NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_child_visible (child))
      first = child;
  g_assert_true (window_test_has_focus_in (first));

  g_assert_true (window_test_send_key (window_test_key_controller (timeline), GDK_KEY_Up));
  g_assert_true (window_test_has_focus_in (entry));
}

/* A call's MCP messages sit under it in a row of their own, closed until
 * a person opens it; then each says which way it went, what it is, its id
 * and its size, and shows the message as JSON when selected. */
static void
test_mcp_messages (Fixture       *f,
                   gconstpointer  data)
{
  static const char *lines =
    "{\"format\":\"toolbench-trace\",\"version\":1,\"created\":\"2026-01-01T00:00:00Z\","
    "\"tools\":[],\"provider\":{\"kind\":\"scripted\"},\"max_iterations\":5}\n"
    "{\"seq\":1,\"t\":1,\"type\":\"message\",\"iteration\":0,\"origin\":\"person\","
    "\"message\":{\"role\":\"user\",\"text\":\"Go\"}}\n"
    "{\"seq\":2,\"t\":2,\"type\":\"message\",\"iteration\":1,\"origin\":\"model\","
    "\"message\":{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"name\":\"echo\","
    "\"arguments\":{}}]}}\n"
    "{\"seq\":3,\"t\":3,\"type\":\"tool-call\",\"iteration\":1,\"index\":0,\"offered\":true,"
    "\"call\":{\"id\":\"c1\",\"name\":\"echo\",\"arguments\":{}}}\n"
    "{\"seq\":4,\"t\":4,\"type\":\"mcp-message\",\"iteration\":1,\"server\":\"fake\","
    "\"direction\":\"sent\",\"kind\":\"request\",\"method\":\"tools/call\",\"id\":3,"
    "\"size\":80,\"call_id\":\"c1\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":3,"
    "\"method\":\"tools/call\"}}\n"
    "{\"seq\":5,\"t\":5,\"type\":\"mcp-message\",\"iteration\":1,\"server\":\"fake\","
    "\"direction\":\"received\",\"kind\":\"result\",\"method\":\"tools/call\",\"id\":3,"
    "\"size\":60,\"call_id\":\"c1\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":3,"
    "\"result\":{}}}\n"
    "{\"seq\":6,\"t\":6,\"type\":\"tool-result\",\"iteration\":1,\"call_id\":\"c1\","
    "\"name\":\"echo\",\"result\":{\"ok\":true,\"output\":\"hi\"},\"content\":\"hi\"}\n"
    "{\"seq\":7,\"t\":7,\"type\":\"end\",\"iteration\":1,\"state\":\"finished\","
    "\"reason\":\"answer\",\"max_iterations\":5}\n";
  g_autofree char *path = g_build_filename (f->dir, "mcp.jsonl", NULL);
  g_autofree char *detail = NULL;
  g_autofree char *sent = NULL;
  g_autofree char *received = NULL;
  gint group = -1;
  guint call_depth = 0, group_depth = 0;

  g_assert_true (g_file_set_contents (path, lines, -1, NULL));
  open_and_wait (f, path);
  window_test_iterate (100);

  for (guint i = 0; i < tb_trace_page_get_n_rows (f->page); i++)
    {
      guint depth = 0;
      gint event = -2;
      g_autofree char *text = tb_trace_page_get_row (f->page, i, &depth, &event);

      if (event == 2)
        call_depth = depth;
      if (g_strcmp0 (text, "MCP messages") == 0)
        {
          group = i;
          group_depth = depth;
          g_assert_cmpint (event, ==, -1);
        }
    }
  g_assert_cmpint (group, >=, 0);
  g_assert_cmpuint (group_depth, ==, call_depth + 1);
  /* Closed: the messages are not listed. */
  g_assert_null (tb_trace_page_get_event_row_text (f->page, 3));
  g_assert_null (tb_trace_page_get_event_row_text (f->page, 4));
  {
    g_autofree char *result = tb_trace_page_get_event_row_text (f->page, 5);

    g_assert_nonnull (result);
  }

  {
    g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (f->page->selection),
                                                           group);

    gtk_tree_list_row_set_expanded (row, TRUE);
  }
  window_test_iterate (100);
  sent = tb_trace_page_get_event_row_text (f->page, 3);
  received = tb_trace_page_get_event_row_text (f->page, 4);
  g_assert_cmpstr (sent, ==, "MCP fake → tools/call #3, 80 bytes");
  g_assert_cmpstr (received, ==, "MCP fake ← result of tools/call #3, 60 bytes");
  tb_trace_page_select_event (f->page, 3);
  detail = tb_trace_page_get_detail_text (f->page);
  g_assert_nonnull (strstr (detail, "\"method\" : \"tools/call\""));
  g_assert_nonnull (strstr (detail, "\"call_id\" : \"c1\""));
}

/* In a narrow window the timeline goes above the details, at the page's
 * width, instead of a strip beside them; back in a wide one it is beside
 * them where it was. */
static void
test_narrow_layout (Fixture       *f,
                    gconstpointer  data)
{
  GtkOrientable *paned = GTK_ORIENTABLE (f->page->paned);
  GtkWidget *timeline = gtk_paned_get_start_child (f->page->paned);

  g_assert_cmpint (gtk_orientable_get_orientation (paned), ==, GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_position (f->page->paned, 430);
  window_test_iterate (100);

  gtk_window_set_default_size (f->window, 400, 700);
  WAIT_UNTIL (gtk_orientable_get_orientation (paned) == GTK_ORIENTATION_VERTICAL);
  window_test_iterate (100);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->page)), <=, 400);
  /* The timeline takes the page's width, less its margins. */
  g_assert_cmpint (gtk_widget_get_width (timeline), >=, gtk_widget_get_width (GTK_WIDGET (f->page)) - 40);

  gtk_window_set_default_size (f->window, 1000, 700);
  WAIT_UNTIL (gtk_orientable_get_orientation (paned) == GTK_ORIENTATION_HORIZONTAL);
  window_test_iterate (100);
  g_assert_cmpint (gtk_paned_get_position (f->page->paned), ==, 430);
}

/* A replay's divergence selects the call it is about in the timeline. */
static void
test_divergence_selects_row (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "demo.jsonl", NULL);
  g_autofree char *run = cli ("run", "-n", "10", "-q", "--prompt", "What is 2 + 3?",
                              "--trace", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *row = NULL;

  open_and_wait (f, path);
  g_assert_true (tb_trace_page_fork (f->page, 1, TB_REPLAY_EDIT_ARGUMENTS,
                                     "{\"text\": \"2 + 3 = 6\"}", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!tb_trace_page_get_busy (f->page));
  g_assert_true (tb_trace_page_get_report_row_highlighted (f->page, 1));
  /* The second call is the 14th event. */
  g_assert_cmpint (tb_trace_page_get_selected_event (f->page), ==, 13);
  row = tb_trace_page_get_event_row_text (f->page, 13);
  g_assert_cmpstr (row, ==, "Model calls echo {text: \"2 + 3 = 5\"}");
  g_assert_nonnull (run);
}

/* A trace naming a tool nobody has: rows say what it did; a live replay
 * says the tool is not found, and nothing crashes. */
static void
test_unknown_tool (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "gone.jsonl", NULL);
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autofree char *text = NULL;
  g_autofree char *step = NULL;
  const char *trace =
    "{\"format\":\"toolbench-trace\",\"version\":1,\"created\":\"2026-01-01\",\"tools\":"
    "[{\"name\":\"vanished\",\"description\":\"Gone\",\"parameters\":{\"type\":\"object\"}}],"
    "\"max_iterations\":3}\n"
    "{\"seq\":1,\"t\":1,\"type\":\"message\",\"iteration\":0,\"origin\":\"person\","
    "\"message\":{\"role\":\"user\",\"text\":\"go\"}}\n"
    "{\"seq\":2,\"t\":2,\"type\":\"message\",\"iteration\":1,\"origin\":\"model\","
    "\"message\":{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"name\":\"vanished\","
    "\"arguments\":{}}]}}\n"
    "{\"seq\":3,\"t\":3,\"type\":\"tool-call\",\"iteration\":1,\"index\":0,\"offered\":true,"
    "\"call\":{\"id\":\"c1\",\"name\":\"vanished\",\"arguments\":{}}}\n"
    "{\"seq\":4,\"t\":4,\"type\":\"decision\",\"iteration\":1,\"call_id\":\"c1\","
    "\"decision\":\"approve\",\"by\":\"policy\"}\n"
    "{\"seq\":5,\"t\":5,\"type\":\"tool-result\",\"iteration\":1,\"call_id\":\"c1\","
    "\"name\":\"vanished\",\"result\":{\"ok\":true,\"kind\":\"none\",\"output\":1,"
    "\"duration_us\":5},\"content\":\"1\"}\n"
    "{\"seq\":6,\"t\":6,\"type\":\"message\",\"iteration\":2,\"origin\":\"model\","
    "\"message\":{\"role\":\"assistant\",\"text\":\"done\"}}\n"
    "{\"seq\":7,\"t\":7,\"type\":\"end\",\"iteration\":2,\"state\":\"finished\","
    "\"reason\":\"answer\"}\n";

  g_assert_true (g_file_set_contents (path, trace, -1, NULL));
  open_and_wait (f, path);
  text = tb_trace_page_get_event_row_text (f->page, 2);
  g_assert_cmpstr (text, ==, "Model calls vanished {}");

  tb_trace_page_set_registry (f->page, registry);
  tb_trace_page_set_live (f->page, TRUE);
  g_signal_emit_by_name (tb_trace_page_get_button (f->page, "replay"), "clicked");
  WAIT_UNTIL (tb_trace_page_get_report (f->page) != NULL && !tb_trace_page_get_busy (f->page));
  step = tb_trace_page_get_report_row_text (f->page, 0);
  g_assert_true (g_str_has_prefix (step, "Step 1 — first divergence: vanished {}"));
  {
    TbReplayStep *first = tb_replay_report_get_step (tb_trace_page_get_report (f->page), 0);
    JsonObject *result = tb_json_object_get_object (tb_replay_step_get_replayed (first),
                                                    "result");

    g_assert_cmpstr (tb_json_object_get_string (result, "kind"), ==, "not-found");
  }
}

static gsize
rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmRSS:");
  return line != NULL ? g_ascii_strtoull (line + 6, NULL, 10) : 0;
}

/* A file too large to read whole stays a view over its index: scrolling
 * through every row does not make the process grow. */
static void
test_large_file_memory (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "large.jsonl", NULL);
  g_autofree char *filler = g_strnfill (900, 'x');
  FILE *out = fopen (path, "w");
  /* TB_LARGE_EVENTS=103000 makes a 100 MiB file, to measure by hand. */
  const char *wanted = g_getenv ("TB_LARGE_EVENTS");
  guint n = wanted != NULL ? (guint) g_ascii_strtoull (wanted, NULL, 10) : 40000;
  gsize before, indexed, scrolled;
  GStatBuf st;

  g_assert_nonnull (out);
  fprintf (out, "{\"format\":\"toolbench-trace\",\"version\":1,\"created\":\"2026-01-01\"}\n");
  for (guint i = 0; i < n; i++)
    fprintf (out, "{\"seq\":%u,\"t\":%u,\"type\":\"message\",\"iteration\":%u,"
             "\"origin\":\"person\",\"message\":{\"role\":\"user\",\"text\":\"%u %s\"}}\n",
             i + 1, i, i / 100, i, filler);
  fclose (out);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 32 * 1024 * 1024);

  before = rss_kib ();
  open_and_wait (f, path);
  /* The rows are placed a screenful at a time after the index is read. */
  WAIT_UNTIL (tb_trace_page_get_n_events (f->page) == n);
  g_assert_null (tb_trace_page_get_trace (f->page));
  indexed = rss_kib ();

  /* Rows from the first to the last, a hundred screens apart. */
  for (guint i = 0; i < n; i += 400)
    {
      tb_trace_page_select_event (f->page, i);
      g_main_context_iteration (NULL, FALSE);
    }
  window_test_iterate (200);
  scrolled = rss_kib ();
  g_test_message ("%.1f MiB file, %u events: %.1f MiB resident before opening, %.1f MiB "
                  "once indexed, %.1f MiB after scrolling through all of it",
                  st.st_size / 1048576.0, n, before / 1024.0, indexed / 1024.0,
                  scrolled / 1024.0);
  /* AddressSanitizer keeps freed memory aside: the bound means nothing there */
  if (g_getenv ("ASAN_OPTIONS") == NULL)
    g_assert_cmpuint (scrolled, <, indexed + 16 * 1024);
  {
    g_autofree char *last = tb_trace_page_get_event_row_text (f->page, n - 1);

    g_autofree char *expected = g_strdup_printf ("You: %u xxx", n - 1);

    g_assert_true (g_str_has_prefix (last, expected));
  }
}

/* The position of the @nth (from 0) event of @type in the shown trace,
 * or of the @nth model message for "model-message". */
static guint
event_position (Fixture    *f,
                const char *type,
                guint       nth)
{
  TbTrace *trace = tb_trace_page_get_trace (f->page);
  gboolean model = g_str_equal (type, "model-message");

  g_assert_nonnull (trace);
  for (guint i = 0; i < tb_trace_get_n_events (trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (trace, i);
      const char *t = tb_trace_event_get_event_type (event);
      const char *origin = tb_json_object_get_string (tb_trace_event_get_payload (event),
                                                      "origin");

      if ((model ? g_str_equal (t, "message") && g_strcmp0 (origin, "model") == 0
                 : g_str_equal (t, type))
          && nth-- == 0)
        return i;
    }
  g_assert_not_reached ();
  return 0;
}

static gboolean
is_timeline_row_at (GtkWidget     *widget,
                    gconstpointer  position)
{
  TbTimelineNode *node;

  if (!TB_IS_TIMELINE_ROW (widget))
    return FALSE;
  node = tb_timeline_row_get_node (TB_TIMELINE_ROW (widget));
  return node != NULL && tb_timeline_node_get_position (node) == GPOINTER_TO_INT (position);
}

static TbTimelineRow *
find_timeline_row (GtkWidget *widget,
                   gint       position)
{
  return (TbTimelineRow *) window_test_find (widget, is_timeline_row_at,
                                             GINT_TO_POINTER (position));
}

/* Clicks Fork… on the timeline row of the event at @position. */
static void
fork_row (Fixture *f,
          guint    position)
{
  TbTimelineRow *row;
  GtkWidget *button;

  tb_trace_page_select_event (f->page, position);
  window_test_iterate (50);
  row = find_timeline_row (GTK_WIDGET (f->page), position);
  g_assert_nonnull (row);
  button = tb_timeline_row_get_fork_button (row);
  g_assert_true (gtk_widget_get_visible (button));
  g_signal_emit_by_name (button, "clicked");
}

static char *
demo_trace (Fixture    *f,
            const char *name)
{
  char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *run = cli ("run", "-n", "10", "-q", "--prompt", "What is 2 + 3?",
                              "--trace", path, NULL);

  g_assert_nonnull (run);
  return path;
}

/* Fork… on a call's row fills the editor with its arguments; Continue
 * runs the fork, shows its trace with the report against its parent
 * (the edited step diverged), and Save Fork writes a trace whose header
 * names the parent. Rows of results and model turns fork those. */
static void
test_fork_from_row (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *path = demo_trace (f, "demo.jsonl");
  g_autofree char *saved = g_build_filename (f->dir, "fork.jsonl", NULL);
  g_autoptr(GFile) saved_file = g_file_new_for_path (saved);
  TbForkEditor *editor = tb_trace_page_get_fork_editor (f->page);
  GtkWidget *save = tb_trace_page_get_button (f->page, "save-fork");
  g_autofree char *text = NULL;
  g_autofree char *step = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(JsonNode) header = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *parent;

  open_and_wait (f, path);
  g_assert_false (tb_fork_editor_get_has_target (editor));
  g_assert_false (gtk_widget_get_sensitive (tb_trace_page_get_button (f->page, "fork")));
  g_assert_false (gtk_widget_get_sensitive (save));

  /* A result's row edits the result, a model message's row the turn. */
  fork_row (f, event_position (f, "tool-result", 0));
  g_assert_cmpint (tb_fork_editor_get_edit (editor), ==, TB_REPLAY_EDIT_RESULT);
  g_assert_cmpstr (tb_fork_editor_get_heading (editor), ==,
                   "Call 1, add: the result it gives instead of running");
  text = tb_fork_editor_dup_text (editor);
  g_assert_cmpstr (text, ==, "5");
  g_clear_pointer (&text, g_free);
  fork_row (f, event_position (f, "model-message", 1));
  g_assert_cmpint (tb_fork_editor_get_edit (editor), ==, TB_REPLAY_EDIT_MODEL_TURN);
  g_assert_cmpuint (tb_fork_editor_get_step (editor), ==, 1);
  g_assert_cmpstr (tb_fork_editor_get_heading (editor), ==,
                   "Model turn 2: what the model says instead");

  /* The second call's arguments, edited. */
  fork_row (f, event_position (f, "tool-call", 1));
  g_assert_cmpint (tb_fork_editor_get_edit (editor), ==, TB_REPLAY_EDIT_ARGUMENTS);
  g_assert_cmpuint (tb_fork_editor_get_step (editor), ==, 1);
  g_assert_cmpstr (tb_fork_editor_get_heading (editor), ==,
                   "Call 2, echo: the arguments it runs with");
  text = tb_fork_editor_dup_text (editor);
  g_assert_nonnull (strstr (text, "2 + 3 = 5"));
  gtk_text_buffer_set_text (tb_fork_editor_get_buffer (editor), "{\"text\": \"forked\"}", -1);
  g_assert_true (gtk_widget_get_sensitive (tb_trace_page_get_button (f->page, "fork")));
  g_signal_emit_by_name (tb_trace_page_get_button (f->page, "fork"), "clicked");
  WAIT_UNTIL (!tb_trace_page_get_busy (f->page));
  g_assert_null (tb_fork_editor_get_error (editor));

  /* The fork is shown, compared with its parent step by step. */
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, "Fork of demo.jsonl at call 2");
  g_assert_cmpuint (tb_trace_page_get_n_report_rows (f->page), ==, 3);
  g_assert_false (tb_trace_page_get_report_row_highlighted (f->page, 0));
  g_assert_true (tb_trace_page_get_report_row_highlighted (f->page, 1));
  step = tb_trace_page_get_report_row_text (f->page, 1);
  g_assert_true (g_str_has_prefix (step, "Step 2 — first divergence: "));
  g_assert_cmpint (tb_replay_step_get_status (
                     tb_replay_report_get_step (tb_trace_page_get_report (f->page), 1)), ==,
                   TB_REPLAY_DIFFERENT_ARGUMENTS);
  g_assert_nonnull (strstr (tb_replay_report_view_get_summary (
                              tb_trace_page_get_report_view (f->page)), "first at step 2"));
  /* Its timeline is the fork's: the second call ran the edited text. */
  {
    g_autofree char *row = tb_trace_page_get_event_row_text (f->page,
                                                             event_position (f, "tool-call", 1));

    g_assert_nonnull (row);
  }
  /* The diverged step is selected; the editor holds the fork's own value
   * of it, never the parent's. */
  g_clear_pointer (&text, g_free);
  text = tb_fork_editor_dup_text (editor);
  g_assert_nonnull (strstr (text, "forked"));
  g_assert_null (strstr (text, "2 + 3 = 5"));

  /* Save Fork: the header names the parent, the step and the edit. */
  g_assert_true (gtk_widget_get_sensitive (save));
  g_assert_true (tb_trace_page_save_fork_to (f->page, saved_file, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, "fork.jsonl");
  g_assert_true (g_file_get_contents (saved, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", 2);
  header = json_from_string (lines[0], &error);
  g_assert_no_error (error);
  parent = tb_json_object_get_object (json_node_get_object (header), "parent");
  g_assert_nonnull (parent);
  g_assert_cmpstr (tb_json_object_get_string (parent, "trace"), ==, "demo.jsonl");
  g_assert_cmpint (json_object_get_int_member (parent, "step"), ==, 2);
  g_assert_cmpstr (tb_json_object_get_string (parent, "edit"), ==, "arguments");
  g_assert_nonnull (strstr (contents, "\"forked\""));
}

/* Text that is not JSON is reported at the editor, stays as typed, and
 * cannot be run; fixed, the error goes. */
static void
test_fork_invalid_json (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *path = demo_trace (f, "demo.jsonl");
  TbForkEditor *editor = tb_trace_page_get_fork_editor (f->page);
  const char *typed = "{\"text\": \"half a thought";
  g_autofree char *kept = NULL;

  open_and_wait (f, path);
  fork_row (f, event_position (f, "tool-call", 0));
  gtk_text_buffer_set_text (tb_fork_editor_get_buffer (editor), typed, -1);
  g_assert_nonnull (tb_fork_editor_get_error (editor));
  g_assert_true (g_str_has_prefix (tb_fork_editor_get_error (editor),
                                     "The text is not valid JSON: "));
  g_assert_false (gtk_widget_get_sensitive (tb_trace_page_get_button (f->page, "fork")));
  g_signal_emit_by_name (tb_trace_page_get_button (f->page, "fork"), "clicked");
  window_test_iterate (50);
  g_assert_false (tb_trace_page_get_busy (f->page));
  g_assert_null (tb_trace_page_get_report (f->page));
  kept = tb_fork_editor_dup_text (editor);
  g_assert_cmpstr (kept, ==, typed);

  gtk_text_buffer_set_text (tb_fork_editor_get_buffer (editor), "{\"a\": 1, \"b\": 1}", -1);
  g_assert_null (tb_fork_editor_get_error (editor));
  g_assert_true (gtk_widget_get_sensitive (tb_trace_page_get_button (f->page, "fork")));
}

/* Opening another trace empties the editor: no JSON of the last one is
 * left to run against the new one. */
static void
test_fork_editor_cleared (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *first = demo_trace (f, "first.jsonl");
  g_autofree char *second = demo_trace (f, "second.jsonl");
  TbForkEditor *editor = tb_trace_page_get_fork_editor (f->page);
  g_autofree char *text = NULL;

  open_and_wait (f, first);
  fork_row (f, event_position (f, "tool-call", 0));
  gtk_text_buffer_set_text (tb_fork_editor_get_buffer (editor), "{\"a\": 99, \"b\": 1}", -1);
  g_assert_true (tb_fork_editor_get_has_target (editor));

  open_and_wait (f, second);
  text = tb_fork_editor_dup_text (editor);
  g_assert_cmpstr (text, ==, "");
  g_assert_false (tb_fork_editor_get_has_target (editor));
  g_assert_false (gtk_widget_get_sensitive (tb_trace_page_get_button (f->page, "fork")));
  g_assert_cmpstr (tb_fork_editor_get_heading (editor), ==,
                   "Choose Fork from Here on a call, a result or a model turn of the timeline.");
}

/* A trace cut before its end replays what it has, and the report says
 * above its steps that it cannot confirm the run. */
static void
test_report_incomplete (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *path = demo_trace (f, "demo.jsonl");
  g_autofree char *cut = g_build_filename (f->dir, "cut.jsonl", NULL);
  g_autofree char *contents = NULL;
  TbReplayReportView *view = tb_trace_page_get_report_view (f->page);
  const char *banner;
  char *end;

  /* A whole trace: no banner. */
  open_and_wait (f, path);
  g_signal_emit_by_name (tb_trace_page_get_button (f->page, "replay"), "clicked");
  WAIT_UNTIL (tb_trace_page_get_report (f->page) != NULL && !tb_trace_page_get_busy (f->page));
  g_assert_null (tb_replay_report_view_get_incomplete_text (view));

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  end = strstr (contents, "\"type\":\"end\"");
  g_assert_nonnull (end);
  while (end > contents && end[-1] != '\n')
    end--;
  g_assert_true (g_file_set_contents (cut, contents, end - contents, NULL));
  open_and_wait (f, cut);
  g_assert_null (tb_replay_report_view_get_incomplete_text (view));
  g_signal_emit_by_name (tb_trace_page_get_button (f->page, "replay"), "clicked");
  WAIT_UNTIL (tb_trace_page_get_report (f->page) != NULL && !tb_trace_page_get_busy (f->page));
  banner = tb_replay_report_view_get_incomplete_text (view);
  g_assert_nonnull (banner);
  g_assert_true (g_str_has_prefix (banner, "The recorded trace is incomplete, so the replay "
                                           "cannot confirm the run: "));
  g_assert_cmpstr (banner + strlen ("The recorded trace is incomplete, so the replay cannot "
                                    "confirm the run: "), ==,
                   tb_replay_report_get_incomplete (tb_trace_page_get_report (f->page)));
  g_assert_cmpuint (tb_trace_page_get_n_report_rows (f->page), >, 0);
}

/* Runs the page's own shortcut for @accelerator, as a key press on the
 * page would. */
static void
press (Fixture    *f,
       const char *accelerator)
{
  window_test_press (GTK_WIDGET (f->page), accelerator);
  window_test_iterate (50);
}

static GtkPopover *
event_menu (Fixture *f)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (f->page)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      return GTK_POPOVER (child);
  g_assert_not_reached ();
  return NULL;
}

/* The labels of the menu shown, joined by "|". */
static char *
menu_labels (Fixture *f)
{
  GMenuModel *model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (event_menu (f)));
  GString *out = g_string_new (NULL);

  for (gint i = 0; model != NULL && i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *label = NULL;

      g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_string_append_printf (out, "%s%s", i > 0 ? "|" : "", label);
    }
  return g_string_free (out, FALSE);
}

/* A row's menu by the keyboard (Menu, Shift+F10) and Ctrl+Shift+K: fork
 * from the selected event, copy it as JSON, show the request that led to
 * it. An event a fork cannot change has no Fork item. */
static void
test_event_menu (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = demo_trace (f, "menu.jsonl");
  TbForkEditor *editor = tb_trace_page_get_fork_editor (f->page);
  g_autofree char *labels = NULL;
  g_autofree char *copied = NULL;
  g_autoptr(JsonNode) event = NULL;
  guint call, request, end;

  open_and_wait (f, path);
  call = event_position (f, "tool-call", 0);
  request = event_position (f, "request", 0);
  end = event_position (f, "end", 0);
  g_assert_cmpuint (request, <, call);

  /* With nothing selected, the keys say what to do. */
  press (f, "<Control><Shift>k");
  g_assert_cmpstr (tb_trace_page_get_status_text (f->page), ==,
                   "Select the call, result or model turn to fork from.");
  press (f, "Menu");
  g_assert_cmpstr (tb_trace_page_get_status_text (f->page), ==,
                   "Select an event first: its menu is about that event.");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (event_menu (f))));

  /* Ctrl+Shift+K forks from the selected call. */
  tb_trace_page_select_event (f->page, call);
  window_test_iterate (50);
  press (f, "<Control><Shift>k");
  g_assert_true (tb_fork_editor_get_has_target (editor));
  g_assert_cmpint (tb_fork_editor_get_edit (editor), ==, TB_REPLAY_EDIT_ARGUMENTS);

  /* Menu and Shift+F10 open the call's menu. */
  press (f, "Menu");
  WAIT_UNTIL (gtk_widget_get_visible (GTK_WIDGET (event_menu (f))));
  labels = menu_labels (f);
  g_assert_cmpstr (labels, ==, "_Fork From Here|_Copy Event as JSON|Show _Wire Request");
  gtk_popover_popdown (event_menu (f));
  WAIT_UNTIL (!gtk_widget_get_visible (GTK_WIDGET (event_menu (f))));
  press (f, "<Shift>F10");
  WAIT_UNTIL (gtk_widget_get_visible (GTK_WIDGET (event_menu (f))));
  gtk_popover_popdown (event_menu (f));
  /* Closed, the menu leaves the keyboard on the timeline. */
  {
    GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (f->page));
    GtkWidget *focus = gtk_root_get_focus (root);

    WAIT_UNTIL ((focus = gtk_root_get_focus (root)) != NULL);
    g_assert_true (focus != NULL
                   && gtk_widget_is_ancestor (focus, GTK_WIDGET (f->page)));
    g_assert_nonnull (gtk_widget_get_ancestor (focus, GTK_TYPE_LIST_VIEW));
  }

  /* Copy puts the event's JSON on the clipboard. */
  gtk_widget_activate_action (GTK_WIDGET (f->page), "trace.copy-event", "i", (gint) call);
  copied = window_test_read_clipboard (GTK_WIDGET (f->page));
  event = tb_json_parse (copied, -1, NULL);
  g_assert_nonnull (event);
  g_assert_cmpstr (tb_json_object_get_string (json_node_get_object (event), "type"), ==,
                   "tool-call");

  /* Show Wire Request selects the request that led to the call. */
  gtk_widget_activate_action (GTK_WIDGET (f->page), "trace.show-wire", "i", (gint) call);
  g_assert_cmpint (tb_trace_page_get_selected_event (f->page), >=, (gint) request);
  g_assert_cmpint (tb_trace_page_get_selected_event (f->page), <, (gint) call);
  {
    g_autofree char *row = tb_trace_page_get_event_row_text (
                             f->page, tb_trace_page_get_selected_event (f->page));

    g_assert_true (g_str_has_prefix (row, "Request"));
  }

  /* The end of the run: nothing to fork. */
  tb_trace_page_select_event (f->page, end);
  window_test_iterate (50);
  press (f, "Menu");
  WAIT_UNTIL (gtk_widget_get_visible (GTK_WIDGET (event_menu (f))));
  g_clear_pointer (&labels, g_free);
  labels = menu_labels (f);
  g_assert_null (strstr (labels, "Fork"));
  g_assert_nonnull (strstr (labels, "_Copy Event as JSON"));
  gtk_popover_popdown (event_menu (f));
}

/* A file too large to read whole forks from its index: Fork… fills the
 * editor without reading the file, and Fork and Continue opens it (as a
 * replay does) and runs the fork, reading the events as the fork reaches
 * them: the process does not grow by the file's size. */
static void
test_large_file_fork (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *demo = demo_trace (f, "demo-small.jsonl");
  g_autofree char *path = g_build_filename (f->dir, "large-run.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *filler = g_strnfill (900, 'x');
  g_auto(GStrv) lines = NULL;
  TbForkEditor *editor = tb_trace_page_get_fork_editor (f->page);
  const guint n_filler = 40000;
  guint call = 0, seq = 0;
  gsize before, after;
  GStatBuf st;
  gboolean found = FALSE;
  FILE *out;

  g_assert_true (g_file_get_contents (demo, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  out = fopen (path, "w");
  g_assert_nonnull (out);
  fprintf (out, "%s\n", lines[0]);
  for (guint i = 0; i < n_filler; i++)
    fprintf (out, "{\"seq\":%u,\"t\":0,\"type\":\"warning\",\"iteration\":0,"
             "\"message\":\"%u %s\"}\n", ++seq, i, filler);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(JsonNode) line = tb_json_parse (lines[i], -1, NULL);
      JsonObject *object = json_node_get_object (line);
      g_autofree char *text = NULL;

      json_object_set_int_member (object, "seq", ++seq);
      if (!found && g_strcmp0 (tb_json_object_get_string (object, "type"), "tool-call") == 0)
        {
          call = seq - 1;
          found = TRUE;
        }
      text = tb_json_to_string (line, FALSE);
      fprintf (out, "%s\n", text);
    }
  fclose (out);
  g_assert_true (found);

  /* Replay can be pressed as soon as the file is indexed, before its
   * events are all placed in the timeline. */
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);

    tb_trace_page_open_file (f->page, file);
    WAIT_UNTIL (!tb_trace_page_get_busy (f->page));
    g_assert_true (gtk_widget_get_sensitive (tb_trace_page_get_button (f->page, "replay")));
  }
  WAIT_UNTIL (tb_trace_page_get_n_events (f->page) == seq);
  g_assert_null (tb_trace_page_get_trace (f->page));
  g_assert_true (gtk_widget_get_sensitive (tb_trace_page_get_button (f->page, "replay")));

  /* Fork… from the index: the file is not read whole. */
  g_assert_true (tb_trace_page_fork_from_event (f->page, call, NULL));
  g_assert_true (tb_fork_editor_get_has_target (editor));
  g_assert_cmpstr (tb_fork_editor_get_heading (editor), ==,
                   "Call 1, add: the arguments it runs with");
  g_assert_null (tb_trace_page_get_trace (f->page));

  /* Fork and Continue opens it and runs the fork. */
  before = rss_kib ();
  g_assert_true (tb_trace_page_fork (f->page, 0, TB_REPLAY_EDIT_ARGUMENTS,
                                     "{\"a\": 40, \"b\": 2}", NULL));
  WAIT_UNTIL (g_str_has_prefix (tb_trace_page_get_title (f->page), "Fork of"));
  WAIT_UNTIL (!tb_trace_page_get_busy (f->page));
  after = rss_kib ();
  g_assert_true (g_stat (path, &st) == 0);
  g_test_message ("%.1f MiB file: %.1f MiB resident before Fork and Continue, %.1f MiB after",
                  st.st_size / 1048576.0, before / 1024.0, after / 1024.0);
  /* AddressSanitizer keeps freed memory aside: the bound means nothing there */
  if (g_getenv ("ASAN_OPTIONS") == NULL)
    g_assert_cmpuint (after, <, before + st.st_size / 1024 / 2);
  g_assert_cmpstr (tb_trace_page_get_title (f->page), ==, "Fork of large-run.jsonl at call 1");
  g_assert_nonnull (tb_trace_page_get_report (f->page));
  g_assert_cmpint (tb_replay_report_get_first_divergence (tb_trace_page_get_report (f->page)),
                   ==, 0);
}

static const char *
string_at (JsonNode   *root,
           const char *pointer)
{
  JsonNode *node = tb_json_pointer_get (root, pointer);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_string (node) : NULL;
}

/* An event with a text of half a megabyte: the details show the start of
 * the text and every other member, say what was cut and where the whole
 * is, and Copy Event as JSON copies the whole event. */
static void
test_large_event (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "large-event.jsonl", NULL);
  g_autofree char *words = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *copied = NULL;
  g_autoptr(JsonNode) shown = NULL;
  g_autoptr(JsonNode) whole = NULL;
  g_autoptr(GError) error = NULL;
  GString *text = g_string_new (NULL);
  const char *shown_text;
  const char *note;
  FILE *out = fopen (path, "w");
  gint64 started;

  while (text->len < 500000)
    g_string_append (text, "lorem ipsum dolor sit amet ");
  words = g_string_free (text, FALSE);
  g_assert_nonnull (out);
  fprintf (out, "{\"format\":\"toolbench-trace\",\"version\":1,\"created\":\"2026-01-01\"}\n");
  fprintf (out, "{\"seq\":1,\"t\":1,\"type\":\"message\",\"iteration\":0,"
           "\"origin\":\"person\",\"message\":{\"role\":\"user\",\"text\":\"short\"}}\n");
  fprintf (out, "{\"seq\":2,\"t\":2,\"type\":\"message\",\"iteration\":1,"
           "\"origin\":\"model\",\"message\":{\"role\":\"assistant\",\"text\":\"%s\","
           "\"after\":\"the end\"}}\n", words);
  fclose (out);
  open_and_wait (f, path);

  /* A short event is whole, with no note. */
  tb_trace_page_select_event (f->page, 0);
  window_test_iterate (50);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (f->page->detail_note)));

  started = g_get_monotonic_time ();
  tb_trace_page_select_event (f->page, 1);
  window_test_iterate (100);
  g_test_message ("selected and drawn in %.3f s",
                  (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC);
  detail = tb_trace_page_get_detail_text (f->page);
  g_assert_cmpuint (strlen (detail), <, 2 * TB_TRACE_PAGE_DETAIL_MAX_CHARS);
  shown = tb_json_parse (detail, -1, &error);
  g_assert_no_error (error);
  shown_text = string_at (shown, "/message/text");
  g_assert_nonnull (shown_text);
  g_assert_true (g_str_has_prefix (shown_text, "lorem ipsum dolor sit amet lorem"));
  g_assert_true (g_str_has_suffix (shown_text, "…"));
  g_assert_cmpint (g_utf8_strlen (shown_text, -1), <=, TB_TRACE_PAGE_DETAIL_MAX_CHARS);
  g_assert_cmpstr (string_at (shown, "/message/after"), ==, "the end");
  g_assert_cmpstr (string_at (shown, "/origin"), ==, "model");

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->page->detail_note)));
  note = gtk_label_get_label (f->page->detail_note);
  g_assert_nonnull (strstr (note, "1 text longer than 10000 characters is cut here."));
  g_assert_nonnull (strstr (note, "Copy Event as JSON"));

  /* The menu's copy is the whole event. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "trace.copy-event", "i", 1));
  copied = window_test_read_clipboard (GTK_WIDGET (f->page));
  whole = tb_json_parse (copied, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (string_at (whole, "/message/text"), ==, words);

  /* Back to a short event, the note goes. */
  tb_trace_page_select_event (f->page, 0);
  window_test_iterate (50);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (f->page->detail_note)));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  tb_app_init ();
  g_test_add ("/trace-page/cli-parity", Fixture, NULL, setup, test_cli_parity, teardown);
  g_test_add ("/trace-page/filter", Fixture, NULL, setup, test_filter, teardown);
  g_test_add ("/trace-page/search-down", Fixture, NULL, setup, test_search_down, teardown);
  g_test_add ("/trace-page/narrow-layout", Fixture, NULL, setup, test_narrow_layout, teardown);
  g_test_add ("/trace-page/mcp-messages", Fixture, NULL, setup, test_mcp_messages, teardown);
  g_test_add ("/trace-page/divergence-selects-row", Fixture, NULL, setup,
              test_divergence_selects_row, teardown);
  g_test_add ("/trace-page/unknown-tool", Fixture, NULL, setup, test_unknown_tool, teardown);
  g_test_add ("/trace-page/fork-from-row", Fixture, NULL, setup, test_fork_from_row, teardown);
  g_test_add ("/trace-page/event-menu", Fixture, NULL, setup, test_event_menu, teardown);
  g_test_add ("/trace-page/large-file-fork", Fixture, NULL, setup, test_large_file_fork,
              teardown);
  g_test_add ("/trace-page/fork-invalid-json", Fixture, NULL, setup, test_fork_invalid_json,
              teardown);
  g_test_add ("/trace-page/fork-editor-cleared", Fixture, NULL, setup,
              test_fork_editor_cleared, teardown);
  g_test_add ("/trace-page/report-incomplete", Fixture, NULL, setup, test_report_incomplete,
              teardown);
  g_test_add ("/trace-page/large-file-memory", Fixture, NULL, setup, test_large_file_memory,
              teardown);
  g_test_add ("/trace-page/large-event", Fixture, NULL, setup, test_large_event, teardown);
  return g_test_run ();
}
