/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>
#include <toolbench.h>

/* tb_input_stream_read_all_async(): a stream read whole up to a limit,
 * and refused as soon as it holds more, without reading it to its end. */

typedef struct
{
  GBytes *bytes;
  GError *error;
  gboolean done;
} Outcome;

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->bytes = tb_input_stream_read_all_finish (G_INPUT_STREAM (object), result,
                                                    &outcome->error);
  outcome->done = TRUE;
}

static void
read_all (GInputStream *stream,
          gsize         max_bytes,
          GCancellable *cancellable,
          Outcome      *outcome)
{
  memset (outcome, 0, sizeof *outcome);
  tb_input_stream_read_all_async (stream, max_bytes, G_PRIORITY_DEFAULT, cancellable, read_cb,
                                  outcome);
  while (!outcome->done)
    g_main_context_iteration (NULL, TRUE);
}

static GInputStream *
stream_of (gsize length)
{
  char *data = g_malloc (length);

  memset (data, 'x', length);
  return g_memory_input_stream_new_from_data (data, length, g_free);
}

static void
test_whole (void)
{
  g_autoptr(GInputStream) stream = stream_of (100 * 1024);
  g_autoptr(GInputStream) empty = stream_of (0);
  Outcome outcome;

  /* Up to the limit itself. */
  read_all (stream, 100 * 1024, NULL, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_bytes_get_size (outcome.bytes), ==, 100 * 1024);
  g_bytes_unref (outcome.bytes);

  read_all (empty, 10, NULL, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_nonnull (outcome.bytes);
  g_assert_cmpuint (g_bytes_get_size (outcome.bytes), ==, 0);
  g_bytes_unref (outcome.bytes);
}

static void
test_too_large (void)
{
  g_autoptr(GInputStream) stream = stream_of (10 * 1024 * 1024);
  Outcome outcome;

  read_all (stream, 100 * 1024 - 1, NULL, &outcome);
  g_assert_null (outcome.bytes);
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpstr (outcome.error->message, ==, "It holds more than 102399 bytes");
  /* Refused while it arrived: the rest of the 10 MiB was not read. */
  g_assert_cmpint (g_seekable_tell (G_SEEKABLE (stream)), <=, 100 * 1024 + 16 * 1024);
  g_clear_error (&outcome.error);
}

static void
test_cancelled (void)
{
  g_autoptr(GInputStream) stream = stream_of (1024);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Outcome outcome;

  g_cancellable_cancel (cancellable);
  read_all (stream, 4096, cancellable, &outcome);
  g_assert_null (outcome.bytes);
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&outcome.error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/read-all/whole", test_whole);
  g_test_add_func ("/read-all/too-large", test_too_large);
  g_test_add_func ("/read-all/cancelled", test_cancelled);

  return g_test_run ();
}
