/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-argument-editor"

#include "config.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "tb-app-util.h"
#include "tb-argument-editor.h"
#include "tb-argument-editor-private.h"
#include "tb-argument-problem-row.h"
#include "tb-heading-row.h"

/* The arguments of one call, in two synchronised views: the form generated
 * from the tool's schema and the JSON text. The JSON value is the truth;
 * a syntax error in the text leaves the last good value (and the form) alone
 * until the text parses again. */

/* Texts larger than this are parsed after a pause, not on every keystroke. */
#define LARGE_TEXT (256 * 1024)

struct _TbArgumentEditor
{
  GtkWidget      parent_instance;

  GtkStack      *view_stack;
  GtkWidget     *switcher;
  GtkToggleButton *form_toggle;
  GtkToggleButton *json_toggle;
  TbSchemaForm  *form;
  GtkLabel      *form_note;
  GtkSourceView *json_view;
  GtkLabel      *json_error_label;
  GtkWidget     *problems_box;
  GtkLabel      *problems_label;
  GtkListBox    *problems_list;

  TbTool        *tool;
  JsonNode      *value;
  GPtrArray     *errors;        /* every problem, one per field */
  GPtrArray     *shown;         /* those the person has reached */
  GPtrArray     *local_errors;  /* the form's own, from its last read */
  char          *json_error;
  guint          json_updating;
  guint          parse_source;
  guint          problems_source;
  gboolean       form_usable;
  gboolean       valid;
  gboolean       reveal_all;    /* after Run, or once the JSON was edited */
};

G_DEFINE_FINAL_TYPE (TbArgumentEditor, tb_argument_editor, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_VALID, PROP_TOOL, N_PROPS };
enum { CHANGED, N_SIGNALS };

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void
set_valid (TbArgumentEditor *self,
           gboolean          valid)
{
  if (self->valid == valid)
    return;
  self->valid = valid;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_VALID]);
}

static void
update_problems (TbArgumentEditor *self)
{
  GtkWidget *child;
  guint n = self->shown->len + (self->json_error != NULL ? 1 : 0);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->problems_list))) != NULL)
    gtk_list_box_remove (self->problems_list, child);

  /* A thousand rows help nobody; the count says how many there are. */
  for (guint i = 0; i < MIN (self->shown->len, 200); i++)
    {
      TbSchemaError *error = g_ptr_array_index (self->shown, i);
      GtkWidget *row = tb_argument_problem_row_new (error->message, error->instance_path);

      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), self->form_usable);
      gtk_list_box_append (self->problems_list, row);
    }

  if (n > 0)
    {
      g_autofree char *title =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Problem", "%u Problems", n), n);

      gtk_label_set_label (self->problems_label, title);
    }
  gtk_widget_set_visible (self->problems_box, n > 0);
}

static gboolean
update_problems_cb (gpointer user_data)
{
  TbArgumentEditor *self = user_data;

  self->problems_source = 0;
  update_problems (self);
  return G_SOURCE_REMOVE;
}

/* The list follows after the event that changed the problems: leaving a
 * field reveals its problems while GTK 4.8 moves the focus, and rows added
 * to the list then make GTK use freed widgets (criticals without end). */
static void
queue_update_problems (TbArgumentEditor *self)
{
  if (self->problems_source == 0)
    self->problems_source = g_idle_add (update_problems_cb, self);
}

/* One mistake, one message: the form's own complaint ("Enter a number")
 * comes first, a missing required member is said at its own field, and
 * each field says only its first problem. */
static void
add_problem (TbArgumentEditor *self,
             GHashTable       *seen,
             TbSchemaError    *error)
{
  g_autofree char *member = self->form_usable
                            ? tb_schema_form_get_error_pointer (self->form, error) : NULL;
  const char *key = member != NULL ? member : error->instance_path;

  if (g_hash_table_contains (seen, key))
    return;
  g_hash_table_add (seen, g_strdup (key));
  if (member != NULL)
    g_ptr_array_add (self->errors, tb_schema_error_new (member, error->schema_path, "required",
                                                        _("This field is required.")));
  else
    g_ptr_array_add (self->errors, tb_schema_error_copy (error));
}

static gboolean
problem_revealed (TbArgumentEditor *self,
                  TbSchemaError    *error)
{
  return self->reveal_all ||
         (self->form_usable && tb_schema_form_get_revealed (self->form, error->instance_path));
}

static void
show_problems (TbArgumentEditor *self)
{
  g_ptr_array_set_size (self->shown, 0);
  for (guint i = 0; i < self->errors->len; i++)
    {
      TbSchemaError *error = g_ptr_array_index (self->errors, i);

      if (problem_revealed (self, error))
        g_ptr_array_add (self->shown, tb_schema_error_copy (error));
    }
  if (self->form_usable)
    tb_schema_form_set_errors (self->form, self->shown);
  queue_update_problems (self);
}

static void
validate (TbArgumentEditor *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) errors = NULL;

  g_ptr_array_set_size (self->errors, 0);

  for (guint i = 0; self->local_errors != NULL && i < self->local_errors->len; i++)
    add_problem (self, seen, g_ptr_array_index (self->local_errors, i));

  if (self->tool != NULL && self->value != NULL &&
      !tb_tool_validate_arguments (self->tool, self->value, &errors))
    for (guint i = 0; i < errors->len; i++)
      add_problem (self, seen, g_ptr_array_index (errors, i));

  show_problems (self);
  set_valid (self, self->tool != NULL && self->json_error == NULL && self->errors->len == 0);
  g_signal_emit (self, signals [CHANGED], 0);
}

static void
set_json_text (TbArgumentEditor *self,
               JsonNode         *value)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  g_autofree char *text = tb_schema_form_json_text (value, TRUE);

  /* Text the form wrote is not something to undo in the JSON view. */
  self->json_updating++;
  gtk_text_buffer_begin_irreversible_action (buffer);
  gtk_text_buffer_set_text (buffer, text, -1);
  gtk_text_buffer_end_irreversible_action (buffer);
  self->json_updating--;
}

static void
set_json_error (TbArgumentEditor *self,
                const char       *message)
{
  g_free (self->json_error);
  self->json_error = g_strdup (message);
  gtk_label_set_label (self->json_error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->json_error_label), message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->json_view), "tb-invalid");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->json_view), "tb-invalid");
}

static void
on_form_changed (TbArgumentEditor *self)
{
  g_clear_pointer (&self->value, json_node_unref);
  g_clear_pointer (&self->local_errors, g_ptr_array_unref);
  self->value = tb_schema_form_get_value (self->form, &self->local_errors);
  set_json_error (self, NULL);
  set_json_text (self, self->value);
  validate (self);
}

static void
on_form_revealed (TbArgumentEditor *self)
{
  show_problems (self);
  g_signal_emit (self, signals [CHANGED], 0);
}

static void
clear_error_mark (TbArgumentEditor *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, "tb-error", &start, &end);
}

/* json-glib says where it stopped as "<data>:LINE:COLUMN: message": the
 * line is underlined in the editor and the message says it in words. */
static char *
describe_json_error (TbArgumentEditor *self,
                     GError           *error)
{
  g_autoptr(GRegex) regex = g_regex_new ("<data>:([0-9]+):([0-9]+): *(.*)$", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  if (error->domain == TB_JSON_ERROR && error->code == TB_JSON_ERROR_SYNTAX &&
      g_regex_match (regex, error->message, 0, &match))
    {
      g_autofree char *line_text = g_match_info_fetch (match, 1);
      g_autofree char *column_text = g_match_info_fetch (match, 2);
      g_autofree char *detail = g_match_info_fetch (match, 3);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
      int line = atoi (line_text);
      GtkTextIter start, end;

      if (line >= 1 && line <= gtk_text_buffer_get_line_count (buffer))
        {
          gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
          end = start;
          if (!gtk_text_iter_ends_line (&end))
            gtk_text_iter_forward_to_line_end (&end);
          gtk_text_buffer_apply_tag_by_name (buffer, "tb-error", &start, &end);
        }
      /* Translators: shown under the JSON editor: a line, a column, then json-glib's message */
      return g_strdup_printf (_("Not valid JSON at line %d, column %d: %s"),
                              line, atoi (column_text), detail);
    }

  /* Translators: shown under the JSON editor; %s says what is wrong */
  return g_strdup_printf (_("Not valid JSON: %s"), error->message);
}

static void
parse_json (TbArgumentEditor *self)
{
  g_autofree char *text = tb_argument_editor_get_text (self);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = tb_json_parse (text, -1, &error);
  clear_error_mark (self);
  if (node == NULL)
    {
      g_autofree char *message = describe_json_error (self, error);

      set_json_error (self, message);
      validate (self);
      set_valid (self, FALSE);
      return;
    }

  set_json_error (self, NULL);
  g_clear_pointer (&self->value, json_node_unref);
  g_clear_pointer (&self->local_errors, g_ptr_array_unref);
  self->value = g_steal_pointer (&node);
  if (self->form_usable)
    tb_schema_form_set_value (self->form, self->value);
  validate (self);
}

static gboolean
parse_json_later (gpointer user_data)
{
  TbArgumentEditor *self = user_data;

  self->parse_source = 0;
  parse_json (self);
  return G_SOURCE_REMOVE;
}

static void
on_json_changed (GtkTextBuffer    *buffer,
                 TbArgumentEditor *self)
{
  if (self->json_updating > 0)
    return;

  /* Text typed into the JSON view is the person's whole answer. */
  self->reveal_all = TRUE;
  g_clear_handle_id (&self->parse_source, g_source_remove);
  if (gtk_text_buffer_get_char_count (buffer) > LARGE_TEXT)
    {
      self->parse_source = g_timeout_add (250, parse_json_later, self);
      set_valid (self, FALSE);
    }
  else
    parse_json (self);
}

static void
on_copy_clicked (TbArgumentEditor *self)
{
  g_autofree char *text = tb_argument_editor_get_text (self);

  tb_copy_text (GTK_WIDGET (self), text);
}

static void
on_paste_read (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TbArgumentEditor) self = user_data;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  if (text == NULL)
    return;
  /* A paste that is not JSON goes to the JSON view, where the error shows. */
  if (!tb_argument_editor_set_text (self, text, NULL))
    tb_argument_editor_set_view (self, "json");
}

/**
 * tb_argument_editor_paste:
 * @self: an editor
 *
 * Takes JSON from the clipboard as the arguments; text that is not JSON
 * lands in the JSON view with its error shown.
 */
void
tb_argument_editor_paste (TbArgumentEditor *self)
{
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (self)), NULL,
                                 on_paste_read, g_object_ref (self));
}

/* A problem row was activated: its target is the value's pointer. */
static void
show_problem_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TbArgumentEditor *self = TB_ARGUMENT_EDITOR (widget);
  const char *pointer = g_variant_get_string (parameter, NULL);
  GtkWidget *input;

  if (!self->form_usable)
    return;
  input = tb_schema_form_get_input (self->form, pointer);
  if (input != NULL)
    {
      tb_argument_editor_set_view (self, "form");
      gtk_widget_grab_focus (input);
    }
}

static void
on_view_toggled (TbArgumentEditor *self)
{
  const char *view = gtk_toggle_button_get_active (self->json_toggle) ? "json" : "form";

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), view) != 0)
    gtk_stack_set_visible_child_name (self->view_stack, view);
}

static void
on_visible_view (TbArgumentEditor *self)
{
  gboolean json = g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "json") == 0;

  gtk_toggle_button_set_active (json ? self->json_toggle : self->form_toggle, TRUE);
}

static void
tb_argument_editor_dispose (GObject *object)
{
  TbArgumentEditor *self = (TbArgumentEditor *) object;

  g_clear_handle_id (&self->parse_source, g_source_remove);
  g_clear_handle_id (&self->problems_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_ARGUMENT_EDITOR);
  tb_widget_unparent_children (GTK_WIDGET (self));

  G_OBJECT_CLASS (tb_argument_editor_parent_class)->dispose (object);
}

static void
tb_argument_editor_finalize (GObject *object)
{
  TbArgumentEditor *self = (TbArgumentEditor *) object;

  g_clear_object (&self->tool);
  g_clear_pointer (&self->value, json_node_unref);
  g_clear_pointer (&self->errors, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->local_errors, g_ptr_array_unref);
  g_free (self->json_error);

  G_OBJECT_CLASS (tb_argument_editor_parent_class)->finalize (object);
}

static void
tb_argument_editor_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TbArgumentEditor *self = TB_ARGUMENT_EDITOR (object);

  switch (prop_id)
    {
    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_argument_editor_class_init (TbArgumentEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_argument_editor_dispose;
  object_class->finalize = tb_argument_editor_finalize;
  object_class->get_property = tb_argument_editor_get_property;

  properties [PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL, TB_TYPE_TOOL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TbArgumentEditor::changed:
   *
   * The arguments or their validity changed.
   */
  signals [CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (TB_TYPE_HEADING_ROW);
  g_type_ensure (TB_TYPE_SCHEMA_FORM);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-argument-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, view_stack);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, switcher);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, form_toggle);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, json_toggle);
  gtk_widget_class_bind_template_callback (widget_class, on_view_toggled);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, form);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, form_note);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, json_view);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, json_error_label);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, problems_box);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, problems_label);
  gtk_widget_class_bind_template_child (widget_class, TbArgumentEditor, problems_list);
  gtk_widget_class_bind_template_callback (widget_class, on_form_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_bind_template_callback (widget_class, tb_argument_editor_paste);
  gtk_widget_class_bind_template_callback (widget_class, tb_argument_editor_reset);
  gtk_widget_class_install_action (widget_class, "editor.show-problem", "s", show_problem_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tbargumenteditor");
}

static void
tb_argument_editor_init (TbArgumentEditor *self)
{
  GtkLayoutManager *layout;

  tb_app_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 12);

  self->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
  self->shown = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
  self->form_usable = TRUE;
  g_signal_connect_swapped (self->form, "revealed", G_CALLBACK (on_form_revealed), self);
  g_signal_connect_swapped (self->view_stack, "notify::visible-child-name",
                            G_CALLBACK (on_visible_view), self);
  tb_source_view_setup (self->json_view, "json", TRUE);
  gtk_text_buffer_create_tag (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view)),
                              "tb-error", "underline", PANGO_UNDERLINE_ERROR, NULL);
  g_signal_connect (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view)), "changed",
                    G_CALLBACK (on_json_changed), self);
}

GtkWidget *
tb_argument_editor_new (void)
{
  return g_object_new (TB_TYPE_ARGUMENT_EDITOR, NULL);
}

/**
 * tb_argument_editor_set_tool:
 * @self: an editor
 * @tool: (nullable): the tool whose arguments to edit
 * @arguments: (nullable): the arguments to start with; %NULL uses the
 *   schema's defaults
 */
void
tb_argument_editor_set_tool (TbArgumentEditor *self,
                             TbTool           *tool,
                             JsonNode         *arguments)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TB_IS_ARGUMENT_EDITOR (self));
  g_return_if_fail (!tool || TB_IS_TOOL (tool));

  g_clear_handle_id (&self->parse_source, g_source_remove);
  /* A new form: nothing in it has been reached yet. */
  self->reveal_all = FALSE;
  if (g_set_object (&self->tool, tool))
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TOOL]);

  self->form_usable = tb_schema_form_set_schema (self->form,
                                                 tool != NULL ? tb_tool_get_parameters (tool)
                                                              : NULL,
                                                 &error);
  gtk_widget_set_visible (GTK_WIDGET (self->form), self->form_usable);
  gtk_widget_set_visible (GTK_WIDGET (self->form_note), !self->form_usable);
  gtk_widget_set_sensitive (self->switcher, self->form_usable);
  if (!self->form_usable)
    {
      gtk_label_set_label (self->form_note, error->message);
      gtk_stack_set_visible_child_name (self->view_stack, "json");
    }

  if (arguments != NULL)
    tb_argument_editor_set_arguments (self, arguments);
  else
    on_form_changed (self);
}

static JsonNode *
refuse_call (TbTool        *tool,
             JsonObject    *arguments,
             JsonObject    *context,
             GCancellable  *cancellable,
             gpointer       user_data,
             GError       **error)
{
  g_set_error_literal (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                       _("These arguments only describe a form; there is nothing to run."));
  return NULL;
}

/**
 * tb_argument_editor_set_schema:
 * @self: an editor
 * @schema: a JSON Schema of an object
 * @arguments: (nullable): the value to start with; %NULL uses the defaults
 * @error: set when @schema is not an object schema
 *
 * Edits a value described only by a schema (an MCP elicitation request, a
 * hand-written result) with the same form, JSON view and validation as a
 * tool's arguments.
 *
 * Returns: %TRUE when the schema was accepted
 */
gboolean
tb_argument_editor_set_schema (TbArgumentEditor  *self,
                               JsonNode          *schema,
                               JsonNode          *arguments,
                               GError           **error)
{
  g_autoptr(TbTool) holder = NULL;

  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), FALSE);
  g_return_val_if_fail (schema != NULL, FALSE);

  /* A tool that is never registered nor run carries the schema, so the
   * value is validated exactly as a tool's arguments are. */
  holder = tb_tool_new_simple ("value", NULL, schema, TB_TOOL_SIMPLE_FLAGS_NONE, refuse_call,
                               NULL, NULL, error);
  if (holder == NULL)
    return FALSE;
  tb_argument_editor_set_tool (self, holder, arguments);
  return TRUE;
}

/**
 * tb_argument_editor_get_tool:
 * @self: an editor
 *
 * Returns: (transfer none) (nullable): the tool
 */
TbTool *
tb_argument_editor_get_tool (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  return self->tool;
}

/**
 * tb_argument_editor_get_arguments:
 * @self: an editor
 *
 * Returns: (transfer full) (nullable): the arguments, or %NULL while the
 *   JSON text does not parse
 */
JsonNode *
tb_argument_editor_get_arguments (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  if (self->parse_source != 0)
    {
      g_clear_handle_id (&self->parse_source, g_source_remove);
      parse_json (self);
    }
  if (self->json_error != NULL || self->value == NULL)
    return NULL;
  return json_node_copy (self->value);
}

/**
 * tb_argument_editor_set_arguments:
 * @self: an editor
 * @arguments: the arguments to show in both views
 */
void
tb_argument_editor_set_arguments (TbArgumentEditor *self,
                                  JsonNode         *arguments)
{
  g_return_if_fail (TB_IS_ARGUMENT_EDITOR (self));
  g_return_if_fail (arguments != NULL);

  g_clear_handle_id (&self->parse_source, g_source_remove);
  g_clear_pointer (&self->value, json_node_unref);
  self->value = json_node_copy (arguments);
  set_json_error (self, NULL);
  set_json_text (self, self->value);
  g_clear_pointer (&self->local_errors, g_ptr_array_unref);
  if (self->form_usable)
    tb_schema_form_set_value (self->form, self->value);
  validate (self);
}

/**
 * tb_argument_editor_set_text:
 * @self: an editor
 * @text: JSON text
 * @error: set when @text is not JSON
 *
 * Puts @text into the JSON view (as if pasted there) and, when it parses,
 * into the form.
 *
 * Returns: %TRUE when @text is JSON
 */
gboolean
tb_argument_editor_set_text (TbArgumentEditor  *self,
                             const char        *text,
                             GError           **error)
{
  GtkTextBuffer *buffer;

  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  self->json_updating++;
  gtk_text_buffer_set_text (buffer, text, -1);
  self->json_updating--;
  g_clear_handle_id (&self->parse_source, g_source_remove);
  self->reveal_all = TRUE;
  parse_json (self);

  if (self->json_error != NULL)
    {
      g_set_error_literal (error, TB_JSON_ERROR, TB_JSON_ERROR_SYNTAX, self->json_error);
      return FALSE;
    }
  /* Pasted JSON is laid out like the rest. */
  set_json_text (self, self->value);
  return TRUE;
}

/**
 * tb_argument_editor_get_text:
 * @self: an editor
 *
 * Returns: (transfer full): the JSON view's text
 */
char *
tb_argument_editor_get_text (TbArgumentEditor *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * tb_argument_editor_reset:
 * @self: an editor
 *
 * Goes back to the schema's defaults.
 */
void
tb_argument_editor_reset (TbArgumentEditor *self)
{
  g_return_if_fail (TB_IS_ARGUMENT_EDITOR (self));

  self->reveal_all = FALSE;
  if (self->form_usable)
    {
      tb_schema_form_set_value (self->form, NULL);
      on_form_changed (self);
    }
  else
    {
      g_autoptr(JsonNode) empty = tb_json_node_new_object ();

      tb_argument_editor_set_arguments (self, empty);
    }
}

gboolean
tb_argument_editor_get_valid (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), FALSE);

  return self->valid;
}

/**
 * tb_argument_editor_get_parsable:
 * @self: an editor
 *
 * Returns: whether the arguments are JSON (valid or not against the schema)
 */
gboolean
tb_argument_editor_get_parsable (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), FALSE);

  return self->json_error == NULL && self->value != NULL;
}

/**
 * tb_argument_editor_get_errors:
 * @self: an editor
 *
 * Returns: (transfer none) (element-type TbSchemaError): the current problems,
 *   one per field, whether shown yet or not
 */
GPtrArray *
tb_argument_editor_get_errors (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  return self->errors;
}

/**
 * tb_argument_editor_get_shown_errors:
 * @self: an editor
 *
 * Returns: (transfer none) (element-type TbSchemaError): the problems shown
 *   at their fields and listed: those of fields the person has left or
 *   changed, or all of them after tb_argument_editor_reveal_problems()
 */
GPtrArray *
tb_argument_editor_get_shown_errors (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  return self->shown;
}

/**
 * tb_argument_editor_reveal_problems:
 * @self: an editor
 *
 * Shows every problem at its field, as when the person tries to run with
 * arguments that are not valid, and focuses the first one's field.
 */
void
tb_argument_editor_reveal_problems (TbArgumentEditor *self)
{
  g_return_if_fail (TB_IS_ARGUMENT_EDITOR (self));

  self->reveal_all = TRUE;
  show_problems (self);
  if (self->form_usable && self->shown->len > 0 &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "form") == 0)
    {
      TbSchemaError *first = g_ptr_array_index (self->shown, 0);
      GtkWidget *input = tb_schema_form_get_input (self->form, first->instance_path);

      if (input != NULL)
        gtk_widget_grab_focus (input);
    }
  g_signal_emit (self, signals [CHANGED], 0);
}

/**
 * tb_argument_editor_get_form:
 * @self: an editor
 *
 * Returns: (transfer none): the form view
 */
TbSchemaForm *
tb_argument_editor_get_form (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  return self->form;
}

/**
 * tb_argument_editor_get_json_buffer:
 * @self: an editor
 *
 * Returns: (transfer none): the JSON view's buffer
 */
GtkTextBuffer *
tb_argument_editor_get_json_buffer (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
}

/**
 * tb_argument_editor_get_json_error:
 * @self: an editor
 *
 * Returns: (nullable): the syntax error shown under the JSON view
 */
const char *
tb_argument_editor_get_json_error (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  return self->json_error;
}

const char *
tb_argument_editor_get_view (TbArgumentEditor *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), NULL);

  return gtk_stack_get_visible_child_name (self->view_stack);
}

/**
 * tb_argument_editor_set_view:
 * @self: an editor
 * @view: "form" or "json"
 */
void
tb_argument_editor_set_view (TbArgumentEditor *self,
                             const char       *view)
{
  g_return_if_fail (TB_IS_ARGUMENT_EDITOR (self));

  if (g_strcmp0 (view, "form") == 0 && !self->form_usable)
    return;
  gtk_stack_set_visible_child_name (self->view_stack, view);
}

/**
 * tb_argument_editor_focus_arguments:
 * @self: an editor
 *
 * Gives the focus to the arguments themselves, past the editor's buttons:
 * the input of the form's first field, or the JSON when that view shows.
 *
 * Returns: whether something in the editor took the focus
 */
gboolean
tb_argument_editor_focus_arguments (TbArgumentEditor *self)
{
  GtkRoot *root;
  GtkWidget *focus;

  g_return_val_if_fail (TB_IS_ARGUMENT_EDITOR (self), FALSE);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "json") == 0)
    return gtk_widget_grab_focus (GTK_WIDGET (self->json_view));
  if (!gtk_widget_child_focus (GTK_WIDGET (self->form), GTK_DIR_TAB_FORWARD))
    return gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
  /* A field's row takes the focus before its input: on into the row. */
  root = gtk_widget_get_root (GTK_WIDGET (self));
  focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  if (GTK_IS_LIST_BOX_ROW (focus))
    gtk_widget_child_focus (focus, GTK_DIR_TAB_FORWARD);
  return TRUE;
}
