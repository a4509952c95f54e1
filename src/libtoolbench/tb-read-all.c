/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-read-all"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tb-read-all.h"

/* Reads a stream whole, a piece at a time, and refuses it as soon as it
 * holds more than a limit: an HTTP answer (an MCP server's icon, an
 * authorization server's document) is never read past what its reader
 * accepts. */

#define READ_CHUNK (16 * 1024)

typedef struct
{
  GByteArray *data;
  gsize       max_bytes;
  int         io_priority;
} ReadAll;

static void
read_all_free (gpointer data)
{
  ReadAll *read_all = data;

  g_clear_pointer (&read_all->data, g_byte_array_unref);
  g_free (read_all);
}

static void read_next (GTask *task);

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReadAll *read_all = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) chunk = NULL;

  chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (chunk == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_bytes_get_size (chunk) == 0)
    {
      g_task_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&read_all->data)),
                             (GDestroyNotify) g_bytes_unref);
      return;
    }
  if (read_all->data->len + g_bytes_get_size (chunk) > read_all->max_bytes)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                               /* Translators: a number of bytes */
                               _("It holds more than %" PRIu64 " bytes"),
                               (guint64) read_all->max_bytes);
      return;
    }
  g_byte_array_append (read_all->data, g_bytes_get_data (chunk, NULL), g_bytes_get_size (chunk));
  read_next (g_steal_pointer (&task));
}

static void
read_next (GTask *task)
{
  ReadAll *read_all = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (G_INPUT_STREAM (g_task_get_source_object (task)), READ_CHUNK,
                                   read_all->io_priority, g_task_get_cancellable (task), read_cb,
                                   task);
}

/**
 * tb_input_stream_read_all_async:
 * @stream: a stream, such as an HTTP answer's body
 * @max_bytes: how much it may hold
 * @io_priority: the priority of the reads
 * @cancellable: (nullable): a cancellable
 * @callback: called with everything, or when it is refused
 * @user_data: closure for @callback
 *
 * Reads @stream to its end, a piece at a time, and stops as soon as it
 * holds more than @max_bytes, so that a stream larger than what its
 * reader accepts is never read whole.
 */
void
tb_input_stream_read_all_async (GInputStream        *stream,
                                gsize                max_bytes,
                                int                  io_priority,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ReadAll *read_all;

  g_return_if_fail (G_IS_INPUT_STREAM (stream));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (stream, cancellable, callback, user_data);
  g_task_set_source_tag (task, tb_input_stream_read_all_async);
  read_all = g_new0 (ReadAll, 1);
  read_all->data = g_byte_array_new ();
  read_all->max_bytes = max_bytes;
  read_all->io_priority = io_priority;
  g_task_set_task_data (task, read_all, read_all_free);
  read_next (g_steal_pointer (&task));
}

/**
 * tb_input_stream_read_all_finish:
 * @stream: the stream
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error: %G_IO_ERROR_MESSAGE_TOO_LARGE
 *   when the stream holds more than allowed, or the stream's own
 *
 * Ends tb_input_stream_read_all_async().
 *
 * Returns: (transfer full) (nullable): everything the stream held
 */
GBytes *
tb_input_stream_read_all_finish (GInputStream  *stream,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (g_task_is_valid (result, stream), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
