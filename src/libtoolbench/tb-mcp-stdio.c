/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The stdio transport: the server is a child process (on the host when
 * inside a Flatpak) that reads one JSON-RPC message a line on its standard
 * input and writes one a line on its standard output; its standard error
 * goes to the server's log. */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tb-host-private.h"
#include "tb-json.h"
#include "tb-mcp-client-private.h"
#include "tb-mcp-wire-private.h"
#include "tb-text.h"

static void write_next (TbMcpClient *self);

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TbMcpClient) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          G_OUTPUT_STREAM (object) == self->stdin_pipe)
        {
          g_autofree char *cause =
            g_strdup_printf (_("stopped reading its input (%s)"), error->message);

          _tb_mcp_client_fail (self, TB_MCP_ERROR_DISCONNECTED, cause);
        }
      return;
    }

  if (G_OUTPUT_STREAM (object) != self->stdin_pipe)
    return;

  g_bytes_unref (g_queue_pop_head (&self->write_queue));
  self->writing = FALSE;
  write_next (self);
}

static void
write_next (TbMcpClient *self)
{
  GBytes *bytes;

  if (self->writing || self->stdin_pipe == NULL)
    return;
  bytes = g_queue_peek_head (&self->write_queue);
  if (bytes == NULL)
    return;
  self->writing = TRUE;
  g_output_stream_write_all_async (self->stdin_pipe,
                                   g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   G_PRIORITY_DEFAULT, self->io_cancellable,
                                   write_cb, g_object_ref (self));
}

/* Sends one message as a line on the server's standard input, in order. */
void
_tb_mcp_stdio_send (TbMcpClient *self,
                    JsonNode    *message)
{
  g_autofree char *text = NULL;
  gsize len;

  if (self->stdin_pipe == NULL)
    return;

  text = tb_json_to_string (message, FALSE);
  len = strlen (text);
  _tb_mcp_wire_sent (self, message, text, len, FALSE);
  text = g_realloc (text, len + 2);
  text[len] = '\n';
  text[len + 1] = '\0';
  g_queue_push_tail (&self->write_queue, g_bytes_new_take (g_steal_pointer (&text), len + 1));
  write_next (self);
}

/* Ends the connection's process and forgets its pipes. */
void
_tb_mcp_stdio_stop (TbMcpClient *self)
{
  if (self->io_cancellable != NULL)
    g_cancellable_cancel (self->io_cancellable);
  g_clear_object (&self->io_cancellable);
  /* The server goes, and with it everything it started. */
  if (self->process != NULL)
    _tb_host_stop (self->process);
  g_clear_object (&self->process);
  g_clear_object (&self->stdin_pipe);
  g_clear_pointer (&self->out_buf, g_byte_array_unref);
  g_clear_pointer (&self->err_buf, g_byte_array_unref);
  g_queue_clear_full (&self->write_queue, (GDestroyNotify) g_bytes_unref);
  self->writing = FALSE;
  self->stdout_eof = FALSE;
  self->exited = FALSE;
  self->out_scanned = 0;
  self->out_skipping = FALSE;
  g_clear_handle_id (&self->lost_timer, g_source_remove);
}

static void read_stdout (TbMcpClient *self);
static void read_stderr (TbMcpClient *self);

static void
process_lost (TbMcpClient *self)
{
  g_autofree char *cause = NULL;

  g_clear_handle_id (&self->lost_timer, g_source_remove);

  if (self->exited && self->process != NULL)
    {
      if (g_subprocess_get_if_signaled (self->process))
        cause = g_strdup_printf (_("was killed by signal %d (%s)"),
                                 g_subprocess_get_term_sig (self->process),
                                 g_strsignal (g_subprocess_get_term_sig (self->process)));
      else
        cause = g_strdup_printf (_("exited with status %d"),
                                 g_subprocess_get_exit_status (self->process));
    }
  else
    {
      cause = g_strdup (_("closed its standard output"));
    }
  _tb_mcp_client_fail (self, TB_MCP_ERROR_DISCONNECTED, cause);
}

static gboolean
lost_timer_cb (gpointer user_data)
{
  TbMcpClient *self = user_data;

  self->lost_timer = 0;
  process_lost (self);
  return G_SOURCE_REMOVE;
}

/* Exit and end of output come in either order: wait a little for the other
 * so that the cause names the exit status and the last answers are read. */
static void
process_event (TbMcpClient *self)
{
  if (self->stdout_eof && self->exited)
    process_lost (self);
  else if (self->lost_timer == 0)
    self->lost_timer = g_timeout_add (300, lost_timer_cb, self);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(TbMcpClient) self = user_data;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL))
    return;
  if (G_SUBPROCESS (object) != self->process)
    return;
  self->exited = TRUE;
  process_event (self);
}

static gboolean
handle_line (TbMcpClient *self,
             const char  *line,
             gsize        length)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) message = NULL;
  guint generation = self->generation;

  while (length > 0 && (line[length - 1] == '\r' || line[length - 1] == ' '))
    length--;
  if (length == 0)
    return TRUE;

  message = _tb_mcp_parse_message (line, length, &error);
  _tb_mcp_wire_received (self, line, length, message, error ? error->message : NULL, 0);
  if (message == NULL)
    {
      g_autofree char *shown = tb_text_shorten (line, MIN (length, 400), 81);
      g_autofree char *cause = NULL;

      /* JSON that is refused for its size or shape is still a message */
      if (g_error_matches (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_MANY_VALUES) ||
          g_error_matches (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_DEEP) ||
          g_error_matches (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_LARGE))
        cause = g_strdup_printf (_("sent a message that Toolbench does not read: %s"),
                                 error->message);
      else
        /* Translators: the start of the line, then why it is not JSON */
        cause = g_strdup_printf (_("printed something that is not a JSON-RPC message on its "
                                   "standard output: “%s” (%s)"), shown, error->message);

      _tb_mcp_client_fail (self, TB_MCP_ERROR_PROTOCOL, cause);
      return FALSE;
    }

  _tb_mcp_client_receive (self, generation, message);
  return generation == self->generation;
}

static void
stdout_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(TbMcpClient) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize size;
  gsize start = 0;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (self->process == NULL ||
      G_INPUT_STREAM (object) != g_subprocess_get_stdout_pipe (self->process))
    return;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      self->stdout_eof = TRUE;
      process_event (self);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  for (gsize i = 0; i < size; i++)
    {
      if (data[i] != '\n')
        continue;

      if (self->out_skipping)
        {
          self->out_skipping = FALSE;
        }
      else
        {
          g_byte_array_append (self->out_buf, data + start, i - start);
          if (!handle_line (self, (const char *) self->out_buf->data, self->out_buf->len))
            return;
          g_byte_array_set_size (self->out_buf, 0);
        }
      start = i + 1;
    }

  if (!self->out_skipping && start < size)
    g_byte_array_append (self->out_buf, data + start, size - start);

  if (self->out_buf->len > TB_MCP_MAX_MESSAGE_SIZE)
    {
      g_autofree char *limit = g_format_size_full (TB_MCP_MAX_MESSAGE_SIZE,
                                                   G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *cause =
        g_strdup_printf (_("sent a message larger than %s, the most the client keeps"), limit);

      _tb_mcp_wire_received_too_large (self, (const char *) self->out_buf->data,
                                       self->out_buf->len, 0);
      _tb_mcp_client_fail (self, TB_MCP_ERROR_TOO_LARGE, cause);
      return;
    }

  read_stdout (self);
}

static void
read_stdout (TbMcpClient *self)
{
  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (self->process), READ_CHUNK,
                                   G_PRIORITY_DEFAULT, self->io_cancellable,
                                   stdout_cb, g_object_ref (self));
}

static void
stderr_line (TbMcpClient *self,
             const char  *line,
             gsize        length)
{
  g_autofree char *shown = NULL;

  while (length > 0 && line[length - 1] == '\r')
    length--;
  shown = tb_text_shorten (line, length, STDERR_LINE_MAX + 1);
  _tb_mcp_client_log (self, "stderr", "info", shown);
}

static void
stderr_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(TbMcpClient) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *data;
  gsize size;
  gsize start = 0;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);
  if (bytes == NULL || self->process == NULL ||
      G_INPUT_STREAM (object) != g_subprocess_get_stderr_pipe (self->process))
    return;

  if (g_bytes_get_size (bytes) == 0)
    {
      if (self->err_buf->len > 0)
        stderr_line (self, (const char *) self->err_buf->data, self->err_buf->len);
      g_byte_array_set_size (self->err_buf, 0);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  for (gsize i = 0; i < size; i++)
    {
      if (data[i] != '\n')
        continue;
      g_byte_array_append (self->err_buf, data + start, i - start);
      stderr_line (self, (const char *) self->err_buf->data, self->err_buf->len);
      g_byte_array_set_size (self->err_buf, 0);
      start = i + 1;
    }
  if (start < size)
    g_byte_array_append (self->err_buf, data + start, size - start);
  /* A line without end is cut, not kept growing. */
  if (self->err_buf->len > STDERR_LINE_MAX * 4)
    {
      stderr_line (self, (const char *) self->err_buf->data, self->err_buf->len);
      g_byte_array_set_size (self->err_buf, 0);
    }

  g_input_stream_read_bytes_async (G_INPUT_STREAM (object), READ_CHUNK, G_PRIORITY_LOW,
                                   self->io_cancellable, stderr_cb, g_object_ref (self));
}

static void
read_stderr (TbMcpClient *self)
{
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (self->process), READ_CHUNK,
                                   G_PRIORITY_LOW, self->io_cancellable,
                                   stderr_cb, g_object_ref (self));
}

gboolean
_tb_mcp_stdio_start (TbMcpClient  *self,
                     GError      **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) local_error = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');
      g_autofree char *key = NULL;

      if (eq == NULL)
        continue;
      key = g_strndup (self->env[i], eq - self->env[i]);
      g_subprocess_launcher_setenv (launcher, key, eq + 1, TRUE);
    }
  if (self->cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, self->cwd);

  self->process = _tb_host_spawn (launcher, (const char * const *) self->argv, &local_error);
  if (self->process == NULL)
    {
      g_set_error (error, TB_MCP_ERROR, TB_MCP_ERROR_SPAWN,
                   /* Translators: server name, command, reason */
                   _("The MCP server “%s” could not be started (%s): %s"),
                   self->name, self->argv[0], local_error->message);
      return FALSE;
    }

  self->io_cancellable = g_cancellable_new ();
  self->stdin_pipe = g_object_ref (g_subprocess_get_stdin_pipe (self->process));
  self->out_buf = g_byte_array_new ();
  self->err_buf = g_byte_array_new ();
  read_stdout (self);
  read_stderr (self);
  g_subprocess_wait_async (self->process, self->io_cancellable, wait_cb, g_object_ref (self));
  return TRUE;
}
