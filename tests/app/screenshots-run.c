/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "screenshots-run"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-trace-page-private.h"
#include "tb-loop-page-private.h"
#include "tb-window.h"
#include "tb-window-private.h"

/* Renders the Loop, Facts and Trace pages to PNG files for the README and
 * docs/app.md (build-aux/screenshots.sh runs it after `screenshots`). */

static const char *outdir;

static const char facts_script[] =
  "{\"format\":\"toolbench-script\",\"version\":1,\"responses\":["
  "{\"text\":\"I will remember where you live.\",\"tool_calls\":[{\"id\":\"call_7\","
  "\"name\":\"facts.propose\",\"arguments\":{\"key\":\"home\",\"value\":{\"city\":\"Lyon\","
  "\"country\":\"France\",\"since\":2026},\"reason\":\"The user said they moved to Lyon.\"}}]},"
  "{\"text\":\"Done.\"}]}";

static void
iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

static void
save (GtkWidget  *window,
      const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_strdup_printf ("%s/%s.png", outdir, name);
  int width, height;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  iterate (400);
  width = gtk_widget_get_width (window);
  height = gtk_widget_get_height (window);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    g_error ("Could not write %s", path);
  g_print ("%s\n", path);
}

static void
press (TbLoopPage *page,
       const char *name)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  g_signal_emit_by_name (tb_loop_page_get_button (page, name), "clicked");
  while (tb_loop_page_get_busy (page) && g_get_monotonic_time () < deadline)
    iterate (20);
  iterate (100);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TbWorkspace) workspace = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;
  g_autoptr(JsonNode) script = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  TbWindow *window;
  TbLoopPage *page;
  TbTracePage *trace_page;
  AdwMessageDialog *dialog;
  gint64 deadline;

  outdir = argc > 1 ? argv[1] : "docs/screenshots";
  g_mkdir_with_parents (outdir, 0755);

  gtk_init ();
  tb_app_init ();
  g_object_set (gtk_settings_get_default (),
                "gtk-font-name", "Cantarell 11",
                "gtk-enable-animations", FALSE,
                NULL);

  dir = g_dir_make_tmp ("toolbench-shots-XXXXXX", &error);
  if (dir == NULL)
    g_error ("%s", error->message);
  path = g_build_filename (dir, "workspace.json", NULL);
  g_file_set_contents (path, "{\"format\":\"toolbench-workspace\",\"version\":1,"
                             "\"facts\":{\"home\":{\"city\":\"Paris\",\"country\":\"France\"},"
                             "\"name\":\"Ada\"},\"draft\":{\"outline\":[\"intro\",\"end\"]},"
                             "\"locks\":[\"name\"],\"proposals\":[]}", -1, NULL);
  workspace = tb_workspace_new_for_path (path, &error);
  if (workspace == NULL
      || !tb_demo_tools_register (registry, &error)
      || !tb_workspace_register_tools (workspace, registry, &error))
    g_error ("%s", error->message);

  window = tb_window_new (NULL, registry, NULL);
  tb_window_set_workspace (window, workspace);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 860);
  gtk_window_present (GTK_WINDOW (window));
  iterate (500);
  page = tb_window_get_loop_page (window);

  /* The demo, one step in: a call waits for a decision. */
  tb_window_set_page (window, "loop");
  tb_loop_page_set_system_prompt (page, "You are a careful assistant.");
  save (GTK_WIDGET (window), "loop-setup");
  press (page, "step");
  save (GTK_WIDGET (window), "loop-pending");

  /* The demo to its end. */
  press (page, "continue");
  save (GTK_WIDGET (window), "loop-finished");

  /* Its trace, replayed and forked at step 2. */
  trace_page = tb_window_get_trace_page (window);
  tb_window_set_page (window, "trace");
  tb_trace_page_set_live (trace_page, TRUE);
  tb_trace_page_select_step (trace_page, 1);
  if (!tb_trace_page_fork (trace_page, 1, TB_REPLAY_EDIT_ARGUMENTS, "{\"text\": \"2 + 3 = 6\"}",
                           &error))
    g_error ("%s", error->message);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (tb_trace_page_get_busy (trace_page) && g_get_monotonic_time () < deadline)
    iterate (20);
  save (GTK_WIDGET (window), "trace");

  /* A fact the model proposed, and the confirmation dialog. */
  script = tb_json_parse (facts_script, -1, &error);
  provider = tb_scripted_provider_new_from_json (script, &error);
  if (provider == NULL)
    g_error ("%s", error->message);
  tb_loop_page_set_provider (page, TB_PROVIDER (provider));
  tb_loop_page_reset (page);
  tb_loop_page_set_user_message (page, "I moved to Lyon.");
  tb_window_set_page (window, "loop");
  press (page, "step");
  press (page, "step");
  tb_window_set_page (window, "facts");
  save (GTK_WIDGET (window), "facts");
  dialog = tb_facts_page_review (tb_window_get_facts_page (window),
                                 g_list_model_get_item (tb_workspace_get_proposals (workspace),
                                                        0));
  iterate (500);
  save (GTK_WIDGET (dialog), "facts-dialog");
  gtk_window_destroy (GTK_WINDOW (dialog));

  gtk_window_destroy (GTK_WINDOW (window));
  iterate (100);
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
