/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-schema"

#include "config.h"

#include <math.h>
#include <string.h>
#include <toolbench.h>
#include "../test-json-util.h"

typedef struct
{
  TbSchema  *schema;
  GPtrArray *errors;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_clear_pointer (&f->errors, g_ptr_array_unref);
  if (f->schema != NULL)
    g_assert_finalize_object (f->schema);
}

static TbSchema *
compile (const char *text)
{
  g_autoptr(JsonNode) node = test_parse (text);
  g_autoptr(GError) error = NULL;
  TbSchema *schema = tb_schema_new (node, TB_SCHEMA_DRAFT_AUTO, &error);

  g_assert_no_error (error);
  g_assert_nonnull (schema);
  return schema;
}

static GError *
refuse (const char    *text,
        TbSchemaDraft  draft)
{
  g_autoptr(JsonNode) node = test_parse (text);
  GError *error = NULL;
  TbSchema *schema = tb_schema_new (node, draft, &error);

  g_assert_null (schema);
  g_assert_nonnull (error);
  g_assert_true (error->domain == TB_SCHEMA_COMPILE_ERROR);
  return error;
}

/* Validates and returns the errors as "path|keyword|message" lines. */
static char *
check (Fixture    *f,
       const char *instance_text)
{
  g_autoptr(JsonNode) instance = test_parse (instance_text);
  GString *out = g_string_new (NULL);
  gboolean valid;

  g_clear_pointer (&f->errors, g_ptr_array_unref);
  valid = tb_schema_validate (f->schema, instance, &f->errors);
  g_assert_cmpint (valid, ==, f->errors->len == 0);
  for (guint i = 0; i < f->errors->len; i++)
    {
      TbSchemaError *e = g_ptr_array_index (f->errors, i);

      g_string_append_printf (out, "%s%s|%s|%s", i > 0 ? "\n" : "", e->instance_path,
                              e->keyword, e->message);
    }
  return g_string_free (out, FALSE);
}

#define TOOL_SCHEMA \
  "{\"type\":\"object\",\"properties\":{" \
  "\"path\":{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^[a-z/]+$\"}," \
  "\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10}," \
  "\"unit\":{\"enum\":[\"c\",\"f\"]}," \
  "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":3}," \
  "\"owner\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}," \
  "\"required\":[\"name\"]}," \
  "\"force\":{\"type\":\"boolean\"}}," \
  "\"required\":[\"path\"],\"additionalProperties\":false}"

static void
test_messages (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *ok = NULL;
  g_autofree char *bad = NULL;
  TbSchemaError *e;

  f->schema = compile (TOOL_SCHEMA);
  ok = check (f, "{\"path\":\"a/b\",\"count\":10,\"unit\":\"c\",\"tags\":[\"x\"],"
                 "\"owner\":{\"name\":\"n\"},\"force\":true}");
  g_assert_cmpstr (ok, ==, "");

  bad = check (f, "{\"count\":11,\"unit\":\"k\",\"tags\":[\"a\",2,\"c\",\"d\"],"
                  "\"owner\":{},\"force\":\"yes\",\"extra\":1}");
  g_assert_cmpstr (bad, ==,
                   "|required|is missing required property “path”\n"
                   "/count|maximum|must be at most 10\n"
                   "/unit|enum|must be one of: c, f\n"
                   "/tags|maxItems|must have at most 3 items\n"
                   "/tags/1|type|must be of type string, not integer\n"
                   "/owner|required|is missing required property “name”\n"
                   "/force|type|must be of type boolean, not string\n"
                   "|additionalProperties|has unexpected property “extra”");

  e = g_ptr_array_index (f->errors, 1);
  g_assert_cmpstr (e->schema_path, ==, "/properties/count/maximum");
  e = g_ptr_array_index (f->errors, 4);
  g_assert_cmpstr (e->schema_path, ==, "/properties/tags/items/type");

  {
    g_autofree char *text = check (f, "{\"path\":\"A\"}");

    g_assert_cmpstr (text, ==, "/path|pattern|must match the pattern “^[a-z/]+$”");
  }
  {
    g_autofree char *text = check (f, "[]");

    g_assert_cmpstr (text, ==, "|type|must be of type object, not array");
  }
}

static void
test_first_error (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(JsonNode) instance = test_parse ("{\"count\":0,\"unit\":\"k\"}");
  g_autoptr(GPtrArray) errors = NULL;

  f->schema = compile (TOOL_SCHEMA);
  g_assert_false (tb_schema_validate_full (f->schema, instance, TB_SCHEMA_VALIDATE_FIRST_ERROR,
                                           &errors));
  g_assert_cmpuint (errors->len, ==, 1);
  g_assert_false (tb_schema_validate (f->schema, instance, NULL));
}

static void
test_types (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  f->schema = compile ("{\"type\":\"integer\"}");
  a = check (f, "1.0");
  g_assert_cmpstr (a, ==, "");
  b = check (f, "1.5");
  g_assert_cmpstr (b, ==, "|type|must be of type integer, not number");
  g_assert_finalize_object (f->schema);

  f->schema = compile ("{\"type\":[\"string\",\"null\"]}");
  c = check (f, "null");
  g_assert_cmpstr (c, ==, "");
  d = check (f, "true");
  g_assert_cmpstr (d, ==, "|type|must be of type null or string, not boolean");
}

static void
test_string_length_code_points (Fixture       *f,
                                gconstpointer  data)
{
  g_autofree char *two = NULL, *three = NULL;

  f->schema = compile ("{\"maxLength\":2}");
  two = check (f, "\"é😀\"");
  g_assert_cmpstr (two, ==, "");
  three = check (f, "\"ééé\"");
  g_assert_cmpstr (three, ==, "|maxLength|must be at most 2 characters long");
}

static void
test_ecma_regex (Fixture       *f,
                 gconstpointer  data)
{
  struct { const char *pattern; const char *value; gboolean match; } cases[] = {
    { "^\\\\d$", "\"٣\"", FALSE },        /* \d is ASCII in ECMA-262 */
    { "^\\\\d$", "\"3\"", TRUE },
    { "^\\\\w$", "\"é\"", FALSE },
    { "^\\\\W$", "\"é\"", TRUE },
    { "^[\\\\w]$", "\"é\"", FALSE },
    { "^[\\\\D]$", "\"a\"", TRUE },
    { "^\\\\s$", "\"\\ufeff\"", TRUE },   /* BOM is white space in ECMA-262 */
    { "^a$", "\"a\\n\"", FALSE },         /* $ only at the very end */
    { "^.$", "\"\\n\"", FALSE },
    { "^\\\\u00e9$", "\"é\"", TRUE },
    { "^\\\\ud83d\\\\ude00$", "\"😀\"", TRUE },
    { "^\\\\p{Letter}+$", "\"éa\"", TRUE },
    { "[^]", "\"\\n\"", TRUE },
    { "a[]", "\"a\"", FALSE },
    { "\\\\bfoo\\\\b", "\"éfooé\"", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *schema = g_strdup_printf ("{\"pattern\":\"%s\"}", cases[i].pattern);
      g_autofree char *result = NULL;

      g_clear_object (&f->schema);
      f->schema = compile (schema);
      result = check (f, cases[i].value);
      if (cases[i].match != (result[0] == '\0'))
        g_error ("pattern %s on %s: expected %s", cases[i].pattern, cases[i].value,
                 cases[i].match ? "a match" : "no match");
    }
}

static void
test_formats (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(JsonNode) node = test_parse ("{\"format\":\"date-time\"}");
  g_autoptr(GError) error = NULL;
  g_autofree char *annotation = NULL, *ok = NULL, *bad = NULL;

  f->schema = tb_schema_new (node, TB_SCHEMA_DRAFT_AUTO, &error);
  annotation = check (f, "\"yesterday\"");
  g_assert_cmpstr (annotation, ==, "");
  g_assert_finalize_object (f->schema);

  f->schema = tb_schema_new_full (node, TB_SCHEMA_DRAFT_AUTO, TB_SCHEMA_FLAGS_ASSERT_FORMAT,
                                  NULL, &error);
  g_assert_no_error (error);
  ok = check (f, "\"2024-02-29T12:00:00Z\"");
  g_assert_cmpstr (ok, ==, "");
  bad = check (f, "\"2023-02-29T12:00:00Z\"");
  g_assert_cmpstr (bad, ==, "|format|is not a valid date-time");

  {
    struct { const char *format; const char *good; const char *wrong; } cases[] = {
      { "date", "2020-01-31", "2020-01-32" },
      { "time", "23:59:60Z", "12:00:00" },
      { "email", "a.b@example.com", "a..b@example.com" },
      { "hostname", "example.com", "-bad.com" },
      { "ipv4", "192.168.0.1", "192.168.0.01" },
      { "ipv6", "::1", "1::2::3" },
      { "uri", "https://example.com/a?b#c", "not a uri" },
      { "uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08aa9811eab4aa73b441d16380" },
      { "regex", "^a+$", "(" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *schema_text = g_strdup_printf ("{\"format\":\"%s\"}", cases[i].format);
        g_autoptr(JsonNode) schema_node = test_parse (schema_text);
        g_autofree char *good = g_strdup_printf ("\"%s\"", cases[i].good);
        g_autofree char *wrong = g_strdup_printf ("\"%s\"", cases[i].wrong);
        g_autofree char *good_result = NULL, *wrong_result = NULL;

        g_clear_object (&f->schema);
        f->schema = tb_schema_new_full (schema_node, TB_SCHEMA_DRAFT_AUTO,
                                        TB_SCHEMA_FLAGS_ASSERT_FORMAT, NULL, &error);
        g_assert_no_error (error);
        good_result = check (f, good);
        g_assert_cmpstr (good_result, ==, "");
        wrong_result = check (f, wrong);
        g_assert_true (g_str_has_suffix (wrong_result, cases[i].format));
      }
  }
}

static void
test_registry_remote (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbSchemaRegistry) registry = tb_schema_registry_new ();
  g_autoptr(JsonNode) remote = test_parse ("{\"$id\":\"https://example.com/unit.json\","
                                      "\"enum\":[\"c\",\"f\"]}");
  g_autoptr(JsonNode) node = test_parse ("{\"properties\":{\"u\":"
                                    "{\"$ref\":\"https://example.com/unit.json\"}}}");
  g_autoptr(GError) error = NULL;
  g_autofree char *bad = NULL;

  /* Without the registry the reference goes nowhere: never to the network. */
  f->schema = tb_schema_new (node, TB_SCHEMA_DRAFT_AUTO, &error);
  g_assert_null (f->schema);
  g_assert_error (error, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF);
  g_assert_nonnull (strstr (error->message, "/properties/u/$ref"));
  g_assert_nonnull (strstr (error->message, "network"));
  g_clear_error (&error);

  g_assert_true (tb_schema_registry_add (registry, NULL, remote, &error));
  g_assert_no_error (error);
  f->schema = tb_schema_new_full (node, TB_SCHEMA_DRAFT_AUTO, 0, registry, &error);
  g_assert_no_error (error);
  bad = check (f, "{\"u\":\"k\"}");
  g_assert_cmpstr (bad, ==, "/u|enum|must be one of: c, f");
  g_assert_cmpstr (((TbSchemaError *) g_ptr_array_index (f->errors, 0))->schema_path, ==,
                   "https://example.com/unit.json#/enum");
}

static void
test_metaschema_builtin (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *ok = NULL, *bad = NULL;

  f->schema = compile ("{\"$ref\":\"https://json-schema.org/draft/2020-12/schema\"}");
  ok = check (f, "{\"type\":\"string\",\"minLength\":1}");
  g_assert_cmpstr (ok, ==, "");
  bad = check (f, "{\"minLength\":-1}");
  g_assert_cmpstr (bad, !=, "");
}

static void
test_draft7 (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *a = NULL, *b = NULL;

  f->schema = compile ("{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
                       "\"items\":[{\"type\":\"string\"}],\"additionalItems\":false,"
                       "\"dependencies\":{\"a\":[\"b\"]}}");
  g_assert_cmpint (tb_schema_get_draft (f->schema), ==, TB_SCHEMA_DRAFT_7);
  a = check (f, "[\"x\"]");
  g_assert_cmpstr (a, ==, "");
  b = check (f, "[\"x\", 1]");
  g_assert_cmpstr (b, ==, "|items|must have at most 1 item");
  g_assert_finalize_object (f->schema);

  /* draft-04, as many MCP servers still declare: boolean exclusiveMaximum */
  f->schema = compile ("{\"$schema\":\"http://json-schema.org/draft-04/schema#\","
                       "\"maximum\":10,\"exclusiveMaximum\":true}");
  {
    g_autofree char *c = check (f, "9");
    g_autofree char *d = check (f, "10");

    g_assert_cmpstr (c, ==, "");
    g_assert_cmpstr (d, ==, "|exclusiveMaximum|must be less than 10");
  }
}

static void
test_unevaluated (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *a = NULL, *b = NULL;

  f->schema = compile ("{\"allOf\":[{\"properties\":{\"a\":true}}],"
                       "\"unevaluatedProperties\":false}");
  a = check (f, "{\"a\":1}");
  g_assert_cmpstr (a, ==, "");
  b = check (f, "{\"a\":1,\"b\":2}");
  g_assert_cmpstr (b, ==, "|unevaluatedProperties|has unexpected property “b”");
}

static void
test_optional_alternatives (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  /* How Pydantic writes Optional[constr(max_length=3)] */
  f->schema = compile ("{\"properties\":{\"code\":{\"anyOf\":[{\"type\":\"string\","
                       "\"maxLength\":3},{\"type\":\"null\"}]}}}");
  a = check (f, "{\"code\":null}");
  g_assert_cmpstr (a, ==, "");
  b = check (f, "{\"code\":\"abcd\"}");
  g_assert_cmpstr (b, ==, "/code|maxLength|must be at most 3 characters long");
  c = check (f, "{\"code\":5}");
  g_assert_cmpstr (c, ==, "/code|anyOf|must be of type null or string, not integer");
  g_assert_finalize_object (f->schema);

  f->schema = compile ("{\"oneOf\":[{\"minimum\":10},{\"maximum\":0}]}");
  d = check (f, "5");
  g_assert_cmpstr (d, ==, "|oneOf|must match exactly one of the schemas in oneOf, "
                          "but matches none");
}

/* Bad input: every line of the list. */

static void
test_bad_non_object_schema (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GError) a = refuse ("[1]", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) b = refuse ("\"string\"", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) c = refuse ("{\"properties\":{\"x\":3}}", TB_SCHEMA_DRAFT_AUTO);

  g_assert_cmpstr (a->message, ==, "A schema must be a JSON object or a boolean, not array");
  g_assert_cmpstr (b->message, ==, "A schema must be a JSON object or a boolean, not string");
  g_assert_cmpstr (c->message, ==, "The schema is not valid at “/properties/x”: a schema "
                                   "must be an object or a boolean, not integer");
}

static void
test_bad_keyword_values (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) a = refuse ("{\"items\":{\"minLength\":-1}}", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) b = refuse ("{\"type\":\"text\"}", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) c = refuse ("{\"required\":[1]}", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) d = refuse ("{\"$schema\":\"https://example.com/mine\"}",
                                TB_SCHEMA_DRAFT_AUTO);

  g_assert_cmpstr (a->message, ==, "The schema is not valid at “/items/minLength”: "
                                   "“minLength” must be a non-negative integer");
  g_assert_nonnull (strstr (b->message, "“/type”"));
  g_assert_nonnull (strstr (c->message, "“/required”"));
  g_assert_error (d, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_UNSUPPORTED_DRAFT);
}

static void
test_bad_unknown_keywords (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *ok = NULL, *bad = NULL;

  f->schema = compile ("{\"type\":\"string\",\"x-widget\":{\"minLength\":99},"
                       "\"frobnicate\":[1,2]}");
  ok = check (f, "\"a\"");
  g_assert_cmpstr (ok, ==, "");
  bad = check (f, "1");
  g_assert_cmpstr (bad, ==, "|type|must be of type string, not integer");
}

static void
test_bad_ref_to_nowhere (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) a = refuse ("{\"properties\":{\"p\":{\"$ref\":\"#/$defs/missing\"}}}",
                                TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) b = refuse ("{\"$ref\":\"#nothing\"}", TB_SCHEMA_DRAFT_AUTO);

  g_assert_error (a, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF);
  g_assert_nonnull (strstr (a->message, "“/properties/p/$ref”"));
  g_assert_nonnull (strstr (a->message, "#/$defs/missing"));
  g_assert_error (b, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF);
}

static void
test_bad_cyclic_ref (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) a = refuse ("{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},"
                                "\"b\":{\"allOf\":[{\"$ref\":\"#/$defs/a\"}]}},"
                                "\"$ref\":\"#/$defs/a\"}", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) b = refuse ("{\"$ref\":\"#\"}", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(JsonNode) instance = test_parse ("{\"a\":[1]}");
  g_autoptr(GPtrArray) errors = NULL;
  gint64 start;

  g_assert_error (a, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_CYCLE);
  g_assert_nonnull (strstr (a->message, "without descending"));
  g_assert_error (b, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_CYCLE);

  /* Recursion that descends is fine… */
  f->schema = compile ("{\"properties\":{\"a\":{\"$ref\":\"#\"}},\"items\":{\"$ref\":\"#\"}}");
  g_assert_true (tb_schema_validate (f->schema, instance, NULL));
  g_assert_finalize_object (f->schema);

  /* …and a dynamic loop, which only shows at run time, stops with an error. */
  f->schema = compile ("{\"$dynamicAnchor\":\"x\",\"anyOf\":[{\"$dynamicRef\":\"#x\"}]}");
  start = g_get_monotonic_time ();
  g_assert_false (tb_schema_validate (f->schema, instance, &errors));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_cmpuint (errors->len, >=, 1);
  g_assert_nonnull (strstr (((TbSchemaError *) g_ptr_array_index (errors, 0))->message,
                            "refers to itself"));
}

static JsonNode *
deep_array (guint depth)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, json_array_new ());
  for (guint i = 1; i < depth; i++)
    {
      JsonNode *outer = json_node_new (JSON_NODE_ARRAY);
      JsonArray *array = json_array_new ();

      json_array_add_element (array, node);
      json_node_take_array (outer, array);
      node = outer;
    }
  return node;
}

static void
test_bad_deep_instance (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(JsonNode) deep = deep_array (10000);
  g_autoptr(GPtrArray) errors = NULL;
  TbSchemaError *e;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  f->schema = compile ("{\"type\":\"array\",\"items\":{\"$ref\":\"#\"}}");
  g_assert_false (tb_schema_validate (f->schema, deep, &errors));
  g_assert_cmpuint (errors->len, ==, 1);
  e = g_ptr_array_index (errors, 0);
  g_assert_cmpstr (e->message, ==, "nests deeper than 512 levels, more than Toolbench validates");
  g_assert_cmpuint (strlen (e->instance_path), ==, 512 * 2);
  g_assert_finalize_object (f->schema);

  /* A schema that does not descend does not care. */
  f->schema = compile ("{\"type\":\"array\",\"uniqueItems\":true,\"maxItems\":1}");
  g_assert_true (tb_schema_validate (f->schema, deep, NULL));

  /* As text, the parser refuses it before the validator sees it. */
  text = g_strnfill (20000, '[');
  memset (text + 10000, ']', 10000);
  g_assert_null (tb_json_parse (text, -1, &error));
  g_assert_error (error, TB_JSON_ERROR, TB_JSON_ERROR_TOO_DEEP);

  /* json-glib nodes are freed recursively: keep the pyramid shallow enough for that. */
}

static void
test_bad_huge_integers (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  f->schema = compile ("{\"type\":\"integer\",\"maximum\":10,\"minimum\":-10}");
  a = check (f, "9223372036854775808");
  g_assert_cmpstr (a, ==, "|maximum|must be at most 10");
  b = check (f, "-100000000000000000000000000000");
  g_assert_cmpstr (b, ==, "|minimum|must be at least -10");
  c = check (f, "9223372036854775807");
  g_assert_cmpstr (c, ==, "|maximum|must be at most 10");
  g_assert_finalize_object (f->schema);

  f->schema = compile ("{\"type\":\"integer\",\"maximum\":18446744073709551615}");
  d = check (f, "18446744073709551600");
  g_assert_cmpstr (d, ==, "");
}

static void
test_bad_nan (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(JsonNode) nan_node = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) inf_node = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) schema_node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GPtrArray) errors = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *overflow = NULL;
  TbSchema *refused;

  json_node_set_double (nan_node, NAN);
  json_node_set_double (inf_node, INFINITY);

  f->schema = compile ("{\"type\":\"number\"}");
  g_assert_false (tb_schema_validate (f->schema, nan_node, &errors));
  g_assert_cmpstr (((TbSchemaError *) g_ptr_array_index (errors, 0))->message, ==,
                   "is not a finite number; JSON has no NaN or infinity");
  g_assert_false (tb_schema_validate (f->schema, inf_node, NULL));
  /* 1e400 overflows to infinity when parsed */
  overflow = check (f, "1e400");
  g_assert_cmpstr (overflow, ==, "|type|is not a finite number; JSON has no NaN or infinity");

  json_node_take_object (schema_node, json_object_new ());
  json_object_set_double_member (json_node_get_object (schema_node), "maximum", NAN);
  refused = tb_schema_new (schema_node, TB_SCHEMA_DRAFT_AUTO, &error);
  g_assert_null (refused);
  g_assert_cmpstr (error->message, ==, "The schema is not valid at “/maximum”: "
                                       "“maximum” must be a finite number");
}

static void
test_bad_utf8 (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(JsonNode) bad = json_node_new (JSON_NODE_VALUE);
  g_autoptr(GPtrArray) errors = NULL;
  g_autoptr(GError) error = NULL;

  json_node_set_string (bad, "ab\xff\xfe");
  f->schema = compile ("{\"type\":\"string\",\"pattern\":\"^a\",\"maxLength\":10}");
  g_assert_false (tb_schema_validate (f->schema, bad, &errors));
  g_assert_cmpstr (((TbSchemaError *) g_ptr_array_index (errors, 0))->message, ==,
                   "is not valid UTF-8 text");

  /* A name that is not UTF-8 still gives a UTF-8 message. */
  {
    g_autoptr(JsonNode) object = json_node_new (JSON_NODE_OBJECT);
    g_autoptr(GPtrArray) more = NULL;
    g_autoptr(TbSchema) closed = NULL;
    g_autoptr(JsonNode) closed_json = test_parse ("{\"additionalProperties\":false}");
    TbSchemaError *e;

    json_node_take_object (object, json_object_new ());
    json_object_set_int_member (json_node_get_object (object), "k\xff", 1);
    closed = tb_schema_new (closed_json, TB_SCHEMA_DRAFT_AUTO, &error);
    g_assert_no_error (error);
    g_assert_false (tb_schema_validate (closed, object, &more));
    e = g_ptr_array_index (more, 0);
    g_assert_true (g_utf8_validate (e->message, -1, NULL));
    g_assert_true (g_str_has_prefix (e->message, "has unexpected property “k"));
  }

  /* Text from outside is checked before parsing. */
  g_assert_null (tb_json_parse ("\"ab\xff\"", -1, &error));
  g_assert_error (error, TB_JSON_ERROR, TB_JSON_ERROR_INVALID_UTF8);
}

static void
test_bad_regex (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) a = refuse ("{\"properties\":{\"p\":{\"pattern\":\"([a-z\"}}}",
                                TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) b = refuse ("{\"patternProperties\":{\"(\":true}}", TB_SCHEMA_DRAFT_AUTO);
  g_autoptr(GError) c = refuse ("{\"pattern\":\"\\\\\"}", TB_SCHEMA_DRAFT_AUTO);

  g_assert_error (a, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_BAD_REGEX);
  g_assert_true (g_str_has_prefix (a->message, "The schema is not valid at "
                                               "“/properties/p/pattern”: the regular "
                                               "expression “([a-z” does not compile"));
  g_assert_error (b, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_BAD_REGEX);
  g_assert_nonnull (strstr (b->message, "“/patternProperties/(”"));
  g_assert_error (c, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_BAD_REGEX);
}

static void
test_bad_unique_items_large (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
  JsonArray *array = json_array_new ();
  g_autoptr(GPtrArray) errors = NULL;
  gint64 start;

  for (guint i = 0; i < 100000; i++)
    json_array_add_int_element (array, i);
  json_array_add_double_element (array, 99999.0);
  json_node_take_array (node, array);

  f->schema = compile ("{\"uniqueItems\":true}");
  start = g_get_monotonic_time ();
  g_assert_false (tb_schema_validate (f->schema, node, &errors));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_cmpstr (((TbSchemaError *) g_ptr_array_index (errors, 0))->message, ==,
                   "must not contain duplicate items (items 99999 and 100000 are equal)");
}

/* Messages hold their names whole, from trees and from text: long ones
 * past any buffer, names with "%" and non-ASCII ones, and numbers at the
 * ends of their range. */
static void
test_message_arguments (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *long_name = g_strnfill (700, 'n');
  const char *names[] = { long_name, "100%s%d%%", "größe “x”", "" };

  f->schema = compile ("{\"type\":\"object\",\"additionalProperties\":false,"
                       "\"properties\":{\"a\":{\"type\":\"array\","
                       "\"maxItems\":9223372036854775807,\"minItems\":3}}}");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"%s\":1}", names[i]);
      g_autofree char *message = g_strdup_printf ("has unexpected property “%s”", names[i]);
      g_autofree char *want = g_strdup_printf ("|additionalProperties|%s", message);
      g_autofree char *got = check (f, text);
      g_autoptr(GPtrArray) from_text = NULL;
      TbSchemaError *e;

      g_assert_cmpstr (got, ==, want);
      g_assert_false (tb_schema_validate_text (f->schema, text, -1,
                                               TB_SCHEMA_VALIDATE_ALL_ERRORS, &from_text, NULL));
      g_assert_cmpuint (from_text->len, ==, 1);
      e = g_ptr_array_index (from_text, 0);
      g_assert_cmpstr (e->message, ==, message);
      g_assert_cmpstr (e->keyword, ==, "additionalProperties");
    }
  {
    g_autofree char *got = check (f, "{\"a\":[1]}");

    g_assert_cmpstr (got, ==, "/a|minItems|must have at least 3 items");
  }
}

typedef struct
{
  TbSchema *schema;
  JsonNode *valid;
  JsonNode *invalid;
} ThreadData;

static gpointer
validate_many (gpointer user_data)
{
  ThreadData *data = user_data;

  for (guint i = 0; i < 2000; i++)
    {
      g_autoptr(GPtrArray) errors = NULL;

      g_assert_true (tb_schema_validate (data->schema, data->valid, NULL));
      g_assert_false (tb_schema_validate (data->schema, data->invalid, &errors));
      g_assert_cmpuint (errors->len, ==, 3);
    }
  return NULL;
}

static void
test_threads (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(JsonNode) valid = test_parse ("{\"path\":\"a\",\"count\":2,\"tags\":[\"x\"]}");
  g_autoptr(JsonNode) invalid = test_parse ("{\"path\":\"A\",\"count\":20,\"tags\":[1]}");
  ThreadData shared;
  GThread *threads[4];

  f->schema = compile (TOOL_SCHEMA);
  shared.schema = f->schema;
  shared.valid = valid;
  shared.invalid = invalid;
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("validate", validate_many, &shared);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
}

/* A pattern that backtracks exponentially (ReDoS) on a value made to
 * trip it: the match gives up at its bound and says so, the tree and the
 * text validator alike, at once, and a value the pattern takes still
 * passes. */
static void
test_bad_redos (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *run = g_strnfill (40, 'a');
  g_autofree char *value = g_strdup_printf ("\"%s!\"", run);
  g_autoptr(GPtrArray) text_errors = NULL;
  g_autofree char *text = NULL;
  gint64 started;
  TbSchemaError *e;

  f->schema = compile ("{\"type\":\"string\",\"pattern\":\"^(a+)+$\"}");
  started = g_get_monotonic_time ();
  text = check (f, value);
  g_test_message ("tree: %.3f s", (g_get_monotonic_time () - started) / 1e6);
  g_assert_cmpstr (text, ==, "|pattern|could not be checked against the pattern “^(a+)+$”: the "
                             "pattern backtracks too much on this value");

  started = g_get_monotonic_time ();
  g_assert_false (tb_schema_validate_text (f->schema, value, -1, TB_SCHEMA_VALIDATE_ALL_ERRORS,
                                           &text_errors, NULL));
  g_test_message ("text: %.3f s", (g_get_monotonic_time () - started) / 1e6);
  g_assert_cmpuint (text_errors->len, ==, 1);
  e = g_ptr_array_index (text_errors, 0);
  g_assert_cmpstr (e->keyword, ==, "pattern");
  g_assert_true (g_str_has_prefix (e->message, "could not be checked against the pattern"));

  g_free (text);
  text = check (f, "\"aaaa\"");
  g_assert_cmpstr (text, ==, "");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/schema/messages", test_messages);
  ADD ("/schema/first-error", test_first_error);
  ADD ("/schema/types", test_types);
  ADD ("/schema/string-length-code-points", test_string_length_code_points);
  ADD ("/schema/ecma-regex", test_ecma_regex);
  ADD ("/schema/formats", test_formats);
  ADD ("/schema/registry-remote", test_registry_remote);
  ADD ("/schema/metaschema-builtin", test_metaschema_builtin);
  ADD ("/schema/draft7", test_draft7);
  ADD ("/schema/unevaluated", test_unevaluated);
  ADD ("/schema/optional-alternatives", test_optional_alternatives);
  ADD ("/schema/threads", test_threads);
  ADD ("/schema/message-arguments", test_message_arguments);
  ADD ("/schema/bad/non-object-schema", test_bad_non_object_schema);
  ADD ("/schema/bad/keyword-values", test_bad_keyword_values);
  ADD ("/schema/bad/unknown-keywords", test_bad_unknown_keywords);
  ADD ("/schema/bad/ref-to-nowhere", test_bad_ref_to_nowhere);
  ADD ("/schema/bad/cyclic-ref", test_bad_cyclic_ref);
  ADD ("/schema/bad/deep-instance", test_bad_deep_instance);
  ADD ("/schema/bad/huge-integers", test_bad_huge_integers);
  ADD ("/schema/bad/nan", test_bad_nan);
  ADD ("/schema/bad/invalid-utf8", test_bad_utf8);
  ADD ("/schema/bad/invalid-regex", test_bad_regex);
  ADD ("/schema/bad/redos", test_bad_redos);
  ADD ("/schema/bad/unique-items-large", test_bad_unique_items_large);
#undef ADD

  return g_test_run ();
}
