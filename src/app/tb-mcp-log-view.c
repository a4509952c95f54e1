/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-log-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-mcp-log-view-private.h"

/* A read-only view of an MCP server's log: its stderr and its
 * `notifications/message`, the entries the client kept so far and then
 * each new one. Control characters the server wrote show as escapes such
 * as `\u001b`, so its output cannot redraw what the view shows. A server
 * that floods its log is shown in batches, every FLUSH_MS, and the view
 * keeps its last MAX_LINES lines. Above the log, the level the server
 * logs at (`logging/setLevel`) when it declared the logging capability.
 * Until the person chooses one the server keeps its own, and the list
 * shows none. */

#define FLUSH_MS 100
#define MAX_LINES 5000

struct _TbMcpLogView
{
  TbMcpClientView parent_instance;

  GtkTextView *view;
  GtkDropDown *level_dropdown;
  GtkLabel    *level_status;

  TbMcpClient *client;       /* the view's, not owned here */
  GString     *pending;
  guint        flush_id;
  GCancellable *cancellable;
  gboolean     setting;
  gboolean     level_asking;
  const char  *asked_level;
};

/* The levels of RFC 5424, as MCP names them, in the list's order. */
static const char * const levels[] = {
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
};

G_DEFINE_FINAL_TYPE (TbMcpLogView, tb_mcp_log_view, TB_TYPE_MCP_CLIENT_VIEW)

static void
append_escaped (TbMcpLogView *self,
                const char   *raw)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  g_autofree char *text = tb_text_escape_controls (raw, -1);
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, text, -1);
}

static void
flush (TbMcpLogView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  int lines;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (self->pending->len == 0)
    return;
  append_escaped (self, self->pending->str);
  g_string_truncate (self->pending, 0);

  /* The buffer's last line is the empty one after the last new line. */
  lines = gtk_text_buffer_get_line_count (buffer) - 1;
  if (lines > MAX_LINES)
    {
      GtkTextIter start, cut;

      gtk_text_buffer_get_start_iter (buffer, &start);
      gtk_text_buffer_get_iter_at_line (buffer, &cut, lines - MAX_LINES);
      gtk_text_buffer_delete (buffer, &start, &cut);
    }
}

static gboolean
flush_cb (gpointer user_data)
{
  TbMcpLogView *self = user_data;

  self->flush_id = 0;
  flush (self);
  return G_SOURCE_REMOVE;
}

static void
on_log_message (TbMcpClient  *client,
                const char   *origin,
                const char   *level,
                const char   *text,
                TbMcpLogView *self)
{
  g_string_append_printf (self->pending, "[%s %s] %s\n", origin, level, text);
  if (self->flush_id == 0)
    self->flush_id = g_timeout_add (FLUSH_MS, flush_cb, self);
}

static void
set_level_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TbMcpLogView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (tb_mcp_client_set_log_level_finish (TB_MCP_CLIENT (object), result, &error))
    {
      self->level_asking = FALSE;
      tb_label_set_status (self->level_status, NULL, FALSE);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->client == NULL)
    return;
  self->level_asking = FALSE;
  {
    /* Translators: a log level such as "warning", then the server's error */
    g_autofree char *text = g_strdup_printf (_("The server did not take the level “%s”: %s"),
                                             self->asked_level, error->message);

    tb_label_set_status (self->level_status, text, TRUE);
  }
}

static void
on_level_selected (TbMcpLogView *self)
{
  guint selected = gtk_drop_down_get_selected (self->level_dropdown);

  if (self->setting || selected >= G_N_ELEMENTS (levels) || self->client == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  tb_label_set_status (self->level_status, NULL, FALSE);
  self->level_asking = TRUE;
  self->asked_level = levels[selected];
  tb_mcp_client_set_log_level_async (self->client, levels[selected], self->cancellable,
                                     set_level_cb, g_object_ref (self));
}

/* The list is for servers that declared logging; a new session starts at
 * the server's own level again. */
static void
update_level (TbMcpLogView *self)
{
  gboolean connected = tb_mcp_client_get_state (self->client) == TB_MCP_CLIENT_STATE_CONNECTED;
  gboolean logs = connected && tb_mcp_client_has_capability (self->client, "logging", NULL);

  gtk_widget_set_sensitive (GTK_WIDGET (self->level_dropdown), logs);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->level_dropdown),
                               logs ? _("The least severe messages the server sends to its log")
                               : connected ? _("This server does not let clients set its log "
                                               "level: it declared no logging capability.")
                               : _("The server is not running."));
  if (!connected)
    {
      self->setting = TRUE;
      gtk_drop_down_set_selected (self->level_dropdown, GTK_INVALID_LIST_POSITION);
      self->setting = FALSE;
      tb_label_set_status (self->level_status, NULL, FALSE);
    }
}

static void
tb_mcp_log_view_constructed (GObject *object)
{
  TbMcpLogView *self = (TbMcpLogView *) object;
  g_auto(GStrv) kept = NULL;
  g_autofree char *name = NULL;

  G_OBJECT_CLASS (tb_mcp_log_view_parent_class)->constructed (object);

  self->client = tb_mcp_client_view_get_client (TB_MCP_CLIENT_VIEW (self));

  kept = tb_mcp_client_get_log (self->client);
  if (kept != NULL && kept[0] != NULL)
    {
      g_autofree char *joined = g_strjoinv ("\n", kept);
      g_autofree char *text = g_strconcat (joined, "\n", NULL);

      append_escaped (self, text);
    }
  /* Translators: %s is the name the person gave the MCP server. */
  name = g_strdup_printf (_("Log of the MCP server “%s”"),
                          tb_mcp_client_get_name (self->client));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  name, -1);
  g_signal_connect_object (self->client, "log-message", G_CALLBACK (on_log_message), self, 0);
  g_signal_connect_object (self->client, "notify::state", G_CALLBACK (update_level), self,
                           G_CONNECT_SWAPPED);
  self->setting = TRUE;
  gtk_drop_down_set_selected (self->level_dropdown, GTK_INVALID_LIST_POSITION);
  self->setting = FALSE;
  update_level (self);
}

static void
tb_mcp_log_view_dispose (GObject *object)
{
  TbMcpLogView *self = (TbMcpLogView *) object;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->client = NULL;
  if (self->pending != NULL)
    g_string_free (g_steal_pointer (&self->pending), TRUE);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_LOG_VIEW);

  G_OBJECT_CLASS (tb_mcp_log_view_parent_class)->dispose (object);
}

static void
tb_mcp_log_view_class_init (TbMcpLogViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tb_mcp_log_view_constructed;
  object_class->dispose = tb_mcp_log_view_dispose;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-log-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpLogView, view);
  gtk_widget_class_bind_template_child (widget_class, TbMcpLogView, level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TbMcpLogView, level_status);
  gtk_widget_class_bind_template_callback (widget_class, on_level_selected);
}

static void
tb_mcp_log_view_init (TbMcpLogView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->pending = g_string_new (NULL);
}

/**
 * tb_mcp_log_view_new:
 * @client: an MCP client
 *
 * Returns: (transfer floating): a view of the log of @client's server
 */
GtkWidget *
tb_mcp_log_view_new (TbMcpClient *client)
{
  g_return_val_if_fail (TB_IS_MCP_CLIENT (client), NULL);

  return g_object_new (TB_TYPE_MCP_LOG_VIEW, "client", client, NULL);
}

/**
 * tb_mcp_log_view_get_text:
 * @self: a log view
 *
 * Returns: (transfer full): the text it shows
 */
char *
tb_mcp_log_view_get_text (TbMcpLogView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_MCP_LOG_VIEW (self), NULL);

  flush (self);
  buffer = gtk_text_view_get_buffer (self->view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

GtkDropDown *
tb_mcp_log_view_get_level_dropdown (TbMcpLogView *self)
{
  g_return_val_if_fail (TB_IS_MCP_LOG_VIEW (self), NULL);
  return self->level_dropdown;
}

/* What the page says of the last level the person chose, or %NULL. */
const char *
tb_mcp_log_view_get_level_status (TbMcpLogView *self)
{
  g_return_val_if_fail (TB_IS_MCP_LOG_VIEW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->level_status))
         ? gtk_label_get_text (self->level_status) : NULL;
}

/* Whether no level request is under way. */
gboolean
tb_mcp_log_view_level_is_settled (TbMcpLogView *self)
{
  g_return_val_if_fail (TB_IS_MCP_LOG_VIEW (self), TRUE);
  return !self->level_asking;
}
