/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-application"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tb-app-util.h"
#include "tb-application.h"
#include "tb-mcp-dialogs.h"
#include "tb-preferences-window.h"
#include "tb-tool-sources.h"
#include "tb-welcome-page.h"
#include "tb-window.h"

/* The application owns what outlives a window: the tool registry (built-in
 * tools now; MCP servers and manifests as they are configured) and the
 * history of calls. */

struct _TbApplication
{
  AdwApplication  parent_instance;

  TbToolRegistry *registry;
  TbHistory      *history;
  TbToolSources  *sources;
  TbWorkspace    *workspace;
  GFile          *autosave;
  GFile          *recovered;
  guint           sources_idle;
};

G_DEFINE_FINAL_TYPE (TbApplication, tb_application, ADW_TYPE_APPLICATION)

static TbProvider *
loop_page_provider (GtkWindow *window,
                    gpointer   user_data)
{
  return tb_loop_page_create_provider (tb_window_get_loop_page (TB_WINDOW (window)), NULL);
}

/* Tool folders, the file tools' sandbox and MCP servers from the
 * preferences. They are loaded once the window has shown its first frame:
 * a thousand manifests or a slow server would otherwise keep the window
 * from appearing, and the tool list then makes rows only for what it
 * shows. */
static gboolean
load_sources (gpointer user_data)
{
  TbApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  self->sources_idle = 0;
  self->sources = tb_tool_sources_new (self->registry, settings);
  tb_tool_sources_set_default (self->sources);
  if (TB_IS_WINDOW (window))
    {
      tb_mcp_dialogs_attach_sources (window, self->sources);
      tb_window_restore_last_tool (TB_WINDOW (window));
    }
  return G_SOURCE_REMOVE;
}

static void
on_first_map (TbApplication *self,
              GtkWidget     *window)
{
  g_signal_handlers_disconnect_by_func (window, on_first_map, self);
  /* Below the priority of drawing, so the first frame comes first. */
  if (self->sources == NULL && self->sources_idle == 0)
    self->sources_idle = g_idle_add_full (G_PRIORITY_LOW, load_sources, self, NULL);
}

static void
tb_application_activate (GApplication *app)
{
  TbApplication *self = TB_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    {
      window = GTK_WINDOW (tb_window_new (GTK_APPLICATION (app), self->registry, self->history));
      if (self->sources == NULL && self->sources_idle == 0)
        g_signal_connect_object (window, "map", G_CALLBACK (on_first_map), self,
                                 G_CONNECT_SWAPPED);
      tb_window_set_workspace (TB_WINDOW (window), self->workspace);
      tb_loop_page_set_autosave_file (tb_window_get_loop_page (TB_WINDOW (window)),
                                      self->autosave);
      tb_window_set_remember_recent_traces (TB_WINDOW (window), TRUE);
      {
        g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

        tb_loop_page_set_settings (tb_window_get_loop_page (TB_WINDOW (window)), settings);
      }
      /* A server's sampling request may be drafted by the Loop page's model. */
      tb_mcp_dialogs_set_provider_func (window, loop_page_provider, NULL);
      if (self->recovered != NULL)
        tb_trace_page_offer_recovered (tb_window_get_trace_page (TB_WINDOW (window)),
                                       self->recovered);
      else
        tb_welcome_page_offer (TB_WINDOW (window));
    }
  gtk_window_present (window);
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *app = user_data;
  static const char *developers[] = { "The Toolbench authors", NULL };

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", _("Toolbench"),
                         "application-icon", APPLICATION_ID,
                         "developer-name", _("The Toolbench authors"),
                         "version", PACKAGE_VERSION,
                         "website", "https://github.com/toolbench/toolbench",
                         "issue-url", "https://github.com/toolbench/toolbench/issues",
                         "comments", _("A workbench for LLM tool calling: browse your tools, "
                                       "call them by hand with checked arguments, and step "
                                       "through a model driving them."),
                         "developers", developers,
                         "copyright", "© 2026 The Toolbench authors",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         NULL);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkApplication *app = user_data;
  TbPreferencesWindow *window =
    tb_preferences_window_new (gtk_application_get_active_window (app));

  gtk_window_present (GTK_WINDOW (window));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = gtk_application_get_windows (app);

  /* Closing each window first lets it remember its size. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_close (windows->data);
      windows = next;
    }
  g_application_quit (G_APPLICATION (app));
}

static const GActionEntry app_actions[] = {
  { "about", about_action },
  { "quit", quit_action },
  { "preferences", preferences_action },
};

/* The workspace lives in the user data dir, or where TOOLBENCH_WORKSPACE
 * points. A file that cannot be read (a newer version, damage) is left as
 * it is and the session works on an empty workspace in memory. */
static TbWorkspace *
open_workspace (void)
{
  const char *env = g_getenv ("TOOLBENCH_WORKSPACE");
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  TbWorkspace *workspace;

  path = env != NULL && *env != '\0'
         ? g_strdup (env)
         : g_build_filename (g_get_user_data_dir (), "toolbench", "workspace.json", NULL);
  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    g_warning ("The folder %s could not be made: %s", dir, g_strerror (errno));
  workspace = tb_workspace_new_for_path (path, &error);
  if (workspace == NULL)
    {
      g_warning ("The workspace %s could not be opened (%s); facts are kept in memory "
                 "for this session and the file is left untouched.", path, error->message);
      workspace = tb_workspace_new ();
    }
  return workspace;
}

/* Each run is written to an autosave trace in the user cache dir as it
 * grows, and removed when the run is dropped on purpose. One found at
 * start-up is a run that ended in a crash: it is moved aside (the next run
 * autosaves in its place) and the Trace page offers to reopen it. */
static void
find_autosave (TbApplication *self)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "toolbench", NULL);
  g_autofree char *autosave = g_build_filename (dir, "autosave.jsonl", NULL);
  g_autofree char *recovered = g_build_filename (dir, "recovered.jsonl", NULL);

  self->autosave = g_file_new_for_path (autosave);
  if (g_file_test (autosave, G_FILE_TEST_EXISTS))
    {
      if (g_rename (autosave, recovered) == 0)
        self->recovered = g_file_new_for_path (recovered);
      else
        g_warning ("The autosaved run %s could not be moved aside: %s", autosave,
                   g_strerror (errno));
    }
}

static void
tb_application_startup (GApplication *app)
{
  TbApplication *self = TB_APPLICATION (app);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *about_accels[] = { "<Control><Shift>a", NULL };
  g_autoptr(GError) error = NULL;

  G_APPLICATION_CLASS (tb_application_parent_class)->startup (app);

  tb_app_init ();
  gtk_window_set_default_icon_name (APPLICATION_ID);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.about", about_accels);
  {
    static const char *preferences_accels[] = { "<Control>comma", NULL };

    gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences",
                                           preferences_accels);
  }
  /* The window's own shortcut; said here too for its menu item. */
  {
    static const char *shortcuts_accels[] = { "<Control>question", NULL };

    gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay",
                                           shortcuts_accels);
  }
  /* Light or dark as the system says; the app has no colour setting of its own. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);

  if (!tb_demo_tools_register (self->registry, &error))
    g_warning ("The built-in tools could not be registered: %s", error->message);
  g_clear_error (&error);

  find_autosave (self);
  self->workspace = open_workspace ();
  if (!tb_workspace_register_tools (self->workspace, self->registry, &error))
    g_warning ("The workspace tools could not be registered: %s", error->message);

}

/* Stops the MCP servers the preferences started before the process ends. */
static void
tb_application_shutdown (GApplication *app)
{
  TbApplication *self = TB_APPLICATION (app);

  g_clear_handle_id (&self->sources_idle, g_source_remove);
  if (self->sources != NULL)
    {
      tb_tool_sources_set_default (NULL);
      g_object_run_dispose (G_OBJECT (self->sources));
      g_clear_object (&self->sources);
    }

  G_APPLICATION_CLASS (tb_application_parent_class)->shutdown (app);
}

static void
tb_application_finalize (GObject *object)
{
  TbApplication *self = (TbApplication *) object;

  g_clear_handle_id (&self->sources_idle, g_source_remove);
  if (self->sources != NULL)
    {
      tb_tool_sources_set_default (NULL);
      g_object_run_dispose (G_OBJECT (self->sources));
      g_clear_object (&self->sources);
    }
  g_clear_object (&self->history);
  g_clear_object (&self->workspace);
  g_clear_object (&self->autosave);
  g_clear_object (&self->recovered);
  g_clear_object (&self->registry);

  G_OBJECT_CLASS (tb_application_parent_class)->finalize (object);
}

/* `toolbench run.jsonl`: the trace opens on the Trace page; with several
 * files, the first (one window shows one trace at a time). */
static void
tb_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  GtkWindow *window;

  tb_application_activate (app);
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL || n_files < 1)
    return;
  tb_window_set_page (TB_WINDOW (window), "trace");
  tb_trace_page_open_file (tb_window_get_trace_page (TB_WINDOW (window)), files[0]);
}

static void
tb_application_class_init (TbApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = tb_application_finalize;
  app_class->activate = tb_application_activate;
  app_class->open = tb_application_open;
  app_class->startup = tb_application_startup;
  app_class->shutdown = tb_application_shutdown;
}

static void
tb_application_init (TbApplication *self)
{
  self->registry = tb_tool_registry_new ();
  self->history = tb_history_new (self->registry);
}

TbApplication *
tb_application_new (void)
{
  return g_object_new (TB_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/toolbench/Toolbench",
                       NULL);
}

/**
 * tb_application_get_registry:
 * @self: the application
 *
 * Returns: (transfer none): the registry of every tool the app knows
 */
TbToolRegistry *
tb_application_get_registry (TbApplication *self)
{
  g_return_val_if_fail (TB_IS_APPLICATION (self), NULL);
  return self->registry;
}

/**
 * tb_application_get_history:
 * @self: the application
 *
 * Returns: (transfer none): the calls made so far
 */
TbHistory *
tb_application_get_history (TbApplication *self)
{
  g_return_val_if_fail (TB_IS_APPLICATION (self), NULL);
  return self->history;
}
