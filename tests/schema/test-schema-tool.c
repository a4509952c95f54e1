/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-schema-tool"

#include "config.h"

#include <string.h>
#include <toolbench.h>
#include "../test-json-util.h"

/* Tools validate their arguments with the compiled schema: once per tool,
 * from any thread, and a broken schema makes every call fail with a reason. */

typedef struct
{
  TbToolRegistry *registry;
  TbToolResult   *result;
  guint           runs;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->registry = tb_tool_registry_new ();
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_clear_object (&f->result);
  g_assert_finalize_object (f->registry);
}

static JsonNode *
echo (TbTool        *tool,
      JsonObject    *arguments,
      JsonObject    *context,
      GCancellable  *cancellable,
      gpointer       user_data,
      GError       **error)
{
  Fixture *f = user_data;

  f->runs++;
  return tb_json_node_new_string ("done");
}

static TbTool *
add_tool (Fixture    *f,
          const char *name,
          const char *schema_text)
{
  g_autoptr(JsonNode) schema = test_parse (schema_text);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbTool) tool = tb_tool_new_simple (name, "A test tool", schema,
                                               TB_TOOL_SIMPLE_FLAGS_NONE, echo, f, NULL,
                                               &error);

  g_assert_no_error (error);
  g_assert_true (tb_tool_registry_register (f->registry, tool, &error));
  g_assert_no_error (error);
  return tool;
}

static void
call_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Fixture *f = user_data;

  f->result = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (source), result);
}

static void
call (Fixture    *f,
      const char *name,
      const char *arguments)
{
  g_autoptr(JsonNode) args = test_parse (arguments);

  g_clear_object (&f->result);
  tb_tool_registry_call_async (f->registry, name, NULL, args, NULL, NULL, call_done, f);
  while (f->result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_invalid_arguments_listed (Fixture       *f,
                               gconstpointer  data)
{
  add_tool (f, "weather",
            "{\"type\":\"object\",\"properties\":{"
            "\"city\":{\"type\":\"string\",\"minLength\":1},"
            "\"unit\":{\"enum\":[\"c\",\"f\"]},"
            "\"days\":{\"type\":\"integer\",\"maximum\":10}},"
            "\"required\":[\"city\"],\"additionalProperties\":false}");

  call (f, "weather", "{\"unit\":\"k\",\"days\":11}");
  g_assert_false (tb_tool_result_get_ok (f->result));
  g_assert_cmpint (tb_tool_result_get_kind (f->result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_cmpstr (tb_tool_result_get_error (f->result), ==,
                   "The arguments for “weather” are not valid:\n"
                   "- is missing required property “city”\n"
                   "- /unit: must be one of: c, f\n"
                   "- /days: must be at most 10");
  g_assert_cmpuint (f->runs, ==, 0);

  call (f, "weather", "{\"city\":\"Oslo\",\"days\":3}");
  g_assert_true (tb_tool_result_get_ok (f->result));
  g_assert_cmpuint (f->runs, ==, 1);
}

static void
test_nested_and_refs (Fixture       *f,
                      gconstpointer  data)
{
  add_tool (f, "files",
            "{\"type\":\"object\",\"$defs\":{\"path\":{\"type\":\"string\","
            "\"pattern\":\"^[^/]\"}},\"properties\":{\"paths\":{\"type\":\"array\","
            "\"items\":{\"$ref\":\"#/$defs/path\"}}}}");

  call (f, "files", "{\"paths\":[\"a\",\"/etc/passwd\"]}");
  g_assert_cmpint (tb_tool_result_get_kind (f->result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_cmpstr (tb_tool_result_get_error (f->result), ==,
                   "The arguments for “files” are not valid:\n"
                   "- /paths/1: must match the pattern “^[^/]”");
}

static void
test_broken_schema (Fixture       *f,
                    gconstpointer  data)
{
  TbTool *tool = add_tool (f, "broken",
                           "{\"type\":\"object\",\"properties\":{"
                           "\"q\":{\"type\":\"string\",\"pattern\":\"(unclosed\"}}}");
  const GError *error;

  /* Registered and listed all the same. */
  g_assert_true (tb_tool_registry_contains (f->registry, "broken"));
  error = tb_tool_get_schema_error (tool);
  g_assert_nonnull (error);
  g_assert_error ((GError *) error, TB_SCHEMA_COMPILE_ERROR, TB_SCHEMA_COMPILE_ERROR_BAD_REGEX);
  g_assert_null (tb_tool_get_schema (tool));

  call (f, "broken", "{\"q\":\"x\"}");
  g_assert_cmpint (tb_tool_result_get_kind (f->result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_true (g_str_has_prefix (tb_tool_result_get_error (f->result),
                                   "The arguments for “broken” are not valid:\n"
                                   "- The tool’s parameters schema is broken, so no call can be "
                                   "checked: The schema is not valid at "
                                   "“/properties/q/pattern”: the regular expression "
                                   "“(unclosed” does not compile"));
  g_assert_cmpuint (f->runs, ==, 0);
}

static void
test_unresolved_ref_schema (Fixture       *f,
                            gconstpointer  data)
{
  TbTool *tool = add_tool (f, "remote",
                           "{\"type\":\"object\",\"properties\":{"
                           "\"x\":{\"$ref\":\"https://example.com/x.json\"}}}");

  g_assert_error ((GError *) tb_tool_get_schema_error (tool), TB_SCHEMA_COMPILE_ERROR,
                  TB_SCHEMA_COMPILE_ERROR_UNRESOLVED_REF);
  call (f, "remote", "{}");
  g_assert_cmpint (tb_tool_result_get_kind (f->result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_nonnull (strstr (tb_tool_result_get_error (f->result), "schema is broken"));
}

typedef struct
{
  TbTool   *tool;
  TbSchema *seen;
} ThreadData;

static gpointer
compile_from_thread (gpointer user_data)
{
  ThreadData *data = user_data;
  g_autoptr(JsonNode) args = test_parse ("{\"city\":\"x\"}");

  data->seen = tb_tool_get_schema (data->tool);
  g_assert_true (tb_tool_validate_arguments (data->tool, args, NULL));
  return NULL;
}

static void
test_compiled_once_any_thread (Fixture       *f,
                               gconstpointer  data)
{
  TbTool *tool = add_tool (f, "weather",
                           "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}");
  ThreadData threads[6] = { 0 };
  GThread *handles[G_N_ELEMENTS (threads)];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      threads[i].tool = tool;
      handles[i] = g_thread_new ("compile", compile_from_thread, &threads[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (handles[i]);

  g_assert_nonnull (threads[0].seen);
  for (guint i = 1; i < G_N_ELEMENTS (threads); i++)
    g_assert_true (threads[i].seen == threads[0].seen);
  g_assert_true (tb_tool_get_schema (tool) == threads[0].seen);
  g_assert_null (tb_tool_get_schema_error (tool));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/schema/tool/invalid-arguments-listed", Fixture, NULL, setup,
              test_invalid_arguments_listed, teardown);
  g_test_add ("/schema/tool/nested-and-refs", Fixture, NULL, setup, test_nested_and_refs,
              teardown);
  g_test_add ("/schema/tool/broken-schema", Fixture, NULL, setup, test_broken_schema, teardown);
  g_test_add ("/schema/tool/unresolved-ref", Fixture, NULL, setup, test_unresolved_ref_schema,
              teardown);
  g_test_add ("/schema/tool/compiled-once-any-thread", Fixture, NULL, setup,
              test_compiled_once_any_thread, teardown);

  return g_test_run ();
}
