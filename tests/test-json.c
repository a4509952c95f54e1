/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>
#include <toolbench.h>

static char *
nested (guint depth)
{
  GString *text = g_string_sized_new (depth * 2);

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

static void
test_parse_ok (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse ("{\"a\": [1, 2.5, \"x\", null, true]}", -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  g_assert_true (json_node_is_immutable (node));
}

static void
test_parse_deep (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *ok_text = nested (TB_JSON_MAX_DEPTH);
  g_autofree char *deep_text = nested (100000);
  g_autoptr(JsonNode) ok = NULL;
  g_autoptr(JsonNode) deep = NULL;

  ok = tb_json_parse (ok_text, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ok);
  g_assert_true (tb_json_node_depth_ok (ok, TB_JSON_MAX_DEPTH));
  g_assert_false (tb_json_node_depth_ok (ok, TB_JSON_MAX_DEPTH - 1));

  /* 100,000 levels crash json-glib 1.6; the scan refuses them first. */
  deep = tb_json_parse (deep_text, -1, &error);
  g_assert_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_DEEP);
  g_assert_null (deep);
  g_assert_nonnull (strstr (error->message, "512"));
}

static void
test_parse_brackets_in_strings (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *brackets = g_strnfill (10000, '[');
  g_autofree char *text = g_strdup_printf ("{\"s\": \"%s\\\"]]\"}", brackets);
  g_autoptr(JsonNode) node = tb_json_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
}

static void
test_parse_bad (void)
{
  static const struct { const char *text; gssize len; int code; } cases[] = {
    { "", -1, TB_JSON_ERROR_EMPTY },
    { "   \n", -1, TB_JSON_ERROR_EMPTY },
    { "{\"a\":", -1, TB_JSON_ERROR_SYNTAX },
    { "<html>Bad gateway</html>", -1, TB_JSON_ERROR_SYNTAX },
    { "\"\xff\xfe\"", -1, TB_JSON_ERROR_INVALID_UTF8 },
    { "[1]\0[2]", 7, TB_JSON_ERROR_INVALID_UTF8 },
    /* json-glib would leak the first document's tree */
    { "{\"a\":1}{\"b\":2}", -1, TB_JSON_ERROR_SYNTAX },
    { "[1] x", -1, TB_JSON_ERROR_SYNTAX },
    /* json-glib quotes a lone surrogate as the bytes it decodes to */
    { "{\"a\":{\"b\":\"\\ud800\"},\"c\":1}", -1, TB_JSON_ERROR_SYNTAX },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = tb_json_parse (cases[i].text, cases[i].len, &error);

      g_assert_null (node);
      g_assert_error (error, TB_JSON_ERROR, cases[i].code);
      g_assert_cmpstr (error->message, !=, "");
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }
}

static void
test_parse_too_large (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse_full ("[1,2,3,4,5]", -1, 4, TB_JSON_MAX_DEPTH, &error);

  g_assert_null (node);
  g_assert_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_LARGE);
}

static void
test_equal (void)
{
  static const struct { const char *a; const char *b; gboolean equal; } cases[] = {
    { "1", "1.0", TRUE },
    { "1", "2", FALSE },
    { "{\"a\":1,\"b\":[true,null]}", "{\"b\":[true,null],\"a\":1.0}", TRUE },
    { "{\"a\":1}", "{\"a\":1,\"b\":2}", FALSE },
    { "[1,2]", "[2,1]", FALSE },
    { "\"1\"", "1", FALSE },
    { "null", "null", TRUE },
    { "false", "0", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) a = tb_json_parse (cases[i].a, -1, NULL);
      g_autoptr(JsonNode) b = tb_json_parse (cases[i].b, -1, NULL);

      g_assert_cmpint (tb_json_equal (a, b), ==, cases[i].equal);
    }
}

static void
test_describe_type (void)
{
  static const struct { const char *text; const char *type; } cases[] = {
    { "{}", "object" }, { "[]", "array" }, { "\"x\"", "string" }, { "1", "integer" },
    { "1.0", "integer" }, { "1.5", "number" }, { "true", "boolean" }, { "null", "null" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = tb_json_parse (cases[i].text, -1, NULL);
      g_autofree char *type = tb_json_describe_type (node);

      g_assert_cmpstr (type, ==, cases[i].type);
    }
}

/* A document's value budget grows with its size, so ordinary JSON of any
 * size passes while one made of empty objects is refused before json-glib
 * spends 100 bytes on each. */
static void
test_parse_value_budget (void)
{
  g_autoptr(GString) objects = g_string_new ("[");
  g_autoptr(GString) words = g_string_new ("[");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  for (guint i = 0; i < 400000; i++)
    g_string_append (objects, i == 0 ? "{}" : ",{}");
  g_string_append_c (objects, ']');
  node = tb_json_parse (objects->str, objects->len, &error);
  g_assert_null (node);
  g_assert_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_MANY_VALUES);
  g_assert_nonnull (strstr (error->message, "too many for its size"));
  g_clear_error (&error);

  /* 400,000 strings of 12 bytes each: within the budget of 4.8 MB */
  for (guint i = 0; i < 400000; i++)
    g_string_append (words, i == 0 ? "\"abcdefghij\"" : ",\"abcdefghij\"");
  g_string_append_c (words, ']');
  node = tb_json_parse (words->str, words->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (node)), ==, 400000);

  /* brackets and digits inside strings are no values */
  g_clear_pointer (&node, json_node_unref);
  g_assert_cmpuint (tb_json_max_values (0), ==, TB_JSON_MAX_VALUES_BASE);
  g_assert_cmpuint (tb_json_max_values (1000), ==, TB_JSON_MAX_VALUES_BASE + 200);
}

/* json-glib keeps strings as C strings: an escaped NUL would cut a name
 * short ("add\u0000x" would call "add"). */
static void
test_parse_nul_escape (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse ("{\"name\":\"add\\u0000x\",\"k\\u0000\":1,"
                                            "\"k\":2,\"s\":\"\\\\u0000\"}", -1, &error);
  JsonObject *object;

  g_assert_no_error (error);
  object = json_node_get_object (node);
  g_assert_cmpstr (tb_json_object_get_string (object, "name"), ==, "add\uFFFDx");
  g_assert_cmpuint (json_object_get_size (object), ==, 4);
  g_assert_true (json_object_has_member (object, "k\uFFFD"));
  /* an escaped backslash followed by "u0000" is text, not a NUL */
  g_assert_cmpstr (tb_json_object_get_string (object, "s"), ==, "\\u0000");
}

static void
test_format_double (void)
{
  static const struct { double value; const char *text; } cases[] = {
    { 3.14, "3.14" },
    { 0.1, "0.1" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 100, "100" },
    { 42, "42" },
    { -2.5, "-2.5" },
    { 0.000123, "0.000123" },
    { 1e30, "1e+30" },
    { 1.5e-7, "1.5e-07" },
    { 12345678901234567.0, "12345678901234568" },
    { 0, "0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = tb_json_format_double (cases[i].value);

      g_assert_cmpstr (text, ==, cases[i].text);
    }

  /* Every text reads back as the same number. */
  for (guint i = 0; i < 2000; i++)
    {
      double value = g_test_rand_double_range (-1e6, 1e6) * pow (10, g_test_rand_int_range (-8, 8));
      g_autofree char *text = tb_json_format_double (value);

      g_assert_cmpfloat (g_ascii_strtod (text, NULL), ==, value);
      g_assert_null (strchr (text, ','));
    }
}

static void
test_int_in_range (void)
{
  g_autoptr(JsonNode) node = tb_json_parse ("{\"max\":4294967296,\"n\":7,\"s\":\"7\","
                                            "\"d\":1.5}", -1, NULL);
  JsonObject *object = json_node_get_object (node);
  g_autoptr(GError) error = NULL;
  gint64 value = 42;

  g_assert_true (tb_json_object_get_int_in_range (object, "absent", 1, 10, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, 42);
  g_assert_true (tb_json_object_get_int_in_range (object, "n", 1, 10, &value, &error));
  g_assert_cmpint (value, ==, 7);

  g_assert_false (tb_json_object_get_int_in_range (object, "max", 1, G_MAXUINT, &value, &error));
  g_assert_error (error, TB_JSON_ERROR, TB_JSON_ERROR_OUT_OF_RANGE);
  g_assert_cmpstr (error->message, ==,
                   "“max” is 4294967296; it must be a whole number from 1 to 4294967295");
  g_assert_cmpint (value, ==, 7);
  g_clear_error (&error);

  g_assert_false (tb_json_object_get_int_in_range (object, "s", 0, 10, &value, &error));
  g_assert_cmpstr (error->message, ==, "“s” is \"7\"; it must be a whole number from 0 to 10");
  g_clear_error (&error);
  g_assert_false (tb_json_object_get_int_in_range (object, "d", 0, 10, &value, &error));
  g_assert_error (error, TB_JSON_ERROR, TB_JSON_ERROR_OUT_OF_RANGE);
}

/* The writer against json-glib's generator: the same text for every
 * document without doubles, compact and pretty (json-glib's "{  }" for an
 * empty object aside), over random trees. */
static JsonNode *
random_node (GRand *rand,
             guint  depth)
{
  static const char *const names[] = { "a", "b c", "\"q\"", "\\", "é", "\n", "" };
  guint kind = g_rand_int_range (rand, 0, depth > 4 ? 4 : 6);
  JsonNode *node;

  switch (kind)
    {
    case 0:
      return json_node_new (JSON_NODE_NULL);
    case 1:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, (gint64) g_rand_int (rand) * (g_rand_boolean (rand) ? 1 : -1000003));
      return node;
    case 2:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, g_rand_boolean (rand));
      return node;
    case 3:
      {
        char text[8];
        guint n = g_rand_int_range (rand, 0, G_N_ELEMENTS (text));

        /* mostly printable, sometimes an escape json-glib writes too */
        for (guint i = 0; i < n; i++)
          text[i] = g_rand_int_range (rand, 0, 8) == 0
                    ? "\n\t\"\\\b\f\r\x7f"[g_rand_int_range (rand, 0, 8)]
                    : (char) g_rand_int_range (rand, 0x20, 0x7f);
        text[n] = '\0';
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_string (node, text);
        return node;
      }
    case 4:
      {
        JsonObject *object = json_object_new ();
        guint n = g_rand_int_range (rand, 1, 5);

        /* json-glib 1.6 leaks a member it replaces: names are used once */
        for (guint i = 0; i < n; i++)
          {
            const char *name = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];

            if (!json_object_has_member (object, name))
              json_object_set_member (object, name, random_node (rand, depth + 1));
          }
        node = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (node, object);
        return node;
      }
    default:
      {
        JsonArray *array = json_array_new ();
        guint n = g_rand_int_range (rand, 0, 5);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array, random_node (rand, depth + 1));
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (node, array);
        return node;
      }
    }
}

static char *
generate (JsonNode *node,
          gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

static void
test_write_like_generator (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261123);
  guint compared = 0;

  for (guint i = 0; i < 2000; i++)
    {
      g_autoptr(JsonNode) node = random_node (rand, 0);

      for (guint pretty = 0; pretty < 2; pretty++)
        {
          g_autofree char *ours = tb_json_to_string (node, pretty);
          g_autofree char *theirs = generate (node, pretty);
          g_autoptr(GError) error = NULL;
          g_autoptr(JsonNode) back = NULL;

          /* json-glib writes 0x01..0x1f other than \b \f \n \r \t raw in
           * strings, which no JSON reader accepts; ours are escaped. */
          if (strpbrk (theirs, "\x01\x02\x03\x04\x05\x06\x07\x0b\x0e\x0f\x10\x11\x12"
                               "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f") == NULL
              && strstr (theirs, "{ ") == NULL)
            {
              g_assert_cmpstr (ours, ==, theirs);
              compared++;
            }

          back = tb_json_parse (ours, -1, &error);
          g_assert_no_error (error);
          g_assert_true (tb_json_equal (back, node));
        }
    }
  g_test_message ("%u of 4000 texts compared with json-glib's", compared);
  g_assert_cmpuint (compared, >, 3000);
}

static void
assert_writes (double      value,
               const char *expected)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text = NULL;

  json_node_set_double (node, value);
  text = tb_json_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, expected);
}

/* Numbers go on the wire as a person wrote them and read back the same. */
static void
test_write_numbers (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(JsonNode) parsed = NULL;
  g_autofree char *text = NULL;

  assert_writes (3.14, "3.14");
  assert_writes (0.1, "0.1");
  assert_writes (1.0, "1.0");
  assert_writes (100.0, "100.0");
  assert_writes (-0.0, "-0.0");
  assert_writes (2.5e-7, "2.5e-07");
  assert_writes (1e300, "1e+300");
  assert_writes (INFINITY, "null");
  assert_writes (NAN, "null");

  parsed = tb_json_parse ("{\"a\":3.14,\"b\":[0.30000000000000004,1e21,7],\"c\":{}}", -1, NULL);
  text = tb_json_to_string (parsed, FALSE);
  g_assert_cmpstr (text, ==, "{\"a\":3.14,\"b\":[0.30000000000000004,1e+21,7],\"c\":{}}");
  g_clear_pointer (&text, g_free);
  text = tb_json_to_string (parsed, TRUE);
  g_assert_cmpstr (text, ==, "{\n  \"a\" : 3.14,\n  \"b\" : [\n    0.30000000000000004,\n"
                             "    1e+21,\n    7\n  ],\n  \"c\" : {}\n}");

  for (guint i = 0; i < 100000; i++)
    {
      union { guint64 bits; double value; } u;
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
      g_autoptr(JsonNode) back = NULL;
      g_autofree char *written = NULL;

      u.bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      if (!isfinite (u.value))
        continue;
      json_node_set_double (node, u.value);
      written = tb_json_to_string (node, FALSE);
      back = tb_json_parse (written, -1, NULL);
      g_assert_nonnull (back);
      g_assert_cmpint (json_node_get_value_type (back), ==, G_TYPE_DOUBLE);
      if (json_node_get_double (back) != u.value)
        g_error ("%s read back as %.17g, not %.17g", written, json_node_get_double (back), u.value);
    }
}

/* Every control character is escaped, so the text is JSON any reader takes. */
static void
test_write_controls (void)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text = NULL;

  json_node_set_string (node, "\x01\x1f\x7f\t\"\\é\xe2\x80\xa8");
  text = tb_json_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, "\"\\u0001\\u001f\\u007f\\t\\\"\\\\é\xe2\x80\xa8\"");
}

/* RFC 6901's own examples, and what is not an index. */
static void
test_pointer_get (void)
{
  static const struct { const char *pointer; const char *value; } cases[] = {
    { "", NULL },
    { "/foo", "[\"bar\",\"baz\"]" },
    { "/foo/0", "\"bar\"" },
    { "/", "0" },
    { "/a~1b", "1" },
    { "/c%d", "2" },
    { "/e^f", "3" },
    { "/g|h", "4" },
    { "/i\\j", "5" },
    { "/k\"l", "6" },
    { "/ ", "7" },
    { "/m~0n", "8" },
  };
  static const char *const missing[] = {
    "foo", "/foo/00", "/foo/01", "/foo/-", "/foo/2", "/foo/1x", "/foo/-1", "/x~2",
    "/foo/99999999999999999999", "/a~1b/c",
  };
  g_autoptr(JsonNode) doc = tb_json_parse ("{\"foo\":[\"bar\",\"baz\"],\"\":0,\"a/b\":1,"
                                           "\"c%d\":2,\"e^f\":3,\"g|h\":4,\"i\\\\j\":5,"
                                           "\"k\\\"l\":6,\" \":7,\"m~n\":8}", -1, NULL);
  guint index = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      JsonNode *found = tb_json_pointer_get (doc, cases[i].pointer);
      g_autofree char *text = NULL;

      g_assert_nonnull (found);
      if (cases[i].value == NULL)
        {
          g_assert_true (found == doc);
          continue;
        }
      text = tb_json_to_string (found, FALSE);
      g_assert_cmpstr (text, ==, cases[i].value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (missing); i++)
    g_assert_null (tb_json_pointer_get (doc, missing[i]));

  g_assert_true (tb_json_pointer_parse_index ("0", &index) && index == 0);
  g_assert_true (tb_json_pointer_parse_index ("4294967295", &index) && index == G_MAXUINT);
  g_assert_false (tb_json_pointer_parse_index ("4294967296", &index));
  g_assert_false (tb_json_pointer_parse_index ("", &index));
  g_assert_false (tb_json_pointer_parse_index ("+1", &index));

  /* a $ref fragment is percent-encoded first */
  g_assert_nonnull (tb_schema_follow_fragment (doc, "/c%25d"));
  g_assert_null (tb_schema_follow_fragment (doc, "/c%d"));
}

/* Text quoted in messages: valid UTF-8, cut on a character, never longer
 * than asked. */
static void
test_text_shorten (void)
{
  g_autofree char *same = tb_text_shorten ("short", -1, 10);
  g_autofree char *cut = tb_text_shorten ("ééééé", -1, 3);
  g_autofree char *part = tb_text_shorten ("abcdef", 4, 10);
  g_autofree char *broken = tb_text_shorten ("a\xff" "b", -1, 10);
  g_autofree char *none = tb_text_shorten (NULL, -1, 10);

  g_assert_cmpstr (same, ==, "short");
  g_assert_cmpstr (cut, ==, "éé…");
  g_assert_cmpstr (part, ==, "abcd");
  g_assert_true (g_utf8_validate (broken, -1, NULL));
  g_assert_cmpstr (none, ==, "");
}

/* Members read from outside may hold anything: the typed getters give the
 * default for a member of another type, without a critical warning. */
static void
test_typed_getters (void)
{
  g_autoptr(JsonNode) node = tb_json_parse ("{\"t\":true,\"f\":false,\"a\":[],\"o\":{},\"n\":null,"
                                            "\"s\":\"yes\",\"i\":1}", -1, NULL);
  JsonObject *object = json_node_get_object (node);

  g_assert_true (tb_json_object_get_boolean (object, "t", FALSE));
  g_assert_false (tb_json_object_get_boolean (object, "f", TRUE));
  for (guint i = 0; i < 6; i++)
    {
      const char *member = (const char *[]) { "a", "o", "n", "s", "i", "missing" }[i];

      g_assert_true (tb_json_object_get_boolean (object, member, TRUE));
      g_assert_false (tb_json_object_get_boolean (object, member, FALSE));
      if (!g_str_equal (member, "s"))
        g_assert_null (tb_json_object_get_string (object, member));
    }
  g_assert_false (tb_json_object_get_boolean (NULL, "t", FALSE));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/parse/ok", test_parse_ok);
  g_test_add_func ("/json/typed-getters", test_typed_getters);
  g_test_add_func ("/json/parse/deep", test_parse_deep);
  g_test_add_func ("/json/parse/brackets-in-strings", test_parse_brackets_in_strings);
  g_test_add_func ("/json/parse/bad", test_parse_bad);
  g_test_add_func ("/json/parse/too-large", test_parse_too_large);
  g_test_add_func ("/json/parse/value-budget", test_parse_value_budget);
  g_test_add_func ("/json/parse/nul-escape", test_parse_nul_escape);
  g_test_add_func ("/json/format-double", test_format_double);
  g_test_add_func ("/json/write/like-generator", test_write_like_generator);
  g_test_add_func ("/json/write/numbers", test_write_numbers);
  g_test_add_func ("/json/write/controls", test_write_controls);
  g_test_add_func ("/json/pointer/get", test_pointer_get);
  g_test_add_func ("/text/shorten", test_text_shorten);
  g_test_add_func ("/json/int-in-range", test_int_in_range);
  g_test_add_func ("/json/equal", test_equal);
  g_test_add_func ("/json/describe-type", test_describe_type);

  return g_test_run ();
}
