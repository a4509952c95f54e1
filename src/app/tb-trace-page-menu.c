/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-timeline-row.h"
#include "tb-trace-page-private.h"

/* A timeline row's menu — right click, Menu, Shift+F10 — and what it
 * offers: Fork from Here, Copy Event as JSON, Show Wire Request; and
 * Ctrl+Shift+K, which forks from the selected row. */

static void
fork_from_here_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TbTracePage *self = TB_TRACE_PAGE (widget);
  g_autoptr(GError) error = NULL;
  gint position = g_variant_get_int32 (parameter);

  if (position < 0 || !tb_trace_page_fork_from_event (self, position, &error))
    _tb_trace_page_set_status (self, error != NULL ? error->message : NULL);
}

/* A row's menu: fork from its event, copy the event, or show the request
 * that led to it. Opened by a right click, the Menu key or Shift+F10. */

/* The node of the visible row of the event at @position, or NULL. */
static TbTimelineNode *
node_at (TbTracePage *self,
         gint         position)
{
  guint row = _tb_trace_page_find_row (self, position);
  g_autoptr(GObject) item = NULL;

  if (row == GTK_INVALID_LIST_POSITION)
    return NULL;
  item = g_list_model_get_item (G_LIST_MODEL (self->selection), row);
  return _tb_trace_page_row_node (item);
}

/* The position of the wire request that led to the event at @position: the
 * last "request" before it in the same iteration, or -1. */
static gint
request_before (TbTracePage *self,
                gint         position)
{
  GListModel *rows = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (rows);
  g_autoptr(TbTimelineNode) node = node_at (self, position);
  gint found = -1;

  if (node == NULL)
    return -1;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);
      g_autoptr(TbTimelineNode) other = _tb_trace_page_row_node (item);
      g_autoptr(JsonObject) event = NULL;
      gint at;

      if (other == NULL || tb_timeline_node_is_heading (other))
        continue;
      at = (gint) tb_timeline_node_get_position (other);
      if (at >= position
          || tb_timeline_node_get_iteration (other) != tb_timeline_node_get_iteration (node))
        continue;
      event = tb_timeline_node_read_event (other);
      if (event != NULL && g_strcmp0 (tb_json_object_get_string (event, "type"), "request") == 0
          && at > found)
        found = at;
    }
  return found;
}

static GMenuModel *
event_menu_model (TbTracePage *self,
                  gint         position)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *heading = NULL;
  g_autoptr(JsonNode) value = NULL;
  TbReplayEdit edit;
  guint step;

  if (_tb_trace_page_fork_target (self, position, &step, &edit, &heading, &value, &error))
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("_Fork From Here"), NULL);

      g_menu_item_set_action_and_target_value (item, "trace.fork-from-here",
                                               g_variant_new_int32 (position));
      g_menu_append_item (menu, item);
    }
  {
    g_autoptr(GMenuItem) item = g_menu_item_new (_("_Copy Event as JSON"), NULL);

    g_menu_item_set_action_and_target_value (item, "trace.copy-event",
                                             g_variant_new_int32 (position));
    g_menu_append_item (menu, item);
  }
  if (request_before (self, position) >= 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("Show _Wire Request"), NULL);

      g_menu_item_set_action_and_target_value (item, "trace.show-wire",
                                               g_variant_new_int32 (position));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

/* Opens the menu of the event at @position, pointing at @rect (in the
 * page's coordinates). */
static void
popup_event_menu (TbTracePage        *self,
                  gint                position,
                  const GdkRectangle *rect)
{
  g_autoptr(GMenuModel) model = event_menu_model (self, position);

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->event_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->event_menu), rect);
  gtk_popover_popup (GTK_POPOVER (self->event_menu));
}

static void
on_timeline_right_click (GtkGestureClick *gesture,
                         int              n_press,
                         double           x,
                         double           y,
                         TbTracePage     *self)
{
  GtkWidget *view = GTK_WIDGET (self->timeline_view);
  GtkWidget *picked = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);
  TbTimelineNode *node = NULL;
  GdkRectangle rect = { 0, 0, 1, 1 };
  double page_x, page_y;
  guint row;

  for (; picked != NULL && picked != view; picked = gtk_widget_get_parent (picked))
    if (TB_IS_TIMELINE_ROW (picked))
      {
        node = tb_timeline_row_get_node (TB_TIMELINE_ROW (picked));
        break;
      }
  if (node == NULL || tb_timeline_node_is_heading (node))
    return;

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  row = _tb_trace_page_find_row (self, (gint) tb_timeline_node_get_position (node));
  if (row != GTK_INVALID_LIST_POSITION)
    gtk_single_selection_set_selected (self->selection, row);
  if (gtk_widget_translate_coordinates (view, GTK_WIDGET (self), x, y, &page_x, &page_y))
    {
      rect.x = (int) page_x;
      rect.y = (int) page_y;
    }
  popup_event_menu (self, (gint) tb_timeline_node_get_position (node), &rect);
}

/* The Menu key and Shift+F10: the selected row's menu, beside the row
 * that has the keyboard focus. */
static void
event_menu_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TbTracePage *self = TB_TRACE_PAGE (widget);
  gint position = tb_trace_page_get_selected_event (self);
  GtkWidget *focus = gtk_widget_get_focus_child (GTK_WIDGET (self->timeline_view));
  GdkRectangle rect = { 0, 0, 1, 1 };
  graphene_rect_t bounds;

  if (position < 0)
    {
      _tb_trace_page_set_status (self, _("Select an event first: its menu is about that event."));
      return;
    }
  if (focus != NULL && gtk_widget_compute_bounds (focus, GTK_WIDGET (self), &bounds))
    {
      rect.x = (int) bounds.origin.x + 24;
      rect.y = (int) bounds.origin.y;
      rect.height = (int) bounds.size.height;
    }
  popup_event_menu (self, position, &rect);
}

/* Closed, the menu gives the keyboard back to the timeline. */
static void
on_event_menu_closed (TbTracePage *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
}

/* Ctrl+Shift+K: fork from the selected event. */
static void
fork_selected_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TbTracePage *self = TB_TRACE_PAGE (widget);
  g_autoptr(GError) error = NULL;
  gint position = tb_trace_page_get_selected_event (self);

  if (position < 0)
    {
      _tb_trace_page_set_status (self, _("Select the call, result or model turn to fork from."));
      return;
    }
  if (!tb_trace_page_fork_from_event (self, position, &error))
    _tb_trace_page_set_status (self, error->message);
}

static void
copy_event_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TbTracePage *self = TB_TRACE_PAGE (widget);
  g_autoptr(TbTimelineNode) node = node_at (self, g_variant_get_int32 (parameter));
  g_autoptr(JsonNode) clean = _tb_trace_page_dup_event_json (self, node);
  g_autofree char *text = NULL;

  if (clean == NULL)
    return;
  text = tb_json_to_string (clean, TRUE);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  _tb_trace_page_set_status (self, _("The event's JSON is on the clipboard."));
}

static void
show_wire_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  TbTracePage *self = TB_TRACE_PAGE (widget);
  gint request = request_before (self, g_variant_get_int32 (parameter));

  if (request < 0)
    {
      _tb_trace_page_set_status (self, _("No wire request led to this event."));
      return;
    }
  tb_trace_page_select_event (self, (guint) request);
}


/**
 * _tb_trace_page_class_init_menu:
 *
 * Installs the row menu's actions, keys and template callbacks.
 */
void
_tb_trace_page_class_init_menu (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_right_click);
  gtk_widget_class_bind_template_callback (widget_class, on_event_menu_closed);

  gtk_widget_class_install_action (widget_class, "trace.fork-from-here", "i",
                                   fork_from_here_action);
  gtk_widget_class_install_action (widget_class, "trace.fork-selected", NULL,
                                   fork_selected_action);
  gtk_widget_class_install_action (widget_class, "trace.copy-event", "i", copy_event_action);
  gtk_widget_class_install_action (widget_class, "trace.show-wire", "i", show_wire_action);
  gtk_widget_class_install_action (widget_class, "trace.event-menu", NULL, event_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_k,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "trace.fork-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "trace.event-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "trace.event-menu", NULL);
}
