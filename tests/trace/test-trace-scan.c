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

/* Writes @changed over the start of the trace file in place, as another
 * program changing it after it was indexed would. */
static void
overwrite (Fixture    *f,
           const char *changed)
{
  FILE *out = fopen (f->path, "r+");

  g_assert_nonnull (out);
  g_assert_cmpuint (fwrite (changed, 1, strlen (changed), out), ==, strlen (changed));
  fclose (out);
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
  overwrite (f, changed);

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

/* The members that place an event, as the outline reads them and as a
 * parse reads them: a line each, "kind|value" or "-" when absent. */
static char *
shape_of (JsonObject *event)
{
  static const char *strings[] = { "type", "origin", "decision", "direction", "call_id" };
  GString *out = g_string_new (NULL);
  JsonObject *call = tb_json_object_get_object (event, "call");
  JsonObject *message = tb_json_object_get_object (event, "message");
  JsonObject *result = tb_json_object_get_object (event, "result");
  gint64 iteration = -1;

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    g_string_append_printf (out, "%s=%s;", strings[i],
                            tb_json_object_get_string (event, strings[i]) ?: "-");
  if (!tb_json_object_get_int_in_range (event, "iteration", 0, G_MAXUINT, &iteration, NULL))
    iteration = -1;
  g_string_append_printf (out, "iteration=%" G_GINT64_FORMAT ";call.id=%s;"
                          "message.tool_call_id=%s;result.ok=%s", iteration,
                          tb_json_object_get_string (call, "id") ?: "-",
                          tb_json_object_get_string (message, "tool_call_id") ?: "-",
                          result == NULL || !json_object_has_member (result, "ok") ? "-"
                          : tb_json_object_get_boolean (result, "ok", FALSE) ? "true" : "false");
  return g_string_free (out, FALSE);
}

/* An event's outline (what the Trace page's tree needs) is read without
 * parsing its line and says what a parse says, whatever the line holds
 * around those members: escapes, repeated members, other kinds of value,
 * members in another order, nesting and long strings. */
static void
test_outline (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *filler = g_strnfill (5000, 'x');
  g_autofree char *contents = g_strconcat (HEADER,
    "{\"seq\":1,\"t\":0,\"type\":\"message\",\"iteration\":0,\"origin\":\"person\","
      "\"message\":{\"role\":\"user\",\"text\":\"Go\"}}\n",
    "{\"seq\":2,\"t\":3,\"type\":\"request\",\"iteration\":1,\"provider\":\"p\","
      "\"body\":\"{\\\"type\\\":\\\"x\\\",\\\"iteration\\\":9}\"}\n",
    "{\"type\":\"tool-call\",\"seq\":3,\"call\":{\"arguments\":{\"id\":\"inner\"},"
      "\"id\":\"call_1\",\"name\":\"add\"},\"iteration\":1,\"index\":0}\n",
    "{\"seq\":4,\"type\":\"decision\",\"iteration\":1,\"call_id\":\"call_1\","
      "\"decision\":\"edit\",\"by\":\"person\"}\n",
    "{\"seq\":5,\"type\":\"tool-result\",\"iteration\":1,\"call_id\":\"call_1\","
      "\"result\":{\"output\":{\"ok\":true},\"ok\":false,\"metadata\":{}},\"content\":\"",
      filler, "\"}\n",
    /* escapes in wanted values and names */
    "{\"seq\":6,\"type\":\"mess\\u0061ge\",\"iteration\":1,\"origin\":\"tool\","
      "\"message\":{\"role\":\"tool\",\"tool_call_id\":\"call_\\u00e91\"}}\n",
    "{\"seq\":7,\"type\":\"mcp-message\",\"iteration\":1,\"direct\\u0069on\":\"sent\","
      "\"call_id\":\"call_1\"}\n",
    /* repeated members: the last counts, whatever its kind */
    "{\"seq\":8,\"type\":\"warning\",\"type\":\"error\",\"iteration\":1,\"iteration\":\"2\","
      "\"origin\":\"model\",\"origin\":null,\"call\":{\"id\":\"a\"},\"call\":[1]}\n",
    /* other kinds of value and numbers the scan does not copy */
    "{\"seq\":9,\"type\":\"tool-result\",\"iteration\":1.0,\"result\":{\"ok\":\"yes\"}}\n",
    "{\"seq\":10,\"type\":\"tool-result\",\"iteration\":18446744073709551616,"
      "\"result\":\"ok\"}\n",
    "{\"seq\":11,\"type\":\"end\",\"iteration\":-1,\"state\":\"finished\",\"result\":{\"ok\":true}}\n",
    /* non-ASCII, deep nesting elsewhere, and spaces everywhere */
    " { \"seq\" : 12 , \"type\" : \"message\" , \"iteration\" : 2 , \"origin\" : \"model\" , "
      "\"message\" : { \"text\" : \"größe “x”\" , \"tool_calls\" : [ [ [ { \"id\" : \"q\" } ] ] ] } } \n",
    "{\"seq\":13,\"type\":\"proposal\",\"iteration\":2,\"call\":{},\"message\":{},\"result\":{}}\n",
    NULL);
  g_autoptr(TbTraceReader) reader = NULL;
  guint n_exact = 0;

  write_file (f, contents, -1);
  reader = open_indexed (f);
  g_assert_cmpuint (tb_trace_reader_get_n_events (reader), ==, 13);
  for (guint i = 0; i < 13; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, i, &error);
      g_autoptr(JsonObject) outline = tb_trace_reader_read_outline (reader, i, &error);
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;

      g_assert_no_error (error);
      g_assert_nonnull (event);
      g_assert_nonnull (outline);
      want = shape_of (event);
      got = shape_of (outline);
      g_assert_cmpstr (got, ==, want);
      /* Read without a parse: none of the other members is there. */
      if (!json_object_has_member (outline, "seq"))
        n_exact++;
    }
  /* Lines 6, 7, 9 and 10 hold what only a parse reads exactly. */
  g_assert_cmpuint (n_exact, ==, 9);
}

/* A line changed after indexing is not read as an outline either. */
static void
test_outline_changed (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) outline = NULL;
  const char *changed = HEADER "{\"seq\":1,\"t\":0,\"tipe\":\"message\",\"iteration\":0}\n";

  write_file (f, HEADER "{\"seq\":1,\"t\":0,\"type\":\"message\",\"iteration\":0}\n", -1);
  reader = open_indexed (f);
  /* Same length, written over the same file. */
  overwrite (f, changed);
  outline = tb_trace_reader_read_outline (reader, 0, &error);
  g_assert_null (outline);
  g_assert_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED);
  g_assert_cmpstr (error->message, ==,
                   "Line 2 of the trace cannot be read: it changed since the trace was opened");
}

/* A line changed after indexing into one nested far too deep is refused
 * with the parser's words, without a crash, by the outline as by a parse. */
static void
test_outline_too_deep (Fixture       *f,
                       gconstpointer  data)
{
  const guint deep = 4 * TB_TRACE_MAX_DEPTH;
  g_autofree char *filler = g_strnfill (2 * deep, 'x');
  g_autofree char *opens = g_strnfill (deep, '[');
  g_autofree char *closes = g_strnfill (deep, ']');
  g_autofree char *good = g_strdup_printf (HEADER "{\"seq\":1,\"type\":\"message\",\"x\":\"%s\"}\n",
                                           filler);
  g_autofree char *changed = g_strdup_printf (HEADER "{\"seq\":1,\"type\":\"message\",\"x\":%s%s  }\n",
                                              opens, closes);
  g_autofree char *expected = g_strdup_printf ("Line 2 of the trace cannot be read: The JSON nests "
                                               "arrays and objects more than %u levels deep",
                                               TB_TRACE_MAX_DEPTH);
  g_autoptr(TbTraceReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) outline = NULL;

  g_assert_cmpuint (strlen (good), ==, strlen (changed));
  write_file (f, good, -1);
  reader = open_indexed (f);
  overwrite (f, changed);

  outline = tb_trace_reader_read_outline (reader, 0, &error);
  g_assert_null (outline);
  g_assert_error (error, TB_TRACE_FILE_ERROR, TB_TRACE_FILE_ERROR_DAMAGED);
  g_assert_cmpstr (error->message, ==, expected);
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
  ADD ("/trace-scan/outline", test_outline);
  ADD ("/trace-scan/outline-changed", test_outline_changed);
  ADD ("/trace-scan/outline-too-deep", test_outline_too_deep);
#undef ADD

  return g_test_run ();
}
