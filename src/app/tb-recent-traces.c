/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-recent-traces"

#include "config.h"

#include "tb-recent-traces.h"

/**
 * TbRecentTraces:
 *
 * The Trace page's Recent menu: the trace files (`.jsonl`) of the
 * desktop's list of recently used files, newest first. Choosing one emits
 * #TbRecentTraces::open. Traces are added to the desktop's list only
 * while the menu is active (the app's window; tests leave it off so that
 * the person's list is never touched).
 */

#define MAX_RECENT 8

struct _TbRecentTraces
{
  GtkWidget      parent_instance;

  GtkMenuButton *button;
  GtkListBox    *list;
  GPtrArray     *uris;      /* of the rows, in order */
  gboolean       active;
};

G_DEFINE_FINAL_TYPE (TbRecentTraces, tb_recent_traces, GTK_TYPE_WIDGET)

enum { OPEN, N_SIGNALS };
static guint signals [N_SIGNALS];

static void
on_row_activated (GtkListBox     *list,
                  GtkListBoxRow  *row,
                  TbRecentTraces *self)
{
  int index = gtk_list_box_row_get_index (row);
  g_autoptr(GFile) file = NULL;

  if (self->uris == NULL || index < 0 || (guint) index >= self->uris->len)
    return;
  file = g_file_new_for_uri (g_ptr_array_index (self->uris, index));
  gtk_menu_button_popdown (self->button);
  g_signal_emit (self, signals [OPEN], 0, file);
}

/**
 * tb_recent_traces_refresh:
 * @self: the menu
 *
 * Fills the menu from the desktop's list, as when it opens.
 *
 * Returns: how many traces it lists
 */
guint
tb_recent_traces_refresh (TbRecentTraces *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  GtkWidget *child;
  guint n = 0;

  g_return_val_if_fail (TB_IS_RECENT_TRACES (self), 0);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_clear_pointer (&self->uris, g_ptr_array_unref);
  self->uris = g_ptr_array_new_with_free_func (g_free);
  for (GList *l = items; l != NULL && n < MAX_RECENT; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);
      GtkWidget *row, *label;

      if (!g_str_has_suffix (uri, ".jsonl") || !gtk_recent_info_exists (info))
        continue;
      row = gtk_list_box_row_new ();
      label = gtk_label_new (gtk_recent_info_get_display_name (info));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_margin_start (label, 6);
      gtk_widget_set_margin_end (label, 6);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      gtk_widget_set_tooltip_text (row, uri);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_ptr_array_add (self->uris, g_strdup (uri));
      gtk_list_box_append (self->list, row);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  return n;
}

/**
 * tb_recent_traces_remember:
 * @self: the menu
 * @file: a trace opened or saved
 *
 * Adds @file to the desktop's list of recently used files when the menu
 * is active.
 */
void
tb_recent_traces_remember (TbRecentTraces *self,
                           GFile          *file)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (TB_IS_RECENT_TRACES (self));
  g_return_if_fail (G_IS_FILE (file));

  if (!self->active)
    return;
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

/**
 * tb_recent_traces_set_active:
 * @self: the menu
 * @active: whether traces opened and saved go to the desktop's list
 */
void
tb_recent_traces_set_active (TbRecentTraces *self,
                             gboolean        active)
{
  g_return_if_fail (TB_IS_RECENT_TRACES (self));
  self->active = active;
}

static void
tb_recent_traces_dispose (GObject *object)
{
  TbRecentTraces *self = TB_RECENT_TRACES (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_RECENT_TRACES);
  g_clear_pointer (&self->uris, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_recent_traces_parent_class)->dispose (object);
}

static void
tb_recent_traces_class_init (TbRecentTracesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_recent_traces_dispose;

  /**
   * TbRecentTraces::open:
   * @self: the menu
   * @file: the trace chosen
   */
  signals [OPEN] = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-recent-traces.ui");
  gtk_widget_class_bind_template_child (widget_class, TbRecentTraces, button);
  gtk_widget_class_bind_template_child (widget_class, TbRecentTraces, list);
  gtk_widget_class_bind_template_callback (widget_class, tb_recent_traces_refresh);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tb_recent_traces_init (TbRecentTraces *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
