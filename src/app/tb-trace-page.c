/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-eval-section-private.h"
#include "tb-fork-editor.h"
#include "tb-fork-target.h"
#include "tb-recent-traces.h"
#include "tb-replay-report-view.h"
#include "tb-trace-page-private.h"
#include "tb-timeline.h"
#include "tb-timeline-row.h"

/* The Trace page: the events of the current run (or of a trace file) as a
 * timeline, the JSON of the selected event, and replays of the trace —
 * with the recorded results or the live tools, whole or forked at a step —
 * whose report is shown step by step with the first divergence marked and
 * its JSON diff shown. A fork is started from a timeline row, edited in
 * the fork editor, and then shown as a trace of its own beside its report
 * against the parent, ready to be saved.
 *
 * Evaluations are shown above the timeline: a report written by
 * `toolbench-cli eval --json-file`, or a folder of scenarios run here
 * offline, each playing its own script. Activating one of their runs
 * shows its trace. */


/* Files larger than this are shown from the reader's index and read whole
 * only when a replay or a save needs them. */
#define TB_TRACE_PAGE_LOAD_LIMIT (32 * 1024 * 1024)

G_DEFINE_FINAL_TYPE (TbTracePage, tb_trace_page, GTK_TYPE_WIDGET)

/* The formats of the export drop-down, in the order of its items. */
static const TbDefinitionFormat export_formats[] = {
  TB_DEFINITION_FORMAT_OPENAI,
  TB_DEFINITION_FORMAT_ANTHROPIC,
  TB_DEFINITION_FORMAT_OPENAI_RESPONSES,
};

static void remember   (TbTracePage *self,
                        GFile       *file);
static void load_whole (TbTracePage *self,
                        GFile       *file);

void
_tb_trace_page_set_status (TbTracePage *self,
                           const char  *text)
{
  gtk_label_set_label (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
}

static void
set_detail (TbTracePage *self,
            const char  *text)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->detail), text != NULL ? text : "",
                            -1);
  gtk_widget_set_visible (GTK_WIDGET (self->detail_note), FALSE);
}

/* Shows @json, redacted, in the details. A long string is one paragraph
 * the text view lays out whole, so each is shown by its start, and a note
 * says where the whole of it is (@whole_where). */
static void
set_detail_json (TbTracePage *self,
                 JsonNode    *json,
                 const char  *whole_where)
{
  guint n_cut = 0;
  g_autoptr(JsonNode) shown = tb_json_shorten_strings (json, TB_TRACE_PAGE_DETAIL_MAX_CHARS,
                                                       &n_cut);
  g_autofree char *text = tb_json_to_string (shown, TRUE);

  set_detail (self, text);
  if (n_cut > 0)
    {
      g_autofree char *limit = g_strdup_printf ("%'u", TB_TRACE_PAGE_DETAIL_MAX_CHARS);
      g_autofree char *note =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      /* Translators: %u is a count, %s a number such as 10,000,
                                       * and the last %s where the whole text is */
                                      "%u text longer than %s characters is cut here. %s",
                                      "%u texts longer than %s characters are cut here. %s",
                                      n_cut),
                         n_cut, limit, whole_where);

      gtk_label_set_label (self->detail_note, note);
      gtk_widget_set_visible (GTK_WIDGET (self->detail_note), TRUE);
    }
}

static void
update_controls (TbTracePage *self)
{
  /* A file's events count once indexed, before the timeline has placed
   * them: its index may be done before the first placing pass. */
  gboolean has_trace = (self->trace != NULL && tb_trace_get_n_events (self->trace) > 0)
                       || (self->file != NULL && self->timeline != NULL
                           && tb_timeline_get_n_events (self->timeline) > 0)
                       || (self->file != NULL && self->reader != NULL
                           && tb_trace_reader_get_n_events (self->reader) > 0);

  gtk_widget_set_sensitive (self->open_button, !self->busy);
  gtk_widget_set_sensitive (self->save_button, !self->busy && has_trace);
  gtk_widget_set_sensitive (self->replay_button, !self->busy && has_trace);
  gtk_widget_set_sensitive (self->export_button, !self->busy && has_trace);
  tb_fork_editor_set_busy (self->fork_editor,
                           self->busy || (self->trace == NULL && self->reader == NULL));
  tb_fork_editor_set_can_save (self->fork_editor,
                               self->fork_trace != NULL && self->fork_trace == self->trace);
}

/* The timeline. */

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  GListModel *children = tb_timeline_node_get_children (item);

  return children != NULL ? g_object_ref (children) : NULL;
}

TbTimelineNode *
_tb_trace_page_row_node (gpointer item)
{
  if (GTK_IS_TREE_LIST_ROW (item))
    return gtk_tree_list_row_get_item (item);
  return item != NULL ? g_object_ref (item) : NULL;
}

/* The MCP messages of a call are there to be opened, not read through:
 * their row starts closed while the rest of the tree opens itself. It is
 * closed after the change that added it, not inside it. */
static gboolean
close_groups_cb (gpointer user_data)
{
  TbTracePage *self = user_data;
  g_autoptr(GPtrArray) rows = g_steal_pointer (&self->groups_to_close);

  self->close_groups_id = 0;
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    gtk_tree_list_row_set_expanded (g_ptr_array_index (rows, i), FALSE);
  return G_SOURCE_REMOVE;
}

static void
on_tree_changed (GListModel  *tree,
                 guint        position,
                 guint        removed,
                 guint        added,
                 TbTracePage *self)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (GTK_TREE_LIST_MODEL (tree), i);
      g_autoptr(TbTimelineNode) node = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

      if (node == NULL || !tb_timeline_node_is_group (node) ||
          !gtk_tree_list_row_get_expanded (row))
        continue;
      if (self->groups_to_close == NULL)
        self->groups_to_close = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (self->groups_to_close, g_steal_pointer (&row));
      if (self->close_groups_id == 0)
        self->close_groups_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, close_groups_cb, self,
                                                 NULL);
    }
}

/* Shows @source (a trace or a trace file's reader) as the timeline. */
static void
show_source (TbTracePage *self,
             GObject     *source)
{
  g_clear_handle_id (&self->close_groups_id, g_source_remove);
  g_clear_pointer (&self->groups_to_close, g_ptr_array_unref);
  if (self->tree != NULL)
    g_signal_handlers_disconnect_by_func (self->tree, on_tree_changed, self);
  g_clear_object (&self->timeline);
  if (source != NULL)
    self->timeline = tb_timeline_new (source);
  g_clear_object (&self->tree);
  self->tree = gtk_tree_list_model_new (self->timeline != NULL
                                        ? g_object_ref (tb_timeline_get_model (self->timeline))
                                        : G_LIST_MODEL (g_list_store_new (TB_TYPE_TIMELINE_NODE)),
                                        FALSE, TRUE, create_children, NULL, NULL);
  gtk_filter_list_model_set_model (self->filtered, G_LIST_MODEL (self->tree));
  g_signal_connect_after (self->tree, "items-changed", G_CALLBACK (on_tree_changed), self);
  /* A trace in memory is placed whole before the tree is made. */
  on_tree_changed (G_LIST_MODEL (self->tree), 0, 0,
                   g_list_model_get_n_items (G_LIST_MODEL (self->tree)), self);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

/* With a kind chosen or text to search for, only the events that match
 * are listed (the iterations' headings go: they would match nothing). */
static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  TbTracePage *self = user_data;
  g_autoptr(TbTimelineNode) node = _tb_trace_page_row_node (item);
  guint kind = gtk_drop_down_get_selected (self->kind_filter);
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *text = NULL;
  g_autofree char *folded_text = NULL;
  g_autofree char *folded_search = NULL;

  if ((kind == 0 || kind == GTK_INVALID_LIST_POSITION) && *search == '\0')
    return TRUE;
  if (node == NULL || tb_timeline_node_is_heading (node))
    return FALSE;
  if (kind > 0 && kind != GTK_INVALID_LIST_POSITION
      && tb_timeline_node_get_kind (node) != kind - 1)
    return FALSE;
  if (*search == '\0')
    return TRUE;
  text = tb_timeline_node_dup_text (node);
  folded_text = g_utf8_casefold (text, -1);
  folded_search = g_utf8_casefold (search, -1);
  return strstr (folded_text, folded_search) != NULL;
}

static void
on_filter_changed (TbTracePage *self)
{
  /* The kind list is filled after the template is built, before the filter. */
  if (self->filter == NULL)
    return;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* The wire view: a request's or a response's body is JSON in a string;
 * it is shown as JSON. */
static void
expand_body (JsonObject *event)
{
  const char *body = tb_json_object_get_string (event, "body");
  g_autoptr(JsonNode) parsed = NULL;

  if (body == NULL)
    return;
  parsed = tb_json_parse (body, -1, NULL);
  if (parsed != NULL)
    json_object_set_member (event, "body", g_steal_pointer (&parsed));
}

/* The event of @node as the details show it and Copy Event as JSON copies
 * it: read from the trace, its wire body as JSON, redacted. */
JsonNode *
_tb_trace_page_dup_event_json (TbTracePage    *self,
                               TbTimelineNode *node)
{
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(JsonNode) json = NULL;

  if (node == NULL || tb_timeline_node_is_heading (node))
    return NULL;
  event = tb_timeline_node_read_event (node);
  if (event == NULL)
    return NULL;
  expand_body (event);
  json = json_node_init_object (json_node_alloc (), event);
  return tb_redactor_redact_node (self->redactor, json);
}

static void
on_event_selected (TbTracePage *self)
{
  g_autoptr(TbTimelineNode) node = _tb_trace_page_row_node (gtk_single_selection_get_selected_item (
                                               self->selection));
  g_autoptr(JsonNode) json = _tb_trace_page_dup_event_json (self, node);

  if (json != NULL)
    set_detail_json (self, json, _("“Copy Event as JSON”, in the event's menu, copies all of it."));
}

/* The visible row of the event at @position in the trace, or
 * GTK_INVALID_LIST_POSITION. */
guint
_tb_trace_page_find_row (TbTracePage *self,
                         gint         position)
{
  GListModel *rows = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);
      g_autoptr(TbTimelineNode) node = _tb_trace_page_row_node (item);

      if (node != NULL && tb_timeline_node_get_position (node) == position)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* GTK 4.8 has no gtk_list_view_scroll_to(); the list's own action keeps
 * the row in view, even before the list is laid out. */
static void
scroll_to_row (TbTracePage *self,
               guint        row)
{
  gtk_widget_activate_action (GTK_WIDGET (self->timeline_view), "list.scroll-to-item", "u", row);
}

static void
on_trace_changed (TbTracePage *self)
{
  update_controls (self);
}

/* Replays. */

static void
clear_report (TbTracePage *self)
{
  tb_replay_report_view_set_report (self->report_view, NULL);
}

static void
replay_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TbTracePage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbReplayReport) report = tb_replay_run_finish (TB_REPLAY (object), result, &error);

  self->busy = FALSE;
  if (report == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _tb_trace_page_set_status (self, error->message);
      if (object == G_OBJECT (self->forking))
        g_clear_object (&self->forking);
    }
  else
    {
      _tb_trace_page_set_status (self, NULL);
      /* A fork is shown as the trace it made, compared with its parent. */
      if (object == G_OBJECT (self->forking))
        {
          g_autofree char *title = g_steal_pointer (&self->forking_title);

          g_set_object (&self->fork_trace, tb_replay_get_trace (TB_REPLAY (object)));
          tb_trace_page_set_trace (self, self->fork_trace, title);
        }
      tb_replay_report_view_set_report (self->report_view, report);
    }
  update_controls (self);
}

static TbReplay *
new_replay (TbTracePage *self)
{
  TbReplay *replay = tb_replay_new (self->trace);

  /* Without a registry every call gives back its recorded result. */
  if (gtk_check_button_get_active (self->live_check) && self->registry != NULL)
    tb_replay_set_registry (replay, self->registry);
  return replay;
}

static void
start_replay (TbTracePage *self,
              TbReplay    *replay)
{
  self->busy = TRUE;
  _tb_trace_page_set_status (self, NULL);
  tb_replay_run_async (replay, self->cancellable, replay_done, g_object_ref (self));
  update_controls (self);
}

static void
replay_clicked (TbTracePage *self)
{
  g_autoptr(TbReplay) replay = NULL;

  if (self->trace == NULL && self->file != NULL && !self->busy)
    {
      g_autoptr(GFile) file = g_object_ref (self->file);

      self->replay_when_loaded = TRUE;
      load_whole (self, file);
      return;
    }
  if (self->trace == NULL || self->busy)
    return;
  replay = new_replay (self);
  start_replay (self, replay);
}

static char *
buffer_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* What a fork changes at the event at @position of the shown trace. */
gboolean
_tb_trace_page_fork_target (TbTracePage   *self,
                            guint          position,
                            guint         *step,
                            TbReplayEdit  *edit,
                            char         **heading,
                            JsonNode     **value,
                            GError       **error)
{
  if (self->trace == NULL && self->reader == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           _("The trace is still being read; fork it once it is read."));
      return FALSE;
    }
  return tb_fork_target_find (self->trace, self->reader, position, step, edit, heading, value,
                              error);
}

static void
on_fork_continue (TbTracePage *self)
{
  g_autofree char *text = tb_fork_editor_dup_text (self->fork_editor);
  g_autoptr(GError) error = NULL;

  if (!tb_fork_editor_get_has_target (self->fork_editor))
    return;
  if (!tb_trace_page_fork (self, tb_fork_editor_get_step (self->fork_editor),
                           tb_fork_editor_get_edit (self->fork_editor), text, &error))
    tb_fork_editor_show_error (self->fork_editor, error->message);
}

/* A report step fills an editor nobody has typed in, from the side of
 * the step that is the trace shown: the recorded run for a replay, the
 * fork's own run when the fork is shown. */
static void
fill_from_step (TbTracePage  *self,
                TbReplayStep *step,
                TbReplayEdit  edit)
{
  JsonObject *recorded = self->fork_trace != NULL && self->fork_trace == self->trace
                         ? tb_replay_step_get_replayed (step)
                         : tb_replay_step_get_recorded (step);
  JsonNode *value = NULL;
  g_autofree char *heading = NULL;
  guint index = tb_replay_step_get_index (step);
  const char *name;

  if (recorded == NULL || g_strcmp0 (tb_replay_step_get_kind (step), "end") == 0)
    return;
  name = tb_json_object_get_string (recorded, "name") ?: "?";
  if (edit == TB_REPLAY_EDIT_RESULT)
    {
      JsonObject *result = tb_json_object_get_object (recorded, "result");

      value = result != NULL ? json_object_get_member (result, "output") : NULL;
      heading = g_strdup_printf (_("Call %u, %s: the result it gives instead of running"),
                                 index + 1, name);
    }
  else
    {
      edit = TB_REPLAY_EDIT_ARGUMENTS;
      value = json_object_get_member (recorded, "arguments");
      heading = g_strdup_printf (_("Call %u, %s: the arguments it runs with"), index + 1, name);
    }
  tb_fork_editor_set_target (self->fork_editor, index, edit, heading, value);
}

/* A step of the report is the recorded run's call with the same number,
 * or its end: the timeline shows that row. */
static void
select_step_event (TbTracePage  *self,
                   TbReplayStep *step)
{
  gboolean end = g_strcmp0 (tb_replay_step_get_kind (step), "end") == 0;
  guint wanted = tb_replay_step_get_index (step);
  guint calls = 0;

  if (self->trace == NULL || tb_replay_step_get_recorded (step) == NULL)
    return;
  for (guint i = 0; i < tb_trace_get_n_events (self->trace); i++)
    {
      const char *type = tb_trace_event_get_event_type (tb_trace_get_event (self->trace, i));

      if ((end && g_str_equal (type, "end"))
          || (!end && g_str_equal (type, "tool-call") && calls++ == wanted))
        {
          tb_trace_page_select_event (self, i);
          return;
        }
    }
}

static void
on_step_selected (TbTracePage *self,
                  gint         position)
{
  TbReplayReport *report = tb_replay_report_view_get_report (self->report_view);
  TbReplayStep *step;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) clean = NULL;
  JsonObject *recorded, *replayed;
  JsonArray *diff;

  update_controls (self);
  if (position < 0 || report == NULL)
    return;
  step = tb_replay_report_get_step (report, position);
  select_step_event (self, step);
  recorded = tb_replay_step_get_recorded (step);
  replayed = tb_replay_step_get_replayed (step);
  diff = tb_replay_step_get_diff (step);

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder,
                                 tb_replay_status_to_string (tb_replay_step_get_status (step)));
  json_builder_set_member_name (builder, "diff");
  if (diff != NULL)
    json_builder_add_value (builder, json_node_init_array (json_node_alloc (), diff));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "recorded");
  if (recorded != NULL)
    json_builder_add_value (builder, json_node_init_object (json_node_alloc (), recorded));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "replayed");
  if (replayed != NULL)
    json_builder_add_value (builder, json_node_init_object (json_node_alloc (), replayed));
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  clean = tb_redactor_redact_node (self->redactor, node);
  set_detail_json (self, clean,
                   _("“Copy Event as JSON”, in the menu of the step's event, copies all "
                     "of it."));
  if (!tb_fork_editor_get_modified (self->fork_editor)
      && tb_fork_editor_get_edit (self->fork_editor) != TB_REPLAY_EDIT_MODEL_TURN)
    fill_from_step (self, step, tb_fork_editor_get_edit (self->fork_editor));
}

/* Files. */

static GtkFileFilter *
jsonl_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Traces (*.jsonl)"));
  gtk_file_filter_add_pattern (filter, "*.jsonl");
  return filter;
}

enum { SAVE_TRACE, SAVE_EXPORT, SAVE_FORK };

static void
save_response (GtkNativeDialog *dialog,
               int              response,
               TbTracePage     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      int mode = self->save_mode;
      gboolean ok;

      if (mode == SAVE_FORK)
        ok = tb_trace_page_save_fork_to (self, file, &error);
      else if (mode == SAVE_EXPORT)
        ok = tb_trace_page_export_to (self, file,
                                      export_formats[MIN (gtk_drop_down_get_selected (
                                                            self->export_format),
                                                          G_N_ELEMENTS (export_formats) - 1)],
                                      &error);
      else
        ok = tb_trace_page_save_to (self, file, &error);
      if (!ok)
        _tb_trace_page_set_status (self, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_save (TbTracePage *self,
             int          mode)
{
  GtkFileChooserNative *chooser;

  chooser = tb_file_chooser_new (GTK_WIDGET (self),
                                 mode == SAVE_EXPORT ? _("Export Messages")
                                 : mode == SAVE_FORK ? _("Save Fork")
                                 : _("Save Trace"),
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"));
  if (mode == SAVE_EXPORT)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "messages.json");
  else
    {
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), jsonl_filter ());
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                         mode == SAVE_FORK ? "fork.jsonl" : "run.jsonl");
    }
  self->save_mode = mode;
  g_signal_connect (chooser, "response", G_CALLBACK (save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_clicked (TbTracePage *self)
{
  choose_save (self, SAVE_TRACE);
}

static void
on_fork_save (TbTracePage *self)
{
  choose_save (self, SAVE_FORK);
}

static void
export_clicked (TbTracePage *self)
{
  choose_save (self, SAVE_EXPORT);
}

static void
open_response (GtkNativeDialog *dialog,
               int              response,
               TbTracePage     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      tb_trace_page_open_file (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_clicked (TbTracePage *self)
{
  GtkFileChooserNative *chooser;

  chooser = tb_file_chooser_new (GTK_WIDGET (self), _("Open Trace"),
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), jsonl_filter ());
  g_signal_connect (chooser, "response", G_CALLBACK (open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

typedef struct
{
  TbTrace  *trace;
  char    **problems;
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_clear_object (&loaded->trace);
  g_strfreev (loaded->problems);
  g_free (loaded);
}

static goffset
file_size (GFile *file)
{
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  return info != NULL ? g_file_info_get_size (info) : 0;
}

/* Reading runs in a thread: the trace is not shown to anyone until it is
 * handed back. A file too large to read whole (the one a replay or a fork
 * needs) is opened instead: its events are read from it as the replay
 * reaches them, so replaying it takes the same memory whatever its
 * length. */
static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  Loaded *loaded = g_new0 (Loaded, 1);
  GError *error = NULL;

  if (file_size (file) > TB_TRACE_PAGE_LOAD_LIMIT)
    loaded->trace = tb_trace_open (file, cancellable, &loaded->problems, &error);
  else
    loaded->trace = tb_trace_load (file, cancellable, &loaded->problems, &error);
  if (loaded->trace == NULL)
    {
      loaded_free (loaded);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, loaded, loaded_free);
}

static void
load_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  TbTracePage *self = TB_TRACE_PAGE (object);
  g_autoptr(GError) error = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &error);
  GFile *file = g_task_get_task_data (G_TASK (result));

  self->busy = FALSE;
  self->loading = FALSE;
  if (loaded == NULL)
    {
      self->fork_when_loaded.pending = FALSE;
      self->replay_when_loaded = FALSE;
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _tb_trace_page_set_status (self, error->message);
      update_controls (self);
      return;
    }
  {
    g_autofree char *name = g_file_get_basename (file);

    tb_trace_page_set_trace (self, loaded->trace, name);
    remember (self, file);
  }
  if (loaded->problems != NULL && loaded->problems[0] != NULL)
    {
      g_autofree char *joined = g_strjoinv ("\n", loaded->problems);
      g_autofree char *text = g_strdup_printf (_("Some of the file could not be read:\n%s"),
                                               joined);

      _tb_trace_page_set_status (self, text);
    }
  loaded_free (loaded);
  if (self->replay_when_loaded)
    {
      self->replay_when_loaded = FALSE;
      replay_clicked (self);
    }
  if (self->fork_when_loaded.pending)
    {
      g_autofree char *text = g_steal_pointer (&self->fork_when_loaded.text);
      g_autoptr(GError) fork_error = NULL;

      self->fork_when_loaded.pending = FALSE;
      _tb_trace_page_set_status (self, NULL);
      if (!tb_trace_page_fork (self, self->fork_when_loaded.step, self->fork_when_loaded.edit,
                               text, &fork_error))
        tb_fork_editor_show_error (self->fork_editor, fork_error->message);
    }
}

static void
load_whole (TbTracePage *self,
            GFile       *file)
{
  g_autoptr(GTask) task = NULL;

  self->busy = TRUE;
  self->loading = TRUE;
  task = g_task_new (self, self->cancellable, load_done, NULL);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
  update_controls (self);
}

/* A run that ended in a crash. */

static void
reopen_clicked (TbTracePage *self)
{
  if (self->recovered_file == NULL)
    return;
  gtk_widget_set_visible (self->recovered_bar, FALSE);
  tb_trace_page_open_file (self, self->recovered_file);
}

static void
discard_clicked (TbTracePage *self)
{
  g_autoptr(GError) error = NULL;

  gtk_widget_set_visible (self->recovered_bar, FALSE);
  if (self->recovered_file != NULL
      && !g_file_delete (self->recovered_file, NULL, &error)
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    _tb_trace_page_set_status (self, error->message);
  g_clear_object (&self->recovered_file);
}

/* Traces opened and saved go to the Recent menu. */
static void
remember (TbTracePage *self,
          GFile       *file)
{
  tb_recent_traces_remember (self->recent, file);
}

/* Problems indexing are reported by the whole read beside it. */
static void
index_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(TbTracePage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_trace_reader_index_finish (TB_TRACE_READER (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
    }
  /* Without a whole read beside it, the index is the end of the work. */
  if (self->file != NULL && self->trace == NULL && !self->loading)
    {
      g_auto(GStrv) problems = tb_trace_reader_get_problems (TB_TRACE_READER (object));

      self->busy = FALSE;
      if (error != NULL)
        _tb_trace_page_set_status (self, error->message);
      else if (problems != NULL && problems[0] != NULL)
        {
          g_autofree char *joined = g_strjoinv ("\n", problems);
          g_autofree char *text = g_strdup_printf (_("Some of the file could not be read:\n%s"),
                                                   joined);

          _tb_trace_page_set_status (self, text);
        }
      update_controls (self);
    }
}

/* Evaluations: the section does the work, the page shows its words and
 * opens the run a person picks. */

static void
on_eval_message (TbTracePage *self,
                 const char  *text)
{
  _tb_trace_page_set_status (self, text);
}

/**
 * tb_trace_page_open_eval_report_file:
 * @self: a Trace page
 * @file: a report written by `toolbench-cli eval --json-file`
 *
 * Shows its runs above the timeline (see tb_eval_section_open_report()).
 */
void
tb_trace_page_open_eval_report_file (TbTracePage *self,
                                     GFile       *file)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  tb_eval_section_open_report (self->eval_section, file);
}

/**
 * tb_trace_page_run_scenario_folder:
 * @self: a Trace page
 * @folder: a folder of scenario files (`*.json`)
 *
 * Runs them offline above the timeline (see tb_eval_section_run_folder()).
 */
void
tb_trace_page_run_scenario_folder (TbTracePage *self,
                                   GFile       *folder)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  tb_eval_section_run_folder (self->eval_section, folder);
}

static void
on_eval_cell_activated (TbTracePage *self,
                        TbEvalCell  *cell)
{
  TbEvalResult *result = tb_eval_cell_get_result (cell);
  const char *path = tb_eval_cell_get_trace_path (cell);

  if (self->busy)
    {
      _tb_trace_page_set_status (self, _("Wait until the trace is read or the replay ends, then open the run "
                          "again."));
      return;
    }
  if (result != NULL && result->trace != NULL)
    {
      /* Translators: a scenario, then the model it ran with */
      g_autofree char *title = g_strdup_printf (_("%s with %s"),
                                                tb_eval_cell_get_scenario (cell),
                                                tb_eval_cell_get_model (cell));

      tb_trace_page_set_trace (self, result->trace, title);
    }
  else if (path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);

      tb_trace_page_open_file (self, file);
    }
}

static void
open_eval_report_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  tb_eval_section_choose_report (TB_TRACE_PAGE (widget)->eval_section);
}

static void
run_scenario_folder_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  tb_eval_section_choose_folder (TB_TRACE_PAGE (widget)->eval_section);
}

/* Below this width the timeline goes above the details, at full width,
 * instead of beside them in a strip. */
#define NARROW_WIDTH 720
/* The timeline's height then, of a page that scrolls. */
#define NARROW_TIMELINE_HEIGHT 440

static gboolean
fit_layout (gpointer user_data)
{
  TbTracePage *self = user_data;
  gboolean narrow = gtk_widget_get_width (GTK_WIDGET (self)) < NARROW_WIDTH;
  GtkOrientation orientation = narrow ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL;

  self->layout_id = 0;
  if (gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) != orientation)
    {
      gtk_orientable_set_orientation (GTK_ORIENTABLE (self->paned), orientation);
      gtk_paned_set_position (self->paned, narrow ? NARROW_TIMELINE_HEIGHT : self->wide_position);
    }
  return G_SOURCE_REMOVE;
}

static GtkSizeRequestMode
tb_trace_page_get_request_mode (GtkWidget *widget)
{
  return gtk_widget_get_request_mode (TB_TRACE_PAGE (widget)->scroller);
}

static void
tb_trace_page_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  gtk_widget_measure (TB_TRACE_PAGE (widget)->scroller, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

/* The page is its scroller; the layout follows the width the page gets,
 * once it is laid out: not while it is being allocated. */
static void
tb_trace_page_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  TbTracePage *self = TB_TRACE_PAGE (widget);
  gboolean vertical = gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) ==
                      GTK_ORIENTATION_VERTICAL;

  gtk_widget_allocate (self->scroller, width, height, baseline, NULL);
  /* Where the person left the divider in a wide window, to go back to:
   * a narrow allocation has squeezed it already. */
  if (!vertical && width >= NARROW_WIDTH)
    self->wide_position = gtk_paned_get_position (self->paned);
  if (vertical != (width < NARROW_WIDTH) && self->layout_id == 0)
    self->layout_id = g_idle_add (fit_layout, self);
}

static void
tb_trace_page_dispose (GObject *object)
{
  TbTracePage *self = (TbTracePage *) object;

  g_clear_handle_id (&self->layout_id, g_source_remove);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  if (self->report_view != NULL)
    g_signal_handlers_disconnect_by_data (self->report_view, self);
  if (self->fork_editor != NULL)
    g_signal_handlers_disconnect_by_data (self->fork_editor, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_TRACE_PAGE);
  g_clear_object (&self->redactor);
  g_clear_object (&self->selection);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->fork_trace);
  g_clear_object (&self->trace);
  g_clear_object (&self->registry);
  g_clear_pointer (&self->title, g_free);
  g_clear_object (&self->recovered_file);
  g_clear_object (&self->file);
  g_clear_object (&self->reader);
  g_clear_pointer (&self->fork_when_loaded.text, g_free);
  g_clear_object (&self->forking);
  g_clear_pointer (&self->forking_title, g_free);
  g_clear_handle_id (&self->close_groups_id, g_source_remove);
  g_clear_pointer (&self->groups_to_close, g_ptr_array_unref);
  if (self->tree != NULL)
    g_signal_handlers_disconnect_by_func (self->tree, on_tree_changed, self);
  g_clear_object (&self->timeline);
  g_clear_object (&self->tree);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);

  G_OBJECT_CLASS (tb_trace_page_parent_class)->dispose (object);
}

static void
tb_trace_page_class_init (TbTracePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_trace_page_dispose;
  widget_class->get_request_mode = tb_trace_page_get_request_mode;
  widget_class->measure = tb_trace_page_measure;
  widget_class->size_allocate = tb_trace_page_size_allocate;
  g_type_ensure (TB_TYPE_TIMELINE_ROW);
  g_type_ensure (TB_TYPE_REPLAY_REPORT_VIEW);
  g_type_ensure (TB_TYPE_FORK_EDITOR);
  g_type_ensure (TB_TYPE_RECENT_TRACES);
  g_type_ensure (TB_TYPE_EVAL_SECTION);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-trace-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, scroller);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, paned);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, box);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, recovered_bar);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, reopen_button);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, discard_button);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, title_label);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, open_button);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, recent);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, save_button);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, replay_button);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, live_check);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, export_button);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, export_format);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, status_label);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, kind_filter);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, detail);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, detail_note);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, report_view);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, fork_editor);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, event_menu);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, eval_menu_button);
  gtk_widget_class_bind_template_child (widget_class, TbTracePage, eval_section);
  gtk_widget_class_bind_template_callback (widget_class, reopen_clicked);
  gtk_widget_class_bind_template_callback (widget_class, discard_clicked);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked);
  gtk_widget_class_bind_template_callback (widget_class, tb_trace_page_open_file);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, replay_clicked);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_step_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_fork_continue);
  gtk_widget_class_bind_template_callback (widget_class, on_fork_save);
  gtk_widget_class_bind_template_callback (widget_class, on_eval_cell_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_eval_message);

  _tb_trace_page_class_init_menu (widget_class);
  gtk_widget_class_install_action (widget_class, "trace.open-eval-report", NULL,
                                   open_eval_report_action);
  gtk_widget_class_install_action (widget_class, "trace.run-scenario-folder", NULL,
                                   run_scenario_folder_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "trace.open-eval-report", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e,
                                       GDK_CONTROL_MASK | GDK_ALT_MASK,
                                       "trace.run-scenario-folder", NULL);
}

static void
tb_trace_page_init (TbTracePage *self)
{
  static const char *kind_names[] = {
    N_("All events"), N_("Conversation"), N_("Calls"), N_("Decisions"), N_("Wire"),
    N_("Facts"), N_("Problems"), N_("Other"),
  };
  g_autoptr(GtkStringList) kinds = gtk_string_list_new (NULL);
  GtkListItemFactory *factory;

  self->redactor = tb_redactor_new ();
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->wide_position = gtk_paned_get_position (self->paned);
  tb_list_view_follow_search (self->timeline_view, GTK_WIDGET (self->search_entry));

  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    gtk_string_list_append (kinds, _(kind_names[i]));
  gtk_drop_down_set_model (self->kind_filter, G_LIST_MODEL (kinds));
  tb_source_view_setup (GTK_SOURCE_VIEW (self->detail), "json", FALSE);
  /* The toolbar's buttons take the focus, not the flow box's cells. */
  for (GtkWidget *child = gtk_widget_get_first_child (self->toolbar); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_focusable (child, FALSE);

  /* The timeline: the trace's events as a tree, filtered by kind and by
   * the text of its rows. */
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, GTK_FILTER (g_object_ref (self->filter)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filtered)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (on_event_selected), self);
  factory = gtk_builder_list_item_factory_new_from_resource (
              NULL, "/io/github/toolbench/Toolbench/tb-timeline-item.ui");
  gtk_list_view_set_factory (self->timeline_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->timeline_view, GTK_SELECTION_MODEL (self->selection));
  show_source (self, NULL);
  update_controls (self);
}

GtkWidget *
tb_trace_page_new (void)
{
  return g_object_new (TB_TYPE_TRACE_PAGE, NULL);
}

/**
 * tb_trace_page_set_registry:
 * @self: a Trace page
 * @registry: (nullable): the tools a live replay runs
 */
void
tb_trace_page_set_registry (TbTracePage    *self,
                            TbToolRegistry *registry)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  g_set_object (&self->registry, registry);
}

/**
 * tb_trace_page_set_trace:
 * @self: a Trace page
 * @trace: (nullable): the trace to show; it may still grow
 * @title: (nullable): what to call it
 */
void
tb_trace_page_set_trace (TbTracePage *self,
                         TbTrace     *trace,
                         const char  *title)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  g_return_if_fail (!trace || TB_IS_TRACE (trace));

  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  g_set_object (&self->trace, trace);
  if (trace != self->fork_trace)
    g_clear_object (&self->fork_trace);
  /* The editor's step and JSON belong to the trace it was filled from. */
  tb_fork_editor_clear (self->fork_editor);
  g_clear_object (&self->file);
  g_clear_object (&self->reader);
  g_free (self->title);
  self->title = g_strdup (title != NULL ? title : _("Trace"));
  gtk_label_set_label (self->title_label, trace != NULL ? self->title : _("No run yet"));
  show_source (self, G_OBJECT (trace));
  if (trace != NULL)
    g_signal_connect_swapped (trace, "items-changed", G_CALLBACK (on_trace_changed), self);
  clear_report (self);
  set_detail (self, NULL);
  _tb_trace_page_set_status (self, NULL);
  update_controls (self);
}

/**
 * tb_trace_page_set_redactor:
 * @self: a Trace page
 * @redactor: (nullable): what removes secrets from the details shown, a
 *   saved trace and exported messages: the redactor of the provider the
 *   run used, which knows its key; %NULL for one that only removes
 *   credential-shaped text
 */
void
tb_trace_page_set_redactor (TbTracePage *self,
                            TbRedactor  *redactor)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  g_return_if_fail (redactor == NULL || TB_IS_REDACTOR (redactor));

  g_clear_object (&self->redactor);
  self->redactor = redactor != NULL ? g_object_ref (redactor) : tb_redactor_new ();
}

TbTrace *
tb_trace_page_get_trace (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return self->trace;
}

const char *
tb_trace_page_get_title (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return gtk_label_get_label (self->title_label);
}

/**
 * tb_trace_page_save_to:
 * @self: a Trace page
 * @file: where to write the trace (JSON Lines)
 * @error: return location for an error
 *
 * Returns: whether the trace was written
 */
gboolean
tb_trace_page_save_to (TbTracePage  *self,
                       GFile        *file,
                       GError      **error)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->trace == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("There is no trace to save yet: run the loop first."));
      return FALSE;
    }
  if (!tb_trace_save (self->trace, file, self->redactor, error))
    return FALSE;
  remember (self, file);
  name = g_file_get_basename (file);
  {
    g_autofree char *text = g_strdup_printf (_("Saved as %s"), name);
    GtkWidget *window = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_APPLICATION_WINDOW);
    GtkWidget *overlay = window != NULL
                         ? adw_application_window_get_content (ADW_APPLICATION_WINDOW (window))
                         : NULL;

    if (overlay != NULL && ADW_IS_TOAST_OVERLAY (overlay))
      adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (text));
  }
  return TRUE;
}

/**
 * tb_trace_page_open_file:
 * @self: a Trace page
 * @file: a trace file
 *
 * Reads the file in a thread and shows it; lines that cannot be read are
 * listed on the page.
 */
void
tb_trace_page_open_file (TbTracePage *self,
                         GFile       *file)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TbTraceReader) reader = NULL;

  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  self->busy = TRUE;
  _tb_trace_page_set_status (self, NULL);

  /* The first events are shown at once, from the file's index as it
   * grows; the whole trace (for replays and saving) is read beside it and
   * replaces the view when it is complete. */
  reader = tb_trace_reader_open (file, NULL);
  if (reader != NULL)
    {
      g_autofree char *name = g_file_get_basename (file);

      if (self->trace != NULL)
        g_signal_handlers_disconnect_by_data (self->trace, self);
      g_clear_object (&self->trace);
      g_clear_object (&self->fork_trace);
      tb_fork_editor_clear (self->fork_editor);
      clear_report (self);
      set_detail (self, NULL);
      show_source (self, G_OBJECT (reader));
      g_set_object (&self->file, file);
      g_set_object (&self->reader, reader);
      gtk_label_set_label (self->title_label, name);
      g_free (self->title);
      self->title = g_steal_pointer (&name);
      tb_trace_reader_index_async (reader, self->cancellable, index_done, g_object_ref (self));
      /* A large file stays a view over its index; it is read whole only
       * to replay or save it. */
      if (file_size (file) > TB_TRACE_PAGE_LOAD_LIMIT)
        {
          update_controls (self);
          return;
        }
    }
  update_controls (self);
  load_whole (self, file);
}

/**
 * tb_trace_page_export_to:
 * @self: a Trace page
 * @file: where to write
 * @format: %TB_DEFINITION_FORMAT_OPENAI or %TB_DEFINITION_FORMAT_ANTHROPIC
 * @error: return location for an error
 *
 * Writes the conversation as the provider's messages JSON.
 *
 * Returns: whether it was written
 */
gboolean
tb_trace_page_export_to (TbTracePage         *self,
                         GFile               *file,
                         TbDefinitionFormat   format,
                         GError             **error)
{
  g_autoptr(JsonNode) messages = NULL;
  g_autoptr(JsonNode) clean = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);

  if (self->trace == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("There is no conversation to export yet: run the loop first."));
      return FALSE;
    }
  messages = tb_trace_export_messages (self->trace, format, error);
  if (messages == NULL)
    return FALSE;
  clean = tb_redactor_redact_node (self->redactor, messages);
  text = tb_json_to_string (clean, TRUE);
  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

gboolean
tb_trace_page_get_busy (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);
  return self->busy;
}

const char *
tb_trace_page_get_status_text (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return gtk_label_get_label (self->status_label);
}

guint
tb_trace_page_get_n_events (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), 0);
  return self->timeline != NULL ? tb_timeline_get_n_events (self->timeline) : 0;
}

/* The node of the event at @position, shown or not. */
static TbTimelineNode *
find_node (TbTracePage *self,
           gint         position)
{
  GListModel *rows = G_LIST_MODEL (self->tree);
  guint n = g_list_model_get_n_items (rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);
      g_autoptr(TbTimelineNode) node = _tb_trace_page_row_node (item);

      if (node != NULL && tb_timeline_node_get_position (node) == position)
        return g_steal_pointer (&node);
    }
  return NULL;
}

/**
 * tb_trace_page_get_event_row_text:
 * @self: a Trace page
 * @position: an event's position in the trace
 *
 * Returns: (transfer full) (nullable): what its timeline row says
 */
char *
tb_trace_page_get_event_row_text (TbTracePage *self,
                                  guint        position)
{
  g_autoptr(TbTimelineNode) node = NULL;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);

  node = find_node (self, position);
  return node != NULL ? tb_timeline_node_dup_text (node) : NULL;
}

/**
 * tb_trace_page_get_n_rows:
 * @self: a Trace page
 *
 * Returns: how many rows the timeline lists (headings included)
 */
guint
tb_trace_page_get_n_rows (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->selection));
}

/**
 * tb_trace_page_get_row:
 * @self: a Trace page
 * @row: a row of the timeline as listed
 * @depth: (out) (optional): how deep in the tree it is
 * @event: (out) (optional): its event's position in the trace, -1 for a heading
 *
 * Returns: (transfer full) (nullable): what the row says
 */
char *
tb_trace_page_get_row (TbTracePage *self,
                       guint        row,
                       guint       *depth,
                       gint        *event)
{
  g_autoptr(GObject) item = NULL;
  g_autoptr(TbTimelineNode) node = NULL;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->selection), row);
  node = _tb_trace_page_row_node (item);
  if (node == NULL)
    return NULL;
  if (depth != NULL)
    *depth = GTK_IS_TREE_LIST_ROW (item) ? gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (item))
                                         : 0;
  if (event != NULL)
    *event = tb_timeline_node_get_position (node);
  return tb_timeline_node_dup_text (node);
}

/**
 * tb_trace_page_get_selected_event:
 * @self: a Trace page
 *
 * Returns: the position in the trace of the selected row's event, or -1
 */
gint
tb_trace_page_get_selected_event (TbTracePage *self)
{
  g_autoptr(TbTimelineNode) node = NULL;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), -1);

  node = _tb_trace_page_row_node (gtk_single_selection_get_selected_item (self->selection));
  return node != NULL ? tb_timeline_node_get_position (node) : -1;
}

/**
 * tb_trace_page_set_filter:
 * @self: a Trace page
 * @kind: the kind of event to list, or -1 for all
 * @search: (nullable): text the rows must contain
 */
void
tb_trace_page_set_filter (TbTracePage *self,
                          int          kind,
                          const char  *search)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));

  gtk_drop_down_set_selected (self->kind_filter, kind < 0 ? 0 : kind + 1);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), search != NULL ? search : "");
  /* The entry waits before it says the search changed; a caller wants it now. */
  on_filter_changed (self);
}

/**
 * tb_trace_page_select_event:
 * @self: a Trace page
 * @position: an event's position in the trace
 *
 * Selects its row, if it is listed, and scrolls to it.
 */
void
tb_trace_page_select_event (TbTracePage *self,
                            guint        position)
{
  guint row;

  g_return_if_fail (TB_IS_TRACE_PAGE (self));

  row = _tb_trace_page_find_row (self, position);
  gtk_single_selection_set_selected (self->selection, row);
  if (row != GTK_INVALID_LIST_POSITION)
    scroll_to_row (self, row);
}

/**
 * tb_trace_page_get_detail_text:
 * @self: a Trace page
 *
 * Returns: (transfer full): the JSON the details view shows
 */
char *
tb_trace_page_get_detail_text (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return buffer_text (self->detail);
}

void
tb_trace_page_set_live (TbTracePage *self,
                        gboolean     live)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  gtk_check_button_set_active (self->live_check, live);
}

/**
 * tb_trace_page_get_button:
 * @self: a Trace page
 * @name: "open", "save", "replay", "fork" (the fork editor's Continue),
 *   "save-fork", "export", "reopen", "discard", "evaluation" (the menu),
 *   "cancel-evaluation" or "close-evaluation"
 *
 * Returns: (transfer none) (nullable): the button
 */
GtkWidget *
tb_trace_page_get_button (TbTracePage *self,
                          const char  *name)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);

  if (g_str_equal (name, "open"))
    return self->open_button;
  if (g_str_equal (name, "save"))
    return self->save_button;
  if (g_str_equal (name, "replay"))
    return self->replay_button;
  if (g_str_equal (name, "fork"))
    return tb_fork_editor_get_button (self->fork_editor, "continue");
  if (g_str_equal (name, "save-fork"))
    return tb_fork_editor_get_button (self->fork_editor, "save");
  if (g_str_equal (name, "export"))
    return self->export_button;
  if (g_str_equal (name, "reopen"))
    return self->reopen_button;
  if (g_str_equal (name, "discard"))
    return self->discard_button;
  if (g_str_equal (name, "evaluation"))
    return self->eval_menu_button;
  if (g_str_equal (name, "cancel-evaluation"))
    return tb_eval_section_get_cancel_button (self->eval_section);
  if (g_str_equal (name, "close-evaluation"))
    return tb_eval_section_get_close_button (self->eval_section);
  return NULL;
}

/**
 * tb_trace_page_get_report:
 * @self: a Trace page
 *
 * Returns: (transfer none) (nullable): the last replay's report
 */
TbReplayReport *
tb_trace_page_get_report (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return tb_replay_report_view_get_report (self->report_view);
}

guint
tb_trace_page_get_n_report_rows (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), 0);
  return tb_replay_report_view_get_n_rows (self->report_view);
}

/**
 * tb_trace_page_get_report_row_text:
 * @self: a Trace page
 * @position: a step of the report
 *
 * Returns: (transfer full) (nullable): what the row says
 */
char *
tb_trace_page_get_report_row_text (TbTracePage *self,
                                   guint        position)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return tb_replay_report_view_dup_row_text (self->report_view, position);
}

gboolean
tb_trace_page_get_report_row_highlighted (TbTracePage *self,
                                          guint        position)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);
  return tb_replay_report_view_get_row_highlighted (self->report_view, position);
}

void
tb_trace_page_select_step (TbTracePage *self,
                           guint        position)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  tb_replay_report_view_select_step (self->report_view, position);
}

/**
 * tb_trace_page_fork:
 * @self: a Trace page
 * @step: the step to change (a call's index, or a model turn's)
 * @edit: what to change
 * @json_text: the new arguments, result output or model turn, as JSON
 * @error: return location for an error
 *
 * Starts a replay that changes @step and goes on from there; its report
 * replaces the shown one when it is done.
 *
 * Returns: whether the fork could start
 */
gboolean
tb_trace_page_fork (TbTracePage   *self,
                    guint          step,
                    TbReplayEdit   edit,
                    const char    *json_text,
                    GError       **error)
{
  g_autoptr(JsonNode) value = NULL;
  g_autoptr(TbReplay) replay = NULL;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);

  if ((self->trace == NULL && self->file == NULL) || self->busy)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("There is no trace to fork, or a replay is running."));
      return FALSE;
    }
  value = tb_json_parse (json_text, -1, error);
  if (value == NULL)
    return FALSE;
  /* A large file is read whole to run the fork, as it is to replay it. */
  if (self->trace == NULL)
    {
      g_autoptr(GFile) file = g_object_ref (self->file);

      self->fork_when_loaded.pending = TRUE;
      self->fork_when_loaded.step = step;
      self->fork_when_loaded.edit = edit;
      g_free (self->fork_when_loaded.text);
      self->fork_when_loaded.text = g_strdup (json_text);
      _tb_trace_page_set_status (self, _("Reading the whole trace to run the fork…"));
      load_whole (self, file);
      return TRUE;
    }
  replay = new_replay (self);
  if (self->title != NULL)
    tb_replay_set_parent (replay, self->title);
  if (!tb_replay_set_fork (replay, step, edit, value, error))
    return FALSE;
  g_set_object (&self->forking, replay);
  g_free (self->forking_title);
  self->forking_title = edit == TB_REPLAY_EDIT_MODEL_TURN
                        /* Translators: the trace's name, then a model turn's number */
                        ? g_strdup_printf (_("Fork of %s at model turn %u"),
                                           self->title != NULL ? self->title : "?", step + 1)
                        /* Translators: the trace's name, then a call's number */
                        : g_strdup_printf (_("Fork of %s at call %u"),
                                           self->title != NULL ? self->title : "?", step + 1);
  if (tb_fork_editor_get_live (self->fork_editor))
    {
      g_autoptr(TbProvider) provider = NULL;

      if (self->provider_func == NULL)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("There is no Loop page to take the provider from."));
          return FALSE;
        }
      provider = self->provider_func (self->provider_data, error);
      if (provider == NULL)
        return FALSE;
      tb_replay_set_live_provider (replay, provider);
    }
  start_replay (self, replay);
  return TRUE;
}

/**
 * tb_trace_page_offer_recovered:
 * @self: a Trace page
 * @file: the autosaved trace of a run that ended in a crash
 *
 * Shows a bar offering to reopen (or discard) the trace.
 */
void
tb_trace_page_offer_recovered (TbTracePage *self,
                               GFile       *file)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  g_set_object (&self->recovered_file, file);
  gtk_widget_set_visible (self->recovered_bar, TRUE);
}

gboolean
tb_trace_page_get_offering_recovered (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);
  return gtk_widget_get_visible (self->recovered_bar);
}

/**
 * tb_trace_page_set_fork_kind:
 * @self: a Trace page
 * @edit: what the fork editor changes
 * @turn: for %TB_REPLAY_EDIT_MODEL_TURN, the model turn's number (from 1)
 *
 * Fills the fork editor with the recorded value: the model turn @turn, or
 * the arguments or result of the report's selected step.
 */
void
tb_trace_page_set_fork_kind (TbTracePage  *self,
                             TbReplayEdit  edit,
                             guint         turn)
{
  TbReplayReport *report;
  gint selected;

  g_return_if_fail (TB_IS_TRACE_PAGE (self));

  if (edit == TB_REPLAY_EDIT_MODEL_TURN)
    {
      guint seen = 0;

      for (guint i = 0; self->trace != NULL && i < tb_trace_get_n_events (self->trace); i++)
        {
          TbTraceEvent *event = tb_trace_get_event (self->trace, i);

          if (g_str_equal (tb_trace_event_get_event_type (event), "message")
              && g_strcmp0 (tb_json_object_get_string (tb_trace_event_get_payload (event),
                                                       "origin"), "model") == 0
              && ++seen == MAX (turn, 1))
            {
              tb_trace_page_fork_from_event (self, i, NULL);
              return;
            }
        }
      return;
    }
  report = tb_replay_report_view_get_report (self->report_view);
  selected = tb_replay_report_view_get_selected_step (self->report_view);
  if (report != NULL && selected >= 0)
    fill_from_step (self, tb_replay_report_get_step (report, selected), edit);
}

/**
 * tb_trace_page_get_fork_buffer:
 * @self: a Trace page
 *
 * Returns: (transfer none): the JSON the fork editor holds
 */
GtkTextBuffer *
tb_trace_page_get_fork_buffer (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return tb_fork_editor_get_buffer (self->fork_editor);
}

/**
 * tb_trace_page_get_fork_editor:
 * @self: a Trace page
 *
 * Returns: (transfer none): the fork editor
 */
TbForkEditor *
tb_trace_page_get_fork_editor (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return self->fork_editor;
}

/**
 * tb_trace_page_get_report_view:
 * @self: a Trace page
 *
 * Returns: (transfer none): the replay report's view
 */
TbReplayReportView *
tb_trace_page_get_report_view (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return self->report_view;
}

/**
 * tb_trace_page_fork_from_event:
 * @self: a Trace page
 * @position: a call's, a result's or a model message's event in the trace
 * @error: return location for why that event cannot be forked
 *
 * What Fork from Here on a timeline row does: fills the fork editor with
 * the event's recorded arguments, result or model turn.
 *
 * Returns: whether the editor was filled
 */
gboolean
tb_trace_page_fork_from_event (TbTracePage  *self,
                               guint         position,
                               GError      **error)
{
  g_autofree char *heading = NULL;
  g_autoptr(JsonNode) value = NULL;
  TbReplayEdit edit;
  guint step;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);

  if (!_tb_trace_page_fork_target (self, position, &step, &edit, &heading, &value, error))
    return FALSE;
  _tb_trace_page_set_status (self, NULL);
  tb_fork_editor_set_target (self->fork_editor, step, edit, heading, value);
  gtk_widget_grab_focus (GTK_WIDGET (self->fork_editor));
  return TRUE;
}

/**
 * tb_trace_page_save_fork_to:
 * @self: a Trace page
 * @file: where to write the fork's trace
 * @error: return location for an error
 *
 * Saves the fork shown; its header names the parent trace, step and edit.
 *
 * Returns: whether it was written
 */
gboolean
tb_trace_page_save_fork_to (TbTracePage  *self,
                            GFile        *file,
                            GError      **error)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->fork_trace == NULL || self->fork_trace != self->trace)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("There is no fork to save: fork the trace first."));
      return FALSE;
    }
  if (!tb_trace_page_save_to (self, file, error))
    return FALSE;
  /* Saved, the fork is known by its file, as a fork of it will name it. */
  g_free (self->title);
  self->title = g_file_get_basename (file);
  gtk_label_set_label (self->title_label, self->title);
  return TRUE;
}

/**
 * tb_trace_page_set_remember_recent:
 * @self: a Trace page
 * @remember: whether traces opened and saved go to the desktop's list of
 *   recently used files (the Recent menu lists the `.jsonl` ones)
 */
void
tb_trace_page_set_remember_recent (TbTracePage *self,
                                   gboolean     remember)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  tb_recent_traces_set_active (self->recent, remember);
}

/**
 * tb_trace_page_get_n_recent:
 * @self: a Trace page
 *
 * Fills the Recent menu as when it opens.
 *
 * Returns: how many traces it lists
 */
guint
tb_trace_page_get_n_recent (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), 0);
  return tb_recent_traces_refresh (self->recent);
}

/**
 * tb_trace_page_set_provider_func:
 * @self: a Trace page
 * @func: (nullable): makes the provider a fork continues with, live
 * @user_data: data for @func, not owned; it must outlive the page
 *
 * Offers forks that continue with a live model (the Loop page's selection)
 * beside the recorded turns.
 */
void
tb_trace_page_set_provider_func (TbTracePage             *self,
                                 TbTracePageProviderFunc  func,
                                 gpointer                 user_data)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));

  self->provider_func = func;
  self->provider_data = user_data;
}

/**
 * tb_trace_page_set_fork_live:
 * @self: a Trace page
 * @live: whether a fork continues with the live provider
 */
void
tb_trace_page_set_fork_live (TbTracePage *self,
                             gboolean     live)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));

  tb_fork_editor_set_live (self->fork_editor, live);
}

/**
 * tb_trace_page_get_eval_view:
 * @self: a Trace page
 *
 * Returns: (transfer none): the evaluation's view
 */
TbEvalView *
tb_trace_page_get_eval_view (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return tb_eval_section_get_view (self->eval_section);
}

/**
 * tb_trace_page_get_eval_busy:
 * @self: a Trace page
 *
 * Returns: whether a report is being read or scenarios are running
 */
gboolean
tb_trace_page_get_eval_busy (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);
  return tb_eval_section_get_busy (self->eval_section);
}

/**
 * tb_trace_page_get_eval_title:
 * @self: a Trace page
 *
 * Returns: (nullable): the name of the evaluation shown (its report's or
 *   its folder's), or %NULL when none is
 */
const char *
tb_trace_page_get_eval_title (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);

  return tb_eval_section_get_title (self->eval_section);
}
