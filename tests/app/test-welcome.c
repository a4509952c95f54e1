/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The first run: with nothing configured the window opens on the welcome
 * status page, whose buttons lead on; it stays away once dismissed or once
 * something is configured. The bundled sample trace is a real trace the
 * engine's reader accepts. */

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>

#include "tb-prefs.h"
#include "tb-test-tools.h"
#include "tb-welcome-page.h"
#include "tb-window.h"
#include "tb-welcome-page-private.h"
#include "window-test-util.h"

typedef struct
{
  GSettings      *settings;
  TbToolRegistry *registry;
  TbWindow       *window;
} Fixture;

static void
settle (void)
{
  for (int i = 0; i < 20; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  f->settings = g_settings_new (APPLICATION_ID);
  g_object_get (f->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (f->settings, keys[i]);
  f->registry = tb_test_tools_new_registry ();
  f->window = g_object_ref (tb_window_new (NULL, f->registry, NULL));
  gtk_window_present (GTK_WINDOW (f->window));
  settle ();
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  settle ();
  g_assert_finalize_object (f->window);
  g_assert_finalize_object (f->registry);
  g_clear_object (&f->settings);
}

static const char *
visible_page (Fixture *f)
{
  return adw_view_stack_get_visible_child_name (tb_window_get_view_stack (f->window));
}

static void
test_first_run (Fixture       *f,
                gconstpointer  data)
{
  AdwViewStack *stack = tb_window_get_view_stack (f->window);
  GtkWidget *welcome;
  GtkWidget *status;

  g_assert_true (tb_welcome_page_is_first_run (f->settings));
  g_assert_true (tb_welcome_page_offer (f->window));
  g_assert_false (tb_welcome_page_offer (f->window));
  settle ();
  g_assert_cmpstr (visible_page (f), ==, "welcome");

  welcome = adw_view_stack_get_child_by_name (stack, "welcome");
  status = gtk_widget_get_first_child (welcome);
  g_assert_true (ADW_IS_STATUS_PAGE (status));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==,
                   "Welcome to Toolbench");
  g_assert_nonnull (window_test_find_named (welcome, "welcome-mcp"));
  g_assert_nonnull (window_test_find_named (welcome, "welcome-provider"));
  g_assert_nonnull (window_test_find_named (welcome, "welcome-trace"));

  /* The demo button leads to the Loop page, whose default model is the demo. */
  g_signal_emit_by_name (window_test_find_named (welcome, "welcome-demo"), "clicked");
  settle ();
  g_assert_cmpstr (visible_page (f), ==, "loop");

  g_signal_emit_by_name (window_test_find_named (welcome, "welcome-dismiss"), "clicked");
  settle ();
  g_assert_true (g_settings_get_boolean (f->settings, "welcome-dismissed"));
  g_assert_null (adw_view_stack_get_child_by_name (stack, "welcome"));
  g_assert_false (tb_welcome_page_is_first_run (f->settings));
  g_assert_false (tb_welcome_page_offer (f->window));
}

static void
test_configured (Fixture       *f,
                 gconstpointer  data)
{
  g_assert_true (tb_prefs_save_provider (f->settings, NULL, "Local", "openai",
                                         "http://127.0.0.1:11434/v1", NULL, NULL));
  g_assert_false (tb_welcome_page_is_first_run (f->settings));
  g_assert_false (tb_welcome_page_offer (f->window));
  g_assert_cmpstr (visible_page (f), !=, "welcome");
}

static void
test_sample_trace (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_resources_lookup_data (TB_SAMPLE_TRACE_RESOURCE,
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_autofree char *dir = g_dir_make_tmp ("tb-welcome-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "demo-trace.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(JsonObject) last = NULL;
  g_auto(GStrv) problems = NULL;
  JsonObject *header;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), &error));
  reader = tb_trace_reader_open (file, &error);
  g_assert_no_error (error);
  header = tb_trace_reader_get_header (reader);
  g_assert_cmpstr (json_object_get_string_member (header, "format"), ==, "toolbench-trace");
  g_assert_true (tb_trace_reader_index (reader, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), >=, 10);
  problems = tb_trace_reader_get_problems (reader);
  g_assert_cmpuint (problems != NULL ? g_strv_length (problems) : 0, ==, 0);

  g_clear_object (&reader);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/welcome/first-run", Fixture, NULL, fixture_setup, test_first_run,
              fixture_teardown);
  g_test_add ("/welcome/configured", Fixture, NULL, fixture_setup, test_configured,
              fixture_teardown);
  g_test_add ("/welcome/sample-trace", Fixture, NULL, fixture_setup, test_sample_trace,
              fixture_teardown);

  return g_test_run ();
}
