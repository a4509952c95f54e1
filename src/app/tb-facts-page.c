/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-facts-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-confirm-dialog.h"
#include "tb-facts-page-private.h"
#include "tb-lock-row.h"
#include "tb-proposal-row.h"
#include "tb-window.h"

/* The Facts page: the workspace's confirmed facts, its draft and locks,
 * and the proposals that wait for the person. Each proposal is decided in
 * the confirmation dialog; the page never commits anything itself. */

struct _TbFactsPage
{
  GtkWidget           parent_instance;

  GtkTextView        *facts_view;
  GtkTextView        *draft_view;
  char               *facts_text;  /* what facts_view shows */
  GtkLabel           *status_label;
  GtkLabel           *path_label;
  GtkListBox         *proposal_list;
  GtkListBox         *lock_list;
  GtkEditable        *lock_entry;
  GtkWidget          *lock_button;

  TbWorkspace        *workspace;
  GtkFilterListModel *pending;
  GtkStringList      *locks;
  AdwMessageDialog   *dialog;
  GFileMonitor       *monitor;
  guint               reload_source;
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
  /* Text views, not labels: a fact may hold a megabyte, which a label
   * lays out whole on every change. */
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->facts_view), facts, -1);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->draft_view), draft, -1);
  g_free (self->facts_text);
  self->facts_text = g_steal_pointer (&facts);
}

static void
update_locks (TbFactsPage *self)
{
  g_auto(GStrv) locks = NULL;

  if (self->workspace != NULL)
    locks = tb_workspace_get_locks (self->workspace);
  gtk_string_list_splice (self->locks, 0, g_list_model_get_n_items (G_LIST_MODEL (self->locks)),
                          (const char * const *) locks);
}

static GtkWidget *
create_lock_row (gpointer item,
                 gpointer user_data)
{
  return tb_lock_row_new (gtk_string_object_get_string (item));
}

static GtkWidget *
create_proposal_row (gpointer item,
                     gpointer user_data)
{
  return tb_proposal_row_new (item);
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
on_lock_activate (TbFactsPage *self)
{
  const char *key = gtk_editable_get_text (self->lock_entry);

  if (*key != '\0' && tb_facts_page_lock (self, key))
    gtk_editable_set_text (self->lock_entry, "");
}

/* Actions */

static void
lock_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  on_lock_activate (TB_FACTS_PAGE (widget));
}

static void
unlock_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  tb_facts_page_unlock (TB_FACTS_PAGE (widget), g_variant_get_string (parameter, NULL));
}

static void
review_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TbFactsPage *self = TB_FACTS_PAGE (widget);
  TbFactProposal *proposal;

  if (self->workspace == NULL)
    return;
  proposal = tb_workspace_lookup_proposal (self->workspace,
                                           g_variant_get_string (parameter, NULL));
  if (proposal != NULL && tb_fact_proposal_get_status (proposal) == TB_PROPOSAL_STATUS_PENDING)
    tb_facts_page_review (self, proposal);
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
  if (self->locks != NULL)
    update_locks (self);
}

static void
tb_facts_page_dispose (GObject *object)
{
  TbFactsPage *self = (TbFactsPage *) object;

  if (self->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->dialog));
  g_clear_object (&self->dialog);
  drop_workspace (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_FACTS_PAGE);
  tb_widget_unparent_children (GTK_WIDGET (self));
  g_clear_object (&self->locks);
  g_clear_pointer (&self->facts_text, g_free);

  G_OBJECT_CLASS (tb_facts_page_parent_class)->dispose (object);
}

static void
tb_facts_page_class_init (TbFactsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_facts_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-facts-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, proposal_list);
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, facts_view);
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, draft_view);
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, lock_list);
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, lock_entry);
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, lock_button);
  gtk_widget_class_bind_template_child (widget_class, TbFactsPage, path_label);
  gtk_widget_class_bind_template_callback (widget_class, on_lock_activate);

  gtk_widget_class_install_action (widget_class, "facts.lock", NULL, lock_action);
  gtk_widget_class_install_action (widget_class, "facts.unlock", "s", unlock_action);
  gtk_widget_class_install_action (widget_class, "facts.review", "s", review_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tb_facts_page_init (TbFactsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_button_name_by_label (GTK_BUTTON (self->lock_button));

  self->locks = gtk_string_list_new (NULL);
  gtk_list_box_bind_model (self->lock_list, G_LIST_MODEL (self->locks), create_lock_row,
                           NULL, NULL);
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
  return self->facts_text != NULL ? self->facts_text : "";
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
  return row != NULL ? GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                                  TB_TYPE_PROPOSAL_ROW,
                                                                  "review_button"))
                     : NULL;
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
