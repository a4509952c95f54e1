/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-test-tools"

#include "config.h"

#include "tb-test-tools.h"
#include "../test-json-util.h"

/* Tools that exercise every part of the window: every kind of form field,
 * a slow tool to cancel, a failing one, one only people may call. The
 * screenshots use them too. */

static JsonNode *
weather_func (TbTool        *tool,
              JsonObject    *arguments,
              JsonObject    *context,
              GCancellable  *cancellable,
              gpointer       user_data,
              GError       **error)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  const char *units = json_object_get_string_member_with_default (arguments, "units", "metric");
  gint64 days = json_object_get_int_member_with_default (arguments, "days", 1);
  JsonArray *forecast = json_array_new ();

  json_object_set_string_member (object, "city",
                                 tb_json_object_get_string (arguments, "city"));
  json_object_set_string_member (object, "units", units);
  for (gint64 i = 0; i < days && i < 14; i++)
    {
      JsonObject *day = json_object_new ();

      json_object_set_int_member (day, "day", i + 1);
      json_object_set_string_member (day, "sky", i % 2 == 0 ? "sunny" : "cloudy");
      json_object_set_double_member (day, "temperature", g_str_equal (units, "metric")
                                                          ? 21.5 - i : 70.7 - 2 * i);
      json_array_add_object_element (forecast, day);
    }
  json_object_set_array_member (object, "forecast", forecast);
  json_node_take_object (node, object);
  return node;
}

static JsonNode *
issue_func (TbTool        *tool,
            JsonObject    *arguments,
            JsonObject    *context,
            GCancellable  *cancellable,
            gpointer       user_data,
            GError       **error)
{
  g_autofree char *text =
    g_strdup_printf ("Created issue #42: %s", tb_json_object_get_string (arguments, "title"));

  return tb_json_node_new_string (text);
}

static JsonNode *
slow_func (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  gint64 deadline = g_get_monotonic_time () +
                    json_object_get_int_member_with_default (arguments, "ms", 0) * 1000;

  while (g_get_monotonic_time () < deadline)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_usleep (5000);
    }
  return tb_json_node_new_string ("done");
}

static JsonNode *
fail_func (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  g_set_error_literal (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                       "The disk is full; free some space and try again.");
  return NULL;
}

static JsonNode *
echo_func (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, arguments);
  return node;
}

static void
add (TbToolRegistry    *registry,
     const char        *name,
     const char        *description,
     const char        *schema,
     const char        *source,
     TbToolVisibility   visibility,
     TbToolSimpleFlags  flags,
     TbToolSimpleFunc   func)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) parameters = test_parse (schema);
  g_autoptr(TbTool) tool = tb_tool_new_simple_full (name, description, parameters, visibility,
                                                    source, 0, flags, func, NULL, NULL, &error);

  g_assert_no_error (error);
  tb_tool_registry_register (registry, tool, &error);
  g_assert_no_error (error);
}

/**
 * tb_test_tools_new_tool:
 * @name: a tool name
 * @source: its source
 * @schema: its parameters schema as JSON text
 *
 * Returns: (transfer full): a tool that returns its arguments
 */
TbTool *
tb_test_tools_new_tool (const char *name,
                        const char *source,
                        const char *schema)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) parameters = test_parse (schema);
  TbTool *tool = tb_tool_new_simple_full (name, "Returns its arguments.", parameters,
                                          TB_TOOL_VISIBILITY_MODEL, source, 0,
                                          TB_TOOL_SIMPLE_FLAGS_NONE, echo_func,
                                          NULL, NULL, &error);

  g_assert_no_error (error);
  return tool;
}

TbToolRegistry *
tb_test_tools_new_registry (void)
{
  TbToolRegistry *registry = tb_tool_registry_new ();

  add (registry, "get_weather",
       "Gets the weather forecast for a city.\nUses the nearest weather station.",
       "{\"type\":\"object\",\"properties\":{"
       "\"city\":{\"type\":\"string\",\"description\":\"The city, as a person would write it\","
       "\"examples\":[\"Lyon\"]},"
       "\"units\":{\"enum\":[\"metric\",\"imperial\"],\"default\":\"metric\","
       "\"description\":\"How temperatures are given\"},"
       "\"days\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":14,"
       "\"description\":\"How many days to forecast\"},"
       "\"hourly\":{\"type\":\"boolean\",\"description\":\"Include hour-by-hour detail\"}},"
       "\"required\":[\"city\"],\"additionalProperties\":false}",
       "builtin", TB_TOOL_VISIBILITY_MODEL, TB_TOOL_SIMPLE_FLAGS_NONE, weather_func);

  add (registry, "create_issue",
       "Opens an issue in the project's tracker.",
       "{\"type\":\"object\",\"$defs\":{\"person\":{\"type\":\"object\","
       "\"properties\":{\"login\":{\"type\":\"string\",\"description\":\"Their user name\"},"
       "\"notify\":{\"type\":\"boolean\",\"default\":true}},\"required\":[\"login\"]}},"
       "\"properties\":{"
       "\"title\":{\"type\":\"string\",\"description\":\"One line that says what is wrong\"},"
       "\"body\":{\"type\":\"string\",\"description\":\"The details, in Markdown\"},"
       "\"labels\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
       "\"description\":\"Labels to add\"},"
       "\"assignee\":{\"$ref\":\"#/$defs/person\",\"description\":\"Who should look at it\"},"
       "\"priority\":{\"anyOf\":[{\"type\":\"integer\",\"title\":\"Level\"},"
       "{\"enum\":[\"low\",\"high\"],\"title\":\"Named\"}]},"
       "\"due\":{\"type\":[\"string\",\"null\"],\"format\":\"date\"}},"
       "\"required\":[\"title\"]}",
       "github", TB_TOOL_VISIBILITY_MODEL, TB_TOOL_SIMPLE_FLAGS_NONE, issue_func);

  add (registry, "slow_report",
       "Builds a report slowly; for trying Cancel.",
       "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\",\"default\":60000}},"
       "\"required\":[\"ms\"]}",
       "reports", TB_TOOL_VISIBILITY_MODEL, TB_TOOL_SIMPLE_FLAGS_THREADED, slow_func);

  add (registry, "disk_cleanup",
       "Always fails, as a full disk would.",
       "{\"type\":\"object\",\"properties\":{}}",
       "reports", TB_TOOL_VISIBILITY_MODEL, TB_TOOL_SIMPLE_FLAGS_NONE, fail_func);

  add (registry, "facts_commit",
       "Commits a proposed fact; only a person may call it.",
       "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"}},"
       "\"required\":[\"key\"]}",
       "builtin", TB_TOOL_VISIBILITY_USER_ONLY, TB_TOOL_SIMPLE_FLAGS_NONE, echo_func);

  return registry;
}
