/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Reading a trace file: lines indexed without keeping them, an event
 * parsed when it is asked for, everything before damage kept. */

#define G_LOG_DOMAIN "tb-trace-file"

#include "config.h"

/* PRId64: the one 64-bit format xgettext understands in a message */
#include <inttypes.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb-json.h"
#include "tb-trace-file-private.h"
#include "tb-trace-reader.h"
#include "tb-trace-scan-private.h"

#define READ_CHUNK (256 * 1024)

typedef struct
{
  guint64 offset;
  guint32 length;
  guint32 line;
} Entry;

struct _TbTraceReader
{
  GObject     parent_instance;

  int         fd;
  char       *path;
  guint64     size;
  JsonObject *header;
  gint        version;
  guint64     body_offset;

  GMutex      lock;
  GArray     *entries;
  GPtrArray  *problems;
  gboolean    indexed;
  gboolean    indexing;
  guint       notify_source;
  GMainContext *notify_context;
  gboolean    first_notified;
};

/**
 * TbTraceReader:
 *
 * Reads a trace file: lines are indexed without being kept, an event is
 * parsed when it is asked for, and everything before damage is kept, with
 * the problems listed.
 */
G_DEFINE_FINAL_TYPE (TbTraceReader, tb_trace_reader, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_N_EVENTS,
  PROP_INDEXED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
tb_trace_reader_finalize (GObject *object)
{
  TbTraceReader *self = (TbTraceReader *)object;

  g_clear_handle_id (&self->notify_source, g_source_remove);
  g_clear_pointer (&self->notify_context, g_main_context_unref);
  if (self->fd >= 0)
    g_close (self->fd, NULL);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->header, json_object_unref);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (tb_trace_reader_parent_class)->finalize (object);
}

static void
tb_trace_reader_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbTraceReader *self = TB_TRACE_READER (object);

  switch (prop_id)
    {
    case PROP_N_EVENTS:
      g_value_set_uint (value, tb_trace_reader_get_n_events (self));
      break;

    case PROP_INDEXED:
      g_value_set_boolean (value, tb_trace_reader_get_indexed (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_trace_reader_class_init (TbTraceReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_trace_reader_finalize;
  object_class->get_property = tb_trace_reader_get_property;

  /**
   * TbTraceReader:n-events:
   *
   * How many events are indexed so far. While tb_trace_reader_index_async()
   * runs it grows, notified on the main context about every 50 ms, so a
   * view can show the first events at once.
   */
  properties [PROP_N_EVENTS] =
    g_param_spec_uint ("n-events", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbTraceReader:indexed:
   *
   * Whether the whole file was indexed.
   */
  properties [PROP_INDEXED] =
    g_param_spec_boolean ("indexed", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_trace_reader_init (TbTraceReader *self)
{
  self->fd = -1;
  g_mutex_init (&self->lock);
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->problems = g_ptr_array_new_with_free_func (g_free);
}

static gssize
read_at (int      fd,
         char    *buffer,
         gsize    length,
         guint64  offset)
{
  gsize done = 0;

  while (done < length)
    {
      gssize n = pread (fd, buffer + done, length - done, offset + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += n;
    }
  return done;
}

/* The error of a read_at() that returned -1, from its errno. */
static gboolean
read_failed (GError **error)
{
  int saved = errno;

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               _("Cannot read the trace: %s"), g_strerror (saved));
  return FALSE;
}

static gboolean
read_header (TbTraceReader  *self,
             GError        **error)
{
  g_autoptr(GByteArray) line = g_byte_array_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) parse_error = NULL;
  char buffer[65536];
  guint64 offset = 0;
  gboolean complete = FALSE;
  JsonObject *object;
  JsonNode *version;
  const char *format;

  while (!complete && line->len <= TB_TRACE_MAX_LINE)
    {
      gssize n = read_at (self->fd, buffer, sizeof buffer, offset);
      char *newline;

      if (n < 0)
        return read_failed (error);
      if (n == 0)
        break;

      newline = memchr (buffer, '\n', n);
      if (newline != NULL)
        {
          g_byte_array_append (line, (guint8 *) buffer, newline - buffer);
          offset += newline - buffer + 1;
          complete = TRUE;
        }
      else
        {
          g_byte_array_append (line, (guint8 *) buffer, n);
          offset += n;
        }
    }

  if (line->len > TB_TRACE_MAX_LINE)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_NOT_A_TRACE,
                   _("“%s” is not a Toolbench trace: its first line is not a trace header"),
                   self->path);
      return FALSE;
    }

  node = tb_json_parse_full ((const char *) line->data, line->len, TB_TRACE_MAX_LINE,
                             TB_TRACE_MAX_DEPTH, &parse_error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_NOT_A_TRACE,
                   _("“%s” is not a Toolbench trace: its first line is not a trace header"),
                   self->path);
      return FALSE;
    }

  object = json_node_get_object (node);
  format = tb_json_object_get_string (object, "format");
  if (g_strcmp0 (format, "toolbench-trace") != 0)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_NOT_A_TRACE,
                   _("“%s” is JSON but not a Toolbench trace (its first line has no "
                     "\"format\": \"toolbench-trace\")"),
                   self->path);
      return FALSE;
    }

  version = json_object_get_member (object, "version");
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_INT64 || json_node_get_int (version) < 1)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_NOT_A_TRACE,
                   _("The trace “%s” has no valid format version"), self->path);
      return FALSE;
    }

  if (json_node_get_int (version) > TB_TRACE_FORMAT_VERSION)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_NEWER_VERSION,
                   /* Translators: a file name, then two version numbers */
                   _("The trace “%s” was written by a newer Toolbench (format version %"
                     PRId64 "); this version reads format version %d. "
                     "Open it with a newer Toolbench."),
                   self->path, json_node_get_int (version), TB_TRACE_FORMAT_VERSION);
      return FALSE;
    }

  self->version = json_node_get_int (version);
  self->header = json_object_ref (object);
  self->body_offset = offset;

  return TRUE;
}

/**
 * tb_trace_reader_open:
 * @file: a trace file
 * @error: return location for a #TbTraceFileError or #GIOError
 *
 * Opens a trace and reads its header; events are indexed by
 * tb_trace_reader_index() or tb_trace_reader_index_async().
 *
 * Returns: (transfer full) (nullable): a reader
 */
TbTraceReader *
tb_trace_reader_open (GFile   *file,
                      GError **error)
{
  g_autoptr(TbTraceReader) self = NULL;
  struct stat st;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (TB_TYPE_TRACE_READER, NULL);
  self->fd = _tb_trace_file_open_local (file, O_RDONLY, _("Traces can only be read from local files"),
                         &self->path, error);
  if (self->fd < 0)
    return NULL;

  if (fstat (self->fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("“%s” is not a regular file"), self->path);
      return NULL;
    }
  self->size = st.st_size;

  if (self->size == 0)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_EMPTY,
                   _("The trace “%s” is empty"), self->path);
      return NULL;
    }

  if (!read_header (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * tb_trace_reader_get_header:
 * @self: a reader
 *
 * Gives the header of the trace: the tools, the provider's settings and the
 * trace's origin.
 *
 * Returns: (transfer none): the header line
 */
JsonObject *
tb_trace_reader_get_header (TbTraceReader *self)
{
  g_return_val_if_fail (TB_IS_TRACE_READER (self), NULL);
  return self->header;
}

/**
 * tb_trace_reader_get_version:
 * @self: a reader
 *
 * Gives the version of the trace format the file was written in.
 *
 * Returns: the format's version
 */
gint
tb_trace_reader_get_version (TbTraceReader *self)
{
  g_return_val_if_fail (TB_IS_TRACE_READER (self), 0);
  return self->version;
}

static void
add_problem (TbTraceReader *self,
             char          *problem)
{
  g_mutex_lock (&self->lock);
  /* A file of nothing but garbage must not produce a million warnings. */
  if (self->problems->len < 1000)
    g_ptr_array_add (self->problems, problem);
  else
    g_free (problem);
  g_mutex_unlock (&self->lock);
}

typedef struct
{
  gint64  last_seq;
  guint   n_out_of_order;
  GArray *batch;   /* Entry: found in this chunk, not yet published */
} IndexState;

static gboolean
notify_progress (gpointer user_data)
{
  TbTraceReader *self = user_data;

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_EVENTS]);
  return G_SOURCE_CONTINUE;
}

static gboolean
notify_first (gpointer user_data)
{
  notify_progress (user_data);
  return G_SOURCE_REMOVE;
}

/* Indexes one line if it is an event: checked by the scanner, not parsed
 * (tb_trace_reader_read_event() parses it). */
static void
check_line (TbTraceReader *self,
            IndexState    *state,
            const char    *data,
            gsize          length,
            guint64        offset,
            guint          line_number,
            gboolean       last_and_unterminated)
{
  g_autofree char *reason = NULL;
  TbTraceScan scan;
  Entry entry;

  /* Blank lines are harmless (an editor may add one at the end). */
  if (length == 0 || (length == 1 && data[0] == '\r'))
    return;

  if (!_tb_trace_scan_line (data, length, TB_TRACE_MAX_DEPTH, &scan, &reason))
    {
      if (last_and_unterminated)
        add_problem (self, g_strdup_printf (_("The last event (line %u) is incomplete: the trace "
                                              "was cut off while it was being written, and that "
                                              "event was left out"), line_number));
      else
        add_problem (self, g_strdup_printf (_("Line %u cannot be read and was left out: %s"),
                                            line_number, reason));
      return;
    }

  if (scan.has_seq)
    {
      if (scan.seq <= state->last_seq && state->n_out_of_order++ < 20)
        add_problem (self, g_strdup_printf (_("Line %u has sequence number %" PRId64
                                              " after %" PRId64 ": events are out of "
                                              "order; they are shown as they are in the file"),
                                            line_number, scan.seq, state->last_seq));
      state->last_seq = MAX (state->last_seq, scan.seq);
    }

  entry.offset = offset;
  entry.length = length;
  entry.line = line_number;
  g_array_append_val (state->batch, entry);
}

/* Hands the lines found so far to readers, a chunk at a time. */
static void
publish (TbTraceReader *self,
         IndexState    *state)
{
  guint n;

  if (state->batch->len == 0)
    return;

  g_mutex_lock (&self->lock);
  g_array_append_vals (self->entries, state->batch->data, state->batch->len);
  n = self->entries->len;
  g_mutex_unlock (&self->lock);
  g_array_set_size (state->batch, 0);

  /* Let a view show the first screenful at once instead of at the next tick. */
  if (self->notify_context != NULL && !self->first_notified && n >= 100)
    {
      self->first_notified = TRUE;
      g_main_context_invoke_full (self->notify_context, G_PRIORITY_DEFAULT,
                                  notify_first, g_object_ref (self), g_object_unref);
    }
}

static gboolean
index_events (TbTraceReader  *self,
              GCancellable   *cancellable,
              GError        **error)
{
  g_autofree char *buffer = g_malloc (READ_CHUNK);
  g_autoptr(GByteArray) carry = g_byte_array_new ();
  g_autoptr(GArray) batch = g_array_new (FALSE, FALSE, sizeof (Entry));
  IndexState state = { G_MININT64, 0, batch };
  guint64 offset = self->body_offset;
  guint64 line_offset = offset;
  guint line_number = 2;
  gboolean oversize = FALSE;

  for (;;)
    {
      gssize n;
      gsize start = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      n = read_at (self->fd, buffer, READ_CHUNK, offset);
      if (n < 0)
        return read_failed (error);
      if (n == 0)
        break;

      while (start < (gsize) n)
        {
          char *newline = memchr (buffer + start, '\n', n - start);
          gsize end = newline != NULL ? (gsize) (newline - buffer) : (gsize) n;

          if (!oversize)
            {
              if (carry->len + (end - start) > TB_TRACE_MAX_LINE)
                {
                  oversize = TRUE;
                  g_byte_array_set_size (carry, 0);
                }
              else if (newline == NULL || carry->len > 0)
                {
                  g_byte_array_append (carry, (guint8 *) buffer + start, end - start);
                }
            }

          if (newline == NULL)
            break;

          if (oversize)
            {
              guint64 length = offset + end - line_offset;

              add_problem (self, g_strdup_printf (_("Line %u is %" PRIu64 " MiB, longer "
                                                    "than the %d MiB limit, and was left out"),
                                                  line_number, length / (1024 * 1024),
                                                  TB_TRACE_MAX_LINE / (1024 * 1024)));
            }
          else if (carry->len > 0)
            check_line (self, &state, (const char *) carry->data, carry->len, line_offset,
                        line_number, FALSE);
          else
            check_line (self, &state, buffer + start, end - start, line_offset, line_number,
                        FALSE);

          g_byte_array_set_size (carry, 0);
          oversize = FALSE;
          line_number++;
          start = end + 1;
          line_offset = offset + start;
        }

      offset += n;
      publish (self, &state);
    }

  /* The file ends without a newline: the writer was interrupted. */
  if (oversize)
    add_problem (self, g_strdup_printf (_("The last event (line %u) is incomplete and longer than "
                                          "the %d MiB limit; it was left out"),
                                        line_number, TB_TRACE_MAX_LINE / (1024 * 1024)));
  else if (carry->len > 0)
    check_line (self, &state, (const char *) carry->data, carry->len, line_offset, line_number,
                TRUE);
  publish (self, &state);

  return TRUE;
}

/**
 * tb_trace_reader_index:
 * @self: a reader
 * @cancellable: (nullable): a cancellable
 * @error: return location for an I/O error
 *
 * Reads the whole file once, remembering where each event is and checking
 * that it parses. Damaged lines are left out and reported by
 * tb_trace_reader_get_problems(); they are not an error.
 *
 * Returns: %TRUE when the file could be read to its end
 */
gboolean
tb_trace_reader_index (TbTraceReader  *self,
                       GCancellable   *cancellable,
                       GError        **error)
{
  gboolean ok;

  g_return_val_if_fail (TB_IS_TRACE_READER (self), FALSE);
  g_return_val_if_fail (!self->indexing && !self->indexed, FALSE);

  self->indexing = TRUE;
  ok = index_events (self, cancellable, error);
  self->indexing = FALSE;
  self->indexed = ok;

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_EVENTS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_INDEXED]);

  return ok;
}

static void
index_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;

  if (index_events (source_object, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
index_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  TbTraceReader *self = TB_TRACE_READER (object);
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  gboolean ok;

  ok = g_task_propagate_boolean (G_TASK (result), &error);
  g_clear_handle_id (&self->notify_source, g_source_remove);
  g_clear_pointer (&self->notify_context, g_main_context_unref);
  self->indexing = FALSE;
  self->indexed = ok;

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_EVENTS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_INDEXED]);

  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * tb_trace_reader_index_async:
 * @self: a reader
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the whole file is indexed
 * @user_data: data for @callback
 *
 * Like tb_trace_reader_index() on a worker thread. Events can be read
 * while it runs: #TbTraceReader:n-events grows as they are found.
 */
void
tb_trace_reader_index_async (TbTraceReader       *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autoptr(GTask) inner = NULL;

  g_return_if_fail (TB_IS_TRACE_READER (self));
  g_return_if_fail (!self->indexing && !self->indexed);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, tb_trace_reader_index_async);

  self->indexing = TRUE;
  self->notify_context = g_main_context_ref_thread_default ();
  self->notify_source = g_timeout_add (50, notify_progress, self);

  inner = g_task_new (self, cancellable, index_done, g_steal_pointer (&outer));
  g_task_run_in_thread (inner, index_thread);
}

/**
 * tb_trace_reader_index_finish:
 * @self: a reader
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Ends tb_trace_reader_index_async().
 *
 * Returns: %TRUE when the file was indexed to its end
 */
gboolean
tb_trace_reader_index_finish (TbTraceReader  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  g_return_val_if_fail (TB_IS_TRACE_READER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * tb_trace_reader_get_indexed:
 * @self: a reader
 *
 * Tells whether the whole file was indexed (#TbTraceReader:indexed).
 *
 * Returns: %TRUE once indexing reached the end of the file
 */
gboolean
tb_trace_reader_get_indexed (TbTraceReader *self)
{
  g_return_val_if_fail (TB_IS_TRACE_READER (self), FALSE);
  return self->indexed;
}

/**
 * tb_trace_reader_get_n_events:
 * @self: a reader
 *
 * Counts the events the reader can give.
 *
 * Returns: the number of readable events indexed so far
 */
guint
tb_trace_reader_get_n_events (TbTraceReader *self)
{
  guint n;

  g_return_val_if_fail (TB_IS_TRACE_READER (self), 0);

  g_mutex_lock (&self->lock);
  n = self->entries->len;
  g_mutex_unlock (&self->lock);

  return n;
}

/* Indexing only scanned the line; this is where it is parsed. */
static JsonObject *
parse_event (const char  *text,
             gsize        length,
             guint        line,
             GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) parse_error = NULL;

  node = tb_json_parse_full (text, length, TB_TRACE_MAX_LINE, TB_TRACE_MAX_DEPTH, &parse_error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      tb_json_object_get_string (json_node_get_object (node), "type") == NULL)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED,
                   /* Translators: %u is a line number, %s what is wrong with it */
                   _("Line %u of the trace cannot be read: %s"), line,
                   parse_error != NULL ? parse_error->message
                                       : _("it changed since the trace was opened"));
      return NULL;
    }

  return json_object_ref (json_node_get_object (node));
}

/**
 * tb_trace_reader_read_event:
 * @self: a reader
 * @position: an event's position, below tb_trace_reader_get_n_events()
 * @error: return location for an error
 *
 * Parses one event from the file. Safe from any thread.
 *
 * Returns: (transfer full) (nullable): the event line as an object
 */
JsonObject *
tb_trace_reader_read_event (TbTraceReader  *self,
                            guint           position,
                            GError        **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  guint line = 0;

  g_return_val_if_fail (TB_IS_TRACE_READER (self), NULL);

  text = _tb_trace_reader_read_line (self, position, &length, &line, error);
  if (text == NULL)
    return NULL;
  return parse_event (text, length, line, error);
}

/**
 * tb_trace_reader_read_outline:
 * @self: a reader
 * @position: an event's position, below tb_trace_reader_get_n_events()
 * @error: return location for an error
 *
 * Reads what places one event in the trace's tree without parsing the
 * rest of its line: "type", "iteration", "origin", "decision",
 * "direction", "call_id", "id" of "call", "tool_call_id" of "message"
 * and "ok" of "result", with the values tb_trace_reader_read_event()
 * would give them (an object may hold more members; a line the scan
 * cannot read as the parser would is parsed). Listing a large file's
 * events in a tree is several times faster this way. Safe from any
 * thread.
 *
 * Returns: (transfer full) (nullable): those members of the event
 */
JsonObject *
tb_trace_reader_read_outline (TbTraceReader  *self,
                              guint           position,
                              GError        **error)
{
  g_autofree char *text = NULL;
  JsonObject *outline = NULL;
  gsize length = 0;
  guint line = 0;

  g_return_val_if_fail (TB_IS_TRACE_READER (self), NULL);

  text = _tb_trace_reader_read_line (self, position, &length, &line, error);
  if (text == NULL)
    return NULL;
  if (length <= TB_TRACE_MAX_LINE &&
      _tb_trace_scan_outline (text, length, TB_TRACE_MAX_DEPTH, &outline))
    return outline;
  return parse_event (text, length, line, error);
}

/* The text of event @position's line, nul-terminated and not parsed;
 * @line_number is where it is in the file. */
char *
_tb_trace_reader_read_line (TbTraceReader  *self,
                            guint           position,
                            gsize          *length,
                            guint          *line_number,
                            GError        **error)
{
  g_autofree char *buffer = NULL;
  Entry entry;

  g_mutex_lock (&self->lock);
  if (position >= self->entries->len)
    {
      g_mutex_unlock (&self->lock);
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED,
                   _("The trace has no event %u"), position);
      return NULL;
    }
  entry = g_array_index (self->entries, Entry, position);
  g_mutex_unlock (&self->lock);

  buffer = g_malloc (entry.length + 1);
  if (read_at (self->fd, buffer, entry.length, entry.offset) != (gssize) entry.length)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED,
                   _("Line %u of the trace changed since it was opened"), entry.line);
      return NULL;
    }
  buffer[entry.length] = '\0';
  *length = entry.length;
  *line_number = entry.line;
  return g_steal_pointer (&buffer);
}

/**
 * tb_trace_reader_get_problems:
 * @self: a reader
 *
 * Lists what was wrong with the file: damaged lines, events out of order.
 *
 * Returns: (transfer full): what was wrong with the file, a sentence each,
 *   in file order (at most 1,000)
 */
char **
tb_trace_reader_get_problems (TbTraceReader *self)
{
  char **problems;

  g_return_val_if_fail (TB_IS_TRACE_READER (self), NULL);

  g_mutex_lock (&self->lock);
  problems = g_new0 (char *, self->problems->len + 1);
  for (guint i = 0; i < self->problems->len; i++)
    problems[i] = g_strdup (g_ptr_array_index (self->problems, i));
  g_mutex_unlock (&self->lock);

  return problems;
}
