/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <toolbench.h>
#include <unistd.h>

#include "../trace-file-fixture.h"

typedef TraceFileFixture Fixture;

static JsonObject *
object_from (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (text, -1, &error);

  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (node));
}

static void
write_events (Fixture *f,
              guint    n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) header = object_from ("{\"tools\":[{\"name\":\"echo\"}],"
                                              "\"provider\":{\"kind\":\"scripted\"}}");
  g_autoptr(TbTraceWriter) writer = tb_trace_writer_new (f->file, header, NULL, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"type\":\"tool-call\",\"name\":\"echo\","
                                               "\"arguments\":{\"text\":\"event %u\"}}", i);
      g_autoptr(JsonObject) event = object_from (text);

      g_assert_true (tb_trace_writer_append (writer, event, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (tb_trace_writer_get_n_events (writer), ==, n);
  g_assert_true (tb_trace_writer_close (writer, &error));
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
  g_assert_true (tb_trace_reader_get_indexed (reader));
  return g_steal_pointer (&reader);
}

static void
assert_problem (TbTraceReader *reader,
                const char    *fragment)
{
  g_auto(GStrv) problems = tb_trace_reader_get_problems (reader);

  for (guint i = 0; problems[i] != NULL; i++)
    if (strstr (problems[i], fragment) != NULL)
      return;

  g_error ("no problem mentions “%s” (%u problems)", fragment, g_strv_length (problems));
}

static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_auto(GStrv) problems = NULL;
  JsonObject *header;
  gint64 last_t = -1;

  write_events (f, 50);
  reader = open_indexed (f);

  header = tb_trace_reader_get_header (reader);
  g_assert_cmpstr (json_object_get_string_member (header, "format"), ==, "toolbench-trace");
  g_assert_cmpint (json_object_get_int_member (header, "version"), ==, 1);
  g_assert_true (json_object_has_member (header, "created"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (header,
                                                                                  "provider"),
                                                  "kind"), ==, "scripted");
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 50);

  for (guint i = 0; i < 50; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, i, &error);
      g_autofree char *expected = g_strdup_printf ("event %u", i);

      g_assert_no_error (error);
      g_assert_cmpint (json_object_get_int_member (event, "seq"), ==, i + 1);
      g_assert_cmpint (json_object_get_int_member (event, "t"), >=, last_t);
      last_t = json_object_get_int_member (event, "t");
      g_assert_cmpstr (json_object_get_string_member (event, "type"), ==, "tool-call");
      g_assert_cmpstr (json_object_get_string_member (
                         json_object_get_object_member (event, "arguments"), "text"),
                       ==, expected);
    }

  problems = tb_trace_reader_get_problems (reader);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_null (tb_trace_reader_read_event (reader, 50, NULL));
}

static void
test_redaction (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbRedactor) redactor = tb_redactor_new ();
  g_autoptr(JsonObject) header = object_from ("{\"provider\":{\"kind\":\"openai\","
                                              "\"base_url\":\"http://127.0.0.1:1/v1\","
                                              "\"api_key\":\"my-secret-key-123\"}}");
  g_autoptr(JsonObject) request = object_from (
    "{\"type\":\"request\",\"headers\":{\"Authorization\":\"Bearer my-secret-key-123\"},"
    "\"url\":\"http://127.0.0.1:1/v1beta/models/m:generateContent?key=my-secret-key-123\","
    "\"body\":{\"messages\":[{\"role\":\"user\",\"content\":\"the key is my-secret-key-123\"}]}}");
  g_autoptr(TbTraceWriter) writer = NULL;
  g_autofree char *contents = NULL;

  tb_redactor_add_secret (redactor, "my-secret-key-123");
  writer = tb_trace_writer_new (f->file, header, redactor, &error);
  g_assert_no_error (error);
  g_assert_true (tb_trace_writer_append (writer, request, &error));
  g_assert_true (tb_trace_writer_close (writer, &error));

  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  g_assert_null (strstr (contents, "my-secret-key-123"));
  g_assert_null (strstr (contents, "Bearer my"));
  g_assert_nonnull (strstr (contents, "[redacted]"));
  g_assert_nonnull (strstr (contents, "the key is [redacted]"));
}

static void
test_truncated_tail (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  write_events (f, 10);
  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
  /* Cut the last line in the middle, as a crash during write() would. */
  g_assert_true (g_file_set_contents (f->path, contents, length - 15, NULL));

  reader = open_indexed (f);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 9);
  assert_problem (reader, "cut off while it was being written");
}

static char *
replace_line (const char *contents,
              guint       line,
              const char *replacement)
{
  g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);

  g_free (lines[line - 1]);
  lines[line - 1] = g_strdup (replacement);
  return g_strjoinv ("\n", lines);
}

static void
test_garbled_middle (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *damaged = NULL;
  g_autoptr(JsonObject) after = NULL;

  write_events (f, 10);
  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  damaged = replace_line (contents, 5, "{\"seq\":4,\"t\":1,\"type\":\"tool-ca\xff\xfe garbage");
  g_assert_true (g_file_set_contents (f->path, damaged, -1, NULL));

  reader = open_indexed (f);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 9);
  assert_problem (reader, "Line 5 cannot be read");

  /* Events after the damage still come back. */
  after = tb_trace_reader_read_event (reader, 8, NULL);
  g_assert_cmpint (json_object_get_int_member (after, "seq"), ==, 10);
}

static void
test_out_of_order (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *swapped = NULL;

  write_events (f, 5);
  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  swapped = replace_line (contents, 4, "{\"seq\":1,\"t\":0,\"type\":\"warning\"}");
  g_assert_true (g_file_set_contents (f->path, swapped, -1, NULL));

  reader = open_indexed (f);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 5);
  assert_problem (reader, "out of order");
}

static void
test_bad_files (Fixture       *f,
                gconstpointer  data)
{
  static const struct { const char *contents; gssize length; int code; const char *fragment; } cases[] = {
    { "", 0, TB_TRACE_FILE_ERROR_EMPTY, "is empty" },
    { "{\"a\": 1}\n", -1, TB_TRACE_FILE_ERROR_NOT_A_TRACE, "JSON but not a Toolbench trace" },
    { "[1, 2, 3]", -1, TB_TRACE_FILE_ERROR_NOT_A_TRACE, "not a Toolbench trace" },
    { "hello, world\n", -1, TB_TRACE_FILE_ERROR_NOT_A_TRACE, "not a Toolbench trace" },
    { "\xff\xfe\xfd\n", -1, TB_TRACE_FILE_ERROR_NOT_A_TRACE, "not a Toolbench trace" },
    { "{\"format\":\"toolbench-trace\",\"version\":2}\n{\"seq\":1,\"type\":\"x\"}\n", -1,
      TB_TRACE_FILE_ERROR_NEWER_VERSION, "newer Toolbench (format version 2)" },
    { "{\"format\":\"toolbench-trace\",\"version\":\"1\"}\n", -1,
      TB_TRACE_FILE_ERROR_NOT_A_TRACE, "no valid format version" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TbTraceReader) reader = NULL;

      g_assert_true (g_file_set_contents (f->path, cases[i].contents, cases[i].length, NULL));
      reader = tb_trace_reader_open (f->file, &error);
      g_assert_null (reader);
      g_assert_error (error, TB_TRACE_FILE_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].fragment));
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/trace.jsonl");
    g_autoptr(TbTraceReader) reader = tb_trace_reader_open (missing, &error);

    g_assert_null (reader);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  }
}

static void
test_header_only (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;

  write_events (f, 0);
  reader = open_indexed (f);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 0);
}

static void
test_huge_lines (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceWriter) writer = tb_trace_writer_new (f->file, NULL, NULL, &error);
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(JsonObject) big_event = NULL;
  g_autoptr(JsonObject) small = object_from ("{\"type\":\"end\"}");
  g_autofree char *fifty = g_strnfill (50 * 1024 * 1024, 'a');
  g_autofree char *seventy = g_strnfill (70 * 1024 * 1024, 'b');
  JsonObject *event;

  g_assert_no_error (error);

  /* 50 MiB: within the limit, loads. */
  event = json_object_new ();
  json_object_set_string_member (event, "type", "response");
  json_object_set_string_member (event, "body", fifty);
  g_assert_true (tb_trace_writer_append (writer, event, &error));
  json_object_unref (event);
  g_clear_pointer (&fifty, g_free);

  /* 70 MiB: over the limit, so the writer refuses it and says so in the
   * file with an "incomplete" event in its place. */
  event = json_object_new ();
  json_object_set_string_member (event, "type", "response");
  json_object_set_string_member (event, "body", seventy);
  g_assert_false (tb_trace_writer_append (writer, event, &error));
  g_assert_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_UNRECORDABLE);
  g_assert_cmpstr (error->message, ==, "The “response” event 2 cannot be recorded: it is "
                                       "70.0\u00a0MiB, larger than the 64 MiB a trace line "
                                       "may hold");
  g_clear_error (&error);
  json_object_unref (event);

  g_assert_true (tb_trace_writer_append (writer, small, &error));
  g_assert_true (tb_trace_writer_close (writer, &error));

  /* Written by something else, a line over the limit is reported and
   * skipped by the reader; the rest loads. */
  {
    g_autoptr(GFileOutputStream) out = g_file_append_to (f->file, G_FILE_CREATE_NONE, NULL,
                                                         &error);
    g_autofree char *line = g_strdup_printf ("{\"seq\":4,\"t\":1,\"type\":\"response\","
                                             "\"body\":\"%s\"}\n{\"seq\":5,\"t\":2,"
                                             "\"type\":\"end\"}\n", seventy);

    g_assert_no_error (error);
    g_assert_true (g_output_stream_write_all (G_OUTPUT_STREAM (out), line, strlen (line),
                                              NULL, NULL, &error));
    g_assert_no_error (error);
  }
  g_clear_pointer (&seventy, g_free);

  reader = open_indexed (f);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 4);
  assert_problem (reader, "longer than the 64 MiB limit");
  event = tb_trace_reader_read_event (reader, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (event, "type"), ==, "incomplete");
  g_assert_cmpstr (json_object_get_string_member (event, "event_type"), ==, "response");
  json_object_unref (event);

  big_event = tb_trace_reader_read_event (reader, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (json_object_get_string_member (big_event, "body")), ==,
                    50 * 1024 * 1024);
}

static void
test_invalid_event (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceWriter) writer = tb_trace_writer_new (f->file, NULL, NULL, &error);
  g_autoptr(JsonObject) no_type = object_from ("{\"name\":\"x\"}");
  g_autoptr(JsonObject) ok = object_from ("{\"type\":\"end\"}");

  g_assert_false (tb_trace_writer_append (writer, no_type, &error));
  g_assert_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_INVALID_EVENT);
  g_clear_error (&error);

  g_assert_true (tb_trace_writer_close (writer, NULL));
  g_assert_false (tb_trace_writer_append (writer, ok, &error));
  g_assert_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_CLOSED);
}

static void
index_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tb_trace_reader_index_finish (TB_TRACE_READER (object), result, &error));
  g_assert_no_error (error);
  g_main_loop_quit (user_data);
}

static void
test_index_async (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceReader) reader = NULL;

  write_events (f, 2000);
  reader = tb_trace_reader_open (f->file, &error);
  g_assert_no_error (error);

  tb_trace_reader_index_async (reader, NULL, index_cb, loop);
  g_main_loop_run (loop);

  g_assert_true (tb_trace_reader_get_indexed (reader));
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 2000);
}

/* Crash safety: a child process writes events without end until it is
 * killed with SIGKILL; every event it completed must load. */

static int
write_forever (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TbTraceWriter) writer = tb_trace_writer_new (file, NULL, NULL, NULL);

  if (writer == NULL)
    return 1;

  for (guint i = 0; ; i++)
    {
      g_autoptr(JsonObject) event = json_object_new ();

      json_object_set_string_member (event, "type", "tool-result");
      json_object_set_int_member (event, "i", i);
      json_object_set_string_member (event, "padding", "some output of a tool, a little long");
      if (!tb_trace_writer_append (writer, event, NULL))
        return 1;
    }
}

static void
test_killed_writer (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTraceReader) reader = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  guint complete_lines = 0;
  guint n;

  child = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                            self_path, "--write-forever", f->path, NULL);
  g_assert_no_error (error);

  /* Let it write a few hundred kilobytes, then kill it mid-stream. */
  for (guint i = 0; i < 500; i++)
    {
      GStatBuf st;

      if (g_stat (f->path, &st) == 0 && st.st_size > 200000)
        break;
      g_usleep (10000);
    }
  g_subprocess_send_signal (child, SIGKILL);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));

  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
  for (gsize i = 0; i < length; i++)
    complete_lines += contents[i] == '\n';
  g_assert_cmpuint (complete_lines, >, 100);

  reader = open_indexed (f);
  n = tb_trace_reader_get_n_events (reader);
  /* Every complete line but the header is an event; nothing else is. */
  g_assert_cmpuint (n, ==, complete_lines - 1);

  {
    g_autoptr(JsonObject) last = tb_trace_reader_read_event (reader, n - 1, &error);

    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (last, "i"), ==, n - 1);
  }
}

/* Every input the fuzzer kept (seeds, and any crasher it ever found) is
 * read again here, so a fixed crash stays fixed. */
/* A trace opened from its file holds the same events as one loaded whole,
 * with the same problems, and keeps none of them in memory. */
static void
test_open_like_load (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *contents = NULL;
  g_autofree char *damaged = NULL;
  g_autoptr(TbTrace) loaded = NULL;
  g_autoptr(TbTrace) opened = NULL;
  g_auto(GStrv) load_problems = NULL;
  g_auto(GStrv) open_problems = NULL;
  g_autoptr(GError) error = NULL;

  write_events (f, 300);
  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  damaged = replace_line (contents, 120, "{\"seq\":119,\"t\":1,\"type\":\"tool-ca garbage");
  g_assert_true (g_file_set_contents (f->path, damaged, -1, NULL));

  loaded = tb_trace_load (f->file, NULL, &load_problems, &error);
  g_assert_no_error (error);
  opened = tb_trace_open (f->file, NULL, &open_problems, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (tb_trace_get_n_events (opened), ==, 299);
  g_assert_cmpuint (tb_trace_get_n_events (opened), ==, tb_trace_get_n_events (loaded));
  g_assert_cmpuint (tb_trace_get_n_in_memory (opened), ==, 0);
  g_assert_cmpstrv (open_problems, load_problems);
  g_assert_true (json_object_equal (tb_trace_get_header (opened), tb_trace_get_header (loaded)));
  /* Backwards too, past what is kept of events read back. */
  for (gint i = 298; i >= 0; i--)
    {
      TbTraceEvent *a = tb_trace_get_event (loaded, i);
      TbTraceEvent *b = tb_trace_get_event (opened, i);
      g_autoptr(JsonNode) a_json = tb_trace_event_to_json (a);
      g_autoptr(JsonNode) b_json = tb_trace_event_to_json (b);
      g_autofree char *a_text = tb_json_to_string (a_json, FALSE);
      g_autofree char *b_text = tb_json_to_string (b_json, FALSE);

      g_assert_cmpstr (b_text, ==, a_text);
    }
}

/* Saved over, the file opened is still read; changed where it stands, an
 * event says it can no longer be read, and nothing else is lost. */
static void
test_open_file_changed (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *other = g_build_filename (f->dir, "other.jsonl", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(TbTrace) opened = NULL;
  g_autoptr(GError) error = NULL;
  TbTraceEvent *event;
  int fd;

  write_events (f, 50);
  opened = tb_trace_open (f->file, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Replaced by another file of the same name: the opened one is read. */
  g_assert_true (g_file_set_contents (other, "not a trace\n", -1, NULL));
  g_assert_cmpint (g_rename (other, f->path), ==, 0);
  event = tb_trace_get_event (opened, 40);
  g_assert_cmpstr (tb_trace_event_get_event_type (event), ==, "tool-call");
  g_assert_cmpint (tb_trace_event_get_seq (event), ==, 41);
  g_clear_object (&opened);

  /* Cut short where it stands. */
  write_events (f, 50);
  opened = tb_trace_open (f->file, NULL, NULL, &error);
  g_assert_no_error (error);
  fd = g_open (f->path, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, 400), ==, 0);
  close (fd);

  event = tb_trace_get_event (opened, 40);
  g_assert_cmpstr (tb_trace_event_get_event_type (event), ==, "incomplete");
  expected = g_strdup_printf ("Event 41 can no longer be read from “%s”: Line 42 of the trace "
                              "changed since it was opened", f->path);
  g_assert_cmpstr (tb_json_object_get_string (tb_trace_event_get_payload (event), "reason"), ==,
                   expected);
  g_assert_cmpuint (tb_trace_get_n_events (opened), ==, 50);
}


static void
test_fuzz_corpus (void)
{
  const char *root = g_getenv ("TOOLBENCH_SOURCE_ROOT");
  const char *folders[] = { "fuzz/corpus/trace-reader", "fuzz/crashers/trace-reader" };
  guint n_files = 0;

  g_assert_nonnull (root);

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *path = g_build_filename (root, folders[i], NULL);
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *file_path = g_build_filename (path, name, NULL);
          g_autoptr(GFile) file = g_file_new_for_path (file_path);
          g_autoptr(TbTraceReader) reader = tb_trace_reader_open (file, NULL);

          n_files++;
          if (reader == NULL || !tb_trace_reader_index (reader, NULL, NULL))
            continue;
          for (guint j = 0; j < tb_trace_reader_get_n_events (reader); j++)
            {
              g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, j, NULL);

              g_assert_nonnull (event);
            }
        }
    }

  g_assert_cmpuint (n_files, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--write-forever"))
    return write_forever (argv[2]);

  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, trace_file_fixture_setup, func, trace_file_fixture_teardown)
  ADD ("/trace-file/round-trip", test_round_trip);
  ADD ("/trace-file/redaction", test_redaction);
  ADD ("/trace-file/truncated-tail", test_truncated_tail);
  ADD ("/trace-file/garbled-middle", test_garbled_middle);
  ADD ("/trace-file/out-of-order", test_out_of_order);
  ADD ("/trace-file/bad-files", test_bad_files);
  ADD ("/trace-file/header-only", test_header_only);
  ADD ("/trace-file/huge-lines", test_huge_lines);
  ADD ("/trace-file/invalid-event", test_invalid_event);
  ADD ("/trace-file/index-async", test_index_async);
  ADD ("/trace-file/killed-writer", test_killed_writer);
  ADD ("/trace-file/open-like-load", test_open_like_load);
  ADD ("/trace-file/open-file-changed", test_open_file_changed);
#undef ADD
  g_test_add_func ("/trace-file/fuzz-corpus", test_fuzz_corpus);

  return g_test_run ();
}
