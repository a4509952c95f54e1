/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-window"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-facts-page.h"
#include "tb-history-page.h"
#include "tb-loop-page.h"
#include "tb-tool-list.h"
#include "tb-tool-page.h"
#include "tb-tool-row.h"
#include "tb-trace-page.h"
#include "tb-window.h"
#include "tb-window-private.h"

/* The main window: the registry's tools in a sidebar that folds away on
 * narrow windows, and the pages (Tool, History, and the Loop, Facts and
 * Trace pages to come) in a view stack. Every action is a window action
 * with a keyboard shortcut, so the whole window works from the keyboard. */

struct _TbWindow
{
  AdwApplicationWindow parent_instance;

  AdwToastOverlay    *toast_overlay;
  AdwLeaflet         *leaflet;
  GtkWidget          *sidebar;
  GtkWidget          *content;
  GtkSearchBar       *search_bar;
  GtkSearchEntry     *search_entry;
  GtkDropDown        *source_dropdown;
  GtkStack           *list_stack;
  GtkListView        *tool_list;
  guint               focus_row_source;
  GtkLabel           *count_label;
  AdwViewStack       *view_stack;
  TbToolPage         *tool_page;
  TbHistoryPage      *history_page;
  TbLoopPage         *loop_page;
  TbFactsPage        *facts_page;
  TbTracePage        *trace_page;
  AdwBin             *history_bin;
  AdwBin             *trace_bin;
  gboolean            remember_recent;
  AdwViewStackPage   *facts_stack_page;
  TbWorkspace        *workspace;

  TbToolRegistry     *registry;
  TbHistory          *history;
  TbToolList         *list;
  GtkSingleSelection *selection;
  GSettings          *settings;
  GtkWindow          *shortcuts;
};

G_DEFINE_FINAL_TYPE (TbWindow, tb_window, ADW_TYPE_APPLICATION_WINDOW)

enum { PROP_0, PROP_REGISTRY, PROP_HISTORY, N_PROPS };
static GParamSpec *properties [N_PROPS];

/**
 * tb_window_add_toast:
 * @self: a window
 * @text: what to say
 */
void
tb_window_add_toast (TbWindow   *self,
                     const char *text)
{
  AdwToast *toast;

  g_return_if_fail (TB_IS_WINDOW (self));

  toast = adw_toast_new (text);
  adw_toast_set_timeout (toast, 3);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
update_count (TbWindow *self)
{
  guint shown = g_list_model_get_n_items (tb_tool_list_get_model (self->list));
  guint total = g_list_model_get_n_items (G_LIST_MODEL (self->registry));
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tool", "%u tools", total), total);
  else
    /* Translators: "3 of 120 tools" */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u tool", "%u of %u tools",
                                         total), shown, total);
  gtk_label_set_label (self->count_label, text);
  gtk_stack_set_visible_child_name (self->list_stack, shown > 0 || total == 0 ? "list" : "none");
}

static void
on_list_changed (GListModel *model,
                 guint       position,
                 guint       removed,
                 guint       added,
                 TbWindow   *self)
{
  update_count (self);
}

static void
on_search_changed (TbWindow *self)
{
  tb_tool_list_set_search (self->list, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
show_content (TbWindow *self)
{
  if (adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet, self->content);
}

/* The only way a tool is shown: the person opened it (click, Enter, the
 * search's Enter, a call restored from the history). Hovering or moving
 * through the list never changes the page. */
static void
show_tool (TbWindow *self,
           guint     position)
{
  g_autoptr(TbTool) tool = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

  if (tool == NULL)
    return;
  gtk_single_selection_set_selected (self->selection, position);
  tb_tool_page_set_tool (self->tool_page, tool);
  adw_view_stack_set_visible_child_name (self->view_stack, "tool");
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "last-tool", tb_tool_get_name (tool));
}

static void
on_search_activate (TbWindow *self)
{
  /* Enter in the search opens the first match. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0)
    {
      show_tool (self, 0);
      show_content (self);
    }
}

static void
on_stop_search (TbWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
}

static void
on_source_selected (TbWindow *self)
{
  guint selected = gtk_drop_down_get_selected (self->source_dropdown);
  GListModel *sources = gtk_drop_down_get_model (self->source_dropdown);

  if (self->list == NULL || sources == NULL)
    return;
  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION)
    tb_tool_list_set_source (self->list, NULL);
  else
    tb_tool_list_set_source (self->list,
                             gtk_string_list_get_string (GTK_STRING_LIST (sources), selected));
}

static void
on_sources_changed (GListModel *sources,
                    guint       position,
                    guint       removed,
                    guint       added,
                    TbWindow   *self)
{
  const char *current = tb_tool_list_get_source (self->list);
  guint n = g_list_model_get_n_items (sources);

  /* Keep the chosen source selected when the list of sources changes. */
  for (guint i = 1; current != NULL && i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (sources), i), current) == 0)
      {
        gtk_drop_down_set_selected (self->source_dropdown, i);
        return;
      }
  gtk_drop_down_set_selected (self->source_dropdown, 0);
  tb_tool_list_set_source (self->list, NULL);
}

static void
on_tool_activated (TbWindow *self,
                   guint     position)
{
  show_tool (self, position);
  show_content (self);
}

/* GtkListView of GTK 4.8 has no row to focus until one was clicked, so
 * Tab gives the focus to its scrolled window, where the arrow keys and
 * Enter do nothing: the focus goes on to the row of the shown tool (the
 * selected one), or the first row. The rows are the list's children, in
 * order. */
static gboolean
focus_tool_row (gpointer data)
{
  TbWindow *self = data;
  GtkWidget *scroller = gtk_widget_get_parent (GTK_WIDGET (self->tool_list));
  gboolean has_selected;
  GtkWidget *row = NULL;

  self->focus_row_source = 0;
  if (!gtk_widget_has_focus (scroller))
    return G_SOURCE_REMOVE;
  has_selected = gtk_single_selection_get_selected (self->selection) != GTK_INVALID_LIST_POSITION;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->tool_list));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_child_visible (child) || !gtk_widget_get_focusable (child))
        continue;
      if (row == NULL)
        row = child;
      if (has_selected && (gtk_widget_get_state_flags (child) & GTK_STATE_FLAG_SELECTED))
        {
          row = child;
          break;
        }
    }
  if (row != NULL)
    gtk_widget_grab_focus (row);
  return G_SOURCE_REMOVE;
}

/* Moved after the focus change that gave it to the scrolled window. */
static void
on_tool_scroller_focus (GtkEventControllerFocus *controller,
                        TbWindow                *self)
{
  if (gtk_event_controller_focus_is_focus (controller) && self->focus_row_source == 0)
    self->focus_row_source = g_idle_add (focus_tool_row, self);
}

static void
update_actions (TbWindow *self)
{
  gboolean has_tool = tb_tool_page_get_tool (self->tool_page) != NULL;
  /* A result is only shown with a tool (and asking for the view builds it). */
  gboolean has_result = has_tool &&
    tb_result_view_get_result (tb_tool_page_get_result_view (self->tool_page)) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run",
                                 tb_tool_page_get_can_run (self->tool_page));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-anyway",
                                 tb_tool_page_get_can_run (self->tool_page) ||
                                 tb_tool_page_get_can_run_anyway (self->tool_page));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel",
                                 tb_tool_page_get_running (self->tool_page));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-json", has_tool);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-arguments", has_tool);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.paste-arguments", has_tool);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reset-arguments", has_tool);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-result", has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-result", has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.restore-call",
                                 self->history_page != NULL
                                 && tb_history_page_get_selected (self->history_page) != NULL);
}

/* Actions */

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->view_stack, "tool");
  if (g_str_equal (action_name, "win.run-anyway"))
    tb_tool_page_run_anyway (self->tool_page);
  else
    tb_tool_page_run (self->tool_page);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  tb_tool_page_cancel (TB_WINDOW (widget)->tool_page);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

static void
filter_source_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  gtk_widget_grab_focus (GTK_WIDGET (self->source_dropdown));
  gtk_widget_activate (GTK_WIDGET (self->source_dropdown));
}

/* The shortcuts window is built the first time it is asked for, not with
 * the window as GTK builds a "gtk/help-overlay.ui": the first frame does
 * not need it, and it was a fifth of the window's construction. */
static void
show_help_overlay_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  if (self->shortcuts == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/toolbench/Toolbench/tb-shortcuts-window.ui");

      self->shortcuts = g_object_ref (GTK_WINDOW (gtk_builder_get_object (builder,
                                                                          "help_overlay")));
      gtk_window_set_transient_for (self->shortcuts, GTK_WINDOW (self));
      gtk_window_set_hide_on_close (self->shortcuts, TRUE);
    }
  gtk_window_present (self->shortcuts);
}

static void
show_sidebar_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (adw_view_stack_get_child_by_name (self->view_stack, name) != NULL)
    {
      adw_view_stack_set_visible_child_name (self->view_stack, name);
      show_content (self);
    }
}

static void
toggle_json_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);
  TbArgumentEditor *editor = tb_tool_page_get_argument_editor (self->tool_page);

  adw_view_stack_set_visible_child_name (self->view_stack, "tool");
  tb_argument_editor_set_view (editor,
                               g_strcmp0 (tb_argument_editor_get_view (editor), "json") == 0
                               ? "form" : "json");
}

static void
copy_arguments_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);
  g_autofree char *text =
    tb_argument_editor_get_text (tb_tool_page_get_argument_editor (self->tool_page));

  tb_copy_text (widget, text);
  tb_window_add_toast (self, _("Arguments copied"));
}

static void
paste_arguments_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);
  TbArgumentEditor *editor = tb_tool_page_get_argument_editor (self->tool_page);

  tb_argument_editor_paste (editor);
}

static void
reset_arguments_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  tb_argument_editor_reset (tb_tool_page_get_argument_editor (self->tool_page));
}

static void
copy_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  tb_result_view_copy (tb_tool_page_get_result_view (self->tool_page));
  tb_window_add_toast (self, _("Result copied"));
}

static void
save_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  tb_result_view_save (tb_tool_page_get_result_view (self->tool_page));
}

static void
select_tool_in_list (TbWindow   *self,
                     const char *name)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TbTool) tool = g_list_model_get_item (model, i);

      if (g_str_equal (tb_tool_get_name (tool), name))
        {
          show_tool (self, i);
          return;
        }
    }
}

static void
restore_call_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);
  TbHistoryEntry *entry = self->history_page != NULL
                           ? tb_history_page_get_selected (self->history_page) : NULL;
  g_autoptr(TbTool) tool = NULL;

  if (entry == NULL)
    return;
  tool = tb_tool_registry_lookup (self->registry, tb_history_entry_get_tool_name (entry));
  if (tool == NULL)
    {
      /* Translators: %s is a tool name */
      g_autofree char *text = g_strdup_printf (_("“%s” is not registered any more"),
                                               tb_history_entry_get_tool_name (entry));

      tb_window_add_toast (self, text);
      return;
    }
  select_tool_in_list (self, tb_tool_get_name (tool));
  tb_tool_page_show_entry (self->tool_page, entry);
  adw_view_stack_set_visible_child_name (self->view_stack, "tool");
}

static void
clear_history_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  TbWindow *self = TB_WINDOW (widget);

  tb_history_clear (self->history);
}

/* GObject */

static GSettings *
window_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      g_message ("The settings schema %s is not installed; window size and arguments will "
                 "not be remembered. Run the app with “meson devenv” or install it.",
                 APPLICATION_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static gboolean
tb_window_close_request (GtkWindow *window)
{
  TbWindow *self = TB_WINDOW (window);

  if (self->settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_delay (self->settings);
      /* The schema's ranges; a window never shown has no size (-1). */
      if (width > 0)
        g_settings_set_int (self->settings, "window-width", CLAMP (width, 360, 32767));
      if (height > 0)
        g_settings_set_int (self->settings, "window-height", CLAMP (height, 400, 32767));
      g_settings_set_boolean (self->settings, "window-maximized",
                              gtk_window_is_maximized (window));
      g_settings_apply (self->settings);
    }

  return GTK_WINDOW_CLASS (tb_window_parent_class)->close_request (window);
}

static void
tb_window_constructed (GObject *object)
{
  TbWindow *self = (TbWindow *) object;

  G_OBJECT_CLASS (tb_window_parent_class)->constructed (object);

  g_assert (TB_IS_TOOL_REGISTRY (self->registry));
  if (self->history == NULL)
    self->history = tb_history_new (self->registry);

  self->settings = window_settings ();
  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }

  self->list = tb_tool_list_new (self->registry);
  gtk_single_selection_set_model (self->selection, tb_tool_list_get_model (self->list));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect (tb_tool_list_get_model (self->list), "items-changed",
                    G_CALLBACK (on_list_changed), self);

  gtk_drop_down_set_model (self->source_dropdown, tb_tool_list_get_sources (self->list));
  g_signal_connect (tb_tool_list_get_sources (self->list), "items-changed",
                    G_CALLBACK (on_sources_changed), self);

  tb_tool_page_setup (self->tool_page, self->registry, self->history, self->settings);
  tb_loop_page_set_registry (self->loop_page, self->registry);
  gtk_search_bar_set_key_capture_widget (self->search_bar, self->sidebar);

  update_count (self);
  update_actions (self);

  tb_window_restore_last_tool (self);
}

/**
 * tb_window_restore_last_tool:
 * @self: a window
 *
 * Opens the tool the person had open when the app last closed, if it is
 * registered by now and no tool is open yet: tools from folders and
 * servers arrive after the window is shown.
 */
void
tb_window_restore_last_tool (TbWindow *self)
{
  g_autofree char *last = NULL;

  g_return_if_fail (TB_IS_WINDOW (self));

  if (self->settings == NULL
      || gtk_single_selection_get_selected (self->selection) != GTK_INVALID_LIST_POSITION)
    return;
  last = g_settings_get_string (self->settings, "last-tool");
  if (*last != '\0')
    select_tool_in_list (self, last);
}

/* The History and Trace pages are made the first time they are shown (or
 * asked for): most starts never open them, and the window appears sooner
 * without them. The Facts page is cheap and watches the workspace file for
 * other writers, so it is always there. */
static void
on_page_shown (TbWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (self->view_stack);

  if (g_strcmp0 (name, "history") == 0)
    tb_window_get_history_page (self);
  else if (g_strcmp0 (name, "trace") == 0)
    tb_window_get_trace_page (self);
}

/* The Trace page and the history follow the Loop page's current run. */
static void
follow_loop_in_trace_page (TbWindow *self)
{
  TbDispatchLoop *loop = tb_loop_page_get_loop (self->loop_page);

  if (loop != NULL && self->trace_page != NULL)
    {
      TbProvider *provider = tb_dispatch_loop_get_provider (loop);

      /* Details, saves and exports of the run hide its provider's key. */
      tb_trace_page_set_redactor (self->trace_page,
                                  TB_IS_HTTP_PROVIDER (provider)
                                  ? tb_http_provider_get_redactor (TB_HTTP_PROVIDER (provider))
                                  : NULL);
      tb_trace_page_set_trace (self->trace_page, tb_dispatch_loop_get_trace (loop),
                               _("Current run"));
    }
}

static void
on_loop_changed (TbWindow *self)
{
  TbDispatchLoop *loop = tb_loop_page_get_loop (self->loop_page);

  follow_loop_in_trace_page (self);
  if (self->history != NULL)
    tb_history_follow_trace (self->history, loop ? tb_dispatch_loop_get_trace (loop) : NULL);
}

static void
tb_window_dispose (GObject *object)
{
  TbWindow *self = (TbWindow *) object;

  g_clear_handle_id (&self->focus_row_source, g_source_remove);
  if (self->list != NULL)
    {
      g_signal_handlers_disconnect_by_data (tb_tool_list_get_model (self->list), self);
      g_signal_handlers_disconnect_by_data (tb_tool_list_get_sources (self->list), self);
    }
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_WINDOW);

  if (self->shortcuts != NULL)
    gtk_window_destroy (self->shortcuts);
  g_clear_object (&self->shortcuts);
  g_clear_object (&self->list);
  g_clear_object (&self->history);
  g_clear_object (&self->registry);
  g_clear_object (&self->settings);
  g_clear_object (&self->workspace);

  G_OBJECT_CLASS (tb_window_parent_class)->dispose (object);
}

static void
tb_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  TbWindow *self = TB_WINDOW (object);

  switch (prop_id)
    {
    case PROP_REGISTRY:
      g_value_set_object (value, self->registry);
      break;
    case PROP_HISTORY:
      g_value_set_object (value, self->history);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  TbWindow *self = TB_WINDOW (object);

  switch (prop_id)
    {
    case PROP_REGISTRY:
      self->registry = g_value_dup_object (value);
      break;
    case PROP_HISTORY:
      self->history = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_shortcut (GtkWidgetClass  *widget_class,
              guint            keyval,
              GdkModifierType  mods,
              const char      *action,
              const char      *page)
{
  if (page == NULL)
    gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
  else
    gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, "s", page);
}

static void
tb_window_class_init (TbWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = tb_window_constructed;
  object_class->dispose = tb_window_dispose;
  object_class->get_property = tb_window_get_property;
  object_class->set_property = tb_window_set_property;
  window_class->close_request = tb_window_close_request;

  properties [PROP_REGISTRY] =
    g_param_spec_object ("registry", NULL, NULL, TB_TYPE_TOOL_REGISTRY,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties [PROP_HISTORY] =
    g_param_spec_object ("history", NULL, NULL, TB_TYPE_HISTORY,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TB_TYPE_TOOL);
  g_type_ensure (TB_TYPE_TOOL_ROW);
  g_type_ensure (TB_TYPE_TOOL_PAGE);
  g_type_ensure (TB_TYPE_HISTORY_PAGE);
  g_type_ensure (TB_TYPE_LOOP_PAGE);
  g_type_ensure (TB_TYPE_FACTS_PAGE);
  g_type_ensure (TB_TYPE_TRACE_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TbWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, content);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, source_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, list_stack);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, tool_list);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, selection);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, count_label);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, tool_page);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, history_bin);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, loop_page);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, facts_page);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, trace_bin);
  gtk_widget_class_bind_template_callback (widget_class, on_page_shown);
  gtk_widget_class_bind_template_callback (widget_class, on_loop_changed);
  gtk_widget_class_bind_template_child (widget_class, TbWindow, facts_stack_page);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);
  gtk_widget_class_bind_template_callback (widget_class, on_source_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_tool_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_tool_scroller_focus);
  gtk_widget_class_bind_template_callback (widget_class, update_actions);

  gtk_widget_class_install_action (widget_class, "win.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "win.run-anyway", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.filter-source", NULL,
                                   filter_source_action);
  gtk_widget_class_install_action (widget_class, "win.show-sidebar", NULL, show_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL,
                                   show_help_overlay_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-json", NULL, toggle_json_action);
  gtk_widget_class_install_action (widget_class, "win.copy-arguments", NULL,
                                   copy_arguments_action);
  gtk_widget_class_install_action (widget_class, "win.paste-arguments", NULL,
                                   paste_arguments_action);
  gtk_widget_class_install_action (widget_class, "win.reset-arguments", NULL,
                                   reset_arguments_action);
  gtk_widget_class_install_action (widget_class, "win.copy-result", NULL, copy_result_action);
  gtk_widget_class_install_action (widget_class, "win.save-result", NULL, save_result_action);
  gtk_widget_class_install_action (widget_class, "win.restore-call", NULL, restore_call_action);
  gtk_widget_class_install_action (widget_class, "win.clear-history", NULL,
                                   clear_history_action);

  add_shortcut (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "win.run", NULL);
  add_shortcut (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK, "win.run", NULL);
  add_shortcut (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.run-anyway", NULL);
  add_shortcut (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
  add_shortcut (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  add_shortcut (widget_class, GDK_KEY_F, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.filter-source", NULL);
  add_shortcut (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.show-sidebar", NULL);
  add_shortcut (widget_class, GDK_KEY_question, GDK_CONTROL_MASK, "win.show-help-overlay", NULL);
  add_shortcut (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-page", "tool");
  add_shortcut (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-page", "history");
  add_shortcut (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-page", "loop");
  add_shortcut (widget_class, GDK_KEY_4, GDK_ALT_MASK, "win.show-page", "facts");
  add_shortcut (widget_class, GDK_KEY_5, GDK_ALT_MASK, "win.show-page", "trace");
  add_shortcut (widget_class, GDK_KEY_j, GDK_CONTROL_MASK, "win.toggle-json", NULL);
  add_shortcut (widget_class, GDK_KEY_C, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.copy-arguments", NULL);
  add_shortcut (widget_class, GDK_KEY_V, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.paste-arguments", NULL);
  add_shortcut (widget_class, GDK_KEY_R, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.reset-arguments", NULL);
  add_shortcut (widget_class, GDK_KEY_Y, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.copy-result", NULL);
  add_shortcut (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-result", NULL);
  add_shortcut (widget_class, GDK_KEY_O, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.restore-call", NULL);
  add_shortcut (widget_class, GDK_KEY_Delete, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                "win.clear-history", NULL);
}

static void
tb_window_init (TbWindow *self)
{
  tb_app_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_drop_down_name_button (self->source_dropdown, _("Source"));
  tb_list_view_follow_search (self->tool_list, GTK_WIDGET (self->search_entry));
}

/**
 * tb_window_new:
 * @app: (nullable): the application
 * @registry: the tools to show
 * @history: (nullable): the call history; %NULL makes one
 *
 * Returns: (transfer full): a new window
 */
TbWindow *
tb_window_new (GtkApplication *app,
               TbToolRegistry *registry,
               TbHistory      *history)
{
  g_return_val_if_fail (!app || GTK_IS_APPLICATION (app), NULL);
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), NULL);
  g_return_val_if_fail (!history || TB_IS_HISTORY (history), NULL);

  return g_object_new (TB_TYPE_WINDOW,
                       "application", app,
                       "registry", registry,
                       "history", history,
                       NULL);
}

/**
 * tb_window_get_tool_page:
 * @self: a window
 *
 * Returns: (transfer none): the Tool page
 */
TbToolPage *
tb_window_get_tool_page (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return self->tool_page;
}

/**
 * tb_window_get_history_page:
 * @self: a window
 *
 * Returns: (transfer none): the History page
 */
TbHistoryPage *
tb_window_get_history_page (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);

  if (self->history_page == NULL)
    {
      self->history_page = g_object_new (TB_TYPE_HISTORY_PAGE, NULL);
      g_signal_connect_object (self->history_page, "notify::selected",
                               G_CALLBACK (update_actions), self, G_CONNECT_SWAPPED);
      tb_history_page_set_history (self->history_page, self->history);
      adw_bin_set_child (self->history_bin, GTK_WIDGET (self->history_page));
    }
  return self->history_page;
}

/**
 * tb_window_get_search_entry:
 * @self: a window
 *
 * Returns: (transfer none): the sidebar's search entry
 */
GtkEditable *
tb_window_get_search_entry (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return GTK_EDITABLE (self->search_entry);
}

/**
 * tb_window_get_tool_model:
 * @self: a window
 *
 * Returns: (transfer none): the tools the sidebar lists, after search and source filters
 */
GListModel *
tb_window_get_tool_model (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return G_LIST_MODEL (self->selection);
}

/**
 * tb_window_get_tool_list:
 * @self: a window
 *
 * Returns: (transfer none): the sidebar's list view
 */
GtkListView *
tb_window_get_tool_list (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return self->tool_list;
}

/**
 * tb_window_get_source_dropdown:
 * @self: a window
 *
 * Returns: (transfer none): the sidebar's source filter
 */
GtkDropDown *
tb_window_get_source_dropdown (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return self->source_dropdown;
}

const char *
tb_window_get_count_text (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return gtk_label_get_label (self->count_label);
}

/**
 * tb_window_select_tool:
 * @self: a window
 * @name: a tool name
 *
 * Selects the tool in the sidebar (when it is listed) and opens it.
 *
 * Returns: whether the tool was listed
 */
gboolean
tb_window_select_tool (TbWindow   *self,
                       const char *name)
{
  TbTool *selected;

  g_return_val_if_fail (TB_IS_WINDOW (self), FALSE);

  select_tool_in_list (self, name);
  selected = gtk_single_selection_get_selected_item (self->selection);
  return selected != NULL && g_str_equal (tb_tool_get_name (selected), name);
}

/**
 * tb_window_set_page:
 * @self: a window
 * @name: "tool", "history", "loop", "facts" or "trace"
 *
 * Shows the page: in a window too narrow for the list of tools beside the
 * pages, the page instead of the list, as when a trace file is opened.
 */
void
tb_window_set_page (TbWindow   *self,
                    const char *name)
{
  g_return_if_fail (TB_IS_WINDOW (self));
  adw_view_stack_set_visible_child_name (self->view_stack, name);
  /* Also before the window is first laid out and folds. */
  adw_leaflet_set_visible_child (self->leaflet, self->content);
}

/**
 * tb_window_start_loop:
 * @self: a window
 * @messages: (element-type TbMessage): the first messages of a new run,
 *   such as a server's prompt
 * @error: return location for an error
 *
 * Starts a new run on the Loop page with @messages, shows the Loop page
 * and brings the window forward. The run waits for Step or Continue.
 *
 * Returns: whether the run was set up; the error says why not
 */
gboolean
tb_window_start_loop (TbWindow   *self,
                      GPtrArray  *messages,
                      GError    **error)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (messages != NULL, FALSE);

  if (!tb_loop_page_set_start_messages (tb_window_get_loop_page (self), messages, error))
    return FALSE;
  tb_window_set_page (self, "loop");
  gtk_window_present (GTK_WINDOW (self));
  return TRUE;
}

/**
 * tb_window_get_view_stack:
 * @self: a window
 *
 * Returns: (transfer none): the stack of the content pages, for pages that
 *   come and go (the welcome page)
 */
AdwViewStack *
tb_window_get_view_stack (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return self->view_stack;
}

/**
 * tb_window_get_loop_page:
 * @self: a window
 *
 * Returns: (transfer none): the Loop page
 */
TbLoopPage *
tb_window_get_loop_page (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return self->loop_page;
}

/**
 * tb_window_get_facts_page:
 * @self: a window
 *
 * Returns: (transfer none): the Facts page
 */
TbFactsPage *
tb_window_get_facts_page (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);
  return self->facts_page;
}

/**
 * tb_window_set_workspace:
 * @self: a window
 * @workspace: (nullable): the facts, draft and proposals the Facts page
 *   shows and the Loop page's runs use (its tools must be in the registry)
 *
 * The number of waiting proposals is the Facts page's badge.
 */
void
tb_window_set_workspace (TbWindow    *self,
                         TbWorkspace *workspace)
{
  g_return_if_fail (TB_IS_WINDOW (self));
  g_return_if_fail (!workspace || TB_IS_WORKSPACE (workspace));

  if (!g_set_object (&self->workspace, workspace))
    return;
  tb_facts_page_set_workspace (self->facts_page, workspace);
  tb_loop_page_set_workspace (self->loop_page, workspace);
  if (workspace != NULL)
    {
      g_object_bind_property (workspace, "n-pending", self->facts_stack_page, "badge-number",
                              G_BINDING_SYNC_CREATE);
      g_object_bind_property (workspace, "n-pending", self->facts_stack_page, "needs-attention",
                              G_BINDING_SYNC_CREATE);
    }
}

/**
 * tb_window_get_trace_page:
 * @self: a window
 *
 * Returns: (transfer none): the Trace page
 */
TbTracePage *
tb_window_get_trace_page (TbWindow *self)
{
  g_return_val_if_fail (TB_IS_WINDOW (self), NULL);

  if (self->trace_page == NULL)
    {
      self->trace_page = g_object_new (TB_TYPE_TRACE_PAGE, NULL);
      tb_trace_page_set_registry (self->trace_page, self->registry);
      /* The page is a child of the window, so the Loop page outlives it. */
      tb_trace_page_set_provider_func (self->trace_page,
                                       (TbTracePageProviderFunc) tb_loop_page_create_provider,
                                       self->loop_page);
      tb_trace_page_set_remember_recent (self->trace_page, self->remember_recent);
      adw_bin_set_child (self->trace_bin, GTK_WIDGET (self->trace_page));
      follow_loop_in_trace_page (self);
    }
  return self->trace_page;
}

/**
 * tb_window_set_remember_recent_traces:
 * @self: a window
 * @remember: whether the Trace page lists and records recently opened
 *   traces (the app does; tests leave the person's list alone)
 */
void
tb_window_set_remember_recent_traces (TbWindow *self,
                                      gboolean  remember)
{
  g_return_if_fail (TB_IS_WINDOW (self));

  self->remember_recent = !!remember;
  if (self->trace_page != NULL)
    tb_trace_page_set_remember_recent (self->trace_page, self->remember_recent);
}
