/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The events of a recorded trace that no longer stay in memory: where
 * their lines are in the file (one offset every CHECKPOINT_EVERY lines,
 * so that what is kept does not grow with the run), and reading one back
 * as the event it was written from. */

#define G_LOG_DOMAIN "tb-trace"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tb-json.h"
#include "tb-trace-file.h"
#include "tb-trace-private.h"

#define CHECKPOINT_EVERY 32
/* A line is read a small piece at a time, larger pieces for long lines:
 * reading back an event must not cost a large read each time. */
#define READ_FIRST (8 * 1024)
#define READ_CHUNK (64 * 1024)

struct _TbTraceBacking
{
  gint     ref_count;
  char    *path;
  int      fd;
  GArray  *checkpoints;   /* guint64: the offset of line k * CHECKPOINT_EVERY */
  guint    n_lines;
  /* Where the line after the last one read starts: reading in order does
   * not go back to a checkpoint. */
  guint    next_position;
  guint64  next_offset;
  char    *buffer;        /* READ_CHUNK bytes, for finding lines */
};

TbTraceBacking *
_tb_trace_backing_new (const char *path)
{
  TbTraceBacking *self = g_new0 (TbTraceBacking, 1);

  self->ref_count = 1;
  self->path = g_strdup (path);
  self->fd = -1;
  self->checkpoints = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->next_position = G_MAXUINT;
  return self;
}

TbTraceBacking *
_tb_trace_backing_ref (TbTraceBacking *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
_tb_trace_backing_unref (TbTraceBacking *self)
{
  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;

  if (self->fd >= 0)
    g_close (self->fd, NULL);
  g_free (self->path);
  g_array_unref (self->checkpoints);
  g_free (self->buffer);
  g_free (self);
}

/* The next event's line was written at @offset. */
void
_tb_trace_backing_add (TbTraceBacking *self,
                       guint64         offset)
{
  if (self->n_lines % CHECKPOINT_EVERY == 0)
    g_array_append_val (self->checkpoints, offset);
  self->n_lines++;
}

guint
_tb_trace_backing_get_n_lines (TbTraceBacking *self)
{
  return self->n_lines;
}

/* An event line: "seq", "t" and "type", and the payload. */
TbTraceEvent *
_tb_trace_event_from_line (JsonObject *line,
                           guint64     fallback_seq)
{
  g_autoptr(JsonObject) payload = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;
  JsonNode *seq = json_object_get_member (line, "seq");
  JsonNode *t = json_object_get_member (line, "t");

  json_object_iter_init (&iter, line);
  while (json_object_iter_next (&iter, &member, &value))
    if (!g_str_equal (member, "seq") && !g_str_equal (member, "t") &&
        !g_str_equal (member, "type"))
      json_object_set_member (payload, member, json_node_ref (value));

  return tb_trace_event_new (seq != NULL && JSON_NODE_HOLDS_VALUE (seq) &&
                             json_node_get_value_type (seq) == G_TYPE_INT64
                             ? (guint64) MAX (json_node_get_int (seq), 0) : fallback_seq,
                             t != NULL && JSON_NODE_HOLDS_VALUE (t) &&
                             json_node_get_value_type (t) == G_TYPE_INT64
                             ? json_node_get_int (t) : 0,
                             tb_json_object_get_string (line, "type"),
                             payload);
}

/* Finds where line @position starts and how long it is; when the whole
 * line came in the piece that found its end, also gives its text
 * (@text, NUL-terminated), so that it is not read a second time. */
static gboolean
locate (TbTraceBacking  *self,
        guint            position,
        guint64         *start,
        gsize           *length,
        char           **text,
        GError         **error)
{
  char *buffer;
  gsize chunk = READ_FIRST;
  guint64 offset;
  guint line;

  /* From the line after the last one read when that is on the way (a
   * replay reads forwards), otherwise from the checkpoint before. */
  if (self->next_position <= position &&
      self->next_position >= position - position % CHECKPOINT_EVERY)
    {
      offset = self->next_offset;
      line = self->next_position;
    }
  else
    {
      offset = g_array_index (self->checkpoints, guint64, position / CHECKPOINT_EVERY);
      line = position - position % CHECKPOINT_EVERY;
    }

  if (self->buffer == NULL)
    self->buffer = g_malloc (READ_CHUNK);
  buffer = self->buffer;
  *text = NULL;
  *start = offset;
  for (;;)
    {
      gssize n = pread (self->fd, buffer, chunk, offset);
      const char *p = buffer;
      const char *newline;

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved),
                               g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                               _("the file is shorter than what was written to it"));
          return FALSE;
        }

      while ((newline = memchr (p, '\n', buffer + n - p)) != NULL)
        {
          guint64 end = offset + (newline - buffer);

          if (line == position)
            {
              if (end - *start > TB_TRACE_MAX_LINE)
                {
                  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                                       _("its line is longer than a trace line may be"));
                  return FALSE;
                }
              *length = end - *start;
              if (*start >= offset)
                {
                  *text = g_malloc (*length + 1);
                  memcpy (*text, buffer + (*start - offset), *length);
                  (*text)[*length] = '\0';
                }
              self->next_position = position + 1;
              self->next_offset = end + 1;
              return TRUE;
            }
          line++;
          *start = end + 1;
          p = newline + 1;
        }
      offset += n;
      chunk = MIN (chunk * 2, READ_CHUNK);
    }
}

/* A line as the writer writes it, `{"seq":N,"t":T,"type":"…"` and then
 * the payload's members, checked already: the event, its payload kept
 * as text to be parsed when asked for. %NULL for any other line. */
static TbTraceEvent *
event_from_written_line (char  *text,
                         gsize  length)
{
  const char *p = text;
  const char *end = text + length;
  const char *type;
  const char *type_end;
  char *rest;
  guint64 seq;
  gint64 t;
  g_autofree char *type_text = NULL;
  char *payload;

  if (!g_str_has_prefix (p, "{\"seq\":"))
    return NULL;
  seq = g_ascii_strtoull (p + 7, &rest, 10);
  if (rest == p + 7 || !g_str_has_prefix (rest, ",\"t\":"))
    return NULL;
  p = rest + 5;
  t = g_ascii_strtoll (p, &rest, 10);
  if (rest == p || !g_str_has_prefix (rest, ",\"type\":\""))
    return NULL;
  type = rest + 9;
  for (type_end = type; type_end < end && *type_end != '"'; type_end++)
    if (*type_end == '\\')
      return NULL;
  if (type_end >= end - 1 || type_end == type)
    return NULL;
  type_text = g_strndup (type, type_end - type);

  /* {"a":…} from ,"a":…} and {} from } */
  if (type_end[1] == '}')
    payload = g_strdup ("{}");
  else if (type_end[1] == ',')
    payload = g_strdup_printf ("{%.*s", (int) (end - type_end - 2), type_end + 2);
  else
    return NULL;

  return _tb_trace_event_new_text (seq, t, type_text, payload, strlen (payload));
}

/* The event a line of the file holds (@text, nul-terminated): checked,
 * its payload kept as text when the writer wrote it. %NULL with @error
 * when the line is no longer an event; @line_number names it. */
TbTraceEvent *
_tb_trace_event_from_text (char     *text,
                           gsize     length,
                           guint64   fallback_seq,
                           guint     line_number,
                           GError  **error)
{
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(JsonNode) node = NULL;

  /* Checking the line is much cheaper than parsing it, and most events
   * read back (a replay reading a run) are asked only their type, or a
   * few of their members. */
  if (tb_json_check_text (text, length, TB_TRACE_MAX_DEPTH, &parse_error))
    {
      TbTraceEvent *event = event_from_written_line (text, length);

      if (event != NULL)
        return event;
      node = tb_json_parse_full (text, length, TB_TRACE_MAX_LINE, TB_TRACE_MAX_DEPTH,
                                 &parse_error);
    }
  if (node == NULL)
    {
      g_set_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED,
                   /* Translators: %u is a line number, %s why it does not read */
                   _("line %u has changed since it was written (%s)"), line_number,
                   parse_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node) ||
      tb_json_object_get_string (json_node_get_object (node), "type") == NULL)
    {
      g_set_error_literal (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED,
                           _("its line is not a trace event"));
      return NULL;
    }
  return _tb_trace_event_from_line (json_node_get_object (node), fallback_seq);
}

/* What a view shows for event @position of @path when it cannot be read
 * back: an "incomplete" event that says why. */
TbTraceEvent *
_tb_trace_event_new_unreadable (guint         position,
                                const char   *path,
                                const GError *error)
{
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autofree char *reason = g_strdup_printf (_("Event %u can no longer be read from “%s”: %s"),
                                             position + 1, path, error->message);

  json_object_set_string_member (payload, "reason", reason);
  return tb_trace_event_new (position + 1, 0, "incomplete", payload);
}

/* Never NULL: an event that cannot be read back becomes an "incomplete"
 * event that says why, so a view shows the gap instead of failing. */
TbTraceEvent *
_tb_trace_backing_read (TbTraceBacking *self,
                        guint           position)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint64 start = 0;
  gsize length = 0;

  if (self->fd < 0)
    {
      self->fd = g_open (self->path, O_RDONLY | O_CLOEXEC, 0);
      if (self->fd < 0)
        {
          int saved = errno;

          g_set_error_literal (&error, G_IO_ERROR, g_io_error_from_errno (saved),
                               g_strerror (saved));
        }
    }

  if (error == NULL && position < self->n_lines &&
      locate (self, position, &start, &length, &text, &error))
    {
      if (text == NULL)
        {
          text = g_malloc (length + 1);
          if (pread (self->fd, text, length, start) != (gssize) length)
            g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                                 _("the file is shorter than what was written to it"));
          else
            text[length] = '\0';
        }
      if (error == NULL)
        {
          TbTraceEvent *event;

          /* The header is line 1: event k is on line k + 1. */
          event = _tb_trace_event_from_text (text, length, position + 1, position + 2, &error);
          if (event != NULL)
            return event;
        }
    }
  else if (error == NULL)
    {
      g_set_error_literal (&error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED,
                           _("it was never written to the file"));
    }

  self->next_position = G_MAXUINT;
  return _tb_trace_event_new_unreadable (position, self->path, error);
}
