/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "tb-app-util.h"
#include "tb-mcp-resource-row.h"

/* A resource or template in a server's Resources page: its title, URI and
 * details, and the toggle that subscribes to its updates where the server
 * allows it. The page says what the row shows and hears of the toggle
 * through the row's subscribed property. */

struct _TbMcpResourceRow
{
  GtkBox            parent_instance;

  TbMcpResource    *resource;
  gboolean          subscribed;

  GtkWidget        *text_box;
  GtkLabel         *title_label;
  GtkLabel         *uri_label;
  GtkLabel         *details_label;
  GtkToggleButton  *subscribe_toggle;
};

G_DEFINE_FINAL_TYPE (TbMcpResourceRow, tb_mcp_resource_row, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_RESOURCE,
  PROP_SUBSCRIBED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
tb_mcp_resource_row_dispose (GObject *object)
{
  TbMcpResourceRow *self = (TbMcpResourceRow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MCP_RESOURCE_ROW);
  g_clear_object (&self->resource);

  G_OBJECT_CLASS (tb_mcp_resource_row_parent_class)->dispose (object);
}

static void
tb_mcp_resource_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TbMcpResourceRow *self = TB_MCP_RESOURCE_ROW (object);

  switch (prop_id)
    {
    case PROP_RESOURCE:
      g_value_set_object (value, self->resource);
      break;
    case PROP_SUBSCRIBED:
      g_value_set_boolean (value, self->subscribed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_resource_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TbMcpResourceRow *self = TB_MCP_RESOURCE_ROW (object);

  switch (prop_id)
    {
    case PROP_RESOURCE:
      tb_mcp_resource_row_set_resource (self, g_value_get_object (value));
      break;
    case PROP_SUBSCRIBED:
      tb_mcp_resource_row_set_subscribed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_mcp_resource_row_class_init (TbMcpResourceRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_mcp_resource_row_dispose;
  object_class->get_property = tb_mcp_resource_row_get_property;
  object_class->set_property = tb_mcp_resource_row_set_property;

  properties [PROP_RESOURCE] =
    g_param_spec_object ("resource", NULL, NULL, TB_TYPE_MCP_RESOURCE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Whether the toggle is on: the person's wish to hear of updates. */
  properties [PROP_SUBSCRIBED] =
    g_param_spec_boolean ("subscribed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-mcp-resource-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourceRow, text_box);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourceRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourceRow, uri_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourceRow, details_label);
  gtk_widget_class_bind_template_child (widget_class, TbMcpResourceRow, subscribe_toggle);
}

static void
tb_mcp_resource_row_init (TbMcpResourceRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_object_bind_property (self, "subscribed", self->subscribe_toggle, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

GtkWidget *
tb_mcp_resource_row_new (void)
{
  return g_object_new (TB_TYPE_MCP_RESOURCE_ROW, NULL);
}

/**
 * tb_mcp_resource_row_get_resource:
 * @self: a row
 *
 * Returns: (transfer none) (nullable): the resource or template it shows
 */
TbMcpResource *
tb_mcp_resource_row_get_resource (TbMcpResourceRow *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE_ROW (self), NULL);

  return self->resource;
}

/**
 * tb_mcp_resource_row_set_resource:
 * @self: a row
 * @resource: (nullable): the resource or template it shows
 *
 * Its description becomes the row's tooltip; the toggle shows only for a
 * resource (not a template) once the row is told it can subscribe.
 */
void
tb_mcp_resource_row_set_resource (TbMcpResourceRow *self,
                                  TbMcpResource    *resource)
{
  g_return_if_fail (TB_IS_MCP_RESOURCE_ROW (self));

  if (!g_set_object (&self->resource, resource))
    return;
  gtk_widget_set_tooltip_text (self->text_box, resource != NULL
                                               ? tb_mcp_resource_get_description (resource)
                                               : NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RESOURCE]);
}

/**
 * tb_mcp_resource_row_set_text:
 * @self: a row
 * @title: the resource's title
 * @uri: its URI or URI template, as shown
 * @details: what else is known of it; empty hides the line
 */
void
tb_mcp_resource_row_set_text (TbMcpResourceRow *self,
                              const char       *title,
                              const char       *uri,
                              const char       *details)
{
  g_return_if_fail (TB_IS_MCP_RESOURCE_ROW (self));

  tb_label_set_outside_text (self->title_label, title);
  tb_label_set_outside_text (self->uri_label, uri);
  tb_label_set_outside_text (self->details_label, details);
  gtk_widget_set_visible (GTK_WIDGET (self->details_label), details != NULL && *details != '\0');
}

/**
 * tb_mcp_resource_row_set_can_subscribe:
 * @self: a row
 * @can_subscribe: whether the server lets the row's resource be subscribed to
 */
void
tb_mcp_resource_row_set_can_subscribe (TbMcpResourceRow *self,
                                       gboolean          can_subscribe)
{
  g_return_if_fail (TB_IS_MCP_RESOURCE_ROW (self));

  gtk_widget_set_visible (GTK_WIDGET (self->subscribe_toggle), can_subscribe);
}

gboolean
tb_mcp_resource_row_get_subscribed (TbMcpResourceRow *self)
{
  g_return_val_if_fail (TB_IS_MCP_RESOURCE_ROW (self), FALSE);

  return self->subscribed;
}

void
tb_mcp_resource_row_set_subscribed (TbMcpResourceRow *self,
                                    gboolean          subscribed)
{
  g_return_if_fail (TB_IS_MCP_RESOURCE_ROW (self));

  subscribed = !!subscribed;
  if (self->subscribed == subscribed)
    return;
  self->subscribed = subscribed;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SUBSCRIBED]);
}
