/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-welcome-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-preferences-window.h"
#include "tb-welcome-page.h"
#include "tb-welcome-page-private.h"

/* What a person sees at the first start, with nothing configured: the app is
 * already useful (built-in tools, the scripted demo provider, a sample
 * trace), and three buttons lead to the demo loop, an MCP server and a
 * provider. The page goes away for good with "Do Not Show Again" or once a
 * provider or an MCP server is configured. */

struct _TbWelcomePage
{
  AdwBin     parent_instance;

  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (TbWelcomePage, tb_welcome_page, ADW_TYPE_BIN)

/**
 * tb_welcome_page_is_first_run:
 * @settings: the app's settings
 *
 * Returns: whether nothing is configured and the welcome was not dismissed
 */
gboolean
tb_welcome_page_is_first_run (GSettings *settings)
{
  g_autoptr(GVariant) providers = g_settings_get_value (settings, "providers");
  g_autoptr(GVariant) servers = g_settings_get_value (settings, "mcp-servers");

  return !g_settings_get_boolean (settings, "welcome-dismissed")
         && g_variant_n_children (providers) == 0
         && g_variant_n_children (servers) == 0;
}

static AdwViewStack *
find_stack (TbWelcomePage *self)
{
  return ADW_VIEW_STACK (gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_VIEW_STACK));
}

static void
try_demo_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TbWelcomePage *self = TB_WELCOME_PAGE (widget);
  AdwViewStack *stack = find_stack (self);
  /* The Loop page runs the scripted demo provider; without it, the Tool
   * page lets the person call the same demo tools by hand. */
  const char *page = stack != NULL && adw_view_stack_get_child_by_name (stack, "loop") != NULL
                     ? "loop" : "tool";

  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-page", "s", page);
}

static TbPreferencesWindow *
open_preferences (TbWelcomePage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  TbPreferencesWindow *window = tb_preferences_window_new (GTK_IS_WINDOW (root)
                                                           ? GTK_WINDOW (root) : NULL);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
add_mcp_server_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  tb_preferences_window_edit_mcp_server (open_preferences (TB_WELCOME_PAGE (widget)), NULL);
}

static void
add_provider_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  tb_preferences_window_edit_provider (open_preferences (TB_WELCOME_PAGE (widget)), NULL);
}

static void
trace_saved_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TbWelcomePage) self = user_data;
  g_autoptr(GError) error = NULL;
  GtkWidget *overlay;

  if (g_file_replace_contents_finish (G_FILE (source), result, NULL, &error))
    return;
  overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (error->message));
}

static void
save_trace_response (GtkNativeDialog *chooser,
                     int              response,
                     TbWelcomePage   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autoptr(GBytes) bytes = g_resources_lookup_data (TB_SAMPLE_TRACE_RESOURCE,
                                                         G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

      if (file != NULL && bytes != NULL)
        g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE,
                                             G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                             trace_saved_cb, g_object_ref (self));
    }
  g_object_unref (chooser);
}

static void
save_sample_trace_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  TbWelcomePage *self = TB_WELCOME_PAGE (widget);
  GtkFileChooserNative *chooser =
    tb_file_chooser_new (GTK_WIDGET (self), _("Save the Sample Trace"),
                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"));

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "demo-trace.jsonl");
  g_signal_connect (chooser, "response", G_CALLBACK (save_trace_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The bundled recording of the demo, in the Trace page. Traces are read
 * from local files, so the resource is copied to the cache folder first. */
static void
open_sample_trace_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  TbWelcomePage *self = TB_WELCOME_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "toolbench",
                                            "demo-trace.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GBytes) bytes = g_resources_lookup_data (TB_SAMPLE_TRACE_RESOURCE,
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr(GError) error = NULL;

  if (!TB_IS_WINDOW (root) || bytes == NULL)
    return;
  g_file_make_directory_with_parents (parent, NULL, NULL);
  if (!g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL,
                                &error))
    {
      GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

      if (overlay != NULL)
        adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay),
                                     adw_toast_new (error->message));
      return;
    }
  tb_trace_page_open_file (tb_window_get_trace_page (TB_WINDOW (root)), file);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-page", "s", "trace");
}

static void
dismiss_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TbWelcomePage *self = TB_WELCOME_PAGE (widget);
  AdwViewStack *stack = find_stack (self);

  g_settings_set_boolean (self->settings, "welcome-dismissed", TRUE);
  if (stack != NULL)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.show-page", "s", "tool");
      adw_view_stack_remove (stack, GTK_WIDGET (self));
    }
}

static void
tb_welcome_page_dispose (GObject *object)
{
  TbWelcomePage *self = (TbWelcomePage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_WELCOME_PAGE);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tb_welcome_page_parent_class)->dispose (object);
}

static void
tb_welcome_page_class_init (TbWelcomePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_welcome_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-welcome-page.ui");

  gtk_widget_class_install_action (widget_class, "welcome.try-demo", NULL, try_demo_action);
  gtk_widget_class_install_action (widget_class, "welcome.add-mcp-server", NULL,
                                   add_mcp_server_action);
  gtk_widget_class_install_action (widget_class, "welcome.add-provider", NULL,
                                   add_provider_action);
  gtk_widget_class_install_action (widget_class, "welcome.open-sample-trace", NULL,
                                   open_sample_trace_action);
  gtk_widget_class_install_action (widget_class, "welcome.save-sample-trace", NULL,
                                   save_sample_trace_action);
  gtk_widget_class_install_action (widget_class, "welcome.dismiss", NULL, dismiss_action);
}

static void
tb_welcome_page_init (TbWelcomePage *self)
{
  tb_app_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = g_settings_new (APPLICATION_ID);
}

/**
 * tb_welcome_page_new:
 *
 * Returns: (transfer floating): the welcome page
 */
GtkWidget *
tb_welcome_page_new (void)
{
  return g_object_new (TB_TYPE_WELCOME_PAGE, NULL);
}

/**
 * tb_welcome_page_offer:
 * @window: the main window
 *
 * Adds the welcome page to the window's pages and shows it, when this is a
 * first run.
 *
 * Returns: whether the page was added
 */
gboolean
tb_welcome_page_offer (TbWindow *window)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  AdwViewStack *stack = tb_window_get_view_stack (window);
  AdwViewStackPage *page;

  if (!tb_welcome_page_is_first_run (settings)
      || adw_view_stack_get_child_by_name (stack, "welcome") != NULL)
    return FALSE;

  page = adw_view_stack_add_titled (stack, tb_welcome_page_new (), "welcome", _("Start"));
  adw_view_stack_page_set_icon_name (page, "go-home-symbolic");
  adw_view_stack_set_visible_child_name (stack, "welcome");
  return TRUE;
}
