/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-ui-pages"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-trace-page-private.h"
#include "tb-loop-page-private.h"
#include "tb-window.h"

/* Figures for the Loop and Trace pages, printed, never judged:
 *
 *   - one Step of the demo through the Loop page's button, to its rows;
 *   - a turn with 50 calls: the pending rows with their editors;
 *   - opening a 100 MiB trace on the Trace page: the first events listed,
 *     the whole trace read, and the longest the main loop was kept busy
 *     meanwhile.
 *
 * Needs a display: xvfb-run -a ./build/bench/ui-pages
 */

static gint64 last_tick;
static gint64 longest_gap;

static gboolean
tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (last_tick != 0 && now - last_tick > longest_gap)
    longest_gap = now - last_tick;
  last_tick = now;
  return G_SOURCE_CONTINUE;
}

static void
iterate_until_idle (TbLoopPage *page)
{
  while (tb_loop_page_get_busy (page))
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
click (TbLoopPage *page,
       const char *name)
{
  g_signal_emit_by_name (tb_loop_page_get_button (page, name), "clicked");
  iterate_until_idle (page);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTrace) trace = tb_trace_new ();
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *filler = g_strnfill (400, 'x');
  g_autoptr(GFile) file = NULL;
  GString *script = g_string_new ("{\"format\":\"toolbench-script\",\"version\":1,"
                                  "\"responses\":[{\"tool_calls\":[");
  g_autoptr(JsonNode) script_node = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  TbWindow *window;
  TbLoopPage *page;
  TbTracePage *trace_page;
  gint64 start, first = 0, total = 0;
  guint steps = 0;
  GStatBuf st;

  gtk_init ();
  tb_app_init ();
  if (!tb_demo_tools_register (registry, &error))
    g_error ("%s", error->message);

  window = tb_window_new (NULL, registry, NULL);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)))
    g_main_context_iteration (NULL, TRUE);
  page = tb_window_get_loop_page (window);
  tb_window_set_page (window, "loop");

  /* The demo, step by step, 20 times. */
  for (guint run = 0; run < 20; run++)
    {
      click (page, "new");
      while (gtk_widget_is_sensitive (tb_loop_page_get_button (page, "step")))
        {
          start = g_get_monotonic_time ();
          click (page, "step");
          total += g_get_monotonic_time () - start;
          steps++;
        }
    }
  g_print ("Loop page: one Step of the demo, to its rows: %.1f ms on average (%u steps)\n",
           total / 1000.0 / steps, steps);

  /* 50 calls in one turn. */
  for (guint i = 0; i < 50; i++)
    g_string_append_printf (script, "%s{\"id\":\"c%u\",\"name\":\"add\","
                            "\"arguments\":{\"a\":%u,\"b\":1}}", i > 0 ? "," : "", i, i);
  g_string_append (script, "]}]}");
  script_node = tb_json_parse (script->str, -1, NULL);
  g_string_free (script, TRUE);
  provider = tb_scripted_provider_new_from_json (script_node, NULL);
  tb_loop_page_set_provider (page, TB_PROVIDER (provider));
  click (page, "new");
  start = g_get_monotonic_time ();
  click (page, "step");
  g_print ("Loop page: a turn with 50 calls, pending rows built: %.0f ms (%u rows)\n",
           (g_get_monotonic_time () - start) / 1000.0, tb_loop_page_get_n_pending (page));
  click (page, "new");

  /* A 100 MiB trace. */
  dir = g_dir_make_tmp ("toolbench-bench-XXXXXX", &error);
  if (dir == NULL)
    g_error ("%s", error->message);
  path = g_build_filename (dir, "large.jsonl", NULL);
  file = g_file_new_for_path (path);
  for (guint i = 0; i < 230000; i++)
    {
      JsonObject *payload = json_object_new ();

      json_object_set_int_member (payload, "iteration", 1);
      json_object_set_string_member (payload, "message", filler);
      tb_trace_append (trace, "warning", payload);
      json_object_unref (payload);
    }
  if (!tb_trace_save (trace, file, NULL, &error))
    g_error ("%s", error->message);
  g_clear_object (&trace);
  g_stat (path, &st);

  trace_page = tb_window_get_trace_page (window);
  tb_window_set_page (window, "trace");
  g_timeout_add (10, tick, NULL);
  start = g_get_monotonic_time ();
  last_tick = start;
  tb_trace_page_open_file (trace_page, file);
  /* Until the page has read the file and lists all of its events (a
   * large file is listed from its index, which fills in after the read). */
  while (tb_trace_page_get_busy (trace_page) ||
         (tb_trace_page_get_n_events (trace_page) < 230000 &&
          g_get_monotonic_time () - start < 60 * G_USEC_PER_SEC))
    {
      if (first == 0 && tb_trace_page_get_n_events (trace_page) > 0)
        first = g_get_monotonic_time ();
      g_main_context_iteration (NULL, TRUE);
    }
  g_print ("Trace page: %.0f MiB trace (%u events): first events listed after %.0f ms, "
           "all read after %.0f ms, main loop busy at most %.0f ms at a time\n",
           st.st_size / 1048576.0, tb_trace_page_get_n_events (trace_page),
           first > 0 ? (first - start) / 1000.0 : -1.0,
           (g_get_monotonic_time () - start) / 1000.0, longest_gap / 1000.0);
  if (tb_trace_page_get_n_events (trace_page) == 0)
    g_print ("Trace page: the trace was not shown: %s\n", tb_trace_page_get_status_text (trace_page));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
