/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp-wire-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-mcp-wire-row.h"

/* One message in a server's Messages page: when, which way, what it is
 * (its method, or the method its result answers), its id and its size.
 * What the server wrote is shown with its control characters escaped. */

struct _TbMcpWireRow
{
  GtkWidget        parent_instance;

  GtkLabel        *time_label;
  GtkLabel        *arrow_label;
  GtkLabel        *what_label;
  GtkLabel        *id_label;
  GtkLabel        *size_label;

  TbMcpWireRecord *record;
};

G_DEFINE_FINAL_TYPE (TbMcpWireRow, tb_mcp_wire_row, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_RECORD, N_PROPS };
static GParamSpec *properties [N_PROPS];

static char *
shown (const char *text,
       gsize       max_chars)
{
  g_autofree char *escaped = tb_text_escape_controls (text != NULL ? text : "", -1);

  return tb_text_shorten (escaped, -1, max_chars);
}

/**
 * tb_mcp_wire_row_what:
 * @record: a message
 *
 * Returns: (transfer full): what the message is, for a person: its
 *   method, "result of tools/call", "not a JSON-RPC message"…
 */
char *
tb_mcp_wire_row_what (TbMcpWireRecord *record)
{
  g_autofree char *method = shown (tb_mcp_wire_record_get_method (record), 80);

  switch (tb_mcp_wire_record_get_kind (record))
    {
    case TB_MCP_WIRE_KIND_RESULT:
      /* Translators: a JSON-RPC method, such as tools/call */
      return g_strdup_printf (_("result of %s"), *method != '\0' ? method : "?");
    case TB_MCP_WIRE_KIND_ERROR:
      /* Translators: a JSON-RPC method, such as tools/call */
      return g_strdup_printf (_("error for %s"), *method != '\0' ? method : "?");
    case TB_MCP_WIRE_KIND_INVALID:
      return g_strdup (_("not a JSON-RPC message"));
    case TB_MCP_WIRE_KIND_BATCH:
      return g_strdup (_("a batch of messages"));
    case TB_MCP_WIRE_KIND_HTTP:
      return g_strdup (_("HTTP exchange"));
    case TB_MCP_WIRE_KIND_REQUEST:
    case TB_MCP_WIRE_KIND_NOTIFICATION:
    default:
      return g_strdup (*method != '\0' ? method : "?");
    }
}

/**
 * tb_mcp_wire_row_format_size:
 * @record: a message
 *
 * Returns: (transfer full): its size, "1.2 kB"; for a message the client
 *   stopped reading, how much came at least
 */
char *
tb_mcp_wire_row_format_size (TbMcpWireRecord *record)
{
  g_autofree char *size = g_format_size (tb_mcp_wire_record_get_size (record));

  if (tb_mcp_wire_record_get_kind (record) == TB_MCP_WIRE_KIND_INVALID &&
      tb_mcp_wire_record_get_truncated (record))
    /* Translators: a size such as "32.0 MB": a message the client stopped reading */
    return g_strdup_printf (_("over %s"), size);
  return g_steal_pointer (&size);
}

/**
 * tb_mcp_wire_row_describe:
 * @record: a message
 *
 * Returns: (transfer full): the row as a sentence: "Sent tools/call #3,
 *   142 bytes", its accessible label
 */
char *
tb_mcp_wire_row_describe (TbMcpWireRecord *record)
{
  g_autofree char *what = tb_mcp_wire_row_what (record);
  g_autofree char *size = tb_mcp_wire_row_format_size (record);
  g_autofree char *id = shown (tb_mcp_wire_record_get_id (record), 24);
  g_autofree char *with_id = *id != '\0' ? g_strdup_printf ("%s #%s", what, id)
                                         : g_strdup (what);

  if (tb_mcp_wire_record_get_direction (record) == TB_MCP_WIRE_DIRECTION_SENT)
    /* Translators: what the message is (tools/call #3), then its size */
    return g_strdup_printf (_("Sent %s, %s"), with_id, size);
  /* Translators: what the message is (result of tools/call #3), then its size */
  return g_strdup_printf (_("Received %s, %s"), with_id, size);
}

static void
show_record (TbMcpWireRow *self)
{
  TbMcpWireRecord *record = self->record;
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *clock = NULL;
  g_autofree char *time = NULL;
  g_autofree char *what = NULL;
  g_autofree char *id = NULL;
  g_autofree char *size = NULL;
  g_autofree char *sentence = NULL;
  gboolean sent;

  if (record == NULL)
    {
      gtk_label_set_label (self->time_label, "");
      gtk_label_set_label (self->arrow_label, "");
      gtk_label_set_label (self->what_label, "");
      gtk_label_set_label (self->id_label, "");
      gtk_label_set_label (self->size_label, "");
      return;
    }

  utc = g_date_time_new_from_unix_utc (tb_mcp_wire_record_get_time (record) / G_USEC_PER_SEC);
  local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  clock = local != NULL ? g_date_time_format (local, "%H:%M:%S") : NULL;
  if (clock != NULL)
    time = g_strdup_printf ("%s.%03d", clock,
                            (int) (tb_mcp_wire_record_get_time (record) % G_USEC_PER_SEC / 1000));
  what = tb_mcp_wire_row_what (record);
  id = shown (tb_mcp_wire_record_get_id (record), 24);
  size = tb_mcp_wire_row_format_size (record);
  sent = tb_mcp_wire_record_get_direction (record) == TB_MCP_WIRE_DIRECTION_SENT;
  sentence = tb_mcp_wire_row_describe (record);

  gtk_label_set_label (self->time_label, time != NULL ? time : "");
  gtk_label_set_label (self->arrow_label, sent ? "→" : "←");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->arrow_label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  sent ? _("Sent") : _("Received"), -1);
  gtk_label_set_label (self->what_label, what);
  gtk_label_set_label (self->id_label, *id != '\0' ? id : "");
  gtk_label_set_label (self->size_label, size);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), sentence);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  sentence, -1);
  if (tb_mcp_wire_record_get_kind (record) == TB_MCP_WIRE_KIND_INVALID ||
      tb_mcp_wire_record_get_kind (record) == TB_MCP_WIRE_KIND_ERROR)
    gtk_widget_add_css_class (GTK_WIDGET (self->what_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->what_label), "error");
}

static void
tb_mcp_wire_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbMcpWireRow *self = TB_MCP_WIRE_ROW (object);

  switch (prop_id)
    {
    case PROP_RECORD:
      g_value_set_object (value, self->record);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_wire_row_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TbMcpWireRow *self = TB_MCP_WIRE_ROW (object);

  switch (prop_id)
    {
    case PROP_RECORD:
      tb_mcp_wire_row_set_record (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_wire_row_dispose (GObject *object)
{
  TbMcpWireRow *self = TB_MCP_WIRE_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_WIRE_ROW);
  g_clear_object (&self->record);
  G_OBJECT_CLASS (tb_mcp_wire_row_parent_class)->dispose (object);
}

static void
tb_mcp_wire_row_class_init (TbMcpWireRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_mcp_wire_row_dispose;
  object_class->get_property = tb_mcp_wire_row_get_property;
  object_class->set_property = tb_mcp_wire_row_set_property;

  /* The list item's record; anything else shows nothing. */
  properties [PROP_RECORD] =
    g_param_spec_object ("record", NULL, NULL, G_TYPE_OBJECT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-mcp-wire-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireRow, time_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireRow, arrow_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireRow, what_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireRow, id_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpWireRow, size_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tb_mcp_wire_row_init (TbMcpWireRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                              8);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 3);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 3);
}

/**
 * tb_mcp_wire_row_set_record:
 * @self: a row
 * @record: (nullable): a #TbMcpWireRecord; anything else shows nothing
 */
void
tb_mcp_wire_row_set_record (TbMcpWireRow    *self,
                            TbMcpWireRecord *record)
{
  g_return_if_fail (TB_IS_MCP_WIRE_ROW (self));

  if (record != NULL && !TB_IS_MCP_WIRE_RECORD (record))
    record = NULL;
  if (!g_set_object (&self->record, record))
    return;
  show_record (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RECORD]);
}

/**
 * tb_mcp_wire_row_get_record:
 *
 * Returns: (transfer none) (nullable): the record it shows
 */
TbMcpWireRecord *
tb_mcp_wire_row_get_record (TbMcpWireRow *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_ROW (self), NULL);
  return self->record;
}
