/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>
#include <toolbench.h>
#include "test-json-util.h"

static void
test_success (void)
{
  g_autoptr(JsonNode) output = test_parse ("{\"sum\": 3}");
  g_autoptr(TbToolResult) result = tb_tool_result_new_success (output);
  g_autofree char *content = tb_tool_result_to_model_content (result);

  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_NONE);
  g_assert_null (tb_tool_result_get_error (result));
  g_assert_cmpstr (content, ==, "{\"sum\":3}");
  g_assert_cmpuint (json_object_get_size (tb_tool_result_get_metadata (result)), ==, 0);
  g_assert_cmpstrv (tb_tool_result_get_warnings (result), ((const char *[]) { NULL }));
  g_assert_false (tb_tool_result_get_stop_loop (result));
}

static void
test_string_output (void)
{
  g_autoptr(JsonNode) output = tb_json_node_new_string ("hello\nworld");
  g_autoptr(TbToolResult) result = tb_tool_result_new_success (output);
  g_autofree char *content = tb_tool_result_to_model_content (result);

  /* A string reaches the model as text, not as a quoted JSON string. */
  g_assert_cmpstr (content, ==, "hello\nworld");
}

static void
test_failure (void)
{
  g_autoptr(TbToolResult) result =
    tb_tool_result_new_failure (TB_TOOL_FAILURE_TIMEOUT, "took too long");
  g_autoptr(TbToolResult) no_text =
    tb_tool_result_new_failure (TB_TOOL_FAILURE_NONE, NULL);
  g_autofree char *content = tb_tool_result_to_model_content (result);

  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
  g_assert_cmpstr (content, ==, "Error: took too long");

  /* A failure always has a kind and a sentence. */
  g_assert_cmpint (tb_tool_result_get_kind (no_text), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_cmpstr (tb_tool_result_get_error (no_text), !=, "");
}

static void
test_metadata_never_in_model_content (void)
{
  g_autoptr(JsonNode) output = tb_json_node_new_string ("done");
  g_autoptr(JsonNode) meta = test_parse ("{\"stop_loop\": true, \"secret\": \"sk-do-not-leak\"}");
  const char *warnings[] = { "rounded to 2 places", NULL };
  g_autoptr(TbToolResult) result =
    tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL,
                             json_node_get_object (meta), warnings, 1234);
  g_autofree char *content = tb_tool_result_to_model_content (result);

  g_assert_true (tb_tool_result_get_stop_loop (result));
  g_assert_null (strstr (content, "sk-do-not-leak"));
  g_assert_null (strstr (content, "stop_loop"));
  g_assert_cmpstr (content, ==, "done\nWarning: rounded to 2 places");
  g_assert_cmpint (tb_tool_result_get_duration_us (result), ==, 1234);
}

static void
test_envelope (void)
{
  g_autoptr(TbToolResult) ok = tb_tool_result_new_success (NULL);
  g_autoptr(TbToolResult) bad =
    tb_tool_result_new_failure (TB_TOOL_FAILURE_NOT_FOUND, "There is no tool named “x”");
  g_autoptr(JsonNode) ok_env = tb_tool_result_to_envelope (ok);
  g_autoptr(JsonNode) bad_env = tb_tool_result_to_envelope (bad);
  g_autofree char *ok_text = tb_json_to_string (ok_env, FALSE);
  g_autofree char *bad_text = tb_json_to_string (bad_env, FALSE);

  g_assert_cmpstr (ok_text, ==, "{\"ok\":true,\"data\":null,\"warnings\":[],\"errors\":[]}");
  g_assert_cmpstr (bad_text, ==,
                   "{\"ok\":false,\"data\":null,\"warnings\":[],\"errors\":"
                   "[{\"kind\":\"not-found\",\"message\":\"There is no tool named “x”\"}]}");
}

static void
test_round_trip (void)
{
  g_autoptr(JsonNode) output = test_parse ("[1, {\"a\": \"b\"}]");
  g_autoptr(JsonNode) meta = test_parse ("{\"k\": [1, 2]}");
  const char *warnings[] = { "w1", "w2", NULL };
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) back = NULL;
  g_autoptr(TbToolResult) failure = NULL;
  g_autoptr(TbToolResult) failure_back = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(JsonNode) json2 = NULL;
  g_autoptr(GError) error = NULL;

  result = tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL,
                                    json_node_get_object (meta), warnings, 99);
  json = tb_tool_result_to_json (result);
  back = tb_tool_result_from_json (json, &error);
  g_assert_no_error (error);
  json2 = tb_tool_result_to_json (back);
  g_assert_true (tb_json_equal (json, json2));
  g_assert_true (tb_json_equal (tb_tool_result_get_output (back), output));
  g_assert_cmpint (tb_tool_result_get_duration_us (back), ==, 99);
  g_assert_cmpstrv (tb_tool_result_get_warnings (back), warnings);

  failure = tb_tool_result_new_failure (TB_TOOL_FAILURE_PERMISSION_DENIED, "outside the root");
  g_clear_pointer (&json, json_node_unref);
  json = tb_tool_result_to_json (failure);
  failure_back = tb_tool_result_from_json (json, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tb_tool_result_get_kind (failure_back), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);
  g_assert_cmpstr (tb_tool_result_get_error (failure_back), ==, "outside the root");
}

static void
test_from_json_bad (void)
{
  static const char *cases[] = {
    "[]",
    "{}",
    "{\"ok\": \"yes\"}",
    "{\"ok\": false, \"kind\": \"exploded\"}",
    "{\"ok\": true, \"warnings\": [1]}",
    "{\"ok\": true, \"metadata\": []}",
    "{\"ok\": true, \"duration_us\": -5}",
    "{\"ok\": false, \"error\": 42}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = test_parse (cases[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TbToolResult) result = tb_tool_result_from_json (node, &error);

      g_assert_null (result);
      g_assert_error (error, TB_TOOL_RESULT_ERROR, TB_TOOL_RESULT_ERROR_INVALID);
    }
}

static void
test_immutable (void)
{
  g_autoptr(JsonNode) output = test_parse ("{\"a\": 1}");
  g_autoptr(JsonNode) mutable_output = json_node_copy (output);
  g_autoptr(TbToolResult) result = tb_tool_result_new_success (mutable_output);

  /* Changing the node afterwards does not change the result. */
  json_object_set_int_member (json_node_get_object (mutable_output), "a", 2);
  g_assert_true (json_node_is_immutable (tb_tool_result_get_output (result)));
  g_assert_true (tb_json_equal (tb_tool_result_get_output (result), output));
}

static void
test_garbage_output (void)
{
  g_autoptr(JsonNode) deep = json_node_new (JSON_NODE_ARRAY);
  JsonArray *array = json_array_new ();
  g_autoptr(TbToolResult) result = NULL;
  g_autoptr(TbToolResult) invalid_utf8 = NULL;
  g_autoptr(JsonNode) bad_string = tb_json_node_new_string ("ok \xff\xfe end");
  g_autofree char *content = NULL;

  json_node_take_array (deep, array);
  for (guint i = 0; i < TB_JSON_MAX_DEPTH + 10; i++)
    {
      JsonArray *inner = json_array_new ();

      json_array_add_array_element (array, inner);
      array = inner;
    }

  /* Output nested too deep to handle becomes a failure, not a crash. */
  result = tb_tool_result_new_success (deep);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);

  /* Invalid UTF-8 never reaches the model as such. */
  invalid_utf8 = tb_tool_result_new_success (bad_string);
  content = tb_tool_result_to_model_content (invalid_utf8);
  g_assert_true (g_utf8_validate (content, -1, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tool-result/success", test_success);
  g_test_add_func ("/tool-result/string-output", test_string_output);
  g_test_add_func ("/tool-result/failure", test_failure);
  g_test_add_func ("/tool-result/metadata-never-in-model-content",
                   test_metadata_never_in_model_content);
  g_test_add_func ("/tool-result/envelope", test_envelope);
  g_test_add_func ("/tool-result/round-trip", test_round_trip);
  g_test_add_func ("/tool-result/from-json-bad", test_from_json_bad);
  g_test_add_func ("/tool-result/immutable", test_immutable);
  g_test_add_func ("/tool-result/garbage-output", test_garbage_output);

  return g_test_run ();
}
