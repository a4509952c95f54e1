/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool-page"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>
#include <gtksourceview/gtksource.h>

#include "tb-app-util.h"
#include "tb-argument-editor.h"
#include "tb-history-row.h"
#include "tb-prefs.h"
#include "tb-result-view.h"
#include "tb-tool-hints-bar.h"
#include "tb-tool-page.h"
#include "tb-tool-page-private.h"

/* One tool: what it is, its schema, the argument editor, Run and Cancel,
 * the result and the tool's recent calls. Calls run through the registry,
 * so they are validated, time-limited and recorded in the history like any
 * other; several tools may run at once and each page shows its own. */

/* Arguments larger than this are not remembered across restarts. */
#define MAX_REMEMBERED_BYTES (64 * 1024)
#define MAX_REMEMBERED_TOOLS 200
#define RECENT_CALLS 10
/* About twenty lines of the page: most descriptions are shorter. */
#define DESCRIPTION_SHOWN_CHARS 1500

struct _TbToolPage
{
  GtkWidget         parent_instance;

  GtkStack         *page_stack;
  AdwStatusPage    *empty_status;

  /* The view of one tool (tb-tool-detail.ui), NULL until a tool is first
   * shown: see ensure_detail(). */
  GtkWidget        *scroller;
  GtkRevealer      *gone_revealer;
  GtkLabel         *gone_label;
  GtkLabel         *name_label;
  GtkLabel         *source_label;
  GtkWidget        *user_only_label;
  GtkLabel         *description_label;
  GtkToggleButton  *description_more_button;
  GtkExpander      *schema_expander;
  GtkSourceView    *schema_view;
  TbArgumentEditor *argument_editor;
  GtkWidget        *run_button;
  GtkWidget        *run_anyway_button;
  GtkWidget        *cancel_button;
  GtkSpinner       *spinner;
  GtkProgressBar   *progress_bar;
  GtkLabel         *title_label;
  TbToolHintsBar   *hints_bar;
  GtkLabel         *run_status_label;
  TbResultView     *result_view;
  GtkWidget        *recent_box;
  GtkListBox       *recent_list;

  TbHistory        *history;
  TbToolRegistry   *registry;
  GSettings        *settings;
  TbTool           *tool;
  char             *tool_name;
  GHashTable       *runs;        /* tool name → RunData */
  GtkFilterListModel *recent;
  GtkStringFilter  *recent_filter;
  guint             tick_source;
  guint             serial;
  guint             reveal_tries;
  gboolean          gone;
};

typedef struct
{
  TbToolPage   *page;   /* holds a reference while the call runs */
  char         *tool_name;
  char         *call_id;
  GCancellable *cancellable;
  gint64        started;
} RunData;

G_DEFINE_FINAL_TYPE (TbToolPage, tb_tool_page, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_TOOL, PROP_CAN_RUN, PROP_RUNNING, PROP_GONE, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
run_data_free (RunData *data)
{
  g_free (data->tool_name);
  g_free (data->call_id);
  g_clear_object (&data->cancellable);
  g_free (data);
}

static RunData *
current_run (TbToolPage *self)
{
  return self->tool_name != NULL ? g_hash_table_lookup (self->runs, self->tool_name) : NULL;
}

gboolean
tb_tool_page_get_running (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), FALSE);
  return current_run (self) != NULL;
}

gboolean
tb_tool_page_get_can_run (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), FALSE);
  /* Run stays on while the arguments are wrong: pressing it shows why. */
  return self->tool != NULL && !self->gone && current_run (self) == NULL;
}

/**
 * tb_tool_page_get_can_run_anyway:
 * @self: a page
 *
 * Returns: whether the arguments are JSON that does not match the schema,
 *   which the person may still send on purpose
 */
gboolean
tb_tool_page_get_can_run_anyway (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), FALSE);
  return self->tool != NULL && !self->gone && current_run (self) == NULL &&
         !tb_argument_editor_get_valid (self->argument_editor) &&
         tb_argument_editor_get_parsable (self->argument_editor);
}

static gboolean
tick (gpointer user_data)
{
  TbToolPage *self = user_data;
  RunData *run = current_run (self);
  g_autofree char *elapsed = NULL;
  g_autofree char *text = NULL;

  if (run == NULL)
    {
      self->tick_source = 0;
      return G_SOURCE_REMOVE;
    }
  elapsed = tb_format_duration ((g_get_monotonic_time () - run->started) / G_USEC_PER_SEC
                                * G_USEC_PER_SEC);
  /* Translators: %s is a duration such as "3.0 s" */
  text = g_strdup_printf (_("Running for %s…"), elapsed);
  gtk_label_set_label (self->run_status_label, text);
  return G_SOURCE_CONTINUE;
}

static void
update_state (TbToolPage *self)
{
  gboolean running = current_run (self) != NULL;
  gboolean valid, shown, anyway;

  /* No tool was shown yet: there is nothing to run. */
  if (self->scroller == NULL)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CAN_RUN]);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RUNNING]);
      return;
    }

  valid = tb_argument_editor_get_valid (self->argument_editor);
  shown = tb_argument_editor_get_shown_errors (self->argument_editor)->len > 0;
  anyway = tb_tool_page_get_can_run_anyway (self) && shown;
  gtk_widget_set_visible (self->cancel_button, running);
  if (!running)
    gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (self->run_anyway_button, anyway);

  if (running)
    {
      if (self->tick_source == 0)
        self->tick_source = g_timeout_add (250, tick, self);
      tick (self);
    }
  else
    {
      g_clear_handle_id (&self->tick_source, g_source_remove);
      if (self->gone)
        gtk_label_set_label (self->run_status_label, _("The tool is not registered."));
      else if (!tb_argument_editor_get_parsable (self->argument_editor))
        gtk_label_set_label (self->run_status_label, _("Fix the JSON to run the tool."));
      else if (!valid && shown)
        gtk_label_set_label (self->run_status_label,
                             _("Fix the problems to run, or choose Run Anyway."));
      else
        gtk_label_set_label (self->run_status_label, "");
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CAN_RUN]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RUNNING]);
}

static void
on_arguments_changed (TbToolPage *self)
{
  update_state (self);
}

/* Remembered arguments: one JSON text per tool name in GSettings. */
static void
remember_arguments (TbToolPage *self)
{
  g_autoptr(JsonNode) arguments = NULL;
  g_autofree char *text = NULL;

  if (self->settings == NULL || self->tool_name == NULL)
    return;
  arguments = tb_argument_editor_get_arguments (self->argument_editor);
  if (arguments == NULL)
    return;
  text = tb_json_to_string (arguments, FALSE);
  if (strlen (text) > MAX_REMEMBERED_BYTES)
    return;

  tb_prefs_set_dict_entry (self->settings, "last-arguments", self->tool_name, text,
                           MAX_REMEMBERED_TOOLS);
}

static JsonNode *
remembered_arguments (TbToolPage *self,
                      const char *name)
{
  g_autoptr(GVariant) saved = NULL;
  const char *text = NULL;

  if (self->settings == NULL)
    return NULL;
  saved = g_settings_get_value (self->settings, "last-arguments");
  if (!g_variant_lookup (saved, name, "&s", &text))
    return NULL;
  return tb_json_parse (text, -1, NULL);
}

/* The description, or its start with Show More when it is long: a label
 * lays out all of its text, and a tool's description may be 64 KiB. */
static void
show_description (TbToolPage *self)
{
  const char *description = tb_tool_get_description (self->tool);

  if (description == NULL || *description == '\0')
    description = _("This tool has no description.");
  tb_label_set_start (self->description_label, self->description_more_button, description, NULL,
                      DESCRIPTION_SHOWN_CHARS);
}

/* The schema's text goes into its view when the expander is open: a
 * highlighted view of a large schema costs seconds, and most people call
 * a tool without reading its schema. */
static void
show_schema (TbToolPage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->schema_view));
  g_autofree char *schema = NULL;

  if (self->tool == NULL || !gtk_expander_get_expanded (self->schema_expander))
    {
      gtk_text_buffer_set_text (buffer, "", 0);
      return;
    }
  schema = tb_json_to_string (tb_tool_get_parameters (self->tool), TRUE);
  gtk_text_buffer_set_text (buffer, schema, -1);
}

static void
on_description_more_toggled (TbToolPage *self)
{
  if (self->tool != NULL)
    show_description (self);
}

static void
show_tool (TbToolPage *self,
           JsonNode   *arguments)
{
  TbTool *tool = self->tool;

  gtk_label_set_label (self->name_label, tb_tool_get_name (tool));
  gtk_label_set_label (self->title_label, tb_tool_get_title (tool));
  gtk_widget_set_visible (GTK_WIDGET (self->title_label), tb_tool_get_title (tool) != NULL);
  tb_tool_hints_bar_set_tool (self->hints_bar, tool);
  if (g_str_has_prefix (tb_tool_get_source (tool), "plugin:"))
    {
      /* Translators: where a tool comes from: a plugin's file name */
      g_autofree char *source = g_strdup_printf (_("Plugin: %s"),
                                                 tb_tool_get_source (tool) + strlen ("plugin:"));

      gtk_label_set_label (self->source_label, source);
    }
  else
    {
      gtk_label_set_label (self->source_label, tb_tool_get_source (tool));
    }
  gtk_widget_set_visible (self->user_only_label,
                          tb_tool_get_visibility (tool) == TB_TOOL_VISIBILITY_USER_ONLY);
  gtk_toggle_button_set_active (self->description_more_button, FALSE);
  show_description (self);
  show_schema (self);
  tb_argument_editor_set_tool (self->argument_editor, tool, arguments);
}

static void
set_gone (TbToolPage *self,
          gboolean    gone)
{
  self->gone = gone;
  if (gone)
    {
      /* Translators: %s is a tool name */
      g_autofree char *text = g_strdup_printf (_("“%s” is no longer registered; its server may "
                                                 "have disconnected. The arguments stay here, "
                                                 "and Run comes back when the tool does."),
                                               self->tool_name);

      gtk_label_set_label (self->gone_label, text);
    }
  gtk_revealer_set_reveal_child (self->gone_revealer, gone);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_GONE]);
  update_state (self);
}

static void
on_tool_unregistered (TbToolRegistry *registry,
                      TbTool         *tool,
                      TbToolPage     *self)
{
  if (self->tool_name != NULL && g_str_equal (tb_tool_get_name (tool), self->tool_name))
    set_gone (self, TRUE);
}

static void
on_tool_registered (TbToolRegistry *registry,
                    TbTool         *tool,
                    TbToolPage     *self)
{
  g_autoptr(JsonNode) arguments = NULL;

  if (self->tool_name == NULL || !g_str_equal (tb_tool_get_name (tool), self->tool_name))
    return;

  /* The tool is back (or was replaced): show its new definition, keep the arguments. */
  arguments = tb_argument_editor_get_arguments (self->argument_editor);
  g_set_object (&self->tool, tool);
  show_tool (self, arguments);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TOOL]);
  set_gone (self, FALSE);
}

static GtkWidget *
create_recent_row (gpointer item,
                   gpointer user_data)
{
  return tb_history_row_new (TB_HISTORY_ENTRY (item), FALSE);
}

static void
on_recent_changed (GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added,
                   TbToolPage *self)
{
  if (self->recent_box != NULL)
    gtk_widget_set_visible (self->recent_box, g_list_model_get_n_items (model) > 0);
}

static void
on_recent_activated (TbToolPage    *self,
                     GtkListBoxRow *row)
{
  tb_tool_page_show_entry (self, tb_history_row_get_entry (TB_HISTORY_ROW (row)));
}

/* The widgets of tb-tool-detail.ui the page keeps, by their ids. */
#define DETAIL_WIDGETS(X) \
  X (scroller) X (gone_revealer) X (gone_label) X (name_label) X (source_label) \
  X (user_only_label) X (description_label) X (description_more_button) \
  X (schema_expander) X (schema_view) \
  X (argument_editor) X (run_button) X (run_anyway_button) X (cancel_button) X (spinner) \
  X (progress_bar) X (title_label) X (hints_bar) X (run_status_label) X (result_view) \
  X (recent_box) X (recent_list)

/* Connects the view of one tool to the registry and the history, once both
 * exist. */
static void
connect_detail (TbToolPage *self)
{
  g_autoptr(GtkSliceListModel) slice = NULL;

  if (self->scroller == NULL || self->registry == NULL)
    return;

  tb_tool_hints_bar_setup (self->hints_bar, self->registry, self->settings);
  slice = gtk_slice_list_model_new (G_LIST_MODEL (g_object_ref (self->recent)), 0, RECENT_CALLS);
  gtk_list_box_bind_model (self->recent_list, G_LIST_MODEL (slice), create_recent_row, NULL, NULL);
  on_recent_changed (G_LIST_MODEL (self->recent), 0, 0, 0, self);
}

/* Builds the view of one tool the first time a tool is shown: the window's
 * first frame, with no tool chosen, does not build its three source views. */
static void
ensure_detail (TbToolPage *self)
{
  g_autoptr(GtkBuilderScope) scope = NULL;
  g_autoptr(GtkBuilder) builder = NULL;
  g_autoptr(GError) error = NULL;

  if (self->scroller != NULL)
    return;

  scope = gtk_builder_cscope_new ();
  gtk_builder_cscope_add_callback_symbols (GTK_BUILDER_CSCOPE (scope),
                                           "on_arguments_changed",
                                           G_CALLBACK (on_arguments_changed),
                                           "on_recent_activated",
                                           G_CALLBACK (on_recent_activated),
                                           "on_description_more_toggled",
                                           G_CALLBACK (on_description_more_toggled),
                                           NULL);
  builder = gtk_builder_new ();
  gtk_builder_set_scope (builder, scope);
  gtk_builder_set_current_object (builder, G_OBJECT (self));
  if (!gtk_builder_add_from_resource (builder, "/io/github/toolbench/Toolbench/tb-tool-detail.ui",
                                      &error))
    g_error ("The Tool page's resource is broken: %s", error->message);

#define FETCH(field) self->field = (gpointer) gtk_builder_get_object (builder, #field);
  DETAIL_WIDGETS (FETCH)
#undef FETCH

  gtk_stack_add_named (self->page_stack, self->scroller, "tool");
  tb_button_name_by_label (GTK_BUTTON (self->run_button));
  tb_button_name_by_label (GTK_BUTTON (self->run_anyway_button));
  tb_button_name_by_label (GTK_BUTTON (self->cancel_button));
  tb_source_view_setup (self->schema_view, "json", FALSE);
  tb_expander_keep_focus_out (self->schema_expander);
  g_signal_connect_swapped (self->schema_expander, "notify::expanded",
                            G_CALLBACK (show_schema), self);
  connect_detail (self);
}

static gboolean
reveal_result_tick (GtkWidget     *widget,
                    GdkFrameClock *clock,
                    gpointer       user_data)
{
  TbToolPage *self = TB_TOOL_PAGE (widget);
  GtkWidget *content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (self->scroller));
  GtkAdjustment *adjustment =
    gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
  graphene_rect_t bounds;
  double top, bottom, value, page;

  if (content == NULL ||
      !gtk_widget_compute_bounds (GTK_WIDGET (self->result_view), content, &bounds))
    return G_SOURCE_REMOVE;
  /* Not laid out yet: try at the next frame. */
  if (bounds.size.height < 1 && self->reveal_tries++ < 10)
    return G_SOURCE_CONTINUE;
  self->reveal_tries = 0;

  /* Scroll just enough to show the result's first lines. */
  top = bounds.origin.y - 12;
  bottom = bounds.origin.y + MIN (bounds.size.height, 240) + 12;
  value = gtk_adjustment_get_value (adjustment);
  page = gtk_adjustment_get_page_size (adjustment);
  if (bottom > value + page || top < value)
    gtk_adjustment_set_value (adjustment, top);
  return G_SOURCE_REMOVE;
}

static void
reveal_result (TbToolPage *self)
{
  gtk_widget_add_tick_callback (GTK_WIDGET (self), reveal_result_tick, NULL, NULL);
}

static void
on_call_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  RunData *run = user_data;
  g_autoptr(TbToolResult) outcome = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object),
                                                                   result);
  TbToolPage *self = run->page;


  if (self != NULL)
    {
      gboolean current = g_strcmp0 (self->tool_name, run->tool_name) == 0;

      /* Removing the entry frees @run. */
      g_hash_table_remove (self->runs, run->tool_name);
      if (current && self->registry != NULL)
        {
          tb_result_view_set_result (self->result_view, outcome);
          update_state (self);
          reveal_result (self);
        }
      g_object_unref (self);
    }
  else
    run_data_free (run);
}

/* A running tool's reports: a bar that fills when the tool knows its
 * total and pulses when it does not, with the tool's message. */
static void
on_call_progress (TbToolRegistry *registry,
                  const char     *call_id,
                  double          progress,
                  double          total,
                  const char     *message,
                  TbToolPage     *self)
{
  RunData *run = current_run (self);
  g_autofree char *text = NULL;

  if (run == NULL || g_strcmp0 (run->call_id, call_id) != 0)
    return;
  if (total > 0)
    gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (progress / total, 0.0, 1.0));
  else
    gtk_progress_bar_pulse (self->progress_bar);
  if (message != NULL && *message != '\0')
    text = g_strdup (message);
  else if (total > 0)
    /* Translators: progress of a running tool, such as "3 of 10" */
    text = g_strdup_printf (_("%g of %g"), progress, total);
  gtk_progress_bar_set_text (self->progress_bar, text);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
}

static void
start_run (TbToolPage *self,
           gboolean    unvalidated)
{
  g_autoptr(JsonNode) arguments = NULL;
  RunData *run;

  if (self->tool == NULL || self->gone || current_run (self) != NULL)
    return;
  arguments = tb_argument_editor_get_arguments (self->argument_editor);
  if (arguments == NULL)
    return;

  remember_arguments (self);

  run = g_new0 (RunData, 1);
  run->page = self;
  run->tool_name = g_strdup (self->tool_name);
  run->call_id = g_strdup_printf ("ui-%u", ++self->serial);
  run->cancellable = g_cancellable_new ();
  run->started = g_get_monotonic_time ();
  g_hash_table_replace (self->runs, run->tool_name, run);

  update_state (self);
  if (unvalidated)
    tb_tool_registry_call_unvalidated_async (self->registry, run->tool_name, run->call_id,
                                             arguments, NULL, run->cancellable, on_call_done,
                                             run);
  else
    tb_tool_registry_call_async (self->registry, run->tool_name, run->call_id, arguments, NULL,
                                 run->cancellable, on_call_done, run);
  g_object_ref (self);
}

/**
 * tb_tool_page_run:
 * @self: a page
 *
 * Runs the tool with the editor's arguments when they are valid; when they
 * are not, shows every problem at its field and offers Run Anyway.
 */
void
tb_tool_page_run (TbToolPage *self)
{
  g_return_if_fail (TB_IS_TOOL_PAGE (self));

  if (!tb_tool_page_get_can_run (self))
    return;
  if (tb_argument_editor_get_valid (self->argument_editor))
    start_run (self, FALSE);
  else
    tb_argument_editor_reveal_problems (self->argument_editor);
}

/**
 * tb_tool_page_run_anyway:
 * @self: a page
 *
 * Sends the arguments exactly as written even though they do not match
 * the schema, to see how the tool handles them: the registry does not
 * check them (tb_tool_registry_call_unvalidated_async()), and the result
 * and the history say "not validated". Valid arguments run as usual.
 */
void
tb_tool_page_run_anyway (TbToolPage *self)
{
  g_return_if_fail (TB_IS_TOOL_PAGE (self));

  if (tb_tool_page_get_can_run (self) && tb_argument_editor_get_valid (self->argument_editor))
    start_run (self, FALSE);
  else if (tb_tool_page_get_can_run_anyway (self))
    start_run (self, TRUE);
}

/**
 * tb_tool_page_cancel:
 * @self: a page
 *
 * Cancels the shown tool's call; its result says it was cancelled.
 */
void
tb_tool_page_cancel (TbToolPage *self)
{
  RunData *run;

  g_return_if_fail (TB_IS_TOOL_PAGE (self));

  run = current_run (self);
  if (run != NULL)
    g_cancellable_cancel (run->cancellable);
}

/**
 * tb_tool_page_show_entry:
 * @self: a page
 * @entry: a call from the history
 *
 * Opens the entry's tool (when it is registered), restores the call's
 * arguments into the editor and shows its result.
 */
void
tb_tool_page_show_entry (TbToolPage     *self,
                         TbHistoryEntry *entry)
{
  g_return_if_fail (TB_IS_TOOL_PAGE (self));
  g_return_if_fail (TB_IS_HISTORY_ENTRY (entry));

  if (g_strcmp0 (self->tool_name, tb_history_entry_get_tool_name (entry)) != 0)
    {
      g_autoptr(TbTool) tool = tb_tool_registry_lookup (self->registry,
                                                         tb_history_entry_get_tool_name (entry));

      if (tool == NULL)
        return;
      tb_tool_page_set_tool (self, tool);
    }
  tb_argument_editor_set_arguments (self->argument_editor,
                                    tb_history_entry_get_arguments (entry));
  if (tb_history_entry_get_result (entry) != NULL && current_run (self) == NULL)
    tb_result_view_set_result (self->result_view, tb_history_entry_get_result (entry));
}

static void
tb_tool_page_dispose (GObject *object)
{
  TbToolPage *self = (TbToolPage *) object;

  remember_arguments (self);
  g_clear_handle_id (&self->tick_source, g_source_remove);
  {
    GHashTableIter iter;
    RunData *run;

    /* Calls of a closed window are not waited for. */
    g_hash_table_iter_init (&iter, self->runs);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &run))
      g_cancellable_cancel (run->cancellable);
  }
  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  if (self->recent != NULL)
    g_signal_handlers_disconnect_by_data (self->recent, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_TOOL_PAGE);
  tb_widget_unparent_children (GTK_WIDGET (self));
#define FORGET(field) self->field = NULL;
  DETAIL_WIDGETS (FORGET)
#undef FORGET
  g_clear_object (&self->recent);
  g_clear_object (&self->recent_filter);
  g_clear_object (&self->tool);
  g_clear_object (&self->history);
  g_clear_object (&self->registry);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tb_tool_page_parent_class)->dispose (object);
}

static void
tb_tool_page_finalize (GObject *object)
{
  TbToolPage *self = (TbToolPage *) object;

  g_free (self->tool_name);
  g_hash_table_unref (self->runs);

  G_OBJECT_CLASS (tb_tool_page_parent_class)->finalize (object);
}

static void
tb_tool_page_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TbToolPage *self = TB_TOOL_PAGE (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;
    case PROP_CAN_RUN:
      g_value_set_boolean (value, tb_tool_page_get_can_run (self));
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, tb_tool_page_get_running (self));
      break;
    case PROP_GONE:
      g_value_set_boolean (value, self->gone);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_tool_page_class_init (TbToolPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_tool_page_dispose;
  object_class->finalize = tb_tool_page_finalize;
  object_class->get_property = tb_tool_page_get_property;

  properties [PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL, TB_TYPE_TOOL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_CAN_RUN] =
    g_param_spec_boolean ("can-run", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_GONE] =
    g_param_spec_boolean ("gone", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TB_TYPE_ARGUMENT_EDITOR);
  g_type_ensure (TB_TYPE_RESULT_VIEW);
  g_type_ensure (TB_TYPE_TOOL_HINTS_BAR);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-tool-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TbToolPage, page_stack);
  gtk_widget_class_bind_template_child (widget_class, TbToolPage, empty_status);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tbtoolpage");
}

static void
tb_tool_page_init (TbToolPage *self)
{
  tb_app_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  tb_status_page_set_app_icon (self->empty_status);
  self->runs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                      (GDestroyNotify) run_data_free);
}

/**
 * tb_tool_page_new:
 * @registry: the registry whose tools the page calls
 * @history: the history to list recent calls from
 * @settings: (nullable): where the last arguments per tool are remembered
 *
 * Returns: (transfer full): a new page
 */
GtkWidget *
tb_tool_page_new (TbToolRegistry *registry,
                  TbHistory      *history,
                  GSettings      *settings)
{
  TbToolPage *self = g_object_new (TB_TYPE_TOOL_PAGE, NULL);

  tb_tool_page_setup (self, registry, history, settings);
  return GTK_WIDGET (self);
}

/**
 * tb_tool_page_setup:
 * @self: a page made by a template
 * @registry: the registry whose tools the page calls
 * @history: the history to list recent calls from
 * @settings: (nullable): where the last arguments per tool are remembered
 *
 * Connects a page that a window's template created.
 */
void
tb_tool_page_setup (TbToolPage     *self,
                    TbToolRegistry *registry,
                    TbHistory      *history,
                    GSettings      *settings)
{
  g_return_if_fail (TB_IS_TOOL_PAGE (self));
  g_return_if_fail (TB_IS_TOOL_REGISTRY (registry));
  g_return_if_fail (TB_IS_HISTORY (history));
  g_return_if_fail (self->registry == NULL);

  self->registry = g_object_ref (registry);
  self->history = g_object_ref (history);
  g_set_object (&self->settings, settings);

  g_signal_connect (registry, "tool-registered", G_CALLBACK (on_tool_registered), self);
  g_signal_connect (registry, "tool-unregistered", G_CALLBACK (on_tool_unregistered), self);
  g_signal_connect (registry, "call-progress", G_CALLBACK (on_call_progress), self);

  self->recent_filter =
    gtk_string_filter_new (gtk_property_expression_new (TB_TYPE_HISTORY_ENTRY, NULL, "tool-name"));
  gtk_string_filter_set_match_mode (self->recent_filter, GTK_STRING_FILTER_MATCH_MODE_EXACT);
  gtk_string_filter_set_ignore_case (self->recent_filter, FALSE);
  gtk_string_filter_set_search (self->recent_filter, "\x01");
  self->recent = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (history)),
                                            GTK_FILTER (g_object_ref (self->recent_filter)));
  g_signal_connect (self->recent, "items-changed", G_CALLBACK (on_recent_changed), self);
  connect_detail (self);
}

/**
 * tb_tool_page_set_tool:
 * @self: a page
 * @tool: (nullable): the tool to show
 *
 * Shows @tool with the arguments last used for it (or its defaults).
 */
void
tb_tool_page_set_tool (TbToolPage *self,
                       TbTool     *tool)
{
  g_autoptr(JsonNode) arguments = NULL;

  g_return_if_fail (TB_IS_TOOL_PAGE (self));
  g_return_if_fail (!tool || TB_IS_TOOL (tool));

  if (tool != NULL && self->tool == tool && !self->gone)
    return;

  remember_arguments (self);
  if (tool != NULL)
    ensure_detail (self);
  g_set_object (&self->tool, tool);
  g_free (self->tool_name);
  self->tool_name = tool != NULL ? g_strdup (tb_tool_get_name (tool)) : NULL;
  self->gone = FALSE;
  if (self->gone_revealer != NULL)
    gtk_revealer_set_reveal_child (self->gone_revealer, FALSE);

  gtk_string_filter_set_search (self->recent_filter,
                                self->tool_name != NULL ? self->tool_name : "\x01");
  on_recent_changed (G_LIST_MODEL (self->recent), 0, 0, 0, self);

  if (tool == NULL)
    {
      gtk_stack_set_visible_child_name (self->page_stack, "empty");
      if (self->scroller != NULL)
        {
          tb_argument_editor_set_tool (self->argument_editor, NULL, NULL);
          tb_result_view_set_result (self->result_view, NULL);
        }
    }
  else
    {
      TbHistoryEntry *last = NULL;

      arguments = remembered_arguments (self, self->tool_name);
      show_tool (self, arguments);

      /* The latest finished call of this tool, if any, is the result to show. */
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->recent)); i++)
        {
          g_autoptr(TbHistoryEntry) entry = g_list_model_get_item (G_LIST_MODEL (self->recent), i);

          if (tb_history_entry_get_result (entry) != NULL)
            {
              last = entry;
              break;
            }
        }
      tb_result_view_set_result (self->result_view,
                                 last != NULL ? tb_history_entry_get_result (last) : NULL);
      gtk_stack_set_visible_child_name (self->page_stack, "tool");
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (
                                  GTK_SCROLLED_WINDOW (self->scroller)), 0);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TOOL]);
  update_state (self);
}

/**
 * tb_tool_page_get_tool:
 * @self: a page
 *
 * Returns: (transfer none) (nullable): the tool shown
 */
TbTool *
tb_tool_page_get_tool (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  return self->tool;
}

gboolean
tb_tool_page_get_gone (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), FALSE);
  return self->gone;
}

/**
 * tb_tool_page_get_argument_editor:
 * @self: a page
 *
 * Returns: (transfer none): the argument editor
 */
TbArgumentEditor *
tb_tool_page_get_argument_editor (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->argument_editor;
}

/**
 * tb_tool_page_get_result_view:
 * @self: a page
 *
 * Returns: (transfer none): the result view
 */
TbResultView *
tb_tool_page_get_result_view (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->result_view;
}

/**
 * tb_tool_page_get_run_button:
 * @self: a page
 *
 * Returns: (transfer none): the Run button
 */
GtkWidget *
tb_tool_page_get_run_button (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->run_button;
}

/**
 * tb_tool_page_get_description:
 * @self: a page
 *
 * Returns: (transfer none): the label of the tool's description
 */
GtkLabel *
tb_tool_page_get_description (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->description_label;
}

/**
 * tb_tool_page_get_description_more:
 * @self: a page
 *
 * Returns: (transfer none): Show More, under a long description
 */
GtkToggleButton *
tb_tool_page_get_description_more (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->description_more_button;
}

/**
 * tb_tool_page_get_schema_expander:
 * @self: a page
 *
 * Returns: (transfer none): the expander of the parameters schema
 */
GtkExpander *
tb_tool_page_get_schema_expander (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->schema_expander;
}

/**
 * tb_tool_page_dup_schema_text:
 * @self: a page
 *
 * Returns: (transfer full): the text of the parameters schema's view
 */
char *
tb_tool_page_dup_schema_text (TbToolPage *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->schema_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * tb_tool_page_get_cancel_button:
 * @self: a page
 *
 * Returns: (transfer none): the Cancel button
 */
GtkWidget *
tb_tool_page_get_cancel_button (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->cancel_button;
}

/**
 * tb_tool_page_get_recent_list:
 * @self: a page
 *
 * Returns: (transfer none): the list of this tool's recent calls
 */
GtkListBox *
tb_tool_page_get_recent_list (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->recent_list;
}

const char *
tb_tool_page_get_status_text (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return gtk_label_get_label (self->run_status_label);
}

/**
 * tb_tool_page_get_gone_text:
 * @self: a page
 *
 * Returns: (nullable): the notice shown when the tool was unregistered
 */
const char *
tb_tool_page_get_gone_text (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  return self->gone ? gtk_label_get_label (self->gone_label) : NULL;
}

GtkWidget *
tb_tool_page_get_hints_bar (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return GTK_WIDGET (self->hints_bar);
}

GtkProgressBar *
tb_tool_page_get_progress_bar (TbToolPage *self)
{
  g_return_val_if_fail (TB_IS_TOOL_PAGE (self), NULL);
  ensure_detail (self);
  return self->progress_bar;
}
