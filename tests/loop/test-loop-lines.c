/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The loop records calls, messages and results as text written straight
 * from their fields: each must be byte for byte what writing the object's
 * tree gives, for every member that may or may not be there and for text
 * that needs escapes. */

#include "config.h"

#include <toolbench.h>

#include "tb-message-private.h"
#include "tb-tool-call-private.h"
#include "tb-tool-result-private.h"
#include "../test-json-util.h"

static const char *awkward = "Say \"hi\" \\ back\ttab \x01\x7f é 日本\r\n";

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = test_parse (text);

  return json_object_ref (json_node_get_object (node));
}

/* @text, which a writer appended, is what writing @tree gives. */
static void
assert_same_text (JsonNode *tree,
                  GString  *text)
{
  g_autofree char *expected = tb_json_to_string (tree, FALSE);

  g_assert_cmpstr (text->str, ==, expected);
  json_node_unref (tree);
  g_string_free (text, TRUE);
}

static void
assert_same_call (TbToolCall *call)
{
  GString *text = g_string_new (NULL);

  _tb_tool_call_append_json (call, text);
  assert_same_text (tb_tool_call_to_json (call), text);
}

static void
assert_same_message (TbMessage *message)
{
  GString *text = g_string_new (NULL);

  _tb_message_append_json (message, text);
  assert_same_text (tb_message_to_json (message), text);
}

static void
assert_same_result (TbToolResult *result)
{
  GString *text = g_string_new (NULL);

  _tb_tool_result_append_json (result, text);
  assert_same_text (tb_tool_result_to_json (result), text);
}

static GPtrArray *
some_calls (void)
{
  GPtrArray *calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(JsonNode) arguments = test_parse ("{\"n\":1.5,\"s\":\"a\\u001fb\",\"l\":[true,null,{}]}");
  g_autoptr(JsonObject) data = parse_object ("{\"signature\":\"x\\\"y\",\"n\":[1,2]}");
  TbToolCall *call;

  /* Compact arguments, no id, no wire name. */
  g_ptr_array_add (calls, tb_tool_call_new (NULL, "echo", arguments));
  /* Arguments the model wrote with spaces: their text is kept too. */
  call = tb_tool_call_new_raw ("call_1", "files.read", "{ \"path\" : \"a\\tb\" }");
  tb_tool_call_set_wire_name (call, "files_read");
  g_ptr_array_add (calls, call);
  /* Arguments the model wrote compactly. */
  g_ptr_array_add (calls, tb_tool_call_new_raw ("call_2", "echo", "{\"x\":1}"));
  /* Arguments that are not JSON. */
  call = tb_tool_call_new_raw ("call_3", awkward, "{\"broken\": ");
  tb_tool_call_set_provider_data (call, data);
  g_ptr_array_add (calls, call);
  /* Arguments that are JSON but not an object. */
  g_ptr_array_add (calls, tb_tool_call_new_raw ("call_4", "echo", "[1,2]"));
  return calls;
}

static void
test_calls (void)
{
  g_autoptr(GPtrArray) calls = some_calls ();

  for (guint i = 0; i < calls->len; i++)
    assert_same_call (g_ptr_array_index (calls, i));
}

static void
test_messages (void)
{
  g_autoptr(GPtrArray) calls = some_calls ();
  g_autoptr(TbMessage) user = tb_message_new (TB_MESSAGE_ROLE_USER, awkward);
  g_autoptr(TbMessage) system = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, "");
  g_autoptr(TbMessage) assistant = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(TbMessage) thinking = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "Done.");
  g_autoptr(TbMessage) result = tb_message_new_tool_result ("call_1", "files.read", awkward, FALSE);
  g_autoptr(TbMessage) failed = tb_message_new_tool_result ("call_2", "echo", "It failed.", TRUE);
  g_autoptr(JsonObject) data = parse_object ("{\"id\":\"msg_1\",\"blocks\":[{\"t\":\"x\"}]}");

  for (guint i = 0; i < calls->len; i++)
    tb_message_add_tool_call (assistant, g_ptr_array_index (calls, i));
  tb_message_set_reasoning (thinking, "First \"this\", then\nthat.");
  tb_message_set_provider_data (thinking, data);

  assert_same_message (user);
  assert_same_message (system);
  assert_same_message (assistant);
  assert_same_message (thinking);
  assert_same_message (result);
  assert_same_message (failed);
}

static void
test_results (void)
{
  const char *warnings[] = { "Slow.", awkward, NULL };
  g_autoptr(JsonNode) output = test_parse ("{\"lines\":[\"a\",\"b\\u0000c\"],\"n\":-0.25}");
  g_autoptr(JsonNode) text = tb_json_node_new_string (awkward);
  g_autoptr(JsonObject) metadata = parse_object ("{\"pause_loop\":false,\"x\":{\"y\":[]}}");
  g_autoptr(TbToolResult) ok = tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, output, NULL, NULL,
                                                        NULL, 12);
  g_autoptr(TbToolResult) plain = tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, text, NULL,
                                                           metadata, warnings, 0);
  g_autoptr(TbToolResult) nothing = tb_tool_result_new_full (TB_TOOL_FAILURE_NONE, NULL, NULL,
                                                             NULL, NULL, G_MAXINT64);
  g_autoptr(TbToolResult) failed = tb_tool_result_new_full (TB_TOOL_FAILURE_TIMEOUT, NULL,
                                                            awkward, metadata, warnings, -1);

  assert_same_result (ok);
  assert_same_result (plain);
  assert_same_result (nothing);
  assert_same_result (failed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/loop-lines/calls", test_calls);
  g_test_add_func ("/loop-lines/messages", test_messages);
  g_test_add_func ("/loop-lines/results", test_results);

  return g_test_run ();
}
