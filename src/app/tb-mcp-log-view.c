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
 * keeps its last MAX_LINES lines. */

#define FLUSH_MS 100
#define MAX_LINES 5000

struct _TbMcpLogView
{
  GtkWidget    parent_instance;

  GtkTextView *view;

  TbMcpClient *client;
  GString     *pending;
  guint        flush_id;
};

G_DEFINE_FINAL_TYPE (TbMcpLogView, tb_mcp_log_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_CLIENT, N_PROPS };
static GParamSpec *properties [N_PROPS];

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
tb_mcp_log_view_constructed (GObject *object)
{
  TbMcpLogView *self = (TbMcpLogView *) object;
  g_auto(GStrv) kept = NULL;
  g_autofree char *name = NULL;

  G_OBJECT_CLASS (tb_mcp_log_view_parent_class)->constructed (object);

  g_assert (TB_IS_MCP_CLIENT (self->client));

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
}

static void
tb_mcp_log_view_dispose (GObject *object)
{
  TbMcpLogView *self = (TbMcpLogView *) object;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  g_clear_object (&self->client);
  if (self->pending != NULL)
    g_string_free (g_steal_pointer (&self->pending), TRUE);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_LOG_VIEW);
  tb_widget_unparent_children (GTK_WIDGET (self));

  G_OBJECT_CLASS (tb_mcp_log_view_parent_class)->dispose (object);
}

static void
tb_mcp_log_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbMcpLogView *self = TB_MCP_LOG_VIEW (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_log_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TbMcpLogView *self = TB_MCP_LOG_VIEW (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      self->client = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_log_view_class_init (TbMcpLogViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tb_mcp_log_view_constructed;
  object_class->dispose = tb_mcp_log_view_dispose;
  object_class->get_property = tb_mcp_log_view_get_property;
  object_class->set_property = tb_mcp_log_view_set_property;

  /**
   * TbMcpLogView:client:
   *
   * The client whose server's log the view shows.
   */
  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, TB_TYPE_MCP_CLIENT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-mcp-log-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpLogView, view);
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
