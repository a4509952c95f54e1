/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-json"

#include "config.h"

#include <math.h>
#include <string.h>

#include "tb-json.h"

/* JSON text from a tree, for the wire, the trace and the screen.
 *
 * It writes what json-glib's generator writes (member order, escapes,
 * "a" : 1 in pretty text), except where json-glib 1.6 is wrong:
 *
 * - a double is written with 17 significant digits, so the 3.14 a person
 *   typed went to the model and into the trace as 3.1400000000000001;
 *   here it is the shortest text that reads back as the same double,
 *   with ".0" kept on whole numbers so that it reads back as a double;
 * - infinities and NaN, which JSON cannot hold, came out as "inf.0" and
 *   "-nan.0"; here they are null;
 * - an empty object in pretty text came out as "{  }".
 */

typedef struct
{
  GString  *out;
  gboolean  pretty;
  guint     level;
} Writer;

static void write_node (Writer   *writer,
                        JsonNode *node);

static void
write_indent (Writer *writer,
              guint   level)
{
  g_string_append_c (writer->out, '\n');
  for (guint i = 0; i < level * 2; i++)
    g_string_append_c (writer->out, ' ');
}

static void
write_string (GString    *out,
              const char *text)
{
  static const char hex[] = "0123456789abcdef";
  const char *run = text;

  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;
      const char *escape = NULL;

      if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
        continue;

      g_string_append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"': escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        default: break;
        }
      if (escape != NULL)
        g_string_append (out, escape);
      else
        {
          g_string_append (out, "\\u00");
          g_string_append_c (out, hex[c >> 4]);
          g_string_append_c (out, hex[c & 0xf]);
        }
    }
  g_string_append_len (out, run, strlen (run));
  g_string_append_c (out, '"');
}

static void
write_double (GString *out,
              double   value)
{
  g_autofree char *text = NULL;

  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }
  text = tb_json_format_double (value);
  g_string_append (out, text);
  if (strpbrk (text, ".eE") == NULL)
    g_string_append (out, ".0");
}

static void
write_value (Writer   *writer,
             JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_INT64)
    g_string_append_printf (writer->out, "%" G_GINT64_FORMAT, json_node_get_int (node));
  else if (type == G_TYPE_DOUBLE)
    write_double (writer->out, json_node_get_double (node));
  else if (type == G_TYPE_BOOLEAN)
    g_string_append (writer->out, json_node_get_boolean (node) ? "true" : "false");
  else if (type == G_TYPE_STRING)
    write_string (writer->out, json_node_get_string (node) ?: "");
  else
    g_string_append (writer->out, "null");
}

typedef struct
{
  Writer *writer;
  guint   index;
} Members;

static void
write_member (JsonObject  *object,
              const char  *name,
              JsonNode    *member,
              gpointer     user_data)
{
  Members *members = user_data;
  Writer *writer = members->writer;

  if (members->index++ > 0)
    g_string_append_c (writer->out, ',');
  if (writer->pretty)
    write_indent (writer, writer->level);
  write_string (writer->out, name);
  g_string_append (writer->out, writer->pretty ? " : " : ":");
  write_node (writer, member);
}

static void
write_object (Writer     *writer,
              JsonObject *object)
{
  Members members = { writer, 0 };

  g_string_append_c (writer->out, '{');
  if (json_object_get_size (object) == 0)
    {
      g_string_append_c (writer->out, '}');
      return;
    }
  writer->level++;
  json_object_foreach_member (object, write_member, &members);
  writer->level--;
  if (writer->pretty)
    write_indent (writer, writer->level);
  g_string_append_c (writer->out, '}');
}

static void
write_array (Writer    *writer,
             JsonArray *array)
{
  guint n = json_array_get_length (array);

  g_string_append_c (writer->out, '[');
  if (n == 0)
    {
      g_string_append_c (writer->out, ']');
      return;
    }
  writer->level++;
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (writer->out, ',');
      if (writer->pretty)
        write_indent (writer, writer->level);
      write_node (writer, json_array_get_element (array, i));
    }
  writer->level--;
  if (writer->pretty)
    write_indent (writer, writer->level);
  g_string_append_c (writer->out, ']');
}

static void
write_node (Writer   *writer,
            JsonNode *node)
{
  switch (node != NULL ? json_node_get_node_type (node) : JSON_NODE_NULL)
    {
    case JSON_NODE_OBJECT:
      write_object (writer, json_node_get_object (node));
      break;

    case JSON_NODE_ARRAY:
      write_array (writer, json_node_get_array (node));
      break;

    case JSON_NODE_VALUE:
      write_value (writer, node);
      break;

    case JSON_NODE_NULL:
    default:
      g_string_append (writer->out, "null");
      break;
    }
}

/**
 * tb_json_to_data:
 * @node: (nullable): a node
 * @pretty: whether to indent, two spaces a level
 * @length: (out) (optional): the length of the text in bytes
 *
 * Writes @node as JSON text: numbers as a person writes them (3.14, not
 * 3.1400000000000001), every control character escaped, non-ASCII text
 * as UTF-8.
 *
 * Returns: (transfer full): the JSON text; "null" for %NULL
 */
char *
tb_json_to_data (JsonNode *node,
                 gboolean  pretty,
                 gsize    *length)
{
  Writer writer = { g_string_sized_new (64), pretty, 0 };

  write_node (&writer, node);
  if (length != NULL)
    *length = writer.out->len;
  return g_string_free (writer.out, FALSE);
}

/**
 * tb_json_to_string:
 * @node: (nullable): a node
 * @pretty: whether to indent
 *
 * tb_json_to_data() without the length.
 *
 * Returns: (transfer full): the JSON text; "null" for %NULL
 */
char *
tb_json_to_string (JsonNode *node,
                   gboolean  pretty)
{
  return tb_json_to_data (node, pretty, NULL);
}
