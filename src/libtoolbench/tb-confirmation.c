/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/random.h>

#include "tb-workspace-private.h"
#include "tb-workspace-store.h"

/**
 * TbConfirmation:
 *
 * A person's explicit "yes" to one proposal. It is the only thing that lets
 * tb_workspace_commit() change a fact.
 *
 * Confirmations are made by the confirmation path and nowhere else: the
 * app's confirmation dialog, after it showed the old and the new value and
 * the person chose to commit, and `toolbench-cli facts confirm ID --yes`,
 * after it printed the same diff. Both call tb_confirmation_new(), which
 * registers an unguessable token with the workspace. A confirmation built
 * any other way (g_object_new(), a token typed into a tool call, a token from
 * another process or workspace) is refused, and each one commits once.
 *
 * No tool a model can see creates one: `facts.commit` is user-only and
 * needs the token of a confirmation that already exists.
 */

struct _TbConfirmation
{
  GObject   parent_instance;

  char     *proposal_id;
  char     *confirmed_by;
  char     *token;
  gint64    created;
  gboolean  used;
};

G_DEFINE_FINAL_TYPE (TbConfirmation, tb_confirmation, G_TYPE_OBJECT)

static void
tb_confirmation_finalize (GObject *object)
{
  TbConfirmation *self = TB_CONFIRMATION (object);

  g_clear_pointer (&self->proposal_id, g_free);
  g_clear_pointer (&self->confirmed_by, g_free);
  g_clear_pointer (&self->token, g_free);

  G_OBJECT_CLASS (tb_confirmation_parent_class)->finalize (object);
}

static void
tb_confirmation_class_init (TbConfirmationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_confirmation_finalize;
}

static void
tb_confirmation_init (TbConfirmation *self)
{
}

static char *
new_token (void)
{
  guint8 bytes[16];
  GString *text = g_string_sized_new (2 * sizeof bytes);

  /* getrandom() blocks only before the kernel's pool is ready; fall back
   * to GLib's generator if it is not available at all. */
  if (getrandom (bytes, sizeof bytes, 0) != (gssize) sizeof bytes)
    {
      for (guint i = 0; i < sizeof bytes; i++)
        bytes[i] = (guint8) g_random_int_range (0, 256);
    }

  for (guint i = 0; i < sizeof bytes; i++)
    g_string_append_printf (text, "%02x", bytes[i]);

  return g_string_free (text, FALSE);
}

TbConfirmation *
_tb_confirmation_new (const char *proposal_id,
                      const char *confirmed_by)
{
  TbConfirmation *self = g_object_new (TB_TYPE_CONFIRMATION, NULL);

  self->proposal_id = g_strdup (proposal_id);
  self->confirmed_by = g_strdup (confirmed_by);
  self->token = new_token ();
  self->created = g_get_real_time ();

  return self;
}

void
_tb_confirmation_mark_used (TbConfirmation *self)
{
  self->used = TRUE;
}

/**
 * tb_confirmation_new:
 * @workspace: the workspace that holds @proposal
 * @proposal: the pending proposal the person confirmed
 * @confirmed_by: who confirmed it (a person's name or login), recorded with
 *   the commit
 * @error: return location for a #TbWorkspaceError
 *
 * Records a person's explicit confirmation of @proposal. Call it only from
 * a confirmation path, after the person saw the old and the new value and
 * chose to commit: the app's confirmation dialog and the CLI's
 * `facts confirm ID --yes`. Never call it on a model's behalf.
 *
 * Returns: (transfer full) (nullable): a single-use confirmation naming
 *   @proposal, or %NULL when the proposal is not pending
 */
TbConfirmation *
tb_confirmation_new (TbWorkspace     *workspace,
                     TbFactProposal  *proposal,
                     const char      *confirmed_by,
                     GError         **error)
{
  g_autoptr(TbConfirmation) self = NULL;

  g_return_val_if_fail (TB_IS_WORKSPACE (workspace), NULL);
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), NULL);

  if (confirmed_by == NULL || *confirmed_by == '\0' || !g_utf8_validate (confirmed_by, -1, NULL))
    {
      g_set_error_literal (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFIRMATION,
                           _("A confirmation must name the person who confirms."));
      return NULL;
    }

  self = _tb_confirmation_new (tb_fact_proposal_get_id (proposal), confirmed_by);
  if (!_tb_workspace_issue_confirmation (workspace, proposal, self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * tb_confirmation_get_proposal_id:
 * @self: a confirmation
 *
 * Names the one proposal the confirmation lets tb_workspace_commit() apply.
 *
 * Returns: (nullable): the id of the proposal it confirms
 */
const char *
tb_confirmation_get_proposal_id (TbConfirmation *self)
{
  g_return_val_if_fail (TB_IS_CONFIRMATION (self), NULL);
  return self->proposal_id;
}

/**
 * tb_confirmation_get_confirmed_by:
 * @self: a confirmation
 *
 * Names the person who confirmed, as the workspace records it with the
 * commit.
 *
 * Returns: (nullable): who confirmed
 */
const char *
tb_confirmation_get_confirmed_by (TbConfirmation *self)
{
  g_return_val_if_fail (TB_IS_CONFIRMATION (self), NULL);
  return self->confirmed_by;
}

/**
 * tb_confirmation_get_created:
 * @self: a confirmation
 *
 * Tells when the confirmation was made.
 *
 * Returns: when the person confirmed, in microseconds since the Unix epoch
 */
gint64
tb_confirmation_get_created (TbConfirmation *self)
{
  g_return_val_if_fail (TB_IS_CONFIRMATION (self), 0);
  return self->created;
}

/**
 * tb_confirmation_get_token:
 * @self: a confirmation
 *
 * The token that `facts.commit` takes. It lives only in this process and is
 * never written to workspace files or traces.
 *
 * Returns: (nullable): the token, or %NULL for a confirmation that was not
 *   made by tb_confirmation_new()
 */
const char *
tb_confirmation_get_token (TbConfirmation *self)
{
  g_return_val_if_fail (TB_IS_CONFIRMATION (self), NULL);
  return self->token;
}

/**
 * tb_confirmation_get_used:
 * @self: a confirmation
 *
 * Tells whether the confirmation was spent: each one commits one proposal
 * once.
 *
 * Returns: %TRUE once it committed its proposal
 */
gboolean
tb_confirmation_get_used (TbConfirmation *self)
{
  g_return_val_if_fail (TB_IS_CONFIRMATION (self), FALSE);
  return self->used;
}
