/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-icon"

#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <string.h>

#include "tb-mcp-icon.h"

/* A server's icon (`serverInfo.icons`, MCP 2025-11-25), loaded for the
 * places that show the server: `data:` URIs are decoded where they are,
 * http(s) icons are fetched when first shown, and either is refused above
 * TB_MCP_ICON_MAX_BYTES. Whatever fails leaves the fallback icon in place:
 * an icon is decoration, never a reason for an error. */

static gboolean
acceptable_type (const char *mime)
{
  return mime == NULL || g_str_has_prefix (mime, "image/");
}

/* The first icon the app can try: an image by a scheme it can load. */
static JsonObject *
choose_icon (JsonArray *icons)
{
  for (guint i = 0; icons != NULL && i < json_array_get_length (icons); i++)
    {
      JsonNode *element = json_array_get_element (icons, i);
      JsonObject *icon = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *src = icon != NULL ? tb_json_object_get_string (icon, "src") : NULL;

      if (src == NULL || !acceptable_type (tb_json_object_get_string (icon, "mimeType")))
        continue;
      if (g_ascii_strncasecmp (src, "data:", 5) == 0
          || g_ascii_strncasecmp (src, "https:", 6) == 0
          || g_ascii_strncasecmp (src, "http:", 5) == 0)
        return icon;
    }
  return NULL;
}

static void
refuse_too_large (GTask *task)
{
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                           _("The server’s icon is larger than %u KiB"),
                           TB_MCP_ICON_MAX_BYTES / 1024);
}

static void
return_texture (GTask  *task,
                GBytes *bytes)
{
  GError *error = NULL;
  GdkTexture *texture;

  if (g_bytes_get_size (bytes) > TB_MCP_ICON_MAX_BYTES)
    {
      refuse_too_large (task);
      return;
    }
  texture = gdk_texture_new_from_bytes (bytes, &error);
  if (texture == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, texture, g_object_unref);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  /* Refused while it arrives: a huge icon is never read whole. */
  bytes = tb_input_stream_read_all_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes != NULL)
    return_texture (task, bytes);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    refuse_too_large (task);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("The server’s icon could not be fetched: HTTP %u"),
                               soup_message_get_status (message));
      return;
    }
  if (soup_message_headers_get_content_length (soup_message_get_response_headers (message))
      > TB_MCP_ICON_MAX_BYTES)
    {
      refuse_too_large (task);
      return;
    }
  /* The cancellable is read before the task is handed on. */
  {
    GCancellable *cancellable = g_task_get_cancellable (task);

    tb_input_stream_read_all_async (stream, TB_MCP_ICON_MAX_BYTES, G_PRIORITY_LOW,
                                    cancellable, read_cb, g_steal_pointer (&task));
  }
}

/**
 * tb_mcp_icon_load_async:
 * @icons: (nullable): a server's icons, from tb_mcp_client_get_server_icons()
 * @cancellable: (nullable): a cancellable
 * @callback: called with the icon
 * @user_data: closure for @callback
 *
 * Loads the first icon of @icons that is an image by `data:`, `http:` or
 * `https:`.
 */
void
tb_mcp_icon_load_async (JsonArray           *icons,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  JsonObject *icon = choose_icon (icons);
  const char *src;

  g_task_set_source_tag (task, tb_mcp_icon_load_async);
  if (icon == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("The server names no icon that can be shown"));
      return;
    }
  src = tb_json_object_get_string (icon, "src");
  if (g_ascii_strncasecmp (src, "data:", 5) == 0)
    {
      g_autoptr(GBytes) bytes = NULL;

      /* Larger than the limit once decoded, whatever the encoding. */
      if (strlen (src) > TB_MCP_ICON_MAX_BYTES * 2)
        refuse_too_large (task);
      else if ((bytes = soup_uri_decode_data_uri (src, NULL)) == NULL)
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                 _("The server’s icon is not a valid data URI"));
      else
        return_texture (task, bytes);
      return;
    }

  {
    g_autoptr(SoupSession) session = soup_session_new_with_options ("timeout", 15,
                                                                    "max-conns", 2, NULL);
    g_autoptr(SoupMessage) message = soup_message_new ("GET", src);

    if (message == NULL)
      {
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                 _("The server’s icon has an address that is not valid"));
        return;
      }
    soup_session_send_async (session, message, G_PRIORITY_LOW, cancellable, send_cb,
                             g_steal_pointer (&task));
  }
}

/**
 * tb_mcp_icon_load_finish:
 *
 * Returns: (transfer full): the icon
 */
GdkPaintable *
tb_mcp_icon_load_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
show_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GtkImage) image = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPaintable) paintable = tb_mcp_icon_load_finish (result, &error);

  if (paintable == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("%s", error->message);
      return;
    }
  gtk_image_set_from_paintable (image, paintable);
}

static void
cancel_and_unref (gpointer data)
{
  g_cancellable_cancel (data);
  g_object_unref (data);
}

/**
 * tb_mcp_icon_show:
 * @image: where to show it
 * @client: the server
 * @fallback: the icon name shown until it is loaded, and when it cannot be
 *
 * Shows the server's icon in @image once loaded; a load still under way
 * for @image is cancelled.
 */
void
tb_mcp_icon_show (GtkImage    *image,
                  TbMcpClient *client,
                  const char  *fallback)
{
  g_autoptr(JsonArray) icons = NULL;
  GCancellable *cancellable;

  g_return_if_fail (GTK_IS_IMAGE (image));
  g_return_if_fail (TB_IS_MCP_CLIENT (client));

  gtk_image_set_from_icon_name (image, fallback);
  icons = tb_mcp_client_get_server_icons (client);
  if (icons == NULL)
    {
      g_object_set_data (G_OBJECT (image), "tb-icon-cancellable", NULL);
      return;
    }
  cancellable = g_cancellable_new ();
  g_object_set_data_full (G_OBJECT (image), "tb-icon-cancellable", g_object_ref (cancellable),
                          cancel_and_unref);
  tb_mcp_icon_load_async (icons, cancellable, show_cb, g_object_ref (image));
  g_object_unref (cancellable);
}
