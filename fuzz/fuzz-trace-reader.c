/* SPDX-License-Identifier: GPL-3.0-or-later */

/* libFuzzer target: arbitrary bytes as a trace file. Opening, indexing and
 * reading every event must end in events or clear errors, never a crash,
 * a hang or unbounded memory; an event's outline, read without a parse,
 * must say what the parsed event says. */

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>
#include <unistd.h>

static void
assert_same_string (JsonObject *a,
                    JsonObject *b,
                    const char *name)
{
  g_assert_cmpstr (tb_json_object_get_string (a, name), ==, tb_json_object_get_string (b, name));
}

/* The members the outline reads are the same in both. */
static void
assert_same_shape (JsonObject *event,
                   JsonObject *outline)
{
  static const char *strings[] = { "type", "origin", "decision", "direction", "call_id" };
  gint64 a = -1, b = -1;
  gboolean has_a, has_b;
  JsonObject *result_a, *result_b;

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    assert_same_string (event, outline, strings[i]);
  has_a = tb_json_object_get_int_in_range (event, "iteration", 0, G_MAXUINT, &a, NULL);
  has_b = tb_json_object_get_int_in_range (outline, "iteration", 0, G_MAXUINT, &b, NULL);
  g_assert_true (has_a == has_b && a == b);
  assert_same_string (tb_json_object_get_object (event, "call"),
                      tb_json_object_get_object (outline, "call"), "id");
  assert_same_string (tb_json_object_get_object (event, "message"),
                      tb_json_object_get_object (outline, "message"), "tool_call_id");
  result_a = tb_json_object_get_object (event, "result");
  result_b = tb_json_object_get_object (outline, "result");
  g_assert_true ((result_a == NULL) == (result_b == NULL));
  if (result_a != NULL)
    g_assert_true (tb_json_object_get_boolean (result_a, "ok", FALSE) ==
                   tb_json_object_get_boolean (result_b, "ok", FALSE) &&
                   tb_json_object_get_boolean (result_a, "ok", TRUE) ==
                   tb_json_object_get_boolean (result_b, "ok", TRUE));
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static char *path;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TbTraceReader) reader = NULL;
  g_auto(GStrv) problems = NULL;

  if (path == NULL)
    path = g_strdup_printf ("%s/toolbench-fuzz-trace-%d.jsonl", g_get_tmp_dir (), (int) getpid ());

  if (!g_file_set_contents (path, (const char *) data, size, NULL))
    return 0;

  file = g_file_new_for_path (path);
  reader = tb_trace_reader_open (file, NULL);
  if (reader == NULL)
    return 0;

  if (tb_trace_reader_index (reader, NULL, NULL))
    {
      guint n = tb_trace_reader_get_n_events (reader);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(JsonObject) event = tb_trace_reader_read_event (reader, i, NULL);
          g_autoptr(JsonObject) outline = tb_trace_reader_read_outline (reader, i, NULL);

          /* Every indexed event must read back: the index only holds lines that parsed. */
          g_assert_nonnull (event);
          g_assert_nonnull (tb_json_object_get_string (event, "type"));
          g_assert_nonnull (outline);
          assert_same_shape (event, outline);
        }
    }

  problems = tb_trace_reader_get_problems (reader);
  return 0;
}
