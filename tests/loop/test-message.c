/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-message"

#include "config.h"

#include <string.h>
#include <toolbench.h>
#include "../test-json-util.h"

static void
test_raw_arguments (void)
{
  g_autoptr(TbToolCall) empty = tb_tool_call_new_raw ("a", "echo", "");
  g_autoptr(TbToolCall) blank = tb_tool_call_new_raw ("b", "echo", "  \n");
  g_autoptr(TbToolCall) good = tb_tool_call_new_raw ("c", "echo", "{\"text\":\"x\"}");
  g_autoptr(TbToolCall) broken = tb_tool_call_new_raw ("d", "echo", "{\"text\":");
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(TbToolCall) too_deep = NULL;
  g_autoptr(JsonNode) want = test_parse ("{}");

  g_assert_true (tb_json_equal (tb_tool_call_get_arguments (empty), want));
  g_assert_true (tb_json_equal (tb_tool_call_get_arguments (blank), want));
  g_assert_null (tb_tool_call_get_parse_error (good));
  g_assert_true (json_node_is_immutable (tb_tool_call_get_arguments (good)));

  g_assert_null (tb_tool_call_get_arguments (broken));
  g_assert_nonnull (tb_tool_call_get_parse_error (broken));
  g_assert_cmpstr (tb_tool_call_get_raw_arguments (broken), ==, "{\"text\":");

  /* Nesting beyond the limit is a parse error, not a crash. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  too_deep = tb_tool_call_new_raw ("e", "echo", deep->str);
  g_assert_null (tb_tool_call_get_arguments (too_deep));
  g_assert_nonnull (tb_tool_call_get_parse_error (too_deep));
}

/* The model's own argument text survives a trace: a replay or a fork
 * sends back what the model wrote, spacing and all; a text that says
 * something else than the arguments is not believed. */
static void
test_arguments_text (void)
{
  g_autoptr(TbToolCall) call = tb_tool_call_new_raw ("c1", "add", "{ \"a\" : 2,\n \"b\":3 }");
  g_autoptr(JsonNode) json = tb_tool_call_to_json (call);
  g_autoptr(TbToolCall) back = NULL;
  g_autoptr(TbToolCall) compact = tb_tool_call_new_raw ("c2", "add", "{\"a\":2}");
  g_autoptr(JsonNode) compact_json = tb_tool_call_to_json (compact);
  g_autoptr(JsonNode) lying = NULL;
  g_autoptr(TbToolCall) lied = NULL;

  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json), "arguments_text"),
                   ==, "{ \"a\" : 2,\n \"b\":3 }");
  back = tb_tool_call_from_json (json, NULL);
  g_assert_cmpstr (tb_tool_call_get_raw_arguments (back), ==, "{ \"a\" : 2,\n \"b\":3 }");
  g_assert_false (json_object_has_member (json_node_get_object (compact_json), "arguments_text"));

  lying = tb_json_parse ("{\"id\":\"c3\",\"name\":\"add\",\"arguments\":{\"a\":1},"
                         "\"arguments_text\":\"{\\\"a\\\": 999}\"}", -1, NULL);
  lied = tb_tool_call_from_json (lying, NULL);
  g_assert_cmpstr (tb_tool_call_get_raw_arguments (lied), ==, "{\"a\":1}");
}

static void
test_round_trip (void)
{
  g_autoptr(TbMessage) message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "Calling.");
  g_autoptr(JsonNode) args = test_parse ("{\"a\":1}");
  g_autoptr(TbToolCall) call = tb_tool_call_new ("c1", "facts.propose", args);
  g_autoptr(TbToolCall) broken = tb_tool_call_new_raw ("c2", "echo", "nope");
  g_autoptr(JsonObject) data = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(TbMessage) copy = NULL;
  g_autoptr(GError) error = NULL;

  tb_tool_call_set_wire_name (call, "facts_propose");
  json_object_set_string_member (data, "thoughtSignature", "abc");
  tb_tool_call_set_provider_data (call, data);
  tb_message_add_tool_call (message, call);
  tb_message_add_tool_call (message, broken);

  node = tb_message_to_json (message);
  copy = tb_message_from_json (node, &error);
  g_assert_no_error (error);
  again = tb_message_to_json (copy);
  g_assert_true (tb_json_equal (node, again));

  g_assert_cmpuint (tb_message_get_n_tool_calls (copy), ==, 2);
  g_assert_cmpstr (tb_tool_call_get_wire_name (tb_message_get_tool_call (copy, 0)), ==,
                   "facts_propose");
  g_assert_cmpstr (tb_tool_call_get_parse_error (tb_message_get_tool_call (copy, 1)), !=, NULL);
}

static void
test_invalid_json (void)
{
  static const char *cases[][2] = {
    { "[]", "must be a JSON object" },
    { "{\"text\":\"x\"}", "needs a “role”" },
    { "{\"role\":\"robot\"}", "needs a “role”" },
    { "{\"role\":\"tool\",\"text\":\"x\"}", "tool_call_id" },
    { "{\"role\":\"assistant\",\"tool_calls\":{}}", "must be an array" },
    { "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"x\"}]}", "needs a “name”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = test_parse (cases[i][0]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TbMessage) message = tb_message_from_json (node, &error);

      g_assert_null (message);
      g_assert_error (error, TB_MESSAGE_ERROR, TB_MESSAGE_ERROR_INVALID);
      if (strstr (error->message, cases[i][1]) == NULL)
        g_error ("“%s” does not say “%s”", error->message, cases[i][1]);
    }
}

static void
test_trace_model (void)
{
  g_autoptr(TbTrace) trace = tb_trace_new ();
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(TbTraceEvent) restored = NULL;
  g_autoptr(JsonNode) line = NULL;
  TbTraceEvent *event;

  json_object_set_string_member (payload, "message", "hello");
  event = tb_trace_append (trace, "warning", payload);
  g_assert_cmpuint (tb_trace_event_get_seq (event), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (trace)), ==, 1);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (trace)) == TB_TYPE_TRACE_EVENT);

  line = tb_trace_event_to_json (event);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (line), "seq"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (line), "type"), ==,
                   "warning");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (line), "message"), ==,
                   "hello");

  /* A reader restores recorded events as they were. */
  restored = tb_trace_event_new (41, 123456, "end", NULL);
  tb_trace_append_event (trace, restored);
  g_assert_cmpuint (tb_trace_event_get_seq (tb_trace_get_event (trace, 1)), ==, 41);
  g_assert_cmpint (tb_trace_event_get_time_us (tb_trace_get_event (trace, 1)), ==, 123456);
  g_assert_cmpuint (tb_trace_count (trace, "end"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/message/raw-arguments", test_raw_arguments);
  g_test_add_func ("/message/round-trip", test_round_trip);
  g_test_add_func ("/message/arguments-text", test_arguments_text);
  g_test_add_func ("/message/invalid-json", test_invalid_json);
  g_test_add_func ("/message/trace-model", test_trace_model);

  return g_test_run ();
}
