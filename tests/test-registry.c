/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>
#include <toolbench.h>
#include "test-json-util.h"

/* A tool subclass made with g_object_new(), bypassing GInitable, whose
 * finish returns whatever the test asks for. */

typedef enum { GARBAGE_NULL_NO_ERROR, GARBAGE_DEEP_OUTPUT, GARBAGE_NEVER_FINISHES } Garbage;

#define TEST_TYPE_TOOL (test_tool_get_type ())
G_DECLARE_FINAL_TYPE (TestTool, test_tool, TEST, TOOL, TbTool)

struct _TestTool
{
  TbTool  parent_instance;
  Garbage garbage;
};

G_DEFINE_FINAL_TYPE (TestTool, test_tool, TB_TYPE_TOOL)

static void
test_tool_invoke_async (TbTool              *tool,
                        JsonNode            *arguments,
                        JsonObject          *context,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  TestTool *self = TEST_TOOL (tool);
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);

  switch (self->garbage)
    {
    case GARBAGE_NULL_NO_ERROR:
      g_task_return_pointer (task, NULL, NULL);
      break;

    case GARBAGE_DEEP_OUTPUT:
      {
        JsonNode *deep = json_node_new (JSON_NODE_ARRAY);
        JsonArray *array = json_array_new ();

        json_node_take_array (deep, array);
        for (guint i = 0; i < 5000; i++)
          {
            JsonArray *inner = json_array_new ();

            json_array_add_array_element (array, inner);
            array = inner;
          }
        g_task_return_pointer (task, tb_tool_result_new_success (deep), g_object_unref);
        /* Freed iteratively from the inside out: recursion would be fine at 5000. */
        json_node_unref (deep);
      }
      break;

    case GARBAGE_NEVER_FINISHES:
    default:
      /* Keeps the task alive without ever returning: the registry's timeout must fire. */
      g_object_set_data_full (G_OBJECT (tool), "pending", g_steal_pointer (&task), g_object_unref);
      break;
    }
}

static void
test_tool_class_init (TestToolClass *klass)
{
  TB_TOOL_CLASS (klass)->invoke_async = test_tool_invoke_async;
}

static void
test_tool_init (TestTool *self)
{
}

/* Handlers */

static JsonNode *
echo_args (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  /* Record what reached the handler, keyed by the argument names. */
  json_node_set_object (node, arguments);
  return node;
}

static JsonNode *
failing (TbTool        *tool,
         JsonObject    *arguments,
         JsonObject    *context,
         GCancellable  *cancellable,
         gpointer       user_data,
         GError       **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No such file: notes.txt");
  return NULL;
}

static JsonNode *
denied (TbTool        *tool,
        JsonObject    *arguments,
        JsonObject    *context,
        GCancellable  *cancellable,
        gpointer       user_data,
        GError       **error)
{
  g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_PERMISSION_DENIED, "outside the sandbox");
  return NULL;
}

static JsonNode *
returns_nothing (TbTool        *tool,
                 JsonObject    *arguments,
                 JsonObject    *context,
                 GCancellable  *cancellable,
                 gpointer       user_data,
                 GError       **error)
{
  return NULL;
}

static JsonNode *
slow (TbTool        *tool,
      JsonObject    *arguments,
      JsonObject    *context,
      GCancellable  *cancellable,
      gpointer       user_data,
      GError       **error)
{
  gint64 ms = json_object_get_int_member_with_default (arguments, "ms", 0);
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_usleep (2000);
    }
  return tb_json_node_new_string ("done");
}

static TbTool *
make_tool (const char        *name,
           const char        *schema,
           TbToolVisibility   visibility,
           guint              timeout_ms,
           TbToolSimpleFlags  flags,
           TbToolSimpleFunc   func)
{
  g_autoptr(JsonNode) params = schema != NULL ? test_parse (schema) : NULL;
  g_autoptr(GError) error = NULL;
  TbTool *tool;

  tool = tb_tool_new_simple_full (name, "A test tool.", params, visibility, "test", timeout_ms,
                                  flags, func, NULL, NULL, &error);
  g_assert_no_error (error);
  return tool;
}

static void
add (TbToolRegistry *registry,
     TbTool         *tool)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tb_tool_registry_register (registry, tool, &error));
  g_assert_no_error (error);
  g_object_unref (tool);
}

/* Fixture */

typedef struct
{
  TbToolRegistry *registry;
  GMainLoop      *loop;
  TbToolResult   *result;
  guint           n_registered;
  guint           n_unregistered;
  guint           n_started;
  guint           n_finished;
  guint           n_items_changed;
  char           *started_id;
  char           *finished_id;
  char           *started_args;
  TbToolResult   *finished_result;
} Fixture;

static void
on_registered (TbToolRegistry *registry, TbTool *tool, Fixture *f)
{
  f->n_registered++;
}

static void
on_unregistered (TbToolRegistry *registry, TbTool *tool, Fixture *f)
{
  f->n_unregistered++;
}

static void
on_started (TbToolRegistry *registry, TbTool *tool, const char *call_id, JsonNode *args,
            Fixture *f)
{
  f->n_started++;
  g_free (f->started_id);
  f->started_id = g_strdup (call_id);
  g_free (f->started_args);
  f->started_args = tb_json_to_string (args, FALSE);
  g_assert_true (TB_IS_TOOL (tool));
}

static void
on_finished (TbToolRegistry *registry, TbTool *tool, const char *call_id, TbToolResult *result,
             Fixture *f)
{
  f->n_finished++;
  g_free (f->finished_id);
  f->finished_id = g_strdup (call_id);
  g_clear_object (&f->finished_result);
  f->finished_result = g_object_ref (result);
}

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, Fixture *f)
{
  f->n_items_changed++;
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->registry = tb_tool_registry_new ();
  f->loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (f->registry, "tool-registered", G_CALLBACK (on_registered), f);
  g_signal_connect (f->registry, "tool-unregistered", G_CALLBACK (on_unregistered), f);
  g_signal_connect (f->registry, "call-started", G_CALLBACK (on_started), f);
  g_signal_connect (f->registry, "call-finished", G_CALLBACK (on_finished), f);
  g_signal_connect (f->registry, "items-changed", G_CALLBACK (on_items_changed), f);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_clear_object (&f->result);
  g_clear_object (&f->finished_result);
  g_clear_pointer (&f->started_id, g_free);
  g_clear_pointer (&f->finished_id, g_free);
  g_clear_pointer (&f->started_args, g_free);
  g_clear_pointer (&f->loop, g_main_loop_unref);

  /* A tool stopped by a timeout or a cancellation may still be winding
   * down on a worker thread; its late answer holds the call. */
  {
    gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

    while (G_OBJECT (f->registry)->ref_count > 1 && g_get_monotonic_time () < deadline)
      {
        g_main_context_iteration (NULL, FALSE);
        g_usleep (1000);
      }
  }
  g_assert_finalize_object (f->registry);
}

static void
call_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Fixture *f = user_data;

  g_clear_object (&f->result);
  f->result = tb_tool_registry_call_finish (TB_TOOL_REGISTRY (object), res);
  g_assert_nonnull (f->result);
  g_main_loop_quit (f->loop);
}

static TbToolResult *
call (Fixture      *f,
      const char   *name,
      const char   *args_text,
      GCancellable *cancellable)
{
  g_autoptr(JsonNode) args = args_text != NULL ? test_parse (args_text) : NULL;

  tb_tool_registry_call_async (f->registry, name, NULL, args, NULL, cancellable, call_cb, f);
  g_main_loop_run (f->loop);
  return f->result;
}

/* Tests */

static void
test_register_lookup (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TbTool) found = NULL;
  g_autoptr(TbTool) first = NULL;
  g_auto(GStrv) names = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->registry)), ==, 0);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (f->registry)) == TB_TYPE_TOOL);

  add (f->registry, make_tool ("b.second", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("a_first", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->registry)), ==, 2);
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 2);
  g_assert_cmpuint (f->n_registered, ==, 2);
  g_assert_cmpuint (f->n_items_changed, ==, 2);

  found = tb_tool_registry_lookup (f->registry, "a_first");
  g_assert_nonnull (found);
  g_assert_cmpstr (tb_tool_get_name (found), ==, "a_first");
  g_assert_true (tb_tool_registry_contains (f->registry, "b.second"));
  g_assert_false (tb_tool_registry_contains (f->registry, "nope"));
  g_assert_null (tb_tool_registry_lookup (f->registry, "nope"));
  g_assert_null (tb_tool_registry_lookup (f->registry, NULL));

  /* Registration order, not alphabetical. */
  names = tb_tool_registry_get_names (f->registry);
  g_assert_cmpstrv (names, ((const char *[]) { "b.second", "a_first", NULL }));
  first = g_list_model_get_item (G_LIST_MODEL (f->registry), 0);
  g_assert_cmpstr (tb_tool_get_name (first), ==, "b.second");
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (f->registry), 2));
}

static void
test_duplicate (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TbTool) again = make_tool ("echo", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args);
  g_autoptr(TbTool) third = make_tool ("echo_2", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args);
  g_autoptr(GError) error = NULL;
  g_autofree char *suggestion = NULL;

  add (f->registry, make_tool ("echo", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  g_assert_false (tb_tool_registry_register (f->registry, again, &error));
  g_assert_error (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_DUPLICATE);
  g_assert_cmpstr (error->message, ==,
                   "A tool named “echo” is already registered (from test); "
                   "register this one under another name, such as “echo_2”");
  g_clear_error (&error);

  g_assert_cmpuint (f->n_registered, ==, 1);
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 1);

  /* The suggestion is free: once echo_2 exists, echo_3 is offered. */
  g_assert_true (tb_tool_registry_register (f->registry, third, NULL));
  g_assert_false (tb_tool_registry_register (f->registry, again, &error));
  g_assert_nonnull (strstr (error->message, "such as “echo_3”"));
  suggestion = tb_tool_registry_suggest_name (f->registry, "echo_2");
  g_assert_cmpstr (suggestion, ==, "echo_3");
}

typedef struct
{
  guint changes;
  guint position;
  guint added;
  guint size_seen;
} ItemsChanged;

static void
on_batch_changed (GListModel   *model,
                  guint         position,
                  guint         removed,
                  guint         added,
                  ItemsChanged *seen)
{
  seen->changes++;
  seen->position = position;
  seen->added = added;
  seen->size_seen = g_list_model_get_n_items (model);
}

/* A folder's tools go in together: one change for list views, a
 * tool-registered per tool, and every refusal in the tool's place. */
static void
test_register_all (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) errors = NULL;
  g_autoptr(TbTool) b = NULL;
  ItemsChanged seen = { 0 };
  const GError *refusal;

  add (f->registry, make_tool ("echo", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  g_ptr_array_add (tools, make_tool ("a", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  g_ptr_array_add (tools, make_tool ("echo", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  g_ptr_array_add (tools, make_tool ("b", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  g_ptr_array_add (tools, make_tool ("a", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  g_signal_connect (f->registry, "items-changed", G_CALLBACK (on_batch_changed), &seen);

  g_assert_cmpuint (tb_tool_registry_register_all (f->registry, tools, &errors), ==, 2);

  g_assert_cmpuint (seen.changes, ==, 1);
  g_assert_cmpuint (seen.position, ==, 1);
  g_assert_cmpuint (seen.added, ==, 2);
  g_assert_cmpuint (seen.size_seen, ==, 3);
  g_assert_cmpuint (f->n_registered, ==, 3);
  b = tb_tool_registry_lookup (f->registry, "b");
  g_assert_true (b == g_ptr_array_index (tools, 2));

  g_assert_cmpuint (errors->len, ==, 4);
  g_assert_null (g_ptr_array_index (errors, 0));
  refusal = g_ptr_array_index (errors, 1);
  g_assert_error ((GError *) refusal, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_DUPLICATE);
  g_assert_cmpstr (refusal->message, ==,
                   "A tool named “echo” is already registered (from test); "
                   "register this one under another name, such as “echo_2”");
  g_assert_null (g_ptr_array_index (errors, 2));
  /* A name taken earlier in the same batch is taken too. */
  refusal = g_ptr_array_index (errors, 3);
  g_assert_error ((GError *) refusal, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_DUPLICATE);

  /* Nothing to add: no change at all. */
  g_ptr_array_set_size (tools, 1);
  g_assert_cmpuint (tb_tool_registry_register_all (f->registry, tools, NULL), ==, 0);
  g_assert_cmpuint (seen.changes, ==, 1);
  g_signal_handlers_disconnect_by_func (f->registry, on_batch_changed, &seen);
}

static void
test_unregister (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  add (f->registry, make_tool ("one", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("two", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  g_assert_true (tb_tool_registry_unregister (f->registry, "one", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_unregistered, ==, 1);
  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 1);
  g_assert_false (tb_tool_registry_contains (f->registry, "one"));

  g_assert_false (tb_tool_registry_unregister (f->registry, "one", &error));
  g_assert_error (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "There is no tool named “one”");
  g_assert_cmpuint (f->n_unregistered, ==, 1);

  /* A removed name is free again. */
  add (f->registry, make_tool ("one", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  g_assert_cmpuint (f->n_registered, ==, 3);
}

static void
test_subset (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TbToolRegistry) subset = NULL;
  g_autoptr(TbToolRegistry) model = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  add (f->registry, make_tool ("a", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("b", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("facts.commit", NULL, TB_TOOL_VISIBILITY_USER_ONLY, 0, 0,
                               echo_args));

  subset = tb_tool_registry_subset (f->registry, (const char *[]) { "b", "a", NULL }, &error);
  g_assert_no_error (error);
  names = tb_tool_registry_get_names (subset);
  g_assert_cmpstrv (names, ((const char *[]) { "b", "a", NULL }));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (subset)), ==, 2);

  g_assert_null (tb_tool_registry_subset (f->registry, (const char *[]) { "a", "zz", NULL },
                                          &error));
  g_assert_error (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "“zz”"));

  model = tb_tool_registry_get_model_tools (f->registry);
  g_assert_cmpuint (tb_tool_registry_get_size (model), ==, 2);
  g_assert_false (tb_tool_registry_contains (model, "facts.commit"));
}

static void
test_definitions (Fixture       *f,
                  gconstpointer  data)
{
  const char *schema = "{\"type\":\"object\",\"$schema\":\"http://json-schema.org/draft-07/schema#\","
                       "\"properties\":{\"key\":{\"type\":\"string\"},"
                       "\"value\":{\"type\":[\"string\",\"null\"]}},"
                       "\"required\":[\"key\"],\"additionalProperties\":false}";
  g_autoptr(JsonNode) openai = NULL;
  g_autoptr(JsonNode) anthropic = NULL;
  g_autoptr(JsonNode) gemini = NULL;
  g_autoptr(JsonNode) native = NULL;
  g_autoptr(JsonNode) expected_openai = NULL;
  g_autoptr(JsonNode) expected_anthropic = NULL;
  g_autoptr(JsonNode) expected_gemini = NULL;
  g_autofree char *openai_text = NULL;
  g_autofree char *anthropic_text = NULL;

  add (f->registry, make_tool ("facts.propose", schema, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("ping", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  openai = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_OPENAI);
  openai_text = g_strdup_printf ("[{\"type\":\"function\",\"function\":{\"name\":\"facts_propose\","
                                 "\"description\":\"A test tool.\",\"parameters\":%s}},"
                                 "{\"type\":\"function\",\"function\":{\"name\":\"ping\","
                                 "\"description\":\"A test tool.\",\"parameters\":"
                                 "{\"type\":\"object\",\"properties\":{}}}}]", schema);
  expected_openai = test_parse (openai_text);
  g_assert_true (tb_json_equal (openai, expected_openai));

  anthropic = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_ANTHROPIC);
  anthropic_text = g_strdup_printf ("[{\"name\":\"facts_propose\",\"description\":\"A test tool.\","
                                    "\"input_schema\":%s},"
                                    "{\"name\":\"ping\",\"description\":\"A test tool.\","
                                    "\"input_schema\":{\"type\":\"object\",\"properties\":{}}}]",
                                    schema);
  expected_anthropic = test_parse (anthropic_text);
  g_assert_true (tb_json_equal (anthropic, expected_anthropic));

  /* Gemini: the real name, which it allows; no $schema or
   * additionalProperties, nullable for a null type, and no parameters at
   * all for a tool without arguments. */
  gemini = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_GEMINI);
  expected_gemini = test_parse ("[{\"functionDeclarations\":["
                           "{\"name\":\"facts.propose\",\"description\":\"A test tool.\","
                           "\"parameters\":{\"type\":\"object\",\"required\":[\"key\"],"
                           "\"properties\":{\"key\":{\"type\":\"string\"},"
                           "\"value\":{\"nullable\":true,\"type\":\"string\"}}}},"
                           "{\"name\":\"ping\",\"description\":\"A test tool.\"}]}]");
  g_assert_true (tb_json_equal (gemini, expected_gemini));

  native = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_NATIVE);
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (json_node_get_array (native), 0), "name"),
                   ==, "facts.propose");
}

static void
test_definitions_cached (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(JsonNode) after = NULL;

  add (f->registry, make_tool ("a", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  first = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_OPENAI);
  again = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_OPENAI);
  g_assert_true (first == again);
  g_assert_true (json_node_is_immutable (first));

  add (f->registry, make_tool ("b", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  after = tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_OPENAI);
  g_assert_true (after != first);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (after)), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (first)), ==, 1);
}

static void
test_wire_names (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *w1 = NULL;
  g_autofree char *w2 = NULL;
  g_autofree char *w3 = NULL;
  g_autofree char *r1 = NULL;
  g_autofree char *r2 = NULL;
  g_autofree char *r3 = NULL;
  g_autoptr(TbToolRegistry) model = NULL;
  g_autofree char *hidden = NULL;

  /* "facts_propose" is a real name, so "facts.propose" must not take it. */
  add (f->registry, make_tool ("facts.propose", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("facts_propose", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("facts-propose", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));
  add (f->registry, make_tool ("facts.commit", NULL, TB_TOOL_VISIBILITY_USER_ONLY, 0, 0,
                               echo_args));

  w1 = tb_tool_registry_to_wire_name (f->registry, "facts.propose");
  w2 = tb_tool_registry_to_wire_name (f->registry, "facts_propose");
  w3 = tb_tool_registry_to_wire_name (f->registry, "facts-propose");
  g_assert_cmpstr (w1, ==, "facts_propose_2");
  g_assert_cmpstr (w2, ==, "facts_propose");
  g_assert_cmpstr (w3, ==, "facts-propose");

  r1 = tb_tool_registry_from_wire_name (f->registry, w1);
  r2 = tb_tool_registry_from_wire_name (f->registry, w2);
  r3 = tb_tool_registry_from_wire_name (f->registry, w3);
  g_assert_cmpstr (r1, ==, "facts.propose");
  g_assert_cmpstr (r2, ==, "facts_propose");
  g_assert_cmpstr (r3, ==, "facts-propose");
  g_assert_null (tb_tool_registry_from_wire_name (f->registry, "unknown"));
  g_assert_null (tb_tool_registry_to_wire_name (f->registry, "unknown"));

  /* The model's registry knows nothing of the user-only tool, under any spelling. */
  model = tb_tool_registry_get_model_tools (f->registry);
  hidden = tb_tool_registry_from_wire_name (model, "facts_commit");
  g_assert_null (hidden);
  g_assert_null (tb_tool_registry_from_wire_name (model, "facts.commit"));
}

/* Gemini allows dots (and colons) but wants a letter or an underscore first:
 * names it accepts go as they are, the others are mapped within its rule,
 * and each format maps back only its own names. */
static void
test_wire_names_gemini (Fixture       *f,
                        gconstpointer  data)
{
  const TbDefinitionFormat gemini = TB_DEFINITION_FORMAT_GEMINI;
  const struct { const char *real; const char *strict; const char *gemini; } cases[] = {
    { "facts.propose", "facts_propose", "facts.propose" },
    { "files.read-all", "files_read-all", "files.read-all" },
    { "9lives", "9lives", "_9lives" },
    { "-dash", "-dash", "_-dash" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    add (f->registry, make_tool (cases[i].real, NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *strict = tb_tool_registry_to_wire_name (f->registry, cases[i].real);
      g_autofree char *wire = tb_tool_registry_to_wire_name_for (f->registry, gemini,
                                                                 cases[i].real);
      g_autofree char *back = tb_tool_registry_from_wire_name_for (f->registry, gemini, wire);
      g_autofree char *native = tb_tool_registry_to_wire_name_for (f->registry,
                                                                   TB_DEFINITION_FORMAT_NATIVE,
                                                                   cases[i].real);

      g_assert_cmpstr (strict, ==, cases[i].strict);
      g_assert_cmpstr (wire, ==, cases[i].gemini);
      g_assert_cmpstr (back, ==, cases[i].real);
      g_assert_cmpstr (native, ==, cases[i].real);
    }
  /* A strict wire name means nothing to Gemini where the real name differs. */
  g_assert_null (tb_tool_registry_from_wire_name_for (f->registry, gemini, "facts_propose"));
  g_assert_null (tb_tool_registry_from_wire_name (f->registry, "facts.propose"));
}

static void
test_call_ok (Fixture       *f,
              gconstpointer  data)
{
  TbToolResult *result;
  JsonObject *out;

  add (f->registry, make_tool ("record", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  result = call (f, "record", "{\"path\": \"notes.txt\", \"lines\": [1, 2], \"ünï\": true}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
  g_assert_cmpint (tb_tool_result_get_duration_us (result), >=, 0);

  /* String-keyed arguments reach the handler as they were sent. */
  out = json_node_get_object (tb_tool_result_get_output (result));
  g_assert_cmpstr (json_object_get_string_member (out, "path"), ==, "notes.txt");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (out, "lines")), ==, 2);
  g_assert_true (json_object_get_boolean_member (out, "ünï"));

  /* Exactly one start and one finish, with the same id and the arguments. */
  g_assert_cmpuint (f->n_started, ==, 1);
  g_assert_cmpuint (f->n_finished, ==, 1);
  g_assert_cmpstr (f->started_id, ==, f->finished_id);
  g_assert_cmpstr (f->started_args, ==,
                   "{\"path\":\"notes.txt\",\"lines\":[1,2],\"ünï\":true}");
  g_assert_true (f->finished_result == result);
}

static void
test_call_id (Fixture       *f,
              gconstpointer  data)
{
  add (f->registry, make_tool ("record", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  tb_tool_registry_call_async (f->registry, "record", "call_abc123", NULL, NULL, NULL, call_cb, f);
  g_main_loop_run (f->loop);
  g_assert_cmpstr (f->started_id, ==, "call_abc123");
  g_assert_cmpstr (f->finished_id, ==, "call_abc123");

  /* NULL arguments mean none: {}. */
  g_assert_cmpstr (f->started_args, ==, "{}");
  g_assert_true (tb_tool_result_get_ok (f->result));
}

static void
test_call_failing_handler (Fixture       *f,
                           gconstpointer  data)
{
  TbToolResult *result;

  add (f->registry, make_tool ("fails", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, failing));
  add (f->registry, make_tool ("denies", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, denied));
  add (f->registry, make_tool ("nothing", NULL, TB_TOOL_VISIBILITY_MODEL, 0,
                               TB_TOOL_SIMPLE_FLAGS_THREADED, returns_nothing));

  result = call (f, "fails", NULL, NULL);
  g_assert_false (tb_tool_result_get_ok (result));
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, "No such file: notes.txt");

  result = call (f, "denies", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_PERMISSION_DENIED);

  result = call (f, "nothing", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, "The tool “nothing” returned no result");

  g_assert_cmpuint (f->n_started, ==, 3);
  g_assert_cmpuint (f->n_finished, ==, 3);
}

static void
test_call_garbage (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TbTool) null_tool = g_object_new (TEST_TYPE_TOOL, "name", "null_result", NULL);
  g_autoptr(TbTool) deep_tool = g_object_new (TEST_TYPE_TOOL, "name", "deep_result", NULL);
  TbToolResult *result;

  TEST_TOOL (null_tool)->garbage = GARBAGE_NULL_NO_ERROR;
  TEST_TOOL (deep_tool)->garbage = GARBAGE_DEEP_OUTPUT;
  g_assert_true (tb_tool_registry_register (f->registry, null_tool, NULL));
  g_assert_true (tb_tool_registry_register (f->registry, deep_tool, NULL));

  result = call (f, "null_result", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_nonnull (strstr (tb_tool_result_get_error (result), "returned no result"));

  result = call (f, "deep_result", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);
  g_assert_nonnull (strstr (tb_tool_result_get_error (result), "nested more than"));
}

static void
test_call_unknown (Fixture       *f,
                   gconstpointer  data)
{
  TbToolResult *result;

  add (f->registry, make_tool ("echo", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  result = call (f, "ech", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_NOT_FOUND);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "There is no tool named “ech”. Available tools: echo.");

  tb_tool_registry_call_async (f->registry, NULL, NULL, NULL, NULL, NULL, call_cb, f);
  g_main_loop_run (f->loop);
  g_assert_cmpint (tb_tool_result_get_kind (f->result), ==, TB_TOOL_FAILURE_NOT_FOUND);
  g_assert_nonnull (strstr (tb_tool_result_get_error (f->result), "names no tool"));

  /* No tool, no call signals. */
  g_assert_cmpuint (f->n_started, ==, 0);
  g_assert_cmpuint (f->n_finished, ==, 0);
}

/* A person may send what the schema refuses, to see what the tool does
 * with it: the arguments arrive exactly as written and the result says
 * they were not validated. */
static void
test_call_unvalidated (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(JsonNode) args = test_parse ("{\"a\": \"one\", \"c\": 3.14}");

  add (f->registry, make_tool ("add", "{\"type\":\"object\",\"properties\":"
                               "{\"a\":{\"type\":\"number\"},\"b\":{\"type\":\"number\"}},"
                               "\"required\":[\"a\",\"b\"],\"additionalProperties\":false}",
                               TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  tb_tool_registry_call_unvalidated_async (f->registry, "add", "by-hand", args, NULL, NULL,
                                           call_cb, f);
  g_main_loop_run (f->loop);
  g_assert_true (tb_tool_result_get_ok (f->result));
  g_assert_true (tb_tool_result_get_unvalidated (f->result));
  g_assert_true (tb_json_equal (tb_tool_result_get_output (f->result), args));
  /* The history and the trace read it from the finished call and its JSON. */
  g_assert_true (tb_tool_result_get_unvalidated (f->finished_result));
  {
    g_autoptr(JsonNode) json = tb_tool_result_to_json (f->finished_result);
    g_autoptr(TbToolResult) read = tb_tool_result_from_json (json, NULL);

    g_assert_true (tb_tool_result_get_unvalidated (read));
  }
  /* Never sent to the model. */
  {
    g_autofree char *content = tb_tool_result_to_model_content (f->result);

    g_assert_null (strstr (content, "unvalidated"));
  }

  /* Still a JSON object: the tool must be able to read it. */
  {
    g_autoptr(JsonNode) array = test_parse ("[1, 2]");

    tb_tool_registry_call_unvalidated_async (f->registry, "add", NULL, array, NULL, NULL,
                                             call_cb, f);
    g_main_loop_run (f->loop);
    g_assert_cmpint (tb_tool_result_get_kind (f->result), ==,
                     TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  }

  /* The ordinary call validates and is not marked. */
  call (f, "add", "{\"a\": 1, \"b\": 2}", NULL);
  g_assert_true (tb_tool_result_get_ok (f->result));
  g_assert_false (tb_tool_result_get_unvalidated (f->result));
  call (f, "add", "{\"a\": \"one\", \"b\": 2}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (f->result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_false (tb_tool_result_get_unvalidated (f->result));
}

static void
test_call_bad_arguments (Fixture       *f,
                         gconstpointer  data)
{
  TbToolResult *result;
  const char *error_text;

  add (f->registry, make_tool ("add", "{\"type\":\"object\",\"properties\":"
                               "{\"a\":{\"type\":\"number\"},\"b\":{\"type\":\"number\"}},"
                               "\"required\":[\"a\",\"b\"]}",
                               TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  result = call (f, "add", "[1, 2]", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The arguments for “add” must be a JSON object, not array");

  result = call (f, "add", "null", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);

  result = call (f, "add", "\"a=1\"", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);

  /* Every error is listed, not just the first. */
  result = call (f, "add", "{\"a\": \"one\"}", NULL);
  error_text = tb_tool_result_get_error (result);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_nonnull (strstr (error_text, "The arguments for “add” are not valid:"));
  g_assert_nonnull (strstr (error_text, "“b”"));
  g_assert_nonnull (strstr (error_text, "/a:"));

  /* Refused calls are still calls: signals fire once each. */
  g_assert_cmpuint (f->n_started, ==, 4);
  g_assert_cmpuint (f->n_finished, ==, 4);
}

static void
test_call_deep_arguments (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(JsonNode) deep = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  add (f->registry, make_tool ("record", NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

  json_node_take_object (deep, object);
  for (guint i = 0; i < TB_JSON_MAX_DEPTH + 5; i++)
    {
      JsonObject *inner = json_object_new ();

      json_object_set_object_member (object, "x", inner);
      object = inner;
    }

  tb_tool_registry_call_async (f->registry, "record", NULL, deep, NULL, NULL, call_cb, f);
  g_main_loop_run (f->loop);
  g_assert_cmpint (tb_tool_result_get_kind (f->result), ==, TB_TOOL_FAILURE_INVALID_ARGUMENTS);
  g_assert_nonnull (strstr (tb_tool_result_get_error (f->result), "nest more than"));
}

static void
test_timeout (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TbTool) stuck = g_object_new (TEST_TYPE_TOOL, "name", "stuck", "timeout-ms", 80, NULL);
  TbToolResult *result;
  gint64 start;

  add (f->registry, make_tool ("slow", NULL, TB_TOOL_VISIBILITY_MODEL, 50,
                               TB_TOOL_SIMPLE_FLAGS_THREADED, slow));

  start = g_get_monotonic_time ();
  result = call (f, "slow", "{\"ms\": 5000}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==,
                   "The tool “slow” did not finish within 50 ms and was stopped");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 4 * G_USEC_PER_SEC);
  g_assert_cmpint (tb_tool_result_get_duration_us (result), >=, 50000);

  /* A tool that never answers at all, with the registry's default limit. */
  TEST_TOOL (stuck)->garbage = GARBAGE_NEVER_FINISHES;
  g_assert_true (tb_tool_registry_register (f->registry, stuck, NULL));
  result = call (f, "stuck", NULL, NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);

  /* When the tool answers after all, the late answer is dropped. */
  {
    GTask *pending = g_object_steal_data (G_OBJECT (stuck), "pending");

    g_task_return_pointer (pending, tb_tool_result_new_success (NULL), g_object_unref);
    g_object_unref (pending);
    while (g_main_context_iteration (NULL, FALSE))
      ;
  }

  g_assert_cmpuint (f->n_started, ==, 2);
  g_assert_cmpuint (f->n_finished, ==, 2);
}

static void
test_default_timeout (Fixture       *f,
                      gconstpointer  data)
{
  TbToolResult *result;

  g_assert_cmpuint (tb_tool_registry_get_default_timeout_ms (f->registry), ==, 30000);
  tb_tool_registry_set_default_timeout_ms (f->registry, 40);
  add (f->registry, make_tool ("slow", NULL, TB_TOOL_VISIBILITY_MODEL, 0,
                               TB_TOOL_SIMPLE_FLAGS_THREADED, slow));

  result = call (f, "slow", "{\"ms\": 3000}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_TIMEOUT);
  g_assert_nonnull (strstr (tb_tool_result_get_error (result), "within 40 ms"));
}

static gboolean
cancel_later (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) already = g_cancellable_new ();
  TbToolResult *result;
  gint64 start;

  add (f->registry, make_tool ("slow", NULL, TB_TOOL_VISIBILITY_MODEL, 0,
                               TB_TOOL_SIMPLE_FLAGS_THREADED, slow));

  start = g_get_monotonic_time ();
  g_timeout_add (30, cancel_later, cancellable);
  result = call (f, "slow", "{\"ms\": 5000}", cancellable);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_CANCELLED);
  g_assert_cmpstr (tb_tool_result_get_error (result), ==, "The call of “slow” was cancelled");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);

  g_cancellable_cancel (already);
  result = call (f, "slow", "{\"ms\": 5000}", already);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_CANCELLED);

  g_assert_cmpuint (f->n_started, ==, 2);
  g_assert_cmpuint (f->n_finished, ==, 2);
}

static void
test_invalid_tools (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *huge = g_strnfill (1024 * 1024, 'd');
  g_autoptr(JsonNode) array_schema = test_parse ("[1,2]");
  g_autoptr(TbTool) bad_name = g_object_new (TEST_TYPE_TOOL, "name", "bad name", NULL);
  g_autoptr(TbTool) no_name = g_object_new (TEST_TYPE_TOOL, NULL);
  g_autoptr(TbTool) big = g_object_new (TEST_TYPE_TOOL, "name", "big", "description", huge, NULL);
  g_autoptr(TbTool) bad_schema = g_object_new (TEST_TYPE_TOOL, "name", "arr",
                                               "parameters", array_schema, NULL);
  TbTool *tools[] = { bad_name, no_name, big, bad_schema };

  /* Tools made with g_object_new() skip GInitable; the registry checks again. */
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (tb_tool_registry_register (f->registry, tools[i], &error));
      g_assert_error (error, TB_REGISTRY_ERROR, TB_REGISTRY_ERROR_INVALID_TOOL);
      g_assert_cmpstr (error->message, !=, "");
    }

  g_assert_cmpuint (tb_tool_registry_get_size (f->registry), ==, 0);
  g_assert_cmpuint (f->n_registered, ==, 0);
}

/* Concurrency: 8 threads look tools up while the main thread registers,
 * unregisters and calls. Run under -Db_sanitize=thread or helgrind to see
 * races; here the test checks that every lookup gives a consistent tool. */

typedef struct
{
  TbToolRegistry *registry;
  volatile gint   stop;
  guint           lookups;
  guint           found;
} Reader;

static gpointer
reader_thread (gpointer data)
{
  Reader *reader = data;
  char name[32];
  guint i = 0;

  while (!g_atomic_int_get (&reader->stop))
    {
      g_autoptr(TbTool) tool = NULL;

      g_snprintf (name, sizeof name, "tool_%u", i++ % 64);
      tool = tb_tool_registry_lookup (reader->registry, name);
      reader->lookups++;
      if (tool != NULL)
        {
          g_assert_cmpstr (tb_tool_get_name (tool), ==, name);
          reader->found++;
        }
      if (tb_tool_registry_contains (reader->registry, "record"))
        reader->found++;
      if (i % 256 == 0)
        {
          g_auto(GStrv) names = tb_tool_registry_get_names (reader->registry);
          g_autofree char *wire = tb_tool_registry_to_wire_name (reader->registry, "record");

          g_assert_nonnull (names);
          g_assert_cmpstr (wire, ==, "record");
        }
      /* Eight spinning readers on two cores would starve the writer. */
      if (i % 16 == 0)
        g_thread_yield ();
    }

  return NULL;
}

static void
test_concurrent_lookups (Fixture       *f,
                         gconstpointer  data)
{
  Reader readers[8] = { 0 };
  GThread *threads[8];
  guint total = 0;

  add (f->registry, make_tool ("record", NULL, TB_TOOL_VISIBILITY_MODEL, 0,
                               TB_TOOL_SIMPLE_FLAGS_THREADED, echo_args));

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      readers[i].registry = f->registry;
      threads[i] = g_thread_new ("reader", reader_thread, &readers[i]);
    }

  for (guint round = 0; round < 200; round++)
    {
      char name[32];
      TbToolResult *result;

      g_snprintf (name, sizeof name, "tool_%u", round % 64);
      if (tb_tool_registry_contains (f->registry, name))
        g_assert_true (tb_tool_registry_unregister (f->registry, name, NULL));
      else
        add (f->registry, make_tool (name, NULL, TB_TOOL_VISIBILITY_MODEL, 0, 0, echo_args));

      result = call (f, "record", "{\"round\": 1}", NULL);
      g_assert_true (tb_tool_result_get_ok (result));
      if (round % 20 == 0)
        {
          g_autoptr(JsonNode) defs =
            tb_tool_registry_to_definitions (f->registry, TB_DEFINITION_FORMAT_OPENAI);

          g_assert_nonnull (defs);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_atomic_int_set (&readers[i].stop, 1);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_thread_join (threads[i]);
      total += readers[i].lookups;
    }

  g_assert_cmpuint (total, >, 0);
  g_assert_cmpuint (f->n_started, ==, 200);
  g_assert_cmpuint (f->n_finished, ==, 200);
}

static void
test_demo_tools (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TbToolResult *result;
  g_autofree char *content = NULL;

  g_assert_true (tb_demo_tools_register (f->registry, &error));
  g_assert_no_error (error);

  result = call (f, "echo", "{\"text\": \"héllo\"}", NULL);
  content = tb_tool_result_to_model_content (result);
  g_assert_cmpstr (content, ==, "héllo");

  result = call (f, "add", "{\"a\": 2, \"b\": 40}", NULL);
  g_assert_cmpint (json_node_get_int (tb_tool_result_get_output (result)), ==, 42);

  result = call (f, "add", "{\"a\": 0.5, \"b\": 0.25}", NULL);
  g_assert_cmpfloat (json_node_get_double (tb_tool_result_get_output (result)), ==, 0.75);

  result = call (f, "add", "{\"a\": 1e308, \"b\": 1e308}", NULL);
  g_assert_cmpint (tb_tool_result_get_kind (result), ==, TB_TOOL_FAILURE_EXECUTION_FAILED);

  result = call (f, "sleep", "{\"ms\": 5}", NULL);
  g_assert_true (tb_tool_result_get_ok (result));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/registry/register-lookup", test_register_lookup);
  ADD ("/registry/duplicate", test_duplicate);
  ADD ("/registry/register-all", test_register_all);
  ADD ("/registry/unregister", test_unregister);
  ADD ("/registry/subset", test_subset);
  ADD ("/registry/definitions", test_definitions);
  ADD ("/registry/definitions-cached", test_definitions_cached);
  ADD ("/registry/wire-names", test_wire_names);
  ADD ("/registry/wire-names-gemini", test_wire_names_gemini);
  ADD ("/registry/call/ok", test_call_ok);
  ADD ("/registry/call/id", test_call_id);
  ADD ("/registry/call/failing-handler", test_call_failing_handler);
  ADD ("/registry/call/garbage", test_call_garbage);
  ADD ("/registry/call/unknown", test_call_unknown);
  ADD ("/registry/call/bad-arguments", test_call_bad_arguments);
  ADD ("/registry/call/unvalidated", test_call_unvalidated);
  ADD ("/registry/call/deep-arguments", test_call_deep_arguments);
  ADD ("/registry/call/timeout", test_timeout);
  ADD ("/registry/call/default-timeout", test_default_timeout);
  ADD ("/registry/call/cancel", test_cancel);
  ADD ("/registry/invalid-tools", test_invalid_tools);
  ADD ("/registry/concurrent-lookups", test_concurrent_lookups);
  ADD ("/registry/demo-tools", test_demo_tools);
#undef ADD

  return g_test_run ();
}
