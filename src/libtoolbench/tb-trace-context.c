/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-context"

#include "config.h"

#include "tb-trace-context-private.h"

/* W3C Trace Context for the calls of a run: the run is one trace, its id
 * in the trace's header (`trace_id`); each call is a span whose id comes
 * from the trace id, the iteration and the call's id, so that the same
 * call always has the same `traceparent` and a person can find in a
 * server's telemetry what a call of the trace did. MCP tool calls carry it
 * in `_meta` (the specification reserves `traceparent` for this). */

/**
 * _tb_trace_context_new_trace_id:
 *
 * Returns: (transfer full): 32 lower-case hex digits, random, never all
 *   zero
 */
char *
_tb_trace_context_new_trace_id (void)
{
  GString *id = g_string_sized_new (32);

  for (guint i = 0; i < 4; i++)
    g_string_append_printf (id, "%08x", g_random_int ());
  if (strspn (id->str, "0") == 32)
    id->str[31] = '1';
  return g_string_free (id, FALSE);
}

/**
 * _tb_trace_context_traceparent:
 * @trace_id: (nullable): the run's trace id
 * @iteration: the loop's iteration
 * @call_id: the call's id
 *
 * Returns: (transfer full) (nullable): the call's `traceparent` header
 *   value (version 00, sampled), or %NULL without a usable @trace_id
 */
char *
_tb_trace_context_traceparent (const char *trace_id,
                               guint       iteration,
                               const char *call_id)
{
  g_autoptr(GChecksum) checksum = NULL;
  g_autofree char *seed = NULL;
  char span[17];

  if (trace_id == NULL || strlen (trace_id) != 32 || strspn (trace_id, "0123456789abcdef") != 32)
    return NULL;
  seed = g_strdup_printf ("%s/%u/%s", trace_id, iteration, call_id != NULL ? call_id : "");
  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (checksum, (const guchar *) seed, -1);
  memcpy (span, g_checksum_get_string (checksum), 16);
  span[16] = '\0';
  if (strspn (span, "0") == 16)
    span[15] = '1';
  return g_strdup_printf ("00-%s-%s-01", trace_id, span);
}
