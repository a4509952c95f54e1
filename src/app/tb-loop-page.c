/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-loop-page"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-facts-page.h"
#include "tb-loop-page-private.h"
#include "tb-loop-status.h"
#include "tb-message-row.h"
#include "tb-pending-list.h"
#include "tb-prefs.h"
#include "tb-provider-chooser.h"
#include "tb-tool-chooser.h"

/* The Loop page: a model (the offline scripted demo unless another
 * provider is set) driving the registry's model-visible tools, one phase
 * at a time or to the end. The conversation grows as rows, each with the
 * exact JSON of its turn; the calls of a turn wait in the pending list,
 * where the person approves, edits (in the Tool page's argument editor),
 * answers by hand or rejects each one before the next Step runs them. */

struct _TbLoopPage
{
  GtkWidget           parent_instance;

  TbToolRegistry     *registry;
  TbDispatchLoop     *loop;
  TbWorkspace        *workspace;
  TbWorkspaceBinding *binding;
  GFile              *autosave_file;
  TbTraceRecorder    *recorder;
  GCancellable       *cancellable;
  GSettings          *settings;
  GString            *streaming;
  gboolean            busy;

  GtkWidget          *scroller;
  TbProviderChooser  *provider_chooser;
  GtkSpinButton      *max_spin;
  GtkEditable        *system_entry;
  GtkEditable        *user_entry;
  GtkEditable        *breakpoint_entry;
  GtkDropDown        *policy_dropdown;
  TbToolChooser      *tool_chooser;
  GtkWidget          *step_button;
  GtkWidget          *continue_button;
  GtkWidget          *stop_button;
  GtkWidget          *extend_button;
  GtkSpinButton      *extend_spin;
  GtkWidget          *retry_button;
  GtkWidget          *new_button;
  TbLoopStatus       *status;
  GtkListBox         *conversation;
  GtkLabel           *streaming_label;
  TbPendingList      *pending_list;
  GtkEditable        *turn_entry;
  GtkWidget          *turn_button;
  GtkExpander        *tools_expander;
  GtkLabel           *tools_label;
};

G_DEFINE_FINAL_TYPE (TbLoopPage, tb_loop_page, GTK_TYPE_WIDGET)

/* The end of the model's arriving text that shows: a few lines. */
#define STREAMING_SHOWN_BYTES 2000

enum { PROP_0, PROP_LOOP, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void update_controls (TbLoopPage *self);
static void detach_loop     (TbLoopPage *self);
static void clear_streaming (TbLoopPage *self);

static void
set_error_text (TbLoopPage *self,
                const char *text)
{
  tb_loop_status_set_error (self->status, text);
}

/* The provider's own redactor knows the key in use; a scripted run has
 * none, and gets one that still removes credential-shaped text. */
static TbRedactor *
provider_redactor (TbProvider *provider)
{
  if (provider != NULL && TB_IS_HTTP_PROVIDER (provider))
    return g_object_ref (tb_http_provider_get_redactor (TB_HTTP_PROVIDER (provider)));
  return tb_redactor_new ();
}

static GtkWidget *
create_message_row (gpointer item,
                    gpointer user_data)
{
  TbLoopPage *self = user_data;
  g_autoptr(TbRedactor) redactor =
    provider_redactor (tb_dispatch_loop_get_provider (self->loop));

  return tb_message_row_new_for_message (item, tb_dispatch_loop_get_trace (self->loop),
                                         redactor);
}

/* The loop. */

static void
on_loop_changed (TbLoopPage *self)
{
  if (self->loop != NULL
      && tb_dispatch_loop_get_state (self->loop) != TB_LOOP_STATE_AWAITING_MODEL)
    clear_streaming (self);
  update_controls (self);
}

/* After a decision the focus goes on to the next call nobody decided, or
 * to Step when every call is decided. */
static void
focus_next_waiting (TbLoopPage       *self,
                    TbPendingCallRow *after)
{
  if (!tb_pending_list_focus_waiting (self->pending_list, after)
      && gtk_widget_get_sensitive (self->step_button))
    gtk_widget_grab_focus (self->step_button);
}

static gboolean
focus_first_waiting (gpointer data)
{
  TbLoopPage *self = data;

  if (gtk_widget_get_mapped (GTK_WIDGET (self))
      && tb_pending_list_get_n_rows (self->pending_list) > 0)
    focus_next_waiting (self, NULL);
  return G_SOURCE_REMOVE;
}

static void
decide_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TbLoopPage *self = TB_LOOP_PAGE (widget);
  TbPendingCallRow *row;
  gboolean decided = TRUE;

  if (!gtk_widget_get_mapped (widget)
      || (row = tb_pending_list_get_current (self->pending_list)) == NULL
      || tb_pending_call_row_get_editor (row) == NULL)
    return;
  if (g_str_equal (action_name, "loop.approve"))
    decided = tb_pending_call_row_approve (row);
  else if (g_str_equal (action_name, "loop.skip"))
    tb_pending_call_row_skip (row);
  else if (g_str_equal (action_name, "loop.reject"))
    tb_pending_call_row_reject (row);
  else
    {
      tb_pending_call_row_edit (row);
      return;
    }
  if (decided)
    focus_next_waiting (self, row);
}

static void
on_pending_changed (GListModel *model,
                    guint       position,
                    guint       removed,
                    guint       added,
                    TbLoopPage *self)
{
  /* The rows are made after this handler: focus the first once they are. */
  if (added > 0)
    g_idle_add_full (G_PRIORITY_DEFAULT, focus_first_waiting, g_object_ref (self),
                     g_object_unref);
}

/* The model's text as it arrives (when the provider streams), shown under
 * the conversation until its turn is appended. */
static void
clear_streaming (TbLoopPage *self)
{
  g_string_truncate (self->streaming, 0);
  gtk_label_set_label (self->streaming_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->streaming_label), FALSE);
}

static void
on_text_delta (TbProvider *provider,
               const char *text,
               TbLoopPage *self)
{
  g_autofree char *shown = NULL;

  if (self->loop == NULL
      || tb_dispatch_loop_get_state (self->loop) != TB_LOOP_STATE_AWAITING_MODEL)
    return;
  g_string_append (self->streaming, text != NULL ? text : "");
  if (self->streaming->len <= STREAMING_SHOWN_BYTES)
    shown = g_strdup_printf (_("Model (arriving): %s"), self->streaming->str);
  else
    {
      /* The end of a long text: the label lays out all it holds, on every
       * frame while the text grows. */
      const char *tail = self->streaming->str + self->streaming->len - STREAMING_SHOWN_BYTES;
      g_autofree char *cut = NULL;

      while ((*tail & 0xc0) == 0x80)
        tail++;
      cut = g_strconcat ("…", tail, NULL);
      shown = g_strdup_printf (_("Model (arriving): %s"), cut);
    }
  tb_label_set_outside_text (self->streaming_label, shown);
  gtk_widget_set_visible (GTK_WIDGET (self->streaming_label), TRUE);
}

/* New rows are scrolled into view once they have their size. */
static gboolean
scroll_to_end (gpointer data)
{
  TbLoopPage *self = data;
  GtkAdjustment *adjustment;

  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment)
                                        - gtk_adjustment_get_page_size (adjustment));
  return G_SOURCE_REMOVE;
}

static void
on_messages_changed (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     TbLoopPage *self)
{
  if (added > 0)
    clear_streaming (self);
  if (added > 0)
    g_idle_add_full (G_PRIORITY_LOW, scroll_to_end, g_object_ref (self), g_object_unref);
}

static void
on_warning (TbDispatchLoop *loop,
            const char     *message,
            TbLoopPage     *self)
{
  set_error_text (self, message);
}

static char **
split_names (const char *text)
{
  g_auto(GStrv) parts = g_regex_split_simple ("[\\s,]+", text != NULL ? text : "", 0, 0);
  GStrvBuilder *builder = g_strv_builder_new ();
  char **names;

  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] != '\0')
      g_strv_builder_add (builder, parts[i]);
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return names;
}

static void
apply_breakpoints (TbLoopPage *self)
{
  g_auto(GStrv) names = NULL;

  if (self->loop == NULL)
    return;
  names = split_names (gtk_editable_get_text (self->breakpoint_entry));
  tb_dispatch_loop_set_breakpoints (self->loop, (const char * const *) names);
}

static void
drop_loop (TbLoopPage *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  detach_loop (self);
  self->busy = FALSE;
  /* The run is dropped on purpose (New Run, the window closed): there is
   * nothing to recover. */
  if (self->recorder != NULL)
    {
      tb_trace_recorder_close (self->recorder, NULL);
      g_clear_object (&self->recorder);
      g_file_delete (self->autosave_file, NULL, NULL);
    }
  if (self->loop != NULL)
    {
      g_clear_object (&self->loop);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOOP]);
    }
}

static TbApprovalPolicy
chosen_policy (TbLoopPage *self)
{
  switch (gtk_drop_down_get_selected (self->policy_dropdown))
    {
    case 1:
      return TB_APPROVAL_POLICY_ASK;
    case 2:
      return TB_APPROVAL_POLICY_REJECT_ALL;
    case 3:
      return TB_APPROVAL_POLICY_READ_ONLY;
    default:
      return TB_APPROVAL_POLICY_APPROVE_ALL;
    }
}

static void
on_policy_changed (TbLoopPage *self)
{
  if (self->loop != NULL)
    tb_dispatch_loop_set_approval_policy (self->loop, chosen_policy (self));
  /* The rows say what Step does with the calls nobody decided. */
  tb_pending_list_set_policy (self->pending_list, chosen_policy (self));
}

/* A running call's progress shows in its own row. */
static void
on_call_progress (TbDispatchLoop *loop,
                  TbPendingCall  *pending,
                  double          progress,
                  double          total,
                  const char     *message,
                  TbLoopPage     *self)
{
  tb_pending_list_set_progress (self->pending_list, pending, progress, total, message);
}

/* A run that waits for a proposed fact says so, beside a way to it. */
static void
on_holding_changed (TbLoopPage *self)
{
  tb_loop_status_set_holding (self->status,
                              self->binding != NULL
                              && tb_workspace_binding_get_holding (self->binding));
}

/* Connects the page to self->loop: its state, its conversation and its
 * pending calls, the breakpoints, the policy and the workspace. */
static void
attach_loop (TbLoopPage *self)
{
  tb_dispatch_loop_set_approval_policy (self->loop, chosen_policy (self));
  tb_dispatch_loop_set_stream (self->loop, TRUE);
  g_signal_connect (tb_dispatch_loop_get_provider (self->loop), "text-delta",
                    G_CALLBACK (on_text_delta), self);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_signal_connect_swapped (self->loop, "notify::state", G_CALLBACK (on_loop_changed), self);
  g_signal_connect_swapped (self->loop, "notify::iteration", G_CALLBACK (on_loop_changed), self);
  g_signal_connect_swapped (self->loop, "notify::max-iterations",
                            G_CALLBACK (on_loop_changed), self);
  g_signal_connect (self->loop, "warning", G_CALLBACK (on_warning), self);
  g_signal_connect (self->loop, "call-progress", G_CALLBACK (on_call_progress), self);
  g_signal_connect (tb_dispatch_loop_get_pending_calls (self->loop), "items-changed",
                    G_CALLBACK (on_pending_changed), self);
  g_signal_connect (tb_dispatch_loop_get_messages (self->loop), "items-changed",
                    G_CALLBACK (on_messages_changed), self);
  gtk_list_box_bind_model (self->conversation, tb_dispatch_loop_get_messages (self->loop),
                           create_message_row, self, NULL);
  tb_pending_list_set_model (self->pending_list, tb_dispatch_loop_get_pending_calls (self->loop));
  apply_breakpoints (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOOP]);
  /* Proposals are recorded in the run's trace, and Continue waits for the
   * person when the model proposed a fact. */
  if (self->workspace != NULL)
    {
      self->binding = tb_workspace_binding_new (self->workspace, self->loop);
      tb_workspace_binding_set_pause_for_proposals (self->binding, TRUE);
      g_signal_connect_swapped (self->binding, "notify::holding",
                                G_CALLBACK (on_holding_changed), self);
    }
  on_holding_changed (self);
  tb_loop_status_set_loop (self->status, self->loop);
}

/* Lets go of self->loop, leaving the run's autosave as it is. */
static void
detach_loop (TbLoopPage *self)
{
  gtk_list_box_bind_model (self->conversation, NULL, NULL, NULL, NULL);
  tb_pending_list_set_model (self->pending_list, NULL);
  if (self->loop != NULL)
    {
      g_signal_handlers_disconnect_by_data (tb_dispatch_loop_get_pending_calls (self->loop), self);
      g_signal_handlers_disconnect_by_data (tb_dispatch_loop_get_messages (self->loop), self);
      g_signal_handlers_disconnect_by_data (tb_dispatch_loop_get_provider (self->loop), self);
      g_signal_handlers_disconnect_by_data (self->loop, self);
    }
  if (self->binding != NULL)
    g_signal_handlers_disconnect_by_data (self->binding, self);
  g_clear_object (&self->binding);
  on_holding_changed (self);
  tb_loop_status_set_loop (self->status, NULL);
  clear_streaming (self);
}

/* After a provider error: a new loop on the same trace, from the same
 * conversation, asks the model for the failed turn again. The failed
 * attempt stays in the trace. */
static gboolean
retry_turn (TbLoopPage  *self,
            GError     **error)
{
  g_autoptr(TbDispatchLoop) old = g_object_ref (self->loop);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  GListModel *model = tb_dispatch_loop_get_messages (old);
  guint used = tb_dispatch_loop_get_iteration (old);
  TbDispatchLoop *loop;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (messages, g_list_model_get_item (model, i));
  /* The failed turn counted an iteration but brought no message. */
  if (used > 0)
    used--;

  loop = g_object_new (TB_TYPE_DISPATCH_LOOP,
                       "registry", tb_dispatch_loop_get_registry (old),
                       "provider", tb_dispatch_loop_get_provider (old),
                       "max-iterations", tb_dispatch_loop_get_max_iterations (old),
                       "trace", tb_dispatch_loop_get_trace (old),
                       NULL);
  if (!tb_dispatch_loop_restore (loop, messages, used, error))
    {
      g_object_unref (loop);
      return FALSE;
    }
  detach_loop (self);
  g_clear_object (&self->loop);
  self->loop = loop;
  attach_loop (self);
  return TRUE;
}

/* Only the setup of a run that has not started takes new defaults. */
static void
apply_defaults (TbLoopPage *self)
{
  if (self->loop != NULL)
    return;
  gtk_spin_button_set_value (self->max_spin,
                             g_settings_get_uint (self->settings, "loop-iteration-cap"));
  switch (tb_prefs_get_approval_policy (self->settings))
    {
    case TB_APPROVAL_POLICY_ASK:
      gtk_drop_down_set_selected (self->policy_dropdown, 1);
      break;
    case TB_APPROVAL_POLICY_REJECT_ALL:
      gtk_drop_down_set_selected (self->policy_dropdown, 2);
      break;
    case TB_APPROVAL_POLICY_READ_ONLY:
      gtk_drop_down_set_selected (self->policy_dropdown, 3);
      break;
    case TB_APPROVAL_POLICY_APPROVE_ALL:
    default:
      gtk_drop_down_set_selected (self->policy_dropdown, 0);
      break;
    }
}

/* A new run from the setup: its system prompt and, with @add_user, the
 * user message of the entry. */
static gboolean
ensure_loop (TbLoopPage  *self,
             gboolean     needs_user_message,
             gboolean     add_user,
             GError     **error)
{
  g_autoptr(TbProvider) provider = NULL;
  g_autoptr(TbToolRegistry) offered = NULL;
  const char *system = gtk_editable_get_text (self->system_entry);
  const char *user = gtk_editable_get_text (self->user_entry);
  guint max = gtk_spin_button_get_value_as_int (self->max_spin);

  if (self->loop != NULL)
    return TRUE;
  if (self->registry == NULL)
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_WRONG_STATE,
                           _("There are no tools to offer yet."));
      return FALSE;
    }
  if (needs_user_message && *user == '\0')
    {
      g_set_error_literal (error, TB_LOOP_ERROR, TB_LOOP_ERROR_INVALID,
                           _("Write a message for the model first."));
      return FALSE;
    }

  provider = tb_loop_page_create_provider (self, error);
  if (provider == NULL)
    return FALSE;
  offered = tb_tool_chooser_get_offered_registry (self->tool_chooser);
  self->loop = tb_dispatch_loop_new (offered, provider, MAX (max, 1));
  attach_loop (self);
  if (self->autosave_file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (self->autosave_file);
      g_autoptr(TbRedactor) redactor = provider_redactor (provider);

      if (parent != NULL)
        g_file_make_directory_with_parents (parent, NULL, NULL);
      /* The key of the provider in use never reaches the autosave. */
      self->recorder = tb_trace_recorder_new (tb_dispatch_loop_get_trace (self->loop),
                                              self->autosave_file, redactor);
      /* A run whose trace misses events must not look like a recorded one. */
      g_signal_connect_object (self->recorder, "failed", G_CALLBACK (tb_dispatch_loop_fail),
                               self->loop, G_CONNECT_SWAPPED);
    }

  if (*system != '\0')
    {
      g_autoptr(TbMessage) message = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, system);

      if (!tb_dispatch_loop_add_message (self->loop, message, error))
        return FALSE;
    }
  if (add_user && *user != '\0'
      && !tb_dispatch_loop_add_user_message (self->loop, user, error))
    return FALSE;
  return TRUE;
}

/* A phase (Step) or a run (Continue) of the current loop is over. */
static void
phase_finished (TbLoopPage     *self,
                TbDispatchLoop *loop,
                GError         *error)
{
  if (loop != self->loop)
    return;
  self->busy = FALSE;
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    set_error_text (self, error->message);
  update_controls (self);
}

static void
step_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(TbLoopPage) self = user_data;
  g_autoptr(GError) error = NULL;

  tb_dispatch_loop_step_finish (TB_DISPATCH_LOOP (object), result, &error);
  phase_finished (self, TB_DISPATCH_LOOP (object), error);
}

static void
run_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TbLoopPage) self = user_data;
  g_autoptr(GError) error = NULL;

  tb_dispatch_loop_run_finish (TB_DISPATCH_LOOP (object), result, &error);
  phase_finished (self, TB_DISPATCH_LOOP (object), error);
}

static void
run_step (TbLoopPage *self)
{
  g_autoptr(GError) error = NULL;

  if (self->busy)
    return;
  if (!ensure_loop (self, TRUE, TRUE, &error))
    {
      set_error_text (self, error->message);
      update_controls (self);
      return;
    }
  set_error_text (self, NULL);
  self->busy = TRUE;
  tb_dispatch_loop_step_async (self->loop, self->cancellable, step_done, g_object_ref (self));
  update_controls (self);
}

/* Step and Continue are window-wide: from another page they bring the
 * Loop page forward first, since the person asked for the loop. */
static void
show_page (TbLoopPage *self)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_VIEW_STACK);

  if (stack != NULL && !gtk_widget_get_mapped (GTK_WIDGET (self)))
    adw_view_stack_set_visible_child (ADW_VIEW_STACK (stack), GTK_WIDGET (self));
}

static void
step_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  show_page (TB_LOOP_PAGE (widget));
  run_step (TB_LOOP_PAGE (widget));
}

static void
continue_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TbLoopPage *self = TB_LOOP_PAGE (widget);
  g_autoptr(GError) error = NULL;

  if (self->busy)
    return;
  show_page (self);
  if (!ensure_loop (self, TRUE, TRUE, &error))
    {
      set_error_text (self, error->message);
      return;
    }
  set_error_text (self, NULL);
  self->busy = TRUE;
  tb_dispatch_loop_run_async (self->loop, self->cancellable, run_done, g_object_ref (self));
  update_controls (self);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TbLoopPage *self = TB_LOOP_PAGE (widget);

  if (self->loop != NULL)
    tb_dispatch_loop_cancel (self->loop);
  update_controls (self);
}

static void
extend_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TbLoopPage *self = TB_LOOP_PAGE (widget);
  g_autoptr(GError) error = NULL;

  if (self->loop == NULL || !gtk_widget_get_mapped (widget))
    return;
  if (!tb_dispatch_loop_extend (self->loop, gtk_spin_button_get_value_as_int (self->extend_spin),
                                &error))
    set_error_text (self, error->message);
  else
    set_error_text (self, NULL);
  update_controls (self);
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  TbLoopPage *self = TB_LOOP_PAGE (widget);
  g_autoptr(GError) error = NULL;

  if (self->loop == NULL || self->busy
      || tb_dispatch_loop_get_state (self->loop) != TB_LOOP_STATE_FAILED)
    return;
  if (!retry_turn (self, &error))
    {
      set_error_text (self, error->message);
      return;
    }
  set_error_text (self, NULL);
  update_controls (self);
}

/* The proposal the run waits for, in the confirmation dialog of the Facts
 * page. */
static void
review_proposal_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  TbLoopPage *self = TB_LOOP_PAGE (widget);
  GtkWidget *stack = gtk_widget_get_ancestor (widget, ADW_TYPE_VIEW_STACK);
  GtkWidget *facts;
  GListModel *proposals;

  if (self->workspace == NULL || stack == NULL
      || !TB_IS_FACTS_PAGE (facts = adw_view_stack_get_child_by_name (ADW_VIEW_STACK (stack),
                                                                       "facts")))
    return;
  adw_view_stack_set_visible_child (ADW_VIEW_STACK (stack), facts);
  proposals = tb_workspace_get_proposals (self->workspace);
  for (guint i = 0; i < g_list_model_get_n_items (proposals); i++)
    {
      g_autoptr(TbFactProposal) proposal = g_list_model_get_item (proposals, i);

      if (tb_fact_proposal_get_status (proposal) == TB_PROPOSAL_STATUS_PENDING)
        {
          tb_facts_page_review (TB_FACTS_PAGE (facts), proposal);
          return;
        }
    }
}

static void
new_run_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  tb_loop_page_reset (TB_LOOP_PAGE (widget));
}

static void
model_turn_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TbLoopPage *self = TB_LOOP_PAGE (widget);
  const char *text = gtk_editable_get_text (self->turn_entry);
  g_autoptr(TbMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  if (*text == '\0' || self->busy)
    return;
  if (!ensure_loop (self, FALSE, TRUE, &error))
    {
      set_error_text (self, error->message);
      return;
    }

  /* A JSON object is a whole turn (text and tool calls, as in a script or
   * a trace); anything else is the model's text. */
  if (*text == '{')
    {
      g_autoptr(JsonNode) node = tb_json_parse (text, -1, &error);

      if (node != NULL)
        message = tb_message_from_json (node, &error);
      if (message == NULL)
        {
          set_error_text (self, error->message);
          return;
        }
    }
  else
    message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, text);

  if (!tb_dispatch_loop_submit_model_turn (self->loop, message, &error))
    {
      set_error_text (self, error->message);
      return;
    }
  set_error_text (self, NULL);
  gtk_editable_set_text (self->turn_entry, "");
  update_controls (self);
}

static void
update_controls (TbLoopPage *self)
{
  TbLoopState state = self->loop != NULL ? tb_dispatch_loop_get_state (self->loop)
                                         : TB_LOOP_STATE_READY;
  gboolean can_advance = !self->busy
                         && !tb_provider_chooser_get_key_pending (self->provider_chooser)
                         && (state == TB_LOOP_STATE_READY
                             || state == TB_LOOP_STATE_CALLS_PENDING);
  g_autofree char *tools = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "loop.step", can_advance);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "loop.continue", can_advance);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "loop.stop",
                                 self->loop != NULL && !tb_loop_state_is_end (state));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "loop.extend",
                                 !self->busy && state == TB_LOOP_STATE_LIMIT_REACHED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "loop.retry",
                                 !self->busy && state == TB_LOOP_STATE_FAILED);
  /* Its flow box slot follows, so that no gap is left. */
  gtk_widget_set_visible (self->retry_button, state == TB_LOOP_STATE_FAILED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "loop.model-turn",
                                 !self->busy && state == TB_LOOP_STATE_READY);
  gtk_widget_set_sensitive (GTK_WIDGET (self->max_spin), self->loop == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->system_entry), self->loop == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->user_entry), self->loop == NULL);
  tb_tool_chooser_set_editable (self->tool_chooser, self->loop == NULL);

  /* With many tools the JSON is long: it is made only while shown. */
  if (gtk_expander_get_expanded (self->tools_expander))
    tools = tb_loop_page_get_offered_tools_json (self);
  gtk_label_set_label (self->tools_label, tools);
}

/* Enter in the user message steps; in the model's turn, sends it. */

static void
on_user_activate (TbLoopPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "loop.step", NULL);
}

static void
on_turn_activate (TbLoopPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "loop.model-turn", NULL);
}

static void
tb_loop_page_dispose (GObject *object)
{
  TbLoopPage *self = (TbLoopPage *) object;

  drop_loop (self);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->registry);
  g_clear_object (&self->workspace);
  g_clear_object (&self->autosave_file);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_LOOP_PAGE);

  G_OBJECT_CLASS (tb_loop_page_parent_class)->dispose (object);
}

static void
tb_loop_page_finalize (GObject *object)
{
  TbLoopPage *self = (TbLoopPage *) object;

  g_string_free (self->streaming, TRUE);

  G_OBJECT_CLASS (tb_loop_page_parent_class)->finalize (object);
}

static void
tb_loop_page_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TbLoopPage *self = TB_LOOP_PAGE (object);

  switch (prop_id)
    {
    case PROP_LOOP:
      g_value_set_object (value, self->loop);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_loop_page_class_init (TbLoopPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_loop_page_dispose;
  object_class->finalize = tb_loop_page_finalize;
  object_class->get_property = tb_loop_page_get_property;

  /**
   * TbLoopPage:loop:
   *
   * The current run; it changes when a run starts and when New Run drops it.
   */
  properties [PROP_LOOP] =
    g_param_spec_object ("loop", NULL, NULL, TB_TYPE_DISPATCH_LOOP,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TB_TYPE_LOOP_STATUS);
  g_type_ensure (TB_TYPE_PENDING_LIST);
  g_type_ensure (TB_TYPE_PROVIDER_CHOOSER);
  g_type_ensure (TB_TYPE_TOOL_CHOOSER);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-loop-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, provider_chooser);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, max_spin);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, system_entry);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, user_entry);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, breakpoint_entry);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, policy_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, tool_chooser);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, step_button);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, continue_button);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, stop_button);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, extend_button);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, extend_spin);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, retry_button);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, new_button);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, status);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, conversation);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, streaming_label);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, pending_list);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, turn_entry);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, turn_button);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, tools_expander);
  gtk_widget_class_bind_template_child (widget_class, TbLoopPage, tools_label);
  gtk_widget_class_bind_template_callback (widget_class, update_controls);
  gtk_widget_class_bind_template_callback (widget_class, set_error_text);
  gtk_widget_class_bind_template_callback (widget_class, apply_breakpoints);
  gtk_widget_class_bind_template_callback (widget_class, on_policy_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_user_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_turn_activate);

  gtk_widget_class_install_action (widget_class, "loop.step", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "loop.continue", NULL, continue_action);
  gtk_widget_class_install_action (widget_class, "loop.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "loop.extend", NULL, extend_action);
  gtk_widget_class_install_action (widget_class, "loop.new", NULL, new_run_action);
  gtk_widget_class_install_action (widget_class, "loop.review-proposal", NULL,
                                   review_proposal_action);
  gtk_widget_class_install_action (widget_class, "loop.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "loop.model-turn", NULL, model_turn_action);
  gtk_widget_class_install_action (widget_class, "loop.approve", NULL, decide_action);
  gtk_widget_class_install_action (widget_class, "loop.edit", NULL, decide_action);
  gtk_widget_class_install_action (widget_class, "loop.skip", NULL, decide_action);
  gtk_widget_class_install_action (widget_class, "loop.reject", NULL, decide_action);
}

static void
tb_loop_page_init (TbLoopPage *self)
{
  self->streaming = g_string_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_drop_down_name_button (self->policy_dropdown, _("Calls nobody decided"));
  /* The heading's mnemonic focuses the entry; GTK 4.8 would read the
   * heading after the entry's own name as well. */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (self->turn_entry),
                                 GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  update_controls (self);
}

/**
 * tb_loop_page_new:
 *
 * Returns: (transfer floating): a new Loop page
 */
GtkWidget *
tb_loop_page_new (void)
{
  return g_object_new (TB_TYPE_LOOP_PAGE, NULL);
}

/**
 * tb_loop_page_set_registry:
 * @self: a Loop page
 * @registry: the tools; the model is offered its model-visible ones
 */
void
tb_loop_page_set_registry (TbLoopPage     *self,
                           TbToolRegistry *registry)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  g_return_if_fail (!registry || TB_IS_TOOL_REGISTRY (registry));

  drop_loop (self);
  g_set_object (&self->registry, registry);
  tb_tool_chooser_set_registry (self->tool_chooser, registry);
  update_controls (self);
}

/**
 * tb_loop_page_set_workspace:
 * @self: a Loop page
 * @workspace: (nullable): the workspace whose tools the registry holds
 *
 * Takes effect with the next run.
 */
void
tb_loop_page_set_workspace (TbLoopPage  *self,
                            TbWorkspace *workspace)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  g_return_if_fail (!workspace || TB_IS_WORKSPACE (workspace));

  g_set_object (&self->workspace, workspace);
}

/**
 * tb_loop_page_set_autosave_file:
 * @self: a Loop page
 * @file: (nullable): where each run's trace is written as it grows
 *
 * The file is removed when the run is dropped on purpose (New Run, the
 * window closed), so a file found at start-up is a run that ended in a
 * crash. Takes effect with the next run.
 */
void
tb_loop_page_set_autosave_file (TbLoopPage *self,
                                GFile      *file)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  g_return_if_fail (!file || G_IS_FILE (file));

  g_set_object (&self->autosave_file, file);
}

/**
 * tb_loop_page_set_provider:
 * @self: a Loop page
 * @provider: (nullable): the model; %NULL is the scripted demo
 *
 * Takes effect with the next run.
 */
void
tb_loop_page_set_provider (TbLoopPage *self,
                           TbProvider *provider)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  g_return_if_fail (!provider || TB_IS_PROVIDER (provider));

  tb_provider_chooser_set_provider (self->provider_chooser, provider);
}

/**
 * tb_loop_page_get_loop:
 * @self: a Loop page
 *
 * Returns: (transfer none) (nullable): the current run, if one started
 */
TbDispatchLoop *
tb_loop_page_get_loop (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  return self->loop;
}

/**
 * tb_loop_page_reset:
 * @self: a Loop page
 *
 * Drops the current run (cancelling what is under way).
 */
void
tb_loop_page_reset (TbLoopPage *self)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));

  if (self->loop != NULL && !tb_loop_state_is_end (tb_dispatch_loop_get_state (self->loop)))
    tb_dispatch_loop_cancel (self->loop);
  drop_loop (self);
  set_error_text (self, NULL);
  update_controls (self);
}

/**
 * tb_loop_page_set_start_messages:
 * @self: a Loop page
 * @messages: (element-type TbMessage): the first messages of the run
 * @error: return location for an error
 *
 * Drops the current run and starts a new one whose conversation begins
 * with the setup's system prompt, if any, then @messages (a server's
 * prompt, say), shown as rows. The user message entry is left as it is and
 * not sent. The run waits for Step or Continue.
 *
 * Returns: whether the run was set up; the error, also shown on the page,
 *   says why not
 */
gboolean
tb_loop_page_set_start_messages (TbLoopPage  *self,
                                 GPtrArray   *messages,
                                 GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), FALSE);
  g_return_val_if_fail (messages != NULL, FALSE);

  tb_loop_page_reset (self);
  if (ensure_loop (self, FALSE, FALSE, &local_error))
    for (guint i = 0; i < messages->len; i++)
      if (!tb_dispatch_loop_add_message (self->loop, g_ptr_array_index (messages, i),
                                         &local_error))
        break;
  update_controls (self);
  if (local_error != NULL)
    {
      set_error_text (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

void
tb_loop_page_set_user_message (TbLoopPage *self,
                               const char *text)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  gtk_editable_set_text (self->user_entry, text != NULL ? text : "");
}

void
tb_loop_page_set_system_prompt (TbLoopPage *self,
                                const char *text)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  gtk_editable_set_text (self->system_entry, text != NULL ? text : "");
}

void
tb_loop_page_set_max_iterations (TbLoopPage *self,
                                 guint       max)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  gtk_spin_button_set_value (self->max_spin, max);
}

/**
 * tb_loop_page_set_breakpoints:
 * @self: a Loop page
 * @names: tool names separated by spaces or commas
 */
void
tb_loop_page_set_breakpoints (TbLoopPage *self,
                              const char *names)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  gtk_editable_set_text (self->breakpoint_entry, names != NULL ? names : "");
}

const char *
tb_loop_page_get_state_text (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  return tb_loop_status_get_state_text (self->status);
}

const char *
tb_loop_page_get_iteration_text (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  return tb_loop_status_get_iteration_text (self->status);
}

const char *
tb_loop_page_get_error_text (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  return tb_loop_status_get_error (self->status);
}

gboolean
tb_loop_page_get_busy (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), FALSE);
  return self->busy;
}

static GtkWidget *
nth_row (GtkListBox *list,
         guint       position)
{
  return GTK_WIDGET (gtk_list_box_get_row_at_index (list, position));
}

/**
 * tb_loop_page_get_n_rows:
 * @self: a Loop page
 *
 * Returns: how many rows the conversation shows
 */
guint
tb_loop_page_get_n_rows (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), 0);
  return tb_list_box_count_rows (self->conversation);
}

/**
 * tb_loop_page_get_row_text:
 * @self: a Loop page
 * @position: a row
 *
 * Returns: (transfer full) (nullable): what the row says
 */
char *
tb_loop_page_get_row_text (TbLoopPage *self,
                           guint       position)
{
  GtkWidget *row;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  row = nth_row (self->conversation, position);
  return row != NULL ? g_strdup (tb_message_row_get_summary (TB_MESSAGE_ROW (row))) : NULL;
}

/**
 * tb_loop_page_get_row_reasoning:
 * @self: a Loop page
 * @position: a row
 *
 * Returns: (transfer full) (nullable): the reasoning the row's collapsed
 *   expander shows, %NULL when the turn had none
 */
char *
tb_loop_page_get_row_reasoning (TbLoopPage *self,
                                guint       position)
{
  GtkWidget *row;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  row = nth_row (self->conversation, position);
  return row != NULL ? g_strdup (tb_message_row_get_reasoning (TB_MESSAGE_ROW (row))) : NULL;
}

/**
 * tb_loop_page_get_row_json:
 * @self: a Loop page
 * @position: a row
 *
 * Returns: (transfer full) (nullable): the JSON the row's expander shows
 */
char *
tb_loop_page_get_row_json (TbLoopPage *self,
                           guint       position)
{
  GtkWidget *row;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  row = nth_row (self->conversation, position);
  return row != NULL ? g_strdup (tb_message_row_get_json (TB_MESSAGE_ROW (row))) : NULL;
}

/**
 * tb_loop_page_get_button:
 * @self: a Loop page
 * @name: "step", "continue", "stop", "extend", "new", "retry", "model-turn" or
 *   "review-proposal"
 *
 * Returns: (transfer none) (nullable): the button
 */
GtkWidget *
tb_loop_page_get_button (TbLoopPage *self,
                         const char *name)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);

  if (g_str_equal (name, "step"))
    return self->step_button;
  if (g_str_equal (name, "continue"))
    return self->continue_button;
  if (g_str_equal (name, "stop"))
    return self->stop_button;
  if (g_str_equal (name, "extend"))
    return self->extend_button;
  if (g_str_equal (name, "new"))
    return self->new_button;
  if (g_str_equal (name, "retry"))
    return self->retry_button;
  if (g_str_equal (name, "model-turn"))
    return self->turn_button;
  if (g_str_equal (name, "review-proposal"))
    return tb_loop_status_get_review_button (self->status);
  return NULL;
}

guint
tb_loop_page_get_n_pending (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), 0);
  return tb_pending_list_get_n_rows (self->pending_list);
}

/**
 * tb_loop_page_get_pending_editor:
 * @self: a Loop page
 * @position: a pending call's row
 *
 * Returns: (transfer none) (nullable): the call's argument editor
 */
TbArgumentEditor *
tb_loop_page_get_pending_editor (TbLoopPage *self,
                                 guint       position)
{
  TbPendingCallRow *row;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  row = tb_pending_list_get_row (self->pending_list, position);
  return row != NULL ? tb_pending_call_row_get_editor (row) : NULL;
}

/**
 * tb_loop_page_get_pending_progress:
 * @self: a Loop page
 * @position: a pending call's row
 *
 * Returns: (transfer none) (nullable): the bar showing the running call's
 *   progress; hidden when the call reports none or has its result
 */
GtkProgressBar *
tb_loop_page_get_pending_progress (TbLoopPage *self,
                                   guint       position)
{
  TbPendingCallRow *row;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  row = tb_pending_list_get_row (self->pending_list, position);
  return row != NULL ? tb_pending_call_row_get_progress_bar (row) : NULL;
}

/**
 * tb_loop_page_get_pending_button:
 * @self: a Loop page
 * @position: a pending call's row
 * @name: "approve", "run-anyway", "edit", "skip" or "reject"
 *
 * Returns: (transfer none) (nullable): the button
 */
GtkWidget *
tb_loop_page_get_pending_button (TbLoopPage *self,
                                 guint       position,
                                 const char *name)
{
  TbPendingCallRow *row;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  row = tb_pending_list_get_row (self->pending_list, position);
  return row != NULL ? tb_pending_call_row_get_button (row, name) : NULL;
}

/**
 * tb_loop_page_get_pending_skip_entry:
 * @self: a Loop page
 * @position: a pending call's row
 *
 * Returns: (transfer none) (nullable): the entry for a hand-written result
 */
GtkEditable *
tb_loop_page_get_pending_skip_entry (TbLoopPage *self,
                                     guint       position)
{
  TbPendingCallRow *row;

  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  row = tb_pending_list_get_row (self->pending_list, position);
  return row != NULL ? tb_pending_call_row_get_skip_entry (row) : NULL;
}

GtkEditable *
tb_loop_page_get_model_turn_entry (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  return self->turn_entry;
}

/**
 * tb_loop_page_get_offered_tools_json:
 * @self: a Loop page
 *
 * The tool definitions the model is offered, as the page shows them: the
 * run's recorded header once it started, the registry's model-visible
 * tools before.
 *
 * Returns: (transfer full): JSON text
 */
char *
tb_loop_page_get_offered_tools_json (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);

  if (self->loop != NULL)
    {
      JsonObject *header = tb_trace_get_header (tb_dispatch_loop_get_trace (self->loop));
      JsonNode *tools = json_object_get_member (header, "tools");

      if (tools != NULL)
        return tb_json_to_string (tools, TRUE);
    }
  if (self->registry != NULL)
    {
      g_autoptr(TbToolRegistry) offered =
        tb_tool_chooser_get_offered_registry (self->tool_chooser);
      g_autoptr(TbToolRegistry) tools = tb_tool_registry_get_model_tools (offered);
      g_autoptr(JsonNode) definitions = NULL;

      definitions = tb_tool_registry_to_definitions (tools, TB_DEFINITION_FORMAT_NATIVE);
      return tb_json_to_string (definitions, TRUE);
    }
  return g_strdup ("[]");
}

/**
 * tb_loop_page_set_tool_offered:
 * @self: a Loop page
 * @name: a model-visible tool
 * @offered: whether the next run offers it
 */
void
tb_loop_page_set_tool_offered (TbLoopPage *self,
                               const char *name,
                               gboolean    offered)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));

  tb_tool_chooser_set_offered (self->tool_chooser, name, offered);
}

/**
 * tb_loop_page_set_ask:
 * @self: a Loop page
 * @ask: whether calls nobody decided wait for the person
 */
void
tb_loop_page_set_ask (TbLoopPage *self,
                      gboolean    ask)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  gtk_drop_down_set_selected (self->policy_dropdown, ask ? 1 : 0);
}

/**
 * tb_loop_page_get_streaming_text:
 * @self: a Loop page
 *
 * Returns: what the page shows of the model's text while it arrives ("" when
 *   nothing is arriving)
 */
const char *
tb_loop_page_get_streaming_text (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);
  return gtk_label_get_label (self->streaming_label);
}

/**
 * tb_loop_page_set_script_file:
 * @self: a Loop page
 * @file: a `toolbench-script` file
 * @error: return location for the reason it cannot be played
 *
 * Makes the file the model of the next runs (each run plays it from the
 * start). The file is read now to check it, and again for each run.
 *
 * Returns: whether the file is a script that can be played
 */
gboolean
tb_loop_page_set_script_file (TbLoopPage  *self,
                              GFile       *file,
                              GError     **error)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), FALSE);

  return tb_provider_chooser_set_script_file (self->provider_chooser, file, error);
}

/**
 * tb_loop_page_set_settings:
 * @self: a Loop page
 * @settings: the application's settings
 *
 * Offers the provider endpoints of the preferences beside the demo (and
 * follows their changes), and takes the iteration cap and the approval
 * policy of new runs from them.
 */
void
tb_loop_page_set_settings (TbLoopPage *self,
                           GSettings  *settings)
{
  g_return_if_fail (TB_IS_LOOP_PAGE (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_set_object (&self->settings, settings);
  g_signal_connect_swapped (settings, "changed::loop-iteration-cap",
                            G_CALLBACK (apply_defaults), self);
  g_signal_connect_swapped (settings, "changed::approval-policy", G_CALLBACK (apply_defaults),
                            self);
  tb_provider_chooser_set_settings (self->provider_chooser, settings);
  apply_defaults (self);
}

/**
 * tb_loop_page_get_provider_dropdown:
 * @self: a Loop page
 *
 * Returns: (transfer none): the provider selector ("Demo (offline)" first)
 */
GtkDropDown *
tb_loop_page_get_provider_dropdown (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);

  return tb_provider_chooser_get_dropdown (self->provider_chooser);
}

/**
 * tb_loop_page_get_model_entry:
 * @self: a Loop page
 *
 * Returns: (transfer none): the model entry of the selected endpoint
 */
GtkEditable *
tb_loop_page_get_model_entry (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);

  return tb_provider_chooser_get_model_entry (self->provider_chooser);
}

/**
 * tb_loop_page_get_key_pending:
 * @self: a Loop page
 *
 * Returns: whether the selected endpoint's key is still being read
 */
gboolean
tb_loop_page_get_key_pending (TbLoopPage *self)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), FALSE);

  return tb_provider_chooser_get_key_pending (self->provider_chooser);
}

/**
 * tb_loop_page_create_provider:
 * @self: a Loop page
 * @error: return location for the reason there is none
 *
 * The model the page's next run would use: the provider given with
 * tb_loop_page_set_provider(), the selected endpoint with the model of the
 * entry, the chosen script, or the demo. Scripted ones start anew.
 *
 * Returns: (transfer full) (nullable): the provider
 */
TbProvider *
tb_loop_page_create_provider (TbLoopPage  *self,
                              GError     **error)
{
  g_return_val_if_fail (TB_IS_LOOP_PAGE (self), NULL);

  return tb_provider_chooser_create_provider (self->provider_chooser, error);
}
