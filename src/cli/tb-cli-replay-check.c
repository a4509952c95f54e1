/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "toolbench-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-cli.h"

/* toolbench-cli replay --check A.jsonl B.jsonl …: many traces replayed
 * side by side, each with its own tools (its own MCP server processes),
 * reported in the order they were named. */

typedef struct _Checking Checking;

typedef struct
{
  Checking       *checking;
  char           *path;
  TbReplay       *replay;
  TbToolSession  *session;
  TbReplayReport *report;
  char           *error;
  /* What is said of the trace, made when its replay ends: the report,
   * and through it both runs' traces, is let go then, so that checking
   * many traces keeps only the ones replaying open. */
  char           *problem;
  char           *detail;
  JsonNode       *report_json;
  guint           n_divergences;
  gint64          started;
  gint64          duration_ms;
} Item;

struct _Checking
{
  GPtrArray       *items;
  TbToolSourceSet *sources;
  GCancellable    *cancellable;
  gboolean         mock_tools;
  gboolean         json;
  guint            jobs;
  guint            next;
  guint            running;
};

static void
item_free (gpointer data)
{
  Item *item = data;

  g_free (item->path);
  g_clear_object (&item->replay);
  if (item->session != NULL)
    tb_tool_session_close (item->session);
  g_clear_object (&item->session);
  g_clear_object (&item->report);
  g_free (item->error);
  g_free (item->problem);
  g_free (item->detail);
  g_clear_pointer (&item->report_json, json_node_unref);
  g_free (item);
}

static void start_next (Checking *checking);
static char *describe_problem (Item *item);

static void
item_done (Item *item)
{
  item->duration_ms = (g_get_monotonic_time () - item->started) / 1000;
  item->problem = describe_problem (item);
  if (item->report != NULL)
    {
      if (item->problem != NULL)
        item->detail = tb_replay_report_to_text (item->report);
      if (item->checking->json)
        item->report_json = tb_replay_report_to_json (item->report);
      item->n_divergences = tb_replay_report_get_n_divergences (item->report);
    }
  g_clear_object (&item->report);
  g_clear_object (&item->replay);
  if (item->session != NULL)
    tb_tool_session_close (item->session);
  item->checking->running--;
  start_next (item->checking);
}

static void
replayed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Item *item = user_data;
  g_autoptr(GError) error = NULL;

  item->report = tb_replay_run_finish (TB_REPLAY (object), result, &error);
  if (item->report == NULL)
    item->error = g_strdup (error->message);
  item_done (item);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Item *item = user_data;
  g_autoptr(GError) error = NULL;

  item->session = tb_tool_source_set_open_finish (TB_TOOL_SOURCE_SET (object), result, &error);
  if (item->session == NULL)
    {
      item->error = g_strdup (error->message);
      item_done (item);
      return;
    }
  tb_replay_set_registry (item->replay, tb_tool_session_get_registry (item->session));
  tb_replay_run_async (item->replay, item->checking->cancellable, replayed_cb, item);
}

static void
start_item (Item *item)
{
  Checking *checking = item->checking;
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (item->path);
  g_autoptr(TbTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) problems = NULL;

  item->started = g_get_monotonic_time ();
  checking->running++;

  trace = tb_trace_open (file, NULL, &problems, &error);
  if (trace == NULL)
    {
      item->error = g_strdup (error->message);
      item_done (item);
      return;
    }
  item->replay = tb_replay_new (trace);
  tb_replay_set_parent (item->replay, item->path);
  if (checking->mock_tools)
    tb_replay_run_async (item->replay, checking->cancellable, replayed_cb, item);
  else
    tb_tool_source_set_open_async (checking->sources, checking->cancellable, opened_cb, item);
}

static void
start_next (Checking *checking)
{
  while (checking->next < checking->items->len && checking->running < checking->jobs)
    {
      Item *item = g_ptr_array_index (checking->items, checking->next++);

      if (g_cancellable_is_cancelled (checking->cancellable))
        item->error = g_strdup (_("not replayed: interrupted"));
      else
        start_item (item);
    }
}

/* What a check says of one trace: NULL when it passed. */
static char *
describe_problem (Item *item)
{
  gint first;

  if (item->error != NULL)
    return g_strdup (item->error);
  if (tb_replay_report_get_incomplete (item->report) != NULL)
    return g_strdup_printf (_("the recorded trace is incomplete: %s"),
                            tb_replay_report_get_incomplete (item->report));
  first = tb_replay_report_get_first_divergence (item->report);
  if (first < 0)
    return NULL;
  {
    TbReplayStep *step = tb_replay_report_get_step (item->report, first);
    g_autofree char *said = tb_replay_step_describe (step);

    return g_strdup_printf (_("step %u diverged: %s"), tb_replay_step_get_index (step) + 1, said);
  }
}

/**
 * tb_cli_replay_check_many:
 * @paths: the traces
 * @jobs: how many replay side by side
 * @mock_tools: give back the recorded results instead of running tools
 * @json: print JSON instead of a line per trace
 * @junit_path: (nullable): also write a JUnit XML report here
 * @redactor: keeps keys out of everything written
 *
 * Returns: the exit status: 0 when no trace diverged, 1 otherwise, 4 when
 *   interrupted
 */
int
tb_cli_replay_check_many (const char * const *paths,
                          guint               jobs,
                          gboolean            mock_tools,
                          gboolean            json,
                          const char         *junit_path,
                          TbRedactor         *redactor)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TbJunitReport) junit = tb_junit_report_new ("toolbench replay");
  g_autoptr(JsonArray) rows = json_array_new ();
  Checking checking = { 0 };
  guint passed = 0;
  TbCliInterrupt *watch;
  int status;

  checking.items = g_ptr_array_new_with_free_func (item_free);
  checking.cancellable = g_cancellable_new ();
  checking.mock_tools = mock_tools;
  checking.json = json;
  checking.jobs = jobs;
  if (!mock_tools && (checking.sources = tb_cli_get_tool_sources (FALSE, &error)) == NULL)
    {
      g_printerr ("toolbench-cli: %s\n", error->message);
      g_ptr_array_unref (checking.items);
      g_object_unref (checking.cancellable);
      return TB_CLI_EXIT_USAGE;
    }
  for (guint i = 0; paths[i] != NULL; i++)
    {
      Item *item = g_new0 (Item, 1);

      item->checking = &checking;
      item->path = g_strdup (paths[i]);
      g_ptr_array_add (checking.items, item);
    }

  watch = tb_cli_interrupt_watch (checking.cancellable, NULL);
  start_next (&checking);
  while (checking.running > 0)
    g_main_context_iteration (NULL, TRUE);
  tb_cli_interrupt_unwatch (watch);

  for (guint i = 0; i < checking.items->len; i++)
    {
      Item *item = g_ptr_array_index (checking.items, i);
      /* A trace left waiting when the check was interrupted has only its error. */
      const char *problem = item->problem != NULL ? item->problem : item->error;
      g_autofree char *clean = problem != NULL ? tb_redactor_redact_text (redactor, problem) : NULL;
      g_autofree char *detail = item->detail != NULL ? tb_redactor_redact_text (redactor, item->detail)
                                                     : NULL;
      JsonObject *row = json_object_new ();
      TbJunitOutcome outcome = item->error != NULL ? TB_JUNIT_ERROR
                               : problem != NULL ? TB_JUNIT_FAILED : TB_JUNIT_PASSED;

      passed += problem == NULL;
      tb_junit_report_add_case (junit, "replay", item->path, item->duration_ms, outcome, clean,
                                detail);

      json_object_set_string_member (row, "trace", item->path);
      json_object_set_string_member (row, "status", outcome == TB_JUNIT_PASSED ? "passed"
                                                    : outcome == TB_JUNIT_FAILED ? "diverged"
                                                    : "error");
      if (clean != NULL)
        json_object_set_string_member (row, "message", clean);
      if (item->report_json != NULL)
        {
          json_object_set_int_member (row, "divergences", item->n_divergences);
          json_object_set_member (row, "report", tb_redactor_redact_node (redactor, item->report_json));
        }
      json_array_add_object_element (rows, row);

      if (!json)
        g_print ("%-8s %s%s%s\n", outcome == TB_JUNIT_PASSED ? _("ok")
                                  : outcome == TB_JUNIT_FAILED ? _("DIVERGED") : _("error"),
                 item->path, clean != NULL ? ": " : "", clean != NULL ? clean : "");
    }

  if (json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);

      json_node_set_array (node, rows);
      tb_cli_print_json (node, TRUE);
    }
  else
    g_print (g_dngettext (GETTEXT_PACKAGE, "%u of %u trace replayed without divergence.\n",
                          "%u of %u traces replayed without divergence.\n",
                          checking.items->len), passed, checking.items->len);

  status = passed == checking.items->len ? TB_CLI_EXIT_OK : TB_CLI_EXIT_FAILED;
  if (junit_path != NULL)
    {
      g_autofree char *text = tb_junit_report_to_string (junit);

      if (!g_file_set_contents (junit_path, text, -1, &error))
        status = tb_cli_fail (error);
    }
  if (g_cancellable_is_cancelled (checking.cancellable))
    status = TB_CLI_EXIT_CANCELLED;

  g_ptr_array_unref (checking.items);
  g_clear_object (&checking.sources);
  g_object_unref (checking.cancellable);
  return status;
}
