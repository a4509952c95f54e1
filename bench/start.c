/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "bench-start"

#include "config.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* How fast the app shows its window and how much memory it holds idle,
 * measured from outside the way a person meets it: from exec to the X
 * server mapping the process's first top-level window, then the resident
 * memory after a few idle seconds. The reference is an empty
 * AdwApplicationWindow of the same size (bench/empty-window), started from
 * the same environment in the same run, runs alternating between the two.
 * The app starts with a tool folder of 1,000 command-tool manifests.
 * The app is also started with an empty tool folder in the same runs:
 * what the window itself costs, the least the app with tools can cost,
 * against the empty window too (`ratio app without tools / empty window`).
 *
 * Needs an X display and a session bus:
 *   xvfb-run -a dbus-run-session -- build/bench/start [--runs N] [--tools N] [--idle S]
 * With --compare PROGRAM, another build of the app (a copy of an earlier
 * build/src/app/toolbench) starts in the same runs, and the app's figures
 * are printed against it too: a before and after from one run.
 * Prints figures and the ratios; never passes or fails on time. */

typedef struct
{
  double map_s;
  double rss_mib;
} Sample;

typedef struct
{
  Display *display;
  Atom     net_wm_pid;
} Watch;

static int
ignore_x_error (Display     *display,
                XErrorEvent *event)
{
  /* A window may be gone by the time its property is read. */
  return 0;
}

/* The pid a top-level window says it belongs to, or 0. */
static pid_t
window_pid (Watch  *watch,
            Window  window)
{
  Atom type;
  int format;
  unsigned long n_items;
  unsigned long after;
  unsigned char *data = NULL;
  pid_t pid = 0;

  if (XGetWindowProperty (watch->display, window, watch->net_wm_pid, 0, 1, False,
                          XA_CARDINAL, &type, &format, &n_items, &after, &data) == Success &&
      data != NULL && n_items == 1 && format == 32)
    pid = (pid_t) *(unsigned long *) data;
  if (data != NULL)
    XFree (data);
  return pid;
}

/* Waits until @pid maps a top-level window; FALSE after @timeout_s or
 * when the process ends first. */
static gboolean
wait_for_map (Watch  *watch,
              pid_t   pid,
              double  timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  int fd = ConnectionNumber (watch->display);

  for (;;)
    {
      while (XPending (watch->display) > 0)
        {
          XEvent event;

          XNextEvent (watch->display, &event);
          if (event.type == MapNotify && window_pid (watch, event.xmap.window) == pid)
            return TRUE;
        }

      {
        gint64 left = deadline - g_get_monotonic_time ();
        struct pollfd pfd = { fd, POLLIN, 0 };
        int status;

        if (left <= 0)
          return FALSE;
        if (waitpid (pid, &status, WNOHANG) == pid)
          return FALSE;
        poll (&pfd, 1, (int) MIN (left / 1000, 100));
      }
    }
}

static double
rss_mib (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  line = strstr (text, "VmRSS:");
  if (line == NULL)
    return 0;
  return g_ascii_strtod (line + strlen ("VmRSS:"), NULL) / 1024.0;
}

static gboolean
measure (Watch       *watch,
         const char  *program,
         char       **envp,
         double       idle_s,
         Sample      *sample)
{
  const char *argv[] = { program, NULL };
  gint64 start;
  pid_t pid;
  int status;
  gboolean mapped;

  XSync (watch->display, True);
  start = g_get_monotonic_time ();
  pid = fork ();
  if (pid < 0)
    {
      g_printerr ("bench/start: fork failed: %s\n", g_strerror (errno));
      return FALSE;
    }
  if (pid == 0)
    {
      execve (program, (char **) argv, envp);
      _exit (127);
    }

  mapped = wait_for_map (watch, pid, 60);
  sample->map_s = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  if (mapped)
    {
      g_usleep ((gulong) (idle_s * G_USEC_PER_SEC));
      sample->rss_mib = rss_mib (pid);
    }
  kill (pid, SIGTERM);
  waitpid (pid, &status, 0);
  if (!mapped)
    g_printerr ("bench/start: %s showed no window within 60 s\n", program);
  return mapped;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}

/* A tool folder of @n manifests and the settings that point the app at it
 * (the keyfile backend, in a configuration folder of the bench's own). */
static gboolean
prepare_home (const char  *root,
              guint        n,
              GError     **error)
{
  g_autofree char *tools = g_build_filename (root, "tools", NULL);
  g_autofree char *settings_dir = g_build_filename (root, "config", "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *settings = NULL;

  if (g_mkdir_with_parents (tools, 0700) != 0 || g_mkdir_with_parents (settings_dir, 0700) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   "The bench's folders in %s could not be made: %s", root, g_strerror (errno));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("tool-%04u.json", i);
      g_autofree char *path = g_build_filename (tools, name, NULL);
      g_autofree char *manifest =
        g_strdup_printf ("{\"name\": \"tool_%04u\", "
                         "\"description\": \"Counts the words of a text, number %u\", "
                         "\"parameters\": {\"type\": \"object\", \"properties\": {"
                         "\"text\": {\"type\": \"string\", \"maxLength\": 10000}, "
                         "\"limit\": {\"type\": \"integer\", \"minimum\": 1}}, "
                         "\"required\": [\"text\"]}, "
                         "\"command\": [\"/bin/true\"]}\n", i, i);

      if (!g_file_set_contents (path, manifest, -1, error))
        return FALSE;
    }
  settings = g_strdup_printf ("[io/github/toolbench/Toolbench]\n"
                              "tool-folders=['%s']\n"
                              "welcome-dismissed=true\n", tools);
  return g_file_set_contents (keyfile, settings, -1, error);
}

static char **
bench_environment (const char *root)
{
  char **envp = g_get_environ ();
  g_autofree char *config = g_build_filename (root, "config", NULL);
  g_autofree char *data = g_build_filename (root, "data", NULL);
  g_autofree char *cache = g_build_filename (root, "cache", NULL);

  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "keyfile", TRUE);
  envp = g_environ_setenv (envp, "GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", data, TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache, TRUE);
  return envp;
}

static gboolean
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          remove_tree (child);
        else
          g_unlink (child);
      }
  return g_rmdir (path) == 0;
}

int
main (int   argc,
      char *argv[])
{
  int runs = 5;
  int tools = 1000;
  double idle_s = 3;
  g_autofree char *other = NULL;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Starts of each program (default 5)", "N" },
    { "tools", 0, 0, G_OPTION_ARG_INT, &tools, "Command tools in the app's tool folder (default 1000)", "N" },
    { "idle", 0, 0, G_OPTION_ARG_DOUBLE, &idle_s, "Seconds idle before memory is read (default 3)", "S" },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, &other, "Another build of the app, started in the same runs", "PROGRAM" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— the app's start against an empty window");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) app_map = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) app_rss = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) empty_map = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) empty_rss = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) other_map = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) other_rss = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bare_map = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bare_rss = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *root = NULL;
  g_autofree char *bare_root = NULL;
  g_auto(GStrv) envp = NULL;
  g_auto(GStrv) bare_envp = NULL;
  Watch watch;
  double app_map_s, empty_map_s, app_rss_mib, empty_rss_mib;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench/start: %s\n", error->message);
      return 1;
    }
  if (runs < 1 || tools < 0 || idle_s < 0)
    {
      g_printerr ("bench/start: --runs must be at least 1, --tools and --idle not negative\n");
      return 1;
    }
  if (g_getenv ("DISPLAY") == NULL || g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    {
      g_printerr ("bench/start needs an X display and a session bus; run it as\n"
                  "  xvfb-run -a dbus-run-session -- %s\n", argv[0]);
      return 1;
    }

  watch.display = XOpenDisplay (NULL);
  if (watch.display == NULL)
    {
      g_printerr ("bench/start: the display %s could not be opened\n", g_getenv ("DISPLAY"));
      return 1;
    }
  XSetErrorHandler (ignore_x_error);
  watch.net_wm_pid = XInternAtom (watch.display, "_NET_WM_PID", False);
  XSelectInput (watch.display, DefaultRootWindow (watch.display), SubstructureNotifyMask);

  root = g_dir_make_tmp ("tb-bench-start-XXXXXX", &error);
  if (root == NULL || !prepare_home (root, tools, &error))
    {
      g_printerr ("bench/start: %s\n", error->message);
      return 1;
    }
  envp = bench_environment (root);
  bare_root = g_dir_make_tmp ("tb-bench-start-XXXXXX", &error);
  if (bare_root == NULL || !prepare_home (bare_root, 0, &error))
    {
      g_printerr ("bench/start: %s\n", error->message);
      remove_tree (root);
      return 1;
    }
  bare_envp = bench_environment (bare_root);

  g_print ("start: %d runs each, %d command tools in the app's tool folder, memory read after %.1f s idle\n",
           runs, tools, idle_s);
  /* One start of each first, unmeasured: the page cache and the font
   * cache then hold for both. */
  for (int i = -1; i < runs; i++)
    {
      Sample app, empty, bare, compared = { 0, 0 };

      if (!measure (&watch, BENCH_EMPTY_WINDOW, envp, idle_s, &empty) ||
          !measure (&watch, BENCH_APP, envp, idle_s, &app) ||
          !measure (&watch, BENCH_APP, bare_envp, idle_s, &bare) ||
          (other != NULL && !measure (&watch, other, envp, idle_s, &compared)))
        {
          remove_tree (root);
          remove_tree (bare_root);
          return 1;
        }
      if (i < 0)
        continue;
      g_array_append_val (app_map, app.map_s);
      g_array_append_val (app_rss, app.rss_mib);
      g_array_append_val (empty_map, empty.map_s);
      g_array_append_val (empty_rss, empty.rss_mib);
      g_array_append_val (bare_map, bare.map_s);
      g_array_append_val (bare_rss, bare.rss_mib);
      g_array_append_val (other_map, compared.map_s);
      g_array_append_val (other_rss, compared.rss_mib);
      g_print ("start: run %d: app mapped %.3f s, %.1f MiB idle; empty window mapped %.3f s, "
               "%.1f MiB idle; app without tools mapped %.3f s, %.1f MiB idle\n",
               i + 1, app.map_s, app.rss_mib, empty.map_s, empty.rss_mib, bare.map_s,
               bare.rss_mib);
      if (other != NULL)
        g_print ("start: run %d: compared build mapped %.3f s, %.1f MiB idle\n",
                 i + 1, compared.map_s, compared.rss_mib);
    }
  remove_tree (root);
  remove_tree (bare_root);

  app_map_s = median (app_map);
  empty_map_s = median (empty_map);
  app_rss_mib = median (app_rss);
  empty_rss_mib = median (empty_rss);
  g_print ("start: window mapped after exec (median): app %.3f s, empty window %.3f s, "
           "ratio app / empty window: %.2f (target 1.30)\n",
           app_map_s, empty_map_s, app_map_s / empty_map_s);
  g_print ("start: idle resident memory (median): app %.1f MiB, empty window %.1f MiB, "
           "ratio app / empty window: %.2f (target 1.15)\n",
           app_rss_mib, empty_rss_mib, app_rss_mib / empty_rss_mib);
  g_print ("start: window mapped after exec (median): app without tools %.3f s, empty window "
           "%.3f s, ratio app without tools / empty window: %.2f\n",
           median (bare_map), empty_map_s, median (bare_map) / empty_map_s);
  g_print ("start: idle resident memory (median): app without tools %.1f MiB, empty window "
           "%.1f MiB, ratio app without tools / empty window: %.2f\n",
           median (bare_rss), empty_rss_mib, median (bare_rss) / empty_rss_mib);
  if (other != NULL)
    {
      g_print ("start: window mapped after exec (median): app %.3f s, compared build %.3f s, "
               "ratio app / compared build: %.2f\n",
               app_map_s, median (other_map), app_map_s / median (other_map));
      g_print ("start: idle resident memory (median): app %.1f MiB, compared build %.1f MiB, "
               "ratio app / compared build: %.2f\n",
               app_rss_mib, median (other_rss), app_rss_mib / median (other_rss));
    }
  XCloseDisplay (watch.display);
  return 0;
}
