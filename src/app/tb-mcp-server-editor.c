/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-server-editor"

#include "config.h"

#include <glib/gi18n.h>

#include "toolbench.h"
#include "tb-app-util.h"
#include "tb-mcp-headers.h"
#include "tb-mcp-server-editor.h"
#include "tb-prefs.h"

/* The preferences' subpage for one MCP server: its name, whether it starts
 * with the app, and its entry as JSON. The settings refuse an entry that
 * cannot run with a sentence shown under it; the server in place stays.
 * Header values go to the keyring on saving; the entry shows
 * TB_MCP_HEADER_KEPT in their place. */

struct _TbMcpServerEditor
{
  GtkBox          parent_instance;

  GSettings      *settings;
  TbSecretStore  *store;
  GCancellable   *cancellable;
  char           *old_name;

  AdwWindowTitle *title;
  AdwEntryRow    *name_row;
  GtkSwitch      *enabled;
  GtkTextView    *entry_view;
  GtkLabel       *status;
  GtkWidget      *remove_box;
};

G_DEFINE_FINAL_TYPE (TbMcpServerEditor, tb_mcp_server_editor, GTK_TYPE_BOX)

static char *
entry_text (GSettings  *settings,
            const char *name,
            gboolean   *enabled)
{
  g_autoptr(GVariant) value = g_settings_get_value (settings, "mcp-servers");
  GVariantIter iter;
  const char *row_name, *entry;
  gboolean row_enabled;

  g_variant_iter_init (&iter, value);
  while (g_variant_iter_next (&iter, "(&sb&s)", &row_name, &row_enabled, &entry))
    if (g_strcmp0 (row_name, name) == 0)
      {
        g_autoptr(JsonNode) node = tb_json_parse (entry, -1, NULL);

        *enabled = row_enabled;
        return node != NULL ? tb_json_to_string (node, TRUE) : g_strdup (entry);
      }
  return NULL;
}

static void
close_page (TbMcpServerEditor *self)
{
  GtkWidget *window = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_PREFERENCES_WINDOW);

  if (window != NULL)
    adw_preferences_window_close_subpage (ADW_PREFERENCES_WINDOW (window));
}

static void
back_clicked (TbMcpServerEditor *self)
{
  close_page (self);
}

static void
set_busy (TbMcpServerEditor *self,
          gboolean           busy)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self), !busy);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TbMcpServerEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean saved;

  saved = tb_prefs_save_mcp_server_finish (G_SETTINGS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_busy (self, FALSE);
  if (!saved)
    {
      tb_label_set_status (self->status, error->message, TRUE);
      return;
    }
  close_page (self);
}

static void
save_clicked (TbMcpServerEditor *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->entry_view);
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  set_busy (self, TRUE);
  tb_prefs_save_mcp_server_async (self->settings, self->store, self->old_name,
                                  gtk_editable_get_text (GTK_EDITABLE (self->name_row)),
                                  gtk_switch_get_active (self->enabled), text,
                                  self->cancellable, saved_cb, g_object_ref (self));
}

static void
removed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(TbMcpServerEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  set_busy (self, FALSE);
  if (!tb_prefs_remove_mcp_server_finish (G_SETTINGS (object), result, &error))
    {
      tb_label_set_status (self->status, error->message, TRUE);
      return;
    }
  close_page (self);
}

/* Not cancelled with the page: the sign-in and header values of a removed
 * server are forgotten even when the window closes first. */
static void
remove_clicked (TbMcpServerEditor *self)
{
  set_busy (self, TRUE);
  tb_prefs_remove_mcp_server_async (self->settings, self->store, self->old_name, NULL,
                                    removed_cb, g_object_ref (self));
}

/* The page scrolls to keep the entry's cursor in view: the entry grows
 * with its text instead of scrolling on its own, because GTK 4.8 draws the
 * scrollbar of a text view that scrolls itself before giving the
 * scrollbar its new size when the text grows ("Trying to snapshot GtkGizmo
 * without a current allocation"). */
static gboolean
show_entry_cursor (gpointer data)
{
  GtkTextView *view = data;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  graphene_point_t top;
  GdkRectangle cursor;
  GtkTextIter iter;
  double y;

  if (scroller == NULL || !gtk_widget_is_focus (GTK_WIDGET (view)))
    return G_SOURCE_REMOVE;
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  gtk_text_view_get_iter_location (view, &iter, &cursor);
  gtk_text_view_buffer_to_window_coords (view, GTK_TEXT_WINDOW_WIDGET, cursor.x, cursor.y,
                                         &cursor.x, &cursor.y);
  /* The scrolled window's child shows the page from the adjustment's value. */
  if (!gtk_widget_compute_point (GTK_WIDGET (view),
                                 gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)),
                                 &GRAPHENE_POINT_INIT (cursor.x, cursor.y), &top))
    return G_SOURCE_REMOVE;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  y = gtk_adjustment_get_value (adjustment) + top.y;
  gtk_adjustment_clamp_page (adjustment, y - 12, y + cursor.height + 12);
  return G_SOURCE_REMOVE;
}

/* Typing moves the cursor without "mark-set": the text changed. */
static void
on_entry_changed (GtkTextView *view)
{
  g_idle_add_full (G_PRIORITY_LOW, show_entry_cursor, g_object_ref (view), g_object_unref);
}

static void
on_entry_cursor_moved (GtkTextBuffer *buffer,
                       GtkTextIter   *location,
                       GtkTextMark   *mark,
                       GtkTextView   *view)
{
  if (mark == gtk_text_buffer_get_insert (buffer))
    on_entry_changed (view);
}

static void
tb_mcp_server_editor_dispose (GObject *object)
{
  TbMcpServerEditor *self = (TbMcpServerEditor *) object;

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (object), TB_TYPE_MCP_SERVER_EDITOR);

  G_OBJECT_CLASS (tb_mcp_server_editor_parent_class)->dispose (object);
}

static void
tb_mcp_server_editor_finalize (GObject *object)
{
  TbMcpServerEditor *self = (TbMcpServerEditor *) object;

  g_clear_object (&self->settings);
  g_clear_object (&self->store);
  g_clear_object (&self->cancellable);
  g_free (self->old_name);

  G_OBJECT_CLASS (tb_mcp_server_editor_parent_class)->finalize (object);
}

static void
tb_mcp_server_editor_class_init (TbMcpServerEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_mcp_server_editor_dispose;
  object_class->finalize = tb_mcp_server_editor_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-server-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerEditor, title);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerEditor, enabled);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerEditor, entry_view);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerEditor, status);
  gtk_widget_class_bind_template_child (widget_class, TbMcpServerEditor, remove_box);
  gtk_widget_class_bind_template_callback (widget_class, back_clicked);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked);
}

static void
tb_mcp_server_editor_init (TbMcpServerEditor *self)
{
  GtkTextBuffer *buffer;

  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  buffer = gtk_text_view_get_buffer (self->entry_view);
  g_signal_connect_object (buffer, "mark-set", G_CALLBACK (on_entry_cursor_moved),
                           self->entry_view, 0);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (on_entry_changed), self->entry_view,
                           G_CONNECT_SWAPPED);
}

/**
 * tb_mcp_server_editor_new:
 * @settings: the settings that hold the servers
 * @store: the keyring for the values of the server's headers
 * @name: (nullable): the server to edit, %NULL to add one
 *
 * Returns: (transfer floating): the editor, to present as a subpage
 */
TbMcpServerEditor *
tb_mcp_server_editor_new (GSettings     *settings,
                          TbSecretStore *store,
                          const char    *name)
{
  TbMcpServerEditor *self;
  g_autofree char *entry = NULL;
  gboolean enabled = TRUE;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (TB_IS_SECRET_STORE (store), NULL);

  self = g_object_new (TB_TYPE_MCP_SERVER_EDITOR, NULL);
  self->settings = g_object_ref (settings);
  self->store = g_object_ref (store);
  if (name != NULL)
    entry = entry_text (settings, name, &enabled);
  adw_window_title_set_title (self->title, entry != NULL ? _("Edit MCP Server")
                                                         : _("Add MCP Server"));
  gtk_switch_set_active (self->enabled, enabled);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->entry_view),
                            entry != NULL ? entry
                                          : "{\n  \"command\": \"\",\n  \"args\": []\n}", -1);
  if (entry != NULL)
    {
      self->old_name = g_strdup (name);
      gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
      gtk_widget_set_visible (self->remove_box, TRUE);
    }
  return self;
}
