/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Writing a trace file: one line a event, handed to the kernel at once,
 * fsynced on a policy (docs/trace-format.md). */

#define G_LOG_DOMAIN "tb-trace-file"

#include "config.h"

/* PRId64: the one 64-bit format xgettext understands in a message */
#include <inttypes.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tb-io-private.h"
#include "tb-json.h"
#include "tb-redact-private.h"
#include "tb-trace-file-private.h"
#include "tb-trace-line-private.h"
#include "tb-trace-private.h"
#include "tb-trace-writer.h"

/* Says why a write just failed, from errno. */
static gboolean
write_failed (GError **error)
{
  int saved = errno;

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               _("Cannot write the trace: %s"), g_strerror (saved));
  return FALSE;
}

/* Writes a line or a header whole, or says why not. */
static gboolean
write_all (int          fd,
           const char  *data,
           gsize        length,
           GError     **error)
{
  return _tb_write_all (fd, data, length) || write_failed (error);
}

struct _TbTraceWriter
{
  GObject     parent_instance;

  int         fd;
  char       *path;
  TbRedactor *redactor;
  gint64      started;
  guint64     n_events;
  guint64     size;       /* bytes written, header included */

  guint       sync_every_events;
  guint       sync_every_ms;
  guint       unsynced_events;
  gint64      last_sync;

  /* The members the writer sets, in front of an event's own text. */
  GString    *head;
};

/**
 * TbTraceWriter:
 *
 * Writes a trace file: the header, then one line an event, each handed to
 * the kernel at once and synced to disk as its sync policy says
 * (tb_trace_writer_set_sync_policy()), with secrets masked.
 */
G_DEFINE_FINAL_TYPE (TbTraceWriter, tb_trace_writer, G_TYPE_OBJECT)

static void
tb_trace_writer_finalize (GObject *object)
{
  TbTraceWriter *self = (TbTraceWriter *)object;

  if (self->fd >= 0)
    tb_trace_writer_close (self, NULL);
  g_clear_object (&self->redactor);
  g_clear_pointer (&self->path, g_free);
  g_string_free (self->head, TRUE);

  G_OBJECT_CLASS (tb_trace_writer_parent_class)->finalize (object);
}

static void
tb_trace_writer_class_init (TbTraceWriterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_trace_writer_finalize;
}

static void
tb_trace_writer_init (TbTraceWriter *self)
{
  self->fd = -1;
  self->sync_every_events = 1000;
  self->sync_every_ms = 1000;
  self->head = g_string_sized_new (64);
}

/* One line of the file, newline included. */
static GString *
line_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;
  GString *line;

  json_node_set_object (node, object);
  text = tb_json_to_string (node, FALSE);
  line = g_string_new_len (text, strlen (text));
  g_string_append_c (line, '\n');
  return line;
}

/* What a reader accepts, so that nothing is written that cannot be read
 * back: the line's size, depth and number of values. */
static gboolean
line_size_ok (gsize    length,
              GError **error)
{
  if (length > TB_TRACE_MAX_LINE)
    {
      g_autofree char *size = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_LARGE,
                   /* Translators: %s is a size such as "70.2 MiB", %u a number of MiB */
                   _("it is %s, larger than the %u MiB a trace line may hold"),
                   size, TB_TRACE_MAX_LINE / (1024 * 1024));
      return FALSE;
    }
  return TRUE;
}

static gboolean
line_readable (GString  *line,
               GError  **error)
{
  return line_size_ok (line->len - 1, error) &&
         tb_json_check_text (line->str, line->len - 1, TB_TRACE_MAX_DEPTH, error);
}

static gboolean
write_line (TbTraceWriter  *self,
            GString        *line,
            GError        **error)
{
  if (!write_all (self->fd, line->str, line->len, error))
    return FALSE;
  self->size += line->len;
  return TRUE;
}

static gboolean
write_object (TbTraceWriter  *self,
              JsonObject     *object,
              GError        **error)
{
  g_autoptr(GString) line = line_text (object);

  return write_line (self, line, error);
}

/* Where the next line goes: the size of what was written. */
guint64
_tb_trace_writer_get_size (TbTraceWriter *self)
{
  return self->size;
}

/* An event that a reader could not read back is replaced by an
 * "incomplete" event saying what was left out and why, so that the file
 * says it is incomplete instead of silently missing an event. */
static gboolean
write_incomplete (TbTraceWriter  *self,
                  const char     *event_type,
                  const GError   *reason,
                  GError        **error)
{
  g_autoptr(JsonObject) line = json_object_new ();
  g_autofree char *message = g_strdup_printf (_("The “%s” event %lu cannot be recorded: %s"),
                                              event_type, (gulong) self->n_events + 1,
                                              reason->message);

  json_object_set_int_member (line, "seq", (gint64) self->n_events + 1);
  json_object_set_int_member (line, "t", g_get_monotonic_time () - self->started);
  json_object_set_string_member (line, "type", "incomplete");
  json_object_set_string_member (line, "event_type", event_type);
  json_object_set_string_member (line, "reason", message);
  if (!write_object (self, line, error))
    return FALSE;
  self->n_events++;
  self->unsynced_events++;

  g_set_error_literal (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_UNRECORDABLE, message);
  return FALSE;
}

/**
 * tb_trace_writer_new:
 * @file: where to write; replaced if it exists
 * @header: (nullable): members of the header line ("tools", "provider",
 *   "parent", …); "format", "version" and "created" are set by the writer
 * @redactor: (nullable): removes secrets from every line; a new one when
 *   %NULL, which still removes credential-shaped values
 * @error: return location for an error
 *
 * Makes a writer of a new trace file and writes its header.
 *
 * Returns: (transfer full) (nullable): a writer that has written the header
 */
TbTraceWriter *
tb_trace_writer_new (GFile       *file,
                     JsonObject  *header,
                     TbRedactor  *redactor,
                     GError     **error)
{
  g_autoptr(TbTraceWriter) self = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *created = g_date_time_format_iso8601 (now);
  g_autoptr(JsonObject) line = json_object_new ();

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (TB_TYPE_TRACE_WRITER, NULL);
  self->redactor = redactor != NULL ? g_object_ref (redactor) : tb_redactor_new ();
  self->fd = _tb_trace_file_open_local (file, O_WRONLY | O_CREAT | O_TRUNC,
                         _("Traces can only be written to local files"), &self->path, error);
  if (self->fd < 0)
    return NULL;

  json_object_set_string_member (line, "format", "toolbench-trace");
  json_object_set_int_member (line, "version", TB_TRACE_FORMAT_VERSION);
  json_object_set_string_member (line, "created", created);

  if (header != NULL)
    {
      g_autoptr(JsonNode) wrapped = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonNode) clean = NULL;
      g_autoptr(GList) names = NULL;
      JsonObject *clean_object;

      json_node_set_object (wrapped, header);
      clean = tb_redactor_redact_node (self->redactor, wrapped);
      clean_object = json_node_get_object (clean);
      names = json_object_get_members (clean_object);
      for (const GList *l = names; l != NULL; l = l->next)
        if (!g_str_equal (l->data, "format") && !g_str_equal (l->data, "version") &&
            !g_str_equal (l->data, "created"))
          json_object_set_member (line, l->data,
                                  json_node_ref (json_object_get_member (clean_object, l->data)));
    }

  if (!write_object (self, line, error))
    return NULL;

  self->started = g_get_monotonic_time ();
  self->last_sync = self->started;

  return g_steal_pointer (&self);
}

/**
 * tb_trace_writer_set_sync_policy:
 * @self: a writer
 * @every_n_events: fsync after this many events (0: never by count)
 * @every_ms: fsync when this long has passed since the last (0: never by time)
 *
 * Every event is written to the kernel at once regardless; this decides
 * when it is forced to the disk. The end event and close always sync.
 * The default is 1,000 events or one second: fsync costs milliseconds,
 * and what write() handed to the kernel already survives a crash of the
 * process; only a crash of the system can lose the unsynced tail.
 */
void
tb_trace_writer_set_sync_policy (TbTraceWriter *self,
                                 guint          every_n_events,
                                 guint          every_ms)
{
  g_return_if_fail (TB_IS_TRACE_WRITER (self));

  self->sync_every_events = every_n_events;
  self->sync_every_ms = every_ms;
}

/**
 * tb_trace_writer_sync:
 * @self: a writer
 * @error: return location for a %TB_TRACE_FILE_ERROR_CLOSED or #GIOError error
 *
 * Syncs what was written to disk now, whatever the sync policy.
 *
 * Returns: %TRUE when the file is on disk
 */
gboolean
tb_trace_writer_sync (TbTraceWriter  *self,
                      GError        **error)
{
  g_return_val_if_fail (TB_IS_TRACE_WRITER (self), FALSE);

  if (self->fd < 0)
    {
      g_set_error_literal (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_CLOSED,
                           _("The trace is already closed"));
      return FALSE;
    }

  if (fsync (self->fd) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot save the trace to disk: %s"), g_strerror (saved));
      return FALSE;
    }

  self->unsynced_events = 0;
  self->last_sync = g_get_monotonic_time ();
  return TRUE;
}

/* An event line is in the file: counted, and synced as the policy says. */
static gboolean
count_line (TbTraceWriter  *self,
            const char     *type,
            gint64          now,
            GError        **error)
{
  self->n_events++;
  self->unsynced_events++;

  if (g_str_equal (type, "end") ||
      (self->sync_every_events > 0 && self->unsynced_events >= self->sync_every_events) ||
      (self->sync_every_ms > 0 && now - self->last_sync >= (gint64) self->sync_every_ms * 1000))
    return tb_trace_writer_sync (self, error);

  return TRUE;
}

/* Checks, writes and counts one line, and syncs on the policy. */
static gboolean
finish_line (TbTraceWriter  *self,
             const char     *type,
             GString        *text,
             gint64          now,
             GError        **error)
{
  g_autoptr(GError) reason = NULL;

  if (!line_readable (text, &reason))
    return write_incomplete (self, type, reason, error);
  if (!write_line (self, text, error))
    return FALSE;
  return count_line (self, type, now, error);
}

/**
 * tb_trace_writer_append:
 * @self: a writer
 * @event: an object with a string member "type"; an integer "t"
 *   (microseconds since the trace began) is kept, otherwise the writer
 *   sets it; "seq" is always set by the writer, 1 for the first event
 * @error: return location for an error
 *
 * Redacts and writes one event line.
 *
 * Returns: %TRUE when the line reached the kernel
 */
gboolean
tb_trace_writer_append (TbTraceWriter  *self,
                        JsonObject     *event,
                        GError        **error)
{
  g_autoptr(JsonNode) wrapped = NULL;
  g_autoptr(JsonNode) clean = NULL;
  g_autoptr(JsonObject) line = NULL;
  g_autoptr(GList) names = NULL;
  g_autoptr(GString) text = NULL;
  g_autoptr(GError) reason = NULL;
  JsonObject *clean_object;
  JsonNode *type;
  JsonNode *t;
  gint64 now;

  g_return_val_if_fail (TB_IS_TRACE_WRITER (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (self->fd < 0)
    {
      g_set_error_literal (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_CLOSED,
                           _("The trace is already closed"));
      return FALSE;
    }

  type = json_object_get_member (event, "type");
  if (type == NULL || !JSON_NODE_HOLDS_VALUE (type) ||
      json_node_get_value_type (type) != G_TYPE_STRING ||
      json_node_get_string (type)[0] == '\0')
    {
      g_set_error_literal (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_INVALID_EVENT,
                           _("A trace event needs a “type”"));
      return FALSE;
    }

  wrapped = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (wrapped, event);
  if (!tb_json_node_depth_ok (wrapped, TB_TRACE_MAX_DEPTH - 1))
    {
      g_set_error (&reason, TB_JSON_ERROR, TB_JSON_ERROR_TOO_DEEP,
                   /* Translators: %u is a number of levels */
                   _("it nests more than %u levels deep"), TB_TRACE_MAX_DEPTH - 1);
      return write_incomplete (self, json_node_get_string (type), reason, error);
    }
  /* Shares what has nothing secret in it: the line is only written out. */
  clean = _tb_redactor_redact_node_shared (self->redactor, wrapped);
  clean_object = json_node_get_object (clean);

  now = g_get_monotonic_time ();
  line = json_object_new ();
  json_object_set_int_member (line, "seq", (gint64) self->n_events + 1);
  t = json_object_get_member (event, "t");
  if (t != NULL && JSON_NODE_HOLDS_VALUE (t) && json_node_get_value_type (t) == G_TYPE_INT64)
    json_object_set_int_member (line, "t", json_node_get_int (t));
  else
    json_object_set_int_member (line, "t", now - self->started);
  json_object_set_string_member (line, "type", json_node_get_string (type));

  names = json_object_get_members (clean_object);
  for (const GList *l = names; l != NULL; l = l->next)
    if (!g_str_equal (l->data, "seq") && !g_str_equal (l->data, "t") &&
        !g_str_equal (l->data, "type"))
      json_object_set_member (line, l->data,
                              json_node_ref (json_object_get_member (clean_object, l->data)));

  text = line_text (line);
  return finish_line (self, json_node_get_string (type), text, now, error);
}

/* The payload members the writer sets itself. */
static gboolean
sets_own_member (JsonObject *payload)
{
  return json_object_has_member (payload, "seq") || json_object_has_member (payload, "t") ||
         json_object_has_member (payload, "type");
}

/* Writes the line {"seq", "t", "type", …@payload's members}: the three
 * members the writer sets, then @payload (JSON text of an object, clean
 * of secrets) after its opening brace, then the newline, in one writev()
 * and without copying @payload. The line is the payload's object with
 * three members more, so it is as readable as the payload is. */
static gboolean
write_text_event (TbTraceWriter  *self,
                  const char     *type,
                  gint64          time_us,
                  const char     *payload,
                  gsize           length,
                  GError        **error)
{
  g_autoptr(GError) reason = NULL;
  GString *head = self->head;
  struct iovec parts[3];

  g_string_truncate (head, 0);
  g_string_append_len (head, "{\"seq\":", 7);
  _tb_trace_line_append_int (head, (gint64) self->n_events + 1);
  g_string_append_len (head, ",\"t\":", 5);
  _tb_trace_line_append_int (head, time_us);
  g_string_append_len (head, ",\"type\":", 8);
  _tb_trace_line_append_string (head, type);
  if (length > 2)
    g_string_append_c (head, ',');

  if (!line_size_ok (head->len + length - 1, &reason) ||
      !tb_json_check_text (payload, length, TB_TRACE_MAX_DEPTH, &reason))
    return write_incomplete (self, type, reason, error);

  parts[0] = (struct iovec) { head->str, head->len };
  parts[1] = (struct iovec) { (char *) payload + 1, length - 1 };
  parts[2] = (struct iovec) { (char *) "\n", 1 };
  if (!_tb_writev_all (self->fd, parts, G_N_ELEMENTS (parts)))
    return write_failed (error);
  self->size += head->len + length;
  return count_line (self, type, g_get_monotonic_time (), error);
}

/* Writes @event as tb_trace_writer_append() writes the object
 * {"type", "t", …payload}, without building that object: the payload is
 * redacted sharing what is clean and written after the three members the
 * writer sets. This is how a recorder writes a run as it happens. */
gboolean
_tb_trace_writer_append_event (TbTraceWriter  *self,
                               TbTraceEvent   *event,
                               GError        **error)
{
  const char *type = tb_trace_event_get_event_type (event);
  JsonObject *payload;
  g_autoptr(JsonNode) wrapped = NULL;
  g_autoptr(JsonNode) clean = NULL;
  g_autoptr(JsonNode) type_node = NULL;
  g_autoptr(GError) reason = NULL;
  g_autofree char *body = NULL;
  g_autofree char *type_text = NULL;
  GString *text;

  gsize text_length = 0;
  const char *payload_text = _tb_trace_event_peek_text (event, &text_length);

  /* Text the loop wrote, with nothing in it to redact, goes out as it is:
   * the same bytes the tree would be written as, without the tree. Its
   * members are never the writer's own. */
  if (payload_text != NULL && self->fd >= 0 && type[0] != '\0' &&
      _tb_redactor_json_text_is_clean (self->redactor, payload_text, text_length))
    return write_text_event (self, type, tb_trace_event_get_time_us (event), payload_text,
                             text_length, error);

  payload = tb_trace_event_get_payload (event);
  if (self->fd < 0 || type[0] == '\0' || sets_own_member (payload))
    {
      g_autoptr(JsonObject) line = json_object_new ();
      g_autoptr(GList) names = json_object_get_members (payload);

      json_object_set_string_member (line, "type", type);
      json_object_set_int_member (line, "t", tb_trace_event_get_time_us (event));
      for (const GList *l = names; l != NULL; l = l->next)
        if (!json_object_has_member (line, l->data))
          json_object_set_member (line, l->data,
                                  json_node_ref (json_object_get_member (payload, l->data)));
      return tb_trace_writer_append (self, line, error);
    }

  wrapped = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (wrapped, payload);
  if (!tb_json_node_depth_ok (wrapped, TB_TRACE_MAX_DEPTH - 1))
    {
      g_set_error (&reason, TB_JSON_ERROR, TB_JSON_ERROR_TOO_DEEP,
                   /* Translators: %u is a number of levels */
                   _("it nests more than %u levels deep"), TB_TRACE_MAX_DEPTH - 1);
      return write_incomplete (self, type, reason, error);
    }
  clean = _tb_redactor_redact_node_shared (self->redactor, wrapped);
  body = tb_json_to_string (clean, FALSE);
  type_node = tb_json_node_new_string (type);
  type_text = tb_json_to_string (type_node, FALSE);

  text = g_string_sized_new (strlen (body) + strlen (type_text) + 64);
  g_string_append_printf (text, "{\"seq\":%" G_GUINT64_FORMAT ",\"t\":%" G_GINT64_FORMAT
                          ",\"type\":%s", self->n_events + 1, tb_trace_event_get_time_us (event),
                          type_text);
  /* body is "{…}": its members follow the writer's own. */
  if (body[1] != '}')
    g_string_append_c (text, ',');
  g_string_append (text, body + 1);
  g_string_append_c (text, '\n');

  {
    g_autoptr(GString) owned = text;

    return finish_line (self, type, owned, g_get_monotonic_time (), error);
  }
}

/**
 * tb_trace_writer_get_n_events:
 * @self: a writer
 *
 * Counts the events written.
 *
 * Returns: the number of events
 */
guint64
tb_trace_writer_get_n_events (TbTraceWriter *self)
{
  g_return_val_if_fail (TB_IS_TRACE_WRITER (self), 0);
  return self->n_events;
}

/**
 * tb_trace_writer_close:
 * @self: a writer
 * @error: return location for an error
 *
 * Syncs and closes the file. Closing twice is harmless.
 *
 * Returns: %TRUE when everything was written and synced
 */
gboolean
tb_trace_writer_close (TbTraceWriter  *self,
                       GError        **error)
{
  gboolean ok;

  g_return_val_if_fail (TB_IS_TRACE_WRITER (self), FALSE);

  if (self->fd < 0)
    return TRUE;

  ok = tb_trace_writer_sync (self, error);
  g_close (self->fd, NULL);
  self->fd = -1;
  return ok;
}
