/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "../mcp/mcp-test-util.h"
#include "tb-app-util.h"
#include "tb-resource-view-private.h"
#include "tb-resource-window-private.h"
#include "window-test-util.h"
#include "tb-result-view.h"

/* A resource in its window: text, binary, an image, a broken blob, a
 * resource the server does not have; and a tool result's embedded and
 * linked resources opened from the result. */

static TbResourceView *
show (JsonArray *contents)
{
  TbResourceWindow *window = tb_resource_window_new (NULL);

  tb_resource_window_show_contents (window, "test", contents);
  gtk_window_present (GTK_WINDOW (window));
  return tb_resource_window_get_view (window);
}

static JsonArray *
parse_array (const char *text)
{
  g_autoptr(JsonNode) node = tb_json_parse (text, -1, NULL);

  g_assert_nonnull (node);
  return json_array_ref (json_node_get_array (node));
}

static void
close_all (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  while (g_list_model_get_n_items (toplevels) > 0)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, 0);

      gtk_window_destroy (window);
    }
}

static void
test_contents (void)
{
  /* A 1×1 PNG. */
  static const char png[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5E"
    "rkJggg==";
  g_autoptr(JsonArray) text = parse_array ("[{\"uri\":\"file:///notes.md\",\"mimeType\":"
                                           "\"text/markdown\",\"text\":\"# Notes\\nHello\"}]");
  g_autoptr(JsonArray) binary = parse_array ("[{\"uri\":\"x:/b\",\"mimeType\":"
                                             "\"application/octet-stream\",\"blob\":\"AAEC\"}]");
  g_autofree char *image_json = g_strdup_printf ("[{\"uri\":\"x:/p.png\",\"mimeType\":"
                                                 "\"image/png\",\"blob\":\"%s\"}]", png);
  g_autoptr(JsonArray) image = parse_array (image_json);
  g_autoptr(JsonArray) broken = parse_array ("[{\"uri\":\"x:/b\",\"blob\":\"AA<>\"}]");
  g_autoptr(JsonArray) empty = json_array_new ();
  g_autofree char *shown = NULL;
  TbResourceView *view;

  view = show (text);
  g_assert_cmpstr (tb_resource_view_get_page (view), ==, "text");
  shown = tb_resource_view_dup_text (view);
  g_assert_cmpstr (shown, ==, "# Notes\nHello");
  g_assert_true (g_str_has_prefix (tb_resource_view_get_details (view), "text/markdown, "));
  g_assert_cmpstr (tb_resource_view_get_language (view), ==, "markdown");
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (view)));

  view = show (binary);
  g_assert_cmpstr (tb_resource_view_get_page (view), ==, "message");
  g_assert_cmpstr (tb_resource_view_get_message (view), ==,
                   "3 bytes of binary contents; save them to open them with another program.");

  /* Text a server sent as a blob is shown as text. */
  {
    g_autoptr(JsonArray) text_blob = parse_array ("[{\"uri\":\"x:/t\",\"mimeType\":\"text/plain\","
                                                  "\"blob\":\"aGVsbG8=\"}]");
    g_autofree char *blob_text = NULL;

    view = show (text_blob);
    g_assert_cmpstr (tb_resource_view_get_page (view), ==, "text");
    blob_text = tb_resource_view_dup_text (view);
    g_assert_cmpstr (blob_text, ==, "hello");
  }

  view = show (image);
  g_assert_cmpstr (tb_resource_view_get_page (view), ==, "image");

  /* A MIME type that lies: not an image after all. */
  {
    g_autoptr(JsonArray) lying = parse_array ("[{\"uri\":\"x:/l.png\",\"mimeType\":"
                                              "\"image/png\",\"blob\":\"aGVsbG8=\"}]");

    view = show (lying);
    g_assert_cmpstr (tb_resource_view_get_page (view), ==, "message");
    g_assert_cmpstr (tb_resource_view_get_message (view), ==,
                     "The server says this is image/png, but it is not an image that can be "
                     "shown (Unrecognized image file format). 5 bytes of contents; save them "
                     "to open them with another program.");
  }

  view = show (broken);
  g_assert_cmpstr (tb_resource_view_get_page (view), ==, "message");
  g_assert_cmpstr (tb_resource_view_get_message (view), ==,
                   "The server sent a binary resource whose “blob” is not base64 (a “<” at "
                   "byte 2)");

  view = show (empty);
  g_assert_cmpstr (tb_resource_view_get_message (view), ==,
                   "The server sent no contents for this resource.");
  close_all ();
}

static void
test_read_from_server (void)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autoptr(TbMcpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TbResourceWindow *window;
  TbResourceView *view;

  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }
  client = tb_mcp_client_new_stdio ("everything", (const char * const *) argv, NULL, NULL);
  g_assert_true (mcp_test_connect (client, &error));

  window = tb_resource_window_new (NULL);
  view = tb_resource_window_get_view (window);
  gtk_window_present (GTK_WINDOW (window));
  tb_resource_window_read (window, client, "demo://resource/dynamic/text/4");
  g_assert_cmpstr (tb_resource_view_get_page (view), ==, "loading");
  while (g_str_equal (tb_resource_view_get_page (view), "loading"))
    g_main_context_iteration (NULL, TRUE);
  text = tb_resource_view_dup_text (view);
  g_assert_true (g_str_has_prefix (text, "Resource 4: "));

  /* Reading what is not there: the server's words, nothing else lost. */
  tb_resource_window_read (window, client, "demo://resource/none");
  while (g_str_equal (tb_resource_view_get_page (view), "loading"))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (tb_resource_view_get_page (view), ==, "message");
  g_assert_true (g_str_has_prefix (tb_resource_view_get_message (view),
                                   "The server “everything” could not read "
                                   "“demo://resource/none”: "));
  close_all ();
  tb_mcp_client_disconnect (client);
}

/* The result of a tool that embeds one resource and links another: Open on
 * the embedded one shows it; Open on the link says which server to start. */
static void
test_from_result (void)
{
  /* As an MCP tool gives it: the content blocks, the server in metadata. */
  g_autoptr(JsonNode) output =
    tb_json_parse ("[{\"type\":\"resource\",\"resource\":{\"uri\":\"x:/a.txt\","
                   "\"mimeType\":\"text/plain\",\"text\":\"inside\"}},"
                   "{\"type\":\"resource_link\",\"uri\":\"x:/b\",\"name\":\"b\"}]", -1, NULL);
  g_autoptr(JsonNode) types = tb_json_parse ("[\"resource\",\"resource_link\"]", -1, NULL);
  g_autoptr(JsonObject) metadata = json_object_new ();
  g_autoptr(TbToolResult) result = NULL;
  GtkWidget *parent = gtk_window_new ();
  GtkWidget *view = g_object_new (TB_TYPE_RESULT_VIEW, NULL);
  GListModel *toplevels = gtk_window_get_toplevels ();
  TbResourceView *shown;
  g_autofree char *text = NULL;

  json_object_set_string_member (metadata, "server", "gone");
  json_object_set_member (metadata, "content-types", json_node_ref (types));
  result = tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, metadata, NULL, 0);
  gtk_window_set_child (GTK_WINDOW (parent), view);
  gtk_window_present (GTK_WINDOW (parent));
  tb_result_view_set_result (TB_RESULT_VIEW (view), result);

  g_assert_cmpuint (g_list_model_get_n_items (toplevels), ==, 1);
  gtk_widget_activate_action (view, "result.open-resource", "u", 0);
  g_assert_cmpuint (g_list_model_get_n_items (toplevels), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (TB_IS_RESOURCE_WINDOW (window))
        {
          shown = tb_resource_window_get_view (TB_RESOURCE_WINDOW (window));
          text = tb_resource_view_dup_text (shown);
          g_assert_cmpstr (text, ==, "inside");
          gtk_window_destroy (GTK_WINDOW (window));
          break;
        }
    }

  gtk_widget_activate_action (view, "result.open-resource", "u", 1);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (TB_IS_RESOURCE_WINDOW (window))
        {
          shown = tb_resource_window_get_view (TB_RESOURCE_WINDOW (window));
          g_assert_cmpstr (tb_resource_view_get_message (shown), ==,
                           "The server “gone” is not running; start it in the preferences to "
                           "read this resource.");
        }
    }
  close_all ();
}

/* A minified JSON file of 1.5 MB, one line: GtkSourceView gave up
 * highlighting it with a critical warning after seconds. Its lines are
 * broken on screen, not highlighted, and the details say so; Copy copies
 * the text as the server sent it. With a file larger than is shown, both
 * notes. */
static void
test_long_lines (void)
{
  GString *minified = g_string_new (NULL);
  g_autoptr(JsonArray) contents = json_array_new ();
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autofree char *shown = NULL;
  g_autofree char *copied = NULL;
  g_auto(GStrv) lines = NULL;
  TbResourceView *view;
  gint64 started;

  g_string_append_c (minified, '[');
  while (minified->len < 1500000)
    g_string_append (minified, "{\"key\":[1,2,3],\"name\":\"lorem ipsum\"},");
  g_string_append (minified, "{}]");
  json_object_set_string_member (entry, "uri", "file:///data/min.json");
  json_object_set_string_member (entry, "mimeType", "application/json");
  json_object_set_string_member (entry, "text", minified->str);
  json_array_add_object_element (contents, json_object_ref (entry));

  started = g_get_monotonic_time ();
  view = show (contents);
  window_test_iterate (500);
  g_test_message ("shown in %.3f s", (g_get_monotonic_time () - started) / 1e6);
  g_assert_cmpstr (tb_resource_view_get_page (view), ==, "text");
  g_assert_true (g_str_has_suffix (tb_resource_view_get_details (view),
                                   "; long lines are broken to be shown, Copy and Save keep "
                                   "them whole"));
  shown = tb_resource_view_dup_text (view);
  lines = g_strsplit (shown, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 1000);
  for (guint i = 0; lines[i] != NULL; i++)
    g_assert_cmpuint (strlen (lines[i]), <=, TB_TEXT_LONG_LINE);
  g_assert_null (tb_resource_view_get_language (view));

  gtk_widget_activate_action (GTK_WIDGET (view), "resource.copy", NULL);
  copied = window_test_read_clipboard (GTK_WIDGET (view));
  g_assert_cmpstr (copied, ==, minified->str);
  close_all ();

  /* Larger than is shown: both notes, in order. */
  while (minified->len < 4 * 1024 * 1024 + 10)
    g_string_append (minified, "{\"key\":[1,2,3],\"name\":\"lorem ipsum\"},");
  json_object_set_string_member (entry, "text", minified->str);
  view = show (contents);
  window_test_iterate (200);
  g_assert_nonnull (strstr (tb_resource_view_get_details (view),
                            "; the first 4.2\302\240MB are shown, Save keeps all of it; long lines "
                            "are broken to be shown, Copy and Save keep them whole"));
  close_all ();
  g_string_free (minified, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/resource-window/contents", test_contents);
  g_test_add_func ("/resource-window/read-from-server", test_read_from_server);
  g_test_add_func ("/resource-window/from-result", test_from_result);
  g_test_add_func ("/resource-window/long-lines", test_long_lines);
  return g_test_run ();
}
