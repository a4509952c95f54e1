/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <toolbench.h>

/* The sentences of a timeline, and where their events go. */

static JsonObject *
event (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = tb_json_parse (json, -1, &error);

  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (node));
}

static void
assert_says (const char *json,
             JsonObject *call,
             const char *expected)
{
  g_autoptr(JsonObject) object = event (json);
  g_autofree char *text = tb_trace_describe_event (object, call);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_sentences (void)
{
  g_autoptr(JsonObject) call = event ("{\"id\":\"c1\",\"name\":\"add\","
                                      "\"arguments\":{\"a\":2,\"b\":3}}");

  assert_says ("{\"type\":\"message\",\"origin\":\"person\","
               "\"message\":{\"role\":\"user\",\"text\":\"What is\\n2 + 3?\"}}",
               NULL, "You: What is 2 + 3?");
  assert_says ("{\"type\":\"message\",\"origin\":\"model\",\"message\":{\"role\":\"assistant\","
               "\"tool_calls\":[{},{}]}}", NULL, "Model asks for 2 tool calls");
  assert_says ("{\"type\":\"tool-call\",\"offered\":true,\"call\":{\"id\":\"c1\","
               "\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}}",
               NULL, "Model calls add {a: 2, b: 3}");
  assert_says ("{\"type\":\"tool-call\",\"offered\":false,\"call\":{\"id\":\"c9\","
               "\"name\":\"facts.commit\",\"arguments\":{\"the key\":\"x\"}}}",
               NULL, "Model calls facts.commit {\"the key\": \"x\"}, a tool it was not offered");
  assert_says ("{\"type\":\"tool-call\",\"call\":{\"id\":\"c2\",\"name\":\"add\","
               "\"raw_arguments\":\"{a:\",\"parse_error\":\"Unexpected end\"}}",
               NULL, "Model calls add with arguments that are not JSON: Unexpected end");
  assert_says ("{\"type\":\"decision\",\"call_id\":\"c1\",\"decision\":\"approve\","
               "\"by\":\"person\"}", call, "You approved add");
  assert_says ("{\"type\":\"decision\",\"call_id\":\"c1\",\"decision\":\"edit\","
               "\"by\":\"person\",\"arguments\":{\"a\":7,\"b\":3}}", call,
               "You edited add: a = 7");
  assert_says ("{\"type\":\"decision\",\"call_id\":\"c1\",\"decision\":\"skip\","
               "\"by\":\"person\",\"output\":10}", call, "You skipped add and answered 10");
  assert_says ("{\"type\":\"decision\",\"call_id\":\"c1\",\"decision\":\"reject\","
               "\"by\":\"policy\",\"reason\":\"Not allowed\"}", call,
               "Policy rejected add: Not allowed");
  assert_says ("{\"type\":\"decision\",\"decision\":\"extend\",\"by\":\"person\","
               "\"added\":5,\"max_iterations\":15}", NULL,
               "You allowed 5 more iterations (15 in all)");
  assert_says ("{\"type\":\"tool-result\",\"call_id\":\"c1\",\"name\":\"add\","
               "\"result\":{\"ok\":true,\"output\":10,\"duration_us\":1200}}", call,
               "add → 10 in 1 ms");
  assert_says ("{\"type\":\"tool-result\",\"call_id\":\"c1\",\"name\":\"gone\","
               "\"result\":{\"ok\":false,\"kind\":\"not-found\",\"error\":\"No tool “gone”.\","
               "\"duration_us\":0}}", NULL, "gone failed (not-found) in 0 µs: No tool “gone”.");
  assert_says ("{\"type\":\"incomplete\",\"event_type\":\"tool-result\","
               "\"reason\":\"Too many values\"}", NULL,
               "Not recorded: a tool-result event: Too many values");
  assert_says ("{\"type\":\"end\",\"state\":\"limit-reached\",\"max_iterations\":3}", NULL,
               "Stopped at the cap of 3 iterations");
  assert_says ("{\"type\":\"mcp-message\",\"server\":\"everything\",\"direction\":\"sent\","
               "\"kind\":\"request\",\"method\":\"tools/call\",\"id\":3,\"size\":142,"
               "\"call_id\":\"c1\",\"message\":{}}", call, "MCP everything → tools/call #3, 142 bytes");
  assert_says ("{\"type\":\"mcp-message\",\"server\":\"everything\",\"direction\":\"received\","
               "\"kind\":\"result\",\"method\":\"tools/call\",\"id\":3,\"size\":1500}", call,
               "MCP everything ← result of tools/call #3, 1.5\302\240kB");
  assert_says ("{\"type\":\"mcp-message\",\"server\":\"fake\",\"direction\":\"received\","
               "\"kind\":\"invalid\",\"size\":23,\"text\":\"this is not json at all\"}", NULL,
               "MCP fake ← not a JSON-RPC message, 23 bytes");
  assert_says ("{\"type\":\"mcp-message\",\"server\":\"s\\u001b]0;\",\"direction\":\"received\","
               "\"kind\":\"notification\",\"method\":\"notifications/message\"}", NULL,
               "MCP s\\u001b]0; ← notifications/message, 0 bytes");
  {
    g_autoptr(JsonObject) message = event ("{\"type\":\"mcp-message\"}");

    g_assert_cmpint (tb_trace_describe_kind (message), ==, TB_TRACE_KIND_WIRE);
  }
  /* Control characters from outside cannot break the line. */
  assert_says ("{\"type\":\"warning\",\"message\":\"a\\u001b[31mb\"}", NULL,
               "Warning: a\\u001b[31mb");
}

static void
test_long_values (void)
{
  g_autoptr(GString) json = g_string_new ("{\"type\":\"tool-call\",\"call\":{\"name\":\"echo\","
                                          "\"arguments\":{\"text\":\"");
  g_autoptr(JsonObject) object = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append (json, "xy");
  g_string_append (json, "\"}}}");
  object = event (json->str);
  text = tb_trace_describe_event (object, NULL);
  g_assert_true (g_str_has_prefix (text, "Model calls echo {text: \"xyxy"));
  g_assert_true (g_str_has_suffix (text, "…"));
  g_assert_cmpuint (g_utf8_strlen (text, -1), <, 120);
}

static void
test_outline (void)
{
  static const char *lines[] = {
    "{\"type\":\"message\",\"iteration\":0,\"origin\":\"person\",\"message\":{\"role\":\"user\"}}",
    "{\"type\":\"request\",\"iteration\":1}",
    "{\"type\":\"message\",\"iteration\":1,\"origin\":\"model\",\"message\":{}}",
    "{\"type\":\"tool-call\",\"iteration\":1,\"call\":{\"id\":\"c1\",\"name\":\"add\"}}",
    "{\"type\":\"decision\",\"iteration\":1,\"call_id\":\"c1\",\"decision\":\"approve\"}",
    "{\"type\":\"tool-result\",\"iteration\":1,\"call_id\":\"c1\",\"result\":{}}",
    "{\"type\":\"message\",\"iteration\":1,\"origin\":\"tool\","
    "\"message\":{\"tool_call_id\":\"c1\"}}",
    "{\"type\":\"decision\",\"iteration\":1,\"call_id\":\"c-unknown\"}",
    "{\"type\":\"mcp-message\",\"iteration\":1,\"call_id\":\"c1\",\"kind\":\"request\"}",
    "{\"type\":\"mcp-message\",\"iteration\":1,\"kind\":\"notification\"}",
    "{\"type\":\"request\",\"iteration\":2}",
    "{\"type\":\"end\",\"iteration\":2,\"state\":\"finished\"}",
  };
  static const struct { gboolean opens; gint parent; guint depth; gboolean named; } want[] = {
    { TRUE, -1, 1, FALSE },
    { TRUE, -1, 1, FALSE },
    { FALSE, -1, 1, FALSE },
    { FALSE, 2, 2, FALSE },
    { FALSE, 3, 3, TRUE },
    { FALSE, 3, 3, TRUE },
    { FALSE, 3, 3, TRUE },
    { FALSE, -1, 1, FALSE },
    { FALSE, 3, 3, TRUE },
    { FALSE, -1, 1, FALSE },
    { TRUE, -1, 1, FALSE },
    { FALSE, -1, 0, FALSE },
  };
  g_autoptr(TbTraceOutline) outline = tb_trace_outline_new ();

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr(JsonObject) object = event (lines[i]);
      TbTracePlace place;

      tb_trace_outline_add (outline, i, object, &place);
      g_assert_cmpint (place.opens_iteration, ==, want[i].opens);
      g_assert_cmpint (place.parent, ==, want[i].parent);
      g_assert_cmpuint (place.depth, ==, want[i].depth);
      g_assert_cmpint (place.call != NULL, ==, want[i].named);
      g_assert_cmpint (place.in_iteration, ==, i != G_N_ELEMENTS (lines) - 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-describe/sentences", test_sentences);
  g_test_add_func ("/trace-describe/long-values", test_long_values);
  g_test_add_func ("/trace-describe/outline", test_outline);
  return g_test_run ();
}
