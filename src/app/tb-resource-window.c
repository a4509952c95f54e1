/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-resource-window"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-resource-window.h"
#include "tb-resource-window-private.h"

/* A resource in a window of its own: read from its server, or the contents
 * a tool result embedded. Escape closes it. */

struct _TbResourceWindow
{
  AdwWindow       parent_instance;

  GCancellable   *cancellable;
  char           *uri;
  AdwWindowTitle *title;
  TbResourceView *view;
};

G_DEFINE_FINAL_TYPE (TbResourceWindow, tb_resource_window, ADW_TYPE_WINDOW)

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(TbResourceWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) contents = NULL;

  contents = tb_mcp_client_read_resource_finish (TB_MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (contents == NULL)
    tb_resource_view_show_error (self->view, self->uri, error->message);
  else
    tb_resource_view_show_contents (self->view, contents);
}

/**
 * tb_resource_window_read:
 * @self: a window
 * @client: the server
 * @uri: the resource
 *
 * Reads the resource and shows it; a failure is shown with the server's
 * words.
 */
void
tb_resource_window_read (TbResourceWindow *self,
                         TbMcpClient      *client,
                         const char       *uri)
{
  g_return_if_fail (TB_IS_RESOURCE_WINDOW (self));
  g_return_if_fail (TB_IS_MCP_CLIENT (client));
  g_return_if_fail (uri != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_free (self->uri);
  self->uri = g_strdup (uri);
  adw_window_title_set_subtitle (self->title, tb_mcp_client_get_name (client));
  tb_resource_view_show_loading (self->view, uri);
  tb_mcp_client_read_resource_async (client, uri, self->cancellable, read_cb,
                                     g_object_ref (self));
}

/**
 * tb_resource_window_show_contents:
 * @self: a window
 * @server: (nullable): the server the contents came from
 * @contents: contents a result embedded
 */
void
tb_resource_window_show_contents (TbResourceWindow *self,
                                  const char       *server,
                                  JsonArray        *contents)
{
  g_return_if_fail (TB_IS_RESOURCE_WINDOW (self));

  adw_window_title_set_subtitle (self->title, server);
  tb_resource_view_show_contents (self->view, contents);
}

/**
 * tb_resource_window_show_error:
 * @self: a window
 * @server: (nullable): the server asked
 * @uri: (nullable): the resource
 * @message: why it cannot be shown
 */
void
tb_resource_window_show_error (TbResourceWindow *self,
                               const char       *server,
                               const char       *uri,
                               const char       *message)
{
  g_return_if_fail (TB_IS_RESOURCE_WINDOW (self));

  adw_window_title_set_subtitle (self->title, server);
  tb_resource_view_show_error (self->view, uri, message);
}

TbResourceView *
tb_resource_window_get_view (TbResourceWindow *self)
{
  g_return_val_if_fail (TB_IS_RESOURCE_WINDOW (self), NULL);
  return self->view;
}

static void
tb_resource_window_dispose (GObject *object)
{
  TbResourceWindow *self = (TbResourceWindow *) object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->uri, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_RESOURCE_WINDOW);

  G_OBJECT_CLASS (tb_resource_window_parent_class)->dispose (object);
}

static void
tb_resource_window_class_init (TbResourceWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_resource_window_dispose;

  g_type_ensure (TB_TYPE_RESOURCE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/"
                                               "tb-resource-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TbResourceWindow, title);
  gtk_widget_class_bind_template_child (widget_class, TbResourceWindow, view);
}

static void
tb_resource_window_init (TbResourceWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_resource_window_new:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer none): a new window, not shown yet
 */
TbResourceWindow *
tb_resource_window_new (GtkWindow *parent)
{
  return g_object_new (TB_TYPE_RESOURCE_WINDOW,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
}
