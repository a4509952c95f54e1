/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-confirm-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-confirm-dialog.h"

/* The confirmation dialog: the only place a TbConfirmation is made. It
 * shows the key, the current and the proposed value (with a line diff
 * when either is long or structured), the reason and the call that
 * proposed it. Commit is destructive-styled and never the default
 * response; Escape or closing the dialog decides nothing. */

#define LONG_VALUE 60
#define MAX_DIFF_LINES 2000

typedef struct
{
  TbWorkspace    *workspace;
  TbFactProposal *proposal;
  TbConfirmDone   done;
  gpointer        user_data;
} Confirm;

static void
confirm_free (gpointer data)
{
  Confirm *confirm = data;

  g_clear_object (&confirm->workspace);
  g_clear_object (&confirm->proposal);
  g_free (confirm);
}

static void
confirm_free_closure (gpointer  data,
                      GClosure *closure)
{
  confirm_free (data);
}

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
on_response (AdwMessageDialog *dialog,
             const char       *response,
             Confirm          *confirm)
{
  g_autoptr(GError) error = NULL;
  const char *who = g_get_real_name ();

  if (who == NULL || *who == '\0' || g_str_equal (who, "Unknown"))
    who = g_get_user_name ();

  if (g_str_equal (response, "commit"))
    {
      /* The one place a confirmation is made: the person pressed Commit. */
      g_autoptr(TbConfirmation) confirmation = tb_confirmation_new (confirm->workspace,
                                                                    confirm->proposal,
                                                                    who, &error);

      if (confirmation != NULL)
        tb_workspace_commit (confirm->workspace, confirm->proposal, confirmation, &error);
    }
  else if (g_str_equal (response, "reject"))
    tb_workspace_reject (confirm->workspace, confirm->proposal, who, &error);
  else
    response = "close";

  if (confirm->done != NULL)
    confirm->done (confirm->proposal, response, error, confirm->user_data);
}

/* AdwMessageDialog focuses its first response when it maps, and Enter
 * would press it: the dialog starts with the focus on nothing, so Enter
 * decides nothing and Tab reaches the responses. */
static void
on_mapped (GtkWindow *dialog)
{
  GtkWidget *focus = gtk_window_get_focus (dialog);

  if (focus != NULL && gtk_widget_get_ancestor (focus, GTK_TYPE_BUTTON) != NULL)
    gtk_window_set_focus (dialog, NULL);
}

static GtkWidget *
part (GtkWidget  *box,
      const char *title,
      const char *text,
      gboolean    code)
{
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  if (code)
    gtk_widget_add_css_class (label, "monospace");
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), label);
  return label;
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
  AdwMessageDialog *dialog;
  Confirm *confirm;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  g_autofree char *heading = NULL;
  g_autofree char *current = NULL;
  g_autofree char *proposed = NULL;
  g_autofree char *origin = NULL;
  const char *reason = tb_fact_proposal_get_reason (proposal);
  const char *call_id = tb_fact_proposal_get_origin_call_id (proposal);
  GtkWidget *label;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (TB_IS_WORKSPACE (workspace), NULL);
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), NULL);

  heading = g_strdup_printf (_("Change the Fact “%s”?"), tb_fact_proposal_get_key (proposal));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading,
                                                       _("Nothing changes unless you commit "
                                                         "this proposal.")));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);

  current = tb_fact_proposal_has_previous (proposal)
            ? tb_json_to_string (tb_fact_proposal_get_previous (proposal), TRUE)
            : g_strdup (_("(not set)"));
  proposed = tb_json_to_string (tb_fact_proposal_get_value (proposal), TRUE);
  origin = call_id != NULL ? g_strdup_printf (_("The model, in call %s"), call_id)
                           : g_strdup (_("A person"));

  label = part (box, _("Current value"), current, TRUE);
  g_object_set_data (G_OBJECT (dialog), "tb-current", label);
  label = part (box, _("Proposed value"), proposed, TRUE);
  g_object_set_data (G_OBJECT (dialog), "tb-proposed", label);
  if (tb_fact_proposal_has_previous (proposal)
      && (strlen (current) > LONG_VALUE || strlen (proposed) > LONG_VALUE
          || strchr (current, '\n') != NULL || strchr (proposed, '\n') != NULL))
    {
      g_autofree char *diff = tb_confirm_diff (current, proposed);

      label = part (box, _("Changes"), diff, TRUE);
      g_object_set_data (G_OBJECT (dialog), "tb-diff", label);
    }
  label = part (box, _("Reason"), reason != NULL && *reason != '\0' ? reason : _("(none given)"),
                FALSE);
  g_object_set_data (G_OBJECT (dialog), "tb-reason", label);
  label = part (box, _("Proposed by"), origin, FALSE);
  g_object_set_data (G_OBJECT (dialog), "tb-origin", label);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  adw_message_dialog_set_extra_child (dialog, scroller);

  adw_message_dialog_add_responses (dialog,
                                    "reject", _("_Reject"),
                                    "commit", _("_Commit"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "commit", ADW_RESPONSE_DESTRUCTIVE);
  /* No default: Enter must not commit. Escape and the close button give
   * "close", which decides nothing. */
  adw_message_dialog_set_default_response (dialog, NULL);
  adw_message_dialog_set_close_response (dialog, "close");

  confirm = g_new0 (Confirm, 1);
  confirm->workspace = g_object_ref (workspace);
  confirm->proposal = g_object_ref (proposal);
  confirm->done = done;
  confirm->user_data = user_data;
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_response), confirm,
                         confirm_free_closure, 0);
  g_signal_connect_after (dialog, "map", G_CALLBACK (on_mapped), NULL);
  return dialog;
}

/**
 * tb_confirm_dialog_get_text:
 * @dialog: a dialog from tb_confirm_dialog_new()
 * @part: "current", "proposed", "diff", "reason" or "origin"
 *
 * Returns: (nullable): the text the dialog shows for that part
 */
const char *
tb_confirm_dialog_get_text (AdwMessageDialog *dialog,
                            const char       *part_name)
{
  g_autofree char *key = g_strconcat ("tb-", part_name, NULL);
  GtkLabel *label = g_object_get_data (G_OBJECT (dialog), key);

  return label != NULL ? gtk_label_get_label (label) : NULL;
}
