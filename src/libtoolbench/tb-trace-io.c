/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-io"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-trace-file-private.h"
#include "tb-trace-io.h"
#include "tb-trace-private.h"

/* Between the in-memory TbTrace that the loop appends to and the trace
 * file: loading a file into a TbTrace, saving one, and following a
 * running trace so that every event reaches the disk as it happens. */

/* A trace with @reader's header and the problems it found, no events. */
static TbTrace *
trace_for_reader (TbTraceReader *reader)
{
  TbTrace *trace = tb_trace_new ();
  JsonObject *file_header = tb_trace_reader_get_header (reader);
  g_autoptr(JsonObject) header = json_object_new ();
  g_autoptr(GList) names = json_object_get_members (file_header);
  g_auto(GStrv) found = tb_trace_reader_get_problems (reader);

  for (const GList *l = names; l != NULL; l = l->next)
    json_object_set_member (header, l->data,
                            json_node_ref (json_object_get_member (file_header, l->data)));
  tb_trace_set_header (trace, header);
  for (guint i = 0; found != NULL && found[i] != NULL; i++)
    tb_trace_add_problem (trace, found[i]);
  return trace;
}

static TbTraceReader *
open_indexed (GFile         *file,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(TbTraceReader) reader = tb_trace_reader_open (file, error);

  if (reader == NULL || !tb_trace_reader_index (reader, cancellable, error))
    return NULL;
  return g_steal_pointer (&reader);
}

/**
 * tb_trace_load:
 * @file: a trace file
 * @cancellable: (nullable): a cancellable
 * @problems: (out) (optional) (transfer full): what was wrong with the
 *   file (damaged lines left out, events out of order), a sentence each
 * @error: return location for an error
 *
 * Reads a whole trace into memory. A trace that is only read through,
 * such as one to replay, is better opened with tb_trace_open(), which
 * keeps its events in the file; a view of a very large trace should use
 * #TbTraceReader.
 *
 * Returns: (transfer full) (nullable): the trace, its header and events
 */
TbTrace *
tb_trace_load (GFile          *file,
               GCancellable   *cancellable,
               char         ***problems,
               GError        **error)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(TbTrace) trace = NULL;
  guint n;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  reader = open_indexed (file, cancellable, error);
  if (reader == NULL)
    return NULL;

  trace = trace_for_reader (reader);
  n = tb_trace_reader_get_n_events (reader);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) line_error = NULL;
      g_autoptr(JsonObject) line = tb_trace_reader_read_event (reader, i, &line_error);
      g_autoptr(TbTraceEvent) event = NULL;

      /* A line that cannot be parsed is left out like one that indexing
       * refused: the rest of the trace still loads. */
      if (line == NULL)
        {
          g_autofree char *problem = g_strdup_printf (_("%s; it was left out"), line_error->message);

          tb_trace_add_problem (trace, problem);
          continue;
        }

      event = _tb_trace_event_from_line (line, i + 1);
      tb_trace_append_event (trace, event);
    }

  if (problems != NULL)
    *problems = g_strdupv ((char **) tb_trace_get_problems (trace));

  return g_steal_pointer (&trace);
}

/**
 * tb_trace_open:
 * @file: a trace file
 * @cancellable: (nullable): a cancellable
 * @problems: (out) (optional) (transfer full): what was wrong with the
 *   file (damaged lines left out, events out of order), a sentence each
 * @error: return location for an error
 *
 * Opens a trace without reading its events into memory: the file is
 * indexed, and tb_trace_get_event() reads an event from it when asked
 * for, so a trace of any length takes about the same memory (a few bytes
 * an event for the index). An event stays valid as
 * tb_trace_get_event() says; take a reference to keep it longer.
 *
 * The file is kept open and must not be changed while the trace is
 * used; an event whose line has changed becomes an `incomplete` event
 * that says so. A file replaced by another (saved over) does not
 * matter. Events appended to the trace stay in memory.
 *
 * Returns: (transfer full) (nullable): the trace, its header and events
 */
TbTrace *
tb_trace_open (GFile          *file,
               GCancellable   *cancellable,
               char         ***problems,
               GError        **error)
{
  g_autoptr(TbTraceReader) reader = NULL;
  TbTrace *trace;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  reader = open_indexed (file, cancellable, error);
  if (reader == NULL)
    return NULL;

  trace = trace_for_reader (reader);
  _tb_trace_set_reader (trace, reader, g_file_peek_path (file));
  if (problems != NULL)
    *problems = g_strdupv ((char **) tb_trace_get_problems (trace));
  return trace;
}

/**
 * tb_trace_save:
 * @trace: a trace
 * @file: where to save it; replaced
 * @redactor: (nullable): removes secrets; credential-shaped values are
 *   removed even without one
 * @error: return location for an error
 *
 * Writes a whole trace to a file at once, as JSON Lines, with secrets
 * masked.
 *
 * Returns: %TRUE when every event was written and synced
 */
gboolean
tb_trace_save (TbTrace     *trace,
               GFile       *file,
               TbRedactor  *redactor,
               GError     **error)
{
  g_autoptr(TbTraceWriter) writer = NULL;
  guint n;

  g_return_val_if_fail (TB_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  writer = tb_trace_writer_new (file, tb_trace_get_header (trace), redactor, error);
  if (writer == NULL)
    return FALSE;
  tb_trace_writer_set_sync_policy (writer, 0, 0);

  n = tb_trace_get_n_events (trace);
  for (guint i = 0; i < n; i++)
    {
      if (!_tb_trace_writer_append_event (writer, tb_trace_get_event (trace, i), error))
        return FALSE;
    }

  return tb_trace_writer_close (writer, error);
}

/**
 * TbTraceRecorder:
 *
 * Follows a #TbTrace and writes each event to a file the moment it is
 * appended, so that a run that crashes leaves a trace with everything up
 * to the crash. The header is written with the first event (the loop
 * fills it in when the run starts); events already in the trace are
 * written at once.
 *
 * The first writing error is kept (tb_trace_recorder_get_error()) and
 * announced with #TbTraceRecorder::failed, so that the run can end as
 * failed: a trace that silently misses events would replay as if nothing
 * had happened. An event too large or too deep to be read back is
 * replaced by an "incomplete" event and recording goes on; after any
 * other error (the disk is full) nothing more is written.
 *
 * Once written, events leave the trace's memory but for the latest few
 * thousand (tb_trace_recorder_set_window()) and are read back from the
 * file when asked for, so that a long run needs no more memory than a
 * short one. Events not written (after an error) stay in memory.
 */
struct _TbTraceRecorder
{
  GObject         parent_instance;

  TbTrace        *trace;
  GFile          *file;
  TbRedactor     *redactor;
  TbTraceWriter  *writer;
  TbTraceBacking *backing;
  GError         *error;
  gulong          items_changed_id;
  guint           written;
  guint           window;
  gboolean        stopped;
};

enum { FAILED, N_SIGNALS };

static guint signals [N_SIGNALS];

G_DEFINE_FINAL_TYPE (TbTraceRecorder, tb_trace_recorder, G_TYPE_OBJECT)

static void
recorder_fail (TbTraceRecorder *self,
               GError          *error)
{
  gboolean first = self->error == NULL;

  if (!g_error_matches (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_UNRECORDABLE))
    {
      self->stopped = TRUE;
      g_prefix_error (&error, _("The trace cannot be written: "));
    }
  if (!first)
    {
      g_error_free (error);
      return;
    }
  self->error = error;
  g_signal_emit (self, signals [FAILED], 0, self->error);
}

static void
recorder_write_pending (TbTraceRecorder *self)
{
  guint n = tb_trace_get_n_events (self->trace);
  GError *error = NULL;

  if (self->stopped || n == self->written)
    return;

  if (self->writer == NULL)
    {
      self->writer = tb_trace_writer_new (self->file, tb_trace_get_header (self->trace),
                                          self->redactor, &error);
      if (self->writer == NULL)
        {
          recorder_fail (self, error);
          return;
        }
      /* A run records thousands of events a second: syncing every 1,000
       * of them would make it wait on the disk several times a second.
       * At most a second of events is unsynced either way, and write()
       * already keeps them through a crash of the process. */
      tb_trace_writer_set_sync_policy (self->writer, 0, 1000);
      self->backing = _tb_trace_backing_new (g_file_peek_path (self->file));
      _tb_trace_set_backing (self->trace, self->backing, self->window);
    }

  while (self->written < n && !self->stopped)
    {
      TbTraceEvent *event = tb_trace_get_event (self->trace, self->written);
      guint64 offset = _tb_trace_writer_get_size (self->writer);

      self->written++;
      if (_tb_trace_writer_append_event (self->writer, event, &error))
        {
          _tb_trace_backing_add (self->backing, offset);
        }
      else
        {
          /* An unrecordable event still has its line: an "incomplete" one. */
          if (g_error_matches (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_UNRECORDABLE))
            _tb_trace_backing_add (self->backing, offset);
          recorder_fail (self, g_steal_pointer (&error));
        }
    }
}

static void
recorder_items_changed (GListModel      *model,
                        guint            position,
                        guint            removed,
                        guint            added,
                        TbTraceRecorder *self)
{
  recorder_write_pending (self);
}

static void
recorder_sink (TbTrace      *trace,
               TbTraceEvent *event,
               gpointer      user_data)
{
  recorder_write_pending (user_data);
}

/* Stops following the trace. */
static void
recorder_unfollow (TbTraceRecorder *self)
{
  if (self->trace == NULL)
    return;
  g_clear_signal_handler (&self->items_changed_id, self->trace);
  _tb_trace_set_sink (self->trace, NULL, self);
}

static void
tb_trace_recorder_dispose (GObject *object)
{
  TbTraceRecorder *self = (TbTraceRecorder *)object;

  recorder_unfollow (self);
  if (self->writer != NULL)
    tb_trace_writer_close (self->writer, NULL);

  G_OBJECT_CLASS (tb_trace_recorder_parent_class)->dispose (object);
}

static void
tb_trace_recorder_finalize (GObject *object)
{
  TbTraceRecorder *self = (TbTraceRecorder *)object;

  g_clear_object (&self->writer);
  g_clear_pointer (&self->backing, _tb_trace_backing_unref);
  g_clear_object (&self->trace);
  g_clear_object (&self->file);
  g_clear_object (&self->redactor);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (tb_trace_recorder_parent_class)->finalize (object);
}

static void
tb_trace_recorder_class_init (TbTraceRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_trace_recorder_dispose;
  object_class->finalize = tb_trace_recorder_finalize;

  /**
   * TbTraceRecorder::failed:
   * @self: the recorder
   * @error: why the trace cannot be written whole
   *
   * Emitted once, at the first event that could not be written. Connect
   * it to tb_dispatch_loop_fail() so that the run does not go on as if
   * it were recorded.
   */
  signals [FAILED] =
    g_signal_new ("failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
tb_trace_recorder_init (TbTraceRecorder *self)
{
  self->window = TB_TRACE_RECORDER_DEFAULT_WINDOW;
}

/**
 * tb_trace_recorder_new:
 * @trace: the trace to follow
 * @file: where to write it; replaced
 * @redactor: (nullable): removes secrets (add the API keys in use to it)
 *
 * Makes a recorder that writes a trace to a file as it grows, event by
 * event, so that a run that crashes leaves its trace behind; events the
 * trace no longer keeps in memory are read back from this file.
 *
 * Returns: (transfer full): a recorder; drop it or call
 *   tb_trace_recorder_close() when the run ends
 */
TbTraceRecorder *
tb_trace_recorder_new (TbTrace    *trace,
                       GFile      *file,
                       TbRedactor *redactor)
{
  TbTraceRecorder *self;

  g_return_val_if_fail (TB_IS_TRACE (trace), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (TB_TYPE_TRACE_RECORDER, NULL);
  self->trace = g_object_ref (trace);
  self->file = g_object_ref (file);
  self->redactor = redactor != NULL ? g_object_ref (redactor) : NULL;
  /* Called directly rather than through items-changed: a signal emission
   * an event was a good part of what recording a run cost. */
  if (!_tb_trace_set_sink (trace, recorder_sink, self))
    self->items_changed_id = g_signal_connect (trace, "items-changed",
                                               G_CALLBACK (recorder_items_changed), self);
  recorder_write_pending (self);

  return self;
}

/**
 * tb_trace_recorder_set_window:
 * @self: a recorder
 * @n_events: about how many of the latest events the trace keeps in
 *   memory (it keeps between @n_events and twice as many); 0 keeps every
 *   event in memory
 *
 * The default is %TB_TRACE_RECORDER_DEFAULT_WINDOW. Older events are read
 * back from the file by tb_trace_get_event().
 */
void
tb_trace_recorder_set_window (TbTraceRecorder *self,
                              guint            n_events)
{
  g_return_if_fail (TB_IS_TRACE_RECORDER (self));

  self->window = n_events;
  if (self->backing != NULL)
    _tb_trace_set_backing (self->trace, self->backing, n_events);
}

/**
 * tb_trace_recorder_get_error:
 * @self: a recorder
 *
 * Tells why the recorder stopped writing, as #TbTraceRecorder::failed
 * announced it; events appended since stay in the trace's memory.
 *
 * Returns: (nullable): why writing stopped, if it did
 */
const GError *
tb_trace_recorder_get_error (TbTraceRecorder *self)
{
  g_return_val_if_fail (TB_IS_TRACE_RECORDER (self), NULL);
  return self->error;
}

/**
 * tb_trace_recorder_close:
 * @self: a recorder
 * @error: return location for an error
 *
 * Stops following, writes what is left (a trace with no events gets its
 * header) and syncs the file.
 *
 * Returns: %TRUE when everything was written
 */
gboolean
tb_trace_recorder_close (TbTraceRecorder  *self,
                         GError          **error)
{
  g_return_val_if_fail (TB_IS_TRACE_RECORDER (self), FALSE);

  recorder_unfollow (self);

  recorder_write_pending (self);
  if (self->error == NULL && self->writer == NULL)
    self->writer = tb_trace_writer_new (self->file, tb_trace_get_header (self->trace),
                                        self->redactor, &self->error);

  /* Events after an unrecordable one were written: sync them too. */
  if (self->writer != NULL && !tb_trace_writer_close (self->writer, error))
    return FALSE;

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }

  return TRUE;
}
