/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-history-page"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "tb-app-util.h"
#include "tb-history-page-private.h"
#include "tb-history-row.h"
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
  set_selected (self, row != NULL ? tb_history_row_get_entry (TB_HISTORY_ROW (row)) : NULL);
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
    if (TB_IS_HISTORY_ROW (row) && tb_history_row_get_entry (TB_HISTORY_ROW (row)) == entry)
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
