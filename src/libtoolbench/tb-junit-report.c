/* SPDX-License-Identifier: GPL-3.0-or-later */

/* JUnit XML, the report most CI systems show: <testsuites> of
 * <testsuite>s of <testcase>s, each passed or with one <failure>, <error>
 * or <skipped>. Evaluations and replay checks both write it. */

#define G_LOG_DOMAIN "tb-junit"

#include "config.h"

#include "tb-junit-report.h"

typedef struct
{
  char           *suite;
  char           *name;
  gint64          duration_ms;
  TbJunitOutcome  outcome;
  char           *message;
  char           *detail;
} Case;

struct _TbJunitReport
{
  GObject    parent_instance;

  char      *name;
  GPtrArray *cases;
};

/**
 * TbJunitReport:
 *
 * A JUnit XML report, the format most CI systems show: `<testsuites>` of
 * `<testsuite>`s of `<testcase>`s, each passed or with one `<failure>`,
 * `<error>` or `<skipped>`. Evaluations and replay checks write it.
 */
G_DEFINE_FINAL_TYPE (TbJunitReport, tb_junit_report, G_TYPE_OBJECT)

static void
case_free (gpointer data)
{
  Case *item = data;

  g_free (item->suite);
  g_free (item->name);
  g_free (item->message);
  g_free (item->detail);
  g_free (item);
}

static void
tb_junit_report_finalize (GObject *object)
{
  TbJunitReport *self = (TbJunitReport *)object;

  g_free (self->name);
  g_ptr_array_unref (self->cases);

  G_OBJECT_CLASS (tb_junit_report_parent_class)->finalize (object);
}

static void
tb_junit_report_class_init (TbJunitReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_junit_report_finalize;
}

static void
tb_junit_report_init (TbJunitReport *self)
{
  self->cases = g_ptr_array_new_with_free_func (case_free);
}

/**
 * tb_junit_report_new:
 * @name: the name of the whole, on `<testsuites>`
 *
 * Makes an empty report.
 *
 * Returns: (transfer full): the new report
 */
TbJunitReport *
tb_junit_report_new (const char *name)
{
  TbJunitReport *self = g_object_new (TB_TYPE_JUNIT_REPORT, NULL);

  self->name = g_strdup (name);
  return self;
}

/**
 * tb_junit_report_add_case:
 * @suite: the `<testsuite>` it belongs to (a model, a folder); suites
 *   keep the order they first appear in
 * @name: the case
 * @duration_ms: how long it took
 * @outcome: how it ended
 * @message: (nullable): the one line CI systems show
 * @detail: (nullable): the whole story, in the element's text
 * @self: a report
 *
 * Adds one case to a suite of the report.
 */
void
tb_junit_report_add_case (TbJunitReport  *self,
                          const char     *suite,
                          const char     *name,
                          gint64          duration_ms,
                          TbJunitOutcome  outcome,
                          const char     *message,
                          const char     *detail)
{
  Case *item;

  g_return_if_fail (TB_IS_JUNIT_REPORT (self));
  g_return_if_fail (suite != NULL && name != NULL);

  item = g_new0 (Case, 1);
  item->suite = g_strdup (suite);
  item->name = g_strdup (name);
  item->duration_ms = MAX (duration_ms, 0);
  item->outcome = outcome;
  item->message = g_strdup (message);
  item->detail = g_strdup (detail);
  g_ptr_array_add (self->cases, item);
}

static void
append_attribute (GString    *out,
                  const char *name,
                  const char *value)
{
  g_autofree char *escaped = g_markup_escape_text (value != NULL ? value : "", -1);

  g_string_append_printf (out, " %s=\"%s\"", name, escaped);
}

static void
append_seconds (GString    *out,
                const char *name,
                gint64      ms)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  append_attribute (out, name, g_ascii_formatd (buffer, sizeof buffer, "%.3f", ms / 1000.0));
}

static void
append_counts (GString *out,
               guint    counts[4],
               gint64   ms)
{
  g_string_append_printf (out, " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\"",
                          counts[0] + counts[1] + counts[2] + counts[3],
                          counts[TB_JUNIT_FAILED], counts[TB_JUNIT_ERROR],
                          counts[TB_JUNIT_SKIPPED]);
  append_seconds (out, "time", ms);
}

static void
append_case (GString *out,
             Case    *item)
{
  static const char * const elements[] = { NULL, "failure", "error", "skipped" };
  const char *element = elements[item->outcome];

  g_string_append (out, "    <testcase");
  append_attribute (out, "classname", item->suite);
  append_attribute (out, "name", item->name);
  append_seconds (out, "time", item->duration_ms);
  if (element == NULL)
    {
      g_string_append (out, "/>\n");
      return;
    }
  g_string_append_printf (out, ">\n      <%s", element);
  append_attribute (out, "message", item->message);
  if (item->outcome != TB_JUNIT_SKIPPED)
    append_attribute (out, "type", element);
  if (item->detail != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (item->detail, -1);

      g_string_append_printf (out, ">%s</%s>\n", escaped, element);
    }
  else
    g_string_append (out, "/>\n");
  g_string_append (out, "    </testcase>\n");
}

/**
 * tb_junit_report_to_string:
 * @self: a report
 *
 * Writes the report as XML, escaping what the cases' texts hold.
 *
 * Returns: (transfer full): the XML document
 */
char *
tb_junit_report_to_string (TbJunitReport *self)
{
  g_autoptr(GPtrArray) suites = g_ptr_array_new ();
  GString *out = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  guint counts[4] = { 0 };
  gint64 ms = 0;

  g_return_val_if_fail (TB_IS_JUNIT_REPORT (self), NULL);

  for (guint i = 0; i < self->cases->len; i++)
    {
      Case *item = g_ptr_array_index (self->cases, i);

      counts[item->outcome]++;
      ms += item->duration_ms;
      if (!g_ptr_array_find_with_equal_func (suites, item->suite, g_str_equal, NULL))
        g_ptr_array_add (suites, item->suite);
    }

  g_string_append (out, "<testsuites");
  append_attribute (out, "name", self->name);
  append_counts (out, counts, ms);
  g_string_append (out, ">\n");

  for (guint s = 0; s < suites->len; s++)
    {
      const char *suite = g_ptr_array_index (suites, s);
      guint suite_counts[4] = { 0 };
      gint64 suite_ms = 0;

      for (guint i = 0; i < self->cases->len; i++)
        {
          Case *item = g_ptr_array_index (self->cases, i);

          if (g_str_equal (item->suite, suite))
            {
              suite_counts[item->outcome]++;
              suite_ms += item->duration_ms;
            }
        }
      g_string_append (out, "  <testsuite");
      append_attribute (out, "name", suite);
      append_counts (out, suite_counts, suite_ms);
      g_string_append (out, ">\n");
      for (guint i = 0; i < self->cases->len; i++)
        {
          Case *item = g_ptr_array_index (self->cases, i);

          if (g_str_equal (item->suite, suite))
            append_case (out, item);
        }
      g_string_append (out, "  </testsuite>\n");
    }
  g_string_append (out, "</testsuites>\n");
  return g_string_free (out, FALSE);
}
