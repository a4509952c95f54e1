/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-schema.h"
#include "tb-schema-error.h"
#include "tb-tool-private.h"

/* The argument check every tool gets by default: the full JSON Schema
 * validator, with the parameters compiled once per tool. A tool whose
 * schema does not compile refuses every call and says why, so that the
 * person can fix the schema (or the server that sent it). */

gboolean
_tb_tool_real_validate_arguments (TbTool    *self,
                                  JsonNode  *arguments,
                                  GPtrArray *errors)
{
  TbToolCompiled *compiled = _tb_tool_get_compiled (self);
  g_autoptr(GPtrArray) found = NULL;

  if (compiled->schema == NULL)
    {
      g_autofree char *message =
        /* Translators: %s says what is wrong with the schema */
        g_strdup_printf (_("The tool’s parameters schema is broken, so no call can be "
                           "checked: %s"), compiled->error->message);

      g_ptr_array_add (errors, tb_schema_error_new ("", "", "schema", message));
      return FALSE;
    }

  if (tb_schema_validate (compiled->schema, arguments, &found))
    return TRUE;

  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (errors, g_steal_pointer (&g_ptr_array_index (found, i)));
  g_ptr_array_set_free_func (found, NULL);
  return FALSE;
}
