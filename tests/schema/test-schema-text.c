/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-schema-text"

#include "config.h"

#include <string.h>
#include <toolbench.h>

#include "schema-suite-util.h"

/* tb_schema_validate_text() against tb_json_parse() + tb_schema_validate_full():
 * the same verdicts and errors on every instance of the official test
 * suite, the same sentences for text that is not JSON, and schemas that
 * compile to very large programs stay within their bounds. */

typedef struct
{
  TbSchemaRegistry *registry;
  guint             compared;
  guint             differ;
  GString          *report;
} Suite;

/* Both ways, both flags: the verdicts and the errors must be the same. */
static void
compare_text (Suite      *s,
              TbSchema   *schema,
              const char *text,
              const char *key)
{
  static const TbSchemaValidateFlags flags[] = {
    TB_SCHEMA_VALIDATE_ALL_ERRORS, TB_SCHEMA_VALIDATE_FIRST_ERROR
  };

  for (guint f = 0; f < G_N_ELEMENTS (flags); f++)
    {
      g_autoptr(GError) tree_error = NULL;
      g_autoptr(GError) text_error = NULL;
      g_autoptr(JsonNode) node = tb_json_parse (text, -1, &tree_error);
      g_autoptr(GPtrArray) tree_errors = NULL;
      g_autoptr(GPtrArray) text_errors = NULL;
      g_autofree char *tree_said = NULL;
      g_autofree char *text_said = NULL;
      gboolean tree_ok = FALSE, text_ok;

      if (node != NULL)
        tree_ok = tb_schema_validate_full (schema, node, flags[f], &tree_errors);
      text_ok = tb_schema_validate_text (schema, text, -1, flags[f], &text_errors, &text_error);
      /* And the verdict alone. */
      g_assert_cmpint (tb_schema_validate_text (schema, text, -1, flags[f], NULL, NULL), ==,
                       text_ok);

      tree_said = tree_error != NULL ? g_strdup (tree_error->message)
                                     : schema_errors_describe (tree_errors);
      text_said = text_error != NULL ? g_strdup (text_error->message)
                                     : schema_errors_describe (text_errors);
      s->compared++;
      if (tree_ok != text_ok || g_strcmp0 (tree_said, text_said) != 0)
        {
          s->differ++;
          g_string_append_printf (s->report, "%s (flags %d): %s\n--- parsed: %s--- text: %s\n",
                                  key, flags[f], text, tree_said, text_said);
        }
    }
}

static void
run_file (Suite         *s,
          TbSchemaDraft  draft,
          const char    *path,
          gboolean       assert_format)
{
  g_autoptr(JsonNode) root = schema_suite_load_json (path);
  JsonArray *groups = json_node_get_array (root);

  for (guint g = 0; g < json_array_get_length (groups); g++)
    {
      JsonObject *group = json_array_get_object_element (groups, g);
      JsonArray *tests = json_object_get_array_member (group, "tests");
      g_autoptr(TbSchema) schema = NULL;

      schema = tb_schema_new_full (json_object_get_member (group, "schema"), draft,
                                   assert_format ? TB_SCHEMA_FLAGS_ASSERT_FORMAT
                                                 : TB_SCHEMA_FLAGS_NONE,
                                   s->registry, NULL);
      if (schema == NULL)
        continue;

      for (guint t = 0; t < json_array_get_length (tests); t++)
        {
          JsonObject *test = json_array_get_object_element (tests, t);
          g_autofree char *text = tb_json_to_string (json_object_get_member (test, "data"),
                                                     FALSE);
          g_autofree char *pretty = tb_json_to_string (json_object_get_member (test, "data"),
                                                       TRUE);
          g_autofree char *key =
            g_strdup_printf ("%s | %s | %s", path,
                             json_object_get_string_member (group, "description"),
                             json_object_get_string_member (test, "description"));

          compare_text (s, schema, text, key);
          compare_text (s, schema, pretty, key);
        }
    }
}

static void
run_tree (Suite         *s,
          TbSchemaDraft  draft,
          const char    *folder,
          gboolean       assert_format)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        run_tree (s, draft, path, assert_format || g_str_equal (name, "format"));
      else if (g_str_has_suffix (name, ".json"))
        run_file (s, draft, path, assert_format);
    }
}

static void
run_suite (const char    *suite,
           const char    *folder,
           TbSchemaDraft  draft)
{
  g_autofree char *tests = g_build_filename (suite, "tests", folder, NULL);
  g_autofree char *remotes = g_build_filename (suite, "remotes", NULL);
  Suite s = { 0 };

  if (!g_file_test (tests, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *message = g_strdup_printf ("the suite's tests are not at %s", tests);

      g_test_skip (message);
      return;
    }

  s.registry = tb_schema_registry_new ();
  s.report = g_string_new (NULL);
  schema_suite_add_remotes (s.registry, remotes, "http://localhost:1234/");
  run_tree (&s, draft, tests, FALSE);

  g_test_message ("%s: %u comparisons, %u differ", folder, s.compared, s.differ);
  if (s.differ > 0)
    g_test_message ("%s", s.report->str);
  g_assert_cmpuint (s.compared, >, 1000);
  g_assert_cmpuint (s.differ, ==, 0);

  g_object_unref (s.registry);
  g_string_free (s.report, TRUE);
}

static void
test_suite_2020 (void)
{
  g_autofree char *suite = schema_suite_root_2020 ();

  if (suite == NULL)
    {
      g_test_skip ("TOOLBENCH_SOURCE_ROOT is not set");
      return;
    }
  run_suite (suite, "draft2020-12", TB_SCHEMA_DRAFT_AUTO);
}

static void
test_suite_7 (void)
{
  run_suite (DEBIAN_SUITE, "draft7", TB_SCHEMA_DRAFT_7);
}

static TbSchema *
compile (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (text, -1, &error);
  TbSchema *schema;

  g_assert_no_error (error);
  schema = tb_schema_new (node, TB_SCHEMA_DRAFT_AUTO, &error);
  g_assert_no_error (error);
  return schema;
}

static const char *tool_schema =
  "{\"type\":\"object\",\"properties\":{"
  "\"path\":{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^[a-z/.]+$\"},"
  "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100},"
  "\"mode\":{\"enum\":[\"read\",\"write\"]},"
  "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":2},"
  "\"owner\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},"
  "\"required\":[\"name\"]}},"
  "\"required\":[\"path\",\"mode\"],\"additionalProperties\":false}";

/* Text that is not JSON: the parser's own sentence, and no error list. */
static void
assert_refused_like_parser (TbSchema   *schema,
                            const char *text,
                            gssize      length,
                            int         code)
{
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (text, length, &parse_error);
  GPtrArray *errors = (GPtrArray *) 0x1;

  g_assert_null (node);
  g_assert_error (parse_error, TB_JSON_ERROR, code);
  g_assert_false (tb_schema_validate_text (schema, text, length, TB_SCHEMA_VALIDATE_ALL_ERRORS,
                                           &errors, &error));
  g_assert_error (error, TB_JSON_ERROR, code);
  g_assert_cmpstr (error->message, ==, parse_error->message);
  g_assert_null (errors);
}

static void
test_bad_text (void)
{
  g_autoptr(TbSchema) schema = compile (tool_schema);
  g_autofree char *deep = NULL;
  g_autofree char *huge = NULL;
  g_autoptr(GString) many = g_string_new ("[");
  gsize huge_len = TB_JSON_MAX_SIZE + 1;

  assert_refused_like_parser (schema, "", -1, TB_JSON_ERROR_EMPTY);
  assert_refused_like_parser (schema, "  \n", -1, TB_JSON_ERROR_EMPTY);
  assert_refused_like_parser (schema, "{\"path\":\"a\",", -1, TB_JSON_ERROR_SYNTAX);
  assert_refused_like_parser (schema, "{\"path\":\"a\"} {}", -1, TB_JSON_ERROR_SYNTAX);
  assert_refused_like_parser (schema, "[1,]", -1, TB_JSON_ERROR_SYNTAX);
  assert_refused_like_parser (schema, "{\"path\":\"\xff\"}", -1, TB_JSON_ERROR_INVALID_UTF8);
  /* A NUL inside the text, with its length given. */
  assert_refused_like_parser (schema, "{\"path\":\"a\"}\0x", 14, TB_JSON_ERROR_INVALID_UTF8);

  deep = g_malloc (2001);
  memset (deep, '[', 1000);
  memset (deep + 1000, ']', 1000);
  deep[2000] = '\0';
  assert_refused_like_parser (schema, deep, -1, TB_JSON_ERROR_TOO_DEEP);

  /* Larger than the limit: refused by its length, before it is read. */
  huge = g_malloc (huge_len + 1);
  memset (huge, ' ', huge_len);
  huge[0] = '{';
  huge[1] = '}';
  huge[huge_len] = '\0';
  assert_refused_like_parser (schema, huge, huge_len, TB_JSON_ERROR_TOO_LARGE);

  /* More values than the text's size allows. */
  for (guint i = 0; i < 2 * TB_JSON_MAX_VALUES_BASE; i++)
    g_string_append (many, i > 0 ? ",1" : "1");
  g_string_append_c (many, ']');
  assert_refused_like_parser (schema, many->str, many->len, TB_JSON_ERROR_TOO_MANY_VALUES);
}

static void
assert_same (TbSchema   *schema,
             const char *text)
{
  Suite s = { 0 };

  s.report = g_string_new (NULL);
  compare_text (&s, schema, text, "case");
  if (s.differ > 0)
    g_test_message ("%s", s.report->str);
  g_assert_cmpuint (s.differ, ==, 0);
  g_string_free (s.report, TRUE);
}

/* What json-glib reads its own way goes to it: the same result either way. */
static void
test_lenient_text (void)
{
  g_autoptr(TbSchema) schema = compile (tool_schema);
  g_autoptr(TbSchema) open = compile ("{\"properties\":{\"a\":{\"type\":\"string\"}},"
                                      "\"additionalProperties\":{\"type\":\"integer\"},"
                                      "\"maxProperties\":2}");
  const char *texts[] = {
    "{\"path\":\"a\",\"mode\":\"read\",\"mode\":\"delete\"}",
    "{\"path\":\"a\",\"mode\":\"delete\",\"mode\":\"read\"}",
    "{\"path\":\"a\\u0000b\",\"mode\":\"read\"}",
    "{\"p\\u0061th\":\"a\",\"mode\":\"read\"}",
    "{\"path\":\"\\ud83d\\ude00\",\"mode\":\"read\"}",
    "{\"path\":\"\\ud83d\",\"mode\":\"read\"}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":99999999999999999999}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":-9223372036854775808}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":1e999}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":01}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":1.}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":0x10}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":5.0}",
    "{\"path\":\"a\",\"mode\":\"read\",\"limit\":1e1}",
    "{\"path\":\"a\",\"mode\":\"re\tad\"}",
    "{\"mode\":\"write\",\"tags\":[\"a\",2,\"c\"],\"owner\":{},\"x\":1,\"y\":2}",
    "[\"path\"]",
    "\"text\"",
    "42",
    "null",
  };
  const char *open_texts[] = {
    "{\"b\":1,\"b\":\"x\"}",
    "{\"b\":\"x\",\"b\":1}",
    "{\"a\":1,\"b\":\"x\",\"c\":true}",
    "{\"\\u0062\":\"x\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    assert_same (schema, texts[i]);
  for (guint i = 0; i < G_N_ELEMENTS (open_texts); i++)
    assert_same (open, open_texts[i]);
}

/* Errors in the order the tree validator finds them: an object's required
 * members and size before its members' errors, an array's length before
 * its items'. */
static void
test_error_order (void)
{
  g_autoptr(TbSchema) schema = compile (tool_schema);
  g_autoptr(GPtrArray) errors = NULL;
  g_autoptr(GPtrArray) first = NULL;
  TbSchemaError *e;

  g_assert_false (tb_schema_validate_text (schema,
                                           "{\"tags\":[\"a\",1,\"b\"],\"limit\":0,\"x\":1}", -1,
                                           TB_SCHEMA_VALIDATE_ALL_ERRORS, &errors, NULL));
  g_assert_cmpuint (errors->len, ==, 6);
  e = g_ptr_array_index (errors, 0);
  g_assert_cmpstr (e->message, ==, "is missing required property “path”");
  e = g_ptr_array_index (errors, 2);
  g_assert_cmpstr (e->instance_path, ==, "/tags");
  g_assert_cmpstr (e->keyword, ==, "maxItems");
  e = g_ptr_array_index (errors, 3);
  g_assert_cmpstr (e->instance_path, ==, "/tags/1");
  g_assert_cmpstr (e->message, ==, "must be of type string, not integer");
  e = g_ptr_array_index (errors, 5);
  g_assert_cmpstr (e->message, ==, "has unexpected property “x”");

  g_assert_false (tb_schema_validate_text (schema,
                                           "{\"tags\":[\"a\",1,\"b\"],\"limit\":0,\"x\":1}", -1,
                                           TB_SCHEMA_VALIDATE_FIRST_ERROR, &first, NULL));
  g_assert_cmpuint (first->len, ==, 1);
  e = g_ptr_array_index (first, 0);
  g_assert_cmpstr (e->message, ==, "is missing required property “path”");
  g_assert_cmpstr (e->schema_path, ==, "/required");
}

static char *
wide_schema (guint n)
{
  GString *text = g_string_new ("{\"type\":\"object\",\"properties\":{");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s\"p%u\":{\"type\":\"integer\",\"maximum\":%u}",
                            i > 0 ? "," : "", i, i);
  g_string_append (text, "},\"additionalProperties\":false}");
  return g_string_free (text, FALSE);
}

/* Schemas that compile to very large programs: refused with a sentence that
 * names the bound, or validated within one. */
static void
test_large_programs (void)
{
  g_autofree char *wide = wide_schema (10000);
  g_autoptr(TbSchema) wide_schema_ = compile (wide);
  g_autoptr(GString) chain = g_string_new ("{\"$ref\":\"#/$defs/d0\",\"$defs\":{");
  g_autoptr(TbSchema) chained = NULL;
  g_autoptr(GString) values = g_string_new ("{\"enum\":[");
  g_autoptr(TbSchema) huge_enum = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) nested = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TbSchema) refused = NULL;
  g_autoptr(GPtrArray) errors = NULL;
  TbSchemaError *e;

  /* 10,000 properties: the text validator leaves them to the tree. */
  g_assert_true (tb_schema_validate_text (wide_schema_, "{\"p9999\":9999,\"p5\":5}", -1,
                                          TB_SCHEMA_VALIDATE_ALL_ERRORS, NULL, NULL));
  g_assert_false (tb_schema_validate_text (wide_schema_, "{\"p9999\":10000}", -1,
                                           TB_SCHEMA_VALIDATE_ALL_ERRORS, &errors, NULL));
  e = g_ptr_array_index (errors, 0);
  g_assert_cmpstr (e->instance_path, ==, "/p9999");
  g_assert_cmpstr (e->message, ==, "must be at most 9999");
  g_clear_pointer (&errors, g_ptr_array_unref);

  /* A chain of 1,000 references: past TB_SCHEMA_MAX_IN_PLACE the validator
   * stops and says so, by text as by tree. */
  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (chain, "\"d%u\":{\"$ref\":\"#/$defs/d%u\"},", i, i + 1);
  g_string_append (chain, "\"d1000\":{\"type\":\"string\"}}}");
  chained = compile (chain->str);
  g_assert_false (tb_schema_validate_text (chained, "\"x\"", -1, TB_SCHEMA_VALIDATE_ALL_ERRORS,
                                           &errors, NULL));
  e = g_ptr_array_index (errors, 0);
  g_assert_cmpstr (e->message, ==, "applies more than 128 schemas to the same value inside one "
                   "another; the schema refers to itself without descending into the value");
  g_clear_pointer (&errors, g_ptr_array_unref);
  assert_same (chained, "\"x\"");

  /* An enum of 100,000 values: linear, no more. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (values, "%s\"v%u\"", i > 0 ? "," : "", i);
  g_string_append (values, "]}");
  huge_enum = compile (values->str);
  g_assert_true (tb_schema_validate_text (huge_enum, "\"v99999\"", -1,
                                          TB_SCHEMA_VALIDATE_ALL_ERRORS, NULL, NULL));
  g_assert_false (tb_schema_validate_text (huge_enum, "\"w\"", -1,
                                           TB_SCHEMA_VALIDATE_ALL_ERRORS, NULL, NULL));

  /* A schema nested 1,000 levels deep (built in C: as text the parser
   * refuses it first) is refused, naming the bound. */
  for (guint i = 0; i < 1000; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "properties");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "a");
    }
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  for (guint i = 0; i < 1000; i++)
    {
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  nested = json_builder_get_root (builder);
  refused = tb_schema_new (nested, TB_SCHEMA_DRAFT_AUTO, &error);
  g_assert_null (refused);
  g_assert_error (error, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_TOO_DEEP);
  g_assert_nonnull (strstr (error->message, "512"));
}

static char *
nested_text (const char *open,
             const char *inner,
             const char *close,
             guint       depth)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (text, open);
  g_string_append (text, inner);
  for (guint i = 0; i < depth; i++)
    g_string_append (text, close);
  return g_string_free (text, FALSE);
}

/* Recursive schemas stream down to the deepest text the parser accepts,
 * and agree with it past that. */
static void
test_deep_text (void)
{
  g_autoptr(TbSchema) arrays = compile ("{\"type\":\"array\",\"items\":{\"$ref\":\"#\"},"
                                        "\"maxItems\":1}");
  g_autoptr(TbSchema) objects = compile ("{\"type\":\"object\",\"properties\":"
                                         "{\"a\":{\"$ref\":\"#\"}},\"required\":[\"a\"]}");
  guint depths[] = { 1, 100, 511, 512, 513, 2000 };

  for (guint i = 0; i < G_N_ELEMENTS (depths); i++)
    {
      g_autofree char *deep_arrays = nested_text ("[", "", "]", depths[i]);
      g_autofree char *bad_arrays = nested_text ("[", "[],[]", "]", depths[i]);
      g_autofree char *deep_objects = nested_text ("{\"a\":", "{}", "}", depths[i]);

      assert_same (arrays, deep_arrays);
      assert_same (arrays, bad_arrays);
      assert_same (objects, deep_objects);
    }
}

/* The strings of an error live in one allocation with it; one made by hand
 * is freed field by field. */
static void
test_error_alloc (void)
{
  TbSchemaError *e = tb_schema_error_new ("/a", "#/type", "type", "must be a string");
  TbSchemaError *copy = tb_schema_error_copy (e);
  TbSchemaError *by_hand = g_new0 (TbSchemaError, 1);

  g_assert_cmpstr (copy->instance_path, ==, "/a");
  g_assert_cmpstr (copy->schema_path, ==, "#/type");
  g_assert_cmpstr (copy->keyword, ==, "type");
  g_assert_cmpstr (copy->message, ==, "must be a string");
  tb_schema_error_free (e);
  tb_schema_error_free (copy);

  by_hand->instance_path = g_strdup ("/b");
  by_hand->message = g_strdup ("m");
  tb_schema_error_free (by_hand);

  e = tb_schema_error_new (NULL, NULL, NULL, NULL);
  g_assert_cmpstr (e->instance_path, ==, "");
  g_assert_cmpstr (e->message, ==, "");
  tb_schema_error_free (e);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/schema/text/suite/draft2020-12", test_suite_2020);
  g_test_add_func ("/schema/text/suite/draft7", test_suite_7);
  g_test_add_func ("/schema/text/bad", test_bad_text);
  g_test_add_func ("/schema/text/lenient", test_lenient_text);
  g_test_add_func ("/schema/text/error-order", test_error_order);
  g_test_add_func ("/schema/text/large-programs", test_large_programs);
  g_test_add_func ("/schema/text/deep", test_deep_text);
  g_test_add_func ("/schema/text/error-alloc", test_error_alloc);

  return g_test_run ();
}
