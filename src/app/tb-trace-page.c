/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-trace-page.h"

/* The Trace page: the events of the current run (or of a trace file) as a
 * timeline, the JSON of the selected event, and replays of the trace —
 * with the recorded results or the live tools, whole or forked at a step —
 * whose report is shown step by step with the first divergence marked and
 * its JSON diff shown. */

/* A file's events as the reader indexes them: the timeline shows the
 * first ones at once while the rest of a large trace is read. */
#define TB_TYPE_READER_MODEL (tb_reader_model_get_type ())
G_DECLARE_FINAL_TYPE (TbReaderModel, tb_reader_model, TB, READER_MODEL, GObject)

struct _TbReaderModel
{
  GObject        parent_instance;
  TbTraceReader *reader;
  guint          n_items;
};

static GType
tb_reader_model_get_item_type (GListModel *model)
{
  return TB_TYPE_TRACE_EVENT;
}

static guint
tb_reader_model_get_n_items (GListModel *model)
{
  return TB_READER_MODEL (model)->n_items;
}

static gpointer
tb_reader_model_get_item (GListModel *model,
                          guint       position)
{
  TbReaderModel *self = TB_READER_MODEL (model);
  g_autoptr(JsonObject) line = NULL;
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(GList) members = NULL;
  gint64 seq = position + 1;
  gint64 t = 0;
  const char *type;

  if (position >= self->n_items)
    return NULL;
  line = tb_trace_reader_read_event (self->reader, position, NULL);
  if (line == NULL)
    return tb_trace_event_new (position, 0, "unreadable", NULL);
  members = json_object_get_members (line);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_str_equal (l->data, "seq") && !g_str_equal (l->data, "t")
        && !g_str_equal (l->data, "type"))
      json_object_set_member (payload, l->data,
                              tb_json_copy (json_object_get_member (line, l->data)));
  /* Out of range or of another type, a number shows as its position. */
  tb_json_object_get_int_in_range (line, "seq", 1, G_MAXINT64, &seq, NULL);
  tb_json_object_get_int_in_range (line, "t", G_MININT64, G_MAXINT64, &t, NULL);
  type = tb_json_object_get_string (line, "type");
  return tb_trace_event_new (seq, t, type != NULL ? type : "?", payload);
}

static void
tb_reader_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = tb_reader_model_get_item_type;
  iface->get_n_items = tb_reader_model_get_n_items;
  iface->get_item = tb_reader_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TbReaderModel, tb_reader_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      tb_reader_model_list_model_init))

static void
tb_reader_model_on_n_events (TbReaderModel *self)
{
  guint n = tb_trace_reader_get_n_events (self->reader);
  guint old = self->n_items;

  if (n <= old)
    return;
  self->n_items = n;
  g_list_model_items_changed (G_LIST_MODEL (self), old, 0, n - old);
}

static void
tb_reader_model_dispose (GObject *object)
{
  TbReaderModel *self = TB_READER_MODEL (object);

  if (self->reader != NULL)
    g_signal_handlers_disconnect_by_data (self->reader, self);
  g_clear_object (&self->reader);
  G_OBJECT_CLASS (tb_reader_model_parent_class)->dispose (object);
}

static void
tb_reader_model_class_init (TbReaderModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tb_reader_model_dispose;
}

static void
tb_reader_model_init (TbReaderModel *self)
{
}

static TbReaderModel *
tb_reader_model_new (TbTraceReader *reader)
{
  TbReaderModel *self = g_object_new (TB_TYPE_READER_MODEL, NULL);

  self->reader = g_object_ref (reader);
  g_signal_connect_swapped (reader, "notify::n-events",
                            G_CALLBACK (tb_reader_model_on_n_events), self);
  tb_reader_model_on_n_events (self);
  return self;
}

struct _TbTracePage
{
  GtkWidget           parent_instance;

  GtkWidget          *scroller;
  GtkWidget          *box;
  GtkLabel           *title_label;
  GtkLabel           *status_label;
  GtkWidget          *open_button;
  GtkWidget          *save_button;
  GtkWidget          *replay_button;
  GtkWidget          *fork_button;
  GtkWidget          *export_button;
  GtkDropDown        *export_format;
  GtkCheckButton     *live_check;
  GtkListView        *timeline;
  GtkSingleSelection *selection;
  GtkTextView        *detail;
  GtkListBox         *report_list;
  GtkDropDown        *fork_kind;
  GtkDropDown        *fork_model;
  TbTracePageProviderFunc provider_func;
  gpointer            provider_data;
  GtkSpinButton      *turn_spin;
  GtkTextView        *fork_text;
  GtkLabel           *report_label;
  GtkWidget          *recovered_bar;
  GtkWidget          *reopen_button;
  GtkWidget          *discard_button;
  GFile              *recovered_file;
  TbReaderModel      *reader_model;
  GtkWidget          *recent_button;
  GtkListBox         *recent_list;
  gboolean            remember_recent;

  TbToolRegistry     *registry;
  TbTrace            *trace;
  char               *title;
  TbReplayReport     *report;
  GCancellable       *cancellable;
  gboolean            busy;
};

G_DEFINE_FINAL_TYPE (TbTracePage, tb_trace_page, GTK_TYPE_WIDGET)

static void remember (TbTracePage *self,
                      GFile       *file);

static void
set_status (TbTracePage *self,
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
}

static void
update_controls (TbTracePage *self)
{
  gboolean has_trace = self->trace != NULL && tb_trace_get_n_events (self->trace) > 0;

  gtk_widget_set_sensitive (self->open_button, !self->busy);
  gtk_widget_set_sensitive (self->save_button, !self->busy && has_trace);
  gtk_widget_set_sensitive (self->replay_button, !self->busy && has_trace);
  gtk_widget_set_sensitive (self->export_button, !self->busy && has_trace);
  gtk_widget_set_sensitive (self->fork_button, !self->busy && has_trace
                            && (gtk_list_box_get_selected_row (self->report_list) != NULL
                                || gtk_drop_down_get_selected (self->fork_kind) == 2));
}

/* The timeline. */

static const char *
event_icon (const char *type)
{
  static const struct { const char *type; const char *icon; } icons[] = {
    { "message", "mail-unread-symbolic" },
    { "request", "go-up-symbolic" },
    { "response", "go-down-symbolic" },
    { "model-turn", "user-available-symbolic" },
    { "tool-call", "applications-engineering-symbolic" },
    { "tool-result", "object-select-symbolic" },
    { "decision", "emblem-ok-symbolic" },
    { "warning", "dialog-warning-symbolic" },
    { "error", "dialog-error-symbolic" },
    { "end", "media-playback-stop-symbolic" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (icons); i++)
    if (g_str_equal (icons[i].type, type))
      return icons[i].icon;
  return "text-x-generic-symbolic";
}

/* The time since the trace began, and for a tool result how long the
 * call took. */
static char *
event_offset_text (TbTracePage *self,
                   guint        position)
{
  GListModel *events = G_LIST_MODEL (self->selection);
  g_autoptr(TbTraceEvent) first = g_list_model_get_item (events, 0);
  g_autoptr(TbTraceEvent) event = g_list_model_get_item (events, position);
  gint64 offset;
  JsonObject *result;
  gint64 duration_us = 0;

  if (event == NULL || first == NULL)
    return g_strdup ("");
  offset = tb_trace_event_get_time_us (event) - tb_trace_event_get_time_us (first);
  result = tb_json_object_get_object (tb_trace_event_get_payload (event), "result");

  if (result != NULL && json_object_has_member (result, "duration_us") &&
      tb_json_object_get_int_in_range (result, "duration_us", 0, G_MAXINT64, &duration_us, NULL))
    {
      g_autofree char *duration = tb_format_duration (duration_us);

      return g_strdup_printf (_("+%.3f s, took %s"), offset / 1e6, duration);
    }
  return g_strdup_printf ("+%.3f s", offset / 1e6);
}

static void
setup_event (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             TbTracePage              *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *type = gtk_label_new (NULL);
  GtkWidget *time = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (type), 0);
  gtk_label_set_xalign (GTK_LABEL (time), 0);
  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "caption");
  gtk_box_append (GTK_BOX (box), gtk_image_new ());
  gtk_box_append (GTK_BOX (labels), type);
  gtk_box_append (GTK_BOX (labels), time);
  gtk_box_append (GTK_BOX (box), labels);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_list_item_set_child (item, box);
}

static void
bind_event (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            TbTracePage              *self)
{
  TbTraceEvent *event = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *image = gtk_widget_get_first_child (box);
  GtkWidget *labels = gtk_widget_get_next_sibling (image);
  GtkWidget *type = gtk_widget_get_first_child (labels);
  GtkWidget *time = gtk_widget_get_next_sibling (type);
  const char *event_type = tb_trace_event_get_event_type (event);
  g_autofree char *offset = event_offset_text (self, gtk_list_item_get_position (item));

  gtk_image_set_from_icon_name (GTK_IMAGE (image), event_icon (event_type));
  gtk_label_set_label (GTK_LABEL (type), event_type);
  gtk_label_set_label (GTK_LABEL (time), offset);
}

static void
on_event_selected (TbTracePage *self)
{
  TbTraceEvent *event = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  if (event == NULL)
    return;
  node = tb_trace_event_to_json (event);
  text = tb_json_to_string (node, TRUE);
  set_detail (self, text);
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
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->report_list))) != NULL)
    gtk_list_box_remove (self->report_list, child);
  g_clear_object (&self->report);
  gtk_label_set_label (self->report_label, "");
}

static char *
step_text (TbReplayStep *step,
           gboolean      first)
{
  g_autofree char *described = tb_replay_step_describe (step);

  if (first)
    return g_strdup_printf (_("Step %u — first divergence: %s"),
                            tb_replay_step_get_index (step) + 1, described);
  return g_strdup_printf (_("Step %u: %s"), tb_replay_step_get_index (step) + 1, described);
}

static void
render_report (TbTracePage    *self,
               TbReplayReport *report)
{
  gint first = tb_replay_report_get_first_divergence (report);
  guint n = tb_replay_report_get_n_divergences (report);
  g_autofree char *summary = NULL;

  clear_report (self);
  self->report = g_object_ref (report);
  for (guint i = 0; i < tb_replay_report_get_n_steps (report); i++)
    {
      TbReplayStep *step = tb_replay_report_get_step (report, i);
      g_autofree char *text = step_text (step, (gint) i == first);
      GtkWidget *label = gtk_label_new (text);
      GtkWidget *row = gtk_list_box_row_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_set_margin_start (label, 10);
      gtk_widget_set_margin_end (label, 10);
      gtk_widget_set_margin_top (label, 6);
      gtk_widget_set_margin_bottom (label, 6);
      if (tb_replay_step_get_status (step) != TB_REPLAY_SAME)
        gtk_widget_add_css_class (label, "warning");
      if ((gint) i == first)
        {
          gtk_widget_add_css_class (row, "tb-divergence");
          gtk_widget_add_css_class (label, "error");
        }
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data_full (G_OBJECT (row), "tb-text", g_steal_pointer (&text), g_free);
      g_object_set_data (G_OBJECT (row), "tb-first", GINT_TO_POINTER ((gint) i == first));
      gtk_list_box_append (self->report_list, row);
    }

  if (first < 0)
    summary = g_strdup (_("No divergence: the replay did what the recorded run did."));
  else
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u divergence; the first at step %d.",
                                            "%u divergences; the first at step %d.", n),
                               n, first + 1);
  gtk_label_set_label (self->report_label, summary);
  if (first >= 0)
    tb_trace_page_select_step (self, first);
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
        set_status (self, error->message);
    }
  else
    {
      set_status (self, NULL);
      render_report (self, report);
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
  set_status (self, NULL);
  tb_replay_run_async (replay, self->cancellable, replay_done, g_object_ref (self));
  update_controls (self);
}

static void
replay_clicked (TbTracePage *self)
{
  g_autoptr(TbReplay) replay = NULL;

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

static void
fork_clicked (TbTracePage *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->report_list);
  static const TbReplayEdit edits[] = {
    TB_REPLAY_EDIT_ARGUMENTS, TB_REPLAY_EDIT_RESULT, TB_REPLAY_EDIT_MODEL_TURN,
  };
  guint kind = gtk_drop_down_get_selected (self->fork_kind);
  g_autofree char *text = buffer_text (self->fork_text);
  g_autoptr(GError) error = NULL;

  guint step;

  if (kind >= G_N_ELEMENTS (edits))
    return;
  /* Report rows are calls; a model turn is picked by its number. */
  if (edits[kind] == TB_REPLAY_EDIT_MODEL_TURN)
    step = gtk_spin_button_get_value_as_int (self->turn_spin) - 1;
  else if (row != NULL)
    step = gtk_list_box_row_get_index (row);
  else
    return;
  if (!tb_trace_page_fork (self, step, edits[kind], text, &error))
    set_status (self, error->message);
}

/* The recorded model turn with this index, as the fork editor starts
 * from it. */
static void
fill_model_turn (TbTracePage *self)
{
  guint wanted = gtk_spin_button_get_value_as_int (self->turn_spin) - 1;
  guint seen = 0;

  if (self->trace == NULL)
    return;
  for (guint i = 0; i < tb_trace_get_n_events (self->trace); i++)
    {
      TbTraceEvent *event = tb_trace_get_event (self->trace, i);
      JsonObject *payload = tb_trace_event_get_payload (event);

      if (g_str_equal (tb_trace_event_get_event_type (event), "message")
          && g_strcmp0 (tb_json_object_get_string (payload, "origin"), "model") == 0
          && seen++ == wanted)
        {
          g_autofree char *text = tb_json_to_string (json_object_get_member (payload,
                                                                             "message"), TRUE);

          gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->fork_text), text, -1);
          return;
        }
    }
}

static void
on_fork_kind_changed (TbTracePage *self)
{
  gboolean turn = gtk_drop_down_get_selected (self->fork_kind) == 2;

  gtk_widget_set_visible (GTK_WIDGET (self->turn_spin), turn);
  if (gtk_widget_get_parent (GTK_WIDGET (self->turn_spin)) != NULL)
    gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->turn_spin)), turn);
  if (turn)
    fill_model_turn (self);
  update_controls (self);
}

/* The recorded side of a step, as the fork editor starts from it. */
static void
fill_fork_text (TbTracePage  *self,
                TbReplayStep *step)
{
  JsonObject *recorded = tb_replay_step_get_recorded (step);
  JsonNode *value = NULL;
  g_autofree char *text = NULL;

  if (recorded == NULL)
    return;
  switch (gtk_drop_down_get_selected (self->fork_kind))
    {
    case 0:
      value = json_object_get_member (recorded, "arguments");
      break;
    case 1:
      {
        JsonObject *result = tb_json_object_get_object (recorded, "result");

        value = result != NULL ? json_object_get_member (result, "output") : NULL;
      }
      break;
    default:
      break;
    }
  if (value == NULL)
    return;
  text = tb_json_to_string (value, TRUE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->fork_text), text, -1);
}

static void
on_step_selected (TbTracePage *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->report_list);
  TbReplayStep *step;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  JsonObject *recorded, *replayed;
  JsonArray *diff;

  update_controls (self);
  if (row == NULL || self->report == NULL)
    return;
  step = tb_replay_report_get_step (self->report, gtk_list_box_row_get_index (row));
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
  text = tb_json_to_string (node, TRUE);
  set_detail (self, text);
  fill_fork_text (self, step);
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

static void
save_response (GtkNativeDialog *dialog,
               int              response,
               TbTracePage     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      gboolean export = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "tb-export"));
      gboolean ok;

      if (export)
        ok = tb_trace_page_export_to (self, file,
                                      gtk_drop_down_get_selected (self->export_format) == 0
                                      ? TB_DEFINITION_FORMAT_OPENAI
                                      : TB_DEFINITION_FORMAT_ANTHROPIC, &error);
      else
        ok = tb_trace_page_save_to (self, file, &error);
      if (!ok)
        set_status (self, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_save (TbTracePage *self,
             gboolean     export)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (export ? _("Export Messages") : _("Save Trace"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  if (export)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "messages.json");
  else
    {
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), jsonl_filter ());
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "run.jsonl");
    }
  g_object_set_data (G_OBJECT (chooser), "tb-export", GINT_TO_POINTER (export));
  g_signal_connect (chooser, "response", G_CALLBACK (save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_clicked (TbTracePage *self)
{
  choose_save (self, FALSE);
}

static void
export_clicked (TbTracePage *self)
{
  choose_save (self, TRUE);
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
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Open Trace"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
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

/* Reading runs in a thread: the trace is not shown to anyone until it is
 * handed back. */
static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  Loaded *loaded = g_new0 (Loaded, 1);
  GError *error = NULL;

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
  if (loaded == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_status (self, error->message);
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

      set_status (self, text);
    }
  loaded_free (loaded);
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
    set_status (self, error->message);
  g_clear_object (&self->recovered_file);
  g_clear_object (&self->reader_model);
}

/* Recent traces, from the desktop's list of recently used files. */
#define MAX_RECENT 8

static void
remember (TbTracePage *self,
          GFile       *file)
{
  g_autofree char *uri = NULL;

  if (!self->remember_recent)
    return;
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static void
on_recent_activated (GtkListBox    *list,
                     GtkListBoxRow *row,
                     TbTracePage   *self)
{
  const char *uri = g_object_get_data (G_OBJECT (row), "tb-uri");
  g_autoptr(GFile) file = g_file_new_for_uri (uri);

  gtk_menu_button_popdown (GTK_MENU_BUTTON (self->recent_button));
  tb_trace_page_open_file (self, file);
}

static void
fill_recent (TbTracePage *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  GtkWidget *child;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);
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
      g_object_set_data_full (G_OBJECT (row), "tb-uri", g_strdup (uri), g_free);
      gtk_list_box_append (self->recent_list, row);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* Problems indexing are reported by the whole read beside it. */
static void
index_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  tb_trace_reader_index_finish (TB_TRACE_READER (object), result, NULL);
}

/* Building the page. */

static GtkWidget *
titled (const char *title,
        GtkWidget  *child)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), child);
  return box;
}

static GtkWidget *
scrolled (GtkWidget *child,
          int        min_height)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), child);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), min_height);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_add_css_class (scroller, "card");
  return scroller;
}

static GtkTextView *
code_view (gboolean editable,
           const char *name)
{
  GtkWidget *view = gtk_source_view_new ();

  tb_source_view_setup (GTK_SOURCE_VIEW (view), "json", editable);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  return GTK_TEXT_VIEW (view);
}

static GtkWidget *
button (const char *label,
        const char *tooltip,
        GCallback   callback,
        gpointer    self)
{
  GtkWidget *widget = gtk_button_new ();
  GtkWidget *child = gtk_label_new_with_mnemonic (label);

  /* GTK 4.8 names a button made with gtk_button_new_with_mnemonic() after
   * its raw label and its text ("_Replay Replay") on the accessibility bus;
   * labelled by its label child, it is named by the plain text. */
  gtk_button_set_child (GTK_BUTTON (widget), child);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                  child, NULL, -1);
  gtk_widget_set_tooltip_text (widget, tooltip);
  g_signal_connect_swapped (widget, "clicked", callback, self);
  return widget;
}

static void
build (TbTracePage *self)
{
  GtkWidget *toolbar = gtk_flow_box_new ();
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *fork_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *fork_row = gtk_flow_box_new ();
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  static const char *fork_kinds[] = { N_("Arguments"), N_("Result"), N_("Model turn"), NULL };
  static const char *export_formats[] = { "OpenAI", "Anthropic", NULL };
  const char *kinds[4];

  for (guint i = 0; i < 4; i++)
    kinds[i] = fork_kinds[i] != NULL ? _(fork_kinds[i]) : NULL;

  /* Short windows scroll the page rather than grow. */
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->box);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  gtk_widget_set_margin_start (self->box, 18);
  gtk_widget_set_margin_end (self->box, 18);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);

  {
    GtkWidget *label = gtk_label_new (_("The last run did not end cleanly. Its trace was "
                                        "saved as it went."));

    self->recovered_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_add_css_class (self->recovered_bar, "card");
    gtk_label_set_wrap (GTK_LABEL (label), TRUE);
    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_widget_set_hexpand (label, TRUE);
    gtk_widget_set_margin_start (label, 12);
    gtk_widget_set_margin_top (label, 8);
    gtk_widget_set_margin_bottom (label, 8);
    self->reopen_button = button (_("Re_open"), _("Show the trace of the last run"),
                                  G_CALLBACK (reopen_clicked), self);
    self->discard_button = button (_("_Discard"), _("Delete the trace of the last run"),
                                   G_CALLBACK (discard_clicked), self);
    gtk_widget_set_valign (self->reopen_button, GTK_ALIGN_CENTER);
    gtk_widget_set_valign (self->discard_button, GTK_ALIGN_CENTER);
    gtk_widget_set_margin_end (self->discard_button, 8);
    gtk_widget_add_css_class (self->reopen_button, "suggested-action");
    gtk_box_append (GTK_BOX (self->recovered_bar), label);
    gtk_box_append (GTK_BOX (self->recovered_bar), self->reopen_button);
    gtk_box_append (GTK_BOX (self->recovered_bar), self->discard_button);
    gtk_widget_set_visible (self->recovered_bar, FALSE);
    gtk_box_append (GTK_BOX (self->box), self->recovered_bar);
  }

  self->title_label = GTK_LABEL (gtk_label_new (_("No run yet")));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "title-4");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->title_label));

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (toolbar), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (toolbar), 12);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (toolbar), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (toolbar), 6);
  self->open_button = button (_("_Open…"), _("Open a trace file"), G_CALLBACK (open_clicked),
                              self);
  self->save_button = button (_("_Save…"), _("Save the trace as JSON Lines"),
                              G_CALLBACK (save_clicked), self);
  self->replay_button = button (_("_Replay"), _("Replay the trace and compare"),
                                G_CALLBACK (replay_clicked), self);
  gtk_widget_add_css_class (self->replay_button, "suggested-action");
  self->live_check = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("_Live tools")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->live_check),
                               _("Run the tools again instead of giving back their recorded "
                                 "results"));
  self->export_format = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (export_formats));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->export_format), _("Message format"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->export_format),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Message format"), -1);
  self->export_button = button (_("_Export Messages…"),
                                _("Save the conversation as provider messages JSON"),
                                G_CALLBACK (export_clicked), self);
  gtk_flow_box_insert (GTK_FLOW_BOX (toolbar), self->open_button, -1);
  {
    GtkWidget *popover = gtk_popover_new ();
    GtkWidget *placeholder = gtk_label_new (_("No recent traces"));

    self->recent_list = GTK_LIST_BOX (gtk_list_box_new ());
    gtk_list_box_set_activate_on_single_click (self->recent_list, TRUE);
    gtk_widget_add_css_class (placeholder, "dim-label");
    gtk_widget_set_margin_top (placeholder, 6);
    gtk_widget_set_margin_bottom (placeholder, 6);
    gtk_list_box_set_placeholder (self->recent_list, placeholder);
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->recent_list),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Recent traces"), -1);
    g_signal_connect (self->recent_list, "row-activated", G_CALLBACK (on_recent_activated),
                      self);
    gtk_popover_set_child (GTK_POPOVER (popover), GTK_WIDGET (self->recent_list));
    g_signal_connect_swapped (popover, "show", G_CALLBACK (fill_recent), self);
    self->recent_button = gtk_menu_button_new ();
    gtk_menu_button_set_label (GTK_MENU_BUTTON (self->recent_button), _("Recent"));
    gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->recent_button), popover);
    gtk_widget_set_tooltip_text (self->recent_button, _("Traces opened or saved lately"));
    gtk_flow_box_insert (GTK_FLOW_BOX (toolbar), self->recent_button, -1);
  }
  gtk_flow_box_insert (GTK_FLOW_BOX (toolbar), self->save_button, -1);
  gtk_flow_box_insert (GTK_FLOW_BOX (toolbar), self->replay_button, -1);
  gtk_flow_box_insert (GTK_FLOW_BOX (toolbar), GTK_WIDGET (self->live_check), -1);
  gtk_flow_box_insert (GTK_FLOW_BOX (toolbar), self->export_button, -1);
  gtk_flow_box_insert (GTK_FLOW_BOX (toolbar), GTK_WIDGET (self->export_format), -1);
  for (GtkWidget *child = gtk_widget_get_first_child (toolbar); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_focusable (child, FALSE);
  gtk_box_append (GTK_BOX (self->box), toolbar);

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_label_set_selectable (self->status_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->status_label));

  /* The timeline on the left. */
  g_signal_connect (factory, "setup", G_CALLBACK (setup_event), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_event), self);
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (on_event_selected), self);
  self->timeline = GTK_LIST_VIEW (gtk_list_view_new (g_object_ref (
                                                       GTK_SELECTION_MODEL (self->selection)),
                                                     factory));
  gtk_widget_add_css_class (GTK_WIDGET (self->timeline), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->timeline), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Events"), -1);
  {
    GtkWidget *left = titled (_("Events"), scrolled (GTK_WIDGET (self->timeline), 200));

    gtk_widget_set_size_request (left, 120, -1);
    gtk_paned_set_start_child (GTK_PANED (paned), left);
  }
  gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 300);

  /* The selected event or step, the replay report and the fork on the right. */
  self->detail = code_view (FALSE, _("Details of the selection"));
  gtk_box_append (GTK_BOX (right), titled (_("Details"), scrolled (GTK_WIDGET (self->detail),
                                                                   100)));
  self->report_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->report_label, 0);
  gtk_label_set_wrap (self->report_label, TRUE);
  self->report_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->report_list, GTK_SELECTION_SINGLE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->report_list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Replay steps"), -1);
  gtk_list_box_set_placeholder (self->report_list, gtk_label_new (_("Replay to compare.")));
  g_signal_connect_swapped (self->report_list, "row-selected", G_CALLBACK (on_step_selected),
                            self);
  {
    GtkWidget *report_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

    gtk_box_append (GTK_BOX (report_box), GTK_WIDGET (self->report_label));
    gtk_box_append (GTK_BOX (report_box), scrolled (GTK_WIDGET (self->report_list), 80));
    gtk_box_append (GTK_BOX (right), titled (_("Replay"), report_box));
  }

  self->fork_kind = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (kinds));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->fork_kind), _("What to change at the step"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->fork_kind),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("What to change"), -1);
  g_signal_connect_swapped (self->fork_kind, "notify::selected",
                            G_CALLBACK (on_fork_kind_changed), self);
  self->fork_button = button (_("_Fork from Here"),
                              _("Replay with the selected step changed to the JSON below"),
                              G_CALLBACK (fork_clicked), self);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (fork_row), GTK_SELECTION_NONE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (fork_row), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (fork_row), 6);
  gtk_flow_box_insert (GTK_FLOW_BOX (fork_row), GTK_WIDGET (self->fork_kind), -1);
  self->turn_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, 1000, 1));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->turn_spin), _("Which model turn to change"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->turn_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Model turn"), -1);
  g_signal_connect_swapped (self->turn_spin, "value-changed", G_CALLBACK (fill_model_turn),
                            self);
  gtk_flow_box_insert (GTK_FLOW_BOX (fork_row), GTK_WIDGET (self->turn_spin), -1);
  {
    static const char *models[3] = { NULL, NULL, NULL };

    models[0] = _("Then the recorded turns");
    models[1] = _("Then the Loop page's provider (live)");
    self->fork_model = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (models));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->fork_model),
                                 _("Who writes the model's turns after the changed step"));
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->fork_model),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Continue with"), -1);
    gtk_flow_box_insert (GTK_FLOW_BOX (fork_row), GTK_WIDGET (self->fork_model), -1);
  }
  gtk_flow_box_insert (GTK_FLOW_BOX (fork_row), self->fork_button, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (fork_row); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_focusable (child, FALSE);
  self->fork_text = code_view (TRUE, _("The step's new value"));
  gtk_widget_set_visible (GTK_WIDGET (self->turn_spin), FALSE);
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->turn_spin)), FALSE);
  gtk_box_append (GTK_BOX (fork_box), fork_row);
  gtk_box_append (GTK_BOX (fork_box), scrolled (GTK_WIDGET (self->fork_text), 60));
  gtk_box_append (GTK_BOX (right), titled (_("Fork"), fork_box));
  gtk_paned_set_end_child (GTK_PANED (paned), right);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_box_append (GTK_BOX (self->box), paned);
}

static void
tb_trace_page_dispose (GObject *object)
{
  TbTracePage *self = (TbTracePage *) object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  if (self->report_list != NULL)
    g_signal_handlers_disconnect_by_data (self->report_list, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  self->box = NULL;
  self->report_list = NULL;
  g_clear_object (&self->selection);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->report);
  g_clear_object (&self->trace);
  g_clear_object (&self->registry);
  g_clear_pointer (&self->title, g_free);
  g_clear_object (&self->recovered_file);

  G_OBJECT_CLASS (tb_trace_page_parent_class)->dispose (object);
}

static void
tb_trace_page_class_init (TbTracePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_trace_page_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tb_trace_page_init (TbTracePage *self)
{
  self->cancellable = g_cancellable_new ();
  build (self);
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
  g_clear_object (&self->reader_model);
  g_free (self->title);
  self->title = g_strdup (title != NULL ? title : _("Trace"));
  gtk_label_set_label (self->title_label, trace != NULL ? self->title : _("No run yet"));
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (trace));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  if (trace != NULL)
    g_signal_connect_swapped (trace, "items-changed", G_CALLBACK (on_trace_changed), self);
  clear_report (self);
  set_detail (self, NULL);
  set_status (self, NULL);
  update_controls (self);
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
  if (!tb_trace_save (self->trace, file, NULL, error))
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
  set_status (self, NULL);

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
      clear_report (self);
      set_detail (self, NULL);
      g_clear_object (&self->reader_model);
      self->reader_model = tb_reader_model_new (reader);
      gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->reader_model));
      gtk_label_set_label (self->title_label, name);
      tb_trace_reader_index_async (reader, self->cancellable, index_done, NULL);
    }
  update_controls (self);
  task = g_task_new (self, self->cancellable, load_done, NULL);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
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
  text = tb_json_to_string (messages, TRUE);
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
  return g_list_model_get_n_items (G_LIST_MODEL (self->selection));
}

/**
 * tb_trace_page_get_event_row_text:
 * @self: a Trace page
 * @position: an event
 *
 * Returns: (transfer full) (nullable): the type and time the timeline shows
 */
char *
tb_trace_page_get_event_row_text (TbTracePage *self,
                                  guint        position)
{
  g_autoptr(TbTraceEvent) event = NULL;
  g_autofree char *offset = NULL;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);

  event = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  if (event == NULL)
    return NULL;
  offset = event_offset_text (self, position);
  return g_strdup_printf ("%s %s", tb_trace_event_get_event_type (event), offset);
}

void
tb_trace_page_select_event (TbTracePage *self,
                            guint        position)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  gtk_single_selection_set_selected (self->selection, position);
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
 * @name: "open", "save", "replay", "fork", "export", "reopen" or "discard"
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
    return self->fork_button;
  if (g_str_equal (name, "export"))
    return self->export_button;
  if (g_str_equal (name, "reopen"))
    return self->reopen_button;
  if (g_str_equal (name, "discard"))
    return self->discard_button;
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
  return self->report;
}

guint
tb_trace_page_get_n_report_rows (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), 0);
  return tb_list_box_count_rows (self->report_list);
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
  GtkListBoxRow *row;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  row = gtk_list_box_get_row_at_index (self->report_list, position);
  return row != NULL ? g_strdup (g_object_get_data (G_OBJECT (row), "tb-text")) : NULL;
}

gboolean
tb_trace_page_get_report_row_highlighted (TbTracePage *self,
                                          guint        position)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), FALSE);
  row = gtk_list_box_get_row_at_index (self->report_list, position);
  return row != NULL && gtk_widget_has_css_class (GTK_WIDGET (row), "tb-divergence");
}

void
tb_trace_page_select_step (TbTracePage *self,
                           guint        position)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));
  gtk_list_box_select_row (self->report_list,
                           gtk_list_box_get_row_at_index (self->report_list, position));
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

  if (self->trace == NULL || self->busy)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("There is no trace to fork, or a replay is running."));
      return FALSE;
    }
  value = tb_json_parse (json_text, -1, error);
  if (value == NULL)
    return FALSE;
  replay = new_replay (self);
  if (self->title != NULL)
    tb_replay_set_parent (replay, self->title);
  if (!tb_replay_set_fork (replay, step, edit, value, error))
    return FALSE;
  if (gtk_drop_down_get_selected (self->fork_model) == 1)
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
 * @edit: what Fork from Here changes
 * @turn: for %TB_REPLAY_EDIT_MODEL_TURN, the model turn's number (from 1)
 */
void
tb_trace_page_set_fork_kind (TbTracePage  *self,
                             TbReplayEdit  edit,
                             guint         turn)
{
  g_return_if_fail (TB_IS_TRACE_PAGE (self));

  if (edit == TB_REPLAY_EDIT_MODEL_TURN)
    gtk_spin_button_set_value (self->turn_spin, MAX (turn, 1));
  gtk_drop_down_set_selected (self->fork_kind,
                              edit == TB_REPLAY_EDIT_RESULT ? 1
                              : edit == TB_REPLAY_EDIT_MODEL_TURN ? 2 : 0);
}

/**
 * tb_trace_page_get_fork_buffer:
 * @self: a Trace page
 *
 * Returns: (transfer none): the JSON Fork from Here uses
 */
GtkTextBuffer *
tb_trace_page_get_fork_buffer (TbTracePage *self)
{
  g_return_val_if_fail (TB_IS_TRACE_PAGE (self), NULL);
  return gtk_text_view_get_buffer (self->fork_text);
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
  self->remember_recent = remember;
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
  fill_recent (self);
  return tb_list_box_count_rows (self->recent_list);
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

  gtk_drop_down_set_selected (self->fork_model, live ? 1 : 0);
}
