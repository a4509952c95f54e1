/* SPDX-License-Identifier: GPL-3.0-or-later */

/* libFuzzer target: arbitrary bytes as a trace file. Opening, indexing and
 * reading every event must end in events or clear errors, never a crash,
 * a hang or unbounded memory. */

#include "config.h"

#include <glib/gstdio.h>
#include <toolbench.h>
#include <unistd.h>

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

          /* Every indexed event must read back: the index only holds lines that parsed. */
          g_assert_nonnull (event);
          g_assert_nonnull (tb_json_object_get_string (event, "type"));
        }
    }

  problems = tb_trace_reader_get_problems (reader);
  return 0;
}
