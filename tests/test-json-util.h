/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <toolbench.h>

/* @text parsed as the engine parses JSON; a test's own text, so it must
 * parse. */
static inline JsonNode *
test_parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (text, -1, &error);

  g_assert_no_error (error);
  return node;
}
