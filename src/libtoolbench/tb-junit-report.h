/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * TbJunitOutcome:
 * @TB_JUNIT_PASSED: the case passed.
 * @TB_JUNIT_FAILED: a check did not hold (`<failure>`).
 * @TB_JUNIT_ERROR: the case could not run (`<error>`).
 * @TB_JUNIT_SKIPPED: the case did not run (`<skipped>`).
 *
 * How one case of a #TbJunitReport ended.
 */
typedef enum
{
  TB_JUNIT_PASSED,
  TB_JUNIT_FAILED,
  TB_JUNIT_ERROR,
  TB_JUNIT_SKIPPED,
} TbJunitOutcome;

#define TB_TYPE_JUNIT_REPORT (tb_junit_report_get_type ())

G_DECLARE_FINAL_TYPE (TbJunitReport, tb_junit_report, TB, JUNIT_REPORT, GObject)

TbJunitReport *tb_junit_report_new       (const char     *name);
void           tb_junit_report_add_case  (TbJunitReport  *self,
                                          const char     *suite,
                                          const char     *name,
                                          gint64          duration_ms,
                                          TbJunitOutcome  outcome,
                                          const char     *message,
                                          const char     *detail);
char          *tb_junit_report_to_string (TbJunitReport  *self);

G_END_DECLS
