/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Prints how fast the registry registers, looks up and exports tools.
 * Figures only: nothing here passes or fails on time. */

#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <toolbench.h>

static JsonNode *
noop (TbTool        *tool,
      JsonObject    *arguments,
      JsonObject    *context,
      GCancellable  *cancellable,
      gpointer       user_data,
      GError       **error)
{
  return json_node_new (JSON_NODE_NULL);
}

static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

static long
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int
main (int   argc,
      char *argv[])
{
  const guint n_register = 100000;
  const guint n_lookups = 1000000;
  const guint n_export = 10000;
  g_autoptr(TbToolRegistry) registry = tb_tool_registry_new ();
  g_autoptr(TbToolRegistry) export_registry = tb_tool_registry_new ();
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint found = 0;
  gint64 start;
  double make_ms, register_ms, lookup_ms;

  schema = tb_json_parse ("{\"type\":\"object\",\"properties\":{"
                          "\"path\":{\"type\":\"string\",\"minLength\":1},"
                          "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100},"
                          "\"mode\":{\"enum\":[\"fast\",\"safe\"]}},"
                          "\"required\":[\"path\"],\"additionalProperties\":false}", -1, NULL);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_register; i++)
    {
      g_autofree char *name = g_strdup_printf ("server%u.tool_%u", i % 50, i);

      g_ptr_array_add (tools, tb_tool_new_simple (name, "A benchmark tool.", schema,
                                                  TB_TOOL_SIMPLE_FLAGS_NONE, noop,
                                                  NULL, NULL, NULL));
      g_ptr_array_add (names, g_steal_pointer (&name));
    }
  make_ms = ms_since (start);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_register; i++)
    tb_tool_registry_register (registry, g_ptr_array_index (tools, i), NULL);
  register_ms = ms_since (start);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_lookups; i++)
    {
      const char *name = g_ptr_array_index (names, (i * 7919u) % n_register);
      TbTool *tool = tb_tool_registry_lookup (registry, name);

      found += tool != NULL;
      g_clear_object (&tool);
    }
  lookup_ms = ms_since (start);
  g_assert_cmpuint (found, ==, n_lookups);

  g_print ("registry: make %u tools:                %9.1f ms\n", n_register, make_ms);
  g_print ("registry: register %u tools:            %9.1f ms\n", n_register, register_ms);
  g_print ("registry: %u lookups:                  %9.1f ns/lookup\n", n_lookups,
           lookup_ms * 1e6 / n_lookups);

  for (guint i = 0; i < n_export; i++)
    tb_tool_registry_register (export_registry, g_ptr_array_index (tools, i), NULL);

  {
    static const struct { TbDefinitionFormat format; const char *name; } formats[] = {
      { TB_DEFINITION_FORMAT_OPENAI, "openai" },
      { TB_DEFINITION_FORMAT_ANTHROPIC, "anthropic" },
      { TB_DEFINITION_FORMAT_GEMINI, "gemini" },
    };

    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      {
        g_autoptr(JsonNode) definitions = NULL;
        g_autoptr(JsonNode) cached = NULL;
        g_autofree char *text = NULL;
        double build_ms, cached_us, text_ms;

        start = g_get_monotonic_time ();
        definitions = tb_tool_registry_to_definitions (export_registry, formats[f].format);
        build_ms = ms_since (start);

        start = g_get_monotonic_time ();
        cached = tb_tool_registry_to_definitions (export_registry, formats[f].format);
        cached_us = ms_since (start) * 1000.0;

        start = g_get_monotonic_time ();
        text = tb_json_to_string (definitions, FALSE);
        text_ms = ms_since (start);

        g_print ("registry: export %u definitions (%-9s): %7.1f ms, cached %5.1f us, "
                 "as JSON text %6.1f ms (%.1f MiB)\n",
                 n_export, formats[f].name, build_ms, cached_us, text_ms,
                 strlen (text) / (1024.0 * 1024.0));
      }
  }

  g_print ("registry: peak memory:                    %9.1f MiB\n", peak_rss_kib () / 1024.0);

  return 0;
}
