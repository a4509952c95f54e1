/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Indexing checks lines without parsing them: what that check must still
 * refuse, what it must still accept, and that what it refuses is said
 * and nothing around it is lost. */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <toolbench.h>

#include "../trace-file-fixture.h"

#define HEADER "{\"format\":\"toolbench-trace\",\"version\":1}\n"

typedef TraceFileFixture Fixture;

static void
write_file (Fixture    *f,
            const char *contents,
            gssize      length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (f->path, contents, length, &error);
  g_assert_no_error (error);
}

static TbTraceReader *
open_indexed (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceReader) reader = tb_trace_reader_open (f->file, &error);

  g_assert_no_error (error);
  g_assert_true (tb_trace_reader_index (reader, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&reader);
}

static void
assert_problems (TbTraceReader      *reader,
                 const char * const *expected)
{
  g_auto(GStrv) problems = tb_trace_reader_get_problems (reader);

  g_assert_cmpuint (g_strv_length (problems), ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (problems[i], ==, expected[i]);
}

/* Every event that was indexed reads back, and its "n" is as written. */
static void
assert_events (TbTraceReader *reader,
               const gint64  *numbers,
               guint          n)
{
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, i, &error);

      g_assert_no_error (error);
      g_assert_cmpint (json_object_get_int_member (event, "n"), ==, numbers[i]);
    }
}

static void
test_looks_like_event (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(TbTrace) trace = NULL;
  g_auto(GStrv) problems = NULL;
  g_autoptr(GError) error = NULL;
  static const gint64 numbers[] = { 1, 4 };
  static const char * const expected[] = {
    "Line 3 cannot be read and was left out: it is not valid JSON (at byte 38)",
    "Line 4 cannot be read and was left out: it is not valid JSON (at byte 36)",
    NULL
  };

  /* Lines 3 and 4 start as an event would and go wrong later on: two
   * values without a comma, a member without a value. */
  write_file (f, HEADER
                 "{\"seq\":1,\"t\":0,\"type\":\"message\",\"n\":1}\n"
                 "{\"seq\":2,\"t\":0,\"type\":\"message\",\"n\":2 \"x\"}\n"
                 "{\"seq\":3,\"t\":0,\"type\":\"message\",\"n\":}\n"
                 "{\"seq\":4,\"t\":0,\"type\":\"message\",\"n\":4}\n", -1);

  reader = open_indexed (f);
  assert_events (reader, numbers, G_N_ELEMENTS (numbers));
  assert_problems (reader, expected);

  /* Loading the whole trace says the same and keeps both good events. */
  trace = tb_trace_load (f->file, NULL, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tb_trace_get_n_events (trace), ==, 2);
  g_assert_cmpstrv (problems, expected);
}

static void
test_type_in_string (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  static const gint64 numbers[] = { 1, 5 };
  static const char * const expected[] = {
    "Line 3 cannot be read and was left out: it has no event “type”",
    "Line 4 cannot be read and was left out: it has no event “type”",
    "Line 5 cannot be read and was left out: it has no event “type”",
    NULL
  };

  /* "type" inside a string, in a nested object, and with a number for a
   * value: none of them is the event's type. */
  write_file (f, HEADER
                 "{\"seq\":1,\"t\":0,\"type\":\"message\",\"n\":1}\n"
                 "{\"seq\":2,\"t\":0,\"note\":\"\\\"type\\\":\\\"message\\\"\",\"n\":2}\n"
                 "{\"seq\":3,\"t\":0,\"inner\":{\"type\":\"message\"},\"n\":3}\n"
                 "{\"seq\":4,\"t\":0,\"type\":4,\"n\":4}\n"
                 "{\"seq\":5,\"t\":0,\"n\":5,\"type\":\"message\"}\n", -1);

  reader = open_indexed (f);
  assert_events (reader, numbers, G_N_ELEMENTS (numbers));
  assert_problems (reader, expected);
}

static void
test_escaped_quotes (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(GError) error = NULL;
  static const gint64 numbers[] = { 1, 2, 3 };
  static const char * const none[] = { NULL };
  /* Escaped quotes and backslashes, one ending right before the closing
   * quote, a quote after an escaped backslash, and a long run that ends in
   * an escape (past the sixteen and 64 bytes the scanner skips at once). */
  g_autofree char *padding = g_strnfill (100, 'p');
  g_autofree char *contents =
    g_strdup_printf (HEADER
                     "{\"seq\":1,\"t\":0,\"type\":\"message\",\"text\":\"say \\\"hi\\\"\",\"n\":1}\n"
                     "{\"seq\":2,\"t\":0,\"type\":\"tool-\\\"call\\\\\",\"a\":\"\\\\\",\"n\":2}\n"
                     "{\"seq\":3,\"t\":0,\"type\":\"message\",\"text\":\"%s\\\"}\\\\\",\"n\":3}\n",
                     padding);

  write_file (f, contents, -1);
  reader = open_indexed (f);
  assert_events (reader, numbers, G_N_ELEMENTS (numbers));
  assert_problems (reader, none);

  event = tb_trace_reader_read_event (reader, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (event, "type"), ==, "tool-\"call\\");
  g_assert_cmpstr (json_object_get_string_member (event, "a"), ==, "\\");
  g_clear_pointer (&event, json_object_unref);

  event = tb_trace_reader_read_event (reader, 2, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (event, "text"), "p\"}\\"));
}

static void
test_bad_strings (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  static const gint64 numbers[] = { 1, 6 };
  static const char * const expected[] = {
    "Line 3 cannot be read and was left out: it is not valid JSON (at byte 38)",
    "Line 4 cannot be read and was left out: it is not valid UTF-8 (at byte 38)",
    "Line 5 cannot be read and was left out: it is not valid JSON (at byte 38)",
    "Line 6 cannot be read and was left out: it is not valid JSON (at byte 37)",
    NULL
  };

  /* A raw tab, a broken UTF-8 sequence, an unknown escape, a lone
   * surrogate; then a good line. */
  write_file (f, HEADER
                 "{\"seq\":1,\"t\":0,\"type\":\"message\",\"n\":1}\n"
                 "{\"seq\":2,\"t\":0,\"type\":\"message\",\"s\":\"a\tb\",\"n\":2}\n"
                 "{\"seq\":3,\"t\":0,\"type\":\"message\",\"s\":\"a\xc3(\",\"n\":3}\n"
                 "{\"seq\":4,\"t\":0,\"type\":\"message\",\"s\":\"a\\qb\",\"n\":4}\n"
                 "{\"seq\":5,\"t\":0,\"type\":\"message\",\"s\":\"\\udc00\",\"n\":5}\n"
                 "{\"seq\":6,\"t\":0,\"type\":\"message\",\"s\":\"\\ud83d\\ude00 \xc3\xa9\",\"n\":6}\n",
             -1);

  reader = open_indexed (f);
  assert_events (reader, numbers, G_N_ELEMENTS (numbers));
  assert_problems (reader, expected);
}

static GString *
big_line (guint  seq,
          gsize  size,
          char   fill)
{
  GString *line = g_string_new (NULL);

  g_string_append_printf (line, "{\"seq\":%u,\"t\":0,\"type\":\"response\",\"n\":%u,\"body\":\"",
                          seq, seq);
  for (gsize i = 0; i < size; i++)
    g_string_append_c (line, fill);
  g_string_append (line, "\\\"end\\\"\"}\n");
  return line;
}

static void
test_ten_mib_line (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(GString) contents = g_string_new (HEADER);
  g_autoptr(GString) good = big_line (1, 10 * 1024 * 1024, 'a');
  g_autoptr(GString) bad = big_line (2, 10 * 1024 * 1024, 'b');
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *problem = NULL;
  static const gint64 numbers[] = { 1, 3 };
  const char *expected[] = { NULL, NULL };

  /* The second 10 MiB line has a control character near its end. */
  bad->str[bad->len - 20] = '\x01';
  g_string_append_len (contents, good->str, good->len);
  g_string_append_len (contents, bad->str, bad->len);
  g_string_append (contents, "{\"seq\":3,\"t\":0,\"type\":\"end\",\"n\":3}\n");
  write_file (f, contents->str, contents->len);

  reader = open_indexed (f);
  problem = g_strdup_printf ("Line 3 cannot be read and was left out: it is not valid JSON "
                             "(at byte %lu)", (gulong) (bad->len - 20));
  expected[0] = problem;
  assert_events (reader, numbers, G_N_ELEMENTS (numbers));
  assert_problems (reader, expected);

  event = tb_trace_reader_read_event (reader, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (json_object_get_string_member (event, "body")), ==,
                    10 * 1024 * 1024 + 5);
}

static void
test_truncated_mid_line (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GString) contents = g_string_new (HEADER);
  g_autoptr(GString) long_line = big_line (3, 300 * 1024, 'c');
  static const gint64 numbers[] = { 1, 2 };
  static const char * const expected[] = {
    "The last event (line 4) is incomplete: the trace was cut off while it was being "
    "written, and that event was left out",
    NULL
  };

  g_string_append (contents, "{\"seq\":1,\"t\":0,\"type\":\"message\",\"n\":1}\n"
                             "{\"seq\":2,\"t\":0,\"type\":\"message\",\"n\":2,\"s\":\"\\\"\"}\n");
  g_string_append_len (contents, long_line->str, long_line->len);

  /* Cut inside the string, right after an escape, and inside the escape:
   * each time the complete events come back and the cut one is named. */
  for (guint cut = 0; cut < 3; cut++)
    {
      g_autoptr(TbTraceReader) reader = NULL;
      g_autoptr(TbTrace) trace = NULL;
      g_auto(GStrv) problems = NULL;
      g_autoptr(GError) error = NULL;
      gsize keep = contents->len - long_line->len + (cut == 0 ? 200000 : long_line->len - 8 + cut);

      write_file (f, contents->str, keep);
      reader = open_indexed (f);
      assert_events (reader, numbers, G_N_ELEMENTS (numbers));
      assert_problems (reader, expected);

      trace = tb_trace_load (f->file, NULL, &problems, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tb_trace_get_n_events (trace), ==, 2);
      g_assert_cmpstrv (problems, expected);
    }
}

/* Read-time validation: a line that changed after indexing. */
static void
test_changed_after_index (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(GError) error = NULL;
  const char *good = HEADER
                     "{\"seq\":1,\"t\":0,\"type\":\"message\",\"n\":1}\n"
                     "{\"seq\":2,\"t\":0,\"type\":\"message\",\"n\":2}\n";
  g_autofree char *changed = g_strdup (good);

  write_file (f, good, -1);
  reader = open_indexed (f);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 2);

  /* Same length, no longer JSON, written over the same file. */
  memcpy (strstr (changed, "\"n\":2"), "\"n\":}", 5);
  {
    FILE *out = fopen (f->path, "r+");

    g_assert_nonnull (out);
    g_assert_cmpuint (fwrite (changed, 1, strlen (changed), out), ==, strlen (changed));
    fclose (out);
  }

  event = tb_trace_reader_read_event (reader, 0, &error);
  g_assert_no_error (error);
  g_clear_pointer (&event, json_object_unref);

  event = tb_trace_reader_read_event (reader, 1, &error);
  g_assert_null (event);
  g_assert_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED);
  g_assert_true (g_str_has_prefix (error->message, "Line 3 of the trace cannot be read: "));
}

typedef struct
{
  GMainLoop *loop;
  GFile     *file;
  guint      appended;
  gboolean   done;
} Growing;

static void
append_lines (Growing *g,
              guint    n)
{
  g_autoptr(GFileOutputStream) out = g_file_append_to (g->file, G_FILE_CREATE_NONE, NULL, NULL);
  g_autoptr(GString) text = g_string_new (NULL);

  g_assert_nonnull (out);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "{\"seq\":%u,\"t\":0,\"type\":\"message\",\"n\":%u}\n",
                            g->appended + i + 1, g->appended + i + 1);
  g_assert_true (g_output_stream_write_all (G_OUTPUT_STREAM (out), text->str, text->len, NULL,
                                            NULL, NULL));
  g->appended += n;
}

/* While indexing runs, the writer goes on appending. */
static void
grow_cb (TbTraceReader *reader,
         GParamSpec    *pspec,
         Growing       *g)
{
  if (!g->done && g->appended < 400000)
    append_lines (g, 1000);
}

static void
grown_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Growing *g = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (tb_trace_reader_index_finish (TB_TRACE_READER (object), result, &error));
  g_assert_no_error (error);
  g->done = TRUE;
  g_main_loop_quit (g->loop);
}

static void
test_growing (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) problems = NULL;
  Growing g = { loop, f->file, 0, FALSE };
  guint n;

  write_file (f, HEADER, -1);
  append_lines (&g, 200000);

  reader = tb_trace_reader_open (f->file, &error);
  g_assert_no_error (error);
  g_signal_connect (reader, "notify::n-events", G_CALLBACK (grow_cb), &g);
  tb_trace_reader_index_async (reader, NULL, grown_cb, &g);
  g_main_loop_run (loop);

  /* Everything that was there when indexing began, and whatever whole
   * lines came while it ran, in order; no line reported as damaged
   * (each append is whole lines, so none was cut). */
  n = tb_trace_reader_get_n_events (reader);
  g_assert_cmpuint (g.appended, >, 200000);
  g_assert_cmpuint (n, >=, 200000);
  g_assert_cmpuint (n, <=, g.appended);
  problems = tb_trace_reader_get_problems (reader);
  for (guint i = 0; problems[i] != NULL; i++)
    g_assert_true (g_str_has_prefix (problems[i], "The last event"));
  for (guint i = 0; i < n; i += n / 97 + 1)
    {
      g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, i, &error);

      g_assert_no_error (error);
      g_assert_cmpint (json_object_get_int_member (event, "n"), ==, i + 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, trace_file_fixture_setup, func, trace_file_fixture_teardown)
  ADD ("/trace-scan/looks-like-event", test_looks_like_event);
  ADD ("/trace-scan/type-in-string", test_type_in_string);
  ADD ("/trace-scan/escaped-quotes", test_escaped_quotes);
  ADD ("/trace-scan/bad-strings", test_bad_strings);
  ADD ("/trace-scan/ten-mib-line", test_ten_mib_line);
  ADD ("/trace-scan/truncated-mid-line", test_truncated_mid_line);
  ADD ("/trace-scan/changed-after-index", test_changed_after_index);
  ADD ("/trace-scan/growing", test_growing);
#undef ADD

  return g_test_run ();
}
