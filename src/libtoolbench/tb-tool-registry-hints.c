/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-tool"

#include "config.h"

#include "tb-tool-registry-private.h"
#include "tb-tool-registry.h"
#include "tb-tool.h"

/* What tools do, as the approval policy sees it: each tool's own hints,
 * unless a person said otherwise for that name. The person's word is kept
 * by name, so it holds when a server lists its tools again. */

/**
 * tb_tool_registry_set_hints:
 * @self: a registry
 * @name: a tool's name, registered or not yet
 * @hints: what the person says the tool does
 *
 * Overrides the tool's own hints, for example to let a trusted tool run
 * under %TB_APPROVAL_POLICY_READ_ONLY or to make one wait for a person.
 */
void
tb_tool_registry_set_hints (TbToolRegistry *self,
                            const char     *name,
                            TbToolHints     hints)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (name != NULL);

  g_rw_lock_writer_lock (&self->lock);
  g_hash_table_replace (self->hint_overrides, g_strdup (name), GUINT_TO_POINTER (hints));
  g_rw_lock_writer_unlock (&self->lock);
}

/**
 * tb_tool_registry_unset_hints:
 * @self: a registry
 * @name: a tool's name
 *
 * Goes back to the tool's own hints.
 */
void
tb_tool_registry_unset_hints (TbToolRegistry *self,
                              const char     *name)
{
  g_return_if_fail (TB_IS_TOOL_REGISTRY (self));
  g_return_if_fail (name != NULL);

  g_rw_lock_writer_lock (&self->lock);
  g_hash_table_remove (self->hint_overrides, name);
  g_rw_lock_writer_unlock (&self->lock);
}

/**
 * tb_tool_registry_get_hints:
 * @self: a registry
 * @name: a tool's name
 * @overridden: (out) (optional): whether a person set them
 *
 * Tells what a tool says it does, with a person's override if there is one:
 * the loop's read-only approval policy and the app read hints this way.
 *
 * Returns: the person's hints for @name if set, else the registered tool's
 *   own, else %TB_TOOL_HINT_NONE
 */
TbToolHints
tb_tool_registry_get_hints (TbToolRegistry *self,
                            const char     *name,
                            gboolean       *overridden)
{
  TbToolHints hints = TB_TOOL_HINT_NONE;
  gpointer value;
  TbTool *tool;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (self), TB_TOOL_HINT_NONE);

  if (overridden != NULL)
    *overridden = FALSE;
  if (name == NULL)
    return hints;

  g_rw_lock_reader_lock (&self->lock);
  if (g_hash_table_lookup_extended (self->hint_overrides, name, NULL, &value))
    {
      hints = GPOINTER_TO_UINT (value);
      if (overridden != NULL)
        *overridden = TRUE;
    }
  else if ((tool = g_hash_table_lookup (self->by_name, name)) != NULL)
    {
      hints = tb_tool_get_hints (tool);
    }
  g_rw_lock_reader_unlock (&self->lock);
  return hints;
}
