/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-workspace-binding.h"
#include "tb-workspace-private.h"

/**
 * TbWorkspaceBinding:
 *
 * Ties a workspace to a dispatch loop for the length of a run: what
 * happens to proposals is recorded in the loop's trace, and the loop can be
 * made to wait for the person.
 *
 * Trace events (see docs/workspace-format.md): `proposal` when one is made,
 * `commit` when a person confirmed it, `proposal-rejected`,
 * `proposal-superseded`, and `pause` / `resume` around a wait. Confirmation
 * tokens are never recorded.
 *
 * With #TbWorkspaceBinding:pause-for-proposals, a successful
 * `facts.propose` result carries `pause_loop` metadata: the run stops in
 * %TB_LOOP_STATE_READY before asking the model again, and
 * #TbWorkspaceBinding:holding stays %TRUE until no proposal is pending. A
 * run started again goes on (the person chose to), with or without an
 * answer to the proposals. Without it the loop never waits for the person:
 * proposals stay pending in the workspace.
 */

struct _TbWorkspaceBinding
{
  GObject           parent_instance;

  TbWorkspace      *workspace;
  TbDispatchLoop   *loop;
  guint             pause : 1;
  guint             holding : 1;
};

G_DEFINE_FINAL_TYPE (TbWorkspaceBinding, tb_workspace_binding, G_TYPE_OBJECT)

enum { PROP_0, PROP_PAUSE_FOR_PROPOSALS, PROP_HOLDING, N_PROPS };

static GParamSpec *properties [N_PROPS];

static void
record (TbWorkspaceBinding *self,
        const char         *type,
        JsonObject         *payload)
{
  json_object_set_int_member (payload, "iteration", tb_dispatch_loop_get_iteration (self->loop));
  tb_trace_append (tb_dispatch_loop_get_trace (self->loop), type, payload);
  json_object_unref (payload);
}

static void
proposal_added_cb (TbWorkspace        *workspace,
                   TbFactProposal     *proposal,
                   TbWorkspaceBinding *self)
{
  JsonObject *payload = json_object_new ();

  json_object_set_member (payload, "proposal", tb_fact_proposal_to_json (proposal));
  record (self, "proposal", payload);
}

static void
proposal_resolved_cb (TbWorkspace        *workspace,
                      TbFactProposal     *proposal,
                      TbWorkspaceBinding *self)
{
  JsonObject *payload = json_object_new ();
  const char *type;

  json_object_set_string_member (payload, "proposal_id", tb_fact_proposal_get_id (proposal));
  json_object_set_string_member (payload, "key", tb_fact_proposal_get_key (proposal));

  switch (tb_fact_proposal_get_status (proposal))
    {
    case TB_PROPOSAL_STATUS_COMMITTED:
      type = "commit";
      json_object_set_member (payload, "value",
                              json_node_copy (tb_fact_proposal_get_value (proposal)));
      json_object_set_string_member (payload, "confirmed_by",
                                     tb_fact_proposal_get_resolved_by (proposal));
      break;

    case TB_PROPOSAL_STATUS_REJECTED:
      type = "proposal-rejected";
      if (tb_fact_proposal_get_resolved_by (proposal) != NULL)
        json_object_set_string_member (payload, "rejected_by",
                                       tb_fact_proposal_get_resolved_by (proposal));
      break;

    case TB_PROPOSAL_STATUS_SUPERSEDED:
      type = "proposal-superseded";
      break;

    case TB_PROPOSAL_STATUS_PENDING:
    default:
      json_object_unref (payload);
      return;
    }

  record (self, type, payload);
}

static void
update_hold (TbWorkspaceBinding *self)
{
  guint n_pending = tb_workspace_get_n_pending (self->workspace);
  gboolean want = self->pause && n_pending > 0;
  JsonObject *payload;

  if (want == self->holding)
    return;

  payload = json_object_new ();
  json_object_set_int_member (payload, "pending_proposals", n_pending);

  self->holding = want;
  if (want)
    {
      json_object_set_string_member (payload, "reason", "proposals-pending");
      record (self, "pause", payload);
    }
  else
    record (self, "resume", payload);

  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_HOLDING]);
}

static void
n_pending_cb (TbWorkspace        *workspace,
              GParamSpec         *pspec,
              TbWorkspaceBinding *self)
{
  update_hold (self);
}

static void
tb_workspace_binding_dispose (GObject *object)
{
  TbWorkspaceBinding *self = TB_WORKSPACE_BINDING (object);

  if (self->workspace != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->workspace, self);
      if (self->pause)
        _tb_workspace_set_pause_runs (self->workspace, FALSE);
    }
  g_clear_object (&self->workspace);
  g_clear_object (&self->loop);

  G_OBJECT_CLASS (tb_workspace_binding_parent_class)->dispose (object);
}

static void
tb_workspace_binding_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TbWorkspaceBinding *self = TB_WORKSPACE_BINDING (object);

  switch (prop_id)
    {
    case PROP_PAUSE_FOR_PROPOSALS:
      g_value_set_boolean (value, self->pause);
      break;

    case PROP_HOLDING:
      g_value_set_boolean (value, self->holding);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_workspace_binding_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TbWorkspaceBinding *self = TB_WORKSPACE_BINDING (object);

  switch (prop_id)
    {
    case PROP_PAUSE_FOR_PROPOSALS:
      tb_workspace_binding_set_pause_for_proposals (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_workspace_binding_class_init (TbWorkspaceBindingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tb_workspace_binding_dispose;
  object_class->get_property = tb_workspace_binding_get_property;
  object_class->set_property = tb_workspace_binding_set_property;

  /**
   * TbWorkspaceBinding:pause-for-proposals:
   *
   * Whether a run stops, in %TB_LOOP_STATE_READY, after the model made a
   * proposal, so the person can resolve it before the model goes on.
   */
  properties [PROP_PAUSE_FOR_PROPOSALS] =
    g_param_spec_boolean ("pause-for-proposals", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TbWorkspaceBinding:holding:
   *
   * Whether proposals made while pausing is on still wait for the person.
   */
  properties [PROP_HOLDING] =
    g_param_spec_boolean ("holding", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_workspace_binding_init (TbWorkspaceBinding *self)
{
}

/**
 * tb_workspace_binding_new:
 * @workspace: a workspace whose tools are in @loop's registry
 * @loop: a dispatch loop
 *
 * Records what happens to @workspace's proposals in @loop's trace until the
 * binding is finalized. Does not register the tools: call
 * tb_workspace_register_tools() on the registry the loop was made with.
 *
 * Returns: (transfer full): the binding
 */
TbWorkspaceBinding *
tb_workspace_binding_new (TbWorkspace    *workspace,
                          TbDispatchLoop *loop)
{
  TbWorkspaceBinding *self;

  g_return_val_if_fail (TB_IS_WORKSPACE (workspace), NULL);
  g_return_val_if_fail (TB_IS_DISPATCH_LOOP (loop), NULL);

  self = g_object_new (TB_TYPE_WORKSPACE_BINDING, NULL);
  self->workspace = g_object_ref (workspace);
  self->loop = g_object_ref (loop);

  g_signal_connect (workspace, "proposal-added", G_CALLBACK (proposal_added_cb), self);
  g_signal_connect (workspace, "proposal-resolved", G_CALLBACK (proposal_resolved_cb), self);
  g_signal_connect (workspace, "notify::n-pending", G_CALLBACK (n_pending_cb), self);

  return self;
}

/**
 * tb_workspace_binding_get_workspace:
 * @self: a binding
 *
 * Gives the workspace whose proposals the binding records.
 *
 * Returns: (transfer none): the workspace
 */
TbWorkspace *
tb_workspace_binding_get_workspace (TbWorkspaceBinding *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_BINDING (self), NULL);
  return self->workspace;
}

/**
 * tb_workspace_binding_get_loop:
 * @self: a binding
 *
 * Gives the loop whose trace records what happens to proposals.
 *
 * Returns: (transfer none): the loop
 */
TbDispatchLoop *
tb_workspace_binding_get_loop (TbWorkspaceBinding *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_BINDING (self), NULL);
  return self->loop;
}

/**
 * tb_workspace_binding_get_pause_for_proposals:
 * @self: a binding
 *
 * Tells whether the loop stops after a proposal until a person decided
 * (#TbWorkspaceBinding:pause-for-proposals).
 *
 * Returns: whether the loop waits while proposals are pending
 */
gboolean
tb_workspace_binding_get_pause_for_proposals (TbWorkspaceBinding *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_BINDING (self), FALSE);
  return self->pause;
}

/**
 * tb_workspace_binding_set_pause_for_proposals:
 * @self: a binding
 * @pause: whether the loop waits while proposals are pending
 *
 * Makes the loop stop after a proposal until a person decided, or go on
 * (#TbWorkspaceBinding:pause-for-proposals).
 */
void
tb_workspace_binding_set_pause_for_proposals (TbWorkspaceBinding *self,
                                              gboolean            pause)
{
  g_return_if_fail (TB_IS_WORKSPACE_BINDING (self));

  pause = !!pause;
  if (self->pause == (guint) pause)
    return;
  self->pause = pause;
  if (self->workspace != NULL)
    {
      _tb_workspace_set_pause_runs (self->workspace, pause);
      update_hold (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PAUSE_FOR_PROPOSALS]);
}

/**
 * tb_workspace_binding_get_holding:
 * @self: a binding
 *
 * Tells whether the binding is holding the loop back while proposals wait.
 *
 * Returns: %TRUE while pausing is on and proposals wait for the person
 */
gboolean
tb_workspace_binding_get_holding (TbWorkspaceBinding *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_BINDING (self), FALSE);
  return self->holding;
}
