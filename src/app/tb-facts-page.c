/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-facts-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-confirm-dialog.h"
#include "tb-app-util.h"
#include "tb-facts-page.h"
#include "tb-window.h"

/* The Facts page: the workspace's confirmed facts, its draft and locks,
 * and the proposals that wait for the person. Each proposal is decided in
 * the confirmation dialog; the page never commits anything itself. */

struct _TbFactsPage
{
  GtkWidget          parent_instance;

  GtkWidget         *scroller;
  GtkLabel          *facts_label;
  GtkLabel          *draft_label;
  GtkLabel          *status_label;
  GtkLabel          *path_label;
  GtkListBox        *proposal_list;
  GtkListBox        *lock_list;
  GtkEditable       *lock_entry;

  TbWorkspace       *workspace;
  GtkFilterListModel *pending;
  AdwMessageDialog  *dialog;
  GFileMonitor      *monitor;
  guint              reload_source;
};

G_DEFINE_FINAL_TYPE (TbFactsPage, tb_facts_page, GTK_TYPE_WIDGET)

static void
set_status (TbFactsPage *self,
            const char  *text)
{
  gtk_label_set_label (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
}

static void
toast (TbFactsPage *self,
       const char  *text)
{
  GtkWidget *window = gtk_widget_get_ancestor (GTK_WIDGET (self), TB_TYPE_WINDOW);

  if (window != NULL)
    tb_window_add_toast (TB_WINDOW (window), text);
}

static void
update_values (TbFactsPage *self)
{
  g_autofree char *facts = NULL;
  g_autofree char *draft = NULL;

  if (self->workspace == NULL)
    return;
  facts = tb_json_to_string (tb_workspace_get_facts (self->workspace), TRUE);
  draft = tb_json_to_string (tb_workspace_get_draft (self->workspace), TRUE);
  gtk_label_set_label (self->facts_label, facts);
  gtk_label_set_label (self->draft_label, draft);
}

static void
on_unlock_clicked (GtkButton   *button,
                   TbFactsPage *self)
{
  tb_facts_page_unlock (self, g_object_get_data (G_OBJECT (button), "tb-key"));
}

static void
update_locks (TbFactsPage *self)
{
  g_auto(GStrv) locks = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->lock_list))) != NULL)
    gtk_list_box_remove (self->lock_list, child);
  if (self->workspace == NULL)
    return;

  locks = tb_workspace_get_locks (self->workspace);
  for (guint i = 0; locks[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *button = gtk_button_new_with_label (_("Unlock"));
      g_autofree char *name = g_strdup_printf (_("Unlock %s"), locks[i]);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), locks[i]);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      name, -1);
      g_object_set_data_full (G_OBJECT (button), "tb-key", g_strdup (locks[i]), g_free);
      g_signal_connect (button, "clicked", G_CALLBACK (on_unlock_clicked), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      gtk_list_box_append (self->lock_list, row);
    }
}

static void
on_review_clicked (GtkButton   *button,
                   TbFactsPage *self)
{
  tb_facts_page_review (self, g_object_get_data (G_OBJECT (button), "tb-proposal"));
}

static GtkWidget *
create_proposal_row (gpointer item,
                     gpointer user_data)
{
  TbFactsPage *self = user_data;
  TbFactProposal *proposal = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Review…"));
  g_autofree char *name = g_strdup_printf (_("Review the change of %s"),
                                           tb_fact_proposal_get_key (proposal));
  g_autofree char *value = tb_json_to_string (tb_fact_proposal_get_value (proposal), FALSE);
  g_autofree char *title = g_strdup_printf ("%s → %s", tb_fact_proposal_get_key (proposal),
                                            value);
  const char *reason = tb_fact_proposal_get_reason (proposal);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), reason != NULL ? reason : "");
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 2);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  -1);
  gtk_widget_add_css_class (button, "suggested-action");
  g_object_set_data_full (G_OBJECT (button), "tb-proposal", g_object_ref (proposal),
                          g_object_unref);
  g_object_set_data (G_OBJECT (row), "tb-review", button);
  g_signal_connect (button, "clicked", G_CALLBACK (on_review_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  return row;
}

static gboolean
is_pending (gpointer item,
            gpointer user_data)
{
  return tb_fact_proposal_get_status (item) == TB_PROPOSAL_STATUS_PENDING;
}

static void
on_proposals_changed (TbFactsPage *self)
{
  GtkFilter *filter = gtk_filter_list_model_get_filter (self->pending);

  /* A proposal's status changes inside the model: filter again. */
  gtk_filter_changed (filter, GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_done (TbFactProposal *proposal,
         const char     *response,
         const GError   *error,
         gpointer        user_data)
{
  TbFactsPage *self = user_data;
  g_autofree char *text = NULL;

  g_clear_object (&self->dialog);
  if (error != NULL)
    {
      set_status (self, error->message);
      toast (self, error->message);
      return;
    }
  if (g_str_equal (response, "commit"))
    text = g_strdup_printf (_("“%s” is now a fact"), tb_fact_proposal_get_key (proposal));
  else if (g_str_equal (response, "reject"))
    text = g_strdup_printf (_("Rejected the change of “%s”"),
                            tb_fact_proposal_get_key (proposal));
  else
    return;
  set_status (self, NULL);
  toast (self, text);
  on_proposals_changed (self);
  update_values (self);
}

static void
lock_clicked (TbFactsPage *self)
{
  const char *key = gtk_editable_get_text (self->lock_entry);

  if (*key != '\0' && tb_facts_page_lock (self, key))
    gtk_editable_set_text (self->lock_entry, "");
}

static GtkWidget *
section (GtkWidget  *box,
         const char *title)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "title-4");
  gtk_box_append (GTK_BOX (box), label);
  return label;
}

static GtkLabel *
code_label (GtkWidget *box)
{
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 8);
  gtk_widget_set_margin_bottom (label, 8);
  gtk_frame_set_child (GTK_FRAME (frame), label);
  gtk_widget_add_css_class (frame, "tb-code-frame");
  gtk_box_append (GTK_BOX (box), frame);
  return GTK_LABEL (label);
}

static GtkListBox *
boxed_list (GtkWidget  *box,
            const char *name,
            const char *placeholder)
{
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *empty = gtk_label_new (placeholder);

  gtk_widget_add_css_class (empty, "dim-label");
  gtk_widget_set_margin_top (empty, 12);
  gtk_widget_set_margin_bottom (empty, 12);
  gtk_list_box_set_placeholder (GTK_LIST_BOX (list), empty);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_box_append (GTK_BOX (box), list);
  return GTK_LIST_BOX (list);
}

static void
build (TbFactsPage *self)
{
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *lock_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *lock_button = gtk_button_new_with_mnemonic (_("_Lock"));

  tb_button_name_by_label (GTK_BUTTON (lock_button));

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 860);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), clamp);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_label_set_xalign (self->status_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status_label));

  section (box, _("Proposals Waiting"));
  self->proposal_list = boxed_list (box, _("Proposals waiting"),
                                    _("No proposal waits for you."));

  section (box, _("Facts"));
  self->facts_label = code_label (box);
  section (box, _("Draft"));
  self->draft_label = code_label (box);

  section (box, _("Locks"));
  self->lock_list = boxed_list (box, _("Locked keys"), _("No key is locked."));
  self->lock_entry = GTK_EDITABLE (gtk_entry_new ());
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->lock_entry), _("Key to lock, e.g. city"));
  gtk_widget_set_hexpand (GTK_WIDGET (self->lock_entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->lock_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Key to lock"), -1);
  g_signal_connect_swapped (self->lock_entry, "activate", G_CALLBACK (lock_clicked), self);
  g_signal_connect_swapped (lock_button, "clicked", G_CALLBACK (lock_clicked), self);
  gtk_widget_set_tooltip_text (lock_button, _("Nobody can propose or change a locked key"));
  gtk_box_append (GTK_BOX (lock_box), GTK_WIDGET (self->lock_entry));
  gtk_box_append (GTK_BOX (lock_box), lock_button);
  gtk_box_append (GTK_BOX (box), lock_box);

  self->path_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->path_label, 0);
  gtk_label_set_wrap (self->path_label, TRUE);
  gtk_label_set_wrap_mode (self->path_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->path_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->path_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->path_label), "caption");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->path_label));
}

/* The command line may change the file while the window is open: show
 * its changes without waiting for the next change made here. */
static gboolean
reload_cb (gpointer user_data)
{
  TbFactsPage *self = user_data;
  g_autoptr(GError) error = NULL;

  self->reload_source = 0;
  if (self->workspace != NULL && !tb_workspace_reload (self->workspace, &error))
    set_status (self, error->message);
  return G_SOURCE_REMOVE;
}

static void
on_file_changed (TbFactsPage *self)
{
  /* A save is several events (temporary file, rename): read once after. */
  if (self->reload_source == 0)
    self->reload_source = g_timeout_add (200, reload_cb, self);
}

static void
drop_workspace (TbFactsPage *self)
{
  g_clear_handle_id (&self->reload_source, g_source_remove);
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  if (self->workspace != NULL)
    g_signal_handlers_disconnect_by_data (self->workspace, self);
  gtk_list_box_bind_model (self->proposal_list, NULL, NULL, NULL, NULL);
  g_clear_object (&self->pending);
  g_clear_object (&self->workspace);
}

static void
tb_facts_page_dispose (GObject *object)
{
  TbFactsPage *self = (TbFactsPage *) object;

  if (self->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->dialog));
  g_clear_object (&self->dialog);
  drop_workspace (self);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);

  G_OBJECT_CLASS (tb_facts_page_parent_class)->dispose (object);
}

static void
tb_facts_page_class_init (TbFactsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_facts_page_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tb_facts_page_init (TbFactsPage *self)
{
  build (self);
}

GtkWidget *
tb_facts_page_new (void)
{
  return g_object_new (TB_TYPE_FACTS_PAGE, NULL);
}

/**
 * tb_facts_page_set_workspace:
 * @self: a Facts page
 * @workspace: (nullable): the workspace to show
 */
void
tb_facts_page_set_workspace (TbFactsPage *self,
                             TbWorkspace *workspace)
{
  TbWorkspaceStore *store;

  g_return_if_fail (TB_IS_FACTS_PAGE (self));
  g_return_if_fail (!workspace || TB_IS_WORKSPACE (workspace));

  drop_workspace (self);
  if (workspace == NULL)
    return;

  self->workspace = g_object_ref (workspace);
  self->pending = gtk_filter_list_model_new (
    g_object_ref (tb_workspace_get_proposals (workspace)),
    GTK_FILTER (gtk_custom_filter_new (is_pending, NULL, NULL)));
  gtk_list_box_bind_model (self->proposal_list, G_LIST_MODEL (self->pending),
                           create_proposal_row, self, NULL);
  g_signal_connect_swapped (workspace, "proposal-added", G_CALLBACK (on_proposals_changed), self);
  g_signal_connect_swapped (workspace, "proposal-resolved", G_CALLBACK (on_proposals_changed),
                            self);
  g_signal_connect_swapped (workspace, "fact-changed", G_CALLBACK (update_values), self);
  g_signal_connect_swapped (workspace, "draft-changed", G_CALLBACK (update_values), self);
  g_signal_connect_swapped (workspace, "locks-changed", G_CALLBACK (update_locks), self);

  store = tb_workspace_get_store (workspace);
  if (store != NULL && TB_IS_WORKSPACE_FILE_STORE (store))
    {
      const char *path = tb_workspace_file_store_get_path (TB_WORKSPACE_FILE_STORE (store));
      g_autofree char *text = g_strdup_printf (_("Kept in %s"), path);
      g_autoptr(GFile) file = g_file_new_for_path (path);

      gtk_label_set_label (self->path_label, text);
      self->monitor = g_file_monitor_file (file, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
      if (self->monitor != NULL)
        g_signal_connect_swapped (self->monitor, "changed", G_CALLBACK (on_file_changed), self);
    }
  else
    gtk_label_set_label (self->path_label, _("Kept in memory for this session"));

  update_values (self);
  update_locks (self);
}

TbWorkspace *
tb_facts_page_get_workspace (TbFactsPage *self)
{
  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), NULL);
  return self->workspace;
}

const char *
tb_facts_page_get_facts_text (TbFactsPage *self)
{
  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), NULL);
  return gtk_label_get_label (self->facts_label);
}

const char *
tb_facts_page_get_status_text (TbFactsPage *self)
{
  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), NULL);
  return gtk_label_get_label (self->status_label);
}

guint
tb_facts_page_get_n_pending_rows (TbFactsPage *self)
{
  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), 0);
  return tb_list_box_count_rows (self->proposal_list);
}

/**
 * tb_facts_page_get_review_button:
 * @self: a Facts page
 * @position: a row of the waiting proposals
 *
 * Returns: (transfer none) (nullable): its Review button
 */
GtkWidget *
tb_facts_page_get_review_button (TbFactsPage *self,
                                 guint        position)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), NULL);
  row = gtk_list_box_get_row_at_index (self->proposal_list, position);
  return row != NULL ? g_object_get_data (G_OBJECT (row), "tb-review") : NULL;
}

/**
 * tb_facts_page_get_dialog:
 * @self: a Facts page
 *
 * Returns: (transfer none) (nullable): the confirmation dialog, while it is open
 */
AdwMessageDialog *
tb_facts_page_get_dialog (TbFactsPage *self)
{
  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), NULL);
  return self->dialog;
}

/**
 * tb_facts_page_review:
 * @self: a Facts page
 * @proposal: a pending proposal of the page's workspace
 *
 * Opens the confirmation dialog for @proposal.
 *
 * Returns: (transfer none): the dialog
 */
AdwMessageDialog *
tb_facts_page_review (TbFactsPage    *self,
                      TbFactProposal *proposal)
{
  GtkRoot *root;

  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), NULL);
  g_return_val_if_fail (TB_IS_FACT_PROPOSAL (proposal), NULL);
  g_return_val_if_fail (self->workspace != NULL, NULL);

  if (self->dialog != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self->dialog));
      g_clear_object (&self->dialog);
    }
  root = gtk_widget_get_root (GTK_WIDGET (self));
  self->dialog = g_object_ref_sink (tb_confirm_dialog_new (GTK_IS_WINDOW (root)
                                                           ? GTK_WINDOW (root) : NULL,
                                                           self->workspace, proposal,
                                                           on_done, self));
  gtk_window_present (GTK_WINDOW (self->dialog));
  return self->dialog;
}

/**
 * tb_facts_page_lock:
 * @self: a Facts page
 * @key: a fact key
 *
 * Returns: whether the key is now locked (the page shows why not)
 */
gboolean
tb_facts_page_lock (TbFactsPage *self,
                    const char  *key)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), FALSE);

  if (self->workspace == NULL || !tb_workspace_lock (self->workspace, key, &error))
    {
      set_status (self, error != NULL ? error->message : _("There is no workspace."));
      return FALSE;
    }
  set_status (self, NULL);
  return TRUE;
}

/**
 * tb_facts_page_unlock:
 * @self: a Facts page
 * @key: a locked key
 *
 * Returns: whether the key is now unlocked (the page shows why not)
 */
gboolean
tb_facts_page_unlock (TbFactsPage *self,
                      const char  *key)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TB_IS_FACTS_PAGE (self), FALSE);

  if (self->workspace == NULL || !tb_workspace_unlock (self->workspace, key, &error))
    {
      set_status (self, error != NULL ? error->message : _("There is no workspace."));
      return FALSE;
    }
  set_status (self, NULL);
  return TRUE;
}
