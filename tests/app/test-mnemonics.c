/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Every page of the window offers each Alt+letter once, in English and
 * in German: when two controls on one screen share a mnemonic, the key
 * only moves the focus between them and presses neither (Alt+R on the
 * Trace page went to the Trace tab instead of pressing Replay). Each page
 * is shown with what can come up on it: the Trace page's banner about a
 * run that did not end cleanly, and the Loop page with calls waiting for
 * a decision. The preferences, an MCP server's window (over
 * catalog-mcp-server.py, a prompt and a resource template open) and a
 * resource's window are checked the same way. */

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "../mcp/mcp-test-util.h"
#include "tb-app-util.h"
#include "tb-loop-page-private.h"
#include "tb-mcp-prompts-view-private.h"
#include "tb-mcp-resources-view-private.h"
#include "tb-mcp-server-window-private.h"
#include "tb-preferences-window.h"
#include "tb-resource-window.h"
#include "tb-trace-page-private.h"
#include "tb-welcome-page.h"
#include "tb-window-private.h"
#include "window-test-util.h"

typedef struct
{
  GHashTable *keys;       /* keyval → what it does */
  GHashTable *visited;    /* the labels counted already */
  GString    *conflicts;
} Keys;

static void
add_key (Keys       *keys,
         guint       keyval,
         const char *what)
{
  const char *other;

  keyval = gdk_keyval_to_lower (keyval);
  other = g_hash_table_lookup (keys->keys, GUINT_TO_POINTER (keyval));
  if (other == NULL)
    g_hash_table_insert (keys->keys, GUINT_TO_POINTER (keyval), g_strdup (what));
  else if (!g_str_equal (other, what))
    g_string_append_printf (keys->conflicts, "  Alt+%s: “%s” and “%s”\n",
                            gdk_keyval_name (keyval), other, what);
}

/* The Alt+letter shortcuts of @widget's own shortcut controllers. */
static void
add_shortcuts (Keys      *keys,
               GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = NULL;

  /* A window gathers the managed shortcuts of every page, which are only
   * active while their page shows: each is counted on its own page. Local
   * shortcuts (a label's or an entry's Alt+F and Alt+B, which move the
   * cursor) belong to the widget with the focus. */
  if (GTK_IS_WINDOW (widget))
    return;
  controllers = gtk_widget_observe_controllers (widget);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_shortcut_controller_get_scope (GTK_SHORTCUT_CONTROLLER (controller)) ==
          GTK_SHORTCUT_SCOPE_LOCAL)
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          g_autofree char *what = NULL;
          guint keyval;

          if (!GTK_IS_KEYVAL_TRIGGER (trigger) ||
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) != GDK_ALT_MASK)
            continue;
          keyval = gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger));
          if (gdk_keyval_to_unicode (keyval) == 0 || !g_unichar_isalpha (gdk_keyval_to_unicode (keyval)))
            continue;
          what = gtk_shortcut_action_to_string (gtk_shortcut_get_action (shortcut));
          add_key (keys, keyval, what);
        }
    }
}

/* The mnemonics and Alt+letter shortcuts at or below @widget: mapped ones
 * only, or with @all every one that can come up on the page (a state's
 * buttons, a row's), but not in popovers and dialogs, which have the keys
 * to themselves. Labels with the same text are one control shown twice
 * (the view switcher in the header and in the bottom bar). */
static void
collect (Keys      *keys,
         GtkWidget *widget,
         gboolean   all)
{
  if (!all && !gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_NATIVE (widget) && !GTK_IS_WINDOW (widget))
    return;

  if (GTK_IS_LABEL (widget) && gtk_label_get_use_underline (GTK_LABEL (widget)) &&
      g_hash_table_add (keys->visited, widget))
    {
      guint keyval = gtk_label_get_mnemonic_keyval (GTK_LABEL (widget));

      if (keyval != GDK_KEY_VoidSymbol)
        add_key (keys, keyval, gtk_label_get_label (GTK_LABEL (widget)));
    }
  add_shortcuts (keys, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (keys, child, all);
}

/* What @window shows around @page, then all of @page. */
static void
assert_unique (GtkWindow  *window,
               GtkWidget  *page,
               const char *name,
               GString    *report)
{
  Keys keys = {
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new (NULL, NULL),
    g_string_new (NULL),
  };

  collect (&keys, GTK_WIDGET (window), FALSE);
  collect (&keys, page, TRUE);
  /* The walk sees the keys: the main window's five tabs and more. */
  if (TB_IS_WINDOW (window))
    g_assert_cmpuint (g_hash_table_size (keys.keys), >, 5);
  if (keys.conflicts->len > 0)
    g_string_append_printf (report, "The %s page (%s):\n%s", name, g_getenv ("LANGUAGE"),
                            keys.conflicts->str);
  g_hash_table_unref (keys.keys);
  g_hash_table_unref (keys.visited);
  g_string_free (keys.conflicts, TRUE);
}

/* The preferences page after @page among its siblings, or %NULL. */
static GtkWidget *
next_preferences_page (GtkWidget *page)
{
  for (GtkWidget *next = gtk_widget_get_next_sibling (page); next != NULL;
       next = gtk_widget_get_next_sibling (next))
    if (ADW_IS_PREFERENCES_PAGE (next))
      return next;
  return NULL;
}

static GtkWidget *
shown_page (TbWindow *window)
{
  return adw_view_stack_get_visible_child (tb_window_get_view_stack (window));
}

static void
check_window (GString *report)
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbWindow) window = NULL;
  static const char * const pages[] = { "tool", "history", "facts" };
  TbLoopPage *loop_page;
  GtkWidget *step;
  TbTracePage *trace_page;

  g_assert_true (tb_demo_tools_register (registry, NULL));
  window = g_object_ref (TB_WINDOW (tb_window_new (NULL, registry, NULL)));
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 780);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)));
  /* The welcome page of a first start, then the Tool page with a tool on
   * it, its Run button shown. */
  g_assert_true (tb_welcome_page_offer (window));
  window_test_iterate (50);
  assert_unique (GTK_WINDOW (window), shown_page (window), "welcome", report);
  g_assert_true (tb_window_select_tool (window, "add"));

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      tb_window_set_page (window, pages[i]);
      window_test_iterate (50);
      assert_unique (GTK_WINDOW (window), shown_page (window), pages[i], report);
    }

  /* The Loop page, then with calls waiting for a decision. */
  tb_window_set_page (window, "loop");
  loop_page = tb_window_get_loop_page (window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (loop_page)));
  assert_unique (GTK_WINDOW (window), GTK_WIDGET (loop_page), "loop", report);
  step = tb_loop_page_get_button (loop_page, "step");
  g_assert_true (gtk_widget_is_sensitive (step));
  g_signal_emit_by_name (step, "clicked");
  WAIT_UNTIL (!tb_loop_page_get_busy (loop_page) && tb_loop_page_get_n_pending (loop_page) > 0);
  window_test_iterate (100);
  assert_unique (GTK_WINDOW (window), GTK_WIDGET (loop_page), "loop, calls waiting,", report);

  /* The Trace page, its banner shown. */
  tb_window_set_page (window, "trace");
  trace_page = tb_window_get_trace_page (window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (trace_page)));
  gtk_widget_set_visible (gtk_widget_get_parent (tb_trace_page_get_button (trace_page, "reopen")),
                          TRUE);
  window_test_iterate (50);
  g_assert_true (gtk_widget_get_mapped (tb_trace_page_get_button (trace_page, "reopen")));
  assert_unique (GTK_WINDOW (window), GTK_WIDGET (trace_page), "trace", report);

  gtk_window_destroy (GTK_WINDOW (window));
  window_test_iterate (50);
}

/* The preferences with an endpoint and a server, each page. */
static void
check_preferences (GString *report)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  GtkWidget *window;

  g_settings_set_value (settings, "providers",
                        g_variant_new_parsed ("[('Local', 'openai', 'http://127.0.0.1:9/v1', 'm')]"));
  g_settings_set_value (settings, "mcp-servers",
                        g_variant_new_parsed ("[('notes', true, '{\"url\": \"http://127.0.0.1:9/mcp\"}')]"));
  window = GTK_WIDGET (tb_preferences_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL (gtk_widget_get_mapped (window));

  for (GtkWidget *page = window_test_find (window, window_test_is_a,
                                           GSIZE_TO_POINTER (ADW_TYPE_PREFERENCES_PAGE));
       page != NULL;
       page = next_preferences_page (page))
    {
      adw_preferences_window_set_visible_page (ADW_PREFERENCES_WINDOW (window),
                                               ADW_PREFERENCES_PAGE (page));
      window_test_iterate (50);
      assert_unique (GTK_WINDOW (window), page, gtk_widget_get_name (page), report);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  window_test_iterate (50);
  g_settings_reset (settings, "providers");
  g_settings_reset (settings, "mcp-servers");
}

static gboolean
mcp_page_settled (TbMcpServerWindow *window,
                  const char        *name)
{
  if (g_str_equal (name, "resources"))
    return tb_mcp_resources_view_is_settled (tb_mcp_server_window_get_resources_view (window));
  if (g_str_equal (name, "prompts"))
    return tb_mcp_prompts_view_is_settled (tb_mcp_server_window_get_prompts_view (window));
  return TRUE;
}

/* An MCP server's window, each page; the prompts page with a prompt's
 * form open and the resources page with a template's. Then a resource
 * in a window of its own. */
static void
check_mcp_windows (GString *report)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "catalog-mcp-server.py", NULL);
  const char *argv[] = { "/usr/bin/python3", script, "rich", NULL };
  static const char * const pages[] = { "resources", "prompts", "log", "messages" };
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) contents = tb_json_parse ("[{\"uri\": \"note://welcome\", "
                                                "\"mimeType\": \"text/plain\", "
                                                "\"text\": \"Hello\"}]", -1, NULL);
  TbMcpServerWindow *window;
  TbResourceWindow *resource_window;
  TbMcpResourcesView *resources;
  AdwViewStack *stack;
  gint row;

  client = tb_mcp_client_new_stdio ("catalog", argv, NULL, NULL);
  tb_mcp_client_attach (client, registry);
  if (!mcp_test_connect (client, &error))
    g_error ("The catalog server did not start: %s", error->message);

  window = TB_MCP_SERVER_WINDOW (tb_mcp_server_window_new (client));
  stack = ADW_VIEW_STACK (window_test_find (GTK_WIDGET (window), window_test_is_a,
                                            GSIZE_TO_POINTER (ADW_TYPE_VIEW_STACK)));
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      tb_mcp_server_window_show_page (window, pages[i]);
      WAIT_UNTIL (mcp_page_settled (window, pages[i]));
      if (g_str_equal (pages[i], "prompts"))
        {
          g_assert_true (tb_mcp_prompts_view_select (tb_mcp_server_window_get_prompts_view (window),
                                                     "greet"));
        }
      else if (g_str_equal (pages[i], "resources"))
        {
          resources = tb_mcp_server_window_get_resources_view (window);
          row = tb_mcp_resources_view_find_row (resources, "note://{folder}/{name}");
          g_assert_cmpint (row, >=, 0);
          tb_mcp_resources_view_activate_row (resources, row);
          WAIT_UNTIL (tb_mcp_resources_view_get_n_fields (resources) == 2);
        }
      window_test_iterate (50);
      assert_unique (GTK_WINDOW (window), adw_view_stack_get_visible_child (stack), pages[i],
                     report);
    }
  gtk_window_destroy (GTK_WINDOW (window));

  resource_window = tb_resource_window_new (NULL);
  tb_resource_window_show_contents (resource_window, "note://welcome",
                                    json_node_get_array (contents));
  gtk_window_present (GTK_WINDOW (resource_window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (resource_window)));
  window_test_iterate (50);
  assert_unique (GTK_WINDOW (resource_window), GTK_WIDGET (resource_window), "resource", report);
  gtk_window_destroy (GTK_WINDOW (resource_window));

  window_test_iterate (50);
  tb_mcp_client_detach (client);
  tb_mcp_client_disconnect (client);
  window_test_iterate (50);
}

static void
test_unique (void)
{
  const char *localedir = g_getenv ("TB_TEST_LOCALEDIR");
  g_autoptr(GString) report = g_string_new (NULL);

  g_setenv ("LANGUAGE", "en", TRUE);
  setlocale (LC_ALL, "");
  check_window (report);
  check_preferences (report);
  check_mcp_windows (report);

  if (localedir != NULL)
    {
      bindtextdomain (GETTEXT_PACKAGE, localedir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
      g_setenv ("LANGUAGE", "de", TRUE);
      setlocale (LC_ALL, "");
      g_assert_cmpstr (_("_Preferences"), ==, "_Einstellungen");
      check_window (report);
      check_preferences (report);
      check_mcp_windows (report);
      g_setenv ("LANGUAGE", "en", TRUE);
      setlocale (LC_ALL, "");
    }

  if (report->len > 0)
    g_error ("Controls share a mnemonic:\n%s", report->str);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  tb_app_init ();

  g_test_add_func ("/mnemonics/unique", test_unique);
  return g_test_run ();
}
