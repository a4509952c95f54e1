/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-proposal-row"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-proposal-row.h"
#include "tb-proposal-row-private.h"

/* A proposal that waits for the person on the Facts page: the key and the
 * proposed value, the reason, and Review, which activates the page's
 * "facts.review" action with the proposal's id. */

struct _TbProposalRow
{
  AdwActionRow    parent_instance;

  GtkWidget      *review_button;

  TbFactProposal *proposal;
};

G_DEFINE_FINAL_TYPE (TbProposalRow, tb_proposal_row, ADW_TYPE_ACTION_ROW)

enum { PROP_0, PROP_PROPOSAL, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
set_proposal (TbProposalRow  *self,
              TbFactProposal *proposal)
{
  const char *key;
  const char *reason;
  g_autofree char *value = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;

  g_assert (self->proposal == NULL);
  if (proposal == NULL)
    return;

  self->proposal = g_object_ref (proposal);
  key = tb_fact_proposal_get_key (proposal);
  reason = tb_fact_proposal_get_reason (proposal);
  value = tb_json_to_string (tb_fact_proposal_get_value (proposal), FALSE);
  /* The row shows two lines; a value of a megabyte is laid out whole by a
   * label. The dialog shows all of it. */
  shown = tb_text_cut_at_word (value, TB_PROPOSAL_ROW_MAX_VALUE, NULL);
  title = g_strdup_printf ("%s → %s", key, shown);
  /* Translators: %s is a fact's key */
  name = g_strdup_printf (_("Review the change of %s"), key);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), reason != NULL ? reason : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->review_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->review_button), "s",
                                    tb_fact_proposal_get_id (proposal));
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PROPOSAL]);
}

static void
tb_proposal_row_dispose (GObject *object)
{
  TbProposalRow *self = (TbProposalRow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_PROPOSAL_ROW);
  g_clear_object (&self->proposal);

  G_OBJECT_CLASS (tb_proposal_row_parent_class)->dispose (object);
}

static void
tb_proposal_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TbProposalRow *self = TB_PROPOSAL_ROW (object);

  switch (prop_id)
    {
    case PROP_PROPOSAL:
      g_value_set_object (value, self->proposal);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_proposal_row_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TbProposalRow *self = TB_PROPOSAL_ROW (object);

  switch (prop_id)
    {
    case PROP_PROPOSAL:
      set_proposal (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_proposal_row_class_init (TbProposalRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_proposal_row_dispose;
  object_class->get_property = tb_proposal_row_get_property;
  object_class->set_property = tb_proposal_row_set_property;

  properties [PROP_PROPOSAL] =
    g_param_spec_object ("proposal", NULL, NULL, TB_TYPE_FACT_PROPOSAL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-proposal-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbProposalRow, review_button);
}

static void
tb_proposal_row_init (TbProposalRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_proposal_row_new:
 * @proposal: a pending proposal
 *
 * Returns: (transfer floating): a row for @proposal
 */
GtkWidget *
tb_proposal_row_new (TbFactProposal *proposal)
{
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), NULL);

  return g_object_new (TB_TYPE_PROPOSAL_ROW, "proposal", proposal, NULL);
}

/**
 * tb_proposal_row_get_proposal:
 * @self: a row
 *
 * Returns: (transfer none): the proposal the row shows
 */
TbFactProposal *
tb_proposal_row_get_proposal (TbProposalRow *self)
{
  g_return_val_if_fail (TB_IS_PROPOSAL_ROW (self), NULL);
  return self->proposal;
}
