/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-message-row"

#include "config.h"

#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-message-row.h"

/* One message of the Loop page's conversation: what it says, and under
 * the JSON expander the message and the wire bodies of its turn. Both
 * texts come from models and tools, so their control characters are
 * shown, not obeyed. */

struct _TbMessageRow
{
  GtkListBoxRow  parent_instance;

  char          *summary;
  char          *json;

  GtkLabel      *summary_label;
  GtkExpander   *json_expander;
  GtkLabel      *json_label;
};

G_DEFINE_FINAL_TYPE (TbMessageRow, tb_message_row, GTK_TYPE_LIST_BOX_ROW)

static void
tb_message_row_dispose (GObject *object)
{
  TbMessageRow *self = (TbMessageRow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_MESSAGE_ROW);

  G_OBJECT_CLASS (tb_message_row_parent_class)->dispose (object);
}

static void
tb_message_row_finalize (GObject *object)
{
  TbMessageRow *self = (TbMessageRow *) object;

  g_free (self->summary);
  g_free (self->json);

  G_OBJECT_CLASS (tb_message_row_parent_class)->finalize (object);
}

static void
tb_message_row_class_init (TbMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_message_row_dispose;
  object_class->finalize = tb_message_row_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, json_expander);
  gtk_widget_class_bind_template_child (widget_class, TbMessageRow, json_label);
}

static void
tb_message_row_init (TbMessageRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_expander_keep_focus_out (self->json_expander);
}

/**
 * tb_message_row_new:
 * @summary: what the message says, in one or more lines
 * @json: the message's JSON and the wire bodies of its turn
 * @kind: how the summary is styled
 *
 * Returns: (transfer floating): a new row
 */
GtkWidget *
tb_message_row_new (const char       *summary,
                    const char       *json,
                    TbMessageRowKind  kind)
{
  TbMessageRow *self;

  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (json != NULL, NULL);

  self = g_object_new (TB_TYPE_MESSAGE_ROW, NULL);
  self->summary = tb_text_escape_controls (summary, -1);
  self->json = tb_text_escape_controls (json, -1);
  gtk_label_set_label (self->summary_label, self->summary);
  gtk_label_set_label (self->json_label, self->json);
  if (kind == TB_MESSAGE_ROW_ERROR)
    gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "error");
  else if (kind == TB_MESSAGE_ROW_MODEL)
    gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "tb-model-turn");
  /* The row, which takes the focus in the list, is read as what it says. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->summary, -1);
  return GTK_WIDGET (self);
}

/**
 * tb_message_row_get_summary:
 * @self: a message row
 *
 * Returns: what the row says (control characters shown)
 */
const char *
tb_message_row_get_summary (TbMessageRow *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE_ROW (self), NULL);
  return self->summary;
}

/**
 * tb_message_row_get_json:
 * @self: a message row
 *
 * Returns: the JSON its expander shows (control characters shown)
 */
const char *
tb_message_row_get_json (TbMessageRow *self)
{
  g_return_val_if_fail (TB_IS_MESSAGE_ROW (self), NULL);
  return self->json;
}
