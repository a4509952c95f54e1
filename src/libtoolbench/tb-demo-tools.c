/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-demo-tools"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tb-demo-tools.h"
#include "tb-json.h"
#include "tb-tool-private.h"

/* Small tools that are always there: they let a person try the workbench
 * with nothing configured, and the tests exercise the registry with them. */

static JsonNode *
schema (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (text, -1, &error);

  g_assert_no_error (error);
  return node;
}

static JsonNode *
echo_func (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  const char *text = tb_json_object_get_string (arguments, "text");

  /* A person may send arguments the schema refuses ("Run Anyway"). */
  if (text == NULL)
    {
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_ARGUMENTS,
                   _("“%s” must be a string"), "text");
      return NULL;
    }
  return tb_json_node_new_string (text);
}

static gboolean
get_number (JsonObject  *arguments,
            const char  *name,
            double      *value,
            gboolean    *is_int,
            GError     **error)
{
  JsonNode *node = json_object_get_member (arguments, name);
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    goto fail;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    {
      *value = (double) json_node_get_int (node);
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      *value = json_node_get_double (node);
      *is_int = FALSE;
      return TRUE;
    }

fail:
  g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_ARGUMENTS,
               _("“%s” must be a number"), name);
  return FALSE;
}

static JsonNode *
add_func (TbTool        *tool,
          JsonObject    *arguments,
          JsonObject    *context,
          GCancellable  *cancellable,
          gpointer       user_data,
          GError       **error)
{
  double a, b, sum;
  gboolean is_int = TRUE;
  JsonNode *node;

  if (!get_number (arguments, "a", &a, &is_int, error) ||
      !get_number (arguments, "b", &b, &is_int, error))
    return NULL;

  sum = a + b;
  if (!isfinite (sum))
    {
      g_set_error_literal (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                           _("The sum is too large to represent"));
      return NULL;
    }

  node = json_node_new (JSON_NODE_VALUE);
  if (is_int && fabs (sum) < 9007199254740992.0)
    json_node_set_int (node, (gint64) sum);
  else
    json_node_set_double (node, sum);
  return node;
}

static JsonNode *
sleep_func (TbTool        *tool,
            JsonObject    *arguments,
            JsonObject    *context,
            GCancellable  *cancellable,
            gpointer       user_data,
            GError       **error)
{
  gint64 ms = 0;
  gint64 deadline;
  JsonObject *object;
  JsonNode *node;

  if (!tb_json_object_get_int_in_range (arguments, "ms", 0, 24 * 60 * 60 * 1000, &ms, error))
    return NULL;
  deadline = g_get_monotonic_time () + ms * 1000;

  /* Runs on a worker thread; wakes up often enough to notice cancellation. */
  while (g_get_monotonic_time () < deadline)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_usleep (MIN (10000, MAX (0, deadline - g_get_monotonic_time ())));
    }

  object = json_object_new ();
  json_object_set_int_member (object, "slept_ms", ms);
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

static gboolean
add_tool (TbToolRegistry     *registry,
          const char         *name,
          const char         *description,
          const char         *parameters,
          TbToolSimpleFlags   flags,
          TbToolSimpleFunc    func,
          GError            **error)
{
  g_autoptr(TbTool) tool = NULL;
  g_autoptr(JsonNode) params = schema (parameters);

  tool = tb_tool_new_simple_full (name, description, params, TB_TOOL_VISIBILITY_MODEL,
                                  "demo", 0, flags, func, NULL, NULL, error);
  if (tool == NULL)
    return FALSE;
  /* The demo tools only compute: the read-only policy runs them unasked. */
  _tb_tool_set_hints (tool, TB_TOOL_HINT_READ_ONLY | TB_TOOL_HINT_IDEMPOTENT);
  return tb_tool_registry_register (registry, tool, error);
}

/**
 * tb_demo_tools_register:
 * @registry: a registry
 * @error: return location for a #TbRegistryError
 *
 * Registers `echo` (returns its text), `add` (adds two numbers) and
 * `sleep` (waits a number of milliseconds, for trying time limits and
 * cancellation), with source "demo".
 *
 * Returns: %TRUE when all three were registered
 */
gboolean
tb_demo_tools_register (TbToolRegistry  *registry,
                        GError         **error)
{
  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), FALSE);

  return add_tool (registry, "echo", _("Returns the text it is given."),
                   "{\"type\":\"object\","
                   "\"properties\":{\"text\":{\"type\":\"string\","
                   "\"description\":\"The text to return\"}},"
                   "\"required\":[\"text\"],\"additionalProperties\":false}",
                   TB_TOOL_SIMPLE_FLAGS_NONE, echo_func, error) &&
         add_tool (registry, "add", _("Adds two numbers."),
                   "{\"type\":\"object\","
                   "\"properties\":{\"a\":{\"type\":\"number\",\"description\":\"First addend\"},"
                   "\"b\":{\"type\":\"number\",\"description\":\"Second addend\"}},"
                   "\"required\":[\"a\",\"b\"],\"additionalProperties\":false}",
                   TB_TOOL_SIMPLE_FLAGS_NONE, add_func, error) &&
         add_tool (registry, "sleep",
                   _("Waits the given number of milliseconds, then says how long it slept."),
                   "{\"type\":\"object\","
                   "\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0,"
                   "\"maximum\":600000,\"description\":\"How long to sleep, in milliseconds\"}},"
                   "\"required\":[\"ms\"],\"additionalProperties\":false}",
                   TB_TOOL_SIMPLE_FLAGS_THREADED, sleep_func, error);
}
