/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-confirm-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-confirm-dialog.h"
#include "tb-confirm-dialog-private.h"

/* The confirmation dialog: the only place a TbConfirmation is made. It
 * shows the key, the current and the proposed value (with a line diff
 * when either is long or structured), the reason and the call that
 * proposed it. The values are shown whole, in text views: a value may be
 * a megabyte, and a label lays out all its text at once (a 560 KB value
 * kept the window from answering for fourteen seconds). Commit is destructive-styled and never the default
 * response; Escape or closing the dialog decides nothing. */

#define LONG_VALUE 60
#define MAX_DIFF_LINES 2000

struct _TbConfirmDialog
{
  AdwMessageDialog  parent_instance;

  GtkTextView      *current_view;
  GtkTextView      *proposed_view;
  GtkWidget        *diff_heading;
  GtkTextView      *diff_view;
  GtkLabel         *reason_label;
  GtkLabel         *origin_label;

  TbWorkspace      *workspace;
  TbFactProposal   *proposal;
  TbConfirmDone     done;
  gpointer          done_data;

  /* What the views show. */
  char             *current;
  char             *proposed;
  char             *diff;
};

G_DEFINE_FINAL_TYPE (TbConfirmDialog, tb_confirm_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum { PROP_0, PROP_WORKSPACE, PROP_PROPOSAL, N_PROPS };
static GParamSpec *properties [N_PROPS];

/* Pretty-printed JSON ends a member's line with a comma unless it is the
 * last one: lines that differ only there are the same line. */
static gboolean
same_line (const char *a,
           const char *b)
{
  gsize la = strlen (a);
  gsize lb = strlen (b);

  if (la > 0 && a[la - 1] == ',')
    la--;
  if (lb > 0 && b[lb - 1] == ',')
    lb--;
  return la == lb && strncmp (a, b, la) == 0;
}

static void
append_lines (GString    *out,
              const char *prefix,
              char      **lines,
              guint       from,
              guint       to)
{
  for (guint i = from; i < to; i++)
    g_string_append_printf (out, "%s%s\n", prefix, lines[i]);
}

/**
 * tb_confirm_diff:
 * @old_text: the text before
 * @new_text: the text after
 *
 * A line diff: unchanged lines start with two spaces, removed ones with
 * "- ", added ones with "+ ". Lines that differ only in a trailing comma
 * count as unchanged and are shown as they are in @new_text. Texts of
 * more than 2,000 lines are shown whole, one after the other.
 *
 * Returns: (transfer full): the diff
 */
char *
tb_confirm_diff (const char *old_text,
                 const char *new_text)
{
  g_auto(GStrv) a = g_strsplit (old_text, "\n", -1);
  g_auto(GStrv) b = g_strsplit (new_text, "\n", -1);
  guint n = g_strv_length (a);
  guint m = g_strv_length (b);
  GString *out = g_string_new (NULL);
  guint *table;
  guint i = 0, j = 0;

  if (n > MAX_DIFF_LINES || m > MAX_DIFF_LINES)
    {
      append_lines (out, "- ", a, 0, n);
      append_lines (out, "+ ", b, 0, m);
      return g_string_free (out, FALSE);
    }

  /* Longest common subsequence of lines, from the end. */
  table = g_new0 (guint, (gsize) (n + 1) * (m + 1));
#define T(x, y) table[(gsize) (x) * (m + 1) + (y)]
  for (guint x = n; x > 0; x--)
    for (guint y = m; y > 0; y--)
      T (x - 1, y - 1) = same_line (a[x - 1], b[y - 1])
                         ? T (x, y) + 1 : MAX (T (x, y - 1), T (x - 1, y));
  while (i < n && j < m)
    {
      if (same_line (a[i], b[j]))
        {
          g_string_append_printf (out, "  %s\n", b[j]);
          i++;
          j++;
        }
      else if (T (i + 1, j) >= T (i, j + 1))
        g_string_append_printf (out, "- %s\n", a[i++]);
      else
        g_string_append_printf (out, "+ %s\n", b[j++]);
    }
#undef T
  append_lines (out, "- ", a, i, n);
  append_lines (out, "+ ", b, j, m);
  g_free (table);
  return g_string_free (out, FALSE);
}

static void
tb_confirm_dialog_response (AdwMessageDialog *dialog,
                            const char       *response)
{
  TbConfirmDialog *self = TB_CONFIRM_DIALOG (dialog);
  g_autoptr(GError) error = NULL;
  const char *who = g_get_real_name ();

  if (who == NULL || *who == '\0' || g_str_equal (who, "Unknown"))
    who = g_get_user_name ();

  if (g_str_equal (response, "commit"))
    {
      /* The one place a confirmation is made: the person pressed Commit. */
      g_autoptr(TbConfirmation) confirmation = tb_confirmation_new (self->workspace,
                                                                    self->proposal,
                                                                    who, &error);

      if (confirmation != NULL)
        tb_workspace_commit (self->workspace, self->proposal, confirmation, &error);
    }
  else if (g_str_equal (response, "reject"))
    tb_workspace_reject (self->workspace, self->proposal, who, &error);
  else
    response = "close";

  if (self->done != NULL)
    self->done (self->proposal, response, error, self->done_data);

  if (ADW_MESSAGE_DIALOG_CLASS (tb_confirm_dialog_parent_class)->response != NULL)
    ADW_MESSAGE_DIALOG_CLASS (tb_confirm_dialog_parent_class)->response (dialog, response);
}

/* AdwMessageDialog focuses its first response when it maps, and Enter
 * would press it: the dialog starts with the focus on nothing, so Enter
 * decides nothing and Tab reaches the responses. */
static void
tb_confirm_dialog_map (GtkWidget *widget)
{
  GtkWidget *focus;

  GTK_WIDGET_CLASS (tb_confirm_dialog_parent_class)->map (widget);

  focus = gtk_window_get_focus (GTK_WINDOW (widget));
  if (focus != NULL && gtk_widget_get_ancestor (focus, GTK_TYPE_BUTTON) != NULL)
    gtk_window_set_focus (GTK_WINDOW (widget), NULL);
}

static void
set_view_text (GtkTextView *view,
               const char  *text)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
}

static void
show_proposal (TbConfirmDialog *self)
{
  TbFactProposal *proposal = self->proposal;
  const char *reason = tb_fact_proposal_get_reason (proposal);
  const char *call_id = tb_fact_proposal_get_origin_call_id (proposal);
  g_autofree char *heading = NULL;
  g_autofree char *origin = NULL;
  gboolean show_diff;

  heading = g_strdup_printf (_("Change the Fact “%s”?"), tb_fact_proposal_get_key (proposal));
  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), heading);

  self->current = tb_fact_proposal_has_previous (proposal)
                  ? tb_json_to_string (tb_fact_proposal_get_previous (proposal), TRUE)
                  : g_strdup (_("(not set)"));
  self->proposed = tb_json_to_string (tb_fact_proposal_get_value (proposal), TRUE);
  origin = call_id != NULL ? g_strdup_printf (_("The model, in call %s"), call_id)
                           : g_strdup (_("A person"));
  set_view_text (self->current_view, self->current);
  set_view_text (self->proposed_view, self->proposed);
  gtk_label_set_label (self->reason_label, reason != NULL && *reason != '\0'
                                           ? reason : _("(none given)"));
  gtk_label_set_label (self->origin_label, origin);

  show_diff = tb_fact_proposal_has_previous (proposal)
              && (strlen (self->current) > LONG_VALUE || strlen (self->proposed) > LONG_VALUE
                  || strchr (self->current, '\n') != NULL
                  || strchr (self->proposed, '\n') != NULL);
  if (show_diff)
    {
      self->diff = tb_confirm_diff (self->current, self->proposed);
      set_view_text (self->diff_view, self->diff);
    }
  gtk_widget_set_visible (self->diff_heading, show_diff);
  gtk_widget_set_visible (GTK_WIDGET (self->diff_view), show_diff);
}

static void
tb_confirm_dialog_constructed (GObject *object)
{
  TbConfirmDialog *self = (TbConfirmDialog *) object;

  G_OBJECT_CLASS (tb_confirm_dialog_parent_class)->constructed (object);

  g_assert (TB_IS_WORKSPACE (self->workspace));
  g_assert (TB_IS_FACT_PROPOSAL (self->proposal));
  show_proposal (self);
}

static void
tb_confirm_dialog_dispose (GObject *object)
{
  TbConfirmDialog *self = (TbConfirmDialog *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_CONFIRM_DIALOG);
  g_clear_object (&self->workspace);
  g_clear_object (&self->proposal);
  g_clear_pointer (&self->current, g_free);
  g_clear_pointer (&self->proposed, g_free);
  g_clear_pointer (&self->diff, g_free);

  G_OBJECT_CLASS (tb_confirm_dialog_parent_class)->dispose (object);
}

static void
tb_confirm_dialog_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TbConfirmDialog *self = TB_CONFIRM_DIALOG (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      g_value_set_object (value, self->workspace);
      break;
    case PROP_PROPOSAL:
      g_value_set_object (value, self->proposal);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_confirm_dialog_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TbConfirmDialog *self = TB_CONFIRM_DIALOG (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      self->workspace = g_value_dup_object (value);
      break;
    case PROP_PROPOSAL:
      self->proposal = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_confirm_dialog_class_init (TbConfirmDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwMessageDialogClass *dialog_class = ADW_MESSAGE_DIALOG_CLASS (klass);

  object_class->constructed = tb_confirm_dialog_constructed;
  object_class->dispose = tb_confirm_dialog_dispose;
  object_class->get_property = tb_confirm_dialog_get_property;
  object_class->set_property = tb_confirm_dialog_set_property;
  widget_class->map = tb_confirm_dialog_map;
  dialog_class->response = tb_confirm_dialog_response;

  properties [PROP_WORKSPACE] =
    g_param_spec_object ("workspace", NULL, NULL, TB_TYPE_WORKSPACE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties [PROP_PROPOSAL] =
    g_param_spec_object ("proposal", NULL, NULL, TB_TYPE_FACT_PROPOSAL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-confirm-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TbConfirmDialog, current_view);
  gtk_widget_class_bind_template_child (widget_class, TbConfirmDialog, proposed_view);
  gtk_widget_class_bind_template_child (widget_class, TbConfirmDialog, diff_heading);
  gtk_widget_class_bind_template_child (widget_class, TbConfirmDialog, diff_view);
  gtk_widget_class_bind_template_child (widget_class, TbConfirmDialog, reason_label);
  gtk_widget_class_bind_template_child (widget_class, TbConfirmDialog, origin_label);
}

static void
tb_confirm_dialog_init (TbConfirmDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_confirm_dialog_new:
 * @parent: (nullable): the window the dialog belongs to
 * @workspace: the workspace
 * @proposal: a pending proposal
 * @done: (nullable): called with the person's answer
 * @user_data: for @done
 *
 * Returns: (transfer floating): the dialog, not yet presented
 */
AdwMessageDialog *
tb_confirm_dialog_new (GtkWindow      *parent,
                       TbWorkspace    *workspace,
                       TbFactProposal *proposal,
                       TbConfirmDone   done,
                       gpointer        user_data)
{
  TbConfirmDialog *self;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (TB_IS_WORKSPACE (workspace), NULL);
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), NULL);

  self = g_object_new (TB_TYPE_CONFIRM_DIALOG,
                       "transient-for", parent,
                       "workspace", workspace,
                       "proposal", proposal,
                       NULL);
  self->done = done;
  self->done_data = user_data;
  return ADW_MESSAGE_DIALOG (self);
}

/**
 * tb_confirm_dialog_get_proposal:
 * @self: a dialog
 *
 * Returns: (transfer none): the proposal the dialog is about
 */
TbFactProposal *
tb_confirm_dialog_get_proposal (TbConfirmDialog *self)
{
  g_return_val_if_fail (TB_IS_CONFIRM_DIALOG (self), NULL);
  return self->proposal;
}

/**
 * tb_confirm_dialog_get_text:
 * @dialog: a dialog from tb_confirm_dialog_new()
 * @part_name: "current", "proposed", "diff", "reason" or "origin"
 *
 * Returns: (nullable): the text the dialog shows for that part
 */
const char *
tb_confirm_dialog_get_text (AdwMessageDialog *dialog,
                            const char       *part_name)
{
  TbConfirmDialog *self;

  g_return_val_if_fail (TB_IS_CONFIRM_DIALOG (dialog), NULL);

  self = TB_CONFIRM_DIALOG (dialog);
  if (g_str_equal (part_name, "current"))
    return self->current;
  if (g_str_equal (part_name, "proposed"))
    return self->proposed;
  if (g_str_equal (part_name, "diff"))
    return gtk_widget_get_visible (GTK_WIDGET (self->diff_view)) ? self->diff : NULL;
  if (g_str_equal (part_name, "reason"))
    return gtk_label_get_label (self->reason_label);
  if (g_str_equal (part_name, "origin"))
    return gtk_label_get_label (self->origin_label);
  return NULL;
}
