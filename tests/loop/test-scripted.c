/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "test-scripted"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <toolbench.h>
#include "../test-json-util.h"

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static TbProviderResponse *
complete (TbProvider        *provider,
          TbProviderRequest *request,
          GCancellable      *cancellable,
          GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tb_provider_complete_async (provider, request, cancellable, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tb_provider_complete_finish (provider, result, error);
}

static void
test_invalid_scripts (void)
{
  static const char *cases[][2] = {
    { "{\"format\":\"toolbench-trace\"}", "not a Toolbench script" },
    { "{\"version\":2,\"responses\":[]}", "cannot read" },
    { "{\"responses\":{}}", "“responses” array" },
    { "[1]", "Response 1 of the script is not valid: a response must be a JSON object" },
    { "[{},{\"tool_calls\":[{\"arguments\":{}}]}]", "Response 2" },
    { "[{\"delay_ms\":-5}]", "“delay_ms”" },
    { "[{\"error\":5}]", "“error” must be a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = test_parse (cases[i][0]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (node, &error);

      g_assert_null (provider);
      g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT);
      if (strstr (error->message, cases[i][1]) == NULL)
        g_error ("“%s” does not say “%s”", error->message, cases[i][1]);
    }
}

static JsonNode *
nothing (TbTool        *tool,
         JsonObject    *arguments,
         JsonObject    *context,
         GCancellable  *cancellable,
         gpointer       user_data,
         GError       **error)
{
  return json_node_new (JSON_NODE_NULL);
}

static void
count_calls (TbProvider *provider,
             guint       index,
             const char *id,
             const char *name,
             const char *arguments,
             GString    *out)
{
  g_string_append_printf (out, "%u:%s:%s:%s;", index, id, name, arguments);
}

static void
test_play (void)
{
  g_autoptr(JsonNode) script =
    test_parse ("{\"responses\":[{\"text\":\"hi\",\"tool_calls\":["
           "{\"name\":\"facts_propose\",\"arguments\":{\"k\":1}},"
           "{\"id\":\"x\",\"name\":\"echo\",\"arguments\":\"{bad\"}]},"
           "{\"error\":\"overloaded\"}]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, &error);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbProviderResponse) response = NULL;
  g_autoptr(GString) deltas = g_string_new (NULL);
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(JsonNode) schema = test_parse ("{\"type\":\"object\"}");
  TbToolCall *call;

  g_assert_no_error (error);
  tool = tb_tool_new_simple ("facts.propose", "Proposes.", schema, TB_TOOL_SIMPLE_FLAGS_NONE,
                             nothing, NULL, NULL, &error);
  g_assert_no_error (error);
  tb_tool_registry_register (registry, tool, &error);
  g_assert_no_error (error);
  request->tools = g_object_ref (registry);
  request->stream = TRUE;
  g_signal_connect (provider, "tool-call-delta", G_CALLBACK (count_calls), deltas);

  response = complete (TB_PROVIDER (provider), request, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tb_message_get_text (response->message), ==, "hi");
  g_assert_cmpstr (response->finish_reason, ==, "tool_calls");
  call = tb_message_get_tool_call (response->message, 0);
  g_assert_cmpstr (tb_tool_call_get_name (call), ==, "facts.propose");
  g_assert_cmpstr (tb_tool_call_get_wire_name (call), ==, "facts_propose");
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "call_1_0");
  call = tb_message_get_tool_call (response->message, 1);
  g_assert_cmpstr (tb_tool_call_get_id (call), ==, "x");
  g_assert_nonnull (tb_tool_call_get_parse_error (call));
  g_assert_cmpstr (deltas->str, ==, "0:call_1_0:facts_propose:{\"k\":1};1:x:echo:{bad;");

  g_clear_pointer (&response, tb_provider_response_unref);
  response = complete (TB_PROVIDER (provider), request, NULL, &error);
  g_assert_null (response);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SERVER);
  g_assert_nonnull (strstr (error->message, "overloaded"));
  g_clear_error (&error);

  response = complete (TB_PROVIDER (provider), request, NULL, &error);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT);
  g_assert_nonnull (strstr (error->message, "holds 2 responses"));
}

static void
test_delay_cancel (void)
{
  g_autoptr(JsonNode) script = test_parse ("[{\"delay_ms\":20000,\"text\":\"late\"}]");
  g_autoptr(GError) error = NULL;
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_from_json (script, &error);
  g_autoptr(TbProviderRequest) request = tb_provider_request_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TbProviderResponse) response = NULL;
  gint64 start = g_get_monotonic_time ();

  g_timeout_add_once (50, (GSourceOnceFunc) g_cancellable_cancel, cancellable);
  response = complete (TB_PROVIDER (provider), request, cancellable, &error);
  g_assert_null (response);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_from_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tb-script-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "script.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TbScriptedProvider) provider = NULL;

  g_file_set_contents (path, "{\"responses\": [", -1, &error);
  g_assert_no_error (error);
  provider = tb_scripted_provider_new_from_file (path, &error);
  g_assert_null (provider);
  g_assert_error (error, TB_PROVIDER_ERROR, TB_PROVIDER_ERROR_SCRIPT);
  g_assert_nonnull (strstr (error->message, "is not JSON"));
  g_clear_error (&error);

  provider = tb_scripted_provider_new_from_file (missing, &error);
  g_assert_null (provider);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);

  g_remove (path);
  g_rmdir (dir);
}

static void
test_demo (void)
{
  g_autoptr(TbScriptedProvider) provider = tb_scripted_provider_new_demo ();
  g_autoptr(JsonObject) described = tb_provider_describe (TB_PROVIDER (provider));

  g_assert_cmpuint (tb_scripted_provider_get_n_responses (provider), ==, 3);
  g_assert_cmpstr (tb_provider_get_kind (TB_PROVIDER (provider)), ==, "scripted");
  g_assert_cmpstr (json_object_get_string_member (described, "kind"), ==, "scripted");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scripted/invalid-scripts", test_invalid_scripts);
  g_test_add_func ("/scripted/play", test_play);
  g_test_add_func ("/scripted/delay-cancel", test_delay_cancel);
  g_test_add_func ("/scripted/from-file", test_from_file);
  g_test_add_func ("/scripted/demo", test_demo);

  return g_test_run ();
}
