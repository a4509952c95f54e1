/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Writing an event's payload as JSON text from its fields. The dispatch
 * loop appends eight events an iteration; building each as a tree of
 * JsonNodes, writing the tree out and freeing it was most of what a
 * recorded iteration cost. The text here is what tb_json_to_string()
 * writes for an object with the same members in the same order (the same
 * escapes), so a trace file does not change; the test
 * /loop-record/lines-as-trees holds the two together. */

#define G_LOG_DOMAIN "tb-trace"

#include "config.h"

#include <string.h>

#include "tb-json.h"
#include "tb-text-private.h"
#include "tb-trace-line-private.h"
#include "tb-trace-private.h"

/* Starts a payload: every event of the loop names its iteration first. */
GString *
_tb_trace_line_new (guint iteration)
{
  GString *line = g_string_sized_new (256);

  g_string_append_len (line, "{\"iteration\":", 13);
  _tb_trace_line_append_int (line, iteration);
  return line;
}

/* @value in decimal, as JSON writes an integer. */
void
_tb_trace_line_append_int (GString *line,
                           gint64   value)
{
  char digits[TB_TEXT_INTEGER_MAX];

  g_string_append_len (line, digits,
                       _tb_text_put_integer (digits,
                                             value < 0 ? -(guint64) value : (guint64) value,
                                             value < 0));
}

/* @text as a JSON string: the escapes of tb-json-writer.c (the two
 * characters of JSON, every control character and DEL, the short forms
 * where JSON has them), UTF-8 as it is. */
void
_tb_trace_line_append_string (GString    *line,
                              const char *text)
{
  static const char hex[] = "0123456789abcdef";
  const char *run = text;
  const char *p;

  g_string_append_c (line, '"');
  for (p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
        continue;

      g_string_append_len (line, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"': g_string_append_len (line, "\\\"", 2); break;
        case '\\': g_string_append_len (line, "\\\\", 2); break;
        case '\b': g_string_append_len (line, "\\b", 2); break;
        case '\f': g_string_append_len (line, "\\f", 2); break;
        case '\n': g_string_append_len (line, "\\n", 2); break;
        case '\r': g_string_append_len (line, "\\r", 2); break;
        case '\t': g_string_append_len (line, "\\t", 2); break;
        default:
          g_string_append_len (line, "\\u00", 4);
          g_string_append_c (line, hex[c >> 4]);
          g_string_append_c (line, hex[c & 0xf]);
          break;
        }
    }
  g_string_append_len (line, run, p - run);
  g_string_append_c (line, '"');
}

/* A member's name, after a comma unless it is the object's first. */
void
_tb_trace_line_add_name (GString    *line,
                         const char *name)
{
  if (line->len > 0 && line->str[line->len - 1] != '{')
    g_string_append_c (line, ',');
  _tb_trace_line_append_string (line, name);
  g_string_append_c (line, ':');
}

/* A %NULL @value is written as null, as json_object_set_string_member() keeps it. */
void
_tb_trace_line_add_string (GString    *line,
                           const char *name,
                           const char *value)
{
  _tb_trace_line_add_name (line, name);
  if (value != NULL)
    _tb_trace_line_append_string (line, value);
  else
    g_string_append_len (line, "null", 4);
}

void
_tb_trace_line_add_int (GString    *line,
                        const char *name,
                        gint64      value)
{
  _tb_trace_line_add_name (line, name);
  _tb_trace_line_append_int (line, value);
}

void
_tb_trace_line_add_boolean (GString    *line,
                            const char *name,
                            gboolean    value)
{
  _tb_trace_line_add_name (line, name);
  if (value)
    g_string_append_len (line, "true", 4);
  else
    g_string_append_len (line, "false", 5);
}

/* @value as compact JSON text. */
void
_tb_trace_line_add_node_value (GString  *line,
                               JsonNode *value)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  text = tb_json_to_data (value, FALSE, &length);
  g_string_append_len (line, text, length);
}

void
_tb_trace_line_add_node (GString    *line,
                         const char *name,
                         JsonNode   *value)
{
  _tb_trace_line_add_name (line, name);
  _tb_trace_line_add_node_value (line, value);
}

void
_tb_trace_line_add_object (GString    *line,
                           const char *name,
                           JsonObject *value)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, value);
  _tb_trace_line_add_node (line, name, node);
}

/* Ends the payload and appends it to @trace as an event of @event_type;
 * takes @line. */
TbTraceEvent *
_tb_trace_line_append_to (GString    *line,
                          TbTrace    *trace,
                          const char *event_type)
{
  g_string_append_c (line, '}');
  return _tb_trace_append_text (trace, event_type, line);
}
