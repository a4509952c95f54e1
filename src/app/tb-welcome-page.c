/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-welcome-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-preferences-window.h"
#include "tb-welcome-page.h"

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
try_demo_clicked (GtkButton     *button,
                  TbWelcomePage *self)
{
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
add_mcp_clicked (GtkButton     *button,
                 TbWelcomePage *self)
{
  tb_preferences_window_edit_mcp_server (open_preferences (self), NULL);
}

static void
add_provider_clicked (GtkButton     *button,
                      TbWelcomePage *self)
{
  tb_preferences_window_edit_provider (open_preferences (self), NULL);
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
save_trace_clicked (GtkButton     *button,
                    TbWelcomePage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Save the Sample Trace"),
                                 GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "demo-trace.jsonl");
  g_signal_connect (chooser, "response", G_CALLBACK (save_trace_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The bundled recording of the demo, in the Trace page. Traces are read
 * from local files, so the resource is copied to the cache folder first. */
static void
open_trace_clicked (GtkButton     *button,
                    TbWelcomePage *self)
{
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
dismiss_clicked (GtkButton     *button,
                 TbWelcomePage *self)
{
  AdwViewStack *stack = find_stack (self);

  g_settings_set_boolean (self->settings, "welcome-dismissed", TRUE);
  if (stack != NULL)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.show-page", "s", "tool");
      adw_view_stack_remove (stack, GTK_WIDGET (self));
    }
}

static GtkWidget *
pill_new (const char *label,
          const char *name,
          GCallback   callback,
          gpointer    user_data)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_name (button, name);
  gtk_widget_add_css_class (button, "pill");
  g_signal_connect (button, "clicked", callback, user_data);
  return button;
}

static void
tb_welcome_page_dispose (GObject *object)
{
  TbWelcomePage *self = (TbWelcomePage *) object;

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tb_welcome_page_parent_class)->dispose (object);
}

static void
tb_welcome_page_class_init (TbWelcomePageClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tb_welcome_page_dispose;
}

static void
tb_welcome_page_init (TbWelcomePage *self)
{
  GtkWidget *status = adw_status_page_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *demo = pill_new (_("_Try the Demo Loop"), "welcome-demo",
                              G_CALLBACK (try_demo_clicked), self);
  GtkWidget *dismiss;

  tb_app_init ();
  self->settings = g_settings_new (APPLICATION_ID);

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), APPLICATION_ID);
  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("Welcome to Toolbench"));
  adw_status_page_set_description (ADW_STATUS_PAGE (status),
                                   _("Nothing needs to be set up: the built-in tools, the "
                                     "scripted demo provider and a sample trace work without "
                                     "a key or a network. When you are ready, bring your own "
                                     "tools and models."));
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (demo, "suggested-action");
  gtk_box_append (GTK_BOX (box), demo);
  gtk_box_append (GTK_BOX (box), pill_new (_("Add an _MCP Server…"), "welcome-mcp",
                                           G_CALLBACK (add_mcp_clicked), self));
  gtk_box_append (GTK_BOX (box), pill_new (_("Add a _Provider…"), "welcome-provider",
                                           G_CALLBACK (add_provider_clicked), self));
  gtk_box_append (GTK_BOX (box), pill_new (_("_Open the Sample Trace"), "welcome-open-trace",
                                           G_CALLBACK (open_trace_clicked), self));
  gtk_box_append (GTK_BOX (box), pill_new (_("_Save the Sample Trace…"), "welcome-trace",
                                           G_CALLBACK (save_trace_clicked), self));
  dismiss = gtk_button_new_with_mnemonic (_("_Do Not Show Again"));
  gtk_widget_set_name (dismiss, "welcome-dismiss");
  gtk_widget_add_css_class (dismiss, "flat");
  g_signal_connect (dismiss, "clicked", G_CALLBACK (dismiss_clicked), self);
  gtk_box_append (GTK_BOX (box), dismiss);
  adw_status_page_set_child (ADW_STATUS_PAGE (status), box);

  adw_bin_set_child (ADW_BIN (self), status);
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
