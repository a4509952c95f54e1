/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-history-page"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "tb-app-util.h"
#include "tb-history-page.h"
#include "tb-result-view.h"

/* Every call, newest first, with the selected call's arguments and result. */

struct _TbHistoryPage
{
  GtkWidget      parent_instance;

  GtkStack      *stack;
  AdwLeaflet    *leaflet;
  GtkWidget     *list_side;
  GtkWidget     *details_side;
  GtkListBox    *list;
  GtkWidget     *details;
  GtkLabel      *tool_label;
  GtkLabel      *time_label;
  GtkSourceView *arguments_view;
  GtkWidget     *running_label;
  TbResultView  *result_view;

  TbHistory      *history;
  TbHistoryEntry *selected;
};

G_DEFINE_FINAL_TYPE (TbHistoryPage, tb_history_page, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SELECTED, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
update_icon_style (TbHistoryEntry *entry,
                   GParamSpec     *pspec,
                   GtkWidget      *icon)
{
  TbToolResult *result = tb_history_entry_get_result (entry);

  gtk_widget_remove_css_class (icon, "success");
  gtk_widget_remove_css_class (icon, "error");
  if (result != NULL)
    gtk_widget_add_css_class (icon, tb_tool_result_get_ok (result) ? "success" : "error");
}

/**
 * tb_history_row_new:
 * @entry: a call
 * @show_tool: whether to name the tool (the overall list does, a tool's own does not)
 *
 * Returns: (transfer floating): a row that follows the call's progress
 */
GtkWidget *
tb_history_row_new (TbHistoryEntry *entry,
                    gboolean        show_tool)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *title = gtk_label_new (show_tool ? tb_history_entry_get_tool_name (entry) : NULL);
  GtkWidget *status = gtk_label_new (NULL);
  GtkWidget *time = gtk_label_new (NULL);
  GtkWidget *summary = gtk_label_new (NULL);

  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  g_object_bind_property (entry, "icon-name", icon, "icon-name", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (entry, "notify::icon-name", G_CALLBACK (update_icon_style), icon, 0);
  update_icon_style (entry, NULL, icon);
  g_object_bind_property (entry, "status-label", status, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (entry, "time-label", time, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (entry, "summary", summary, "label", G_BINDING_SYNC_CREATE);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_visible (title, show_tool);
  gtk_label_set_xalign (GTK_LABEL (status), 0);
  gtk_widget_set_hexpand (status, !show_tool);
  gtk_label_set_ellipsize (GTK_LABEL (status), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (title, show_tool);
  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "numeric");
  gtk_label_set_xalign (GTK_LABEL (summary), 0);
  gtk_label_set_ellipsize (GTK_LABEL (summary), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (summary, "monospace");
  gtk_widget_add_css_class (summary, "dim-label");
  gtk_widget_add_css_class (summary, "caption");

  gtk_box_append (GTK_BOX (top), show_tool ? title : status);
  gtk_box_append (GTK_BOX (top), time);
  gtk_box_append (GTK_BOX (text), top);
  if (show_tool)
    {
      gtk_widget_add_css_class (status, "caption");
      gtk_box_append (GTK_BOX (text), status);
    }
  else
    g_object_ref_sink (title), g_object_unref (title);
  gtk_box_append (GTK_BOX (text), summary);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), text);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "tb-entry", g_object_ref (entry), g_object_unref);

  {
    g_autofree char *label = g_strdup_printf ("%s %s", tb_history_entry_get_tool_name (entry),
                                              gtk_label_get_label (GTK_LABEL (time)));

    gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  }
  return row;
}

static void
show_entry (TbHistoryPage *self)
{
  TbHistoryEntry *entry = self->selected;
  g_autofree char *arguments = NULL;
  g_autofree char *when = NULL;

  gtk_widget_set_visible (self->details, entry != NULL);
  if (entry == NULL)
    return;

  gtk_label_set_label (self->tool_label, tb_history_entry_get_tool_name (entry));
  when = g_date_time_format (tb_history_entry_get_started (entry), "%x %X");
  gtk_label_set_label (self->time_label, when);
  arguments = tb_json_to_string (tb_history_entry_get_arguments (entry), TRUE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->arguments_view)),
                            arguments, -1);
  gtk_widget_set_visible (self->running_label, tb_history_entry_get_running (entry));
  tb_result_view_set_result (self->result_view, tb_history_entry_get_result (entry));
}

static void
on_entry_notify (TbHistoryEntry *entry,
                 GParamSpec     *pspec,
                 TbHistoryPage  *self)
{
  if (entry == self->selected)
    show_entry (self);
}

static void
set_selected (TbHistoryPage  *self,
              TbHistoryEntry *entry)
{
  if (self->selected == entry)
    return;
  if (self->selected != NULL)
    g_signal_handlers_disconnect_by_data (self->selected, self);
  g_set_object (&self->selected, entry);
  if (entry != NULL)
    g_signal_connect (entry, "notify::running", G_CALLBACK (on_entry_notify), self);
  show_entry (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SELECTED]);
}

static void
on_row_selected (TbHistoryPage *self,
                 GtkListBoxRow *row)
{
  set_selected (self, row != NULL ? g_object_get_data (G_OBJECT (row), "tb-entry") : NULL);
  /* On a narrow window the details replace the list. */
  if (row != NULL)
    adw_leaflet_set_visible_child (self->leaflet, self->details_side);
}

static void
on_back_clicked (TbHistoryPage *self)
{
  adw_leaflet_set_visible_child (self->leaflet, self->list_side);
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  return tb_history_row_new (TB_HISTORY_ENTRY (item), TRUE);
}

static void
on_history_changed (GListModel    *model,
                    guint          position,
                    guint          removed,
                    guint          added,
                    TbHistoryPage *self)
{
  guint n = g_list_model_get_n_items (model);

  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "calls" : "empty");
  if (n == 0)
    set_selected (self, NULL);
}

static void
tb_history_page_dispose (GObject *object)
{
  TbHistoryPage *self = (TbHistoryPage *) object;

  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  set_selected (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_HISTORY_PAGE);
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->history);

  G_OBJECT_CLASS (tb_history_page_parent_class)->dispose (object);
}

static void
tb_history_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbHistoryPage *self = TB_HISTORY_PAGE (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_object (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_history_page_class_init (TbHistoryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_history_page_dispose;
  object_class->get_property = tb_history_page_get_property;

  properties [PROP_SELECTED] =
    g_param_spec_object ("selected", NULL, NULL, TB_TYPE_HISTORY_ENTRY,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TB_TYPE_RESULT_VIEW);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-history-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, stack);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, leaflet);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, list_side);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, details_side);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, list);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, details);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, tool_label);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, time_label);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, arguments_view);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, running_label);
  gtk_widget_class_bind_template_child (widget_class, TbHistoryPage, result_view);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tbhistorypage");
}

static void
tb_history_page_init (TbHistoryPage *self)
{
  tb_app_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_source_view_setup (self->arguments_view, "json", FALSE);
  gtk_widget_set_visible (self->details, FALSE);
}

/**
 * tb_history_page_set_history:
 * @self: a page
 * @history: the history to list
 */
void
tb_history_page_set_history (TbHistoryPage *self,
                             TbHistory     *history)
{
  g_return_if_fail (TB_IS_HISTORY_PAGE (self));
  g_return_if_fail (TB_IS_HISTORY (history));
  g_return_if_fail (self->history == NULL);

  self->history = g_object_ref (history);
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (history), create_row, NULL, NULL);
  g_signal_connect (history, "items-changed", G_CALLBACK (on_history_changed), self);
  on_history_changed (G_LIST_MODEL (history), 0, 0, 0, self);
}

/**
 * tb_history_page_select:
 * @self: a page
 * @entry: (nullable): the call to show
 */
void
tb_history_page_select (TbHistoryPage  *self,
                        TbHistoryEntry *entry)
{
  g_return_if_fail (TB_IS_HISTORY_PAGE (self));

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    if (g_object_get_data (G_OBJECT (row), "tb-entry") == (gpointer) entry)
      {
        gtk_list_box_select_row (self->list, GTK_LIST_BOX_ROW (row));
        return;
      }
  gtk_list_box_unselect_all (self->list);
}

/**
 * tb_history_page_get_selected:
 * @self: a page
 *
 * Returns: (transfer none) (nullable): the call shown
 */
TbHistoryEntry *
tb_history_page_get_selected (TbHistoryPage *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_PAGE (self), NULL);
  return self->selected;
}

/**
 * tb_history_page_get_list:
 * @self: a page
 *
 * Returns: (transfer none): the list of calls
 */
GtkListBox *
tb_history_page_get_list (TbHistoryPage *self)
{
  g_return_val_if_fail (TB_IS_HISTORY_PAGE (self), NULL);
  return self->list;
}
