/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Resources, resource templates, prompts and completions: the URI template
 * expansion and prompt checks on their own, then the whole of it against
 * the real reference server (@modelcontextprotocol/server-everything) and
 * against a server that offers none of it. */

#include "config.h"

#include <string.h>
#include <toolbench.h>

#include "mcp-test-util.h"

/* ---- without a server ----------------------------------------------------- */

static TbMcpResource *
template_new (const char *uri_template)
{
  g_autoptr(JsonObject) definition = json_object_new ();

  json_object_set_string_member (definition, "uriTemplate", uri_template);
  json_object_set_string_member (definition, "name", "t");
  return tb_mcp_resource_new_from_json (definition, TRUE);
}

static void
test_uri_template (void)
{
  /* The examples of RFC 6570, section 3.2, for string values. */
  static const struct { const char *template; const char *expanded; } cases[] = {
    { "{var}", "value" },
    { "{hello}", "Hello%20World%21" },
    { "{+path}/here", "/foo/bar/here" },
    { "{+hello}", "Hello%20World!" },
    { "{#path}", "#/foo/bar" },
    { "X{.var}", "X.value" },
    { "{/var,x}/here", "/value/1024/here" },
    { "{;x,y,empty}", ";x=1024;y=768;empty" },
    { "{?x,y,empty}", "?x=1024&y=768&empty=" },
    { "?fixed=yes{&x}", "?fixed=yes&x=1024" },
    { "{var:3}", "val" },
    { "{undef}x{?undef}", "x" },
    { "demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/7" },
  };
  g_autoptr(JsonObject) values = json_object_new ();

  json_object_set_string_member (values, "var", "value");
  json_object_set_string_member (values, "hello", "Hello World!");
  json_object_set_string_member (values, "path", "/foo/bar");
  json_object_set_string_member (values, "x", "1024");
  json_object_set_string_member (values, "y", "768");
  json_object_set_string_member (values, "empty", "");
  json_object_set_int_member (values, "resourceId", 7);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TbMcpResource) resource = template_new (cases[i].template);
      g_autoptr(GError) error = NULL;
      g_autofree char *uri = tb_mcp_resource_expand (resource, values, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (uri, ==, cases[i].expanded);
    }

  {
    g_autoptr(TbMcpResource) resource = template_new ("a{x}/{y:2}{?x,z*}");
    g_auto(GStrv) variables = tb_mcp_resource_get_variables (resource);
    const char * const expected[] = { "x", "y", "z", NULL };

    g_assert_cmpstrv (variables, expected);
  }

  {
    g_autoptr(TbMcpResource) resource = template_new ("broken/{x");
    g_autoptr(GError) error = NULL;
    g_autofree char *uri = tb_mcp_resource_expand (resource, values, &error);

    g_assert_null (uri);
    g_assert_cmpstr (error->message, ==,
                     "The URI template “broken/{x” has a “{” that is never closed");
  }
}

static void
test_definitions (void)
{
  g_autoptr(JsonNode) resource_json =
    tb_json_parse ("{\"uri\":\"file:///a.png\",\"name\":\"a\",\"title\":\"A picture\","
                   "\"mimeType\":\"image/png\",\"size\":12,"
                   "\"annotations\":{\"priority\":0.5},\"icons\":[{\"src\":\"x\"}]}", -1, NULL);
  g_autoptr(JsonNode) nameless = tb_json_parse ("{\"name\":\"no uri\"}", -1, NULL);
  g_autoptr(JsonNode) prompt_json =
    tb_json_parse ("{\"name\":\"p\",\"arguments\":[{\"name\":\"city\",\"required\":true},"
                   "{\"name\":\"state\"},{\"name\":\"city\"},{\"description\":\"nameless\"},7]}",
                   -1, NULL);
  g_autoptr(TbMcpResource) resource =
    tb_mcp_resource_new_from_json (json_node_get_object (resource_json), FALSE);
  g_autoptr(TbMcpPrompt) prompt = tb_mcp_prompt_new_from_json (json_node_get_object (prompt_json));
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (tb_mcp_resource_get_uri (resource), ==, "file:///a.png");
  g_assert_null (tb_mcp_resource_get_uri_template (resource));
  g_assert_cmpstr (tb_mcp_resource_get_display_name (resource), ==, "A picture");
  g_assert_cmpstr (tb_mcp_resource_get_mime_type (resource), ==, "image/png");
  g_assert_cmpint (tb_mcp_resource_get_size (resource), ==, 12);
  g_assert_nonnull (tb_mcp_resource_get_annotations (resource));
  g_assert_cmpuint (json_array_get_length (tb_mcp_resource_get_icons (resource)), ==, 1);
  g_assert_null (tb_mcp_resource_new_from_json (json_node_get_object (nameless), FALSE));

  /* Repeated, nameless and malformed arguments are left out. */
  g_assert_cmpuint (tb_mcp_prompt_get_n_arguments (prompt), ==, 2);
  g_assert_cmpstr (tb_mcp_prompt_get_argument_name (prompt, 0), ==, "city");
  g_assert_true (tb_mcp_prompt_get_argument_required (prompt, 0));
  g_assert_false (tb_mcp_prompt_get_argument_required (prompt, 1));

  g_assert_false (tb_mcp_prompt_check_arguments (prompt, arguments, &error));
  g_assert_cmpstr (error->message, ==, "The prompt “p” needs a value for “city”");
  g_clear_error (&error);
  json_object_set_string_member (arguments, "city", "Oslo");
  json_object_set_string_member (arguments, "country", "NO");
  g_assert_false (tb_mcp_prompt_check_arguments (prompt, arguments, &error));
  g_assert_cmpstr (error->message, ==, "The prompt “p” has no argument “country”");
  g_clear_error (&error);
  json_object_remove_member (arguments, "country");
  json_object_set_int_member (arguments, "state", 3);
  g_assert_false (tb_mcp_prompt_check_arguments (prompt, arguments, &error));
  g_assert_cmpstr (error->message, ==, "The argument “state” of the prompt “p” must be a string");
  g_clear_error (&error);
  json_object_set_string_member (arguments, "state", "");
  g_assert_true (tb_mcp_prompt_check_arguments (prompt, arguments, &error));
}

static void
test_contents (void)
{
  g_autoptr(JsonNode) text = tb_json_parse ("{\"uri\":\"a\",\"text\":\"héllo\"}", -1, NULL);
  g_autoptr(JsonNode) blob = tb_json_parse ("{\"uri\":\"a\",\"blob\":\"AAEC/w==\"}", -1, NULL);
  g_autoptr(JsonNode) broken = tb_json_parse ("{\"uri\":\"a\",\"blob\":\"AA<script>\"}", -1, NULL);
  g_autoptr(JsonNode) empty = tb_json_parse ("{\"uri\":\"a\"}", -1, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 expected[] = { 0, 1, 2, 255 };

  bytes = tb_mcp_resource_contents_get_bytes (json_node_get_object (text), &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "héllo",
                   strlen ("héllo"));
  g_clear_pointer (&bytes, g_bytes_unref);

  bytes = tb_mcp_resource_contents_get_bytes (json_node_get_object (blob), &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected, 4);

  g_assert_null (tb_mcp_resource_contents_get_bytes (json_node_get_object (broken), &error));
  g_assert_cmpstr (error->message, ==,
                   "The server sent a binary resource whose “blob” is not base64 (a “<” at "
                   "byte 2)");
  g_clear_error (&error);
  g_assert_null (tb_mcp_resource_contents_get_bytes (json_node_get_object (empty), &error));
  g_assert_cmpstr (error->message, ==,
                   "The server sent resource contents with neither “text” nor “blob”");
}

static void
test_prompt_messages (void)
{
  g_autoptr(JsonNode) result =
    tb_json_parse ("{\"messages\":["
                   "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Hi\"}},"
                   "{\"role\":\"assistant\",\"content\":[{\"type\":\"image\",\"data\":\"AA==\","
                   "\"mimeType\":\"image/png\"},{\"type\":\"resource\",\"resource\":"
                   "{\"uri\":\"a\",\"text\":\"inside\"}},{\"type\":\"hologram\",\"depth\":3}]}]}",
                   -1, NULL);
  g_autoptr(JsonNode) system = tb_json_parse ("{\"messages\":[{\"role\":\"system\","
                                              "\"content\":{\"type\":\"text\",\"text\":\"x\"}}]}",
                                              -1, NULL);
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;

  messages = tb_mcp_prompt_result_to_messages (json_node_get_object (result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 2);
  g_assert_cmpint (tb_message_get_role (messages->pdata[0]), ==, TB_MESSAGE_ROLE_USER);
  g_assert_cmpstr (tb_message_get_text (messages->pdata[0]), ==, "Hi");
  g_assert_cmpint (tb_message_get_role (messages->pdata[1]), ==, TB_MESSAGE_ROLE_ASSISTANT);
  /* Content of an unknown kind is kept as its JSON, not dropped. */
  g_assert_cmpstr (tb_message_get_text (messages->pdata[1]), ==,
                   "[image image/png]\n\ninside\n\n{\"type\":\"hologram\",\"depth\":3}");

  g_assert_null (tb_mcp_prompt_result_to_messages (json_node_get_object (system), &error));
  g_assert_cmpstr (error->message, ==,
                   "Message 1 of the prompt has the role “system”; only “user” and "
                   "“assistant” can start a conversation");
}

/* ---- against servers ------------------------------------------------------ */

typedef struct
{
  TbMcpClient *client;
} Fixture;

static void
setup_everything (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = mcp_test_server_argv ("server-everything", "dist/index.js", "stdio",
                                             &reason);
  g_autoptr(GError) error = NULL;

  if (argv == NULL)
    {
      g_test_skip (reason);
      return;
    }
  f->client = tb_mcp_client_new_stdio ("everything", (const char * const *) argv, NULL, NULL);
  if (!mcp_test_connect (f->client, &error))
    g_error ("server-everything did not start: %s", error->message);
}

static void
setup_fake (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *script = mcp_test_fake_server ();
  const char *argv[] = { "/usr/bin/python3", script, NULL };
  g_autoptr(GError) error = NULL;

  f->client = tb_mcp_client_new_stdio ("fake", argv, NULL, NULL);
  if (!mcp_test_connect (f->client, &error))
    g_error ("the fake server did not start: %s", error->message);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  if (f->client != NULL)
    tb_mcp_client_disconnect (f->client);
  g_clear_object (&f->client);
}

static GAsyncResult *
wait_for (GAsyncResult **result)
{
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, result, 30000));
  return *result;
}

static TbMcpResource *
find_resource (GPtrArray  *resources,
               const char *prefix)
{
  for (guint i = 0; i < resources->len; i++)
    {
      TbMcpResource *resource = resources->pdata[i];
      const char *uri = tb_mcp_resource_is_template (resource)
                        ? tb_mcp_resource_get_uri_template (resource)
                        : tb_mcp_resource_get_uri (resource);

      if (g_str_has_prefix (uri, prefix))
        return resource;
    }
  return NULL;
}

static void
updated_cb (TbMcpClient *client,
            const char  *uri,
            char       **updated)
{
  if (*updated == NULL)
    *updated = g_strdup (uri);
}

static void
test_resources (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) resources = NULL;
  g_autoptr(GPtrArray) templates = NULL;
  g_autoptr(JsonArray) contents = NULL;
  g_autoptr(JsonObject) values = json_object_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *updated = NULL;
  g_autoptr(JsonNode) call = NULL;
  TbMcpResource *document;
  TbMcpResource *text_template;
  JsonObject *first;

  if (f->client == NULL)
    return;
  g_assert_true (tb_mcp_client_has_capability (f->client, "resources", NULL));
  g_assert_true (tb_mcp_client_has_capability (f->client, "resources", "subscribe"));

  tb_mcp_client_list_resources_async (f->client, NULL, mcp_test_store_result, &result);
  resources = tb_mcp_client_list_resources_finish (f->client, wait_for (&result), &error);
  g_assert_no_error (error);
  document = find_resource (resources, "demo://resource/static/document/");
  g_assert_nonnull (document);
  g_assert_false (tb_mcp_resource_is_template (document));
  g_assert_nonnull (tb_mcp_resource_get_mime_type (document));
  g_clear_object (&result);

  tb_mcp_client_list_resource_templates_async (f->client, NULL, mcp_test_store_result, &result);
  templates = tb_mcp_client_list_resource_templates_finish (f->client, wait_for (&result),
                                                            &error);
  g_assert_no_error (error);
  text_template = find_resource (templates, "demo://resource/dynamic/text/");
  g_assert_nonnull (text_template);
  g_assert_true (tb_mcp_resource_is_template (text_template));
  g_clear_object (&result);

  /* A template filled in, then read. */
  json_object_set_string_member (values, "resourceId", "3");
  uri = tb_mcp_resource_expand (text_template, values, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (uri, ==, "demo://resource/dynamic/text/3");
  tb_mcp_client_read_resource_async (f->client, uri, NULL, mcp_test_store_result, &result);
  contents = tb_mcp_client_read_resource_finish (f->client, wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (contents), ==, 1);
  first = json_array_get_object_element (contents, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "uri"), ==, uri);
  bytes = tb_mcp_resource_contents_get_bytes (first, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), >, 0);
  g_clear_object (&result);
  g_clear_pointer (&contents, json_array_unref);

  /* A resource that is not there: the server's words, and which one. */
  tb_mcp_client_read_resource_async (f->client, "demo://resource/none", NULL,
                                     mcp_test_store_result, &result);
  contents = tb_mcp_client_read_resource_finish (f->client, wait_for (&result), &error);
  g_assert_null (contents);
  g_assert_true (g_str_has_prefix (error->message, "The server “everything” could not read "
                                                   "“demo://resource/none”: "));
  g_clear_error (&error);
  g_clear_object (&result);

  /* Subscribed, the server says when the resource changes (every few
   * seconds for server-everything's subscriptions). */
  g_signal_connect (f->client, "resource-updated", G_CALLBACK (updated_cb), &updated);
  tb_mcp_client_subscribe_resource_async (f->client, uri, TRUE, NULL, mcp_test_store_result,
                                          &result);
  g_assert_true (tb_mcp_client_subscribe_resource_finish (f->client, wait_for (&result),
                                                          &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  /* server-everything sends its updates once a tool turns them on. */
  tb_mcp_client_call_tool_async (f->client, "toggle-subscriber-updates", NULL, NULL, NULL, NULL,
                                 mcp_test_store_result, &result);
  g_clear_pointer (&call, json_node_unref);
  call = tb_mcp_client_call_tool_finish (f->client, wait_for (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_true (mcp_test_wait (mcp_test_pointer_set, &updated, 20000));
  g_assert_cmpstr (updated, ==, uri);
  tb_mcp_client_subscribe_resource_async (f->client, uri, FALSE, NULL, mcp_test_store_result,
                                          &result);
  g_assert_true (tb_mcp_client_subscribe_resource_finish (f->client, wait_for (&result),
                                                          &error));
}

static TbMcpPrompt *
find_prompt (GPtrArray  *prompts,
             const char *name)
{
  for (guint i = 0; i < prompts->len; i++)
    if (g_str_equal (tb_mcp_prompt_get_name (prompts->pdata[i]), name))
      return prompts->pdata[i];
  return NULL;
}

static void
test_prompts (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) prompts = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) departments = NULL;
  g_auto(GStrv) names = NULL;
  TbMcpPrompt *args_prompt;
  TbMcpPrompt *completable;
  gboolean has_more = TRUE;

  if (f->client == NULL)
    return;

  tb_mcp_client_list_prompts_async (f->client, NULL, mcp_test_store_result, &result);
  prompts = tb_mcp_client_list_prompts_finish (f->client, wait_for (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  args_prompt = find_prompt (prompts, "args-prompt");
  g_assert_nonnull (args_prompt);
  g_assert_cmpstr (tb_mcp_prompt_get_display_name (args_prompt), ==, "Arguments Prompt");
  g_assert_cmpuint (tb_mcp_prompt_get_n_arguments (args_prompt), ==, 2);

  json_object_set_string_member (arguments, "city", "Oslo");
  g_assert_true (tb_mcp_prompt_check_arguments (args_prompt, arguments, &error));
  tb_mcp_client_get_prompt_async (f->client, "args-prompt", arguments, NULL,
                                  mcp_test_store_result, &result);
  answer = tb_mcp_client_get_prompt_finish (f->client, wait_for (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  messages = tb_mcp_prompt_result_to_messages (answer, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 1);
  g_assert_cmpstr (tb_message_get_text (messages->pdata[0]), ==, "What's weather in Oslo?");

  /* Completions, the second narrowed by the first argument's value. */
  completable = find_prompt (prompts, "completable-prompt");
  g_assert_nonnull (completable);
  g_assert_true (tb_mcp_client_has_capability (f->client, "completions", NULL));
  tb_mcp_client_complete_async (f->client, TB_MCP_COMPLETION_PROMPT, "completable-prompt",
                                "department", "S", NULL, NULL, mcp_test_store_result, &result);
  departments = tb_mcp_client_complete_finish (f->client, wait_for (&result), &has_more, &error);
  g_assert_no_error (error);
  g_assert_false (has_more);
  {
    const char * const expected[] = { "Sales", "Support", NULL };

    g_assert_cmpstrv (departments, expected);
  }
  g_clear_object (&result);
  json_object_remove_member (arguments, "city");
  json_object_set_string_member (arguments, "department", "Sales");
  tb_mcp_client_complete_async (f->client, TB_MCP_COMPLETION_PROMPT, "completable-prompt",
                                "name", "", arguments, NULL, mcp_test_store_result, &result);
  names = tb_mcp_client_complete_finish (f->client, wait_for (&result), NULL, &error);
  g_assert_no_error (error);
  {
    const char * const expected[] = { "David", "Eve", "Frank", NULL };

    g_assert_cmpstrv (names, expected);
  }
}

/* A server that declares neither resources nor prompts: the client says so
 * without asking it. */
static void
test_unsupported (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GError) error = NULL;

  if (f->client == NULL)
    return;

  tb_mcp_client_list_resources_async (f->client, NULL, mcp_test_store_result, &result);
  list = tb_mcp_client_list_resources_finish (f->client, wait_for (&result), &error);
  g_assert_null (list);
  g_assert_error (error, TB_MCP_ERROR, TB_MCP_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "The server “fake” offers no resources");
  g_clear_error (&error);
  g_clear_object (&result);

  tb_mcp_client_list_prompts_async (f->client, NULL, mcp_test_store_result, &result);
  list = tb_mcp_client_list_prompts_finish (f->client, wait_for (&result), &error);
  g_assert_cmpstr (error->message, ==, "The server “fake” offers no prompts");
  g_clear_error (&error);
  g_clear_object (&result);

  tb_mcp_client_complete_async (f->client, TB_MCP_COMPLETION_RESOURCE_TEMPLATE, "a/{b}", "b",
                                "", NULL, NULL, mcp_test_store_result, &result);
  g_assert_null (tb_mcp_client_complete_finish (f->client, wait_for (&result), NULL, &error));
  g_assert_cmpstr (error->message, ==, "The server “fake” offers no completions");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/catalog/uri-template", test_uri_template);
  g_test_add_func ("/mcp/catalog/definitions", test_definitions);
  g_test_add_func ("/mcp/catalog/contents", test_contents);
  g_test_add_func ("/mcp/catalog/prompt-messages", test_prompt_messages);
  g_test_add ("/mcp/catalog/resources", Fixture, NULL, setup_everything, test_resources,
              teardown);
  g_test_add ("/mcp/catalog/prompts", Fixture, NULL, setup_everything, test_prompts, teardown);
  g_test_add ("/mcp/catalog/unsupported", Fixture, NULL, setup_fake, test_unsupported,
              teardown);
  return g_test_run ();
}
