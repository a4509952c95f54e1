/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-ui"

#include "config.h"

#include <adwaita.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-schema-form.h"
#include "tb-tool-list.h"
#include "tb-window.h"

/* Figures for the window, printed, never judged:
 *
 *   - process start to the window's first frame, with 10, 1,000 and 10,000
 *     registered tools (a fresh process each time);
 *   - filtering 10,000 tools per keystroke;
 *   - building the form for a 200-property schema;
 *   - peak memory at idle with 1,000 tools.
 *
 * Needs a display: xvfb-run -a ./build/bench/ui
 */

static JsonNode *
echo_func (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  return tb_json_node_new_string ("ok");
}

static const char *words[] = {
  "weather", "issue", "file", "search", "report", "calendar", "mail", "image", "database",
  "deploy", "translate", "summarize",
};
static const char *sources[] = { "builtin", "github", "filesystem", "slack", "postgres" };

static TbToolRegistry *
make_registry (guint n)
{
  TbToolRegistry *registry = tb_tool_registry_new ();
  g_autoptr(JsonNode) schema =
    tb_json_parse ("{\"type\":\"object\",\"properties\":{"
                   "\"query\":{\"type\":\"string\",\"description\":\"What to look for\"},"
                   "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100},"
                   "\"mode\":{\"enum\":[\"fast\",\"thorough\"]}},\"required\":[\"query\"]}",
                   -1, NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("%s_%s_%05u", words[i % G_N_ELEMENTS (words)],
                                               words[(i / 7) % G_N_ELEMENTS (words)], i);
      g_autofree char *description =
        g_strdup_printf ("Does %s work for %s requests, number %u of the set.",
                         words[(i / 3) % G_N_ELEMENTS (words)],
                         words[(i / 5) % G_N_ELEMENTS (words)], i);
      g_autoptr(TbTool) tool = tb_tool_new_simple_full (name, description, schema,
                                                        TB_TOOL_VISIBILITY_MODEL,
                                                        sources[i % G_N_ELEMENTS (sources)], 0,
                                                        TB_TOOL_SIMPLE_FLAGS_NONE, echo_func,
                                                        NULL, NULL, &error);

      if (tool == NULL || !tb_tool_registry_register (registry, tool, &error))
        g_error ("%s", error->message);
    }
  return registry;
}

static void
iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

/* Child mode: make the window and print the monotonic time of its first frame. */
static gboolean frame_seen;

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  frame_seen = TRUE;
}

static int
first_frame_child (guint n)
{
  g_autoptr(TbToolRegistry) registry = NULL;
  TbWindow *window;
  GdkFrameClock *clock;

  gtk_init ();
  tb_app_init ();
  registry = make_registry (n);
  window = tb_window_new (NULL, registry, NULL);
  gtk_widget_realize (GTK_WIDGET (window));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  gtk_window_present (GTK_WINDOW (window));
  while (!frame_seen)
    g_main_context_iteration (NULL, TRUE);
  g_print ("%" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  return 0;
}

static long
status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, field);
  return line != NULL ? strtol (line + strlen (field), NULL, 10) : -1;
}

static int
memory_child (guint n)
{
  g_autoptr(TbToolRegistry) registry = NULL;
  TbWindow *window;

  gtk_init ();
  tb_app_init ();
  registry = make_registry (n);
  window = tb_window_new (NULL, registry, NULL);
  gtk_window_present (GTK_WINDOW (window));
  iterate (1500);
  g_print ("%ld %ld\n", status_kib ("VmHWM:"), status_kib ("VmRSS:"));
  return 0;
}

static void
bench_first_frame (const char *self_path)
{
  const guint counts[] = { 10, 1000, 10000 };

  g_print ("Process start to first frame (median of 3 runs):\n");
  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    {
      double samples[3];

      for (guint r = 0; r < 3; r++)
        {
          g_autofree char *arg = g_strdup_printf ("%u", counts[c]);
          const char *argv[] = { self_path, "--first-frame", arg, NULL };
          g_autofree char *out = NULL;
          g_autoptr(GError) error = NULL;
          gint64 start = g_get_monotonic_time ();
          int status;

          if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                             &out, NULL, &status, &error) ||
              !g_spawn_check_wait_status (status, &error))
            g_error ("The first-frame run failed: %s", error->message);
          samples[r] = (g_ascii_strtoll (out, NULL, 10) - start) / 1000.0;
        }
      /* Median of three. */
      for (guint i = 0; i < 3; i++)
        for (guint j = i + 1; j < 3; j++)
          if (samples[j] < samples[i])
            {
              double t = samples[i];

              samples[i] = samples[j];
              samples[j] = t;
            }
      g_print ("  %6u tools: %8.1f ms\n", counts[c], samples[1]);
    }
}

static void
bench_filter (void)
{
  g_autoptr(TbToolRegistry) registry = make_registry (10000);
  g_autoptr(TbToolList) list = tb_tool_list_new (registry);
  GListModel *model = tb_tool_list_get_model (list);
  const char *typed = "report deploy 0042";
  double total = 0, worst = 0;
  g_autofree char *worst_text = NULL;
  guint keystrokes = 0;
  gint64 start;

  /* Search keys are made at idle after the tools arrive, as in the app. */
  start = g_get_monotonic_time ();
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_print ("Search keys for 10,000 tools, made at idle in slices: %.2f ms in all\n",
           (g_get_monotonic_time () - start) / 1000.0);

  /* Type the text, then delete it, one character at a time. */
  for (int pass = 0; pass < 2; pass++)
    for (gsize i = 1; i <= strlen (typed); i++)
      {
        gsize len = pass == 0 ? i : strlen (typed) - i;
        g_autofree char *text = g_strndup (typed, len);
        double ms;

        start = g_get_monotonic_time ();
        tb_tool_list_set_search (list, text);
        (void) g_list_model_get_n_items (model);
        ms = (g_get_monotonic_time () - start) / 1000.0;
        total += ms;
        if (ms > worst)
          {
            worst = ms;
            g_free (worst_text);
            worst_text = g_strdup (text);
          }
        keystrokes++;
      }
  g_print ("Filter 10,000 tools per keystroke (%u keystrokes typing and deleting \"%s\"):\n"
           "  mean %.2f ms, worst %.2f ms at \"%s\" (one frame is 16.7 ms)\n",
           keystrokes, typed, total / keystrokes, worst, worst_text);
}

static void
bench_form (void)
{
  g_autoptr(GString) text = g_string_new ("{\"type\":\"object\",\"properties\":{");
  g_autoptr(JsonNode) schema = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  TbSchemaForm *form = TB_SCHEMA_FORM (tb_schema_form_new ());
  double best_build = G_MAXDOUBLE, best_shown = G_MAXDOUBLE;

  for (guint i = 0; i < 200; i++)
    {
      const char *kinds[] = {
        "{\"type\":\"string\",\"description\":\"A text field\"}",
        "{\"type\":\"integer\",\"minimum\":0,\"maximum\":10}",
        "{\"type\":\"boolean\"}",
        "{\"enum\":[\"a\",\"b\",\"c\"]}",
        "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}",
      };
      g_string_append_printf (text, "%s\"field_%03u\":%s", i > 0 ? "," : "", i, kinds[i % 5]);
    }
  g_string_append (text, "}}");
  schema = tb_json_parse (text->str, -1, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 800);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (form));
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_present (GTK_WINDOW (window));
  iterate (200);

  for (guint r = 0; r < 5; r++)
    {
      gint64 start = g_get_monotonic_time ();
      gint64 built;
      int min, nat;

      if (!tb_schema_form_set_schema (form, schema, NULL))
        g_error ("The form refused the schema");
      built = g_get_monotonic_time ();
      /* Measuring lays out every row, as the first frame would. */
      gtk_widget_measure (GTK_WIDGET (form), GTK_ORIENTATION_VERTICAL, 880, &min, &nat, NULL, NULL);
      best_build = MIN (best_build, (built - start) / 1000.0);
      best_shown = MIN (best_shown, (g_get_monotonic_time () - start) / 1000.0);
      tb_schema_form_set_schema (form, NULL, NULL);
    }
  g_print ("Form for a 200-property schema (best of 5): built in %.1f ms, "
           "built and measured in %.1f ms (%u fields)\n",
           best_build, best_shown, 200u);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
memory_run (const char *self_path,
            const char *count,
            const char *renderer,
            long       *peak,
            long       *rss)
{
  const char *argv[] = { self_path, "--memory", count, NULL };
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  if (renderer != NULL)
    envp = g_environ_setenv (envp, "GSK_RENDERER", renderer, TRUE);
  if (!g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                     NULL, &error))
    g_error ("The memory run failed: %s", error->message);
  *peak = *rss = 0;
  sscanf (out, "%ld %ld", peak, rss);
}

static void
bench_memory (const char *self_path)
{
  const char *renderers[] = { NULL, "cairo" };

  for (guint i = 0; i < G_N_ELEMENTS (renderers); i++)
    {
      long peak, rss, peak0, rss0;

      memory_run (self_path, "1000", renderers[i], &peak, &rss);
      memory_run (self_path, "0", renderers[i], &peak0, &rss0);
      g_print ("Memory at idle with 1,000 tools (%s renderer): peak %.1f MiB, resident %.1f MiB "
               "(with no tools: peak %.1f MiB)\n",
               renderers[i] != NULL ? renderers[i] : "default",
               peak / 1024.0, rss / 1024.0, peak0 / 1024.0);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *self_path = NULL;

  /* Never touch the person's own settings. */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  g_log_set_writer_func (g_log_writer_default, NULL, NULL);

  if (argc == 3 && g_str_equal (argv[1], "--first-frame"))
    return first_frame_child (atoi (argv[2]));
  if (argc == 3 && g_str_equal (argv[1], "--memory"))
    return memory_child (atoi (argv[2]));

  self_path = g_file_read_link ("/proc/self/exe", NULL);
  if (self_path == NULL)
    self_path = g_strdup (argv[0]);

  gtk_init ();
  tb_app_init ();

  /* One part alone, for a profiler. */
  if (argc == 2 && g_str_equal (argv[1], "--form-only"))
    {
      bench_form ();
      return 0;
    }
  if (argc == 2 && g_str_equal (argv[1], "--filter-only"))
    {
      bench_filter ();
      return 0;
    }

  bench_first_frame (self_path);
  bench_filter ();
  bench_form ();
  bench_memory (self_path);
  return 0;
}
