/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-eval-section"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-eval-section-private.h"

/**
 * TbEvalSection:
 *
 * An evaluation's results above the Trace page's timeline: a report
 * written by `toolbench-cli eval --json-file`, read in a thread, or a
 * folder of scenarios run here offline, filling in as the runs end. What
 * went wrong is said with #TbEvalSection::message, and activating a run
 * with #TbEvalSection::cell-activated; the page shows both.
 */

struct _TbEvalSection
{
  GtkWidget     parent_instance;

  GtkLabel     *title_label;
  GtkSpinner   *spinner;
  GtkWidget    *cancel_button;
  GtkWidget    *close_button;
  TbEvalView   *view;

  GCancellable *report_cancellable; /* the report being read */
  TbEvalSuite  *suite;              /* the scenarios running */
  GCancellable *suite_cancellable;  /* what stops them */
};

G_DEFINE_FINAL_TYPE (TbEvalSection, tb_eval_section, GTK_TYPE_WIDGET)

enum {
  MESSAGE,
  CELL_ACTIVATED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
say (TbEvalSection *self,
     const char    *message)
{
  g_signal_emit (self, signals [MESSAGE], 0, message);
}

static void
update_controls (TbEvalSection *self)
{
  gboolean running = self->suite != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "eval.cancel",
                                 running && !g_cancellable_is_cancelled (self->suite_cancellable));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "eval.close",
                                 gtk_widget_get_visible (GTK_WIDGET (self)));
}

/* Lets go of the evaluation running: it is stopped, and its end, when it
 * comes, is not this section's business any more. */
static void
stop_suite (TbEvalSection *self)
{
  if (self->suite_cancellable != NULL)
    g_cancellable_cancel (self->suite_cancellable);
  g_clear_object (&self->suite_cancellable);
  g_clear_object (&self->suite);
}

static void
stop_report (TbEvalSection *self)
{
  if (self->report_cancellable != NULL)
    g_cancellable_cancel (self->report_cancellable);
  g_clear_object (&self->report_cancellable);
}

static void
show (TbEvalSection *self,
      GListModel    *cells,
      const char    *title)
{
  tb_eval_view_set_cells (self->view, cells);
  gtk_label_set_label (self->title_label, title);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  update_controls (self);
}

/* A trace the CLI saved is named as it was given `--traces`: a relative
 * path is relative to where it ran, most often the report's own folder. */
static void
resolve_trace_paths (GListModel *cells,
                     GFile      *dir)
{
  for (guint i = 0; i < g_list_model_get_n_items (cells); i++)
    {
      g_autoptr(TbEvalCell) cell = g_list_model_get_item (cells, i);
      const char *path = tb_eval_cell_get_trace_path (cell);
      g_autoptr(GFile) beside = NULL;
      g_autofree char *resolved = NULL;

      if (path == NULL || g_path_is_absolute (path))
        continue;
      beside = dir != NULL ? g_file_resolve_relative_path (dir, path) : NULL;
      if (beside != NULL && g_file_query_exists (beside, NULL))
        resolved = g_file_get_path (beside);
      else
        resolved = g_canonicalize_filename (path, NULL);
      tb_eval_cell_set_trace_path (cell, resolved);
    }
}

static void
report_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GFile) dir = g_file_get_parent (file);
  GError *error = NULL;
  GListModel *cells;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("“%s” is not a file on this computer; copy it here to open it."),
                               uri);
      return;
    }
  cells = tb_eval_report_load (path, &error);
  if (cells == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  resolve_trace_paths (cells, dir);
  g_task_return_pointer (task, cells, g_object_unref);
}

static void
report_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TbEvalSection *self = TB_EVAL_SECTION (object);
  GFile *file = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) cells = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *name = NULL;

  /* Another report was opened since, or the section went away. */
  if (g_task_get_cancellable (G_TASK (result)) != self->report_cancellable)
    return;
  g_clear_object (&self->report_cancellable);
  if (cells == NULL)
    {
      /* The evaluation shown, if any, stays as it was. */
      say (self, error->message);
      return;
    }
  say (self, NULL);
  stop_suite (self);
  name = g_file_get_basename (file);
  show (self, cells, name);
}

/**
 * tb_eval_section_open_report:
 * @self: a section
 * @file: a report written by `toolbench-cli eval --json-file`
 *
 * Reads it in a thread and shows its runs in place of the evaluation
 * shown; a file that cannot be read, or is not a report, leaves the
 * section as it was and says why.
 */
void
tb_eval_section_open_report (TbEvalSection *self,
                             GFile         *file)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TB_IS_EVAL_SECTION (self));
  g_return_if_fail (G_IS_FILE (file));

  stop_report (self);
  self->report_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->report_cancellable, report_done, NULL);
  g_task_set_source_tag (task, tb_eval_section_open_report);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, report_thread);
}

static void
suite_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(TbEvalSection) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tb_eval_suite_run_finish (TB_EVAL_SUITE (object), result, &error)
      && object == G_OBJECT (self->suite)
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    say (self, error->message);
  /* An evaluation closed or replaced ended long ago, for this section. */
  if (object != G_OBJECT (self->suite))
    return;
  g_clear_object (&self->suite_cancellable);
  g_clear_object (&self->suite);
  update_controls (self);
}

/**
 * tb_eval_section_run_folder:
 * @self: a section
 * @folder: a folder of scenario files (`*.json`)
 *
 * Runs its scenarios offline, each playing its own script, as many side
 * by side as there are processors, and shows the runs as they finish. A
 * folder that cannot be read, or holds no scenario, leaves the section as
 * it was and says why.
 */
void
tb_eval_section_run_folder (TbEvalSection *self,
                            GFile         *folder)
{
  g_autoptr(TbEvalSuite) suite = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (TB_IS_EVAL_SECTION (self));
  g_return_if_fail (G_IS_FILE (folder));

  path = g_file_get_path (folder);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (folder);
      g_autofree char *text =
        g_strdup_printf (_("“%s” is not a folder on this computer; copy it here to run it."),
                         uri);

      say (self, text);
      return;
    }
  suite = tb_eval_suite_new ();
  if (!tb_eval_suite_add_folder (suite, path, &error))
    {
      say (self, error->message);
      return;
    }
  tb_eval_suite_set_jobs (suite, CLAMP (g_get_num_processors (), 1, 256));

  stop_report (self);
  stop_suite (self);
  say (self, NULL);
  self->suite = g_object_ref (suite);
  self->suite_cancellable = g_cancellable_new ();
  tb_eval_suite_run_async (suite, self->suite_cancellable, suite_done, g_object_ref (self));
  name = g_file_get_basename (folder);
  /* The cells are all there once the run has started; they fill in as
   * their runs end. */
  show (self, tb_eval_suite_get_cells (suite), name);
}

/**
 * tb_eval_section_close:
 *
 * Stops what runs, and hides the section.
 */
void
tb_eval_section_close (TbEvalSection *self)
{
  g_return_if_fail (TB_IS_EVAL_SECTION (self));

  stop_suite (self);
  tb_eval_view_set_cells (self->view, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  update_controls (self);
}

static GtkFileFilter *
report_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Evaluation reports (*.json)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  return filter;
}

static void
open_report_response (GtkNativeDialog *dialog,
                      int              response,
                      TbEvalSection   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      tb_eval_section_open_report (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/**
 * tb_eval_section_choose_report:
 *
 * Asks the person for a report to open.
 */
void
tb_eval_section_choose_report (TbEvalSection *self)
{
  GtkFileChooserNative *chooser;

  chooser = tb_file_chooser_new (GTK_WIDGET (self), _("Open Evaluation Report"),
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), report_filter ());
  g_signal_connect (chooser, "response", G_CALLBACK (open_report_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
run_folder_response (GtkNativeDialog *dialog,
                     int              response,
                     TbEvalSection   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      tb_eval_section_run_folder (self, folder);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/**
 * tb_eval_section_choose_folder:
 *
 * Asks the person for a folder of scenarios to run.
 */
void
tb_eval_section_choose_folder (TbEvalSection *self)
{
  GtkFileChooserNative *chooser;

  chooser = tb_file_chooser_new (GTK_WIDGET (self), _("Run Scenario Folder"),
                                 GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Run"));
  g_signal_connect (chooser, "response", G_CALLBACK (run_folder_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TbEvalSection *self = TB_EVAL_SECTION (widget);

  if (self->suite_cancellable != NULL)
    g_cancellable_cancel (self->suite_cancellable);
  update_controls (self);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  tb_eval_section_close (TB_EVAL_SECTION (widget));
}

static void
on_cell_activated (TbEvalSection *self,
                   TbEvalCell    *cell)
{
  g_signal_emit (self, signals [CELL_ACTIVATED], 0, cell);
}

static void
tb_eval_section_dispose (GObject *object)
{
  TbEvalSection *self = (TbEvalSection *)object;

  stop_report (self);
  stop_suite (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_EVAL_SECTION);
  tb_widget_unparent_children (GTK_WIDGET (self));

  G_OBJECT_CLASS (tb_eval_section_parent_class)->dispose (object);
}

static void
tb_eval_section_class_init (TbEvalSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_eval_section_dispose;

  /**
   * TbEvalSection::message:
   * @self: the section
   * @text: (nullable): what went wrong, for the person; %NULL when it
   *   went right and an earlier message no longer holds
   */
  signals [MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TbEvalSection::cell-activated:
   * @self: the section
   * @cell: the run whose trace the person asked for
   */
  signals [CELL_ACTIVATED] =
    g_signal_new ("cell-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 1, TB_TYPE_EVAL_CELL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/"
                                               "tb-eval-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TbEvalSection, title_label);
  gtk_widget_class_bind_template_child (widget_class, TbEvalSection, spinner);
  gtk_widget_class_bind_template_child (widget_class, TbEvalSection, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, TbEvalSection, close_button);
  gtk_widget_class_bind_template_child (widget_class, TbEvalSection, view);
  gtk_widget_class_bind_template_callback (widget_class, on_cell_activated);

  gtk_widget_class_install_action (widget_class, "eval.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "eval.close", NULL, close_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tb_eval_section_init (TbEvalSection *self)
{
  g_type_ensure (TB_TYPE_EVAL_VIEW);
  gtk_widget_init_template (GTK_WIDGET (self));
  update_controls (self);
}

gboolean
tb_eval_section_get_busy (TbEvalSection *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SECTION (self), FALSE);
  return self->report_cancellable != NULL || self->suite != NULL;
}

/**
 * tb_eval_section_get_title:
 *
 * Returns: (nullable): the name of the evaluation shown (its report's or
 *   its folder's), or %NULL when none is
 */
const char *
tb_eval_section_get_title (TbEvalSection *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SECTION (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self)))
    return NULL;
  return gtk_label_get_label (self->title_label);
}

/**
 * tb_eval_section_get_view:
 *
 * Returns: (transfer none): the matrix
 */
TbEvalView *
tb_eval_section_get_view (TbEvalSection *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SECTION (self), NULL);
  return self->view;
}

GtkWidget *
tb_eval_section_get_cancel_button (TbEvalSection *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SECTION (self), NULL);
  return self->cancel_button;
}

GtkWidget *
tb_eval_section_get_close_button (TbEvalSection *self)
{
  g_return_val_if_fail (TB_IS_EVAL_SECTION (self), NULL);
  return self->close_button;
}
