/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>
#include <toolbench.h>
#include "test-json-util.h"

static JsonNode *
noop (TbTool        *tool,
      JsonObject    *arguments,
      JsonObject    *context,
      GCancellable  *cancellable,
      gpointer       user_data,
      GError       **error)
{
  return json_node_new (JSON_NODE_NULL);
}

static void
test_attributes (void)
{
  g_autoptr(JsonNode) params = test_parse ("{\"type\":\"object\",\"properties\":"
                                      "{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autofree char *name = NULL;
  g_autofree char *source = NULL;
  TbToolVisibility visibility;
  guint timeout;

  tool = tb_tool_new_simple_full ("files.read", "Reads a file.", params,
                                  TB_TOOL_VISIBILITY_USER_ONLY, "mcp:files", 1500,
                                  TB_TOOL_SIMPLE_FLAGS_NONE, noop, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (tb_tool_get_name (tool), ==, "files.read");
  g_assert_cmpstr (tb_tool_get_description (tool), ==, "Reads a file.");
  g_assert_true (tb_json_equal (tb_tool_get_parameters (tool), params));
  g_assert_cmpint (tb_tool_get_visibility (tool), ==, TB_TOOL_VISIBILITY_USER_ONLY);
  g_assert_cmpstr (tb_tool_get_source (tool), ==, "mcp:files");
  g_assert_cmpuint (tb_tool_get_timeout_ms (tool), ==, 1500);
  g_assert_false (tb_tool_takes_no_arguments (tool));

  g_object_get (tool, "name", &name, "source", &source, "visibility", &visibility,
                "timeout-ms", &timeout, NULL);
  g_assert_cmpstr (name, ==, "files.read");
  g_assert_cmpstr (source, ==, "mcp:files");
  g_assert_cmpint (visibility, ==, TB_TOOL_VISIBILITY_USER_ONLY);
  g_assert_cmpuint (timeout, ==, 1500);
}

static void
test_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTool) tool = tb_tool_new_simple ("ping", NULL, NULL, TB_TOOL_SIMPLE_FLAGS_NONE,
                                               noop, NULL, NULL, &error);
  g_autoptr(JsonNode) definition = NULL;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (tb_tool_get_description (tool), ==, "");
  g_assert_cmpstr (tb_tool_get_source (tool), ==, "builtin");
  g_assert_cmpint (tb_tool_get_visibility (tool), ==, TB_TOOL_VISIBILITY_MODEL);
  g_assert_cmpuint (tb_tool_get_timeout_ms (tool), ==, 0);
  g_assert_true (tb_tool_takes_no_arguments (tool));

  /* An absent schema means "no arguments", spelt so every API accepts it. */
  definition = tb_tool_to_definition (tool);
  text = tb_json_to_string (definition, FALSE);
  g_assert_cmpstr (text, ==,
                   "{\"name\":\"ping\",\"description\":\"\","
                   "\"parameters\":{\"type\":\"object\",\"properties\":{}}}");
}

static void
test_empty_schema (void)
{
  g_autoptr(JsonNode) empty = test_parse ("{}");
  g_autoptr(TbTool) tool = tb_tool_new_simple ("ping", "", empty, TB_TOOL_SIMPLE_FLAGS_NONE,
                                               noop, NULL, NULL, NULL);
  JsonObject *params = json_node_get_object (tb_tool_get_parameters (tool));

  g_assert_cmpstr (json_object_get_string_member (params, "type"), ==, "object");
  g_assert_true (tb_tool_takes_no_arguments (tool));
}

static void
test_definition (void)
{
  g_autoptr(JsonNode) params = test_parse ("{\"type\":\"object\",\"properties\":"
                                      "{\"a\":{\"type\":\"number\"}}}");
  g_autoptr(TbTool) tool = tb_tool_new_simple ("half", "Halves a.", params,
                                               TB_TOOL_SIMPLE_FLAGS_NONE, noop, NULL, NULL, NULL);
  g_autoptr(JsonNode) definition = tb_tool_to_definition (tool);
  g_autoptr(JsonNode) expected =
    test_parse ("{\"name\":\"half\",\"description\":\"Halves a.\",\"parameters\":"
           "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"}}}}");

  g_assert_true (tb_json_equal (definition, expected));
}

static void
test_invalid_names (void)
{
  g_autofree char *long_name = g_strnfill (65, 'a');
  g_autofree char *max_name = g_strnfill (64, 'a');
  const char *bad[] = { "", "has space", "slash/name", "ünïcode", "semi;colon", "tab\t",
                        "new\nline", long_name, "quote\"", "\xff\xfe" };
  const char *good[] = { "a", "A_b-c.d", "0", "facts.propose", max_name };

  g_assert_false (tb_tool_name_is_valid (NULL, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TbTool) tool = NULL;

      g_assert_false (tb_tool_name_is_valid (bad[i], &error));
      g_assert_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_NAME);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      g_clear_error (&error);

      tool = tb_tool_new_simple (bad[i], NULL, NULL, TB_TOOL_SIMPLE_FLAGS_NONE,
                                 noop, NULL, NULL, &error);
      g_assert_null (tool);
      g_assert_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_NAME);
    }

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    g_assert_true (tb_tool_name_is_valid (good[i], NULL));

  {
    g_autoptr(GError) error = NULL;

    tb_tool_name_is_valid ("has space", &error);
    g_assert_cmpstr (error->message, ==,
                     "The tool name “has space” has a character that is not allowed at "
                     "position 4: use only letters, digits, “_”, “.” and “-”");
    g_clear_error (&error);

    tb_tool_name_is_valid (long_name, &error);
    g_assert_nonnull (strstr (error->message, "65 characters long; the limit is 64"));
  }
}

static void
free_counter (gpointer data)
{
  (*(int *) data)++;
}

static void
test_invalid_schema (void)
{
  const char *bad[] = { "[]", "\"object\"", "true", "42", "null" };
  int freed = 0;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) params = test_parse (bad[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TbTool) tool = NULL;

      tool = tb_tool_new_simple ("t", NULL, params, TB_TOOL_SIMPLE_FLAGS_NONE,
                                 noop, &freed, free_counter, &error);
      g_assert_null (tool);
      g_assert_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_SCHEMA);
      g_assert_nonnull (strstr (error->message, "must be a JSON Schema object"));
    }

  /* The closure is released when construction fails. */
  g_assert_cmpint (freed, ==, G_N_ELEMENTS (bad));
}

static void
test_enormous_description (void)
{
  g_autofree char *huge = g_strnfill (1024 * 1024, 'x');
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(TbTool) invalid_utf8 = NULL;

  tool = tb_tool_new_simple ("big", huge, NULL, TB_TOOL_SIMPLE_FLAGS_NONE,
                             noop, NULL, NULL, &error);
  g_assert_null (tool);
  g_assert_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_DESCRIPTION);
  /* g_format_size() separates number and unit with a no-break space. */
  g_assert_nonnull (strstr (error->message, "1.0\u00a0MiB; the limit is 64.0\u00a0KiB"));
  g_clear_error (&error);

  invalid_utf8 = tb_tool_new_simple ("bad", "caf\xe9", NULL, TB_TOOL_SIMPLE_FLAGS_NONE,
                                     noop, NULL, NULL, &error);
  g_assert_null (invalid_utf8);
  g_assert_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_DESCRIPTION);
}

static void
test_validate_arguments (void)
{
  g_autoptr(JsonNode) params = test_parse ("{\"type\":\"object\",\"properties\":"
                                      "{\"a\":{\"type\":\"number\"},\"b\":{\"type\":\"number\"}},"
                                      "\"required\":[\"a\",\"b\"],"
                                      "\"additionalProperties\":false}");
  g_autoptr(TbTool) tool = tb_tool_new_simple ("add", NULL, params, TB_TOOL_SIMPLE_FLAGS_NONE,
                                               noop, NULL, NULL, NULL);
  g_autoptr(JsonNode) good = test_parse ("{\"a\": 1, \"b\": 2.5}");
  g_autoptr(JsonNode) bad = test_parse ("{\"a\": \"one\", \"c\": 3}");
  g_autoptr(JsonNode) array = test_parse ("[1, 2]");
  g_autoptr(GPtrArray) errors = NULL;
  gboolean saw_required = FALSE, saw_type = FALSE, saw_extra = FALSE;

  g_assert_true (tb_tool_validate_arguments (tool, good, NULL));

  g_assert_false (tb_tool_validate_arguments (tool, bad, &errors));
  for (guint i = 0; i < errors->len; i++)
    {
      TbSchemaError *e = g_ptr_array_index (errors, i);

      if (g_str_equal (e->keyword, "required"))
        saw_required = strstr (e->message, "“b”") != NULL;
      else if (g_str_equal (e->keyword, "type"))
        saw_type = g_str_equal (e->instance_path, "/a");
      else if (g_str_equal (e->keyword, "additionalProperties"))
        saw_extra = strstr (e->message, "“c”") != NULL;
    }
  g_assert_true (saw_required && saw_type && saw_extra);
  g_clear_pointer (&errors, g_ptr_array_unref);

  g_assert_false (tb_tool_validate_arguments (tool, array, &errors));
  g_assert_cmpuint (errors->len, >=, 1);
  g_assert_nonnull (strstr (((TbSchemaError *) errors->pdata[0])->message, "object"));
  g_clear_pointer (&errors, g_ptr_array_unref);

  /* NULL means no arguments: valid only when nothing is required. */
  g_assert_false (tb_tool_validate_arguments (tool, NULL, NULL));
}

static void
test_parameters_sealed (void)
{
  g_autoptr(JsonNode) sealed = test_parse ("{\"type\":\"object\"}");
  g_autoptr(JsonNode) params = tb_json_copy (sealed);
  g_autoptr(TbTool) tool = tb_tool_new_simple ("t", NULL, params, TB_TOOL_SIMPLE_FLAGS_NONE,
                                               noop, NULL, NULL, NULL);

  g_assert_false (json_node_is_immutable (params));
  json_object_set_string_member (json_node_get_object (params), "title", "changed");
  g_assert_true (json_node_is_immutable (tb_tool_get_parameters (tool)));
  g_assert_false (json_object_has_member (json_node_get_object (tb_tool_get_parameters (tool)),
                                          "title"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tool/attributes", test_attributes);
  g_test_add_func ("/tool/defaults", test_defaults);
  g_test_add_func ("/tool/empty-schema", test_empty_schema);
  g_test_add_func ("/tool/definition", test_definition);
  g_test_add_func ("/tool/invalid-names", test_invalid_names);
  g_test_add_func ("/tool/invalid-schema", test_invalid_schema);
  g_test_add_func ("/tool/enormous-description", test_enormous_description);
  g_test_add_func ("/tool/validate-arguments", test_validate_arguments);
  g_test_add_func ("/tool/parameters-sealed", test_parameters_sealed);

  return g_test_run ();
}
