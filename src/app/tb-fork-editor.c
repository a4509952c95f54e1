/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-fork-editor"

#include "config.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "tb-app-util.h"
#include "tb-fork-editor-private.h"

/* The value a fork changes at one step of a trace — a call's arguments,
 * the result a call gives back, or a model turn — as JSON, filled with the
 * recorded value. Text that is not JSON is reported under the editor and
 * kept as typed; Continue waits until it parses. The editor only holds
 * the value: ::continue and ::save ask the page to run and save the fork. */

struct _TbForkEditor
{
  GtkWidget      parent_instance;

  GtkLabel      *heading_label;
  GtkWidget     *scroller;
  GtkSourceView *source_view;
  GtkLabel      *error_label;
  GtkWidget     *buttons;
  GtkDropDown   *continue_with;
  GtkWidget     *continue_button;
  GtkWidget     *save_button;

  gboolean       has_target;
  guint          step;
  TbReplayEdit   edit;
  gboolean       busy;
  gboolean       valid;
};

G_DEFINE_FINAL_TYPE (TbForkEditor, tb_fork_editor, GTK_TYPE_WIDGET)

enum { CONTINUE, SAVE, N_SIGNALS };
static guint signals [N_SIGNALS];

static GtkTextBuffer *
buffer (TbForkEditor *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
}

static void
update_controls (TbForkEditor *self)
{
  gtk_widget_set_sensitive (self->continue_button,
                            self->has_target && self->valid && !self->busy);
}

static void
set_error (TbForkEditor *self,
           const char   *message)
{
  gtk_label_set_label (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->source_view), "tb-invalid");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->source_view), "tb-invalid");
}

/* Every change is checked, so the error stands at the editor while the
 * person types and Continue never runs text that is not JSON. */
static void
on_text_changed (TbForkEditor *self)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  if (!self->has_target)
    return;
  text = tb_fork_editor_dup_text (self);
  node = tb_json_parse (text, -1, &error);
  self->valid = node != NULL;
  /* The parser's message already says the text is not JSON, and where. */
  set_error (self, node == NULL ? error->message : NULL);
  update_controls (self);
}

static void
on_continue_clicked (TbForkEditor *self)
{
  if (self->has_target && self->valid && !self->busy)
    g_signal_emit (self, signals [CONTINUE], 0);
}

static void
on_save_clicked (TbForkEditor *self)
{
  g_signal_emit (self, signals [SAVE], 0);
}

static void
tb_fork_editor_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TB_TYPE_FORK_EDITOR);
  /* GTK 4.8 leaves the template's unnamed children to us. */
  tb_widget_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (tb_fork_editor_parent_class)->dispose (object);
}

static void
tb_fork_editor_class_init (TbForkEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_fork_editor_dispose;

  /**
   * TbForkEditor::continue:
   * @self: the editor
   *
   * The person asked to run the fork with the editor's value.
   */
  signals [CONTINUE] =
    g_signal_new ("continue", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * TbForkEditor::save:
   * @self: the editor
   *
   * The person asked to save the fork's trace.
   */
  signals [SAVE] =
    g_signal_new ("save", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-fork-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, heading_label);
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, scroller);
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, source_view);
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, error_label);
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, buttons);
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, continue_with);
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, continue_button);
  gtk_widget_class_bind_template_child (widget_class, TbForkEditor, save_button);
  gtk_widget_class_bind_template_callback (widget_class, on_continue_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
}

static void
tb_fork_editor_init (TbForkEditor *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tb_source_view_setup (self->source_view, "json", TRUE);
  /* The controls wrap in a narrow window; only they take the focus. */
  for (GtkWidget *child = gtk_widget_get_first_child (self->buttons); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_focusable (child, FALSE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->source_view), GTK_WRAP_WORD_CHAR);
  g_signal_connect_object (buffer (self), "changed", G_CALLBACK (on_text_changed), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
tb_fork_editor_new (void)
{
  return g_object_new (TB_TYPE_FORK_EDITOR, NULL);
}

/**
 * tb_fork_editor_set_target:
 * @self: a fork editor
 * @step: the call's index, or the model turn's, as tb_replay_set_fork() takes it
 * @edit: what the fork changes there
 * @heading: what the person is editing, in a sentence
 * @value: (nullable): the recorded value the editor starts from
 */
void
tb_fork_editor_set_target (TbForkEditor *self,
                           guint         step,
                           TbReplayEdit  edit,
                           const char   *heading,
                           JsonNode     *value)
{
  g_autofree char *text = NULL;

  g_return_if_fail (TB_IS_FORK_EDITOR (self));
  g_return_if_fail (edit != TB_REPLAY_EDIT_NONE);

  self->has_target = TRUE;
  self->step = step;
  self->edit = edit;
  text = value != NULL ? tb_json_to_string (value, TRUE) : g_strdup ("null");
  gtk_label_set_label (self->heading_label, heading);
  gtk_widget_remove_css_class (GTK_WIDGET (self->heading_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->heading_label), "heading");
  gtk_widget_set_sensitive (GTK_WIDGET (self->source_view), TRUE);
  gtk_text_buffer_set_text (buffer (self), text, -1);
  gtk_text_buffer_set_modified (buffer (self), FALSE);
  update_controls (self);
}

/**
 * tb_fork_editor_clear:
 * @self: a fork editor
 *
 * Forgets the step and its text: nothing of another trace stays.
 */
void
tb_fork_editor_clear (TbForkEditor *self)
{
  g_return_if_fail (TB_IS_FORK_EDITOR (self));

  self->has_target = FALSE;
  self->valid = FALSE;
  gtk_text_buffer_set_text (buffer (self), "", -1);
  gtk_text_buffer_set_modified (buffer (self), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->source_view), FALSE);
  gtk_label_set_label (self->heading_label,
                       _("Choose Fork from Here on a call, a result or a model turn of the "
                         "timeline."));
  gtk_widget_remove_css_class (GTK_WIDGET (self->heading_label), "heading");
  gtk_widget_add_css_class (GTK_WIDGET (self->heading_label), "dim-label");
  set_error (self, NULL);
  update_controls (self);
}

gboolean
tb_fork_editor_get_has_target (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), FALSE);
  return self->has_target;
}

guint
tb_fork_editor_get_step (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), 0);
  return self->step;
}

TbReplayEdit
tb_fork_editor_get_edit (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), TB_REPLAY_EDIT_NONE);
  return self->has_target ? self->edit : TB_REPLAY_EDIT_NONE;
}

/**
 * tb_fork_editor_get_modified:
 * @self: a fork editor
 *
 * Returns: whether the person changed the text since it was filled
 */
gboolean
tb_fork_editor_get_modified (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), FALSE);
  return self->has_target && gtk_text_buffer_get_modified (buffer (self));
}

/**
 * tb_fork_editor_get_buffer:
 * @self: a fork editor
 *
 * Returns: (transfer none): the text being edited
 */
GtkTextBuffer *
tb_fork_editor_get_buffer (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), NULL);
  return buffer (self);
}

/**
 * tb_fork_editor_dup_text:
 * @self: a fork editor
 *
 * Returns: (transfer full): the text being edited
 */
char *
tb_fork_editor_dup_text (TbForkEditor *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), NULL);
  gtk_text_buffer_get_bounds (buffer (self), &start, &end);
  return gtk_text_buffer_get_text (buffer (self), &start, &end, FALSE);
}

const char *
tb_fork_editor_get_heading (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), NULL);
  return gtk_label_get_label (self->heading_label);
}

/**
 * tb_fork_editor_show_error:
 * @self: a fork editor
 * @message: (nullable): why the value cannot fork the trace, or %NULL
 */
void
tb_fork_editor_show_error (TbForkEditor *self,
                           const char   *message)
{
  g_return_if_fail (TB_IS_FORK_EDITOR (self));
  set_error (self, message);
}

/**
 * tb_fork_editor_get_error:
 * @self: a fork editor
 *
 * Returns: (nullable): the error shown under the editor, or %NULL
 */
const char *
tb_fork_editor_get_error (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->error_label))
         ? gtk_label_get_label (self->error_label) : NULL;
}

gboolean
tb_fork_editor_get_live (TbForkEditor *self)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), FALSE);
  return gtk_drop_down_get_selected (self->continue_with) == 1;
}

void
tb_fork_editor_set_live (TbForkEditor *self,
                         gboolean      live)
{
  g_return_if_fail (TB_IS_FORK_EDITOR (self));
  gtk_drop_down_set_selected (self->continue_with, live ? 1 : 0);
}

void
tb_fork_editor_set_busy (TbForkEditor *self,
                         gboolean      busy)
{
  g_return_if_fail (TB_IS_FORK_EDITOR (self));
  self->busy = busy;
  update_controls (self);
}

void
tb_fork_editor_set_can_save (TbForkEditor *self,
                             gboolean      can_save)
{
  g_return_if_fail (TB_IS_FORK_EDITOR (self));
  gtk_widget_set_sensitive (self->save_button, can_save && !self->busy);
}

/**
 * tb_fork_editor_get_button:
 * @self: a fork editor
 * @name: "continue" or "save"
 *
 * Returns: (transfer none) (nullable): the button
 */
GtkWidget *
tb_fork_editor_get_button (TbForkEditor *self,
                           const char   *name)
{
  g_return_val_if_fail (TB_IS_FORK_EDITOR (self), NULL);
  if (g_str_equal (name, "continue"))
    return self->continue_button;
  if (g_str_equal (name, "save"))
    return self->save_button;
  return NULL;
}
